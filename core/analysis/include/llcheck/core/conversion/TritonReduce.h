// What Triton emits on NVIDIA (sm80, sm90) for a tt.reduce whose axis spans warps: the
// shared-memory accesses that combine the warps' partial results, per release, with the bank
// model's wavefronts. Within each thread and then within each warp a reduction takes registers
// and shuffles only; when warps hold different parts of the axis, their partial results meet in
// shared-memory scratch. The two releases do this differently (read from each release's
// ReduceOpToLLVM.cpp and ReduceOpHelper, and checked against the PTX both emit:
// tests/triton/test_scratch_ops.py, and on an H200: gpu_oracle/reduce_scratch/).
//
// # Triton 3.6: scalar stores and loads at linearized indices
//
// Let L be the operand's layout and S its shape; the scratch is S with the axis cut to the
// number of warps along it (W), laid out with the axis fastest and then the other dims in L's
// order (getOrderWithAxisAtBeginning), indices linearized as integers.
// 1. Partials stored: one st.shared per distinct register group (registers that differ only
//    along the axis were combined in the thread), each thread writing its element's indices
//    with the axis index replaced by its warp's index along the axis. Only the lanes whose
//    index along the axis is 0, and that are no broadcast copy (lanes and warps of zero bases),
//    write: the store is predicated.
// 2. Partials combined: every thread t < |scratch| loads element t (then t + threads, ...),
//    the lanes shuffle over W, and lanes that are multiples of W store the result back in
//    place (predicated loads and stores, one per round).
// 3. Result loaded: every thread loads each element of the result layout it holds (the axis
//    index 0), unpredicated; a scalar result is one load of element 0.
// Each access is one element per lane (the predicated ones are inline PTX that LLVM does not
// merge; the result loads are never neighbours: the axis is the fastest dim of the scratch).
//
// # Triton 3.9: layout conversions through Triton's own swizzled scratch
//
// The operand's layout after the in-thread and in-warp steps is R = L with the registers and
// lanes along the axis dropped and the axis renumbered over the warps (reducedRegLaneLayout).
// The warps' axis bases are swapped into lanes (into lanes of zero bases when there are enough,
// else into the first lanes: getInterLayout), R -> that layout is converted through shared
// memory exactly as convert_layout would be, stmatrix/ldmatrix tile pairs included, and the
// lanes shuffle (fla's merge_16x16_to_64x64_inverse: a 16 x 16 f32 tile reduced along dim 0 over
// 4 warps goes through STSM.16.M88.2 / LDSM.16.M88.2 on the H200; this model once took plain
// ld/st.shared only, optimalSwizzlingLdSt, which the PTX of tests/triton/test_scratch_ops.py
// cannot tell apart where no tile pair fits). Until the axis is gone; then, when the layout
// left is not the result's, one more such conversion to it.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/core/conversion/TritonLowering.h"
#include "llcheck/core/conversion/TritonScratch.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llcheck {

/// One operand of the reduce (argmax reduces a value and an index).
struct TritonReduceOperand {
  int bits = 32; ///< its element's width; an i1 travels as 8
  /// Whether the kernel reads its result: LLVM deletes the loads of a result nobody reads (the
  /// value of an argmax), never the stores.
  bool resultUsed = true;
};

/// Triton VERSION's shared-memory accesses for tt.reduce of OPERANDS laid out as SRC (all
/// operands share it) along `axis`, whose results are laid out as RESULT (nullopt for scalar
/// results). SRC must be distributed over one CTA with 32 lanes.
[[nodiscard]] Result<TritonScratch> tritonReduce(const LinearLayout& src, int axis,
                                                 const std::optional<LinearLayout>& result,
                                                 const std::vector<TritonReduceOperand>& operands,
                                                 const SharedMemoryModel& model,
                                                 TritonVersion version);

/// Triton 3.9's reducedRegLaneLayout: SRC after the in-thread and in-warp steps (see above).
[[nodiscard]] Result<LinearLayout> tritonReducedRegLaneLayout(const LinearLayout& src, int axis);
/// Triton 3.9's getInterLayout: the warps' (and CTAs') axis bases swapped into lanes.
[[nodiscard]] Result<LinearLayout> tritonReduceInterLayout(const LinearLayout& reduced, int axis);

} // namespace llcheck
