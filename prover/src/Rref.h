// A reduced row echelon basis over F2 with its Z3 encoding, for the proofs of prover/src
// (SharedProofs.cpp, CoalescingProofs.cpp): x is in the span exactly when its reduction is 0,
// in integers and as a bit-vector expression. Internal to prover/ (not installed).
#pragma once

#include "Smt.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace llcheck::prover::detail {

/// A reduced echelon basis of span(vectors): each pivot bit is set in its own vector only.
struct Rref {
  std::vector<int> pivots;
  std::vector<uint64_t> basis;

  Rref() = default;
  explicit Rref(std::span<const uint64_t> vectors) {
    for (uint64_t v : vectors)
      insert(v);
  }
  /// Adds v to the span (nothing when it is in it already).
  void insert(uint64_t v) {
    for (std::size_t i = 0; i < basis.size(); ++i)
      if ((v >> pivots[i]) & 1)
        v ^= basis[i];
    if (v == 0)
      return;
    int p = 63 - std::countl_zero(v);
    for (uint64_t& b : basis)
      if ((b >> p) & 1)
        b ^= v;
    pivots.push_back(p);
    basis.push_back(v);
  }
  [[nodiscard]] int dim() const { return static_cast<int>(basis.size()); }
  [[nodiscard]] Rref first(int n) const {
    Rref r;
    r.pivots.assign(pivots.begin(), pivots.begin() + n);
    r.basis.assign(basis.begin(), basis.begin() + n);
    return r;
  }
  [[nodiscard]] uint64_t reduce(uint64_t x) const {
    uint64_t r = x;
    for (std::size_t i = 0; i < basis.size(); ++i)
      if ((x >> pivots[i]) & 1)
        r ^= basis[i];
    return r;
  }
  /// x ^ XOR_i x[p_i] b_i, bit by bit: zero iff x is in the span. A pivot bit always cancels
  /// (b_i is the only basis vector with bit p_i).
  [[nodiscard]] z3::expr reduce(const z3::expr& x) const {
    unsigned w = x.get_sort().bv_size();
    std::optional<z3::expr> out;
    for (unsigned b = 0; b < w; ++b) {
      bool pivot = std::find(pivots.begin(), pivots.end(), static_cast<int>(b)) != pivots.end();
      z3::expr bit = pivot ? x.ctx().bv_val(0, 1) : x.extract(b, b);
      for (std::size_t i = 0; i < basis.size() && !pivot; ++i)
        if ((basis[i] >> b) & 1)
          bit = bit ^ x.extract(static_cast<unsigned>(pivots[i]), static_cast<unsigned>(pivots[i]));
      out = out ? z3::concat(bit, *out) : bit;
    }
    return *out;
  }
};

} // namespace llcheck::prover::detail
