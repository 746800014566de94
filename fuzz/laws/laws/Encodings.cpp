// The laws of the encodings: blocked, swizzled_shared and slice against the paper's definitions,
// element by element. Each law is one function; Laws.cpp registers them in one table (Catalog.h).
#include "Catalog.h"
#include "Support.h"

#include "llcheck/core/Encodings.h"

#include <algorithm>
#include <map>
#include <set>

namespace llcheck::fuzz::laws {

// ---- Encodings -----------------------------------------------------------------------------

Verdict blockedIsDistributed(const Case& c) {
  LAW_TRY(b, blockedFromParams(c.params), "parameters");
  LAW_TRY(l, blockedToLinearLayout(b->params, b->shape), "blockedToLinearLayout");
  for (std::size_t i = 0; i < b->shape.size(); ++i)
    LAW_REQUIRE(l->getOutDimSize(dims::standardOut(static_cast<int>(i))) == b->shape[i],
                "dim" + std::to_string(i) + " has the wrong size:" + str(*l));
  if (auto v = distributedViolation(*l); !v.empty())
    return v + ":" + str(*l);
  return {};
}

Verdict blockedHoldsItsElements(const Case& c) {
  LAW_TRY(b, blockedFromParams(c.params), "parameters");
  LAW_TRY(l, blockedToLinearLayout(b->params, b->shape), "blockedToLinearLayout");
  const BlockedParams& p = b->params;
  std::size_t rank = b->shape.size();
  // Triton's definition: the CTA tile is spt * tpw * wpc per dim; lane and warp indices
  // are split over dims in `order` (fastest first); registers cover spt per dim, then the
  // tile repeats over the shape, also in `order`; a tile larger than the shape wraps
  // (broadcast).
  RefLayout r(*l);
  auto splitIdx = [&](uint64_t v, const std::vector<uint64_t>& sizes) {
    std::vector<uint64_t> out(rank, 0);
    for (uint64_t d : p.order) {
      out[d] = v % sizes[d];
      v /= sizes[d];
    }
    return out;
  };
  std::vector<uint64_t> tile(rank), reps(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    tile[d] = p.sizePerThread[d] * p.threadsPerWarp[d] * p.warpsPerCTA[d];
    reps[d] = std::max<uint64_t>(1, b->shape[d] / tile[d]);
  }
  uint64_t sptTotal = 1;
  for (std::size_t d = 0; d < rank; ++d) {
    // Not covered: a thread's block larger than the shape, where Triton drops the
    // registers that fall outside rather than wrapping them.
    if (p.sizePerThread[d] > b->shape[d])
      return {};
    sptTotal *= p.sizePerThread[d];
  }
  for (uint64_t f = 0; f < r.numInputs(); ++f) {
    std::vector<uint64_t> x = r.unflattenIn(f);
    // Registers: first the elements of one thread's sizePerThread block, then the
    // repetitions of the CTA tile over the shape, each split over dims in `order`.
    uint64_t reg = RefLayout::valueOf(r.ins(), x, dims::kRegister);
    std::vector<uint64_t> within = splitIdx(reg % sptTotal, p.sizePerThread),
                          rep = splitIdx(reg / sptTotal, reps),
                          li = splitIdx(RefLayout::valueOf(r.ins(), x, dims::kLane),
                                        p.threadsPerWarp),
                          wi = splitIdx(RefLayout::valueOf(r.ins(), x, dims::kWarp), p.warpsPerCTA);
    std::vector<uint64_t> y = r.eval(x);
    for (std::size_t d = 0; d < rank; ++d) {
      uint64_t want = (within[d] + p.sizePerThread[d] * li[d] +
                       p.sizePerThread[d] * p.threadsPerWarp[d] * wi[d] + tile[d] * rep[d]) %
                      b->shape[d];
      LAW_REQUIRE(y[d] == want, "register " + std::to_string(reg) + ", input " + vecStr(x) +
                                    ": dim" + std::to_string(d) + " is " + std::to_string(y[d]) +
                                    ", expected " + std::to_string(want) + str(*l));
    }
  }
  return {};
}

Verdict swizzledSharedIsMemory(const Case& c) {
  LAW_TRY(s, swizzledFromParams(c.params), "parameters");
  LAW_TRY(l, swizzledSharedToLinearLayout(s->params, s->shape), "swizzled_shared");
  LAW_REQUIRE(l->getOutDimSize(dims::standardOut(0)) == s->shape[0] &&
                  l->getOutDimSize(dims::standardOut(1)) == s->shape[1],
              "wrong shape:" + str(*l));
  if (auto v = memoryViolation(*l); !v.empty())
    return v + ":" + str(*l);
  return {};
}

Verdict swizzledSharedPlacesElements(const Case& c) {
  LAW_TRY(s, swizzledFromParams(c.params), "parameters");
  LAW_TRY(l, swizzledSharedToLinearLayout(s->params, s->shape), "swizzled_shared");
  std::size_t fast = s->params.order[0], slow = 1 - fast;
  uint64_t cols = s->shape[fast];
  RefLayout r(*l);
  for (uint64_t o = 0; o < r.numInputs(); ++o) {
    std::vector<uint64_t> y = r.eval(r.unflattenIn(o));
    uint64_t row = o / cols;
    uint64_t phase = (row / s->params.perPhase) % s->params.maxPhase;
    uint64_t col = (o % cols) ^ ((s->params.vec * phase) % cols);
    LAW_REQUIRE(y[slow] == row && y[fast] == col,
                "offset " + std::to_string(o) + " holds " + vecStr(y) + ", expected row " +
                    std::to_string(row) + " column " + std::to_string(col) + str(*l));
  }
  return {};
}

rc::Gen<Case> sliceIsLinearCases() {
  return fromDraws([]() {
    Case c = drawBlockedParams();
    c.params.push_back(pick(0, 2));
    return c;
  });
}

Verdict sliceIsLinear(const Case& c) {
  std::vector<int64_t> params(c.params.begin(), c.params.end() - 1);
  LAW_TRY(b, blockedFromParams(params), "parameters");
  std::size_t rank = b->shape.size();
  auto dim = static_cast<std::size_t>(c.params.back()) % rank;
  std::vector<uint64_t> shape = b->shape;
  shape[dim] = 1; // the parent is laid over the shape with the sliced dim of size 1
  LAW_TRY(parent, blockedToLinearLayout(b->params, shape), "parent");
  LAW_TRY(slice, sliceToLinearLayout(*parent, static_cast<int>(dim)), "slice");
  // Per (lane, warp, block): the set of elements held.
  auto held = [](const LinearLayout& l, std::size_t dropped) {
    RefLayout r(l);
    std::map<std::vector<uint64_t>, std::set<std::vector<uint64_t>>> m;
    for (uint64_t f = 0; f < r.numInputs(); ++f) {
      std::vector<uint64_t> x = r.unflattenIn(f);
      std::vector<uint64_t> y = r.eval(x), key;
      for (DimName d : {dims::kLane, dims::kWarp, dims::kBlock})
        key.push_back(RefLayout::valueOf(r.ins(), x, d));
      if (dropped < y.size())
        y.erase(y.begin() + static_cast<std::ptrdiff_t>(dropped));
      m[key].insert(y);
    }
    return m;
  };
  LAW_REQUIRE(held(*parent, dim) == held(*slice, rank),
              "the slice holds other elements than its parent:" + str(*slice) +
                  "\nparent:" + str(*parent));
  return {};
}

} // namespace llcheck::fuzz::laws
