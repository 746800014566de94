// Shared helpers of the core and prover unit tests (CuTe style: every operation is checked
// against its defining property by enumerating all inputs of many small layouts).
//
// - Gen: a deterministic generator of random labelled layouts (std::mt19937, fixed seeds):
//   arbitrary ones, and targeted ones (surjective, injective, invertible, distributed, memory).
//   It builds layouts from bit columns it packs itself and hands them to LinearLayout::create
//   as plain per-dimension bases, so it does not depend on the library's packing.
// - Ref and the brute-force predicates (injective, surjective, image) over the whole table:
//   ReferenceEvaluator.h, which the fuzz laws share.
#pragma once

#include "ReferenceEvaluator.h"

#include "llcheck/core/LinearLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace llcheck::test {

/// Asserts that a Result holds a value, printing the error otherwise.
#define LL_ASSERT_OK(expr)                                                                         \
  do {                                                                                             \
    const auto& llResult_ = (expr);                                                                \
    ASSERT_TRUE(llResult_.ok()) << llResult_.error().str();                                        \
  } while (0)

/// Number of random layouts per property; small enough for AddressSanitizer.
inline constexpr int kTrials = 200;

/// Divides the case counts of the expensive random-case tests (address simulators) in the
/// sanitizer build, where they run ~30x slower; every other build runs them all.
#ifdef LLCHECK_SANITIZED_BUILD
inline constexpr int kSanitizerDivisor = 8;
#else
inline constexpr int kSanitizerDivisor = 1;
#endif

inline DimName S(const char* s) {
  return DimName(s);
}

/// LinearLayout::create with explicit out sizes, not required to be surjective.
inline LinearLayout makeLayout(const std::vector<DimBases>& bases,
                               const std::vector<DimSize>& outs) {
  return LinearLayout::create(bases, outs, /*requireSurjective=*/false).value();
}

inline LinearLayout identity1D(uint64_t size, DimName in, DimName out) {
  return LinearLayout::identity1D(size, in, out).value();
}
inline LinearLayout zeros1D(uint64_t size, DimName in, DimName out, uint64_t outSize = 1) {
  return LinearLayout::zeros1D(size, in, out, outSize).value();
}
inline LinearLayout strided1D(uint64_t size, uint64_t stride, DimName in, DimName out) {
  return LinearLayout::strided1D(size, stride, in, out).value();
}

/// The value of dimension `d` in a point, or 0 if the point has no such dimension (a missing
/// dimension is a dimension of size 1).
inline uint64_t valueOf(const Point& p, DimName d) {
  for (const auto& [name, v] : p)
    if (name == d)
      return v;
  return 0;
}

/// The values of `p` for `dims`, in the order of `dims` (0 where p lacks one).
inline std::vector<uint64_t> valuesFor(const std::vector<DimSize>& dims, const Point& p) {
  std::vector<uint64_t> v;
  for (const DimSize& d : dims)
    v.push_back(valueOf(p, d.name));
  return v;
}

inline bool hasName(const std::vector<DimName>& v, DimName d) {
  return std::find(v.begin(), v.end(), d) != v.end();
}

inline std::vector<DimName> namesOf(const std::vector<DimSize>& dims) {
  std::vector<DimName> names;
  for (const DimSize& d : dims)
    names.push_back(d.name);
  return names;
}

inline int log2Of(uint64_t pow2) {
  return std::countr_zero(pow2);
}

// ---- The generator ----------------------------------------------------------------------------

enum class Scheme { Distributed, Memory, Arbitrary };

class Gen {
public:
  explicit Gen(uint32_t seed) : rng_(seed) {}

  std::mt19937& rng() { return rng_; }
  /// Uniform in [lo, hi].
  int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  uint64_t below(uint64_t n) {
    return n <= 1 ? 0 : std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <class T> void shuffle(std::vector<T>& v) { std::shuffle(v.begin(), v.end(), rng_); }

  /// Random input dimension names of a scheme, in a plausible order.
  std::vector<DimName> inNames(Scheme s) {
    std::vector<DimName> names;
    switch (s) {
    case Scheme::Distributed: {
      const char* all[] = {"register", "lane", "warp", "block"};
      while (names.empty() || (names.size() == 1 && names[0] == dims::kBlock)) {
        names.clear();
        for (const char* n : all)
          if (chance(0.7))
            names.push_back(DimName(n));
      }
      if (chance(0.15))
        shuffle(names);
      break;
    }
    case Scheme::Memory:
      names.push_back(dims::kOffset);
      if (chance(0.5))
        names.push_back(dims::kBlock);
      break;
    case Scheme::Arbitrary: {
      std::vector<DimName> pool = {S("a"), S("b"), S("c"), S("x"), S("y"), S("in_5")};
      shuffle(pool);
      names.assign(pool.begin(), pool.begin() + range(1, 4));
      break;
    }
    }
    return names;
  }

  Scheme anyScheme() { return static_cast<Scheme>(range(0, 2)); }

  /// dim0, dim1, ... (k of them), occasionally permuted.
  std::vector<DimName> outNames(int k) {
    std::vector<DimName> names = dims::standardOuts(static_cast<std::size_t>(k));
    if (chance(0.15))
      shuffle(names);
    return names;
  }

  /// Splits `bits` among `n` dims at random (some may get 0).
  std::vector<int> split(int bits, std::size_t n) {
    std::vector<int> parts(n, 0);
    if (n == 0)
      return parts;
    for (int b = 0; b < bits; ++b)
      ++parts[below(n)];
    return parts;
  }

  /// A random value below 2^log2, biased towards 0 and powers of two.
  uint64_t value(int log2) {
    if (log2 == 0)
      return 0;
    double p = std::uniform_real_distribution<double>(0, 1)(rng_);
    if (p < 0.25)
      return 0;
    if (p < 0.6)
      return uint64_t{1} << below(static_cast<uint64_t>(log2));
    return below(uint64_t{1} << log2);
  }

  // ---- Shapes ----

  struct Shape {
    std::vector<std::pair<DimName, int>> ins, outs; // name, log2 size
    [[nodiscard]] int inBits() const { return sum(ins); }
    [[nodiscard]] int outBits() const { return sum(outs); }
    static int sum(const std::vector<std::pair<DimName, int>>& v) {
      int s = 0;
      for (const auto& d : v)
        s += d.second;
      return s;
    }
  };

  /// `inBits` input bits over the names of scheme `s`, `outBits` output bits over 0..3 dims.
  Shape shape(Scheme s, int inBits, int outBits, int minOutDims = 1) {
    Shape sh;
    std::vector<DimName> in = inNames(s);
    if (inBits == 0 && chance(0.1))
      in.clear();
    std::vector<int> inParts = split(inBits, in.size());
    if (in.empty())
      inParts.clear();
    for (std::size_t i = 0; i < in.size(); ++i)
      sh.ins.emplace_back(in[i], inParts[i]);
    int k = range(std::max(minOutDims, outBits > 0 ? 1 : 0), 3);
    if (outBits == 0 && minOutDims == 0 && chance(0.3))
      k = 0;
    std::vector<DimName> out = outNames(k);
    std::vector<int> outParts = split(outBits, out.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      sh.outs.emplace_back(out[i], outParts[i]);
    return sh;
  }

  /// Builds the layout whose flattened input bit j maps to the packed output word cols[j]
  /// (output bit p is bit p - offset of the output dim it falls in, outputs in order).
  static LinearLayout fromPacked(const Shape& sh, const std::vector<uint64_t>& cols) {
    std::vector<DimBases> bases;
    std::size_t j = 0;
    for (const auto& [name, bits] : sh.ins) {
      DimBases db{name, {}};
      for (int i = 0; i < bits; ++i, ++j) {
        std::vector<uint64_t> values;
        int off = 0;
        for (const auto& o : sh.outs) {
          values.push_back((cols[j] >> off) & ((uint64_t{1} << o.second) - 1));
          off += o.second;
        }
        db.bases.push_back(std::move(values));
      }
      bases.push_back(std::move(db));
    }
    return LinearLayout::create(bases, outDims(sh), /*requireSurjective=*/false).value();
  }

  static std::vector<DimSize> outDims(const Shape& sh) {
    std::vector<DimSize> outs;
    for (const auto& [name, bits] : sh.outs)
      outs.push_back({name, uint64_t{1} << bits});
    return outs;
  }

  /// Random bases (biased values) on a given shape.
  LinearLayout fill(const Shape& sh) {
    std::vector<DimBases> bases;
    for (const auto& [name, bits] : sh.ins) {
      DimBases db{name, {}};
      for (int i = 0; i < bits; ++i) {
        std::vector<uint64_t> values;
        for (const auto& o : sh.outs)
          values.push_back(value(o.second));
        db.bases.push_back(std::move(values));
      }
      bases.push_back(std::move(db));
    }
    return LinearLayout::create(bases, outDims(sh), /*requireSurjective=*/false).value();
  }

  /// The columns of a random invertible m x m matrix over F2 (random column operations and a
  /// random permutation applied to the identity).
  std::vector<uint64_t> invertibleColumns(int m) {
    std::vector<uint64_t> cols;
    for (int i = 0; i < m; ++i)
      cols.push_back(uint64_t{1} << i);
    for (int step = 0; m > 1 && step < 3 * m; ++step) {
      std::size_t a = below(static_cast<uint64_t>(m)), b = below(static_cast<uint64_t>(m));
      if (a != b)
        cols[a] ^= cols[b];
    }
    shuffle(cols);
    return cols;
  }

  // ---- Layouts ----

  /// Any layout: random scheme, up to maxIn input bits and maxOut output bits, biased values.
  LinearLayout random(int maxIn = 10, int maxOut = 12) {
    return fill(shape(anyScheme(), range(0, maxIn), range(0, maxOut), 0));
  }

  /// Surjective: m <= n output bits, an invertible m x m block in random columns and random
  /// combinations (often zero or repeated) elsewhere.
  LinearLayout surjective(int maxIn = 10, std::optional<Scheme> s = {}) {
    int n = range(0, maxIn), m = range(0, n);
    Shape sh = shape(s ? *s : anyScheme(), n, m, 0);
    return fromPacked(sh, surjectiveColumns(n, m));
  }

  std::vector<uint64_t> surjectiveColumns(int n, int m) {
    std::vector<uint64_t> inv = invertibleColumns(m);
    std::vector<int> pos(static_cast<std::size_t>(n));
    std::iota(pos.begin(), pos.end(), 0);
    shuffle(pos);
    std::vector<uint64_t> cols(static_cast<std::size_t>(n), 0);
    std::vector<bool> set(static_cast<std::size_t>(n), false);
    for (int i = 0; i < m; ++i) {
      cols[pos[i]] = inv[i];
      set[pos[i]] = true;
    }
    for (int j = 0; j < n; ++j) {
      if (set[j])
        continue;
      double p = std::uniform_real_distribution<double>(0, 1)(rng_);
      if (p < 0.35 || m == 0)
        cols[j] = 0;
      else if (p < 0.6)
        cols[j] = inv[below(static_cast<uint64_t>(m))];
      else
        cols[j] = below(uint64_t{1} << m);
    }
    return cols;
  }

  /// Injective: n <= m input bits, n columns of an invertible m x m matrix.
  LinearLayout injective(int maxIn = 10, int maxOut = 12) {
    int m = range(0, maxOut), n = range(0, std::min(m, maxIn));
    Shape sh = shape(anyScheme(), n, m, 0);
    std::vector<uint64_t> inv = invertibleColumns(m);
    inv.resize(static_cast<std::size_t>(n));
    return fromPacked(sh, inv);
  }

  /// Invertible: n == m bits.
  LinearLayout invertible(int maxBits = 10, std::optional<Scheme> s = {}) {
    int n = range(0, maxBits);
    Shape sh = shape(s ? *s : anyScheme(), n, n, 0);
    return fromPacked(sh, invertibleColumns(n));
  }

  /// Definition 4.10: surjective, every column zero or one bit, no repeated non-zero column.
  LinearLayout distributed(int maxIn = 10) {
    int n = range(1, maxIn), m = range(0, n);
    Shape sh = shape(Scheme::Distributed, n, m);
    std::vector<uint64_t> units;
    for (int i = 0; i < m; ++i)
      units.push_back(uint64_t{1} << i);
    shuffle(units);
    std::vector<int> pos(static_cast<std::size_t>(n));
    std::iota(pos.begin(), pos.end(), 0);
    shuffle(pos);
    std::vector<uint64_t> cols(static_cast<std::size_t>(n), 0);
    for (int i = 0; i < m; ++i)
      cols[pos[i]] = units[i];
    return fromPacked(sh, cols);
  }

  /// Definition 4.14: invertible, every column one or two bits (unit columns plus column
  /// operations that add an unmodified unit column).
  LinearLayout memory(int maxBits = 10) {
    int n = range(1, maxBits);
    Shape sh = shape(Scheme::Memory, n, n);
    std::vector<uint64_t> cols;
    for (int i = 0; i < n; ++i)
      cols.push_back(uint64_t{1} << i);
    shuffle(cols);
    std::vector<bool> unit(static_cast<std::size_t>(n), true);
    for (int j = 0; j < n; ++j) {
      std::size_t i = below(static_cast<uint64_t>(n));
      if (i != static_cast<std::size_t>(j) && unit[i] && unit[j] && chance(0.4)) {
        cols[j] ^= cols[i];
        unit[j] = false;
      }
    }
    return fromPacked(sh, cols);
  }

  /// A mix of all kinds.
  LinearLayout any(int maxIn = 10) {
    switch (range(0, 5)) {
    case 0:
      return surjective(maxIn);
    case 1:
      return injective(maxIn);
    case 2:
      return invertible(maxIn);
    case 3:
      return distributed(maxIn);
    case 4:
      return memory(maxIn);
    default:
      return random(maxIn);
    }
  }

private:
  std::mt19937 rng_;
};

// ---- Files of the repository ----------------------------------------------------------------

/// The repository root: LLCHECK_SOURCE_DIR when the build defines it, else found from this
/// header's path (CMake compiles with absolute paths).
inline std::string repoRoot() {
#ifdef LLCHECK_SOURCE_DIR
  return LLCHECK_SOURCE_DIR;
#else
  std::string here = __FILE__; // .../tests/support/TestLayouts.h
  for (int up = 0; up < 3; ++up)
    here = here.substr(0, here.find_last_of('/'));
  return here;
#endif
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace llcheck::test
