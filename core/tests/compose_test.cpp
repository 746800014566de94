// compose: (outer ∘ this)(x) = outer(this(x)) for every x.
#include "SeedLayouts.h"

namespace llcheck::test {
namespace {

/// A random `this` whose output dims are outer's input dims, in a random order, each no larger
/// than outer's.
LinearLayout randomInner(Gen& g, const LinearLayout& outer, int maxIn) {
  Gen::Shape sh = g.shape(g.anyScheme(), g.range(0, maxIn), 0, 0);
  sh.outs.clear();
  for (const DimSize& d : outer.getInDims())
    sh.outs.emplace_back(d.name, g.range(0, log2Of(d.size)));
  g.shuffle(sh.outs);
  return g.chance(0.5) ? g.fill(sh) : Gen::fromPacked(sh, [&] {
    std::vector<uint64_t> cols;
    for (int j = 0; j < sh.inBits(); ++j)
      cols.push_back(g.below(uint64_t{1} << sh.outBits()));
    return cols;
  }());
}

TEST(Compose, IsOuterAfterThisOnEveryInput) {
  Gen g(501);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout outer = g.any(8);
    LinearLayout inner = randomInner(g, outer, 6);
    auto c = inner.compose(outer);
    LL_ASSERT_OK(c);
    EXPECT_EQ(c->getInDims(), inner.getInDims());
    EXPECT_EQ(c->getOutDims(), outer.getOutDims());
    Ref ri(inner);
    for (uint64_t f = 0; f < ri.numInputs(); ++f) {
      Point mid = inner.apply(ri.inPoint(f)).value();
      ASSERT_EQ(c->apply(ri.inPoint(f)).value(), outer.apply(mid).value())
          << inner.toString() << "\n∘" << outer.toString();
    }
  }
}

TEST(Compose, WithAnIdentityIsANoOp) {
  Gen g(502);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    LinearLayout id = LinearLayout::empty();
    for (const DimSize& d : l.getOutDims())
      id *= identity1D(d.size, d.name, d.name);
    EXPECT_EQ(l.compose(id).value(), l);
    LinearLayout idIn = LinearLayout::empty();
    for (const DimSize& d : l.getInDims())
      idIn *= identity1D(d.size, d.name, d.name);
    EXPECT_EQ(idIn.compose(l).value(), l);
  }
}

TEST(Compose, IsAssociative) {
  Gen g(503);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout c = g.any(6);
    LinearLayout b = randomInner(g, c, 6);
    LinearLayout a = randomInner(g, b, 6);
    EXPECT_EQ(a.compose(b).value().compose(c).value(), a.compose(b.compose(c).value()).value());
  }
}

TEST(Compose, SmallExample) {
  // this: x -> (p = x, q = x % 2); outer: (q, p) -> o = p + 8 q.
  LinearLayout inner =
      LinearLayout::create({{S("x"), {{1, 1}, {2, 0}}}}, {{S("p"), 4}, {S("q"), 2}}, false).value();
  LinearLayout outer = identity1D(2, S("q"), S("o")) * identity1D(8, S("p"), S("o"));
  LinearLayout c = inner.compose(outer).value();
  for (uint64_t x = 0; x < 4; ++x)
    EXPECT_EQ(c.apply({{S("x"), x}}).value(), (Point{{S("o"), (x % 2) + 2 * x}}));
}

TEST(Compose, Seed003Example) {
  // identity1D(256, register, offset) * zeros1D(1, register, block), composed with the
  // swizzled shared layout of corpus 05: register r lands where offset r does.
  LinearLayout blockLayout = identity1D(256, kReg, kOffset) * zeros1D(1, kReg, kBlock);
  LinearLayout swizzled = corpus("layouts/05-seed003-swizzled-shared-vec4-pp2-mp2-32x32.json");
  LinearLayout composed = blockLayout.compose(swizzled).value();
  EXPECT_EQ(composed.getBases(),
            (std::vector<DimBases>{
                {kReg, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 4}, {4, 0}}}}));
  EXPECT_EQ(composed.getOutDims(), (std::vector<DimSize>{{kDim0, 32}, {kDim1, 32}}));
}

TEST(Compose, ErrorCases) {
  LinearLayout outer = identity1D(4, S("p"), S("o")) * identity1D(4, S("q"), S("o"));
  // this's outputs must be exactly outer's inputs.
  LinearLayout onlyP = identity1D(4, S("x"), S("p"));
  auto r = onlyP.compose(outer);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("not the input dimensions"), std::string::npos) << r.error().str();
  LinearLayout extra =
      identity1D(4, S("x"), S("p")) * identity1D(2, S("y"), S("q")) * identity1D(2, S("z"), S("r"));
  EXPECT_FALSE(extra.compose(outer).ok());
  // ... and no larger than outer's inputs.
  LinearLayout tooBig = identity1D(8, S("x"), S("p")) * identity1D(2, S("y"), S("q"));
  auto big = tooBig.compose(outer);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().str().find("larger than"), std::string::npos) << big.error().str();
}

} // namespace
} // namespace llcheck::test
