// The conversion plan of the paper's section 5.4: how data held in distributed layout SRC gets
// to distributed layout DST, and the cheapest kind of data movement that does it.
//
// C = DST^-1 ∘ SRC (SRC.invertAndCompose(DST), which picks the minimal-Hamming-weight solution
// and maps a dimension on which both layouts agree by the identity) maps each (register, lane,
// warp, block) of SRC to where DST wants the same element.
//
// The kind is the cheapest movement with which every DST location finds its element:
//
//   - not in its own CTA           -> inter_cta (distributed shared memory; not planned)
//   - not in its own warp          -> shared_memory: a store and a load through shared memory
//   - not in its own thread        -> warp_shuffle: warps keep their data, lanes exchange it
//   - in its own thread, elsewhere -> register_permutation: each thread renames registers
//   - SRC == DST                   -> no_op
//
// "Finds" is decided exactly, with spans rather than with C: C picks one source per element,
// and when SRC broadcasts (holds an element in several warps) C's pick may lie in another warp
// although the reading warp has a copy. The tests compare the kind with a brute-force search
// over every DST location.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

namespace llcheck {

enum class ConversionKind { NoOp, RegisterPermutation, WarpShuffle, SharedMemory, InterCta };

/// "no_op", "register_permutation", "warp_shuffle", "shared_memory", "inter_cta".
[[nodiscard]] const char* conversionKindName(ConversionKind kind);

struct ConversionPlan {
  ConversionKind kind = ConversionKind::NoOp;
  /// SRC and DST with the in-dims register, lane, warp, block and DST's out dims in SRC's order.
  LinearLayout src, dst;
  /// C = DST^-1 ∘ SRC: (register, lane, warp, block) of SRC -> the same dims of DST.
  LinearLayout conversion;
};

/// Both layouts must be distributed, over the same tensor (dims and sizes, any order), with the
/// same numbers of lanes, warps and blocks; otherwise an Error that says which differ. `triton`
/// picks the release whose invertAndCompose chooses C where DST holds an element in several
/// places (the kind does not depend on it).
[[nodiscard]] Result<ConversionPlan> planConversion(const LinearLayout& src,
                                                    const LinearLayout& dst,
                                                    TritonVersion triton = kNewestTriton);

} // namespace llcheck
