// Encodings as linear layouts, checked against Triton 3.9.
//
// tests/triton_reference/encodings/encoding_cases.json records, for each case, the attribute
// text exactly as Triton prints it, the shape, and the layout Triton's toLinearLayout returned
// (or Triton's error). Each supported case is parsed with parseAttribute and turned into a
// layout with attributeToLayout; the result must equal Triton's (bases, in/out dims and sizes).
// A case Triton rejected must be an error here too. Slice cases whose innermost parent is not
// #ttg.blocked are skipped until that parent is supported.
#include "EncodingCases.h"
#include "llcheck/core/Encodings.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/Spec.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <string>

namespace llcheck {
namespace {

using enctest::checkEncoding;
using enctest::Counts;
using enctest::innermostParent;

TEST(Encodings, BlockedMatchesTriton) {
  Counts c = checkEncoding("blocked");
  EXPECT_EQ(c.matched, c.total);
  EXPECT_GT(c.total, 0);
}

TEST(Encodings, SliceMatchesTriton) {
  Counts c = checkEncoding("slice", [](const nlohmann::json& tc) {
    return innermostParent(tc["params"]) == "blocked" ? "" : "parent not #ttg.blocked";
  });
  EXPECT_EQ(c.matched, c.total);
  EXPECT_GT(c.total, 0);
}

void expectError(const std::string& text, const std::string& fragment,
                 std::optional<std::vector<uint64_t>> shape = std::vector<uint64_t>{64, 16}) {
  enctest::expectAttributeError(text, fragment, shape);
}

// Core names the context an encoding needs (the shape, the numbers of warps and threads) in its own
// terms, and says in Error::context which item an error is about; a front end's names, once set,
// replace core's in the messages (the command line's flags, lit-tested in tests/lit).
TEST(Encodings, ContextItemsAreNamedByTheFrontEnd) {
  const std::string blocked = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                              "warpsPerCTA = [4, 1], order = [1, 0]}>";
  auto noShape = loadSpec(blocked, LayoutContext{});
  ASSERT_FALSE(noShape.ok());
  EXPECT_EQ(noShape.error().context, ContextItem::Shape);
  EXPECT_EQ(noShape.error().message,
            "#ttg.blocked needs the tensor shape; pass shape (e.g. shape 64x16)");
  LayoutContext warps;
  warps.shape = std::vector<uint64_t>{64, 64};
  warps.numWarps = 8;
  auto wrongWarps = loadSpec(blocked, warps);
  ASSERT_FALSE(wrongWarps.ok());
  EXPECT_EQ(wrongWarps.error().context, ContextItem::NumWarps);
  auto badShape = parseShape("63");
  ASSERT_FALSE(badShape.ok());
  EXPECT_EQ(badShape.error().context, ContextItem::Shape);
  EXPECT_EQ(badShape.error().where, "shape");

  setContextNames([](ContextItem item) {
    return item == ContextItem::Shape ? std::string("--shape") : coreContextName(item);
  });
  auto named = loadSpec(blocked, LayoutContext{});
  setContextNames(nullptr);
  ASSERT_FALSE(named.ok());
  EXPECT_EQ(named.error().message,
            "#ttg.blocked needs the tensor shape; pass --shape (e.g. --shape 64x16)");
  EXPECT_EQ(contextName(ContextItem::Shape), "shape");
}

TEST(Encodings, BlockedErrors) {
  const std::string ok = "#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], "
                         "warpsPerCTA = [2, 2], order = [1, 0]}>";
  expectError(ok, "pass shape", std::nullopt);
  expectError(ok, "rank 3", std::vector<uint64_t>{64, 16, 2});
  expectError(ok, "not a power of two", std::vector<uint64_t>{64, 12});
  expectError("#ttg.blocked<{sizePerThread = [3, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, "
              "2], order = [1, 0]}>",
              "sizePerThread has 3, not a power of two");
  expectError("#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, "
              "2], order = [1, 1]}>",
              "order must be a permutation");
  expectError("#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], order = [1, 0]}>",
              "missing 'warpsPerCTA'");
  expectError("#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, "
              "2], order = [1, 0], CTAsPerCGA = [1, 1]}>",
              "unknown key 'CTAsPerCGA'");
  expectError("#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], "
              "order = [1, 0]}>",
              "sizePerThread has 1 entries");
  expectError("#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, "
              "2], order = [1, 0], CGALayout = [[1]]}>",
              "CGALayout[0] has 1 entries");
  expectError("#ttg.slice<{dim = 2, parent = " + ok + "}>", "out of range",
              std::vector<uint64_t>{64});
  expectError("#ttg.slice<{dim = 0}>", "missing 'parent'", std::vector<uint64_t>{64});
  expectError("#ttg.slice<{dim = 0, parent = " + ok + "}>", "pass shape", std::nullopt);
}

TEST(Encodings, SliceOfCorpusBlocked) {
  // corpus 20/21 are the slices of corpus 02 (blocked-000 above), as Triton computes them.
  LayoutContext options;
  options.shape = std::vector<uint64_t>{64};
  auto l = loadSpec("#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 2], "
                    "threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>}>",
                    options);
  ASSERT_TRUE(l.ok()) << l.error().str();
  auto corpus = loadSpec(LLCHECK_SOURCE_DIR "/corpus/layouts/20-slice-dim1-of-02.json", {});
  ASSERT_TRUE(corpus.ok()) << corpus.error().str();
  EXPECT_EQ(l->layout, corpus->layout);
}

} // namespace
} // namespace llcheck
