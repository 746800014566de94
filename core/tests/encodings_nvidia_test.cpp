// The NVIDIA encodings (#ttg.nvidia_mma, #ttg.dot_op of it or of #ttg.blocked, #ttg.slice of
// them) checked against Triton 3.9.
//
// Two reference files: encoding_cases.json (the shared one) and nvidia_cases.json (made by
// tests/triton_reference/encodings/generate_nvidia.py: Hopper instrShapes, multi-CTA CGA
// layouts, rank 3 and 4, every kWidth, and the parameter sets Triton rejects). A few recorded
// dot_op cases were rejected by Triton's attribute verifier before it could print them; those
// have no "attr", and their text is composed here from the recorded parameters, in Triton's
// printed form, to check that we reject them too.
#include "EncodingCases.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/encodings/Nvidia.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace llcheck {
namespace {

using enctest::checkEncoding;
using enctest::Counts;
using enctest::innermostParent;
using json = nlohmann::json;

bool nvidiaParent(const json& params) {
  std::string p = params["parent"].value("encoding", "");
  return p == "nvidia_mma" || p == "blocked";
}

std::string intList(const json& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i].get<int64_t>());
  return s + "]";
}

std::string basesList(const json& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + intList(v[i]);
  return s + "]";
}

/// Triton's printed form of a Gluon layout's parameters (the field order of Triton's printer,
/// as in the recorded "attr" texts).
std::string composeAttr(const json& spec) {
  const std::string enc = spec["encoding"];
  const json& a = spec["args"];
  std::string cga = a.contains("cga_layout") && !a["cga_layout"].empty()
                        ? ", CGALayout = " + basesList(a["cga_layout"])
                        : "";
  if (enc == "nvidia_mma")
    return "#ttg.nvidia_mma<{versionMajor = " + std::to_string(a["version"][0].get<int>()) +
           ", versionMinor = " + std::to_string(a["version"][1].get<int>()) +
           ", warpsPerCTA = " + intList(a["warps_per_cta"]) + cga +
           ", instrShape = " + intList(a["instr_shape"]) + "}>";
  if (enc == "blocked")
    return "#ttg.blocked<{sizePerThread = " + intList(a["size_per_thread"]) +
           ", threadsPerWarp = " + intList(a["threads_per_warp"]) +
           ", warpsPerCTA = " + intList(a["warps_per_cta"]) + ", order = " + intList(a["order"]) +
           cga + "}>";
  if (enc == "dot_op") {
    int kWidth = a["k_width"].get<int>();
    return "#ttg.dot_op<{opIdx = " + std::to_string(a["operand_index"].get<int>()) +
           ", parent = " + composeAttr(a["parent"]) +
           (kWidth ? ", kWidth = " + std::to_string(kWidth) : std::string()) + "}>";
  }
  return "";
}

/// The cases of `encoding` that Triton rejected before printing an attribute: each must be an
/// error here too.
Counts checkRejectedBeforePrinting(const std::string& encoding, const std::string& file,
                                   const std::function<bool(const json&)>& select) {
  Counts c;
  for (const json& tc : enctest::cases(file)["encodings"][encoding]) {
    if (tc.contains("attr") || !select(tc["params"]))
      continue;
    ++c.total;
    EXPECT_TRUE(tc.contains("error")) << tc["id"];
    std::string text = composeAttr({{"encoding", encoding}, {"args", tc["params"]}});
    auto attr = parseAttribute(text, "attribute");
    EXPECT_TRUE(attr.ok()) << text << ": " << attr.error().str();
    if (!attr.ok())
      continue;
    LayoutContext options;
    options.shape = tc["shape"].get<std::vector<uint64_t>>();
    auto l = attributeToLayout(*attr, options, "attribute");
    EXPECT_FALSE(l.ok()) << tc["id"] << " " << text << ": Triton rejected it (" << tc["error"]
                         << ")";
    if (!l.ok())
      ++c.matched;
  }
  std::cout << "[ encodings ] " << encoding << " rejected by Triton before printing: " << c.matched
            << "/" << c.total << " rejected here too\n";
  return c;
}

const char* const kNoAttr = "rejected before printing (checked by composing its text)";

TEST(EncodingsNvidia, NvidiaMmaMatchesTriton) {
  Counts c = checkEncoding("nvidia_mma");
  EXPECT_EQ(c.matched, c.total);
  EXPECT_EQ(c.total, 60);
}

TEST(EncodingsNvidia, DotOperandMatchesTriton) {
  Counts c = checkEncoding("dot_op", [](const json& tc) -> std::string {
    if (!nvidiaParent(tc["params"]))
      return "parent not NVIDIA";
    return tc.contains("attr") ? "" : kNoAttr;
  });
  EXPECT_EQ(c.matched, c.total);
  EXPECT_EQ(c.total, 64);
  Counts r = checkRejectedBeforePrinting("dot_op", "encoding_cases.json", nvidiaParent);
  EXPECT_EQ(r.matched, r.total);
  EXPECT_EQ(r.total, 8);
}

TEST(EncodingsNvidia, SliceOfNvidiaMmaMatchesTriton) {
  Counts c = checkEncoding("slice", [](const json& tc) {
    return innermostParent(tc["params"]) == "nvidia_mma" ? "" : "parent not #ttg.nvidia_mma";
  });
  EXPECT_EQ(c.matched, c.total);
  EXPECT_GT(c.total, 0);
}

TEST(EncodingsNvidia, ExtraCasesMatchTriton) {
  const std::string file = "nvidia_cases.json";
  for (const char* encoding : {"nvidia_mma", "dot_op", "slice"}) {
    Counts c = checkEncoding(
        encoding, [](const json& tc) { return tc.contains("attr") ? "" : kNoAttr; }, file);
    EXPECT_EQ(c.matched, c.total) << encoding;
    EXPECT_GT(c.total, 0) << encoding;
    Counts r = checkRejectedBeforePrinting(encoding, file, [](const json&) { return true; });
    EXPECT_EQ(r.matched, r.total) << encoding;
  }
}

void expectError(const std::string& text, const std::string& fragment,
                 std::optional<std::vector<uint64_t>> shape = std::vector<uint64_t>{64, 64}) {
  enctest::expectAttributeError(text, fragment, shape);
}

std::string mma(const std::string& fields) {
  return "#ttg.nvidia_mma<{" + fields + "}>";
}

const std::string kMmaV2 =
    mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]");
const std::string kMmaV3 =
    mma("versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]");

TEST(EncodingsNvidia, NvidiaMmaErrors) {
  expectError(kMmaV2, "pass shape", std::nullopt);
  expectError(kMmaV2, "has rank 2 but shape 64x64x2 has rank 3", std::vector<uint64_t>{64, 64, 2});
  expectError(kMmaV2, "not a power of two", std::vector<uint64_t>{48, 64});
  expectError(mma("versionMajor = 1, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, "
                  "8]"),
              "Volta");
  for (const char* v : {"0", "4", "5"})
    expectError(mma(std::string("versionMajor = ") + v +
                    ", versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]"),
                "versionMajor must be 2 (Ampere) or 3 (Hopper)");
  expectError(mma("versionMajor = 2, warpsPerCTA = [2, 2]"), "missing 'instrShape'");
  expectError(mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, "
                  "8], instrShape = [16, 8]"),
              "appears twice");
  expectError(mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, "
                  "8], CTAsPerCGA = [1, 1]"),
              "unknown key 'CTAsPerCGA'");
  expectError(mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = [3, 1], instrShape = [16, "
                  "8]"),
              "warpsPerCTA has 3, not a power of two");
  expectError(mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = 4, instrShape = [16, 8]"),
              "warpsPerCTA must be an array");
  expectError(mma("versionMajor = [2], versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, "
                  "8]"),
              "versionMajor must be an integer");
  expectError(mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = [4], instrShape = [16]"),
              "rank at least 2", std::vector<uint64_t>{64});
  // Triton asserts in nvidiaMmaTile: the tile is 8 rows by 4 lanes * 2 columns at least.
  expectError(mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [4, "
                  "8]"),
              "instrShape's M is 4");
  expectError(mma("versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, "
                  "24, 16]"),
              "instrShape's N is 24");
  expectError(mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, "
                  "8, 8]"),
              "version 2 needs one per dim");
  expectError(mma("versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [16, "
                  "64, 16]"),
              "version 3 (Hopper) supports rank 2 only", std::vector<uint64_t>{2, 64, 64});
  expectError(mma("versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16]"),
              "must be [M, N, K]");
  // Triton's CGA layout verifier: one power of two per basis, every block position reached.
  for (const char* cga : {"[[2, 0]]", "[[1, 1]]", "[[3, 0]]", "[[1, 0], [1, 1]]"})
    expectError(mma(std::string("versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], "
                                "CGALayout = ") +
                    cga + ", instrShape = [16, 8]"),
                "CGALayout");
  expectError(mma("versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], CGALayout = [[1]], "
                  "instrShape = [16, 8]"),
              "CGALayout[0] has 1 entries");
  LayoutContext options;
  options.shape = std::vector<uint64_t>{64, 64};
  options.numWarps = 8;
  auto l = loadSpec(kMmaV2, options);
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().str().find("numWarps 8 disagrees"), std::string::npos);
}

std::string dot(int opIdx, const std::string& parent, int kWidth) {
  return "#ttg.dot_op<{opIdx = " + std::to_string(opIdx) + ", parent = " + parent +
         (kWidth ? ", kWidth = " + std::to_string(kWidth) : std::string()) + "}>";
}

TEST(EncodingsNvidia, DotOperandErrors) {
  const std::string blocked = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], "
                              "warpsPerCTA = [2, 2], order = [1, 0]}>";
  expectError(dot(0, kMmaV2, 0), "needs kWidth");
  expectError(dot(0, kMmaV3, 0), "needs kWidth");
  expectError(dot(0, kMmaV2, 3), "kWidth 3 is not a power of two");
  expectError(dot(1, kMmaV3, 2), "opIdx must be 0");
  expectError(dot(0, blocked, 2), "kWidth is not supported");
  expectError(dot(0, kMmaV2, 2), "pass shape", std::nullopt);
  expectError(dot(0, blocked, 0), "pass shape", std::nullopt);
  expectError(dot(0, kMmaV2, 2), "has rank 2 but shape 64 has rank 1", std::vector<uint64_t>{64});
  expectError(dot(0, blocked, 0), "rank at least 2", std::vector<uint64_t>{64});
  expectError(dot(1, blocked, 0), "sizePerThread has 2 entries", std::vector<uint64_t>{4, 64, 64});
  // The parent's own errors come through with their positions.
  expectError(dot(0, mma("versionMajor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8]"), 2),
              "Volta");
}

TEST(EncodingsNvidia, MmaTileByHand) {
  // mma.sync m16n8 accumulator, one warp (PTX ISA, "Matrix Fragments for mma.m16n8k16"): lane
  // t holds rows t/4 and t/4 + 8, columns 2 * (t % 4) and 2 * (t % 4) + 1.
  auto l = nvidiaMmaToLinearLayout({2, 0, {1, 1}, {16, 8}, {}}, {16, 8});
  ASSERT_TRUE(l.ok()) << l.error().str();
  for (uint64_t lane = 0; lane < 32; ++lane)
    for (uint64_t reg = 0; reg < 4; ++reg) {
      auto out = l->apply(
          {{dims::kRegister, reg}, {dims::kLane, lane}, {dims::kWarp, 0}, {dims::kBlock, 0}});
      ASSERT_TRUE(out.ok());
      uint64_t row = lane / 4 + 8 * (reg / 2);
      uint64_t col = 2 * (lane % 4) + reg % 2;
      EXPECT_EQ((*out)[0].second, row) << "lane " << lane << " reg " << reg;
      EXPECT_EQ((*out)[1].second, col) << "lane " << lane << " reg " << reg;
    }
}

} // namespace
} // namespace llcheck
