// tritonScalarAtomic, tritonHistogram, tritonGather: Triton's scratch for these ops against what
// an H200 measured for the same kernels (gpu_oracle/reduce_scratch/measured.json, per SASS
// instruction: executions and L1 shared wavefronts; the gathers' and 3.9's histogram loads and
// atomics within the bounds given), Triton's warp-local gather rule, and the errors.
#include "AttributeLayouts.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/TritonScratchOps.h"

#include <gtest/gtest.h>

namespace llcheck::test {
namespace {

SharedMemoryModel sm90() {
  return sharedMemoryModel("sm90").value();
}

std::string row(int perThread, int warps) {
  return "#ttg.blocked<{sizePerThread = [" + std::to_string(perThread) +
         "], threadsPerWarp = [32], warpsPerCTA = [" + std::to_string(warps) + "], order = [0]}>";
}

struct StepCounts {
  std::string instruction;
  uint64_t instructions = 0, wavefronts = 0, wavefrontsMin = 0;
  bool dataDependent = false;
  bool operator==(const StepCounts&) const = default;
};

std::vector<StepCounts> counts(const TritonScratch& s) {
  std::vector<StepCounts> out;
  for (const TritonScratchStep& st : s.steps)
    out.push_back({st.access.name, st.access.count.instructions, st.access.count.wavefronts,
                   st.wavefrontsMin, !st.dataDependent.empty()});
  return out;
}

TEST(TritonScratchOps, AScalarAtomicIsOneStoreAndABroadcastPerWarp) {
  // atomic_add_128_w4_i32: 4 STS executed, 1 wavefront (thread 0's); 4 LDS, one each.
  auto r = tritonScalarAtomic(32, 4, sm90());
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(counts(*r), (std::vector<StepCounts>{{"st.shared.b32", 4, 1, 0, false},
                                                 {"ld.shared.b32", 4, 4, 0, false}}));
}

TEST(TritonScratchOps, Triton36HistogramMatchesTheH200) {
  // histogram_1024_b256_w4_i32: 8 STS zeroing (2 per warp), 32 ATOMS of 8 wavefronts (lane l
  // adds bins 8l + i: 8 lanes per bank), the result's two bins per thread as one LDS.64.
  auto r =
      tritonHistogram(attr(row(4, 4), {1024}), attr(row(2, 4), {256}), sm90(), TritonVersion::v3_6);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(counts(*r), (std::vector<StepCounts>{{"st.shared.b32", 8, 8, 0, false},
                                                 {"atom.shared.add.u32", 32, 256, 0, false},
                                                 {"ld.shared.v2.b32", 4, 8, 0, false}}));
}

TEST(TritonScratchOps, Triton39HistogramAddsAtTheDatasBins) {
  // One atomic per element (8 per thread); the H200 measured 101 wavefronts for the 32 on
  // uniform random bins, between the bounds.
  auto r =
      tritonHistogram(attr(row(4, 4), {1024}), attr(row(2, 4), {256}), sm90(), TritonVersion::v3_9);
  ASSERT_TRUE(r.ok()) << r.error().str();
  std::vector<StepCounts> c = counts(*r);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[1], (StepCounts{"atom.shared.add.u32", 32, 1024, 32, true}));
  EXPECT_LE(c[1].wavefrontsMin, 101u);
  EXPECT_GE(c[1].wavefronts, 101u);
}

TEST(TritonScratchOps, AGatherAcrossWarpsStoresItsSourceAndLoadsByIndex) {
  // gather_1024_k1024_w4_fp32: 8 STS.128 (32 wavefronts); 32 LDS whose 114 wavefronts lie in
  // the bounds.
  auto r = tritonGather(attr(row(4, 4), {1024}), attr(row(4, 4), {1024}), 0, 32, sm90(),
                        TritonVersion::v3_6);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(r->sharedMemory);
  std::vector<StepCounts> c = counts(*r);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0], (StepCounts{"st.shared.v4.b32", 8, 32, 0, false}));
  EXPECT_EQ(c[1], (StepCounts{"ld.shared.b32", 32, 1024, 32, true}));
}

TEST(TritonScratchOps, AGatherWhoseColumnsStayInAWarpUsesShuffles) {
  // Warps along dim1 only, source and index alike (Triton 3.9 picks such a layout).
  const char* cols = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], "
                     "warpsPerCTA = [1, 4], order = [0, 1]}>";
  auto local = tritonGatherIsWarpLocal(attr(cols, {128, 16}), attr(cols, {128, 16}), 0);
  ASSERT_TRUE(local.ok()) << local.error().str();
  EXPECT_TRUE(*local);
  auto across = tritonGatherIsWarpLocal(attr(cols, {128, 16}), attr(cols, {128, 16}), 1);
  ASSERT_TRUE(across.ok());
  EXPECT_FALSE(*across);
  auto r = tritonGather(attr(cols, {128, 16}), attr(cols, {128, 16}), 0, 32, sm90(),
                        TritonVersion::v3_9);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_FALSE(r->sharedMemory);
  EXPECT_TRUE(r->steps.empty());
}

TEST(TritonScratchOps, BadInputIsRefused) {
  EXPECT_FALSE(tritonScalarAtomic(24, 4, sm90()).ok());
  EXPECT_FALSE(tritonScalarAtomic(32, 3, sm90()).ok());
  EXPECT_FALSE(tritonScalarAtomic(32, 4, sharedMemoryModel("gfx942").value()).ok());
  const char* tile = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                     "warpsPerCTA = [4, 1], order = [1, 0]}>";
  auto rank2 =
      tritonHistogram(attr(row(4, 4), {1024}), attr(tile, {64, 16}), sm90(), TritonVersion::v3_6);
  ASSERT_FALSE(rank2.ok());
  EXPECT_NE(rank2.error().str().find("1-D"), std::string::npos);
  auto axis = tritonGather(attr(row(4, 4), {1024}), attr(row(4, 4), {1024}), 1, 32, sm90(),
                           TritonVersion::v3_6);
  ASSERT_FALSE(axis.ok());
  EXPECT_NE(axis.error().str().find("axis 1"), std::string::npos);
  auto ranks = tritonGather(attr(row(4, 4), {1024}), attr(tile, {64, 16}), 0, 32, sm90(),
                            TritonVersion::v3_6);
  EXPECT_FALSE(ranks.ok());
}

} // namespace
} // namespace llcheck::test
