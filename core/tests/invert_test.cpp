// invert: L^-1 of an invertible L, i.e. inv(L(x)) = x for every x and L(inv(y)) = y for every y.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

TEST(Invert, IsATwoSidedInverse) {
  Gen g(701);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = t % 2 ? g.invertible() : g.memory();
    ASSERT_TRUE(bruteInjective(Ref(l)) && bruteSurjective(Ref(l)));
    auto inv = l.invert();
    LL_ASSERT_OK(inv);
    EXPECT_EQ(inv->getInDims(), l.getOutDims());
    EXPECT_EQ(inv->getOutDims(), l.getInDims());
    Ref rl(l), ri(*inv);
    for (uint64_t f = 0; f < rl.numInputs(); ++f) {
      Point x = rl.inPoint(f);
      ASSERT_EQ(inv->apply(l.apply(x).value()).value(), x) << l.toString();
    }
    for (uint64_t f = 0; f < ri.numInputs(); ++f) {
      Point y = ri.inPoint(f);
      ASSERT_EQ(l.apply(inv->apply(y).value()).value(), y) << l.toString();
    }
    // Inverting twice gives the layout back.
    EXPECT_EQ(inv->invert().value(), l);
  }
}

TEST(Invert, RefusesExactlyTheNonInvertibleLayouts) {
  Gen g(702);
  int refused = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    Ref r(l);
    bool invertible = bruteInjective(r) && bruteSurjective(r);
    auto inv = l.invert();
    ASSERT_EQ(inv.ok(), invertible) << l.toString();
    if (!invertible) {
      ++refused;
      EXPECT_NE(inv.error().str().find("not invertible"), std::string::npos) << inv.error().str();
    }
  }
  EXPECT_GT(refused, 10);
}

TEST(Invert, SmallExamples) {
  // The seed 001 swizzle (t, w) -> (t, w ^ t) is its own kind of inverse: (a, b) -> (a, a ^ b).
  LinearLayout l =
      LinearLayout::create({{S("thread"), {{1, 1}, {2, 2}}}, {S("warp"), {{0, 1}, {0, 2}}}},
                           {S("dim0"), S("dim1")})
          .value();
  LinearLayout inv = l.invert().value();
  for (uint64_t a = 0; a < 4; ++a)
    for (uint64_t b = 0; b < 4; ++b)
      EXPECT_EQ(inv.apply({{S("dim0"), a}, {S("dim1"), b}}).value(),
                (Point{{S("thread"), a}, {S("warp"), a ^ b}}));
  // Surjective but not square, injective but not surjective, and a size-1 dim.
  EXPECT_FALSE(zeros1D(2, S("i"), S("o")).invert().ok());
  EXPECT_FALSE(strided1D(4, 2, S("i"), S("o")).invert().ok());
  EXPECT_TRUE((identity1D(4, S("i"), S("o")) * identity1D(1, S("b"), S("o"))).invert().ok());
  EXPECT_EQ(LinearLayout::empty().invert().value(), LinearLayout::empty());
}

} // namespace
} // namespace llcheck::test
