// Gaussian elimination over F2, one vector at a time, on vectors packed into 64-bit words.
// Every rank, span and solve question of the layout algebra goes through this one class.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>

namespace llcheck {

/// A basis of a subspace of F2^64 in echelon form, keyed by each vector's highest set bit.
/// Each stored vector remembers which inserted vectors XOR to it (`combo`, a bit mask of the
/// insertion indices), so that reducing a vector also solves for it.
class XorBasis {
public:
  /// Adds `v`, the XOR of the inserted vectors named by `combo`. Returns true when `v` was
  /// independent of the vectors already present (the rank grew).
  bool insert(uint64_t v, uint64_t combo) {
    while (v != 0) {
      int b = 63 - std::countl_zero(v);
      if (((keys_ >> b) & 1) == 0) {
        keys_ |= uint64_t{1} << b;
        vec_[b] = v;
        combo_[b] = combo;
        return true;
      }
      v ^= vec_[b];
      combo ^= combo_[b];
    }
    return false;
  }

  /// If `v` is in the span, the combination of inserted vectors that XORs to `v`.
  [[nodiscard]] std::optional<uint64_t> solve(uint64_t v) const {
    uint64_t combo = 0;
    while (v != 0) {
      int b = 63 - std::countl_zero(v);
      if (((keys_ >> b) & 1) == 0)
        return std::nullopt;
      v ^= vec_[b];
      combo ^= combo_[b];
    }
    return combo;
  }

  [[nodiscard]] bool contains(uint64_t v) const { return solve(v).has_value(); }

  /// v with every pivot bit cleared by XORing basis vectors: the same value for every vector
  /// of the coset v + span (two remainders differ by a span element without a pivot bit, and
  /// the only such element is 0).
  [[nodiscard]] uint64_t reduce(uint64_t v) const {
    for (uint64_t pivots = v & keys_; pivots != 0; pivots = v & keys_ & lowBitsBelow(pivots))
      v ^= vec_[63 - std::countl_zero(pivots)];
    return v;
  }
  [[nodiscard]] int rank() const { return std::popcount(keys_); }

  /// The smallest integer in [0, 2^numBits) outside the span, if any. It is always a power of
  /// two, 2^p with p the lowest bit that no basis vector has as its highest bit: every value
  /// below 2^p is then in the span and 2^p is not.
  [[nodiscard]] std::optional<uint64_t> smallestMissing(int numBits) const {
    uint64_t missing = ~keys_;
    if (numBits < 64)
      missing &= (uint64_t{1} << numBits) - 1;
    if (missing == 0)
      return std::nullopt;
    return uint64_t{1} << std::countr_zero(missing);
  }

private:
  /// The bits strictly below the highest set bit of x (x != 0).
  static uint64_t lowBitsBelow(uint64_t x) {
    int b = 63 - std::countl_zero(x);
    return b == 0 ? 0 : (uint64_t{1} << b) - 1;
  }

  uint64_t keys_ = 0;
  std::array<uint64_t, 64> vec_;
  std::array<uint64_t, 64> combo_;
};

} // namespace llcheck
