// reshapeIns / reshapeOuts / flattenIns / flattenOuts: the same map on flattened indices
// (minor to major), with the inputs (outputs) split into new dims.
#include "SeedLayouts.h"

namespace llcheck::test {
namespace {

/// Random new dims with `bits` bits in total, named n0, n1, ... (some of size 1).
std::vector<DimSize> randomDims(Gen& g, int bits) {
  std::size_t k = static_cast<std::size_t>(g.range(bits > 0 ? 1 : 0, 4));
  std::vector<int> parts = g.split(bits, k);
  std::vector<DimSize> dims;
  for (std::size_t i = 0; i < k; ++i)
    dims.push_back({DimName("n" + std::to_string(i)), uint64_t{1} << parts[i]});
  return dims;
}

TEST(Reshape, InsPreservesApplyOnFlattenedInputs) {
  Gen g(1201);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    std::vector<DimSize> newIns = randomDims(g, l.getTotalInDimSizeLog2());
    auto r = l.reshapeIns(newIns);
    LL_ASSERT_OK(r);
    EXPECT_EQ(r->getInDims(), newIns);
    EXPECT_EQ(r->getOutDims(), l.getOutDims());
    Ref rl(l), rr(*r);
    for (uint64_t f = 0; f < rl.numInputs(); ++f)
      ASSERT_EQ(r->apply(rr.inPoint(f)).value(), l.apply(rl.inPoint(f)).value());
  }
}

TEST(Reshape, OutsPreservesApplyOnFlattenedOutputs) {
  Gen g(1202);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    std::vector<DimSize> newOuts = randomDims(g, l.getTotalOutDimSizeLog2());
    auto r = l.reshapeOuts(newOuts);
    LL_ASSERT_OK(r);
    EXPECT_EQ(r->getInDims(), l.getInDims());
    EXPECT_EQ(r->getOutDims(), newOuts);
    Ref rl(l), rr(*r);
    for (uint64_t f = 0; f < rl.numInputs(); ++f) {
      Point x = rl.inPoint(f);
      uint64_t before = rl.flattenOut(valuesFor(rl.outs(), l.apply(x).value()));
      uint64_t after = rr.flattenOut(valuesFor(rr.outs(), r->apply(x).value()));
      ASSERT_EQ(after, before);
    }
  }
}

TEST(Reshape, FlattenIsAReshapeIntoOneDimNamedLikeTheFirst) {
  Gen g(1203);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    LinearLayout fi = l.flattenIns(), fo = l.flattenOuts();
    if (l.getNumInDims() == 0) {
      EXPECT_EQ(fi, l);
    } else {
      EXPECT_EQ(fi.getInDims(),
                (std::vector<DimSize>{{l.getInDimNames()[0], l.getTotalInDimSize()}}));
      EXPECT_EQ(fi, l.reshapeIns(fi.getInDims()).value());
      // Input f of the flattened layout is the flattened input f of l.
      Ref rl(l);
      for (uint64_t f = 0; f < rl.numInputs(); ++f)
        ASSERT_EQ(fi.apply({{l.getInDimNames()[0], f}}).value(), l.apply(rl.inPoint(f)).value());
    }
    if (l.getNumOutDims() == 0) {
      EXPECT_EQ(fo, l);
    } else {
      EXPECT_EQ(fo.getOutDims(),
                (std::vector<DimSize>{{l.getOutDimNames()[0], l.getTotalOutDimSize()}}));
      EXPECT_EQ(fo, l.reshapeOuts(fo.getOutDims()).value());
      Ref rl(l);
      for (uint64_t f = 0; f < rl.numInputs(); ++f) {
        Point x = rl.inPoint(f);
        ASSERT_EQ(valueOf(fo.apply(x).value(), l.getOutDimNames()[0]),
                  rl.flattenOut(valuesFor(rl.outs(), l.apply(x).value())));
      }
    }
  }
}

TEST(Reshape, RoundTrips) {
  Gen g(1204);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    auto r = l.reshapeIns(randomDims(g, l.getTotalInDimSizeLog2()));
    LL_ASSERT_OK(r);
    EXPECT_EQ(r->reshapeIns(l.getInDims()).value(), l);
    auto o = l.reshapeOuts(randomDims(g, l.getTotalOutDimSizeLog2()));
    LL_ASSERT_OK(o);
    EXPECT_EQ(o->reshapeOuts(l.getOutDims()).value(), l);
  }
}

TEST(Reshape, SplittingOneDim) {
  // 8 registers -> dim0 of 8 reshaped to (dim0 4, dim1 2): register 5 -> 5 = (1, 1).
  LinearLayout l = identity1D(8, S("register"), S("dim0"));
  LinearLayout r = l.reshapeOuts({{S("dim0"), 4}, {S("dim1"), 2}}).value();
  for (uint64_t x = 0; x < 8; ++x)
    EXPECT_EQ(r.apply({{S("register"), x}}).value(),
              (Point{{S("dim0"), x % 4}, {S("dim1"), x / 4}}));
  LinearLayout s = l.reshapeIns({{S("a"), 2}, {S("b"), 4}}).value();
  for (uint64_t a = 0; a < 2; ++a)
    for (uint64_t b = 0; b < 4; ++b)
      EXPECT_EQ(s.apply({{S("a"), a}, {S("b"), b}}).value(), (Point{{S("dim0"), a + 2 * b}}));
}

TEST(Reshape, Seed003FlattenIns) {
  // Seed 003 section 1.3: the blocked 64x16 layout flattened into 1024 "registers".
  LinearLayout flat = blocked64x16().flattenIns();
  EXPECT_EQ(flat.toString(), printed(kBlockedFlattenedPrinted));
  EXPECT_EQ(flat.getInDims(), (std::vector<DimSize>{{kReg, 1024}}));
}

TEST(Reshape, ErrorCases) {
  LinearLayout l = identity1D(8, S("register"), S("dim0"));
  auto a = l.reshapeIns({{S("a"), 4}});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().str().find("2^2 elements, the layout has 2^3"), std::string::npos)
      << a.error().str();
  EXPECT_FALSE(l.reshapeIns({{S("a"), 16}}).ok());
  auto b = l.reshapeIns({{S("a"), 6}});
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().str().find("power of two"), std::string::npos) << b.error().str();
  EXPECT_FALSE(l.reshapeIns({{S("a"), 0}}).ok());
  EXPECT_FALSE(l.reshapeIns({{S("a"), 2}, {S("a"), 4}}).ok()); // duplicate name
  EXPECT_FALSE(l.reshapeOuts({{S("o"), 4}}).ok());
  EXPECT_FALSE(l.reshapeOuts({{S("o"), 3}}).ok());
  EXPECT_FALSE(l.reshapeOuts({{S("o"), 2}, {S("o"), 4}}).ok());
}

} // namespace
} // namespace llcheck::test
