// apply / applyFlat / packIn / unpackIn / unpackOut, and the shape accessors.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

TEST(Apply, IsTheXorOfTheBasesOfTheSetBits) {
  Gen g(201);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    Ref ref(l);
    for (uint64_t f = 0; f < ref.numInputs(); ++f)
      ASSERT_EQ(l.apply(ref.inPoint(f)).value(), ref.evalPoint(f)) << l.toString();
  }
}

TEST(Apply, DoesNotDependOnTheOrderOfTheGivenDims) {
  Gen g(202);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any(8);
    Ref ref(l);
    for (uint64_t f = 0; f < ref.numInputs(); f += 3) {
      Point p = ref.inPoint(f);
      std::reverse(p.begin(), p.end());
      ASSERT_EQ(l.apply(p).value(), ref.evalPoint(f));
    }
  }
}

TEST(Apply, IsLinear) {
  Gen g(203);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any(6);
    uint64_t n = l.getTotalInDimSize();
    EXPECT_EQ(l.applyFlat(0), 0u);
    for (uint64_t x = 0; x < n; ++x)
      for (uint64_t y = 0; y < n; ++y)
        ASSERT_EQ(l.applyFlat(x ^ y), l.applyFlat(x) ^ l.applyFlat(y));
  }
}

TEST(Apply, FlatFormAgreesWithThePointForm) {
  // The packed word of applyFlat is the mixed-radix flattening of the output point, and the
  // flattened input bit j is bit j of the mixed-radix flattening of the input point.
  Gen g(204);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    Ref ref(l);
    for (uint64_t f = 0; f < ref.numInputs(); ++f) {
      Point in = ref.inPoint(f);
      ASSERT_EQ(l.packIn(in), f);
      ASSERT_EQ(l.unpackIn(f), in);
      ASSERT_EQ(l.applyFlat(f), ref.evalFlat(f));
      ASSERT_EQ(l.unpackOut(l.applyFlat(f)), ref.evalPoint(f));
    }
  }
}

TEST(Apply, ErrorCases) {
  LinearLayout l = LinearLayout::create({{S("a"), {{1, 0}, {0, 1}}}, {S("b"), {{2, 2}}}},
                                        {{S("o"), 4}, {S("p"), 4}}, false)
                       .value();
  auto expectError = [](const Result<Point>& r, const std::string& fragment) {
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().str().find(fragment), std::string::npos)
        << "'" << r.error().str() << "' lacks '" << fragment << "'";
  };
  expectError(l.apply({{S("a"), 0}}), "no value given for input dimension 'b'");
  expectError(l.apply({{S("a"), 0}, {S("b"), 0}, {S("c"), 0}}), "'c' is not an input dimension");
  expectError(l.apply({{S("a"), 0}, {S("a"), 1}, {S("b"), 0}}), "given twice");
  expectError(l.apply({{S("a"), 4}, {S("b"), 0}}), "a=4 is out of range [0, 4)");
  expectError(l.apply({{S("a"), 0}, {S("b"), 2}}), "out of range");
  EXPECT_EQ(l.apply({{S("a"), 3}, {S("b"), 1}}).value(), (Point{{S("o"), 3}, {S("p"), 3}}));
  // The empty layout takes the empty point only.
  EXPECT_FALSE(LinearLayout::empty().apply({{S("a"), 0}}).ok());
}

TEST(Apply, ShapeAccessors) {
  LinearLayout l =
      LinearLayout::create({{S("a"), {{1, 0}, {0, 1}}}, {S("b"), {}}, {S("c"), {{2, 2}}}},
                           {{S("o"), 4}, {S("p"), 8}}, false)
          .value();
  EXPECT_EQ(l.getNumInDims(), 3);
  EXPECT_EQ(l.getNumOutDims(), 2);
  EXPECT_EQ(l.getInDims(), (std::vector<DimSize>{{S("a"), 4}, {S("b"), 1}, {S("c"), 2}}));
  EXPECT_EQ(l.getOutDims(), (std::vector<DimSize>{{S("o"), 4}, {S("p"), 8}}));
  EXPECT_EQ(l.inDimIndex(S("c")), 2);
  EXPECT_EQ(l.inDimIndex(S("o")), -1);
  EXPECT_EQ(l.outDimIndex(S("p")), 1);
  EXPECT_TRUE(l.hasInDim(S("b")));
  EXPECT_FALSE(l.hasOutDim(S("a")));
  EXPECT_EQ(l.getInDimSizeLog2(S("a")), 2);
  EXPECT_EQ(l.getOutDimSizeLog2(S("p")), 3);
  EXPECT_EQ(l.getTotalInDimSizeLog2(), 3);
  EXPECT_EQ(l.getTotalOutDimSizeLog2(), 5);
  EXPECT_EQ(l.getTotalInDimSize(), 8u);
  EXPECT_EQ(l.getTotalOutDimSize(), 32u);
  EXPECT_EQ(l.inDimOffset(0), 0);
  EXPECT_EQ(l.inDimOffset(1), 2);
  EXPECT_EQ(l.inDimOffset(2), 2);
  EXPECT_EQ(l.outDimOffset(1), 2);
  EXPECT_EQ(l.getBasis(S("c"), 0), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(l.getBasis(S("a"), 1, S("p")), 1u);
  // Packed columns: o in bits 0-1, p in bits 2-4.
  std::vector<uint64_t> cols(l.columns().begin(), l.columns().end());
  EXPECT_EQ(cols, (std::vector<uint64_t>{0b00001, 0b00100, 0b01010}));
}

} // namespace
} // namespace llcheck::test
