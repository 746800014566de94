// A linear layout as a Z3 bit-vector function. Each input dim is one bit-vector variable of
// its width and each output dim one bit-vector expression of its width; output bit b is the
// XOR of the input bits whose basis has bit b set (Def. 4.1: L is determined by its bases).
// Several layouts in one query take the same Values as inputs, which is how a property that
// relates layouts (a composition, a conversion) shares its variables.
#pragma once

#include "Smt.h"
#include "llcheck/core/LinearLayout.h"

#include <vector>

namespace llcheck::smt {

/// A value per named dimension, in the layout's dimension order. A size-1 dimension has width 0
/// and no expression: its value is always 0, and Z3 has no 0-bit vectors.
struct Values {
  struct Entry {
    DimName name;
    unsigned width = 0;
    std::optional<z3::expr> expr; ///< set iff width > 0
  };
  std::vector<Entry> dims;

  [[nodiscard]] const Entry* find(DimName name) const;
  /// Every dimension equal to the other's (matched by name; a missing name compares as 0).
  [[nodiscard]] z3::expr equals(Context& ctx, const Values& other) const;
  /// All dimensions concatenated, the first dimension in the lowest bits (the packed order of
  /// LinearLayout). Precondition: total width >= 1.
  [[nodiscard]] z3::expr packed() const;
  [[nodiscard]] unsigned totalWidth() const;
  /// The model's values as a Point (dimension order kept).
  [[nodiscard]] Point read(const Model& m) const;
};

/// Fresh variables for `dims`, named prefix + dim name.
[[nodiscard]] Values variables(Context& ctx, std::span<const Dim> dims, const std::string& prefix);
/// Constants for a concrete point of `dims` (a dimension missing from `p` is 0).
[[nodiscard]] Values constants(Context& ctx, std::span<const Dim> dims, const Point& p);
/// L(x), where x names every input dim of L (extra dims of x are ignored).
[[nodiscard]] Values apply(Context& ctx, const LinearLayout& l, const Values& x);
/// "exactly one bit of x is set", across all of x's dims: x is one column of the matrix.
[[nodiscard]] z3::expr isOneHot(const Values& x);
/// "v has at least two bits set" for a bit-vector v.
[[nodiscard]] z3::expr hasTwoBits(const z3::expr& v);

} // namespace llcheck::smt
