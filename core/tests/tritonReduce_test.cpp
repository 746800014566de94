// tritonReduce: Triton's shared-memory accesses for a tt.reduce across warps, per release,
// against what an H200 measured for the same kernel (gpu_oracle/reduce_scratch/measured.json:
// tile_max_a1_8x1024_w4_fp32, per SASS instruction: executions and L1 shared wavefronts), the
// helper layouts of Triton 3.9 derived by hand from its reducedRegLaneLayout / getInterLayout,
// and the errors.
#include "AttributeLayouts.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/TritonReduce.h"

#include <gtest/gtest.h>

namespace llcheck::test {
namespace {

const char* kRows = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], "
                    "warpsPerCTA = [1, 4], order = [1, 0]}>";
const char* kRowsSlice = "#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], "
                         "threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>}>";

SharedMemoryModel sm90() {
  return sharedMemoryModel("sm90").value();
}

struct Totals {
  uint64_t stores = 0, storeWavefronts = 0, loads = 0, loadWavefronts = 0;
};

Totals totals(const TritonScratch& r) {
  Totals t;
  for (const TritonScratchStep& s : r.steps) {
    bool store = s.access.name.rfind("st", 0) == 0;
    (store ? t.stores : t.loads) += s.access.count.instructions;
    (store ? t.storeWavefronts : t.loadWavefronts) += s.access.count.wavefronts;
  }
  return t;
}

TEST(TritonReduce, Triton36MatchesTheH200OnARowMax) {
  // tl.max(axis=1) of an 8 x 1024 fp32 tile, 4 warps along the row: 8 predicated STS (lane 0
  // of each warp, one wavefront each), one LDS and one STS to combine (warp 0's 32 threads
  // below the 32-element scratch), 8 LDS of the result (a broadcast: one wavefront each); all
  // executed by the 4 warps.
  auto r = tritonReduce(attr(kRows, {8, 1024}), 1, attr(kRowsSlice, {8}), {{32, true}}, sm90(),
                        TritonVersion::v3_6);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(r->sharedMemory);
  ASSERT_EQ(r->steps.size(), 4u);
  EXPECT_EQ(r->steps[0].phase, "partials stored");
  EXPECT_EQ(r->steps[0].access.name, "st.shared.b32");
  EXPECT_EQ(r->steps[0].access.instructionsPerWarp, 8u);
  Totals t = totals(*r);
  EXPECT_EQ(t.stores, 36u);
  EXPECT_EQ(t.storeWavefronts, 33u);
  EXPECT_EQ(t.loads, 36u);
  EXPECT_EQ(t.loadWavefronts, 33u);
}

TEST(TritonReduce, Triton39MatchesTheH200OnARowMax) {
  // Two STS.128 and two LDS.128 per warp, 16 wavefronts each over the 4 warps.
  auto r = tritonReduce(attr(kRows, {8, 1024}), 1, attr(kRowsSlice, {8}), {{32, true}}, sm90(),
                        TritonVersion::v3_9);
  ASSERT_TRUE(r.ok()) << r.error().str();
  ASSERT_EQ(r->steps.size(), 2u); // the layout left is the result's: no second conversion
  EXPECT_EQ(r->steps[0].access.name, "st.shared.v4.b32");
  EXPECT_EQ(r->steps[1].access.name, "ld.shared.v4.b32");
  Totals t = totals(*r);
  EXPECT_EQ(t.stores, 8u);
  EXPECT_EQ(t.storeWavefronts, 32u);
  EXPECT_EQ(t.loads, 8u);
  EXPECT_EQ(t.loadWavefronts, 32u);
}

TEST(TritonReduce, Triton39ExchangesThroughStmatrixWhereATilePairFits) {
  // fla's merge_16x16_to_64x64_inverse (Triton 3.9, sm90): tl.sum(axis=0) of a 16 x 16 f32 tile
  // over 4 warps along dim 0. The H200 ran its scratch as STSM.16.M88.2 / LDSM.16.M88.2 (each
  // f32 as two 16-bit halves), 2 wavefronts an instruction (gpu_oracle/real_kernels, the delta
  // rule's launches: 7,168 of each in 2 x 256 x 4 x 64), not the plain ld/st.shared.v2.b32 of
  // Triton's ld/st-only scratch, which makes as many instructions and wavefronts.
  const char* tile = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], "
                     "warpsPerCTA = [4, 1], order = [1, 0]}>";
  const std::string column = std::string("#ttg.slice<{dim = 0, parent = ") + tile + "}>";
  auto r = tritonReduce(attr(tile, {16, 16}), 0, attr(column.c_str(), {16}), {{32, true}}, sm90(),
                        TritonVersion::v3_9);
  ASSERT_TRUE(r.ok()) << r.error().str();
  ASSERT_GE(r->steps.size(), 2u);
  EXPECT_EQ(r->steps[0].access.name.rfind("stmatrix", 0), 0u) << r->steps[0].access.name;
  EXPECT_EQ(r->steps[1].access.name.rfind("ldmatrix", 0), 0u) << r->steps[1].access.name;
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_EQ(r->steps[i].access.count.wavefronts, 2 * r->steps[i].access.count.instructions)
        << r->steps[i].access.name;
}

TEST(TritonReduce, Triton39LayoutsOfTheExchange) {
  LinearLayout src = attr(kRows, {8, 1024});
  auto reduced = tritonReducedRegLaneLayout(src, 1);
  ASSERT_TRUE(reduced.ok()) << reduced.error().str();
  // Registers along the row are combined in the thread, lanes by shuffles: what is left is the
  // 8 rows in registers and the 4 warps, renumbered 1, 2 along dim1.
  EXPECT_EQ(reduced->getOutDimSize(dims::standardOut(1)), 4u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(reduced->getBasis(dims::kRegister, i), (std::vector<uint64_t>{1u << i, 0}));
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(reduced->getBasis(dims::kLane, i), (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(reduced->getBasis(dims::kWarp, 0), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(reduced->getBasis(dims::kWarp, 1), (std::vector<uint64_t>{0, 2}));
  auto inter = tritonReduceInterLayout(*reduced, 1);
  ASSERT_TRUE(inter.ok()) << inter.error().str();
  // The warps' axis bases go to the first lanes of zero bases; the warps become copies.
  EXPECT_EQ(inter->getBasis(dims::kLane, 0), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(inter->getBasis(dims::kLane, 1), (std::vector<uint64_t>{0, 2}));
  EXPECT_EQ(inter->getBasis(dims::kWarp, 0), (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(inter->getBasis(dims::kWarp, 1), (std::vector<uint64_t>{0, 0}));
}

TEST(TritonReduce, WithinWarpsNoSharedMemory) {
  const char* cols = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], "
                     "warpsPerCTA = [4, 1], order = [1, 0]}>";
  const char* slice = "#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], "
                      "threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>";
  for (TritonVersion v : {TritonVersion::v3_6, TritonVersion::v3_9}) {
    auto r = tritonReduce(attr(cols, {64, 128}), 1, attr(slice, {64}), {{32, true}}, sm90(), v);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_FALSE(r->sharedMemory);
    EXPECT_TRUE(r->steps.empty());
  }
}

TEST(TritonReduce, AnUnusedResultLosesItsLoadsNotItsStores) {
  auto used = tritonReduce(attr(kRows, {8, 1024}), 1, attr(kRowsSlice, {8}),
                           {{32, true}, {32, true}}, sm90(), TritonVersion::v3_6);
  auto unused = tritonReduce(attr(kRows, {8, 1024}), 1, attr(kRowsSlice, {8}),
                             {{32, false}, {32, true}}, sm90(), TritonVersion::v3_6);
  ASSERT_TRUE(used.ok() && unused.ok());
  EXPECT_EQ(totals(*used).stores, totals(*unused).stores);
  EXPECT_EQ(totals(*used).loads - totals(*unused).loads, 32u); // 8 result loads x 4 warps
}

TEST(TritonReduce, Errors) {
  LinearLayout src = attr(kRows, {8, 1024});
  auto badAxis = tritonReduce(src, 2, std::nullopt, {{32, true}}, sm90(), TritonVersion::v3_6);
  ASSERT_FALSE(badAxis.ok());
  EXPECT_NE(badAxis.error().message.find("axis 2"), std::string::npos);
  auto badRank = tritonReduce(src, 1, src, {{32, true}}, sm90(), TritonVersion::v3_9);
  ASSERT_FALSE(badRank.ok());
  EXPECT_NE(badRank.error().message.find("rank"), std::string::npos);
  auto badBits = tritonReduce(src, 1, std::nullopt, {{12, true}}, sm90(), TritonVersion::v3_9);
  ASSERT_FALSE(badBits.ok());
  auto none = tritonReduce(src, 1, std::nullopt, {}, sm90(), TritonVersion::v3_9);
  ASSERT_FALSE(none.ok());
  auto amd = tritonReduce(src, 1, std::nullopt, {{32, true}}, sharedMemoryModel("gfx942").value(),
                          TritonVersion::v3_9);
  EXPECT_FALSE(amd.ok());
}

} // namespace
} // namespace llcheck::test
