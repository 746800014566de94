// Span arithmetic for the conversion algorithms (see Subspace.h).
#include "llcheck/core/Subspace.h"

#include <algorithm>

namespace llcheck {

std::vector<uint64_t> intersectionBasis(const std::vector<uint64_t>& a,
                                        const std::vector<uint64_t>& b) {
  // Each stored vector carries, as its "combination", the part of it that came from `a`. A
  // vector of b that reduces to 0 then equals that a-part: a vector of both spans.
  XorBasis both;
  for (uint64_t v : a)
    both.insert(v, v);
  std::vector<uint64_t> common;
  for (uint64_t v : b)
    if (auto aPart = both.solve(v); aPart.has_value())
      common.push_back(*aPart);
    else
      both.insert(v, 0);
  // Reduced echelon form, then ascending: a canonical basis of the intersection.
  std::vector<uint64_t> basis;
  for (uint64_t v : common) {
    for (uint64_t w : basis)
      v = std::min(v, v ^ w);
    if (v == 0)
      continue;
    for (uint64_t& w : basis)
      w = std::min(w, w ^ v);
    basis.push_back(v);
  }
  std::sort(basis.begin(), basis.end());
  return basis;
}

std::vector<uint64_t> complementBasis(const Subspace& base,
                                      const std::vector<uint64_t>& candidates) {
  Subspace grown = base;
  std::vector<uint64_t> added;
  for (uint64_t v : candidates)
    if (grown.insert(v))
      added.push_back(v);
  return added;
}

int rankUnderMask(const std::vector<uint64_t>& vectors, uint64_t mask) {
  Subspace image;
  for (uint64_t v : vectors)
    image.insert(v & mask);
  return image.dim();
}

} // namespace llcheck
