// The generators of Generators.h: every layout and case built from one list of draws, read in
// order by pick(), so that RapidCheck's shrinking of the list shrinks the layouts.
#include "Generators.h"

#include <algorithm>
#include <numeric>

namespace llcheck::fuzz {

namespace {
thread_local DrawScope* currentScope = nullptr;
} // namespace

DrawScope::DrawScope(const std::vector<int>& draws) : draws_(&draws), outer_(currentScope) {
  currentScope = this;
}

DrawScope::~DrawScope() {
  currentScope = outer_;
}

int pick(int lo, int hi) {
  DrawScope* s = currentScope;
  if (hi <= lo || s == nullptr || s->next_ >= s->draws_->size())
    return lo;
  int raw = (*s->draws_)[s->next_++];
  return lo + raw % (hi - lo + 1);
}

namespace {

using DimBits = std::vector<std::pair<DimName, int>>;

/// `bits` split over `names`: each dim but the last draws its share, the last takes the rest
/// (shrinking moves bits to the last dim).
DimBits splitBits(const std::vector<DimName>& names, int bits) {
  DimBits out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    int b = i + 1 == names.size() ? bits : pick(0, bits);
    out.emplace_back(names[i], b);
    bits -= b;
  }
  return out;
}

std::vector<DimName> inNames(Names names) {
  switch (names) {
  case Names::Distributed:
    return {dims::kRegister, dims::kLane, dims::kWarp, dims::kBlock};
  case Names::Memory:
    return pick(0, 1) ? std::vector<DimName>{dims::kOffset, dims::kBlock}
                      : std::vector<DimName>{dims::kOffset};
  case Names::Arbitrary:
    break;
  }
  std::vector<DimName> v;
  for (int i = 0, n = pick(1, 3); i < n; ++i)
    v.push_back(DimName("in" + std::to_string(i)));
  return v;
}

std::vector<DimName> outNames(int minDims) {
  return dims::standardOuts(static_cast<std::size_t>(pick(minDims, 3)));
}

/// A sparse random column of m bits: the XOR of a few output bits.
uint64_t sparseColumn(int m) {
  if (m == 0)
    return 0;
  uint64_t c = 0;
  for (int k = 0, n = pick(0, std::min(m, 3)); k < n; ++k)
    c ^= uint64_t{1} << pick(0, m - 1);
  return c;
}

/// A few swaps: shrinks to the order given.
void permute(std::vector<uint64_t>& cols) {
  int n = static_cast<int>(cols.size());
  if (n < 2)
    return;
  for (int k = 0, swaps = pick(0, n); k < swaps; ++k)
    std::swap(cols[static_cast<std::size_t>(pick(0, n - 1))],
              cols[static_cast<std::size_t>(pick(0, n - 1))]);
}

/// Column operations cols[a] ^= cols[b] (rank-preserving), then swaps: a random change of
/// basis of the input side, which shrinks to nothing.
void mixColumns(std::vector<uint64_t>& cols) {
  int n = static_cast<int>(cols.size());
  if (n < 2)
    return;
  for (int k = 0, ops = pick(0, 2 * n); k < ops; ++k) {
    int a = pick(0, n - 1), b = pick(0, n - 1);
    if (a != b)
      cols[static_cast<std::size_t>(a)] ^= cols[static_cast<std::size_t>(b)];
  }
  permute(cols);
}

std::vector<uint64_t> units(int m) {
  std::vector<uint64_t> cols;
  for (int i = 0; i < m; ++i)
    cols.push_back(uint64_t{1} << i);
  return cols;
}

LinearLayout build(Names names, int n, int m, const std::vector<uint64_t>& cols) {
  DimBits ins = splitBits(inNames(names), n);
  DimBits outs = splitBits(outNames(m > 0 ? 1 : 0), m);
  return layoutFromColumns(ins, outs, cols);
}

} // namespace

LinearLayout layoutFromColumns(const DimBits& ins, const DimBits& outs,
                               const std::vector<uint64_t>& cols) {
  std::vector<DimBases> bases;
  std::size_t j = 0;
  for (const auto& [name, bits] : ins) {
    DimBases db{name, {}};
    for (int i = 0; i < bits; ++i, ++j) {
      std::vector<uint64_t> values;
      int off = 0;
      for (const auto& o : outs) {
        uint64_t c = j < cols.size() ? cols[j] : 0;
        values.push_back((c >> off) & ((uint64_t{1} << o.second) - 1));
        off += o.second;
      }
      db.bases.push_back(std::move(values));
    }
    bases.push_back(std::move(db));
  }
  std::vector<DimSize> outDims;
  for (const auto& [name, bits] : outs)
    outDims.push_back({name, uint64_t{1} << bits});
  return LinearLayout::create(bases, outDims, /*requireSurjective=*/false).value();
}

rc::Gen<LinearLayout> genLayout(Kind kind, Names names, int maxBits) {
  return fromDraws([=]() { return drawLayout(kind, names, maxBits); });
}

LinearLayout drawLayout(Kind kind, Names names, int maxBits) {
  switch (kind) {
  case Kind::Any: {
    int n = pick(0, maxBits), m = pick(0, maxBits);
    std::vector<uint64_t> cols;
    for (int j = 0; j < n; ++j)
      cols.push_back(sparseColumn(m));
    return build(names, n, m, cols);
  }
  case Kind::Surjective: {
    int m = pick(0, maxBits), n = pick(m, maxBits);
    std::vector<uint64_t> cols = units(m);
    for (int j = m; j < n; ++j)
      cols.push_back(sparseColumn(m));
    mixColumns(cols);
    return build(names, n, m, cols);
  }
  case Kind::Injective: {
    int m = pick(0, maxBits), n = pick(0, m);
    std::vector<uint64_t> cols = units(m);
    mixColumns(cols);
    cols.resize(static_cast<std::size_t>(n));
    return build(names, n, m, cols);
  }
  case Kind::Invertible: {
    int n = pick(0, maxBits);
    std::vector<uint64_t> cols = units(n);
    mixColumns(cols);
    return build(names, n, n, cols);
  }
  case Kind::Distributed: {
    int n = pick(0, maxBits), m = pick(0, n);
    std::vector<uint64_t> cols = units(m);
    cols.resize(static_cast<std::size_t>(n), 0);
    permute(cols);
    return build(Names::Distributed, n, m, cols);
  }
  case Kind::Memory: {
    // Def. 4.14: add an unmodified unit column to a unit column; each column keeps 1 or 2
    // bits and the matrix stays invertible.
    int n = pick(0, maxBits);
    std::vector<uint64_t> cols = units(n);
    permute(cols);
    std::vector<bool> unit(static_cast<std::size_t>(n), true);
    for (int k = 0, ops = n < 2 ? 0 : pick(0, n); k < ops; ++k) {
      auto a = static_cast<std::size_t>(pick(0, n - 1));
      auto b = static_cast<std::size_t>(pick(0, n - 1));
      if (a != b && unit[a] && unit[b]) {
        cols[a] ^= cols[b];
        unit[a] = false;
      }
    }
    return build(Names::Memory, n, n, cols);
  }
  }
  return LinearLayout::empty();
}

rc::Gen<LinearLayout> genLayoutOn(DimBits ins, DimBits outs) {
  return fromDraws([=]() { return drawLayoutOn(ins, outs); });
}

LinearLayout drawLayoutOn(const DimBits& ins, const DimBits& outs) {
  int n = 0, m = 0;
  for (const auto& d : ins)
    n += d.second;
  for (const auto& d : outs)
    m += d.second;
  std::vector<uint64_t> cols;
  for (int j = 0; j < n; ++j)
    cols.push_back(sparseColumn(m));
  return layoutFromColumns(ins, outs, cols);
}

namespace {

LinearLayout distributedOn(int regBits, int laneBits, int warpBits,
                           const std::vector<int>& outBits) {
  int n = regBits + laneBits + warpBits, m = 0;
  DimBits outs;
  for (std::size_t i = 0; i < outBits.size(); ++i) {
    outs.emplace_back(dims::standardOut(static_cast<int>(i)), outBits[i]);
    m += outBits[i];
  }
  std::vector<uint64_t> cols = units(std::min(m, n));
  cols.resize(static_cast<std::size_t>(n), 0);
  permute(cols);
  return layoutFromColumns({{dims::kRegister, regBits},
                            {dims::kLane, laneBits},
                            {dims::kWarp, warpBits},
                            {dims::kBlock, 0}},
                           outs, cols);
}

} // namespace

rc::Gen<LinearLayout> genDistributedOn(int regBits, int laneBits, int warpBits,
                                       std::vector<int> outBits) {
  return fromDraws([=]() { return distributedOn(regBits, laneBits, warpBits, outBits); });
}

LinearLayout drawDistributedOn(int regBits, int laneBits, int warpBits,
                               const std::vector<int>& outBits) {
  return distributedOn(regBits, laneBits, warpBits, outBits);
}

rc::Gen<Case> genConversionPair() {
  return fromDraws(drawConversionPair);
}

Case drawConversionPair() {
  int arch = pick(0, 2);
  int laneBits = arch == 0 ? 5 : 6;
  int warpBits = pick(0, 2);
  int m = laneBits + warpBits + pick(0, 3);
  int d0 = pick(0, m);
  std::vector<int> outBits = d0 == 0 ? std::vector<int>{m} : std::vector<int>{d0, m - d0};
  int regs = m - laneBits - warpBits;
  Case c;
  c.layouts.push_back(distributedOn(regs + pick(0, 1), laneBits, warpBits, outBits));
  c.layouts.push_back(distributedOn(regs + pick(0, 1), laneBits, warpBits, outBits));
  c.params = {arch, pick(0, 3)};
  return c;
}

rc::Gen<Case> genBlockedParams() {
  return fromDraws(drawBlockedParams);
}

Case drawBlockedParams() {
  int rank = pick(1, 3);
  std::vector<int64_t> spt, tpw, wpc, order, shape;
  std::vector<DimName> names = dims::standardOuts(static_cast<std::size_t>(rank));
  for (int i = 0; i < rank; ++i)
    spt.push_back(pick(0, 2));
  for (const auto& d : splitBits(names, 5))
    tpw.push_back(d.second);
  for (const auto& d : splitBits(names, pick(0, 2)))
    wpc.push_back(d.second);
  std::vector<uint64_t> perm(static_cast<std::size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  permute(perm);
  int budget = 11;
  for (int i = 0; i < rank; ++i) {
    int s = pick(0, std::min(budget, 5));
    budget -= s;
    shape.push_back(s);
  }
  Case c;
  c.params.push_back(rank);
  for (const auto* v : {&spt, &tpw, &wpc})
    c.params.insert(c.params.end(), v->begin(), v->end());
  for (uint64_t o : perm)
    c.params.push_back(static_cast<int64_t>(o));
  c.params.insert(c.params.end(), shape.begin(), shape.end());
  return c;
}

Result<BlockedCase> blockedFromParams(const std::vector<int64_t>& p) {
  if (p.empty() || p[0] < 1 || p[0] > 4)
    return makeError("blocked params: rank must be 1 to 4");
  auto rank = static_cast<std::size_t>(p[0]);
  if (p.size() != 1 + 5 * rank)
    return makeError("blocked params: expected " + std::to_string(1 + 5 * rank) + " values");
  for (std::size_t i = 1; i < p.size(); ++i)
    if (p[i] < 0 || p[i] > 16)
      return makeError("blocked params: value " + std::to_string(p[i]) + " out of range");
  BlockedCase c;
  for (std::size_t i = 0; i < rank; ++i) {
    c.params.sizePerThread.push_back(uint64_t{1} << p[1 + i]);
    c.params.threadsPerWarp.push_back(uint64_t{1} << p[1 + rank + i]);
    c.params.warpsPerCTA.push_back(uint64_t{1} << p[1 + 2 * rank + i]);
    c.params.order.push_back(static_cast<uint64_t>(p[1 + 3 * rank + i]));
    c.shape.push_back(uint64_t{1} << p[1 + 4 * rank + i]);
  }
  return c;
}

rc::Gen<Case> genSwizzledParams() {
  return fromDraws(drawSwizzledParams);
}

Case drawSwizzledParams() {
  Case c;
  c.params = {pick(0, 3), pick(0, 2), pick(0, 3), pick(0, 1), pick(0, 5), pick(0, 5)};
  return c;
}

Result<SwizzledCase> swizzledFromParams(const std::vector<int64_t>& p) {
  if (p.size() != 6)
    return makeError("swizzled_shared params: expected 6 values");
  for (int64_t v : p)
    if (v < 0 || v > 16)
      return makeError("swizzled_shared params: value " + std::to_string(v) + " out of range");
  SwizzledCase c;
  c.params.vec = uint64_t{1} << p[0];
  c.params.perPhase = uint64_t{1} << p[1];
  c.params.maxPhase = uint64_t{1} << p[2];
  c.params.order = {static_cast<uint64_t>(p[3] & 1), static_cast<uint64_t>(1 - (p[3] & 1))};
  c.shape = {uint64_t{1} << p[4], uint64_t{1} << p[5]};
  return c;
}

} // namespace llcheck::fuzz
