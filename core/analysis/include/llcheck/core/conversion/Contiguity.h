// How many elements each thread of a distributed layout holds contiguously in global memory:
// the vector width of a tt.load / tt.store (paper, section 5.1, "Contiguous elements").
//
// # The definition
//
// The tensor is flattened in a memory order (fastest dim first; row-major by default, i.e.
// order [rank-1, ..., 0]): with power-of-two sizes the flat index's low bits are the fastest
// dim's bits, then the next dim's, and so on. Read the layout as a map into that flat index.
// The paper's rule: the largest u = 2^v with L_reg^-1(i) = i for every i < u, i.e. register
// bit k holds flat bit k for k < v. We also ask that no other column (a later register, a lane,
// a warp, a block) touches the low v bits: otherwise some thread would see its u elements in
// another order or misaligned, and the access would not be one vector. Together these say that
// in every thread, registers a*u .. a*u + u-1 hold elements e .. e + u-1 with e a multiple of u
// (integer +), which is what getNumConsecutiveInOut checks along one dim; here the run may
// cross dims (a [512, 2] tensor with each thread holding rows 2t and 2t+1 has runs of 4).
//
// # With a register permutation
//
// The registers of a thread may be renumbered before the access (Theorem 5.1 with the identity
// tile, "Generalized Vectorization" of section 5.3): a permutation of the register bases, such
// as the one that makes a column-major register order vectorizable. The second answer is the
// largest u reachable by such a permutation; the permutation is reported as the ColumnAction
// (result basis i = original register basis action[i]) that achieves it.
//
// # Bits
//
// bits = elements * elementBits, capped at maxAccessBits (128 by default: ld.global.v4.b32, the
// widest access of one thread on NVIDIA and AMD GPUs). The element counts are not capped.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace llcheck {

struct ContiguityOptions {
  /// The tensor dims, fastest first (a permutation of 0..rank-1); empty: [rank-1, ..., 0].
  std::vector<int> order;
  int elementBits = 16;
  int maxAccessBits = 128;
};

struct Contiguity {
  std::vector<int> order;
  int elementBits = 16;
  int maxAccessBits = 128;
  /// The paper's u: registers mapped to contiguous elements by the identity.
  uint64_t elements = 1;
  int bits = 0; ///< min(elements * elementBits, maxAccessBits)
  /// The largest u over all permutations of the register bases, and one permutation reaching
  /// it (the identity permutation when no reordering helps).
  uint64_t elementsWithPermutation = 1;
  int bitsWithPermutation = 0;
  std::vector<int> registerPermutation;
};

/// REG must be distributed (in-dims among register, lane, warp, block) with out dims dim0 ..
/// dim<rank-1> in any order; elementBits a power of two from 1 to 64; maxAccessBits a power
/// of two >= elementBits.
[[nodiscard]] Result<Contiguity> contiguity(const LinearLayout& reg,
                                            const ContiguityOptions& options);

/// {"order", "elementBits", "maxAccessBits", "elements", "bits",
///  "withRegisterPermutation": {"elements", "bits", "registerPermutation"}}
[[nodiscard]] nlohmann::json toJson(const Contiguity& c);

} // namespace llcheck
