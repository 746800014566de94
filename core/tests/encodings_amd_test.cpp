// The AMD encodings (#ttg.amd_mfma, #ttg.amd_wmma, #ttg.dot_op and #ttg.slice of them) checked
// against Triton 3.9: every recorded case of encoding_cases.json and of amd_cases.json (written
// by generate_amd.py) must give Triton's layout, or an error where Triton rejected it. Cases
// whose attribute Triton refused to build have no printed text: generate_amd.py then records
// the text composed from Triton's printed parent ("attr_composed"), and they must be errors.
#include "EncodingCases.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/Spec.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace llcheck {
namespace {

using enctest::checkEncoding;
using enctest::Counts;
using json = nlohmann::json;

std::string amdParent(const json& tc) {
  std::string attr = tc.value("attr", "");
  if (attr.find("amd_mfma") != std::string::npos)
    return "";
  if (attr.find("amd_wmma") != std::string::npos)
    return "";
  return "no AMD parent";
}

void expectAll(const Counts& c) {
  EXPECT_EQ(c.matched, c.total);
  EXPECT_GT(c.total, 0);
}

TEST(EncodingsAmd, MfmaMatchesTriton) {
  expectAll(checkEncoding("amd_mfma"));
}

TEST(EncodingsAmd, WmmaMatchesTriton) {
  expectAll(checkEncoding("amd_wmma"));
}

TEST(EncodingsAmd, ExtraMfmaMatchesTriton) {
  expectAll(checkEncoding("amd_mfma", {}, "amd_cases.json"));
}

TEST(EncodingsAmd, ExtraWmmaMatchesTriton) {
  expectAll(checkEncoding("amd_wmma", {}, "amd_cases.json"));
}

TEST(EncodingsAmd, DotOperandMatchesTriton) {
  expectAll(checkEncoding("dot_op", amdParent, "amd_cases.json"));
}

TEST(EncodingsAmd, SliceMatchesTriton) {
  expectAll(checkEncoding("slice", amdParent, "amd_cases.json"));
}

void expectError(const std::string& text, const std::string& fragment,
                 std::optional<std::vector<uint64_t>> shape = std::vector<uint64_t>{64, 64}) {
  enctest::expectAttributeError(text, fragment, shape);
}

const std::string kMfma = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
                          "32, 8], isTransposed = true}>";
const std::string kWmma =
    "#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = [[0, 1], [1, 0]]}}>";

TEST(EncodingsAmd, MfmaErrors) {
  expectError(kMfma, "pass shape", std::nullopt);
  expectError(kMfma, "rank 2 or 3", std::vector<uint64_t>{64});
  expectError(kMfma, "warpsPerCTA has 2 entries", std::vector<uint64_t>{2, 64, 64});
  expectError(kMfma, "not a power of two", std::vector<uint64_t>{64, 48});
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8]}>",
              "missing 'isTransposed'");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], isTransposed = true}>",
              "missing 'instrShape'");
  expectError("#ttg.amd_mfma<{version = 5, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], "
              "isTransposed = true}>",
              "version must be in the [0, 4] range");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 3], instrShape = [32, 32, 8], "
              "isTransposed = true}>",
              "warpsPerCTA has 3, not a power of two");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [8, 8, 8], "
              "isTransposed = true}>",
              "invalid (mDim, nDim) combination: (8, 8)");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [64, 4, 4], "
              "isTransposed = false}>",
              "must have isTransposed = true");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], "
              "isTransposed = 1}>",
              "isTransposed must be true or false");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], "
              "isTransposed = true, elementBitWidth = 16}>",
              "elementBitWidth must be 32 or 64");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], "
              "isTransposed = true, tilesPerWarp = [3, 1]}>",
              "tilesPerWarp has 3, not a power of two");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], "
              "isTransposed = true, tilesPerWarp = [2]}>",
              "tilesPerWarp has 1 entries");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], "
              "isTransposed = true, CGALayout = [[3, 0]]}>",
              "CGALayout[0] has 3");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], "
              "isTransposed = true, isTransposed = false}>",
              "appears twice");
  expectError("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], "
              "isTransposed = true, warpsPerCGA = [1, 1]}>",
              "unknown key 'warpsPerCGA'");
}

TEST(EncodingsAmd, WmmaErrors) {
  expectError(kWmma, "pass shape", std::nullopt);
  expectError("#ttg.amd_wmma<{version = 4, ctaLayout = {warp = [[1, 0]]}}>",
              "WMMA version must be in the [1, 3] range");
  expectError("#ttg.amd_wmma<{version = 1}>", "missing 'ctaLayout'");
  expectError("#ttg.amd_wmma<{version = 1, isTransposed = true, ctaLayout = {warp = [[1, 0]]}}>",
              "unknown key 'isTransposed'");
  expectError("#ttg.amd_wmma<{version = 1, ctaLayout = {warp = [[1, 0]], lane = [[0, 1]]}}>",
              "unknown key 'lane' in ctaLayout");
  expectError("#ttg.amd_wmma<{version = 1, ctaLayout = {warp = [[3, 0]]}}>", "surjective");
  expectError("#ttg.amd_wmma<{version = 1, ctaLayout = {warp = [[1, 0, 0]]}}>",
              "ctaLayout.warp[0] has 3 entries");
  expectError("#ttg.amd_wmma<{version = 1, ctaLayout = {warp = [[1, 0]]}, instrShape = [16, 16, "
              "32]}>",
              "invalid WMMA v1 instruction shape");
  expectError("#ttg.amd_wmma<{version = 3, ctaLayout = {warp = [[1, 0]]}, instrShape = [32, 16, "
              "32]}>",
              "invalid WMMA v3 instruction shape");
  expectError("#ttg.amd_wmma<{version = 1, ctaLayout = {warp = [[1, 0]]}, rank = 3}>",
              "rank = 3 but shape has rank 2");
  expectError("#ttg.amd_wmma<{version = 1, ctaLayout = [[1, 0]]}>",
              "ctaLayout must be a dictionary");
}

TEST(EncodingsAmd, DotOperandErrors) {
  expectError("#ttg.dot_op<{opIdx = 0, parent = " + kMfma + "}>", "kWidth is mandatory");
  expectError("#ttg.dot_op<{opIdx = 0, parent = " + kMfma + ", kWidth = 3}>",
              "kWidth must be a power of two");
  expectError("#ttg.dot_op<{opIdx = 1, parent = " + kWmma + ", kWidth = 2}>",
              "kWidth 2 is not allowed for a WMMA v2 parent");
  expectError("#ttg.dot_op<{opIdx = 1, parent = " + kWmma + "}>",
              "kWidth 0 is not allowed for a WMMA v2 parent");
  expectError("#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 2}>, kWidth = 8}>",
              "missing 'ctaLayout'");
}

TEST(EncodingsAmd, WarpAndLaneCountsAreChecked) {
  LayoutContext options;
  options.shape = std::vector<uint64_t>{64, 64};
  options.threadsPerWarp = 32;
  EXPECT_FALSE(loadSpec(kMfma, options).ok());
  options.threadsPerWarp = 64;
  options.numWarps = 4;
  EXPECT_TRUE(loadSpec(kMfma, options).ok());
  options.numWarps = 8;
  EXPECT_FALSE(loadSpec(kMfma, options).ok());
  options.threadsPerWarp = 32;
  options.numWarps = 4;
  EXPECT_TRUE(loadSpec(kWmma, options).ok());
}

} // namespace
} // namespace llcheck
