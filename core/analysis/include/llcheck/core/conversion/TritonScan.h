// What Triton emits on NVIDIA (sm80, sm90) for a tt.scan whose axis spans warps: the
// shared-memory accesses that carry each warp's running total to the warps after it, per
// release, with the bank model's wavefronts. Triton scans blocked layouts only (it refuses
// others); within a thread and within a warp a scan takes registers and shuffles, and only
// when warps hold different parts of the axis do their totals meet in shared memory. Read
// from Triton's ScanOpToLLVM.cpp (storeWarpAccumulator, AddPartialReduce) and
// ScanLoweringHelper, and checked against the PTX both releases emit
// (tests/triton/test_scratch_ops.py) and on an H200 (gpu_oracle/reduce_scratch/).
//
// Let W be the warps along the axis, P the threads of the CTA that scan different positions of
// the other dims ("parallel lanes": the lanes and warps not along the axis, broadcast copies
// not counted) and p(t) a thread's index among them, from Triton's delinearize of its lane and
// warp ids, linearized in the layout's order. A thread's registers fall into chunks of the
// elements it holds contiguously along the axis; chunk c is the c-th in register order.
// 1. Totals stored: per chunk, one predicated scalar st.shared, by the lanes last along the
//    axis within their warp (and no broadcast copy): element p + w*P + c*P*W, w the warp's
//    index along the axis (reflected, W-1-w, for a reverse scan).
// 2. Totals loaded: per chunk, every thread loads the W totals p + P*(i + c*W), i < W, with
//    plain loads LLVM may merge and delete:
//    - the last total (i = W-1) of the last chunk of each accumulator (the chunks at the same
//      position of the other dims) feeds only a select that is never taken: deleted;
//    - when P = 1 the W totals of a chunk are neighbours, and the load-store vectoriser merges
//      each chunk's into aligned vectors of at most 16 bytes, largest first (3.6: 3 totals are
//      a v2 and a scalar); Triton 3.9's LLVM fills the gap a deleted total leaves, loading a
//      tail of 3 (or 5 to 7) elements as one vector of 4 (8) when it fits in 16 bytes.
//    Every lane of a warp with the same p reads the same word: P = 1 is a broadcast. Those
//    broadcast loads ptxas merges once more (measured on the H200, both releases): in each
//    aligned 16-byte block, two or more loads of 32 bits or more per lane become one
//    covering them (a v2 and a scalar: one 16-byte load); narrower loads stay.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/core/conversion/TritonScratch.h"

#include <vector>

namespace llcheck {

/// Triton VERSION's shared-memory accesses for tt.scan of operands of the given element
/// widths (bits; an i1 travels as 8), all laid out as SRC (a blocked layout over one CTA with
/// 32 lanes), along `axis`, `reverse` as the op says. The steps:
/// "totals stored" and "totals loaded" per operand, one "totals loaded" step per load width.
[[nodiscard]] Result<TritonScratch> tritonScan(const LinearLayout& src, int axis, bool reverse,
                                               const std::vector<int>& operandBits,
                                               const SharedMemoryModel& model,
                                               TritonVersion version);

} // namespace llcheck
