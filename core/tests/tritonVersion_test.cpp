// Every semantic difference between Triton 3.6 and 3.9 that llcheck follows
// (docs/triton-versions.md), each with its minimal example: both releases' layouts, as Triton
// computed them (to_linear_layout, or for 3.6's shared encodings the offsets its compiled code
// uses; tests/triton/ checks the same rules on the whole conformance grid).
#include "llcheck/core/Formats.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/TritonVersion.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace llcheck {
namespace {

using Bases = std::vector<std::vector<uint64_t>>;

Result<LinearLayout> layoutOf(const std::string& attr, std::vector<uint64_t> shape,
                              TritonVersion triton) {
  LayoutContext o;
  o.shape = std::move(shape);
  o.triton = triton;
  auto l = loadSpec(attr, o);
  if (!l.ok())
    return l.error();
  return l->layout;
}

Bases basesOf(const LinearLayout& l, const char* in) {
  for (const DimBases& db : l.getBases())
    if (db.name == DimName(in))
      return db.bases;
  return {};
}

TEST(TritonVersion, NamesParseAndTheNewestIsTheDefault) {
  EXPECT_EQ(tritonVersionName(kNewestTriton), "3.9");
  EXPECT_EQ(parseTritonVersion("3.6"), TritonVersion::v3_6);
  EXPECT_EQ(parseTritonVersion("3.6.0"), TritonVersion::v3_6);
  EXPECT_EQ(parseTritonVersion("3.9.x"), TritonVersion::v3_9);
  EXPECT_FALSE(parseTritonVersion("3.7"));
  EXPECT_FALSE(parseTritonVersion("3.6."));
  EXPECT_EQ(LayoutContext{}.triton, kNewestTriton);
}

// sizePerThread larger than the shape: the registers that would repeat an element.
TEST(TritonVersion, BlockedKeepsBroadcastRegistersIn36) {
  const std::string attr = "#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [2, 2], order = [1, 0]}>";
  auto l36 = layoutOf(attr, {2, 4}, TritonVersion::v3_6);
  auto l39 = layoutOf(attr, {2, 4}, TritonVersion::v3_9);
  ASSERT_TRUE(l36.ok() && l39.ok());
  EXPECT_EQ(basesOf(*l36, "register"), (Bases{{0, 1}, {1, 0}, {0, 0}}));
  EXPECT_EQ(basesOf(*l39, "register"), (Bases{{0, 1}, {1, 0}}));
  EXPECT_EQ(basesOf(*l36, "lane"), basesOf(*l39, "lane"));
  EXPECT_EQ(basesOf(*l36, "warp"), basesOf(*l39, "warp"));
}

// #ttg.linear: 3.6 needs each basis to move in one dim (by any amount) and surjectivity; 3.9 a
// permutation matrix once zero bases are dropped.
TEST(TritonVersion, LinearAttributeRules) {
  // A lane basis [0, 3] (a swizzle within dim1).
  const std::string swizzled = "#ttg.linear<{register = [[1, 0], [2, 0]], lane = [[4, 0], [0, 1], "
                               "[0, 3], [0, 4], [0, 8]], warp = [], block = []}>";
  EXPECT_TRUE(layoutOf(swizzled, {8, 16}, TritonVersion::v3_6).ok());
  EXPECT_FALSE(layoutOf(swizzled, {8, 16}, TritonVersion::v3_9).ok());
  // A warp basis repeating a lane basis (not injective).
  const std::string repeated = "#ttg.linear<{register = [[1, 0], [2, 0]], lane = [[0, 1], [0, 2], "
                               "[0, 4], [0, 8], [0, 16]], warp = [[0, 2]], block = []}>";
  auto r36 = layoutOf(repeated, {8, 64}, TritonVersion::v3_6);
  ASSERT_TRUE(r36.ok()) << r36.error().str();
  EXPECT_EQ(basesOf(*r36, "register"), (Bases{{1, 0}, {2, 0}, {4, 0}, {0, 32}}));
  EXPECT_FALSE(layoutOf(repeated, {8, 64}, TritonVersion::v3_9).ok());
  // Moving in two dims is refused by both.
  const std::string twoDims = "#ttg.linear<{register = [[1, 0], [0, 1]], lane = [[2, 0], [4, 0], "
                              "[0, 2], [0, 4], [0, 8]], warp = [[1, 1]], block = []}>";
  EXPECT_FALSE(layoutOf(twoDims, {8, 16}, TritonVersion::v3_6).ok());
  EXPECT_FALSE(layoutOf(twoDims, {8, 16}, TritonVersion::v3_9).ok());
  // #ttg.generic_linear does not exist in 3.6.
  const std::string generic = "#ttg.generic_linear<{register = [[1, 0], [3, 0]], lane = [[4, 0], "
                              "[0, 1], [0, 2], [0, 4], [0, 8]], warp = [], block = []}>";
  EXPECT_TRUE(layoutOf(generic, {8, 16}, TritonVersion::v3_9).ok());
  EXPECT_FALSE(layoutOf(generic, {8, 16}, TritonVersion::v3_6).ok());
}

// A swizzled register basis ([3, 0]): 3.6 orders it by its dim and lays the layout over a shape,
// aborting only where a dim holding a value that is not a power of two must be cut; 3.9 aborts.
TEST(TritonVersion, SwizzledRegisterBasesOverAShape) {
  const std::string attr = "#ttg.linear<{register = [[1, 0], [3, 0]], lane = [[0, 1], [0, 2], "
                           "[0, 4], [0, 8], [0, 16]], warp = [], block = []}>";
  auto cutDim1 = layoutOf(attr, {4, 16}, TritonVersion::v3_6);
  ASSERT_TRUE(cutDim1.ok()) << cutDim1.error().str();
  EXPECT_EQ(basesOf(*cutDim1, "register"), (Bases{{1, 0}, {3, 0}}));
  EXPECT_EQ(basesOf(*cutDim1, "lane"), (Bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 0}}));
  EXPECT_FALSE(layoutOf(attr, {2, 32}, TritonVersion::v3_6).ok()); // dim0 cut: 3.6 asserts
  EXPECT_FALSE(layoutOf(attr, {4, 16}, TritonVersion::v3_9).ok());
  const std::string grown = "#ttg.linear<{register = [[0, 1], [3, 0]], lane = [[4, 0], [1, 0], "
                            "[0, 2], [0, 4], [0, 8]], warp = [], block = []}>";
  auto g36 = layoutOf(grown, {16, 32}, TritonVersion::v3_6);
  ASSERT_TRUE(g36.ok()) << g36.error().str();
  EXPECT_EQ(basesOf(*g36, "register"), (Bases{{0, 1}, {3, 0}, {0, 16}, {8, 0}}));
}

// Cutting a dim removes only the register bases it cuts, in both releases: a zero register basis
// the attribute has stays.
TEST(TritonVersion, LinearKeepsItsOwnZeroRegisterBases) {
  const std::string attr = "#ttg.linear<{register = [[0, 1], [1, 0], [0, 0], [2, 0]], lane = "
                           "[[0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], warp = [], block = []}>";
  for (TritonVersion v : supportedTritonVersions()) {
    auto l = layoutOf(attr, {4, 32}, v);
    ASSERT_TRUE(l.ok()) << l.error().str();
    EXPECT_EQ(basesOf(*l, "register"), (Bases{{0, 1}, {1, 0}, {0, 0}, {2, 0}}));
    EXPECT_EQ(basesOf(*l, "lane"), (Bases{{0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 0}}));
  }
}

// Unswizzled and transposed: 3.9's box has dim0 contiguous, 3.6 ignores `transposed` (the
// offsets its compiled ttg.local_store uses).
TEST(TritonVersion, NvmmaSharedUnswizzledTransposed) {
  const std::string attr =
      "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = true, elementBitWidth = 16}>";
  auto l36 = layoutOf(attr, {8, 8}, TritonVersion::v3_6);
  auto l39 = layoutOf(attr, {8, 8}, TritonVersion::v3_9);
  ASSERT_TRUE(l36.ok() && l39.ok());
  EXPECT_EQ(basesOf(*l36, "offset"), (Bases{{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}));
  EXPECT_EQ(basesOf(*l39, "offset"), (Bases{{1, 0}, {2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}));
  // Swizzled, transposed is the same in both.
  const std::string swizzled =
      "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 16}>";
  EXPECT_EQ(layoutOf(swizzled, {16, 16}, TritonVersion::v3_6).value(),
            layoutOf(swizzled, {16, 16}, TritonVersion::v3_9).value());
}

// fp4Padded with a 64-byte swizzle: 3.9's Gluon refuses it, 3.6 compiles it.
TEST(TritonVersion, NvmmaSharedFp4PaddedBelow128Bytes) {
  const std::string attr = "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, "
                           "elementBitWidth = 8, fp4Padded = true}>";
  EXPECT_TRUE(layoutOf(attr, {64, 128}, TritonVersion::v3_6).ok());
  EXPECT_FALSE(layoutOf(attr, {64, 128}, TritonVersion::v3_9).ok());
}

// #ttg.amd_wmma: 3.6 writes warpsPerCTA / tilesPerWarp and lays them out as #ttg.amd_mfma does
// (N: a warp's tiles, the warps, the rest of N; then M's tiles and warps); 3.9 writes the CTA
// layout's bases.
TEST(TritonVersion, AmdWmmaForms) {
  const std::string v36 = "#ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [1, "
                          "1], tilesPerWarp = [2, 1]}>";
  auto l = layoutOf(v36, {32, 32}, TritonVersion::v3_6);
  ASSERT_TRUE(l.ok()) << l.error().str();
  EXPECT_EQ(basesOf(*l, "register"), (Bases{{2, 0}, {4, 0}, {8, 0}, {0, 16}, {16, 0}}));
  EXPECT_EQ(basesOf(*l, "lane"), (Bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}}));
  EXPECT_FALSE(layoutOf(v36, {32, 32}, TritonVersion::v3_9).ok());
  const std::string warps = "#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, "
                            "1], tilesPerWarp = [2, 1]}>";
  auto w = layoutOf(warps, {128, 32}, TritonVersion::v3_6);
  ASSERT_TRUE(w.ok()) << w.error().str();
  EXPECT_EQ(basesOf(*w, "register"), (Bases{{1, 0}, {2, 0}, {4, 0}, {0, 16}, {16, 0}, {64, 0}}));
  EXPECT_EQ(basesOf(*w, "warp"), (Bases{{32, 0}}));
  // 3.6 asserts on a matrix dim that is neither 1 nor at least the 16 of the tile.
  EXPECT_FALSE(layoutOf(v36, {4, 4}, TritonVersion::v3_6).ok());
  const std::string v39 =
      "#ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {register = [[1, 0]]}}>";
  EXPECT_TRUE(layoutOf(v39, {32, 32}, TritonVersion::v3_9).ok());
  EXPECT_FALSE(layoutOf(v39, {32, 32}, TritonVersion::v3_6).ok());
}

// Tensor memory: 3.6 writes the CTA split as CTASplitM / CTASplitN, 3.9 as a CGALayout.
TEST(TritonVersion, TensorMemoryForms) {
  const std::string v36 = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, "
                          "CTASplitM = 2, twoCTAs = true>";
  const std::string v39 = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, "
                          "CGALayout = [[1, 0]], twoCTAs = true>";
  auto l36 = layoutOf(v36, {256, 128}, TritonVersion::v3_6);
  auto l39 = layoutOf(v39, {256, 128}, TritonVersion::v3_9);
  ASSERT_TRUE(l36.ok()) << l36.error().str();
  ASSERT_TRUE(l39.ok()) << l39.error().str();
  EXPECT_EQ(*l36, *l39);
  EXPECT_FALSE(layoutOf(v36, {256, 128}, TritonVersion::v3_9).ok());
  EXPECT_FALSE(layoutOf(v39, {256, 128}, TritonVersion::v3_6).ok());
}

// #ttg.padded_shared with block bases that do not cover a shape alone: 3.9 aborts (it builds
// LL(offset) * LL(block) and the block factor is not surjective), 3.6 takes them as written.
TEST(TritonVersion, PaddedSharedBlockBases) {
  const std::string attr = "#ttg.padded_shared<[4:+8, 16:+8] {offset = [[1], [2], [4], [8], "
                           "[16], [32], [64], [128], [256]], block = [[512]]}>";
  auto l36 = layoutOf(attr, {1024}, TritonVersion::v3_6);
  ASSERT_TRUE(l36.ok()) << l36.error().str();
  EXPECT_EQ(basesOf(*l36, "block"), (Bases{{512}}));
  EXPECT_FALSE(layoutOf(attr, {1024}, TritonVersion::v3_9).ok());
}

LinearLayout make(std::vector<DimBases> ins, std::vector<DimSize> outs) {
  return LinearLayout::create(ins, outs, /*requireSurjective=*/false).value();
}

// invertAndCompose's identity dims (the cases of tests/triton_reference/ where the releases
// answer differently).
TEST(TritonVersion, InvertAndComposeIdentityDims) {
  const DimName reg("register"), warp("warp"), d0("dim0"), d1("dim1");
  // Equal warps that repeat one of outer's register bases: 3.6 maps warp to warp, 3.9 solves
  // it (warp 1 -> register 1).
  LinearLayout a = make({{reg, {{0, 1}, {2, 0}}}, {warp, {{1, 0}}}}, {{d0, 4}, {d1, 2}});
  LinearLayout b = make({{reg, {{1, 0}, {0, 1}, {2, 0}}}, {warp, {{1, 0}}}}, {{d0, 4}, {d1, 2}});
  EXPECT_EQ(basesOf(a.invertAndCompose(b, TritonVersion::v3_6).value(), "warp"), (Bases{{0, 1}}));
  EXPECT_EQ(basesOf(a.invertAndCompose(b, TritonVersion::v3_9).value(), "warp"), (Bases{{1, 0}}));
  // Broadcast warps, output sizes that differ: 3.9 still maps warp to warp, 3.6 solves (0).
  LinearLayout c = make({{reg, {{1, 0}, {0, 1}}}, {warp, {{0, 0}}}}, {{d0, 2}, {d1, 2}});
  LinearLayout d = make({{reg, {{1, 0}, {0, 1}, {2, 0}}}, {warp, {{0, 0}}}}, {{d0, 4}, {d1, 2}});
  EXPECT_EQ(basesOf(c.invertAndCompose(d, TritonVersion::v3_6).value(), "warp"), (Bases{{0, 0}}));
  EXPECT_EQ(basesOf(c.invertAndCompose(d, TritonVersion::v3_9).value(), "warp"), (Bases{{0, 1}}));
  // Equal warps hiding the image of this's register: 3.6 leaves warp's columns out of the solve
  // and cannot reach register = 2 (Triton 3.6 aborts), 3.9 solves it with the warp.
  LinearLayout e = make({{reg, {{2}}}, {warp, {{2}}}}, {{d0, 4}});
  LinearLayout f = make({{reg, {{1}}}, {warp, {{2}}}}, {{d0, 4}});
  EXPECT_FALSE(e.invertAndCompose(f, TritonVersion::v3_6).ok());
  auto g = e.invertAndCompose(f, TritonVersion::v3_9);
  ASSERT_TRUE(g.ok()) << g.error().str();
  EXPECT_EQ(basesOf(*g, "register"), (Bases{{0, 1}}));
  EXPECT_EQ(basesOf(*g, "warp"), (Bases{{0, 1}}));
}

} // namespace
} // namespace llcheck
