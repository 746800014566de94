// Brute force over every input. Outputs are flattened by multiplication (mixed radix), not by
// the algebra's bit packing, to keep the two implementations apart. Nothing here holds a value
// per input: each query streams over the inputs (see Enumeration.h for the memory bound).
#include "llcheck/core/Enumeration.h"

#include <algorithm>
#include <bit>

namespace llcheck {

Result<EnumeratedLayout> EnumeratedLayout::build(const std::vector<DimBases>& bases,
                                                 const std::vector<DimSize>& outDims,
                                                 int maxInputBits) {
  std::size_t inBits = 0;
  for (const DimBases& d : bases)
    inBits += d.bases.size();
  if (inBits > static_cast<std::size_t>(maxInputBits))
    return makeError("the layout has 2^" + std::to_string(inBits) +
                     " inputs, more than the enumeration limit 2^" + std::to_string(maxInputBits));
  if (inBits > 62)
    return makeError("the layout has 2^" + std::to_string(inBits) +
                     " inputs: too many to enumerate");
  EnumeratedLayout e;
  e.outs_ = outDims;
  for (const DimBases& d : bases)
    e.ins_.push_back({d.name, uint64_t{1} << d.bases.size()});
  // Flattened value of each input power of two, computed with multipliers.
  std::vector<uint64_t> multipliers;
  uint64_t m = 1;
  bool overflow = false;
  for (const DimSize& o : outDims) {
    multipliers.push_back(m);
    if (m != 0 && o.size > (~uint64_t{0}) / m)
      overflow = true;
    m = overflow ? 0 : m * o.size;
  }
  e.totalOut_ = overflow ? 0 : m;
  std::vector<uint64_t> columns;
  for (const DimBases& d : bases)
    for (const auto& b : d.bases) {
      uint64_t v = 0;
      for (std::size_t k = 0; k < b.size() && k < multipliers.size(); ++k)
        v += b[k] * multipliers[k];
      columns.push_back(v);
    }
  // L(x) straight from the definition, the XOR of the columns of x's set bits, split in two
  // halves of x so that neither table has more than 2^ceil(n/2) entries.
  e.inBits_ = static_cast<int>(inBits);
  e.loBits_ = (e.inBits_ + 1) / 2;
  e.loMask_ = (uint64_t{1} << e.loBits_) - 1;
  auto partial = [&](int first, int count) {
    std::vector<uint64_t> t(std::size_t{1} << count, 0);
    for (std::size_t x = 1; x < t.size(); ++x)
      t[x] = t[x & (x - 1)] ^
             columns[static_cast<std::size_t>(first + std::countr_zero(static_cast<uint64_t>(x)))];
    return t;
  };
  e.lo_ = partial(0, e.loBits_);
  e.hi_ = partial(e.loBits_, e.inBits_ - e.loBits_);
  return e;
}

namespace {

/// A bijection of 64-bit values that spreads any set of outputs evenly (splitmix64's
/// finalizer): equal hashes are equal values.
uint64_t mix(uint64_t v) {
  v ^= v >> 30;
  v *= 0xbf58476d1ce4e5b9ULL;
  v ^= v >> 27;
  v *= 0x94d049bb133111ebULL;
  v ^= v >> 31;
  return v;
}

/// The most inputs of one group of values in firstCollision: 2^17, a set of 4 MiB.
constexpr int kGroupInputBits = 17;

uint64_t ceilPow2(uint64_t v) {
  return v <= 1 ? 1 : uint64_t{1} << (64 - std::countl_zero(v - 1));
}

/// A set of nonzero 64-bit hashes, open addressing; grows only if the hashes are far less even
/// than expected.
class HashSet {
public:
  explicit HashSet(uint64_t capacity) : slots_(capacity, 0), mask_(capacity - 1) {}
  /// False when h was already there.
  bool insert(uint64_t h) {
    for (uint64_t i = h & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == h)
        return false;
      if (slots_[i] == 0) {
        slots_[i] = h;
        if (++size_ * 8 > slots_.size() * 7)
          grow();
        return true;
      }
    }
  }

private:
  void grow() {
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(old.size() * 2, 0);
    mask_ = slots_.size() - 1;
    for (uint64_t h : old)
      if (h != 0)
        for (uint64_t i = h & mask_;; i = (i + 1) & mask_)
          if (slots_[i] == 0) {
            slots_[i] = h;
            break;
          }
  }
  std::vector<uint64_t> slots_;
  uint64_t mask_;
  uint64_t size_ = 0;
};

} // namespace

std::optional<std::pair<uint64_t, uint64_t>> EnumeratedLayout::firstCollision() const {
  const uint64_t n = numInputs();
  uint64_t x2 = n, value = 0;
  // Only the output bits some column sets can be set in any value: the values, squeezed to
  // those bits (a projection, one-to-one on them, that commutes with XOR), index a bitmap when
  // there are few enough of them, as there are for every layout whose columns are single bits.
  uint64_t used = 0;
  for (uint64_t v : lo_)
    used |= v;
  for (uint64_t v : hi_)
    used |= v;
  const int usedBits = std::popcount(used);
  if (usedBits < 64 && (uint64_t{1} << usedBits) / 8 <= budget_) {
    auto squeeze = [used](uint64_t v) {
      uint64_t out = 0;
      int k = 0;
      for (uint64_t m = used; m != 0; m &= m - 1, ++k)
        if (v & (m & (~m + 1)))
          out |= uint64_t{1} << k;
      return out;
    };
    std::vector<uint64_t> lo(lo_.size()), hi(hi_.size());
    std::transform(lo_.begin(), lo_.end(), lo.begin(), squeeze);
    std::transform(hi_.begin(), hi_.end(), hi.begin(), squeeze);
    // The first input whose value was already seen is x2.
    std::vector<uint64_t> seen(((uint64_t{1} << usedBits) + 63) / 64, 0);
    for (uint64_t x = 0; x < n; ++x) {
      tick("injectivity", x, n);
      uint64_t v = lo[x & loMask_] ^ hi[x >> loBits_];
      if ((seen[v / 64] >> (v % 64)) & 1) {
        x2 = x;
        value = valueAt(x);
        break;
      }
      seen[v / 64] |= uint64_t{1} << (v % 64);
    }
  } else {
    // Too many values for a bitmap: sets of the values seen, one group of values at a time.
    // The group of a value is r parities of it, g(v) = (parity(v & m_i))_i for fixed masks m_i;
    // g is linear, so g(L(x)) = g(lo[a]) ^ g(hi[b]) for x = b * 2^k + a, and the inputs of
    // group q are, for each b, the a whose g(lo[a]) is q ^ g(hi[b]): visited in increasing x,
    // each input once over all the groups. Equal values share a group, so the first repeat
    // within a group is that group's smallest x2, and later groups need not look beyond the
    // smallest x2 found so far. A group too big for the memory budget (its inputs are counted
    // first: masks that a layout defeats) is split further by a hash of the values, one pass each.
    // Groups of at most 2^17 inputs (a set of 4 MiB, in cache), fewer if the budget is small.
    int groupInputBits = kGroupInputBits;
    while (groupInputBits > 0 && (uint64_t{32} << groupInputBits) > budget_)
      --groupInputBits;
    const int groupBits = std::clamp(inBits_ - groupInputBits, 0, 16);
    const uint64_t groups = uint64_t{1} << groupBits;
    uint64_t masks[64] = {};
    for (int i = 0; i < groupBits; ++i)
      masks[i] = mix(0x6c6c636865636bULL + static_cast<uint64_t>(i));
    auto group = [&](uint64_t v) {
      uint64_t g = 0;
      for (int i = 0; i < groupBits; ++i)
        g |= static_cast<uint64_t>(std::popcount(v & masks[i]) & 1) << i;
      return g;
    };
    // The a of each group, in increasing order: byGroup[start[q] .. start[q + 1]).
    std::vector<uint64_t> start(groups + 1, 0), byGroup(lo_.size()), hiGroup(hi_.size());
    std::vector<uint64_t> loGroup(lo_.size());
    for (std::size_t i = 0; i < lo_.size(); ++i)
      ++start[(loGroup[i] = group(lo_[i])) + 1];
    for (uint64_t q = 0; q < groups; ++q)
      start[q + 1] += start[q];
    {
      std::vector<uint64_t> fill(start.begin(), start.end() - 1);
      for (std::size_t i = 0; i < lo_.size(); ++i)
        byGroup[fill[loGroup[i]]++] = i;
    }
    std::vector<uint64_t> inputs(groups, 0);
    for (std::size_t j = 0; j < hi_.size(); ++j) {
      hiGroup[j] = group(hi_[j]);
      for (uint64_t q = 0; q < groups; ++q)
        inputs[q ^ hiGroup[j]] += start[q + 1] - start[q];
    }
    uint64_t done = 0;
    for (uint64_t q = 0; q < groups; ++q) {
      int splitBits = 0;
      while (splitBits < 63 && ceilPow2(2 * ((inputs[q] >> splitBits) + 1)) * 8 > budget_)
        ++splitBits;
      for (uint64_t part = 0; part < (uint64_t{1} << splitBits); ++part) {
        HashSet set(ceilPow2(2 * ((inputs[q] >> splitBits) + 1)));
        bool zeroSeen = false; // the hash 0 marks an empty slot: kept aside
        bool found = false;
        for (uint64_t j = 0; j < hi_.size() && !found && (j << loBits_) < x2; ++j) {
          uint64_t g = q ^ hiGroup[j];
          for (uint64_t i = start[g]; i < start[g + 1]; ++i) {
            uint64_t x = (j << loBits_) | byGroup[i];
            if (x >= x2)
              break;
            tick("injectivity", done++, n);
            uint64_t v = lo_[byGroup[i]] ^ hi_[j];
            uint64_t h = mix(v);
            if (splitBits > 0 && (h >> (64 - splitBits)) != part)
              continue;
            if (h == 0 ? std::exchange(zeroSeen, true) : !set.insert(h)) {
              x2 = x;
              value = v;
              found = true;
              break;
            }
          }
        }
      }
    }
  }
  if (x2 == n)
    return std::nullopt;
  uint64_t x1 = 0;
  while (valueAt(x1) != value)
    ++x1;
  return std::make_pair(x1, x2);
}

std::optional<uint64_t> EnumeratedLayout::smallestMissingOutput() const {
  // n values cover at most the outputs 0 .. n-1: only the first n + 1 outputs matter.
  const uint64_t n = numInputs();
  const uint64_t limit = totalOut_ == 0 ? n + 1 : std::min(totalOut_, n + 1);
  std::vector<uint64_t> seen((limit + 63) / 64, 0);
  for (uint64_t x = 0; x < n; ++x) {
    tick("surjectivity", x, n);
    uint64_t v = valueAt(x);
    if (v < limit)
      seen[v / 64] |= uint64_t{1} << (v % 64);
  }
  for (uint64_t w = 0; w < seen.size(); ++w)
    if (~seen[w] != 0) {
      uint64_t v = w * 64 + static_cast<uint64_t>(std::countr_one(seen[w]));
      if (v < limit)
        return v;
    }
  return std::nullopt;
}

std::vector<uint64_t> EnumeratedLayout::freeVariableMasks() const {
  std::vector<uint64_t> masks(ins_.size(), 0);
  std::size_t c = 0;
  for (std::size_t d = 0; d < ins_.size(); ++d) {
    int bits = std::countr_zero(ins_[d].size);
    for (int i = 0; i < bits; ++i, ++c) {
      for (uint64_t x = uint64_t{1} << c; x < (uint64_t{2} << c); ++x) {
        tick("free variables", x, numInputs());
        if (valueAt(x) == 0) {
          masks[d] |= uint64_t{1} << i;
          break;
        }
      }
    }
  }
  return masks;
}

uint64_t EnumeratedLayout::numConsecutiveInOut(std::size_t outDim) const {
  if (ins_.empty() || outDim >= outs_.size())
    return 1;
  const uint64_t firstIn = ins_[0].size;
  uint64_t below = 1; // product of the sizes of the output dims before outDim
  for (std::size_t k = 0; k < outDim; ++k)
    below *= outs_[k].size;
  // The dims before outDim hold all 2^64 outputs (the product wrapped to 0), so outDim has
  // size 1: no input step moves along it.
  if (below == 0)
    return 1;
  const uint64_t size = outs_[outDim].size;
  // Output sizes are powers of two in every layout the algebra builds: then the digit is a bit
  // field of the mixed-radix flattening, read with a shift and a mask instead of two 64-bit
  // divisions per input (most of a large layout's verification time). The same arithmetic, not
  // the algebra's packing: below and size are products of the output sizes, as above. `others`
  // is only compared, so clearing the digit's field in place serves as well as closing the gap.
  const bool powers = std::has_single_bit(below) && std::has_single_bit(size);
  const int shift = std::countr_zero(below);
  const uint64_t field = (size - 1) << shift;
  auto digit = [&](uint64_t flat) {
    return powers ? (flat & field) >> shift : flat / below % size;
  };
  auto others = [&](uint64_t flat) {
    return powers ? flat & ~field : flat % below + flat / below / size * below;
  };
  uint64_t best = 1;
  // Valid V are closed downwards, so try V = 2, 4, ... until one fails. The definition for V,
  // on every x (with v = x mod V: L(x) is L(x - v) moved v along outDim), holds exactly when it
  // holds for V/2 and, for each multiple b of V, L(b + V/2) is L(b) moved V/2 along outDim: an
  // x with v >= V/2 is (b + V/2) + (v - V/2), a step of the V/2 case from b + V/2. So V needs
  // only the n / V inputs b, and all of them together fewer than n.
  const uint64_t n = numInputs();
  for (uint64_t V = 2; V <= firstIn; V *= 2) {
    bool ok = true;
    for (uint64_t b = 0; ok && b < n; b += V) {
      tick("contiguity", b, n);
      uint64_t lx = valueAt(b + V / 2), lb = valueAt(b);
      ok = digit(lx) == digit(lb) + V / 2 && others(lx) == others(lb);
    }
    if (!ok)
      break;
    best = V;
  }
  return best;
}

} // namespace llcheck
