// CuTe layouts and swizzles (CUTLASS's include/cute/) as linear layouts: the SPEC form
// `cute:Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)`, as CuTe prints a ComposedLayout.
//
// A CuTe layout maps a coordinate to an integer offset, offset = sum of coord_i * stride_i, and
// Swizzle<B,M,S> maps an offset x to x ^ ((x & YYY) >> S), where YYY is the B bits starting at
// bit M + max(0, S) (a negative S shifts left). The swizzle is F2-linear for every B, M, S. The
// layout is F2-linear exactly when the integer additions never carry: when the values
// stride_i * 2^j (one per input bit) have pairwise disjoint bits. Shapes must be powers of two
// (an F2 space has 2^n points). Everything else is refused with a counterexample.
//
// Two orientations: cuteForwardLayout is CuTe's own direction (dim0, dim1, ... -> offset);
// cuteSharedLayout is Triton's direction for shared memory (offset, block -> dim0, dim1, ...), the
// inverse, defined when the layout is a bijection onto [0, 2^n).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace llcheck {

/// cute::Swizzle<BBits, MBase, SShift>.
struct CuteSwizzle {
  int bits = 0;
  int base = 0;
  int shift = 0;
};

/// One leaf mode of a (possibly nested) CuTe layout.
struct CuteLeaf {
  uint64_t shape = 1;
  uint64_t stride = 0;
};

/// `[swizzle o] [smem_ptr[Nb] o] [0 o] layout`: the parsed form of a CuTe SPEC.
struct CuteLayout {
  std::optional<CuteSwizzle> swizzle;
  /// N of smem_ptr[Nb]: the swizzle then acts on byte addresses (offset * N / 8), as CuTe's
  /// swizzle_ptr does. 0 when absent: the swizzle acts on the layout's offsets directly.
  int elementBits = 0;
  /// The leaves of each top-level mode, in CuTe's colexicographic order (the first is fastest).
  /// Top-level mode k becomes the dimension dimk.
  std::vector<std::vector<CuteLeaf>> modes;
};

/// CuTe's direction: inputs dim0, dim1, ... (mode k's index, colexicographic over its leaves) ->
/// output `offset` (in elements). An error, with a counterexample, when it is not F2-linear.
[[nodiscard]] Result<LinearLayout> cuteForwardLayout(const CuteLayout& layout);

/// Triton's direction for shared memory: inputs offset, block (size 1) -> dim0, dim1, ...; the
/// inverse of cuteForwardLayout, which must be a bijection onto [0, 2^n).
[[nodiscard]] Result<LinearLayout> cuteSharedLayout(const CuteLayout& layout);

} // namespace llcheck
