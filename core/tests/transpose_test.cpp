// transposeIns / transposeOuts: the same map, dims reordered.
#include "SeedLayouts.h"

namespace llcheck::test {
namespace {

TEST(Transpose, InsKeepsApplyByName) {
  Gen g(1301);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    std::vector<DimName> order = l.getInDimNames();
    g.shuffle(order);
    auto r = l.transposeIns(order);
    LL_ASSERT_OK(r);
    EXPECT_EQ(r->getInDimNames(), order);
    for (DimName d : order)
      EXPECT_EQ(r->getInDimSize(d), l.getInDimSize(d));
    EXPECT_EQ(r->getOutDims(), l.getOutDims());
    Ref rl(l);
    for (uint64_t f = 0; f < rl.numInputs(); ++f) {
      Point x = rl.inPoint(f);
      std::reverse(x.begin(), x.end()); // apply takes the dims in any order anyway
      ASSERT_EQ(r->apply(x).value(), rl.evalPoint(f));
    }
    EXPECT_EQ(r->transposeIns(l.getInDimNames()).value(), l);
  }
}

TEST(Transpose, OutsKeepsApplyByName) {
  Gen g(1302);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    std::vector<DimName> order = l.getOutDimNames();
    g.shuffle(order);
    auto r = l.transposeOuts(order);
    LL_ASSERT_OK(r);
    EXPECT_EQ(r->getOutDimNames(), order);
    for (DimName d : order)
      EXPECT_EQ(r->getOutDimSize(d), l.getOutDimSize(d));
    EXPECT_EQ(r->getInDims(), l.getInDims());
    Ref rl(l);
    for (uint64_t f = 0; f < rl.numInputs(); ++f) {
      Point y = r->apply(rl.inPoint(f)).value(), expected = rl.evalPoint(f);
      ASSERT_EQ(y.size(), expected.size());
      for (std::size_t k = 0; k < y.size(); ++k) {
        ASSERT_EQ(y[k].first, order[k]);
        ASSERT_EQ(y[k].second, valueOf(expected, order[k]));
      }
    }
    EXPECT_EQ(r->transposeOuts(l.getOutDimNames()).value(), l);
  }
}

TEST(Transpose, ChangesTheFlatteningOrder) {
  // Transposing then flattening makes lane the minor part of the flattened input.
  LinearLayout l = identity1D(4, S("register"), S("dim0")) * identity1D(8, S("lane"), S("dim0"));
  LinearLayout t = l.transposeIns({S("lane"), S("register")}).value().flattenIns();
  for (uint64_t f = 0; f < 32; ++f) // lane = f % 8, register = f / 8
    EXPECT_EQ(t.apply({{S("lane"), f}}).value(), (Point{{S("dim0"), (f / 8) + 4 * (f % 8)}}));
}

TEST(Transpose, Seed003TransposeIns) {
  // Seed 003 section 1.3: lanes first, then registers, warps and the block.
  LinearLayout t = blocked64x16().transposeIns({kLane, kReg, kWarp, kBlock}).value();
  EXPECT_EQ(t.toString(), printed(kBlockedTransposedPrinted));
  // Flattening now enumerates lanes fastest.
  EXPECT_EQ(t.flattenIns().apply({{kLane, 1}}).value(), (Point{{kDim0, 0}, {kDim1, 2}}));
  EXPECT_EQ(t.flattenIns().apply({{kLane, 32}}).value(), (Point{{kDim0, 0}, {kDim1, 1}}));
}

TEST(Transpose, ErrorCases) {
  LinearLayout l = identity1D(4, S("a"), S("o")) * identity1D(4, S("b"), S("p"));
  auto missing = l.transposeIns({S("a")});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().str().find("not a permutation"), std::string::npos)
      << missing.error().str();
  EXPECT_FALSE(l.transposeIns({S("a"), S("c")}).ok());
  EXPECT_FALSE(l.transposeIns({S("a"), S("b"), S("c")}).ok());
  EXPECT_FALSE(l.transposeIns({S("a"), S("a")}).ok());
  EXPECT_FALSE(l.transposeOuts({S("p")}).ok());
  EXPECT_FALSE(l.transposeOuts({S("p"), S("p")}).ok());
  EXPECT_FALSE(l.transposeOuts({S("o"), S("p"), S("q")}).ok());
  EXPECT_FALSE(l.transposeOuts({S("a"), S("b")}).ok());
  // More names than the 16 dims a layout can have (repeats): an error, not a write past the
  // fixed-size dim list (AddressSanitizer saw it before the length check).
  std::vector<DimName> many(20, S("a")), manyOuts(20, S("o"));
  EXPECT_FALSE(l.transposeIns(many).ok());
  EXPECT_FALSE(l.transposeOuts(manyOuts).ok());
}

} // namespace
} // namespace llcheck::test
