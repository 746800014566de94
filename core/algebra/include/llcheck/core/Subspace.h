// Subspaces of F2^64 given by explicit bases: the vocabulary of the paper's section 5 (spans,
// intersections, complements, quotients) on packed vectors. The conversion algorithms are
// written with these few operations, so each reads like its description in the paper.
#pragma once

#include "llcheck/core/XorBasis.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace llcheck {

class Subspace {
public:
  Subspace() = default;
  explicit Subspace(const std::vector<uint64_t>& vectors) {
    for (uint64_t v : vectors)
      insert(v);
  }

  /// Adds v to the span; true when it was independent (v is then a new basis vector).
  bool insert(uint64_t v) {
    if (!echelon_.insert(v, 0))
      return false;
    basis_.push_back(v);
    return true;
  }
  [[nodiscard]] bool contains(uint64_t v) const { return echelon_.contains(v); }
  [[nodiscard]] int dim() const { return static_cast<int>(basis_.size()); }
  /// The independent vectors in the order they were inserted.
  [[nodiscard]] const std::vector<uint64_t>& basis() const { return basis_; }
  /// The number of vectors in the span: 2^dim.
  [[nodiscard]] uint64_t size() const { return uint64_t{1} << dim(); }

  /// v reduced modulo the span: the canonical representative of v + span, the same for every
  /// vector of the coset (each basis pivot, from the highest down, is cleared).
  [[nodiscard]] uint64_t reduce(uint64_t v) const { return echelon_.reduce(v); }

private:
  XorBasis echelon_;
  std::vector<uint64_t> basis_;
};

/// The XOR of the vectors whose positions are the set bits of `selector`: the image of the
/// input `selector` under the map whose columns are `vectors` (bits beyond them are ignored).
template <class Vectors> [[nodiscard]] uint64_t xorOf(const Vectors& vectors, uint64_t selector) {
  uint64_t v = 0;
  for (std::size_t j = 0; selector != 0 && j < std::size(vectors); ++j, selector >>= 1)
    if (selector & 1)
      v ^= vectors[j];
  return v;
}

/// A basis of span(a) ∩ span(b), smallest vectors first after reduction to echelon form (so
/// that the choice is deterministic and prefers the low bits of the logical tensor).
[[nodiscard]] std::vector<uint64_t> intersectionBasis(const std::vector<uint64_t>& a,
                                                      const std::vector<uint64_t>& b);

/// The vectors of `candidates`, in order, that extend `base` to a basis of
/// span(base ∪ candidates): the complement of span(base) inside that span.
[[nodiscard]] std::vector<uint64_t> complementBasis(const Subspace& base,
                                                    const std::vector<uint64_t>& candidates);

/// The dimension of the image of span(vectors) under v -> v & mask.
[[nodiscard]] int rankUnderMask(const std::vector<uint64_t>& vectors, uint64_t mask);

} // namespace llcheck
