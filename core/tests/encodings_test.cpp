// Encodings as linear layouts, checked against Triton 3.9.
//
// tests/triton_reference/encodings/encoding_cases.json records, for each case, the attribute
// text exactly as Triton prints it, the shape, and the layout Triton's toLinearLayout returned
// (or Triton's error). Each supported case is parsed with parseAttribute and turned into a
// layout with attributeToLayout; the result must equal Triton's (bases, in/out dims and sizes).
// A case Triton rejected must be an error here too. Slice cases whose innermost parent is not
// #ttg.blocked are skipped until that parent is supported.
#include "llcheck/core/Encodings.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/Spec.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <string>

#ifndef LLCHECK_SOURCE_DIR
#error "LLCHECK_SOURCE_DIR must name the source tree (see core/CMakeLists.txt)"
#endif

namespace llcheck {
namespace {

using json = nlohmann::json;

const json& cases() {
  static const json j = [] {
    std::ifstream in(LLCHECK_SOURCE_DIR "/tests/triton_reference/encodings/encoding_cases.json");
    return json::parse(in);
  }();
  return j;
}

LinearLayout tritonLayout(const json& layout) {
  std::vector<DimBases> bases;
  for (const json& in : layout["ins"])
    bases.push_back({DimName(in["name"].get<std::string>()),
                     in["bases"].get<std::vector<std::vector<uint64_t>>>()});
  std::vector<DimSize> outs;
  for (const json& out : layout["outs"])
    outs.push_back({DimName(out["name"].get<std::string>()), out["size"].get<uint64_t>()});
  return LinearLayout::create(bases, outs, /*requireSurjective=*/false).value();
}

/// The innermost parent's encoding name of a (possibly nested) slice case.
std::string innermostParent(const json& params) {
  const json* p = &params;
  while (p->contains("parent")) {
    const json& parent = (*p)["parent"];
    if (parent.value("encoding", "") != "slice")
      return parent.value("encoding", "");
    p = &parent["args"];
  }
  return "";
}

struct Counts {
  int matched = 0;
  int total = 0;
  int skipped = 0;
};

Counts checkEncoding(const std::string& encoding) {
  Counts c;
  for (const json& tc : cases()["encodings"][encoding]) {
    std::string id = tc["id"].get<std::string>();
    if (encoding == "slice" && innermostParent(tc["params"]) != "blocked") {
      ++c.skipped;
      continue;
    }
    ++c.total;
    SpecOptions options;
    options.shape = tc["shape"].get<std::vector<uint64_t>>();
    if (tc.contains("num_warps") && tc["num_warps"].is_number())
      options.numWarps = tc["num_warps"].get<uint64_t>();
    if (tc.contains("threads_per_warp") && tc["threads_per_warp"].is_number())
      options.threadsPerWarp = tc["threads_per_warp"].get<uint64_t>();
    auto attr = parseAttribute(tc["attr"].get<std::string>(), "attribute");
    EXPECT_TRUE(attr.ok()) << id << ": " << attr.error().str();
    if (!attr.ok())
      continue;
    auto ours = attributeToLayout(*attr, options, "attribute");
    if (tc.contains("error")) {
      EXPECT_FALSE(ours.ok()) << id << ": Triton rejected it (" << tc["error"] << ")";
      if (!ours.ok())
        ++c.matched;
      continue;
    }
    EXPECT_TRUE(ours.ok()) << id << " " << tc["attr"] << ": " << ours.error().str();
    if (!ours.ok())
      continue;
    LinearLayout expected = tritonLayout(tc["layout"]);
    EXPECT_EQ(*ours, expected) << id << " " << tc["attr"] << " shape " << tc["shape"]
                               << "\nours:" << ours->toString()
                               << "\nTriton:" << expected.toString();
    if (*ours == expected)
      ++c.matched;
  }
  std::cout << "[ encodings ] " << encoding << ": " << c.matched << "/" << c.total
            << " cases match Triton 3.9";
  if (c.skipped)
    std::cout << " (" << c.skipped << " skipped: parent not #ttg.blocked)";
  std::cout << "\n";
  return c;
}

TEST(Encodings, BlockedMatchesTriton) {
  Counts c = checkEncoding("blocked");
  EXPECT_EQ(c.matched, c.total);
  EXPECT_GT(c.total, 0);
}

TEST(Encodings, SliceMatchesTriton) {
  Counts c = checkEncoding("slice");
  EXPECT_EQ(c.matched, c.total);
  EXPECT_GT(c.total, 0);
}

void expectError(const std::string& text, const std::string& fragment,
                 std::optional<std::vector<uint64_t>> shape = std::vector<uint64_t>{64, 16}) {
  SpecOptions options;
  options.shape = shape;
  auto attr = parseAttribute(text, "attribute");
  ASSERT_TRUE(attr.ok()) << text << ": " << attr.error().str();
  auto l = attributeToLayout(*attr, options, "attribute");
  ASSERT_FALSE(l.ok()) << text << " was accepted";
  EXPECT_NE(l.error().str().find(fragment), std::string::npos)
      << text << ": '" << l.error().str() << "' lacks '" << fragment << "'";
  EXPECT_NE(l.error().str().find("attribute at column"), std::string::npos) << l.error().str();
}

TEST(Encodings, BlockedErrors) {
  const std::string ok = "#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], "
                         "warpsPerCTA = [2, 2], order = [1, 0]}>";
  expectError(ok, "--shape", std::nullopt);
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
  expectError("#ttg.slice<{dim = 0, parent = " + ok + "}>", "--shape", std::nullopt);
}

TEST(Encodings, SliceOfCorpusBlocked) {
  // corpus 20/21 are the slices of corpus 02 (blocked-000 above), as Triton computes them.
  SpecOptions options;
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
