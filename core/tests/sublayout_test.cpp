// sublayout / sublayoutIsZero: L restricted to some input dims (the others fixed to 0) and some
// output dims (the others dropped).
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

/// A random subset of `names`, in a random order.
std::vector<DimName> subset(Gen& g, std::vector<DimName> names) {
  std::vector<DimName> s;
  for (DimName d : names)
    if (g.chance(0.5))
      s.push_back(d);
  g.shuffle(s);
  return s;
}

TEST(Sublayout, IsTheLayoutWithTheOtherInputsZeroAndOtherOutputsDropped) {
  Gen g(1101);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    std::vector<DimName> ins = subset(g, l.getInDimNames()), outs = subset(g, l.getOutDimNames());
    auto s = l.sublayout(ins, outs);
    LL_ASSERT_OK(s);
    // The layout's order and sizes are kept, whatever the order of the arguments.
    std::vector<DimSize> expectIns, expectOuts;
    for (const DimSize& d : l.getInDims())
      if (hasName(ins, d.name))
        expectIns.push_back(d);
    for (const DimSize& d : l.getOutDims())
      if (hasName(outs, d.name))
        expectOuts.push_back(d);
    EXPECT_EQ(s->getInDims(), expectIns);
    EXPECT_EQ(s->getOutDims(), expectOuts);
    Ref rs(*s);
    bool allZero = true;
    for (uint64_t f = 0; f < rs.numInputs(); ++f) {
      Point x = rs.inPoint(f), xl;
      for (DimName d : l.getInDimNames())
        xl.emplace_back(d, valueOf(x, d));
      Point y = l.apply(xl).value(), ys = s->apply(x).value();
      ASSERT_EQ(ys.size(), expectOuts.size());
      for (const auto& [name, v] : ys) {
        ASSERT_EQ(v, valueOf(y, name));
        allZero = allZero && v == 0;
      }
    }
    EXPECT_EQ(l.sublayoutIsZero(ins, outs).value(), allZero);
  }
}

TEST(Sublayout, IsZeroExamples) {
  LinearLayout l = identity1D(4, S("register"), S("dim0")) * zeros1D(8, S("lane"), S("dim1"), 4);
  EXPECT_TRUE(l.sublayoutIsZero({S("lane")}, {S("dim0"), S("dim1")}).value());
  EXPECT_TRUE(l.sublayoutIsZero({S("register")}, {S("dim1")}).value());
  EXPECT_FALSE(l.sublayoutIsZero({S("register")}, {S("dim0")}).value());
  EXPECT_TRUE(l.sublayoutIsZero({}, {S("dim0")}).value());
  EXPECT_TRUE(l.sublayoutIsZero({S("register")}, {}).value());
}

TEST(Sublayout, ErrorCases) {
  LinearLayout l = identity1D(4, S("register"), S("dim0"));
  auto a = l.sublayout({S("lane")}, {S("dim0")});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().str().find("'lane' is not an input dimension"), std::string::npos);
  auto b = l.sublayout({S("register")}, {S("dim1")});
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().str().find("'dim1' is not an output dimension"), std::string::npos);
  EXPECT_FALSE(l.sublayoutIsZero({S("lane")}, {}).ok());
  EXPECT_FALSE(l.sublayoutIsZero({}, {S("register")}).ok());
}

} // namespace
} // namespace llcheck::test
