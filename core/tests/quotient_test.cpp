// isTrivialOver / quotient: L acts as the identity on dims D (D maps to itself by the identity,
// nothing else maps onto D and D maps nowhere else); the quotient is L on the other dims.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

/// isTrivialOver by brute force, straight from the definition.
bool bruteTrivialOver(const LinearLayout& l, const std::vector<DimName>& D) {
  for (DimName d : D)
    if (!l.hasInDim(d) || !l.hasOutDim(d) || l.getInDimSize(d) != l.getOutDimSize(d))
      return false;
  Ref r(l);
  for (uint64_t f = 0; f < r.numInputs(); ++f) {
    Point x = r.inPoint(f), y = r.evalPoint(f);
    Point x0 = x;
    for (auto& [name, v] : x0)
      if (hasName(D, name))
        v = 0;
    Point y0 = r.evalPoint(r.flattenIn(valuesFor(r.ins(), x0)));
    for (const auto& [name, v] : y) {
      uint64_t expected = hasName(D, name) ? valueOf(x, name) : valueOf(y0, name);
      if (v != expected)
        return false;
    }
  }
  return true;
}

/// Layouts on in dims {q, r, a} and out dims {q, r, dim0} of various kinds: trivial over q
/// (and r) by construction, the same with one basis disturbed, and random.
LinearLayout candidate(Gen& g, int t) {
  LinearLayout rest = g.any(5);
  LinearLayout q = identity1D(uint64_t{1} << g.range(0, 2), S("q"), S("q"));
  LinearLayout r = identity1D(uint64_t{1} << g.range(0, 2), S("r"), S("r"));
  switch (t % 4) {
  case 0:
    return rest * q;
  case 1:
    return q * rest * r;
  case 2: { // disturb one basis of the trivial layout
    LinearLayout l = rest * q * r;
    std::vector<DimBases> bases = l.getBases();
    std::vector<DimSize> outs = l.getOutDims();
    std::size_t d = g.below(bases.size());
    if (bases[d].bases.empty() || outs.empty())
      return l;
    std::size_t i = g.below(bases[d].bases.size()), k = g.below(outs.size());
    if (outs[k].size == 1)
      return l;
    bases[d].bases[i][k] ^= uint64_t{1} << g.below(static_cast<uint64_t>(log2Of(outs[k].size)));
    return LinearLayout::create(bases, outs, false).value();
  }
  default: {
    Gen::Shape sh;
    sh.ins = {{S("q"), g.range(0, 2)}, {S("a"), g.range(0, 3)}};
    sh.outs = {{S("q"), sh.ins[0].second}, {S("dim0"), g.range(0, 3)}};
    if (g.chance(0.5))
      g.shuffle(sh.outs);
    return g.fill(sh);
  }
  }
}

TEST(Quotient, IsTrivialOverMatchesTheDefinition) {
  Gen g(1001);
  int trivial = 0, notTrivial = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = candidate(g, t);
    for (const std::vector<DimName>& D : std::vector<std::vector<DimName>>{
             {}, {S("q")}, {S("r")}, {S("q"), S("r")}, {S("r"), S("q")}, {S("dim0")}}) {
      bool brute = bruteTrivialOver(l, D);
      ASSERT_EQ(l.isTrivialOver(D), brute) << l.toString();
      (brute ? trivial : notTrivial)++;
    }
  }
  EXPECT_GT(trivial, kTrials);
  EXPECT_GT(notTrivial, kTrials);
}

TEST(Quotient, IsTheLayoutOnTheOtherDims) {
  Gen g(1002);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = candidate(g, t);
    for (const std::vector<DimName>& D :
         std::vector<std::vector<DimName>>{{}, {S("q")}, {S("q"), S("r")}}) {
      auto q = l.quotient(D);
      ASSERT_EQ(q.has_value(), l.isTrivialOver(D));
      if (!q)
        continue;
      for (DimName d : q->getInDimNames())
        EXPECT_FALSE(hasName(D, d));
      for (DimName d : q->getOutDimNames())
        EXPECT_FALSE(hasName(D, d));
      // q(x) = L(x, D = 0) on the other outputs, and L's other dims are all kept, in order.
      std::vector<DimName> restIns, restOuts;
      for (DimName d : l.getInDimNames())
        if (!hasName(D, d))
          restIns.push_back(d);
      for (DimName d : l.getOutDimNames())
        if (!hasName(D, d))
          restOuts.push_back(d);
      EXPECT_EQ(q->getInDimNames(), restIns);
      EXPECT_EQ(q->getOutDimNames(), restOuts);
      Ref rq(*q);
      for (uint64_t f = 0; f < rq.numInputs(); ++f) {
        Point x = rq.inPoint(f), xl;
        for (DimName d : l.getInDimNames())
          xl.emplace_back(d, valueOf(x, d));
        Point y = l.apply(xl).value(), yq = q->apply(x).value();
        for (const auto& [name, v] : yq)
          ASSERT_EQ(v, valueOf(y, name));
      }
      // And L is the quotient times the identity on D, up to dim order.
      if (D == std::vector<DimName>{S("q")} && l.isTrivialOver(D)) {
        LinearLayout back = *q * identity1D(l.getInDimSize(S("q")), S("q"), S("q"));
        EXPECT_EQ(
            back.transposeIns(l.getInDimNames()).value().transposeOuts(l.getOutDimNames()).value(),
            l);
      }
    }
  }
}

TEST(Quotient, Examples) {
  LinearLayout warps = identity1D(4, S("warp"), S("warp"));
  LinearLayout l = identity1D(32, S("lane"), S("dim0")) * warps;
  EXPECT_TRUE(l.isTrivialOver({S("warp")}));
  EXPECT_EQ(l.quotient({S("warp")}), identity1D(32, S("lane"), S("dim0")));
  // warp also feeds dim0: not trivial.
  LinearLayout mixed = LinearLayout::create({{S("lane"), {{1, 0}}}, {S("warp"), {{1, 1}}}},
                                            {{S("dim0"), 2}, {S("warp"), 2}}, true)
                           .value();
  EXPECT_FALSE(mixed.isTrivialOver({S("warp")}));
  EXPECT_FALSE(mixed.quotient({S("warp")}).has_value());
  // A dim that is only an input, or of different sizes on the two sides, is not trivial.
  EXPECT_FALSE(l.isTrivialOver({S("lane")}));
  EXPECT_FALSE(
      (identity1D(4, S("w"), S("dim0")) * zeros1D(2, S("w"), S("w"), 4)).isTrivialOver({S("w")}));
}

} // namespace
} // namespace llcheck::test
