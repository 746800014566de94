// The laws of reshape, flatten, transpose, squeeze, rename, resize and removeZeroBasesAlongDim:
// what each keeps of the map. Each law is one function; Laws.cpp registers them in one table
// (Catalog.h).
#include "Catalog.h"
#include "Support.h"

#include <algorithm>

namespace llcheck::fuzz::laws {

namespace {

/// `bits` split into dims prefix0, prefix1, ... of parts[i] bits each (the last takes the rest).
std::vector<DimSize> splitOf(int bits, const std::vector<int64_t>& parts,
                             const std::string& prefix) {
  std::vector<DimSize> dims;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    int b = i + 1 == parts.size() ? bits : std::min<int>(bits, static_cast<int>(parts[i]));
    dims.push_back({DimName(prefix + std::to_string(i)), uint64_t{1} << b});
    bits -= b;
  }
  return dims;
}

/// `names` with the swaps of `swaps` (index pairs) applied, reversed when one is left over.
std::vector<DimName> permuted(std::vector<DimName> names, const std::vector<int64_t>& swaps) {
  for (std::size_t i = 0; i + 1 < swaps.size() && !names.empty(); i += 2)
    std::swap(names[static_cast<std::size_t>(swaps[i]) % names.size()],
              names[static_cast<std::size_t>(swaps[i + 1]) % names.size()]);
  if (swaps.size() % 2 == 1 && names.size() > 1)
    std::reverse(names.begin(), names.end());
  return names;
}

} // namespace

// ---- reshape, flatten, transpose, squeeze, rename, resize ----------------------------------

// A random split of `bits` into 1 to 3 dims named prefix0, prefix1, ...
rc::Gen<Case> withSplit(Kind k) {
  return fromDraws([k]() {
    Case c;
    c.layouts.push_back(drawAnyNames(k));
    for (int i = 0, n = pick(1, 3); i < n; ++i)
      c.params.push_back(pick(0, 10));
    return c;
  });
}

Verdict reshapeInsKeepsTheFlatMap(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(r, l.reshapeIns(splitOf(l.getTotalInDimSizeLog2(), c.params, "r")), "reshapeIns");
  if (auto v = sameFlatTable(l, *r, "reshapeIns"))
    return v;
  LAW_TRY(back, r->reshapeIns(l.getInDims()), "reshapeIns back");
  LAW_REQUIRE(*back == l, "reshaped back:" + str(*back));
  return {};
}

Verdict reshapeOutsKeepsTheFlatMap(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(r, l.reshapeOuts(splitOf(l.getTotalOutDimSizeLog2(), c.params, "s")), "reshapeOuts");
  if (auto v = sameFlatTable(l, *r, "reshapeOuts"))
    return v;
  LAW_TRY(back, r->reshapeOuts(l.getOutDims()), "reshapeOuts back");
  LAW_REQUIRE(*back == l, "reshaped back:" + str(*back));
  return {};
}

Verdict flattenKeepsTheFlatMap(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LinearLayout f = l.flattenIns().flattenOuts();
  LAW_REQUIRE(f.getNumInDims() <= 1 && f.getNumOutDims() <= 1, "more than one dim left:" + str(f));
  return sameFlatTable(l, f, "flatten");
}

// A permutation of L's dims, as swaps in params (shrinks to the identity).
rc::Gen<Case> withPermutation(Kind k) {
  return fromDraws([k]() {
    Case c;
    c.layouts.push_back(drawAnyNames(k));
    for (int i = 0, n = pick(0, 4); i < n; ++i)
      c.params.push_back(pick(0, 15));
    return c;
  });
}

Verdict transposeInsRoundTrip(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(t, l.transposeIns(permuted(l.getInDimNames(), c.params)), "transposeIns");
  if (auto v = sameByName(l, *t, "transposeIns"))
    return v;
  LAW_TRY(back, t->transposeIns(l.getInDimNames()), "transposeIns back");
  LAW_REQUIRE(*back == l, "transposed back:" + str(*back));
  return {};
}

Verdict transposeOutsRoundTrip(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(t, l.transposeOuts(permuted(l.getOutDimNames(), c.params)), "transposeOuts");
  if (auto v = sameByName(l, *t, "transposeOuts"))
    return v;
  LAW_TRY(back, t->transposeOuts(l.getOutDimNames()), "transposeOuts back");
  LAW_REQUIRE(*back == l, "transposed back:" + str(*back));
  return {};
}

Verdict squeezeDropsSizeOneDims(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LinearLayout s = l.squeezeIns().squeezeOuts();
  for (const DimSize& d : s.getInDims())
    LAW_REQUIRE(d.size > 1, "input dim " + d.name.str() + " of size 1 left");
  for (const DimSize& d : s.getOutDims())
    LAW_REQUIRE(d.size > 1, "output dim " + d.name.str() + " of size 1 left");
  return sameFlatTable(l, s, "squeeze");
}

Verdict renameRoundTrip(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LinearLayout r = l;
  if (l.getNumInDims() > 0) {
    DimName d = l.getInDimNames()[0];
    LAW_TRY(t, r.renameInDim(d, DimName("renamed")), "renameInDim");
    LAW_REQUIRE(t->getBases()[0].bases == l.getBases()[0].bases, "bases changed");
    LAW_TRY(back, t->renameInDim(DimName("renamed"), d), "renameInDim back");
    r = *back;
  }
  if (l.getNumOutDims() > 0) {
    DimName d = l.getOutDimNames()[0];
    LAW_TRY(t, r.renameOutDim(d, DimName("renamed")), "renameOutDim");
    LAW_TRY(back, t->renameOutDim(DimName("renamed"), d), "renameOutDim back");
    r = *back;
  }
  LAW_REQUIRE(r == l, "renamed there and back:" + str(r));
  return {};
}

rc::Gen<Case> resizeInDimRestrictionCases() {
  return fromDraws([]() {
    Case c;
    c.layouts.push_back(drawLayout(Kind::Any, Names::Arbitrary));
    c.params = {pick(0, 2), pick(0, 10)};
    return c;
  });
}

Verdict resizeInDimRestriction(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  if (l.getNumInDims() == 0)
    return {};
  DimName d = l.getInDimNames()[static_cast<std::size_t>(c.params.at(0)) %
                                static_cast<std::size_t>(l.getNumInDims())];
  uint64_t size = uint64_t{1} << std::min<int64_t>(c.params.at(1), l.getInDimSizeLog2(d));
  LAW_TRY(r, l.resizeInDim(d, size), "resizeInDim");
  RefLayout rl(l), rr(*r);
  LAW_REQUIRE(rr.numInputs() * (l.getInDimSize(d) / size) == rl.numInputs(),
              "wrong number of inputs");
  for (uint64_t f = 0; f < rr.numInputs(); ++f) {
    std::vector<uint64_t> x = rr.unflattenIn(f);
    LAW_REQUIRE(rl.eval(byName(rl, rr.ins(), x)) == rr.eval(x),
                "input " + vecStr(x) + " maps elsewhere after resizeInDim");
  }
  return {};
}

Verdict removeZeroBasesAlongDimSameImage(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  for (DimName d : l.getInDimNames()) {
    LAW_TRY(r, l.removeZeroBasesAlongDim(d), "removeZeroBasesAlongDim");
    LAW_REQUIRE(imageOf(RefLayout(*r)) == imageOf(RefLayout(l)),
                "the image changed on dim " + d.str() + ":" + str(*r));
    for (const DimBases& db : r->getBases())
      if (db.name == d)
        for (const auto& b : db.bases)
          LAW_REQUIRE(std::any_of(b.begin(), b.end(), [](uint64_t v) { return v != 0; }),
                      "a zero basis of " + d.str() + " is left:" + str(*r));
  }
  return {};
}

} // namespace llcheck::fuzz::laws
