// The worked examples of the seed documents (shared/seeds/000-003) and the paper's layout A
// (seed 002, section 4.1 and Table 1), checked against the algebra.
#include "SeedLayouts.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"

#include <set>

namespace llcheck::test {
namespace {

// ---- Seed 000: linear layouts from first principles -------------------------------------------

TEST(SeedExamples, Seed000MaskMatrix) {
  // Masks on b = (b2, b1, b0): m0 = (1,0,1), m1 = (0,1,1), m2 = (1,1,1); o_i = parity(m_i & b).
  // Column j of M is the image of b_j: b0 -> (1,1,1) = 7, b1 -> (0,1,1) = 6, b2 -> (1,0,1) = 5.
  LinearLayout l = LinearLayout::create({{kOffset, {{7}, {6}, {5}}}}, {{kDim0, 8}}, true).value();
  const int masks[3][3] = {{1, 0, 1}, {0, 1, 1}, {1, 1, 1}}; // over (b2, b1, b0)
  for (uint64_t b = 0; b < 8; ++b) {
    uint64_t b2 = (b >> 2) & 1, b1 = (b >> 1) & 1, b0 = b & 1, o = 0;
    for (int i = 0; i < 3; ++i) {
      uint64_t bit = (masks[i][0] & b2) ^ (masks[i][1] & b1) ^ (masks[i][2] & b0);
      o |= bit << i;
    }
    EXPECT_EQ(l.apply({{kOffset, b}}).value(), (Point{{kDim0, o}})) << "b = " << b;
  }
  // o0 = b2 ^ b0, o1 = b1 ^ b0, o2 = b2 ^ b1 ^ b0, spelled out for b = 0b011 and 0b100.
  EXPECT_EQ(l.apply({{kOffset, 0b011}}).value(), (Point{{kDim0, 0b001}}));
  EXPECT_EQ(l.apply({{kOffset, 0b100}}).value(), (Point{{kDim0, 0b101}}));
  EXPECT_TRUE(l.isInvertible());
  EXPECT_EQ(corpus("illegal/09-seed000-mask-3bit.json"), l);
}

TEST(SeedExamples, Seed000ShmemSwizzle32x32) {
  // ShmemSwizzled(r, c) = (row r, bank r ^ c), stored at offset 32 r + (r ^ c).
  LinearLayout l = corpus("layouts/10-seed000-shmem-swizzled-32x32.json");
  for (uint64_t r = 0; r < 32; ++r)
    for (uint64_t c = 0; c < 32; ++c)
      ASSERT_EQ(l.apply({{kOffset, 32 * r + (r ^ c)}}).value(), (Point{{kDim0, r}, {kDim1, c}}));
  // Every row read and every column read hits 32 distinct banks (bank = offset % 32).
  LinearLayout inv = l.invert().value();
  auto bank = [&](uint64_t r, uint64_t c) {
    return valueOf(inv.apply({{kDim0, r}, {kDim1, c}}).value(), kOffset) % 32;
  };
  for (uint64_t i = 0; i < 32; ++i) {
    std::set<uint64_t> rowBanks, colBanks;
    for (uint64_t k = 0; k < 32; ++k) {
      rowBanks.insert(bank(i, k));
      colBanks.insert(bank(k, i));
    }
    EXPECT_EQ(rowBanks.size(), 32u) << "row " << i;
    EXPECT_EQ(colBanks.size(), 32u) << "column " << i;
  }
  // The naive row-major layout reads a column from a single bank.
  LinearLayout rowMajor = identity1D(32, kOffset, kDim1) * identity1D(32, kOffset, kDim0);
  LinearLayout rowInv = rowMajor.invert().value();
  std::set<uint64_t> naive;
  for (uint64_t k = 0; k < 32; ++k)
    naive.insert(valueOf(rowInv.apply({{kDim0, k}, {kDim1, 5}}).value(), kOffset) % 32);
  EXPECT_EQ(naive.size(), 1u);
}

// ---- Seed 001: the 4x4 swizzle ----------------------------------------------------------------

TEST(SeedExamples, Seed001Swizzle4x4) {
  // L(t, w) = (t, w ^ t); apply(thread=3, warp=2) = (3, 1).
  auto l = LinearLayout::create({{S("thread"), {{1, 1}, {2, 2}}}, {S("warp"), {{0, 1}, {0, 2}}}},
                                {S("dim0"), S("dim1")})
               .value();
  auto y = l.apply({{S("thread"), 3}, {S("warp"), 2}}).value();
  EXPECT_EQ(y, (Point{{S("dim0"), 3}, {S("dim1"), 1}}));
  // The seed's whole table, row t, column w.
  const uint64_t table[4][4][2] = {{{0, 0}, {0, 1}, {0, 2}, {0, 3}},
                                   {{1, 1}, {1, 0}, {1, 3}, {1, 2}},
                                   {{2, 2}, {2, 3}, {2, 0}, {2, 1}},
                                   {{3, 3}, {3, 2}, {3, 1}, {3, 0}}};
  for (uint64_t t = 0; t < 4; ++t)
    for (uint64_t w = 0; w < 4; ++w) {
      EXPECT_EQ(l.apply({{S("thread"), t}, {S("warp"), w}}).value(),
                (Point{{S("dim0"), table[t][w][0]}, {S("dim1"), table[t][w][1]}}));
      EXPECT_EQ(table[t][w][1], w ^ t);
    }
}

TEST(SeedExamples, Seed001MatrixVectorProduct) {
  // Columns 0001, 0010, 1110, 1100 (bit 0 at the top of the seed's matrix); input 0110 selects
  // columns 1 and 2: 0010 ^ 1110 = 1100.
  LinearLayout l = LinearLayout::create({{S("in"), {{0b0001}, {0b0010}, {0b1110}, {0b1100}}}},
                                        {{S("out"), 16}}, false)
                       .value();
  EXPECT_EQ(l.apply({{S("in"), 0b0110}}).value(), (Point{{S("out"), 0b1100}}));
}

// ---- Seed 003: LL examples --------------------------------------------------------------------

TEST(SeedExamples, Seed003Blocked64x16) {
  LinearLayout ll = blocked64x16();
  EXPECT_EQ(ll.toString(), printed(kBlockedPrinted));
  EXPECT_EQ(parseTritonString(kBlockedPrinted, "seed003").value(), ll);
  EXPECT_EQ(ll, corpus("layouts/02-seed003-blocked-64x16.json"));
  // Thread 0, register 0 holds element (0, 0).
  EXPECT_EQ(ll.apply({{kReg, 0}, {kLane, 0}, {kWarp, 0}, {kBlock, 0}}).value(),
            (Point{{kDim0, 0}, {kDim1, 0}}));
  // Register 1 holds the next element along dim1 (the seed's assert reads [0], dim0, and
  // expects 1; the basis it prints, register=1 -> (0, 1), gives dim0 = 0, dim1 = 1).
  EXPECT_EQ(ll.apply({{kReg, 1}, {kLane, 0}, {kWarp, 0}, {kBlock, 0}}).value(),
            (Point{{kDim0, 0}, {kDim1, 1}}));
  // Each thread holds a 4x2 block: rows 4 apart per lane group, 2 columns per lane.
  for (uint64_t lane = 0; lane < 32; ++lane)
    for (uint64_t r = 0; r < 8; ++r)
      EXPECT_EQ(ll.apply({{kReg, r}, {kLane, lane}, {kWarp, 0}, {kBlock, 0}}).value(),
                (Point{{kDim0, (r >> 1) + 4 * (lane / 4)}, {kDim1, (r & 1) + 2 * (lane % 4)}}));
}

TEST(SeedExamples, Seed003FlattenAndTranspose) {
  LinearLayout ll = blocked64x16();
  EXPECT_EQ(ll.flattenIns().toString(), printed(kBlockedFlattenedPrinted));
  EXPECT_EQ(ll.transposeIns({kLane, kReg, kWarp, kBlock}).value().toString(),
            printed(kBlockedTransposedPrinted));

  // The 1D workflow: LL, flat, transposed.
  LinearLayout l1 =
      identity1D(4, kReg, kDim0) * identity1D(8, kLane, kDim0) * identity1D(2, kWarp, kDim0);
  EXPECT_EQ(l1.toString(), printed(R"(//  - register=1 -> (1)
//    register=2 -> (2)
//  - lane=1 -> (4)
//    lane=2 -> (8)
//    lane=4 -> (16)
//  - warp=1 -> (32)
// where out dims are: [dim0 (size 64)])"));
  EXPECT_EQ(l1.flattenIns().toString(), printed(R"(//  - register=1 -> (1)
//    register=2 -> (2)
//    register=4 -> (4)
//    register=8 -> (8)
//    register=16 -> (16)
//    register=32 -> (32)
// where out dims are: [dim0 (size 64)])"));
  EXPECT_EQ(l1.transposeIns({kLane, kWarp, kReg}).value().toString(), printed(R"(//  - lane=1 -> (4)
//    lane=2 -> (8)
//    lane=4 -> (16)
//  - warp=1 -> (32)
//  - register=1 -> (1)
//    register=2 -> (2)
// where out dims are: [dim0 (size 64)])"));
  EXPECT_EQ(l1, corpus("layouts/23-seed003-reg4-lane8-warp2-1d.json"));
}

TEST(SeedExamples, Seed003SwizzledShared) {
  LinearLayout plain = swizzledShared(64, 16, 2, 1, 1);
  EXPECT_EQ(plain.toString(), printed(R"(//  - offset=1 -> (0, 1)
//    offset=2 -> (0, 2)
//    offset=4 -> (0, 4)
//    offset=8 -> (0, 8)
//    offset=16 -> (1, 0)
//    offset=32 -> (2, 0)
//    offset=64 -> (4, 0)
//    offset=128 -> (8, 0)
//    offset=256 -> (16, 0)
//    offset=512 -> (32, 0)
//  - block is a size 1 dimension
// where out dims are: [dim0 (size 64), dim1 (size 16)])"));
  EXPECT_EQ(plain, corpus("layouts/03-seed003-swizzled-shared-vec2-64x16.json"));
  // vec 8, perPhase 2, maxPhase 4: only offset=32 -> (2, 8) is swizzled.
  LinearLayout swz = swizzledShared(64, 16, 8, 2, 4);
  EXPECT_EQ(swz.getBasis(kOffset, 5), (std::vector<uint64_t>{2, 8}));
  EXPECT_EQ(swz, corpus("layouts/04-seed003-swizzled-shared-vec8-pp2-mp4-64x16.json"));
  // Section 3.2's hand-made swizzle: offset=17 -> (1, 1), sizes inferred as 16 x 16.
  LinearLayout manual =
      LinearLayout::create(
          {{kOffset, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 4}, {8, 8}}}},
          {kDim0, kDim1})
          .value();
  EXPECT_EQ(manual.getOutDims(), (std::vector<DimSize>{{kDim0, 16}, {kDim1, 16}}));
  EXPECT_EQ(manual.apply({{kOffset, 17}}).value(), (Point{{kDim0, 1}, {kDim1, 1}}));
  EXPECT_EQ(manual.apply({{kOffset, 64}}).value(), (Point{{kDim0, 4}, {kDim1, 4}}));
  EXPECT_EQ(manual, corpus("layouts/06-seed003-manual-swizzle-16x16.json"));
}

TEST(SeedExamples, Seed003Compose) {
  // block_layout: register -> (offset, block)
  LinearLayout blockLayout = identity1D(256, kReg, kOffset) * zeros1D(1, kReg, kBlock);
  EXPECT_EQ(blockLayout.toString(), printed(R"(//  - register=1 -> (1, 0)
//    register=2 -> (2, 0)
//    register=4 -> (4, 0)
//    register=8 -> (8, 0)
//    register=16 -> (16, 0)
//    register=32 -> (32, 0)
//    register=64 -> (64, 0)
//    register=128 -> (128, 0)
// where out dims are: [offset (size 256), block (size 1)])"));
  // swizzled_layout: #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 2}> on 32x32.
  LinearLayout swizzled = swizzledShared(32, 32, 4, 2, 2);
  EXPECT_EQ(swizzled, corpus("layouts/05-seed003-swizzled-shared-vec4-pp2-mp2-32x32.json"));
  EXPECT_EQ(swizzled.toString(), printed(R"(//  - offset=1 -> (0, 1)
//    offset=2 -> (0, 2)
//    offset=4 -> (0, 4)
//    offset=8 -> (0, 8)
//    offset=16 -> (0, 16)
//    offset=32 -> (1, 0)
//    offset=64 -> (2, 4)
//    offset=128 -> (4, 0)
//    offset=256 -> (8, 0)
//    offset=512 -> (16, 0)
//  - block is a size 1 dimension
// where out dims are: [dim0 (size 32), dim1 (size 32)])"));
  LinearLayout composed = blockLayout.compose(swizzled).value();
  EXPECT_EQ(composed.toString(), printed(R"(//  - register=1 -> (0, 1)
//    register=2 -> (0, 2)
//    register=4 -> (0, 4)
//    register=8 -> (0, 8)
//    register=16 -> (0, 16)
//    register=32 -> (1, 0)
//    register=64 -> (2, 4)
//    register=128 -> (4, 0)
// where out dims are: [dim0 (size 32), dim1 (size 32)])"));
  EXPECT_EQ(composed, corpus("illegal/22-seed003-composed-register-32x32.json"));
  for (uint64_t r = 0; r < 256; ++r) // register r is offset r
    EXPECT_EQ(composed.apply({{kReg, r}}).value(),
              swizzled.apply({{kOffset, r}, {kBlock, 0}}).value());
}

TEST(SeedExamples, Seed003InvertAndCompose) {
  // cvt maps (register, lane, warp, block) to the shared-memory offset that holds the same
  // element: memLayout(cvt(x)) = regLayout(x) for every x.
  LinearLayout regLayout = blocked64x16();
  for (const char* file : {"layouts/03-seed003-swizzled-shared-vec2-64x16.json",
                           "layouts/04-seed003-swizzled-shared-vec8-pp2-mp4-64x16.json"}) {
    LinearLayout memLayout = corpus(file);
    LinearLayout cvt = regLayout.invertAndCompose(memLayout).value();
    EXPECT_EQ(cvt.getOutDimNames(), (std::vector<DimName>{kOffset, kBlock}));
    Ref r(regLayout);
    for (uint64_t f = 0; f < r.numInputs(); ++f) {
      Point x = r.inPoint(f);
      ASSERT_EQ(memLayout.apply(cvt.apply(x).value()).value(), regLayout.apply(x).value());
    }
  }
  // The element (2, 3): held by lane 1, register 5 (register=1 -> (0, 1), register=4 -> (2, 0),
  // lane=1 -> (0, 2)); row-major it sits at offset 2 * 16 + 3 = 35, swizzled (row 2 is phase 1:
  // column 3 moves to 8 ^ 3 = 11) at 2 * 16 + 11 = 43.
  Point holder = {{kReg, 5}, {kLane, 1}, {kWarp, 0}, {kBlock, 0}};
  EXPECT_EQ(regLayout.apply(holder).value(), (Point{{kDim0, 2}, {kDim1, 3}}));
  LinearLayout plain = corpus("layouts/03-seed003-swizzled-shared-vec2-64x16.json");
  LinearLayout swz = corpus("layouts/04-seed003-swizzled-shared-vec8-pp2-mp4-64x16.json");
  EXPECT_EQ(regLayout.invertAndCompose(plain).value().apply(holder).value(),
            (Point{{kOffset, 35}, {kBlock, 0}}));
  EXPECT_EQ(regLayout.invertAndCompose(swz).value().apply(holder).value(),
            (Point{{kOffset, 43}, {kBlock, 0}}));
}

TEST(SeedExamples, Seed003OneDimensionalAndProductExamples) {
  // Section 2.1: 32 elements over 4 lanes, 8 registers each; lane t holds t, t + 4, ...
  LinearLayout layout = identity1D(4, kLane, kDim0) * identity1D(8, kReg, kDim0);
  EXPECT_EQ(layout.apply({{kReg, 0}, {kLane, 0}}).value(), (Point{{kDim0, 0}}));
  EXPECT_EQ(layout.apply({{kReg, 1}, {kLane, 0}}).value(), (Point{{kDim0, 4}}));
  EXPECT_EQ(layout.apply({{kReg, 0}, {kLane, 1}}).value(), (Point{{kDim0, 1}}));
  EXPECT_EQ(layout.apply({{kReg, 2}, {kLane, 3}}).value(), (Point{{kDim0, 11}}));
  for (uint64_t t = 0; t < 4; ++t)
    for (uint64_t r = 0; r < 8; ++r)
      EXPECT_EQ(layout.apply({{kReg, r}, {kLane, t}}).value(), (Point{{kDim0, t + 4 * r}}));
  EXPECT_EQ(layout, corpus("layouts/07-seed003-lane4-register8-1d.json"));

  // Section 3.1.
  EXPECT_EQ(identity1D(8, kLane, kDim0).apply({{kLane, 5}}).value(), (Point{{kDim0, 5}}));
  EXPECT_EQ(zeros1D(8, kLane, kDim1).apply({{kLane, 5}}).value(), (Point{{kDim1, 0}}));

  // Section 3.3, example 1: L(register=3, lane=2) = (dim0=3, dim1=2); outputs ordered dim1 first.
  LinearLayout e1 = identity1D(4, kLane, kDim1) * identity1D(8, kReg, kDim0);
  EXPECT_EQ(e1.apply({{kReg, 3}, {kLane, 2}}).value(), (Point{{kDim1, 2}, {kDim0, 3}}));
  // Example 2: both contribute to dim0. The seed says the outputs XOR (2 ^ 3 = 1); operator*
  // stacks them instead: the register's bits sit above the lane's 2 bits, 2 + 4 * 3 = 14.
  LinearLayout e2 = identity1D(4, kLane, kDim0) * identity1D(8, kReg, kDim0);
  EXPECT_EQ(e2.apply({{kLane, 2}, {kReg, 3}}).value(), (Point{{kDim0, 14}}));
  // Example 3: broadcast along dim1.
  LinearLayout e3 = zeros1D(4, kLane, kDim1) * identity1D(8, kReg, kDim0);
  for (uint64_t lane = 0; lane < 4; ++lane)
    EXPECT_EQ(e3.apply({{kLane, lane}, {kReg, 5}}).value(), (Point{{kDim1, 0}, {kDim0, 5}}));
  // Section 2's "arithmetic view": the seed says dim0 = lane + 4 * register for
  // identity1D(4, lane) * strided1D(8, 4, register). The stride and operator*'s shift by the
  // inner output size (4) both apply, so dim0 = lane + 16 * register, in a dim of size 128.
  LinearLayout av = identity1D(4, kLane, kDim0) * strided1D(8, 4, kReg, kDim0);
  EXPECT_EQ(av.getOutDimSize(kDim0), 128u);
  for (uint64_t lane = 0; lane < 4; ++lane)
    for (uint64_t r = 0; r < 8; ++r)
      EXPECT_EQ(av.apply({{kLane, lane}, {kReg, r}}).value(), (Point{{kDim0, lane + 16 * r}}));
}

TEST(SeedExamples, Seed003MmaAccumulatorTile) {
  // Section 2.2: the m16n8 accumulator (kWidth 2), dimN = dim1 inner, dimM = dim0 outer.
  LinearLayout tile = identity1D(2, kReg, kDim1) * identity1D(4, kLane, kDim1) *
                      identity1D(8, kLane, kDim0) * identity1D(16 / 8, kReg, kDim0) *
                      identity1D(8 / (2 * 4), kReg, kDim1);
  tile = tile.transposeOuts({kDim0, kDim1}).value();
  // PTX: lane t holds rows t/4 and t/4 + 8, columns 2 (t % 4) and 2 (t % 4) + 1.
  for (uint64_t t = 0; t < 32; ++t)
    for (uint64_t r = 0; r < 4; ++r)
      EXPECT_EQ(tile.apply({{kReg, r}, {kLane, t}}).value(),
                (Point{{kDim0, t / 4 + 8 * (r / 2)}, {kDim1, 2 * (t % 4) + r % 2}}));
  LinearLayout acc = corpus("layouts/11-seed003-mma-m16n8-acc-1warp.json");
  EXPECT_EQ(acc.sublayout({kReg, kLane}, {kDim0, kDim1}).value(), tile);
}

// ---- The paper, section 4.1: layout A and Table 1 ---------------------------------------------

TEST(SeedExamples, PaperLayoutA) {
  // The matrix A (rows j0..j3 then i0..i3; columns Reg 0-1, Thr 0-4, Wrp 0).
  const int A[8][8] = {{1, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 0, 0, 0},
                       {0, 0, 0, 0, 1, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 0, 0},
                       {0, 0, 0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 0, 0, 1}};
  std::vector<uint64_t> cols(8, 0); // w = A v with w_{0:3} = j, w_{4:7} = i
  for (int c = 0; c < 8; ++c)
    for (int r = 0; r < 8; ++r)
      cols[static_cast<std::size_t>(c)] |= static_cast<uint64_t>(A[r][c]) << r;
  Dim ins[] = {{kReg, 2}, {kLane, 5}, {kWarp, 1}};
  Dim outs[] = {{kDim1, 4}, {kDim0, 4}}; // j is dim1, i is dim0
  LinearLayout fromMatrix = LinearLayout::fromColumns(ins, outs, cols).value();
  fromMatrix = fromMatrix.transposeOuts({kDim0, kDim1}).value();
  // The blocked layout of Figure 1a: 2x2 registers, 4x8 threads, 2x1 warps, order [1, 0].
  LinearLayout blocked = identity1D(2, kReg, kDim1) * identity1D(2, kReg, kDim0) *
                         identity1D(8, kLane, kDim1) * identity1D(4, kLane, kDim0) *
                         identity1D(1, kWarp, kDim1) * identity1D(2, kWarp, kDim0);
  blocked = blocked.transposeOuts({kDim0, kDim1}).value();
  EXPECT_EQ(fromMatrix, blocked);
  LinearLayout corpusA = corpus("layouts/08-paper-layout-a-16x16.json");
  EXPECT_EQ(corpusA.squeezeIns(kBlock).value(), blocked);
  // The worked product: r1 of t9 in w0, v = (1 0 | 1 0 0 1 0 | 0), gives w_j = 3, w_i = 2.
  EXPECT_EQ(blocked.apply({{kReg, 1}, {kLane, 9}, {kWarp, 0}}).value(),
            (Point{{kDim0, 2}, {kDim1, 3}}));
  // loc_w0 ^ loc_t9 ^ loc_r1 = (0, 0) ^ (2, 2) ^ (0, 1).
  EXPECT_EQ(blocked.apply({{kReg, 0}, {kLane, 9}, {kWarp, 0}}).value(),
            (Point{{kDim0, 2}, {kDim1, 2}}));
  EXPECT_EQ(blocked.apply({{kReg, 1}, {kLane, 0}, {kWarp, 0}}).value(),
            (Point{{kDim0, 0}, {kDim1, 1}}));
}

TEST(SeedExamples, PaperTable1) {
  // Every row of Table 1: location (i, j) -> register, thread, warp.
  struct Row {
    uint64_t i, j, reg, thread, warp;
  };
  const Row rows[] = {{0, 0, 0, 0, 0}, {0, 1, 1, 0, 0}, {0, 2, 0, 1, 0}, {0, 3, 1, 1, 0},
                      {1, 0, 2, 0, 0}, {1, 1, 3, 0, 0}, {2, 2, 0, 9, 0}, {2, 3, 1, 9, 0},
                      {3, 2, 2, 9, 0}, {3, 3, 3, 9, 0}};
  LinearLayout a = corpus("layouts/08-paper-layout-a-16x16.json");
  LinearLayout inv = a.invert().value();
  for (const Row& r : rows) {
    EXPECT_EQ(a.apply({{kReg, r.reg}, {kLane, r.thread}, {kWarp, r.warp}, {kBlock, 0}}).value(),
              (Point{{kDim0, r.i}, {kDim1, r.j}}))
        << "(" << r.i << ", " << r.j << ")";
    EXPECT_EQ(inv.apply({{kDim0, r.i}, {kDim1, r.j}}).value(),
              (Point{{kReg, r.reg}, {kLane, r.thread}, {kWarp, r.warp}, {kBlock, 0}}))
        << "(" << r.i << ", " << r.j << ")";
  }
}

} // namespace
} // namespace llcheck::test
