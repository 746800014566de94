// What Triton emits on NVIDIA (sm80, sm90) for the other ops whose lowering goes through
// shared-memory scratch: an atomic whose result is a scalar, tt.histogram, and tt.gather across
// warps, per release, with the bank model's wavefronts where the addresses are known before the
// kernel runs. Read from Triton's LoadStoreOpToLLVM.cpp (the atomics), HistogramOpToLLVM.cpp and
// GatherOpToLLVM.cpp, checked against the PTX both releases emit
// (tests/triton/test_scratch_ops.py) and on an H200 (gpu_oracle/reduce_scratch/).
//
// # An atomic with a scalar result (tt.atomic_rmw, tt.atomic_cas on one address)
// Thread 0 makes the atomic and stores its result to scratch with a predicated st.shared;
// after a barrier every thread loads it (one broadcast ld.shared per warp). Every warp executes
// both; only warp 0's store moves data.
//
// # tt.histogram of B bins (B' = max(B, 32) in scratch)
// 1. Zeroed: ceil(B' / threads) st.shared.b32 per thread, thread t at (t + i * threads) % B'.
// 2. Counted: Triton 3.6 first counts each warp's elements in registers (ballots and popcounts)
//    and then adds them with B' / 32 atom.shared.add.u32 per warp, lane l adding bins
//    l * (B' / 32) + i; Triton 3.9 adds 1 for every element a thread holds, one atom.shared per
//    register at the element's own bin (skipped for values outside the bins): its addresses are
//    the data's, so only its instruction count is known before the kernel runs.
// 3. Read: one ld.shared.b32 per result register at its bin (neighbours merged by LLVM).
//
// # tt.gather across warps
// The source is stored whole to scratch in row-major order (st.shared per register, neighbours
// merged by LLVM), and after a barrier each result register is one ld.shared at the address
// its index gives: data-dependent, so only the load count is known. A gather whose columns along
// the axis stay within each warp (Triton's isWarpLocal) takes shuffles and no shared memory.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/core/conversion/TritonScratch.h"

namespace llcheck {

/// An atomic of `bits`-wide elements whose scalar result every thread of a CTA of `warps`
/// warps receives.
[[nodiscard]] Result<TritonScratch> tritonScalarAtomic(int bits, uint64_t warps,
                                                       const SharedMemoryModel& model);

/// tt.histogram of SRC (any distributed layout of integers over one CTA) into RESULT's bins
/// (a 1-D distributed layout with SRC's warps).
[[nodiscard]] Result<TritonScratch> tritonHistogram(const LinearLayout& src,
                                                    const LinearLayout& result,
                                                    const SharedMemoryModel& model,
                                                    TritonVersion version);

/// Whether Triton gathers within warps (GatherLoweringHelper::isWarpLocal): SRC's and INDEX's
/// warps do not move along `axis`, and their warps and lanes cover the other dims alike.
[[nodiscard]] Result<bool> tritonGatherIsWarpLocal(const LinearLayout& src,
                                                   const LinearLayout& index, int axis);

/// tt.gather of SRC (`bits`-wide elements) along `axis` at indices laid out as INDEX (the
/// result's layout); no steps when it is warp-local.
[[nodiscard]] Result<TritonScratch> tritonGather(const LinearLayout& src, const LinearLayout& index,
                                                 int axis, int bits, const SharedMemoryModel& model,
                                                 TritonVersion version);

} // namespace llcheck
