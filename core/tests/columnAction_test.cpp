// ColumnAction: result basis i of the chosen input dim is the layout's basis action[i]; on
// values indexed by that dim, result[i] = values[P(i)] with P(i) = XOR of 2^action[b] over the
// set bits b of i.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

uint64_t P(const std::vector<int>& action, uint64_t i) {
  uint64_t src = 0;
  for (std::size_t b = 0; b < action.size(); ++b)
    if ((i >> b) & 1)
      src ^= uint64_t{1} << action[b];
  return src;
}

/// A random permutation of [0, n), or with probability 1/3 a random selection (repeats allowed).
std::vector<int> randomAction(Gen& g, int n, bool permutation) {
  std::vector<int> a(static_cast<std::size_t>(n));
  std::iota(a.begin(), a.end(), 0);
  g.shuffle(a);
  if (!permutation && n > 0) {
    a.resize(static_cast<std::size_t>(g.range(0, n)));
    for (int& v : a)
      if (g.chance(0.3))
        v = g.range(0, n - 1);
  }
  return a;
}

TEST(ColumnAction, ApplyPermutesOrSelectsTheBases) {
  Gen g(2301);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    if (l.getNumInDims() == 0)
      continue;
    DimName d = l.getInDimNames()[g.below(static_cast<uint64_t>(l.getNumInDims()))];
    int n = l.getInDimSizeLog2(d);
    std::vector<int> action = randomAction(g, n, g.chance(0.6));
    auto a = ColumnAction::create(action, d, n);
    LL_ASSERT_OK(a);
    auto r = a->apply(l);
    LL_ASSERT_OK(r);
    std::vector<DimBases> expected = l.getBases();
    for (DimBases& db : expected)
      if (db.name == d) {
        std::vector<std::vector<uint64_t>> picked;
        for (int i : action)
          picked.push_back(db.bases[static_cast<std::size_t>(i)]);
        db.bases = picked;
      }
    EXPECT_EQ(r->getBases(), expected);
    EXPECT_EQ(r->getOutDims(), l.getOutDims());
    // By enumeration: r(d = i, rest) = l(d = P(i), rest).
    Ref rr(*r);
    for (uint64_t f = 0; f < rr.numInputs(); ++f) {
      Point x = rr.inPoint(f);
      for (auto& [name, v] : x)
        if (name == d)
          v = P(action, v);
      ASSERT_EQ(rr.evalPoint(f), l.apply(x).value());
    }
  }
}

TEST(ColumnAction, ApplyOnValues) {
  Gen g(2302);
  for (int t = 0; t < kTrials; ++t) {
    int n = g.range(0, 6);
    std::vector<int> action = randomAction(g, n, g.chance(0.6));
    ColumnAction a = ColumnAction::create(action, S("register"), n).value();
    std::vector<int> values(std::size_t{1} << n);
    for (int& v : values)
      v = g.range(0, 1000);
    auto r = a.apply(values);
    LL_ASSERT_OK(r);
    ASSERT_EQ(r->size(), std::size_t{1} << action.size());
    for (uint64_t i = 0; i < r->size(); ++i)
      ASSERT_EQ((*r)[i], values[P(action, i)]);
    // The same as applying the action to the identity layout on the dim.
    LinearLayout perm = a.apply(identity1D(uint64_t{1} << n, S("register"), S("register"))).value();
    for (uint64_t i = 0; i < r->size(); ++i)
      ASSERT_EQ((*r)[i], values[valueOf(perm.apply({{S("register"), i}}).value(), S("register"))]);
    values.push_back(0);
    EXPECT_FALSE(a.apply(values).ok());
  }
}

TEST(ColumnAction, InverseAndLeftCompose) {
  Gen g(2303);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    if (l.getNumInDims() == 0)
      continue;
    DimName d = l.getInDimNames()[0];
    int n = l.getInDimSizeLog2(d);
    ColumnAction a = ColumnAction::create(randomAction(g, n, true), d, n).value();
    ColumnAction b = ColumnAction::create(randomAction(g, n, true), d, n).value();
    auto inv = a.inverse();
    LL_ASSERT_OK(inv);
    EXPECT_EQ(inv->apply(a.apply(l).value()).value(), l);
    EXPECT_EQ(a.apply(inv->apply(l).value()).value(), l);
    EXPECT_TRUE(a.leftCompose(*inv).value().isIdentity());
    EXPECT_TRUE(inv->leftCompose(a).value().isIdentity());
    // a.leftCompose(b)[i] = a[b[i]]: applying it is applying a, then b.
    ColumnAction ab = a.leftCompose(b).value();
    for (std::size_t i = 0; i < ab.action().size(); ++i)
      EXPECT_EQ(ab.action()[i], a.action()[static_cast<std::size_t>(b.action()[i])]);
    EXPECT_EQ(ab.apply(l).value(), b.apply(a.apply(l).value()).value());
    std::vector<int> values(std::size_t{1} << n);
    std::iota(values.begin(), values.end(), 0);
    EXPECT_EQ(ab.apply(values).value(), b.apply(a.apply(values).value()).value());
  }
}

TEST(ColumnAction, Basics) {
  ColumnAction id = ColumnAction::identity(S("register"), 3);
  EXPECT_TRUE(id.isIdentity());
  EXPECT_EQ(id.action(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(id.inDim(), S("register"));
  EXPECT_EQ(id.toString(), "ColumnAction([0, 1, 2], register, 3)");
  ColumnAction swap = ColumnAction::create({1, 0, 2}, S("register"), 3).value();
  EXPECT_FALSE(swap.isIdentity());
  EXPECT_EQ(swap.toString(), "ColumnAction([1, 0, 2], register, 3)");
  EXPECT_FALSE(ColumnAction::create({0, 1}, S("register"), 3).value().isIdentity());
  LinearLayout l = identity1D(8, S("register"), S("dim0"));
  EXPECT_EQ(id.apply(l).value(), l);
  EXPECT_EQ(swap.apply(l).value().apply({{S("register"), 1}}).value(), (Point{{S("dim0"), 2}}));
}

TEST(ColumnAction, ErrorCases) {
  EXPECT_FALSE(ColumnAction::create({3}, S("register"), 3).ok());
  EXPECT_FALSE(ColumnAction::create({-1}, S("register"), 3).ok());
  EXPECT_FALSE(ColumnAction::create({}, S("register"), -1).ok());
  EXPECT_FALSE(ColumnAction::create({}, S("register"), 64).ok());
  ColumnAction a = ColumnAction::create({1, 0}, S("register"), 2).value();
  // The layout must have the dim, of the action's size.
  EXPECT_FALSE(a.apply(identity1D(4, S("lane"), S("dim0"))).ok());
  EXPECT_FALSE(a.apply(identity1D(8, S("register"), S("dim0"))).ok());
  // Only permutations have inverses: selections, repeats and the empty selection do not.
  EXPECT_FALSE(ColumnAction::create({0}, S("register"), 2).value().inverse().ok());
  EXPECT_FALSE(ColumnAction::create({1, 1}, S("register"), 2).value().inverse().ok());
  EXPECT_FALSE(ColumnAction::create({}, S("register"), 2).value().inverse().ok());
  EXPECT_TRUE(ColumnAction::create({}, S("register"), 0).value().inverse().ok());
  // leftCompose needs the same dim and size.
  EXPECT_FALSE(a.leftCompose(ColumnAction::create({1, 0}, S("lane"), 2).value()).ok());
  EXPECT_FALSE(a.leftCompose(ColumnAction::create({1, 0}, S("register"), 3).value()).ok());
}

} // namespace
} // namespace llcheck::test
