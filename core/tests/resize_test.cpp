// resizeInDim (keep the first bases of an input dim) and resizeOutDim (shrink an output dim;
// as in Triton, a basis value >= the new size becomes 0: dropped, not masked).
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

TEST(Resize, InDimKeepsTheLowInputs) {
  Gen g(1501);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    if (l.getNumInDims() == 0)
      continue;
    DimName d = l.getInDimNames()[g.below(static_cast<uint64_t>(l.getNumInDims()))];
    uint64_t newSize = uint64_t{1} << g.range(0, l.getInDimSizeLog2(d));
    auto r = l.resizeInDim(d, newSize);
    LL_ASSERT_OK(r);
    EXPECT_EQ(r->getInDimNames(), l.getInDimNames());
    EXPECT_EQ(r->getInDimSize(d), newSize);
    EXPECT_EQ(r->getOutDims(), l.getOutDims());
    Ref rr(*r);
    for (uint64_t f = 0; f < rr.numInputs(); ++f)
      ASSERT_EQ(r->apply(rr.inPoint(f)).value(), l.apply(rr.inPoint(f)).value());
  }
}

TEST(Resize, OutDimDropsValuesThatDoNotFit) {
  Gen g(1502);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    if (l.getNumOutDims() == 0)
      continue;
    DimName d = l.getOutDimNames()[g.below(static_cast<uint64_t>(l.getNumOutDims()))];
    uint64_t newSize = uint64_t{1} << g.range(0, l.getOutDimSizeLog2(d));
    auto r = l.resizeOutDim(d, newSize);
    LL_ASSERT_OK(r);
    EXPECT_EQ(r->getOutDimNames(), l.getOutDimNames());
    EXPECT_EQ(r->getOutDimSize(d), newSize);
    // Triton's rule, basis by basis: a value >= newSize in dim d becomes 0, others stay.
    std::vector<DimBases> expected = l.getBases();
    std::size_t k = static_cast<std::size_t>(l.outDimIndex(d));
    for (DimBases& db : expected)
      for (auto& b : db.bases)
        if (b[k] >= newSize)
          b[k] = 0;
    EXPECT_EQ(r->getBases(), expected);
    // And apply follows from those bases.
    Ref ref(expected, r->getOutDims()), rr(*r);
    for (uint64_t f = 0; f < rr.numInputs(); ++f)
      ASSERT_EQ(r->apply(rr.inPoint(f)).value(), ref.evalPoint(f));
  }
}

TEST(Resize, OutDimDropsRatherThanMasks) {
  // Value 5 does not fit size 4: Triton makes it 0, not 5 % 4 = 1.
  LinearLayout l = LinearLayout::create({{S("i"), {{1}, {5}}}}, {{S("o"), 8}}, false).value();
  LinearLayout r = l.resizeOutDim(S("o"), 4).value();
  EXPECT_EQ(r.getBasis(S("i"), 0), std::vector<uint64_t>{1});
  EXPECT_EQ(r.getBasis(S("i"), 1), std::vector<uint64_t>{0});
  EXPECT_EQ(r.apply({{S("i"), 3}}).value(), (Point{{S("o"), 1}}));
}

TEST(Resize, ErrorCases) {
  LinearLayout l = identity1D(8, S("i"), S("o"));
  EXPECT_FALSE(l.resizeInDim(S("i"), 16).ok()); // only shrinking
  EXPECT_FALSE(l.resizeInDim(S("i"), 3).ok());
  EXPECT_FALSE(l.resizeInDim(S("i"), 0).ok());
  EXPECT_FALSE(l.resizeInDim(S("j"), 2).ok());
  EXPECT_FALSE(l.resizeOutDim(S("o"), 16).ok());
  EXPECT_FALSE(l.resizeOutDim(S("o"), 6).ok());
  EXPECT_FALSE(l.resizeOutDim(S("i"), 2).ok());
  EXPECT_EQ(l.resizeInDim(S("i"), 8).value(), l);
  EXPECT_EQ(l.resizeOutDim(S("o"), 8).value(), l);
  EXPECT_EQ(l.resizeInDim(S("i"), 2).value(),
            LinearLayout::create({{S("i"), {{1}}}}, {{S("o"), 8}}, false).value());
  EXPECT_EQ(l.resizeOutDim(S("o"), 2).value(),
            LinearLayout::create({{S("i"), {{1}, {0}, {0}}}}, {{S("o"), 2}}, false).value());
}

} // namespace
} // namespace llcheck::test
