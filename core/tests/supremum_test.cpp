// supremum: a list containing both lists that keeps each one's relative order, preferring the
// first list's names; nullopt when the lists order two common names differently.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

bool isSubsequence(const std::vector<DimName>& sub, const std::vector<DimName>& v) {
  std::size_t i = 0;
  for (DimName d : v)
    if (i < sub.size() && sub[i] == d)
      ++i;
  return i == sub.size();
}

TEST(Supremum, ContainsBothListsInTheirOrders) {
  Gen g(401);
  std::vector<DimName> pool = {S("a"), S("b"), S("c"), S("d"), S("e"), S("f")};
  int exists = 0;
  for (int t = 0; t < 4 * kTrials; ++t) {
    std::vector<DimName> x = pool, y = pool;
    g.shuffle(x);
    g.shuffle(y);
    x.resize(static_cast<std::size_t>(g.range(0, 5)));
    y.resize(static_cast<std::size_t>(g.range(0, 5)));
    // Brute force existence: the common names appear in the same relative order.
    std::vector<DimName> cx, cy;
    for (DimName d : x)
      if (hasName(y, d))
        cx.push_back(d);
    for (DimName d : y)
      if (hasName(x, d))
        cy.push_back(d);
    auto s = supremum(x, y);
    ASSERT_EQ(s.has_value(), cx == cy);
    if (!s)
      continue;
    ++exists;
    // Every name of x and y exactly once, nothing else, both orders kept.
    for (DimName d : pool)
      EXPECT_EQ(std::count(s->begin(), s->end(), d), hasName(x, d) || hasName(y, d) ? 1 : 0);
    EXPECT_TRUE(isSubsequence(x, *s));
    EXPECT_TRUE(isSubsequence(y, *s));
    // Preference for the first list: a name q of y only comes before a name p of x only just
    // when a common name c forces it (q before c in y, c before p in x).
    auto pos = [](const std::vector<DimName>& v, DimName d) {
      return std::find(v.begin(), v.end(), d) - v.begin();
    };
    for (DimName p : x)
      for (DimName q : y) {
        if (hasName(y, p) || hasName(x, q) || pos(*s, q) > pos(*s, p))
          continue;
        bool forced = false;
        for (DimName c : cx)
          forced = forced || (pos(y, q) < pos(y, c) && pos(x, c) < pos(x, p));
        EXPECT_TRUE(forced) << q << " before " << p;
      }
    if (cx.empty()) {
      std::vector<DimName> xy = x;
      xy.insert(xy.end(), y.begin(), y.end());
      EXPECT_EQ(*s, xy);
    }
    EXPECT_EQ(supremum(x, x), x);
  }
  EXPECT_GT(exists, kTrials);
}

TEST(MergeDimOrder, IsTheSupremumWhenOneExistsAndKeepsEveryNameOtherwise) {
  Gen g(402);
  std::vector<DimName> pool = {S("a"), S("b"), S("c"), S("d"), S("e"), S("f")};
  int conflicting = 0;
  for (int t = 0; t < 4 * kTrials; ++t) {
    std::vector<DimName> x = pool, y = pool;
    g.shuffle(x);
    g.shuffle(y);
    x.resize(static_cast<std::size_t>(g.range(0, 5)));
    y.resize(static_cast<std::size_t>(g.range(0, 5)));
    std::vector<DimName> m = mergeDimOrder(x, y);
    if (auto s = supremum(x, y)) {
      EXPECT_EQ(m, *s);
      continue;
    }
    ++conflicting;
    for (DimName d : pool)
      EXPECT_EQ(std::count(m.begin(), m.end(), d), hasName(x, d) || hasName(y, d) ? 1 : 0);
  }
  EXPECT_GT(conflicting, kTrials / 2);
  // Triton's merge of conflicting orders.
  DimName a = S("a"), b = S("b"), c = S("c");
  EXPECT_EQ(mergeDimOrder({a, b}, {b, a}), (std::vector<DimName>{a, b}));
  EXPECT_EQ(mergeDimOrder({a, b}, {b, c, a}), (std::vector<DimName>{b, c, a}));
}

TEST(Supremum, TritonExamples) {
  DimName a = S("a"), b = S("b"), c = S("c");
  EXPECT_EQ(supremum({a, b}, {a, c}), (std::vector<DimName>{a, b, c}));
  EXPECT_EQ(supremum({a, b}, {b, c}), (std::vector<DimName>{a, b, c}));
  EXPECT_EQ(supremum({a, c}, {b, c}), (std::vector<DimName>{a, b, c}));
  EXPECT_EQ(supremum({b, c}, {a, c}), (std::vector<DimName>{b, a, c}));
  EXPECT_EQ(supremum({a}, {b}), (std::vector<DimName>{a, b}));
  EXPECT_EQ(supremum({}, {b, a}), (std::vector<DimName>{b, a}));
  EXPECT_EQ(supremum({a, b}, {}), (std::vector<DimName>{a, b}));
  EXPECT_FALSE(supremum({a, b}, {b, a}).has_value());
  EXPECT_FALSE(supremum({a, b, c}, {c, b}).has_value());
}

TEST(Supremum, StandardDimsMergeInHardwareOrder) {
  // register/lane/warp/block subsets always merge in the hardware order.
  using namespace dims;
  EXPECT_EQ(supremum({kRegister, kWarp}, {kLane, kWarp, kBlock}),
            (std::vector<DimName>{kRegister, kLane, kWarp, kBlock}));
  EXPECT_EQ(supremum({kRegister, kLane}, {kRegister, kWarp}),
            (std::vector<DimName>{kRegister, kLane, kWarp}));
}

} // namespace
} // namespace llcheck::test
