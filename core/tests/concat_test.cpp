// concatIns / concatOuts: side by side on the inputs (XOR of both images) or the outputs.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

/// A random layout on given output dims (names and sizes) and fresh input names.
LinearLayout onOuts(Gen& g, const std::vector<DimSize>& outs, const char* prefix) {
  Gen::Shape sh;
  std::size_t k = static_cast<std::size_t>(g.range(0, 2));
  std::vector<int> bits = g.split(g.range(0, 4), k);
  for (std::size_t i = 0; i < k; ++i)
    sh.ins.emplace_back(DimName(prefix + std::to_string(i)), bits[i]);
  for (const DimSize& o : outs)
    sh.outs.emplace_back(o.name, log2Of(o.size));
  return g.fill(sh);
}

TEST(Concat, InsXorsTheImagesOfBothInputs) {
  Gen g(1401);
  for (int t = 0; t < kTrials; ++t) {
    Gen::Shape sh = g.shape(Scheme::Arbitrary, 0, g.range(0, 6));
    std::vector<DimSize> outs = Gen::outDims(sh);
    LinearLayout a = onOuts(g, outs, "a"), b = onOuts(g, outs, "b");
    auto c = a.concatIns(b);
    LL_ASSERT_OK(c);
    std::vector<DimSize> ins = a.getInDims();
    for (const DimSize& d : b.getInDims())
      ins.push_back(d);
    EXPECT_EQ(c->getInDims(), ins);
    EXPECT_EQ(c->getOutDims(), outs);
    Ref ra(a), rb(b);
    for (uint64_t fa = 0; fa < ra.numInputs(); ++fa)
      for (uint64_t fb = 0; fb < rb.numInputs(); ++fb) {
        Point x = ra.inPoint(fa), xb = rb.inPoint(fb);
        x.insert(x.end(), xb.begin(), xb.end());
        std::vector<uint64_t> ya = ra.eval(ra.unflattenIn(fa)), yb = rb.eval(rb.unflattenIn(fb));
        for (std::size_t k = 0; k < ya.size(); ++k)
          ya[k] ^= yb[k];
        ASSERT_EQ(c->apply(x).value(), ra.outPoint(ya));
      }
  }
}

TEST(Concat, OutsPairsTheImages) {
  Gen g(1402);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout a = g.any(6);
    Gen::Shape sh;
    for (const DimSize& d : a.getInDims())
      sh.ins.emplace_back(d.name, log2Of(d.size));
    for (int k = 0; k < g.range(0, 2); ++k)
      sh.outs.emplace_back(DimName("out" + std::to_string(k)), g.range(0, 3));
    LinearLayout b = g.fill(sh);
    auto c = a.concatOuts(b);
    LL_ASSERT_OK(c);
    EXPECT_EQ(c->getInDims(), a.getInDims());
    std::vector<DimSize> outs = a.getOutDims();
    for (const DimSize& d : b.getOutDims())
      outs.push_back(d);
    EXPECT_EQ(c->getOutDims(), outs);
    Ref ra(a);
    for (uint64_t f = 0; f < ra.numInputs(); ++f) {
      Point x = ra.inPoint(f);
      Point y = a.apply(x).value(), yb = b.apply(x).value();
      y.insert(y.end(), yb.begin(), yb.end());
      ASSERT_EQ(c->apply(x).value(), y);
    }
  }
}

TEST(Concat, IsTheOppositeOfSublayout) {
  Gen g(1403);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    std::vector<DimName> ins = l.getInDimNames(), outs = l.getOutDimNames();
    std::size_t ci = g.below(ins.size() + 1), co = g.below(outs.size() + 1);
    std::vector<DimName> i1(ins.begin(), ins.begin() + static_cast<std::ptrdiff_t>(ci));
    std::vector<DimName> i2(ins.begin() + static_cast<std::ptrdiff_t>(ci), ins.end());
    std::vector<DimName> o1(outs.begin(), outs.begin() + static_cast<std::ptrdiff_t>(co));
    std::vector<DimName> o2(outs.begin() + static_cast<std::ptrdiff_t>(co), outs.end());
    EXPECT_EQ(l.sublayout(i1, outs).value().concatIns(l.sublayout(i2, outs).value()).value(), l);
    EXPECT_EQ(l.sublayout(ins, o1).value().concatOuts(l.sublayout(ins, o2).value()).value(), l);
  }
}

TEST(Concat, ErrorCases) {
  LinearLayout a = identity1D(4, S("a"), S("o"));
  // concatIns: output dims must match in names, order and sizes; no common input dim.
  EXPECT_FALSE(a.concatIns(identity1D(8, S("b"), S("o"))).ok());
  EXPECT_FALSE(a.concatIns(identity1D(4, S("b"), S("p"))).ok());
  EXPECT_FALSE((a * zeros1D(1, S("a"), S("p")))
                   .concatIns(zeros1D(1, S("b"), S("p")) * identity1D(4, S("b"), S("o")))
                   .ok());
  auto common = a.concatIns(zeros1D(4, S("a"), S("o"), 4));
  ASSERT_FALSE(common.ok());
  EXPECT_NE(common.error().str().find("appears twice"), std::string::npos) << common.error().str();
  // concatOuts: input dims must match; no common output dim.
  EXPECT_FALSE(a.concatOuts(identity1D(2, S("a"), S("p"))).ok());
  EXPECT_FALSE(a.concatOuts(identity1D(4, S("b"), S("p"))).ok());
  EXPECT_FALSE(a.concatOuts(identity1D(4, S("a"), S("o"))).ok());
  EXPECT_TRUE(a.concatOuts(identity1D(4, S("a"), S("p"))).ok());
  // More than 64 output bits.
  LinearLayout wide = strided1D(2, uint64_t{1} << 40, S("a"), S("o"));
  EXPECT_FALSE(wide.concatOuts(strided1D(2, uint64_t{1} << 30, S("a"), S("p"))).ok());
}

} // namespace
} // namespace llcheck::test
