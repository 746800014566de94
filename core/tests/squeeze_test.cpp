// squeezeIns / squeezeOuts: remove size-1 dimensions; the map is unchanged.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

TEST(Squeeze, RemovesSizeOneDimsAndKeepsTheMap) {
  Gen g(1701);
  int squeezed = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    LinearLayout si = l.squeezeIns(), so = l.squeezeOuts();
    std::vector<DimSize> bigIns, bigOuts;
    for (const DimSize& d : l.getInDims())
      if (d.size > 1)
        bigIns.push_back(d);
    for (const DimSize& d : l.getOutDims())
      if (d.size > 1)
        bigOuts.push_back(d);
    EXPECT_EQ(si.getInDims(), bigIns);
    EXPECT_EQ(si.getOutDims(), l.getOutDims());
    EXPECT_EQ(so.getOutDims(), bigOuts);
    EXPECT_EQ(so.getInDims(), l.getInDims());
    squeezed += bigIns.size() < l.getInDims().size();
    Ref rl(l), rs(si);
    for (uint64_t f = 0; f < rl.numInputs(); ++f) {
      ASSERT_EQ(si.apply(rs.inPoint(f)).value(), rl.evalPoint(f));
      Point y = so.apply(rl.inPoint(f)).value();
      for (const auto& [name, v] : rl.evalPoint(f))
        ASSERT_EQ(valueOf(y, name), v); // the dropped dims only ever held 0
    }
    // One dim at a time.
    for (const DimSize& d : l.getInDims()) {
      auto r = l.squeezeIns(d.name);
      ASSERT_EQ(r.ok(), d.size == 1);
      if (r.ok()) {
        EXPECT_FALSE(r->hasInDim(d.name));
        EXPECT_EQ(r->getNumInDims(), l.getNumInDims() - 1);
        EXPECT_EQ(r->squeezeIns(), si);
      }
    }
    for (const DimSize& d : l.getOutDims()) {
      auto r = l.squeezeOuts(d.name);
      ASSERT_EQ(r.ok(), d.size == 1);
      if (r.ok()) {
        EXPECT_FALSE(r->hasOutDim(d.name));
        EXPECT_EQ(r->squeezeOuts(), so);
      }
    }
  }
  EXPECT_GT(squeezed, 10);
}

TEST(Squeeze, ErrorCases) {
  LinearLayout l = identity1D(4, S("a"), S("o")) * identity1D(1, S("b"), S("p"));
  EXPECT_FALSE(l.squeezeIns(S("a")).ok());
  EXPECT_FALSE(l.squeezeIns(S("z")).ok());
  EXPECT_TRUE(l.squeezeIns(S("b")).ok());
  EXPECT_FALSE(l.squeezeOuts(S("o")).ok());
  EXPECT_FALSE(l.squeezeOuts(S("z")).ok());
  EXPECT_EQ(l.squeezeOuts(S("p")).value(),
            identity1D(4, S("a"), S("o")) * zeros1D(1, S("b"), S("o")));
}

} // namespace
} // namespace llcheck::test
