// renameInDim / renameOutDim: the same map under another name.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

TEST(Rename, KeepsTheMapUnderTheNewName) {
  Gen g(1601);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    Ref rl(l);
    if (l.getNumInDims() > 0) {
      DimName from = l.getInDimNames()[g.below(static_cast<uint64_t>(l.getNumInDims()))];
      DimName to = S("renamed");
      auto r = l.renameInDim(from, to);
      LL_ASSERT_OK(r);
      EXPECT_EQ(r->inDimIndex(to), l.inDimIndex(from));
      EXPECT_FALSE(r->hasInDim(from));
      for (uint64_t f = 0; f < rl.numInputs(); ++f) {
        Point x = rl.inPoint(f);
        for (auto& [name, v] : x)
          if (name == from)
            name = to;
        ASSERT_EQ(r->apply(x).value(), rl.evalPoint(f));
      }
      EXPECT_EQ(r->renameInDim(to, from).value(), l);
    }
    if (l.getNumOutDims() > 0) {
      DimName from = l.getOutDimNames()[g.below(static_cast<uint64_t>(l.getNumOutDims()))];
      DimName to = S("renamed");
      auto r = l.renameOutDim(from, to);
      LL_ASSERT_OK(r);
      EXPECT_EQ(r->outDimIndex(to), l.outDimIndex(from));
      for (uint64_t f = 0; f < rl.numInputs(); ++f) {
        Point y = rl.evalPoint(f);
        for (auto& [name, v] : y)
          if (name == from)
            name = to;
        ASSERT_EQ(r->apply(rl.inPoint(f)).value(), y);
      }
      EXPECT_EQ(r->renameOutDim(to, from).value(), l);
    }
  }
}

TEST(Rename, ErrorCases) {
  LinearLayout l = identity1D(4, S("a"), S("o")) * identity1D(2, S("b"), S("p"));
  EXPECT_FALSE(l.renameInDim(S("c"), S("d")).ok());
  auto taken = l.renameInDim(S("a"), S("b"));
  ASSERT_FALSE(taken.ok());
  EXPECT_NE(taken.error().str().find("already"), std::string::npos) << taken.error().str();
  EXPECT_FALSE(l.renameOutDim(S("q"), S("r")).ok());
  EXPECT_FALSE(l.renameOutDim(S("o"), S("p")).ok());
  // Renaming to itself is a no-op; an input may take an output's name and vice versa.
  EXPECT_EQ(l.renameInDim(S("a"), S("a")).value(), l);
  EXPECT_EQ(l.renameOutDim(S("o"), S("o")).value(), l);
  EXPECT_TRUE(l.renameInDim(S("a"), S("o")).ok());
  // The empty name is never a dimension name.
  EXPECT_FALSE(l.renameInDim(S("a"), DimName()).ok());
  EXPECT_FALSE(l.renameOutDim(S("o"), DimName()).ok());
}

} // namespace
} // namespace llcheck::test
