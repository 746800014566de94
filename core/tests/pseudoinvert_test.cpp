// pseudoinvert: a right inverse R of a surjective L, L(R(y)) = y for every y, choosing the
// numerically smallest preimage.
#include "TestLayouts.h"

#include <map>

namespace llcheck::test {
namespace {

TEST(Pseudoinvert, IsARightInverse) {
  Gen g(801);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = t % 3 == 0 ? g.distributed() : g.surjective();
    auto r = l.pseudoinvert();
    LL_ASSERT_OK(r);
    EXPECT_EQ(r->getInDims(), l.getOutDims());
    EXPECT_EQ(r->getOutDims(), l.getInDims());
    Ref rl(l), rr(*r);
    // The smallest preimage of every output, from L's whole table.
    std::map<uint64_t, uint64_t> smallest;
    for (uint64_t f = 0; f < rl.numInputs(); ++f)
      smallest.emplace(rl.evalFlat(f), f);
    for (uint64_t f = 0; f < rr.numInputs(); ++f) {
      Point y = rr.inPoint(f);
      Point x = r->apply(y).value();
      ASSERT_EQ(l.apply(x).value(), y) << l.toString();
      ASSERT_EQ(rl.flattenIn(valuesFor(rl.ins(), x)), smallest.at(f)) << l.toString();
    }
    if (bruteInjective(rl)) {
      EXPECT_EQ(*r, l.invert().value());
    }
  }
}

TEST(Pseudoinvert, RefusesNonSurjectiveLayouts) {
  Gen g(802);
  int refused = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.random();
    auto r = l.pseudoinvert();
    ASSERT_EQ(r.ok(), bruteSurjective(Ref(l))) << l.toString();
    if (!r.ok()) {
      ++refused;
      EXPECT_NE(r.error().str().find("not surjective"), std::string::npos) << r.error().str();
    }
  }
  EXPECT_GT(refused, 10);
}

TEST(Pseudoinvert, BroadcastPicksRegisterZero) {
  // Registers 0-3 and 4-7 hold the same elements: the right inverse picks the low ones.
  LinearLayout l = identity1D(4, S("register"), S("dim0")) * zeros1D(2, S("register"), S("dim0")) *
                   identity1D(2, S("lane"), S("dim0"));
  LinearLayout r = l.pseudoinvert().value();
  for (uint64_t y = 0; y < 8; ++y)
    EXPECT_EQ(r.apply({{S("dim0"), y}}).value(),
              (Point{{S("register"), y % 4}, {S("lane"), y / 4}}));
}

} // namespace
} // namespace llcheck::test
