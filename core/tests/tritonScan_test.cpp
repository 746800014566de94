// tritonScan: Triton's shared-memory accesses for a tt.scan across warps, per release, against
// what an H200 measured for the same kernels (gpu_oracle/reduce_scratch/measured.json, per SASS
// instruction: executions and L1 shared wavefronts) and the PTX each release emitted for them
// (the loads before ptxas merges them), and the errors.
#include "AttributeLayouts.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/TritonScan.h"

#include <gtest/gtest.h>

namespace llcheck::test {
namespace {

SharedMemoryModel sm90() {
  return sharedMemoryModel("sm90").value();
}

/// Instructions and wavefronts per CTA, by (ld|st, bits per lane).
std::map<std::pair<char, int>, std::pair<uint64_t, uint64_t>> sides(const TritonScratch& r) {
  std::map<std::pair<char, int>, std::pair<uint64_t, uint64_t>> out;
  for (const TritonScratchStep& s : r.steps) {
    auto& side = out[{s.access.name[0], s.access.count.vectorBits}];
    side.first += s.access.count.instructions;
    side.second += s.access.count.wavefronts;
  }
  return out;
}

using Sides = std::map<std::pair<char, int>, std::pair<uint64_t, uint64_t>>;

const char* kRow4 = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], "
                    "order = [0]}>";

TEST(TritonScan, ARowOfFourWarpsMatchesTheH200InBothReleases) {
  // scan_cumsum_a0_1024_w4_fp32: two chunks of 512; per warp two STS (one per chunk) and the
  // 7 totals left (the last warp's of the last chunk is dead) as 2 LDS.128 broadcasts of 2
  // wavefronts each, though the PTX differs: 3.6 v4 + v2 + b32, 3.9 two v4 (gaps filled).
  for (TritonVersion v : {TritonVersion::v3_6, TritonVersion::v3_9}) {
    auto r = tritonScan(attr(kRow4, {1024}), 0, false, {32}, sm90(), v);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_TRUE(r->sharedMemory);
    EXPECT_EQ(sides(*r), (Sides{{{'s', 32}, {8, 8}}, {{'l', 128}, {8, 16}}}));
    ASSERT_EQ(r->ptxLoadWidthsPerWarp.size(), 1u);
    EXPECT_EQ(r->ptxLoadWidthsPerWarp[0],
              (v == TritonVersion::v3_6 ? std::map<int, uint64_t>{{128, 1}, {64, 1}, {32, 1}}
                                        : std::map<int, uint64_t>{{128, 2}}));
  }
}

TEST(TritonScan, SixteenBitTotalsStayApartFromTheMergedOnes) {
  // scan_cummax_a0_2048_w8_fp16, Triton 3.6: 7 totals of 2 bytes; the PTX's v4.b16 + v2.b16
  // become one LDS.128, the lone b16 an LDS.U16. 3.9's LLVM loads all 8 as one 16-byte vector.
  const char* row8 = "#ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], "
                     "warpsPerCTA = [8], order = [0]}>";
  auto r36 = tritonScan(attr(row8, {2048}), 0, false, {16}, sm90(), TritonVersion::v3_6);
  ASSERT_TRUE(r36.ok()) << r36.error().str();
  EXPECT_EQ(sides(*r36), (Sides{{{'s', 16}, {8, 8}}, {{'l', 128}, {8, 16}}, {{'l', 16}, {8, 8}}}));
  auto r39 = tritonScan(attr(row8, {2048}), 0, false, {16}, sm90(), TritonVersion::v3_9);
  ASSERT_TRUE(r39.ok()) << r39.error().str();
  EXPECT_EQ(sides(*r39), (Sides{{{'s', 16}, {8, 8}}, {{'l', 128}, {8, 16}}}));
}

TEST(TritonScan, SixtyFourBitTotalsAreNotWidenedAlone) {
  // scan_cumsum_a0_1024_w4_i64: four chunks, 15 totals of 8 bytes: 7 LDS.128 and the last,
  // alone in its 16-byte block, an LDS.64.
  auto r = tritonScan(attr("#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], "
                           "warpsPerCTA = [4], order = [0]}>",
                           {1024}),
                      0, false, {64}, sm90(), TritonVersion::v3_6);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(sides(*r), (Sides{{{'s', 64}, {16, 16}}, {{'l', 128}, {28, 56}}, {{'l', 64}, {4, 4}}}));
}

TEST(TritonScan, ParallelColumnsLoadTheirOwnTotals) {
  // scan_cumsum_a0_256x16_w8_fp32: 4 parallel positions (the lanes along dim1), 16 chunks of
  // which 4 end an accumulator: per warp 16 STS and 16 * 8 - 4 = 124 scalar LDS, all one
  // wavefront (the 4 positions are neighbours).
  auto r = tritonScan(attr("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [8, 1], order = [1, 0]}>",
                           {256, 16}),
                      0, false, {32}, sm90(), TritonVersion::v3_9);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(sides(*r), (Sides{{{'s', 32}, {128, 128}}, {{'l', 32}, {992, 992}}}));
  EXPECT_EQ(r->ptxLoadWidthsPerWarp[0], (std::map<int, uint64_t>{{32, 124}}));
}

TEST(TritonScan, ReverseAndTwoOperandScans) {
  // scan_cumsum_a0_1024_w4_fp32_rev measures as the forward scan; a running argmax
  // (scan_argmax_a0_512_w4_fp32) has one store and one LDS.128 per operand.
  auto rev = tritonScan(attr(kRow4, {1024}), 0, true, {32}, sm90(), TritonVersion::v3_6);
  ASSERT_TRUE(rev.ok()) << rev.error().str();
  EXPECT_EQ(sides(*rev), (Sides{{{'s', 32}, {8, 8}}, {{'l', 128}, {8, 16}}}));
  auto pair = tritonScan(attr(kRow4, {512}), 0, false, {32, 32}, sm90(), TritonVersion::v3_6);
  ASSERT_TRUE(pair.ok()) << pair.error().str();
  EXPECT_EQ(sides(*pair), (Sides{{{'s', 32}, {8, 8}}, {{'l', 128}, {8, 16}}}));
  EXPECT_EQ(pair->ptxLoadWidthsPerWarp.size(), 2u);
}

TEST(TritonScan, WithinAWarpNoSharedMemory) {
  auto r = tritonScan(attr("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>",
                           {64, 64}),
                      1, false, {32}, sm90(), TritonVersion::v3_9);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_FALSE(r->sharedMemory);
  EXPECT_TRUE(r->steps.empty());
}

TEST(TritonScan, BadInputIsRefused) {
  LinearLayout row = attr(kRow4, {1024});
  auto axis = tritonScan(row, 1, false, {32}, sm90(), TritonVersion::v3_9);
  ASSERT_FALSE(axis.ok());
  EXPECT_NE(axis.error().str().find("axis 1 is not a dim"), std::string::npos);
  auto width = tritonScan(row, 0, false, {24}, sm90(), TritonVersion::v3_9);
  ASSERT_FALSE(width.ok());
  EXPECT_NE(width.error().str().find("24 bits"), std::string::npos);
  auto none = tritonScan(row, 0, false, {}, sm90(), TritonVersion::v3_9);
  ASSERT_FALSE(none.ok());
  auto amd =
      tritonScan(row, 0, false, {32}, sharedMemoryModel("gfx942").value(), TritonVersion::v3_9);
  EXPECT_FALSE(amd.ok());
}

} // namespace
} // namespace llcheck::test
