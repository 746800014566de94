// rank / isInjective / isSurjective / isInvertible against the whole table.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

TEST(InjectiveSurjective, MatchBruteForce) {
  Gen g(2101);
  int counts[2][2] = {};
  for (int t = 0; t < 2 * kTrials; ++t) {
    LinearLayout l = g.any();
    Ref r(l);
    bool inj = bruteInjective(r), surj = bruteSurjective(r);
    ++counts[inj][surj];
    EXPECT_EQ(l.rank(), bruteRank(r)) << l.toString();
    EXPECT_EQ(l.isInjective(), inj) << l.toString();
    EXPECT_EQ(l.isSurjective(), surj) << l.toString();
    EXPECT_EQ(l.isInvertible(), inj && surj) << l.toString();
  }
  for (auto& row : counts)
    for (int c : row)
      EXPECT_GT(c, 10); // every combination is exercised
}

TEST(InjectiveSurjective, GeneratorsKeepTheirPromises) {
  // The targeted generators the other tests rely on, checked by brute force.
  Gen g(2102);
  for (int t = 0; t < kTrials; ++t) {
    EXPECT_TRUE(bruteSurjective(Ref(g.surjective())));
    EXPECT_TRUE(bruteInjective(Ref(g.injective())));
    Ref inv(g.invertible());
    EXPECT_TRUE(bruteInjective(inv) && bruteSurjective(inv));
    LinearLayout d = g.distributed();
    EXPECT_TRUE(bruteSurjective(Ref(d)));
    for (std::size_t j = 0; j < d.columns().size(); ++j) {
      EXPECT_LE(std::popcount(d.columns()[j]), 1);
      for (std::size_t i = 0; i < j; ++i)
        EXPECT_TRUE(d.columns()[j] == 0 || d.columns()[i] != d.columns()[j]);
    }
    LinearLayout m = g.memory();
    Ref rm(m);
    EXPECT_TRUE(bruteInjective(rm) && bruteSurjective(rm));
    for (uint64_t c : m.columns())
      EXPECT_TRUE(std::popcount(c) == 1 || std::popcount(c) == 2);
  }
}

TEST(InjectiveSurjective, Examples) {
  EXPECT_TRUE(identity1D(8, S("i"), S("o")).isInvertible());
  EXPECT_FALSE(zeros1D(2, S("i"), S("o")).isInjective());
  EXPECT_TRUE(zeros1D(2, S("i"), S("o")).isSurjective());
  EXPECT_FALSE(strided1D(4, 2, S("i"), S("o")).isSurjective());
  EXPECT_TRUE(strided1D(4, 2, S("i"), S("o")).isInjective());
  // Square but singular.
  LinearLayout sing = LinearLayout::create({{S("i"), {{3}, {3}}}}, {{S("o"), 4}}, false).value();
  EXPECT_FALSE(sing.isInvertible());
  EXPECT_EQ(sing.rank(), 1);
}

} // namespace
} // namespace llcheck::test
