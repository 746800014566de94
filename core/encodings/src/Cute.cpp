// CuTe layouts and swizzles as linear layouts (see Cute.h). Written from CuTe's definitions in
// include/cute/swizzle.hpp (Swizzle<BBits, MBase, SShift>::apply), layout.hpp (compact
// column-major LayoutLeft, row-major LayoutRight) and swizzle_ptr (the swizzle acts on byte
// addresses); checked by enumeration against a direct evaluation of those formulas
// (core/tests/cute_test.cpp).
#include "llcheck/core/encodings/Cute.h"

#include <algorithm>
#include <bit>
#include <string>

namespace llcheck {

namespace {

int log2Exact(uint64_t v) {
  return std::countr_zero(v);
}

/// Swizzle<B,M,S>::apply: x ^ shiftr(x & YYY, S), a negative S shifting left.
uint64_t applySwizzle(const CuteSwizzle& sw, uint64_t x) {
  if (sw.bits == 0)
    return x;
  uint64_t mask = (uint64_t{1} << sw.bits) - 1;
  uint64_t yyy = mask << (sw.base + std::max(0, sw.shift));
  uint64_t y = x & yyy;
  return x ^ (sw.shift >= 0 ? y >> sw.shift : y << -sw.shift);
}

std::string coordText(const std::vector<uint64_t>& c) {
  std::string s = "(";
  for (std::size_t i = 0; i < c.size(); ++i)
    s += (i ? "," : "") + std::to_string(c[i]);
  return s + ")";
}

} // namespace

Result<LinearLayout> cuteForwardLayout(const CuteLayout& layout) {
  // One generator per input bit: stride * 2^j of each leaf, with where it comes from.
  struct Generator {
    uint64_t value;
    std::size_t mode;
    uint64_t index; // the input's index within its mode
  };
  std::vector<Generator> gens;
  std::vector<Dim> ins;
  for (std::size_t k = 0; k < layout.modes.size(); ++k) {
    int modeBits = 0;
    for (std::size_t i = 0; i < layout.modes[k].size(); ++i) {
      const CuteLeaf& leaf = layout.modes[k][i];
      if (!std::has_single_bit(leaf.shape))
        return makeError("mode " + std::to_string(k) + " has shape " + std::to_string(leaf.shape) +
                         ", not a power of two: a linear layout's inputs are F2 vector spaces "
                         "of 2^n points, so this CuTe layout has no linear layout");
      for (int j = 0; j < log2Exact(leaf.shape); ++j, ++modeBits) {
        if (modeBits >= 40)
          return makeError("mode " + std::to_string(k) + " is too large (at most 2^40 points)");
        uint64_t v = leaf.stride << j;
        if (leaf.stride != 0 && (v >> j != leaf.stride || v >= (uint64_t{1} << 62)))
          return makeError("mode " + std::to_string(k) + ": offsets reach past 2^62");
        gens.push_back({v, k, uint64_t{1} << modeBits});
      }
    }
    ins.push_back({dims::standardOut(static_cast<int>(k)), modeBits});
  }
  // Integer addition equals XOR exactly when no two generators share a bit; a shared bit is a
  // carry, and the two inputs that meet there are the counterexample to linearity.
  for (std::size_t a = 0; a < gens.size(); ++a)
    for (std::size_t b = a + 1; b < gens.size(); ++b) {
      if ((gens[a].value & gens[b].value) == 0)
        continue;
      std::vector<uint64_t> ca(layout.modes.size(), 0), cb = ca, cab = ca;
      ca[gens[a].mode] = gens[a].index;
      cb[gens[b].mode] = gens[b].index;
      cab[gens[a].mode] ^= gens[a].index;
      cab[gens[b].mode] ^= gens[b].index;
      uint64_t x = gens[a].value, y = gens[b].value;
      return makeError(
          "not F2-linear: the strides overlap, so offsets add with carries: " + coordText(ca) +
          " -> " + std::to_string(x) + " and " + coordText(cb) + " -> " + std::to_string(y) +
          ", but " + coordText(cab) + " -> " + std::to_string(x + y) + ", not " +
          std::to_string(x) + " xor " + std::to_string(y) + " = " + std::to_string(x ^ y) +
          " (a linear layout needs strides whose shifted copies, stride * 2^j, share no bits)");
    }
  CuteSwizzle sw = layout.swizzle.value_or(CuteSwizzle{});
  if (layout.elementBits != 0 && sw.bits > 0) {
    // swizzle_ptr swizzles byte addresses; on elements of 2^e bytes that is Swizzle<B, M - e, S>,
    // provided the swizzle leaves the bytes within an element alone.
    int e = log2Exact(static_cast<uint64_t>(layout.elementBits / 8));
    if (sw.base < e)
      return makeError("Sw<" + std::to_string(sw.bits) + "," + std::to_string(sw.base) + "," +
                       std::to_string(sw.shift) + "> with smem_ptr[" +
                       std::to_string(layout.elementBits) +
                       "b] moves bytes within an element (M must be at least " + std::to_string(e) +
                       " for " + std::to_string(layout.elementBits / 8) + "-byte elements)");
    sw.base -= e;
  }
  std::vector<uint64_t> columns;
  uint64_t all = 0;
  for (const Generator& g : gens) {
    columns.push_back(applySwizzle(sw, g.value));
    all |= columns.back();
  }
  Dim out{dims::kOffset, static_cast<int>(std::bit_width(all))};
  return LinearLayout::fromColumns(ins, std::span<const Dim>(&out, 1), columns);
}

Result<LinearLayout> cuteSharedLayout(const CuteLayout& layout) {
  auto forward = cuteForwardLayout(layout);
  if (!forward.ok())
    return forward.error();
  if (!forward->isInvertible())
    return makeError("F2-linear, but not a bijection onto [0, 2^n) (" +
                     std::to_string(forward->getTotalInDimSize()) + " coordinates, offsets below " +
                     std::to_string(forward->getTotalOutDimSize()) + ", " +
                     std::to_string(uint64_t{1} << forward->rank()) +
                     " distinct offsets), so it has no inverse to serve as a shared-memory layout "
                     "(offset -> coordinates): "
                     "make it compact, with no stride 0 and no gaps");
  auto inverse = forward->invert();
  if (!inverse.ok())
    return inverse.error();
  std::vector<DimBases> bases = inverse->getBases();
  bases.push_back({dims::kBlock, {}});
  return LinearLayout::create(bases, inverse->getOutDims(), true);
}

} // namespace llcheck
