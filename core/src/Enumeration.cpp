// Brute force over every input. Outputs are flattened by multiplication (mixed radix), not by
// the algebra's bit packing, to keep the two implementations apart.
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
  // L(x) for every x, straight from the definition: XOR of the columns of x's set bits.
  e.table_.assign(std::size_t{1} << inBits, 0);
  for (std::size_t x = 1; x < e.table_.size(); ++x)
    e.table_[x] = e.table_[x & (x - 1)] ^ columns[static_cast<std::size_t>(std::countr_zero(x))];
  return e;
}

namespace {
/// Output spaces up to this size are tracked with a bitmap (at most 128 MiB); larger ones by
/// sorting the values.
constexpr uint64_t kBitmapOutputs = uint64_t{1} << 30;
} // namespace

std::optional<std::pair<uint64_t, uint64_t>> EnumeratedLayout::firstCollision() const {
  if (totalOut_ != 0 && totalOut_ <= kBitmapOutputs) {
    // The first input whose value was already seen is x2; x1 is the earlier input with it.
    std::vector<uint64_t> seen((totalOut_ + 63) / 64, 0);
    for (uint64_t x = 0; x < table_.size(); ++x) {
      uint64_t v = table_[x];
      if ((seen[v / 64] >> (v % 64)) & 1) {
        uint64_t x1 = 0;
        while (table_[x1] != v)
          ++x1;
        return std::make_pair(x1, x);
      }
      seen[v / 64] |= uint64_t{1} << (v % 64);
    }
    return std::nullopt;
  }
  // Sort (value, input) pairs; in each run of equal values the first two inputs collide, and
  // the wanted pair is the one whose second input is smallest.
  std::vector<std::pair<uint64_t, uint64_t>> pairs(table_.size());
  for (std::size_t x = 0; x < table_.size(); ++x)
    pairs[x] = {table_[x], x};
  std::sort(pairs.begin(), pairs.end());
  std::optional<std::pair<uint64_t, uint64_t>> best;
  for (std::size_t i = 1; i < pairs.size(); ++i)
    if (pairs[i].first == pairs[i - 1].first && (i < 2 || pairs[i - 2].first != pairs[i].first))
      if (!best || pairs[i].second < best->second)
        best = std::make_pair(pairs[i - 1].second, pairs[i].second);
  return best;
}

std::optional<uint64_t> EnumeratedLayout::smallestMissingOutput() const {
  if (totalOut_ != 0 && totalOut_ <= kBitmapOutputs) {
    std::vector<uint64_t> seen((totalOut_ + 63) / 64, 0);
    for (uint64_t v : table_)
      seen[v / 64] |= uint64_t{1} << (v % 64);
    for (uint64_t w = 0; w < seen.size(); ++w)
      if (~seen[w] != 0) {
        uint64_t v = w * 64 + static_cast<uint64_t>(std::countr_one(seen[w]));
        if (v < totalOut_)
          return v;
      }
    return std::nullopt;
  }
  std::vector<uint64_t> values = table_;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  uint64_t expect = 0;
  for (uint64_t v : values) {
    if (v != expect)
      return expect;
    ++expect;
  }
  if (totalOut_ == 0 || expect < totalOut_)
    return expect;
  return std::nullopt;
}

std::vector<uint64_t> EnumeratedLayout::freeVariableMasks() const {
  std::vector<uint64_t> masks(ins_.size(), 0);
  std::size_t c = 0;
  for (std::size_t d = 0; d < ins_.size(); ++d) {
    int bits = std::countr_zero(ins_[d].size);
    for (int i = 0; i < bits; ++i, ++c) {
      for (uint64_t x = uint64_t{1} << c; x < (uint64_t{2} << c); ++x)
        if (table_[x] == 0) {
          masks[d] |= uint64_t{1} << i;
          break;
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
  auto digit = [&](uint64_t flat) { return flat / below % size; };
  auto others = [&](uint64_t flat) { return flat % below + flat / below / size * below; };
  uint64_t best = 1;
  // Valid V are closed downwards, so try V = 2, 4, ... until one fails.
  for (uint64_t V = 2; V <= firstIn; V *= 2) {
    bool ok = true;
    for (uint64_t x = 0; ok && x < table_.size(); ++x) {
      uint64_t v = x % V; // the first input dim holds the lowest digits of x
      uint64_t lx = table_[x], lb = table_[x - v];
      ok = digit(lx) == digit(lb) + v && others(lx) == others(lb);
    }
    if (!ok)
      break;
    best = V;
  }
  return best;
}

} // namespace llcheck
