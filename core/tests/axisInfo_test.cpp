// Triton's AxisInfo on TTGIR text (AxisInfo.h). The expected facts are worked by hand from the
// transfer functions of Triton's lib/Analysis/AxisInfo.cpp; tests/triton/test_axis_info.py
// checks the same analysis against the PTX Triton emits (3.6 and 3.9) and against the
// contiguity Triton's pipeliner writes on its async copies.
#include "llcheck/core/AxisInfo.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace llcheck {
namespace {

using V = std::vector<int64_t>;

const TtgirAccessFacts& accessAt(const TtgirAxisAnalysis& a, int line) {
  const TtgirAccessFacts* f = a.atLine(line);
  if (!f)
    throw std::runtime_error("no access at line " + std::to_string(line));
  return *f;
}

int lineOf(const std::string& text, const std::string& needle) {
  std::size_t at = text.find(needle);
  if (at == std::string::npos)
    throw std::runtime_error("no '" + needle + "' in the text");
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

// a + r[:, None] * s + r[None, :] over a 32x32 f16 tile, loaded once before a loop and in a
// loop that advances the pointers by STEP elements.
std::string tile(const std::string& step) {
  return R"(module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("a"(#loc)), %s: i32 {tt.divisibility = 16 : i32} loc("s"(#loc)), %K: i32 loc("K"(#loc))) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32 loc(#loc1)
    %c32_i32 = arith.constant 32 : i32 loc(#loc1)
    %step = arith.constant dense<)" +
         step + R"(> : tensor<32x32xi32, #b> loc(#loc1)
    %r0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #b}>> loc(#loc2)
    %r1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>> loc(#loc2)
    %e0 = tt.expand_dims %r0 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<32x1xi32, #b> loc(#loc2)
    %ss = tt.splat %s : i32 -> tensor<32x1xi32, #b> loc(#loc2)
    %rows = arith.muli %e0, %ss : tensor<32x1xi32, #b> loc(#loc2)
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #b> loc(#loc3)
    %p0 = tt.addptr %pa, %rows : tensor<32x1x!tt.ptr<f16>, #b>, tensor<32x1xi32, #b> loc(#loc3)
    %p1 = tt.broadcast %p0 : tensor<32x1x!tt.ptr<f16>, #b> -> tensor<32x32x!tt.ptr<f16>, #b> loc(#loc3)
    %e1 = tt.expand_dims %r1 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x32xi32, #b> loc(#loc3)
    %c = tt.broadcast %e1 : tensor<1x32xi32, #b> -> tensor<32x32xi32, #b> loc(#loc3)
    %ptrs = tt.addptr %p1, %c : tensor<32x32x!tt.ptr<f16>, #b>, tensor<32x32xi32, #b> loc(#loc3)
    %first = tt.load %ptrs : tensor<32x32x!tt.ptr<f16>, #b> loc(#loc4)
    %out = scf.for %i = %c0_i32 to %K step %c32_i32 iter_args(%p = %ptrs) -> (tensor<32x32x!tt.ptr<f16>, #b>)  : i32 {
      %v = tt.load %p : tensor<32x32x!tt.ptr<f16>, #b> loc(#loc5)
      %n = tt.addptr %p, %step : tensor<32x32x!tt.ptr<f16>, #b>, tensor<32x32xi32, #b> loc(#loc6)
      scf.yield %n : tensor<32x32x!tt.ptr<f16>, #b> loc(#loc6)
    } loc(#loc7)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
)";
}

TEST(AxisInfo, TileOfARowMajorTensorWithAnUnknownRowStride) {
  std::string text = tile("32");
  auto a = analyzeAxisInfo(text, "tile.ttgir");
  ASSERT_TRUE(a.ok()) << a.error().str();
  EXPECT_TRUE(a->problems.empty());
  const TtgirAccessFacts& first = accessAt(*a, lineOf(text, "%first = tt.load"));
  // dim0: rows of the unknown stride %s (divisible by 16 elements = 32 bytes, but the base only
  // by 16 bytes, and a row r * s * 2 bytes: gcd(16, 2 * 1) along dim0 where the runs are of
  // one element); dim1: 32 contiguous elements from a 16-byte aligned start.
  EXPECT_EQ(first.pointer.contiguity, (V{1, 32}));
  EXPECT_EQ(first.pointer.divisibility, (V{2, 16}));
  EXPECT_EQ(first.pointer.constancy, (V{1, 1}));
  EXPECT_EQ(first.pointeeBits, 16);
  EXPECT_EQ(axisAlignment(first.pointer, 1, 16), 8);
  EXPECT_EQ(axisAlignment(first.pointer, 0, 16), 1);
  ASSERT_TRUE(first.offsets.affine) << first.offsets.notAffine;
  EXPECT_EQ(affineStridesText(first.offsets.strides), "[%s, 1]");
  EXPECT_EQ(first.offsets.strides[0].symbolDivisibility, 16);
  // In the loop the pointers advance by 32 elements (64 bytes): the facts hold on every trip.
  const TtgirAccessFacts& inLoop = accessAt(*a, lineOf(text, "%v = tt.load"));
  EXPECT_EQ(inLoop.pointer, first.pointer);
  EXPECT_EQ(inLoop.offsets.strides, first.offsets.strides);
}

TEST(AxisInfo, ALoopStepOfOneElementLowersTheAlignmentOnEveryTrip) {
  std::string text = tile("1");
  auto a = analyzeAxisInfo(text, "tile.ttgir");
  ASSERT_TRUE(a.ok());
  const TtgirAccessFacts& first = accessAt(*a, lineOf(text, "%first = tt.load"));
  const TtgirAccessFacts& inLoop = accessAt(*a, lineOf(text, "%v = tt.load"));
  EXPECT_EQ(axisAlignment(first.pointer, 1, 16), 8);
  // join(init, init + 1 element): divisibility gcd(16, 2) = 2 bytes along dim1, one element.
  EXPECT_EQ(inLoop.pointer.divisibility, (V{2, 2}));
  EXPECT_EQ(inLoop.pointer.contiguity, (V{1, 32}));
  EXPECT_EQ(axisAlignment(inLoop.pointer, 1, 16), 1);
  EXPECT_EQ(affineStridesText(inLoop.offsets.strides), "[%s, 1]");
}

// Two sibling loops (Liger-Kernel's sparsemax backward, Triton 3.6): MLIR names values
// uniquely only among those in scope, so the second loop reuses %v_11 for a loaded float
// where the first loop's %v_11 is the pointer. Each load reads its own loop's pointer.
TEST(AxisInfo, SiblingRegionsMayReuseAValueName) {
  std::string text = R"(module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("a"(#loc)), %n: i32 loc("n"(#loc))) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32 loc(#loc1)
    %c1_i32 = arith.constant 1 : i32 loc(#loc1)
    %c1024_i32 = arith.constant 1024 : i32 loc(#loc1)
    %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
    %offs = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b> loc(#loc2)
    %v = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b> loc(#loc3)
    %s:1 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst) -> (f32)  : i32 {
      %o = arith.muli %i, %c1024_i32 : i32 loc(#loc4)
      %o_8 = tt.splat %o : i32 -> tensor<1024xi32, #b> loc(#loc4)
      %o_9 = arith.addi %o_8, %offs : tensor<1024xi32, #b> loc(#loc4)
      %v_11 = tt.addptr %v, %o_9 : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b> loc(#loc5)
      %v_12 = tt.load %v_11 : tensor<1024x!tt.ptr<f32>, #b> loc(#loc6)
      scf.yield %acc : f32 loc(#loc7)
    } loc(#loc8)
    scf.for %i = %c0_i32 to %n step %c1_i32  : i32 {
      %o = arith.muli %i, %c1024_i32 : i32 loc(#loc9)
      %o_7 = tt.splat %o : i32 -> tensor<1024xi32, #b> loc(#loc9)
      %o_8 = arith.addi %o_7, %offs : tensor<1024xi32, #b> loc(#loc9)
      %v_10 = tt.addptr %v, %o_8 : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b> loc(#loc10)
      %v_11 = tt.load %v_10 : tensor<1024x!tt.ptr<f32>, #b> loc(#loc11)
    } loc(#loc12)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
)";
  auto a = analyzeAxisInfo(text, "siblings.ttgir");
  ASSERT_TRUE(a.ok()) << a.error().str();
  for (const char* load : {"%v_12 = tt.load", "%v_11 = tt.load"}) {
    const TtgirAccessFacts& f = accessAt(*a, lineOf(text, load));
    EXPECT_EQ(f.pointer.contiguity, (V{1024})) << load;
    EXPECT_EQ(f.pointer.divisibility, (V{16})) << load;
  }
}

// The attention kernel of the corpus (Triton 3.9, sm90): Q is read row-major, K transposed
// (column-major: stride 1 along dim0), and no pointer argument carries tt.divisibility.
TEST(AxisInfo, AttentionReadsKTransposed) {
  std::ifstream in(std::string(LLCHECK_SOURCE_DIR) +
                   "/corpus/ttgir/3.9.0/cuda-sm90/attention-fwd-fp16.ttgir");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  auto a = analyzeAxisInfo(text, "attention.ttgir");
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->problems.empty()) << a->problems.front();
  const TtgirAccessFacts& q = accessAt(*a, lineOf(text, "%qt_16 = tt.load"));
  EXPECT_EQ(q.pointer.contiguity, (V{1, 64}));
  EXPECT_EQ(affineStridesText(q.offsets.strides), "[64, 1]");
  const TtgirAccessFacts& k = accessAt(*a, lineOf(text, "%kt_31 = tt.load"));
  EXPECT_EQ(k.pointer.contiguity, (V{64, 1}));
  EXPECT_EQ(k.pointer.divisibility, (V{1, 1}));
  EXPECT_EQ(affineStridesText(k.offsets.strides), "[1, 64]");
  const TtgirAccessFacts& v = accessAt(*a, lineOf(text, "%vt_49 = tt.load"));
  EXPECT_EQ(affineStridesText(v.offsets.strides), "[64, 1]");
  // The store of O: the same pointers as Q's.
  const TtgirAccessFacts& o = accessAt(*a, lineOf(text, "tt.store %3, %8"));
  EXPECT_EQ(o.op, "tt.store");
  EXPECT_EQ(affineStridesText(o.offsets.strides), "[64, 1]");
  EXPECT_TRUE(a->opaqueOps.count("tt.get_program_id"));
}

std::string kernel(const std::string& body) {
  return "module attributes {} {\n  tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : "
         "i32}, %M: i32 {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32> {tt.divisibility = 16 : "
         "i32}) attributes {noinline = false} {\n" +
         body + "    tt.return\n  }\n}\n";
}

TEST(AxisInfo, RemainderByAMultipleOf16KeepsRunsOf16) {
  std::string text = kernel(R"(    %pid = tt.get_program_id x : i32
    %c64 = arith.constant 64 : i32
    %base = arith.muli %pid, %c64 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %sb = tt.splat %base : i32 -> tensor<64xi32, #b>
    %o = arith.addi %sb, %r : tensor<64xi32, #b>
    %sm = tt.splat %M : i32 -> tensor<64xi32, #b>
    %w = arith.remsi %o, %sm : tensor<64xi32, #b>
    %mask = arith.cmpi slt, %o, %sm : tensor<64xi32, #b>
    %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #b>
    %p = tt.addptr %pa, %w : tensor<64x!tt.ptr<f32>, #b>, tensor<64xi32, #b>
    %v = tt.load %p, %mask : tensor<64x!tt.ptr<f32>, #b>
)");
  auto a = analyzeAxisInfo(text, "rem.ttgir");
  ASSERT_TRUE(a.ok());
  const TtgirAccessFacts& f = accessAt(*a, lineOf(text, "%v = tt.load"));
  // %o: contiguity 64, divisibility 64; % M (divisible by 16): runs of gcd(64, 64, 16) = 16.
  EXPECT_EQ(f.pointer.contiguity, (V{16}));
  EXPECT_EQ(f.pointer.divisibility, (V{16}));
  EXPECT_EQ(axisAlignment(f.pointer, 0, 32), 4);
  // The mask `%o < M`: constant in runs of gcd(64, 64, 16) = 16.
  ASSERT_TRUE(f.mask);
  EXPECT_EQ(f.mask->constancy, (V{16}));
  ASSERT_TRUE(f.offsets.affine);
  EXPECT_EQ(affineStridesText(f.offsets.strides), "[1]");
  ASSERT_EQ(f.offsets.assumptions.size(), 1u);
  EXPECT_NE(f.offsets.assumptions[0].find("does not wrap"), std::string::npos);
}

TEST(AxisInfo, HintsOverrideAndLoadedIndicesAreNotAffine) {
  std::string text =
      kernel(R"(    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %ip = tt.splat %idx : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #b>
    %ipp = tt.addptr %ip, %r : tensor<64x!tt.ptr<i32>, #b>, tensor<64xi32, #b>
    %i = tt.load %ipp : tensor<64x!tt.ptr<i32>, #b>
    %h = arith.addi %i, %r {tt.divisibility = dense<4> : tensor<1xi32>, tt.contiguity = dense<4> : tensor<1xi32>} : tensor<64xi32, #b>
    %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #b>
    %p = tt.addptr %pa, %h : tensor<64x!tt.ptr<f32>, #b>, tensor<64xi32, #b>
    tt.store %p, %i : tensor<64x!tt.ptr<f32>, #b>
    %cm1 = arith.constant -1 : i32
    %neg = tt.splat %cm1 : i32 -> tensor<64xi32, #b>
    %q = tt.addptr %pa, %neg : tensor<64x!tt.ptr<f32>, #b>, tensor<64xi32, #b>
    %x = tt.load %q : tensor<64x!tt.ptr<f32>, #b>
)");
  auto a = analyzeAxisInfo(text, "hint.ttgir");
  ASSERT_TRUE(a.ok());
  const TtgirAccessFacts& idx = accessAt(*a, lineOf(text, "%i = tt.load"));
  EXPECT_EQ(idx.pointer.contiguity, (V{64}));
  EXPECT_EQ(idx.pointer.divisibility, (V{16}));
  const TtgirAccessFacts& st = accessAt(*a, lineOf(text, "tt.store %p"));
  // The hints (tl.multiple_of / tl.max_contiguous) are what Triton knows of %h: 4 and 4.
  EXPECT_EQ(st.pointer.contiguity, (V{4}));
  EXPECT_EQ(st.pointer.divisibility, (V{16}));
  EXPECT_EQ(axisAlignment(st.pointer, 0, 32), 4);
  EXPECT_FALSE(st.offsets.affine);
  EXPECT_NE(st.offsets.notAffine.find("loaded from memory"), std::string::npos);
  // -1 : i32 is read zero-extended (2^32 - 1, odd): one 4-byte element of divisibility.
  const TtgirAccessFacts& x = accessAt(*a, lineOf(text, "%x = tt.load"));
  EXPECT_EQ(x.pointer.divisibility, (V{4}));
  EXPECT_EQ(x.pointer.constancy, (V{64}));
}

// A negative constant of a width just under 64 bits is read zero-extended without passing
// int64 (UBSan in the ttgir fuzz target: -1 : i63 + 2^63; the sanitized tests run this).
TEST(AxisInfo, ANegativeConstantOfAWideOddTypeIsReadZeroExtended) {
  std::string text = kernel(R"(    %c = arith.constant -1 : i63
    %d = arith.constant -9223372036854775807 : i63
)");
  EXPECT_TRUE(analyzeAxisInfo(text, "i63.ttgir").ok());
}

} // namespace
} // namespace llcheck
