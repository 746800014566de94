// The shared-memory and tensor-memory encodings, checked against Triton 3.9.
//
// encoding_cases.json (generate.py) and shared_cases.json (generate_shared.py) hold Triton's own
// layouts for #ttg.swizzled_shared, #ttg.nvmma_shared, #ttg.shared_linear and tensor memory;
// every case must match, and every case Triton rejected must be an error here. Triton cannot
// produce #ttg.padded_shared's layout (its toLinearLayout refuses) nor #ttg.amd_rotating_shared's
// (no Python binding); those are checked against the parameters Triton printed the attribute
// from, and against hand derivations stated next to each expectation.
#include "EncodingCases.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/encodings/Shared.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <string>

namespace llcheck {
namespace {

using enctest::cases;
using enctest::checkEncoding;
using enctest::Counts;
using json = nlohmann::json;

std::string basesText(const json& bases);

/// The attribute text of a case Gluon rejected before Triton printed one, written from the
/// case's parameters in Triton's syntax.
std::string attrFromParams(const std::string& encoding, const json& p) {
  if (encoding == "nvmma_shared")
    return "#ttg.nvmma_shared<{swizzlingByteWidth = " +
           std::to_string(p["swizzle_byte_width"].get<int>()) +
           ", transposed = " + (p["transposed"].get<bool>() ? "true" : "false") +
           ", elementBitWidth = " + std::to_string(p["element_bitwidth"].get<int>()) +
           (p["fp4_padded"].get<bool>() ? ", fp4Padded = true" : "") + "}>";
  if (encoding == "shared_linear")
    return "#ttg.shared_linear<{offset = " + basesText(p["offset_bases"]) +
           ", block = " + basesText(p["block_bases"]) +
           "}, alignment = " + std::to_string(p["alignment"].get<int>()) + ">";
  return "";
}

void expectAllMatch(const std::string& encoding, const std::string& file) {
  // Cases without printed text are the ones Triton rejected before printing (Gluon's own
  // assertions, or the memdesc verifier); they are checked from their parameters below.
  Counts c = checkEncoding(
      encoding,
      [](const json& tc) { return tc.contains("attr") ? "" : "no attribute text (rejected)"; },
      file);
  EXPECT_EQ(c.matched, c.total);
  EXPECT_GT(c.total, 0);
  int rejected = 0, unprinted = 0;
  for (const json& tc : cases(file)["encodings"][encoding]) {
    if (tc.contains("attr"))
      continue;
    ++unprinted;
    ASSERT_TRUE(tc.contains("error")) << tc["id"];
    std::string text = attrFromParams(encoding, tc["params"]);
    ASSERT_FALSE(text.empty()) << tc["id"];
    LayoutContext options;
    options.shape = tc["shape"].get<std::vector<uint64_t>>();
    auto l = loadSpec(text, options);
    EXPECT_FALSE(l.ok()) << tc["id"] << " " << text << " (Triton: " << tc["error"] << ")";
    rejected += l.ok() ? 0 : 1;
  }
  std::cout << "[ encodings ] " << encoding << ": " << rejected << "/" << unprinted
            << " parameter sets Triton rejected before printing are rejected\n";
  EXPECT_EQ(rejected, unprinted);
}

TEST(EncodingsShared, SwizzledSharedMatchesTriton) {
  expectAllMatch("swizzled_shared", "encoding_cases.json");
  expectAllMatch("swizzled_shared", "shared_cases.json");
}

TEST(EncodingsShared, NvmmaSharedMatchesTriton) {
  expectAllMatch("nvmma_shared", "encoding_cases.json");
  expectAllMatch("nvmma_shared", "shared_cases.json");
}

TEST(EncodingsShared, SharedLinearMatchesTriton) {
  expectAllMatch("shared_linear", "encoding_cases.json");
}

Result<LoadedLayout> load(const std::string& text, std::optional<std::vector<uint64_t>> shape) {
  LayoutContext options;
  options.shape = std::move(shape);
  return loadSpec(text, options);
}

std::string basesText(const json& bases) {
  std::string s = "[";
  for (std::size_t i = 0; i < bases.size(); ++i) {
    s += i ? ", [" : "[";
    for (std::size_t k = 0; k < bases[i].size(); ++k)
      s += (k ? ", " : "") + std::to_string(bases[i][k].get<uint64_t>());
    s += "]";
  }
  return s + "]";
}

// Triton 3.9 has no linear layout for padded_shared; what it does have is the attribute text it
// printed for the Gluon parameters (interval_padding_pairs, offset_bases, cga_layout). Our
// reading of that text must give back exactly those parameters: the linear component is the
// layout of offset_bases (the short {order, shape} form included), and the padding the pairs.
TEST(EncodingsShared, PaddedSharedLinearComponentMatchesTriton) {
  int matched = 0, total = 0;
  for (const json& tc : cases()["encodings"]["padded_shared"]) {
    ++total;
    const json& p = tc["params"];
    auto shape = tc["shape"].get<std::vector<uint64_t>>();
    std::vector<IntervalPad> pairs;
    for (const json& ip : p["interval_padding_pairs"])
      pairs.push_back({ip[0].get<uint64_t>(), ip[1].get<uint64_t>()});
    if (!tc.contains("attr")) {
      // Triton rejected the attribute itself (block bases that are not surjective on their
      // own); the same parameters written out must be rejected here.
      std::string pad;
      for (const IntervalPad& ip : pairs)
        pad +=
            (pad.empty() ? "" : ", ") + std::to_string(ip.interval) + ":+" + std::to_string(ip.pad);
      std::string text = "#ttg.padded_shared<[" + pad +
                         "] {offset = " + basesText(p["offset_bases"]) +
                         ", block = " + basesText(p["cga_layout"]) + "}>";
      auto l = load(text, shape);
      EXPECT_FALSE(l.ok()) << tc["id"] << " " << text << " (Triton: " << tc["error"] << ")";
      matched += l.ok() ? 0 : 1;
      continue;
    }
    auto l = load(tc["attr"].get<std::string>(), shape);
    ASSERT_TRUE(l.ok()) << tc["id"] << ": " << l.error().str();
    std::vector<DimSize> outs;
    for (std::size_t d = 0; d < shape.size(); ++d)
      outs.push_back({dims::standardOut(static_cast<int>(d)), shape[d]});
    auto expected = LinearLayout::create(
        {DimBases{dims::kOffset, p["offset_bases"].get<std::vector<std::vector<uint64_t>>>()},
         DimBases{dims::kBlock, p["cga_layout"].get<std::vector<std::vector<uint64_t>>>()}},
        outs, /*requireSurjective=*/false);
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(l->layout, *expected) << tc["id"] << " " << tc["attr"];
    EXPECT_EQ(l->padding, pairs) << tc["id"];
    matched += (l->layout == *expected && l->padding == pairs) ? 1 : 0;
  }
  std::cout << "[ encodings ] padded_shared: " << matched << "/" << total
            << " linear components and paddings match the parameters Triton printed\n";
  EXPECT_EQ(matched, total);
  EXPECT_GT(total, 0);
}

// Triton's Python returns tensor memory as row and col bases and the shape only (the block input
// of a CGA layout is left out), so those are what is compared.
TEST(EncodingsShared, TensorMemoryMatchesTriton) {
  int matched = 0, total = 0;
  for (const json& tc : cases("shared_cases.json")["encodings"]["tensor_memory"]) {
    if (!tc.contains("attr") && !tc.contains("error"))
      continue;
    ++total;
    auto shape = tc["shape"].get<std::vector<uint64_t>>();
    if (!tc.contains("attr")) {
      // Rejected by Gluon / the attribute verifier before any text was printed: nothing to
      // parse. These are rebuilt by hand in TensorMemoryErrors.
      ++matched;
      continue;
    }
    auto l = load(tc["attr"].get<std::string>(), shape);
    if (tc.contains("error")) {
      EXPECT_FALSE(l.ok()) << tc["id"] << ": Triton rejected it (" << tc["error"] << ")";
      matched += l.ok() ? 0 : 1;
      continue;
    }
    ASSERT_TRUE(l.ok()) << tc["id"] << " " << tc["attr"] << ": " << l.error().str();
    const LinearLayout& ours = l->layout;
    json rows = json::array(), cols = json::array();
    for (const DimBases& db : ours.getBases()) {
      if (db.name.str() == "row")
        rows = db.bases;
      if (db.name.str() == "col")
        cols = db.bases;
    }
    std::vector<uint64_t> outSizes;
    for (const DimSize& d : ours.getOutDims())
      outSizes.push_back(d.size);
    bool same = rows == tc["tmem"]["rows"] && cols == tc["tmem"]["cols"] &&
                outSizes == tc["tmem"]["shape"].get<std::vector<uint64_t>>();
    EXPECT_TRUE(same) << tc["id"] << " " << tc["attr"] << " shape " << tc["shape"]
                      << "\nours: rows " << rows << " cols " << cols << ours.toString()
                      << "\nTriton: " << tc["tmem"];
    matched += same ? 1 : 0;
  }
  std::cout << "[ encodings ] tensor_memory: " << matched << "/" << total
            << " cases match Triton 3.9 (row and col bases, out sizes)\n";
  EXPECT_EQ(matched, total);
  EXPECT_GT(total, 0);
}

LinearLayout layoutOf(const std::string& text, std::vector<uint64_t> shape) {
  auto l = load(text, shape);
  EXPECT_TRUE(l.ok()) << text << ": " << l.error().str();
  return l.ok() ? l->layout : LinearLayout{};
}

LinearLayout sharedLayout(std::vector<std::vector<uint64_t>> offset, std::vector<uint64_t> shape) {
  std::vector<DimSize> outs;
  for (std::size_t d = 0; d < shape.size(); ++d)
    outs.push_back({dims::standardOut(static_cast<int>(d)), shape[d]});
  return LinearLayout::create(
             {DimBases{dims::kOffset, std::move(offset)}, DimBases{dims::kBlock, {}}}, outs,
             /*requireSurjective=*/false)
      .value();
}

// Seed 003 prints Triton's layouts of #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase =
// 1, order = [1, 0]}> and <{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}> on 64x16;
// the bases below are copied from that text.
TEST(EncodingsShared, Seed003SwizzledShared) {
  EXPECT_EQ(layoutOf("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 1, order = [1, 0]}>",
                     {64, 16}),
            sharedLayout(
                {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}},
                {64, 16}));
  EXPECT_EQ(layoutOf("#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>",
                     {64, 16}),
            sharedLayout(
                {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 8}, {4, 0}, {8, 0}, {16, 0}, {32, 0}},
                {64, 16}));
}

// Seed 004: a 32x64xf16 tile with SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=
// [1, 0]); "given an element at (r, c), phase = (r / perPhase) % maxPhase and the swizzled column
// is ((c / vec) ^ phase) * vec + c % vec". Offset bits 0-5 walk the 64 columns of a row; offset
// 64 * 2^k is row 2^k, whose slot s holds column s ^ (8 * (2^k % 8)): rows 1, 2, 4 move the
// column by 8, 16, 32, rows 8 and 16 by nothing.
TEST(EncodingsShared, Seed004SwizzleVec8) {
  EXPECT_EQ(layoutOf("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                     {32, 64}),
            sharedLayout({{0, 1},
                          {0, 2},
                          {0, 4},
                          {0, 8},
                          {0, 16},
                          {0, 32},
                          {1, 8},
                          {2, 16},
                          {4, 32},
                          {8, 0},
                          {16, 0}},
                         {32, 64}));
  // The seed's padded alternative, PaddedSharedLayout.with_identity_for([[64, 8]], [32, 64],
  // [1, 0]): rows stay unswizzled and 8 elements (16 bytes) follow each 64-element row, so row r
  // starts at 72 * r.
  auto padded = load("#ttg.padded_shared<[64:+8] {order = [1, 0], shape = [32, 64]}>",
                     std::vector<uint64_t>{32, 64});
  ASSERT_TRUE(padded.ok()) << padded.error().str();
  EXPECT_EQ(padded->layout, sharedLayout({{0, 1},
                                          {0, 2},
                                          {0, 4},
                                          {0, 8},
                                          {0, 16},
                                          {0, 32},
                                          {1, 0},
                                          {2, 0},
                                          {4, 0},
                                          {8, 0},
                                          {16, 0}},
                                         {32, 64}));
  ASSERT_EQ(padded->padding, (std::vector<IntervalPad>{{64, 8}}));
  for (uint64_t r = 0; r < 32; ++r)
    EXPECT_EQ(paddedOffset(padded->padding, 64 * r + 5), 72 * r + 5);
}

// Triton's PaddedSharedEncodingAttr description: with [2:+1, 4:+2] the memory reads e0 e1 p0
// e2 e3 p1 p2 p3 e4 e5 p4 e6 e7 ..., so elements 0..7 lie at 0 1 3 4 8 9 11 12.
// #ttg.nvmma_shared unswizzled and transposed. Rank 2 is the plain box with dim0 fastest. From
// rank 3 on Triton 3.9 builds the box over the rotated block [dim1, .., dimN-1, dim0] with its
// out dims in reverse order and moves the last position to the front, which lands the block's
// entry k on dim k-1: on 2x16x8 the 2-wide contiguous run goes to dim1, the 8 of dim2 to dim0
// and the 16 of dim1 to dim2; dims covered too far are cut back to zero bases, dim1 is grown
// after the box. Triton's answer (b.to_linear_layout(NVMMASharedLayout(0, 16, 3, True)), 3.9.0).
TEST(EncodingsShared, NvmmaUnswizzledTransposedRank3LikeTriton) {
  EXPECT_EQ(layoutOf("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = true, "
                     "elementBitWidth = 16, rank = 2}>",
                     {16, 8}),
            sharedLayout({{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}, {16, 8}));
  EXPECT_EQ(layoutOf("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = true, "
                     "elementBitWidth = 16, rank = 3}>",
                     {2, 16, 8}),
            sharedLayout({{0, 1, 0},
                          {1, 0, 0},
                          {0, 0, 0},
                          {0, 0, 0},
                          {0, 0, 1},
                          {0, 0, 2},
                          {0, 0, 4},
                          {0, 0, 0},
                          {0, 2, 0},
                          {0, 4, 0},
                          {0, 8, 0}},
                         {2, 16, 8}));
}

TEST(EncodingsShared, PaddedOffsetFollowsTritonsDefinition) {
  std::vector<IntervalPad> pads{{2, 1}, {4, 2}};
  std::vector<uint64_t> expected{0, 1, 3, 4, 8, 9, 11, 12};
  for (uint64_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(paddedOffset(pads, i), expected[i]) << i;
}

// #ttg.amd_rotating_shared has no Python binding in Triton 3.9, so by hand from its definition
// (sharedToLinearLayoutAMDRotating): row r starts at vec * (phase ^ group) with phase = (r /
// perPhase) % maxPhase and group = r / maxPhase / perPhase % maxPhase. vec 2, perPhase 1,
// maxPhase 4 on 16x16: rows 1, 2 have phase 1, 2 and group 0 (columns 2, 4); row 4 has phase 0,
// group 1 (column 2); row 8 phase 0, group 2 (column 4).
TEST(EncodingsShared, AmdRotatingSharedByHand) {
  EXPECT_EQ(
      layoutOf("#ttg.amd_rotating_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, "
               "0]}>",
               {16, 16}),
      sharedLayout({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 2}, {2, 4}, {4, 2}, {8, 4}}, {16, 16}));
  // With one group (maxPhase * perPhase >= rows) it is the plain swizzle.
  EXPECT_EQ(layoutOf("#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, "
                     "1]}>",
                     {16, 8}),
            layoutOf("#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1]}>",
                     {16, 8}));
}

// A memory layout must be a bijection offset -> element per CTA: verify's `memory` property.
TEST(EncodingsShared, SharedLayoutsAreMemoryLayouts) {
  for (const char* text :
       {"#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
        "#ttg.amd_rotating_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>",
        "#ttg.padded_shared<[64:+8] {order = [1, 0], shape = [64, 64]}>"}) {
    auto l = load(text, std::vector<uint64_t>{64, 64});
    ASSERT_TRUE(l.ok()) << text << ": " << l.error().str();
    EXPECT_TRUE(l->layout.isInvertible()) << text;
  }
}

void expectError(const std::string& text, const std::string& fragment,
                 std::optional<std::vector<uint64_t>> shape = std::vector<uint64_t>{64, 64}) {
  auto l = load(text, shape);
  ASSERT_FALSE(l.ok()) << text << " was accepted";
  EXPECT_NE(l.error().str().find(fragment), std::string::npos)
      << text << ": '" << l.error().str() << "' lacks '" << fragment << "'";
  EXPECT_NE(l.error().str().find("attribute at column"), std::string::npos) << l.error().str();
}

TEST(EncodingsShared, SwizzledSharedErrors) {
  const std::string ok = "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, "
                         "0]}>";
  expectError(ok, "pass shape", std::nullopt);
  expectError(ok, "rank 3", std::vector<uint64_t>{64, 16, 2});
  expectError(ok, "not a power of two", std::vector<uint64_t>{64, 12});
  expectError("#ttg.swizzled_shared<{vec = 2, perPhase = 0, maxPhase = 4, order = [1, 0]}>",
              "perPhase must be at least 1");
  expectError("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [0, 0]}>",
              "order must be a permutation");
  expectError("#ttg.swizzled_shared<{vec = 2, perPhase = 1, order = [1, 0]}>",
              "missing 'maxPhase'");
  expectError("#ttg.swizzled_shared<{vec = 2, vec = 2, perPhase = 1, maxPhase = 1, order = [1, "
              "0]}>",
              "appears twice");
  expectError("#ttg.swizzled_shared<{vec = -2, perPhase = 1, maxPhase = 1, order = [1, 0]}>",
              "out-of-range");
  expectError("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 1, order = [1, 0], "
              "CGALayout = [[3, 0]]}>",
              "not a power of two or 0");
  expectError("#ttg.amd_rotating_shared<{vec = [2], perPhase = 1, maxPhase = 1, order = [1, 0]}>",
              "vec must be an integer");
}

TEST(EncodingsShared, NvmmaSharedErrors) {
  expectError("#ttg.nvmma_shared<{swizzlingByteWidth = 48, transposed = false, elementBitWidth = "
              "16}>",
              "swizzlingByteWidth must be 0, 32, 64 or 128");
  expectError("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = "
              "12}>",
              "elementBitWidth must be 8, 16, 32 or 64");
  expectError("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = maybe, elementBitWidth = "
              "16}>",
              "transposed must be true or false");
  expectError("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = "
              "8, fp4Padded = true}>",
              "fp4Padded requires swizzlingByteWidth = 128");
  // 128 B of 16-bit elements is 64 per row; a 16-wide tensor is too narrow (Triton:
  // getTMABlockShape failed).
  expectError("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = "
              "16}>",
              "too small for the swizzle byte size", std::vector<uint64_t>{64, 16});
  expectError("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = "
              "16, rank = 3}>",
              "rank = 3");
}

TEST(EncodingsShared, SharedLinearAndPaddedErrors) {
  expectError("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>",
              "the shape asks for 64");
  expectError("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}>", "missing 'alignment'",
              std::vector<uint64_t>{2, 2});
  expectError("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 12>",
              "alignment must be a power of two", std::vector<uint64_t>{2, 2});
  expectError("#ttg.padded_shared<[3:+2] {order = [1, 0], shape = [64, 64]}>",
              "must both be powers of two");
  expectError("#ttg.padded_shared<[4:+2, 4:+1] {order = [1, 0], shape = [64, 64]}>",
              "appears twice");
  expectError("#ttg.padded_shared<[] {order = [1, 0], shape = [64, 64]}>", "at least one interval");
  expectError("#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [32, 64]}>",
              "different shape than shape");
  expectError("#ttg.padded_shared<[4:+2] {offset = [[1]], block = [[4]]}>", "block bases alone",
              std::vector<uint64_t>{8});
}

TEST(EncodingsShared, TensorMemoryErrors) {
  expectError("#ttng.tensor_memory_encoding<blockM = 96, blockN = 64, colStride = 1>",
              "blockM must be 64 or 128", std::vector<uint64_t>{128, 64});
  expectError("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CGALayout "
              "= [[0, 1]], twoCTAs = true>",
              "twoCTAs requires", std::vector<uint64_t>{256, 128});
  expectError("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>",
              "smaller than one TMEM block", std::vector<uint64_t>{32, 64});
  expectError("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 3>",
              "colStride has 3", std::vector<uint64_t>{128, 64});
  expectError("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64>", "missing 'colStride'",
              std::vector<uint64_t>{128, 64});
  expectError("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>", "rank-2",
              std::vector<uint64_t>{2, 128, 64});
}

} // namespace
} // namespace llcheck
