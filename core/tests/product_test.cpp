// product / operator*: the direct sum. The definition checked by enumeration:
//   (inner * outer)(x) = inner(x_lo) + (outer(x_hi) << inner's output bits), per output dim,
// where, per input dim, x_lo is the low (inner's) bits of x and x_hi the bits above them.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

/// Checks P = inner * outer against the definition, for every input of inner and of outer.
void checkProduct(const LinearLayout& inner, const LinearLayout& outer, const LinearLayout& p) {
  // Shape: names merged as Triton merges them (the supremum when it exists), sizes add up.
  EXPECT_EQ(p.getInDimNames(), mergeDimOrder(inner.getInDimNames(), outer.getInDimNames()));
  EXPECT_EQ(p.getOutDimNames(), mergeDimOrder(inner.getOutDimNames(), outer.getOutDimNames()));
  if (auto s = supremum(inner.getInDimNames(), outer.getInDimNames())) {
    EXPECT_EQ(p.getInDimNames(), *s);
  }
  if (auto s = supremum(inner.getOutDimNames(), outer.getOutDimNames())) {
    EXPECT_EQ(p.getOutDimNames(), *s);
  }
  for (DimName d : p.getInDimNames())
    EXPECT_EQ(p.getInDimSizeLog2(d), inner.getInDimSizeLog2(d) + outer.getInDimSizeLog2(d));
  for (DimName d : p.getOutDimNames())
    EXPECT_EQ(p.getOutDimSizeLog2(d), inner.getOutDimSizeLog2(d) + outer.getOutDimSizeLog2(d));

  Ref ri(inner), ro(outer);
  for (uint64_t fi = 0; fi < ri.numInputs(); ++fi) {
    Point xi = ri.inPoint(fi), yi = ri.evalPoint(fi);
    for (uint64_t fo = 0; fo < ro.numInputs(); ++fo) {
      Point xo = ro.inPoint(fo), yo = ro.evalPoint(fo);
      Point x, expected;
      for (DimName d : p.getInDimNames())
        x.emplace_back(d, valueOf(xi, d) + (valueOf(xo, d) << inner.getInDimSizeLog2(d)));
      for (DimName d : p.getOutDimNames())
        expected.emplace_back(d, valueOf(yi, d) + (valueOf(yo, d) << inner.getOutDimSizeLog2(d)));
      ASSERT_EQ(p.apply(x).value(), expected) << inner.toString() << "\n*" << outer.toString();
    }
  }
}

TEST(Product, MatchesTheDefinitionByEnumeration) {
  Gen g(301);
  int conflicting = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout inner = g.any(5), outer = g.any(5);
    // Common dims in different orders are merged too (as Triton does), never an error.
    conflicting += !supremum(inner.getInDimNames(), outer.getInDimNames()).has_value();
    auto p = product(inner, outer);
    LL_ASSERT_OK(p);
    checkProduct(inner, outer, *p);
    EXPECT_EQ(inner * outer, *p);
  }
  EXPECT_GT(conflicting, 0);
}

TEST(Product, SharedDimsAreStacked) {
  // Same input and output names on both sides: the case that exercises the shifts.
  Gen g(302);
  for (int t = 0; t < kTrials; ++t) {
    Gen::Shape sh = g.shape(Scheme::Distributed, g.range(0, 5), g.range(0, 5));
    Gen::Shape sh2 = sh;
    std::vector<int> inParts = g.split(g.range(0, 5), sh2.ins.size());
    for (std::size_t i = 0; i < sh2.ins.size(); ++i)
      sh2.ins[i].second = inParts[i];
    std::vector<int> outParts = g.split(g.range(0, 5), sh2.outs.size());
    for (std::size_t i = 0; i < sh2.outs.size(); ++i)
      sh2.outs[i].second = outParts[i];
    LinearLayout inner = g.fill(sh), outer = g.fill(sh2);
    auto p = product(inner, outer);
    LL_ASSERT_OK(p);
    checkProduct(inner, outer, *p);
  }
}

TEST(Product, RanksAddAndSurjectivityIsKept) {
  Gen g(303);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout inner = g.any(5), outer = g.any(5);
    auto p = product(inner, outer);
    if (!p.ok())
      continue;
    Ref ri(inner), ro(outer), rp(*p);
    EXPECT_EQ(bruteRank(rp), bruteRank(ri) + bruteRank(ro));
    EXPECT_EQ(bruteSurjective(rp), bruteSurjective(ri) && bruteSurjective(ro));
    EXPECT_EQ(bruteInjective(rp), bruteInjective(ri) && bruteInjective(ro));
  }
}

TEST(Product, IsAssociative) {
  Gen g(304);
  int checked = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout a = g.any(3), b = g.any(3), c = g.any(3);
    auto ab = product(a, b), bc = product(b, c);
    if (!ab.ok() || !bc.ok())
      continue;
    auto lhs = product(*ab, c), rhs = product(a, *bc);
    if (!lhs.ok() || !rhs.ok())
      continue;
    ++checked;
    // The same map; when the merged dim orders agree (they do unless a supremum had to pick an
    // order between unrelated names), the same layout.
    auto lhsT = lhs->transposeIns(rhs->getInDimNames());
    LL_ASSERT_OK(lhsT);
    auto lhsTT = lhsT->transposeOuts(rhs->getOutDimNames());
    LL_ASSERT_OK(lhsTT);
    EXPECT_EQ(*lhsTT, *rhs) << a.toString() << b.toString() << c.toString();
    if (lhs->getInDimNames() == rhs->getInDimNames() &&
        lhs->getOutDimNames() == rhs->getOutDimNames()) {
      EXPECT_EQ(*lhs, *rhs);
    }
  }
  EXPECT_GT(checked, kTrials / 2);
}

TEST(Product, EmptyIsTheIdentity) {
  Gen g(305);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    EXPECT_EQ(l * LinearLayout::empty(), l);
    EXPECT_EQ(LinearLayout::empty() * l, l);
  }
  EXPECT_EQ(LinearLayout::empty() * LinearLayout::empty(), LinearLayout::empty());
}

TEST(Product, TritonHeaderExamples) {
  DimName i = S("i"), o = S("o");
  // identity1D(4, i, o) * identity1D(2, i, o) == identity1D(8, i, o)
  EXPECT_EQ(identity1D(4, i, o) * identity1D(2, i, o), identity1D(8, i, o));
  // identity1D(4, i, o) * zeros1D(2, i, o): L(x) = x % 4, out size 4.
  {
    LinearLayout l = identity1D(4, i, o) * zeros1D(2, i, o);
    EXPECT_EQ(l.getInDimSize(i), 8u);
    EXPECT_EQ(l.getOutDimSize(o), 4u);
    for (uint64_t x = 0; x < 8; ++x)
      EXPECT_EQ(l.apply({{i, x}}).value(), (Point{{o, x % 4}}));
  }
  // zeros1D(2, i, o) * identity1D(4, i, o): L(x) = x / 2.
  {
    LinearLayout l = zeros1D(2, i, o) * identity1D(4, i, o);
    EXPECT_EQ(l.getOutDimSize(o), 4u);
    for (uint64_t x = 0; x < 8; ++x)
      EXPECT_EQ(l.apply({{i, x}}).value(), (Point{{o, x / 2}}));
  }
  // identity1D(4, i, o1) * identity1D(8, i, o2): L(x) = (x % 4, x / 4).
  {
    LinearLayout l = identity1D(4, i, S("o1")) * identity1D(8, i, S("o2"));
    EXPECT_EQ(l.getOutDimNames(), (std::vector<DimName>{S("o1"), S("o2")}));
    for (uint64_t x = 0; x < 32; ++x)
      EXPECT_EQ(l.apply({{i, x}}).value(), (Point{{S("o1"), x % 4}, {S("o2"), x / 4}}));
  }
  // identity1D(4, i1, o) * identity1D(8, i2, o): L(i1, i2) = i1 + 4 * i2.
  {
    LinearLayout l = identity1D(4, S("i1"), o) * identity1D(8, S("i2"), o);
    for (uint64_t a = 0; a < 4; ++a)
      for (uint64_t b = 0; b < 8; ++b)
        EXPECT_EQ(l.apply({{S("i1"), a}, {S("i2"), b}}).value(), (Point{{o, a + 4 * b}}));
  }
}

TEST(Product, CommonDimsInDifferentOrdersAreMergedAsTritonDoes) {
  // Triton's supremum never fails: [a, b] * [b, a] is ordered [a, b].
  LinearLayout ab = identity1D(2, S("a"), S("o")) * identity1D(2, S("b"), S("p"));
  LinearLayout ba = identity1D(4, S("b"), S("o")) * identity1D(2, S("a"), S("p"));
  auto r = product(ab, ba);
  LL_ASSERT_OK(r);
  EXPECT_EQ(r->getInDimNames(), (std::vector<DimName>{S("a"), S("b")}));
  checkProduct(ab, ba, *r);
  EXPECT_EQ(mergeDimOrder({S("a"), S("b")}, {S("b"), S("c"), S("a")}),
            (std::vector<DimName>{S("b"), S("c"), S("a")}));
}

TEST(Product, ErrorCases) {
  // More than 64 input bits.
  LinearLayout big = identity1D(uint64_t{1} << 40, S("a"), S("o"));
  LinearLayout big2 = zeros1D(uint64_t{1} << 30, S("a"), S("p"));
  auto r = product(big, big2);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("2^70"), std::string::npos) << r.error().str();
  EXPECT_THROW((void)(big * big2), LayoutError);
  auto r2 = product(big, zeros1D(uint64_t{1} << 30, S("b"), S("p")));
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().str().find("at most 64"), std::string::npos) << r2.error().str();
  // More than 64 output bits.
  EXPECT_FALSE(product(strided1D(2, uint64_t{1} << 40, S("a"), S("o")),
                       strided1D(2, uint64_t{1} << 30, S("b"), S("p")))
                   .ok());
  // operator*= is operator*.
  LinearLayout l = identity1D(4, S("a"), S("o"));
  l *= identity1D(2, S("a"), S("o"));
  EXPECT_EQ(l, identity1D(8, S("a"), S("o")));
}

} // namespace
} // namespace llcheck::test
