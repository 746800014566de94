// The optimal swizzled shared-memory layout for a conversion through shared memory (paper
// section 5.4 and appendix 9.2): given SRC (stored) and DST (loaded), the shared layout with
// the widest common vector and the fewest bank conflicts for both the store and the load.
//
// # The construction (in the logical tensor of one CTA, d bits; vectors are packed elements)
//
//   offset bits:  [ Vec (v) | Bank (b) | Segment (l = d - v - b) ]
//
// - Vec: a basis of span(SRC registers) ∩ span(DST registers), smallest vectors first, at most
//   maxAccessBytes per lane, and kept off the lanes and warps of both layouts (a vector element
//   a lane also moves could not be read in one order by every lane).
// - Bank: the b bits that pick the bank inside one row of banks (rowBytes = banks * 4 bytes):
//   2^b vectors fill a row. For accesses narrower than a bank the lowest of these bits pick the
//   bytes inside a word ("within-word" bits): lanes differing only there share a word.
// - Segment: which row. Lanes of one phase that differ only in segment bits hit the same bank
//   in different rows: a conflict. With U and W the spans of SRC's and DST's lanes of one phase
//   (modulo the vector and within-word bits), a phase costs |U ∩ span(Segment)| wavefronts for
//   the store and |W ∩ span(Segment)| for the load. Lemma 9.5: the largest subspace meeting
//   U ∪ W only in 0 has dimension n - max(dim U, dim W), n the dimension of the space; it is
//   C ⊕ G with C a complement of U + W and G = {e_i ^ f_i} pairing bases of U and W beyond
//   their intersection. Segment takes l vectors from C, then G, then (only if l exceeds the
//   bound, and conflicts are unavoidable) from W's and U's remaining basis vectors.
// - Bank is then any completion to a basis; SRC's phase lanes come first, then DST's.
//
// The result records the bound (segment dims that can be conflict-free, and the least
// wavefronts each side can take at this vector width) next to what our bank model predicts for
// the layout built, so that "attains the bound" is a checked statement, not a claim.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace llcheck {

struct SwizzleBound {
  int segmentDims = 0;             ///< l = d - v - b
  int conflictFreeSegmentDims = 0; ///< Lemma 9.5: n - max(dim U, dim W)
  uint64_t storeWavefronts = 0;    ///< the least the store can take at this vector width
  uint64_t loadWavefronts = 0;
  [[nodiscard]] bool attainedBy(const AccessCount& store, const AccessCount& load) const {
    return store.wavefronts == storeWavefronts && load.wavefronts == loadWavefronts;
  }
};

struct OptimalSwizzle {
  /// (offset, block) -> the tensor dims: offset bits in the order Vec, Bank, Segment.
  LinearLayout shared;
  int vectorLog2 = 0;
  int withinWordBits = 0;
  /// The columns of each part, as packed elements of the tensor (SRC's out-dim order).
  std::vector<uint64_t> vec, bank, segment;
  SwizzleBound bound;
  /// What the bank model predicts for SRC's store and DST's load with `shared`, both at
  /// 2^vectorLog2 elements per access.
  AccessCount store, load;
};

/// SRC and DST must be distributed layouts over the same tensor that split it between CTAs
/// alike, and SRC must hold every element (otherwise no shared layout covers the tensor).
[[nodiscard]] Result<OptimalSwizzle> optimalSwizzle(const LinearLayout& src,
                                                    const LinearLayout& dst, int elementBits,
                                                    const SharedMemoryModel& model);

/// {"shared": layout JSON, "vector_bits", "vec", "bank", "segment", "lower_bound": {...},
///  "store": access, "load": access}.
[[nodiscard]] nlohmann::json toJson(const OptimalSwizzle& s, int elementBits);

} // namespace llcheck
