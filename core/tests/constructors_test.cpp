// identity1D, strided1D, zeros1D: L(x) = x, stride * x, 0 for every x, with the stated sizes.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

const uint64_t kSizes[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 1024};

TEST(Constructors, Identity1DMapsEveryXToItself) {
  for (uint64_t size : kSizes) {
    auto l = LinearLayout::identity1D(size, S("i"), S("o"));
    LL_ASSERT_OK(l);
    EXPECT_EQ(l->getInDimNames(), std::vector<DimName>{S("i")});
    EXPECT_EQ(l->getOutDimNames(), std::vector<DimName>{S("o")});
    EXPECT_EQ(l->getInDimSize(S("i")), size);
    EXPECT_EQ(l->getOutDimSize(S("o")), size);
    for (uint64_t x = 0; x < size; ++x)
      EXPECT_EQ(l->apply({{S("i"), x}}).value(), (Point{{S("o"), x}})) << "size " << size;
    EXPECT_TRUE(l->isSurjective());
    EXPECT_TRUE(l->isInjective());
  }
}

TEST(Constructors, Strided1DMapsXToStrideTimesX) {
  for (uint64_t size : kSizes)
    for (uint64_t stride : {uint64_t{1}, uint64_t{2}, uint64_t{4}, uint64_t{32}}) {
      auto l = LinearLayout::strided1D(size, stride, S("i"), S("o"));
      LL_ASSERT_OK(l);
      EXPECT_EQ(l->getInDimSize(S("i")), size);
      EXPECT_EQ(l->getOutDimSize(S("o")), size * stride);
      for (uint64_t x = 0; x < size; ++x)
        EXPECT_EQ(l->apply({{S("i"), x}}).value(), (Point{{S("o"), stride * x}}))
            << "size " << size << " stride " << stride;
      // Surjective only when stride == 1 (or nothing to reach: size * stride == 1).
      EXPECT_EQ(l->isSurjective(), stride == 1);
      EXPECT_TRUE(l->isInjective());
    }
}

TEST(Constructors, Strided1DWithStrideOneIsIdentity1D) {
  for (uint64_t size : kSizes)
    EXPECT_EQ(strided1D(size, 1, S("i"), S("o")), identity1D(size, S("i"), S("o")));
}

TEST(Constructors, Zeros1DMapsEverythingToZero) {
  for (uint64_t size : kSizes)
    for (uint64_t outSize : {uint64_t{1}, uint64_t{2}, uint64_t{16}}) {
      auto l = LinearLayout::zeros1D(size, S("i"), S("o"), outSize);
      LL_ASSERT_OK(l);
      EXPECT_EQ(l->getInDimSize(S("i")), size);
      EXPECT_EQ(l->getOutDimSize(S("o")), outSize);
      for (uint64_t x = 0; x < size; ++x)
        EXPECT_EQ(l->apply({{S("i"), x}}).value(), (Point{{S("o"), 0}}));
      EXPECT_EQ(l->isSurjective(), outSize == 1);
      EXPECT_EQ(l->isInjective(), size == 1);
      for (const auto& [dim, mask] : l->getFreeVariableMasks())
        EXPECT_EQ(mask, size - 1); // every basis is zero, so every bit is free
    }
}

TEST(Constructors, Zeros1DDefaultOutSizeIsOne) {
  EXPECT_EQ(zeros1D(8, S("i"), S("o")).getOutDimSize(S("o")), 1u);
}

TEST(Constructors, NonPowerOfTwoArgumentsAreErrors) {
  for (uint64_t bad : {uint64_t{0}, uint64_t{3}, uint64_t{6}, uint64_t{12}, uint64_t{1000}}) {
    EXPECT_FALSE(LinearLayout::identity1D(bad, S("i"), S("o")).ok()) << bad;
    EXPECT_FALSE(LinearLayout::strided1D(bad, 1, S("i"), S("o")).ok()) << bad;
    EXPECT_FALSE(LinearLayout::strided1D(4, bad, S("i"), S("o")).ok()) << bad;
    EXPECT_FALSE(LinearLayout::zeros1D(bad, S("i"), S("o")).ok()) << bad;
    EXPECT_FALSE(LinearLayout::zeros1D(4, S("i"), S("o"), bad).ok()) << bad;
  }
  auto e = LinearLayout::identity1D(6, S("i"), S("o"));
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().str().find("power of two"), std::string::npos) << e.error().str();
}

TEST(Constructors, TooManyBitsAreErrors) {
  // 2^40 * 2^30 exceeds the 64 output bits of a layout.
  EXPECT_FALSE(LinearLayout::strided1D(uint64_t{1} << 40, uint64_t{1} << 30, S("i"), S("o")).ok());
  // 2^63 elements is the largest single dimension.
  auto big = LinearLayout::identity1D(uint64_t{1} << 63, S("i"), S("o"));
  LL_ASSERT_OK(big);
  EXPECT_EQ(big->getTotalInDimSizeLog2(), 63);
  EXPECT_EQ(big->apply({{S("i"), (uint64_t{1} << 63) - 1}}).value(),
            (Point{{S("o"), (uint64_t{1} << 63) - 1}}));
}

TEST(Constructors, EmptyLayoutMapsTheOnlyPointToTheEmptyPoint) {
  LinearLayout e = LinearLayout::empty();
  EXPECT_EQ(e.getNumInDims(), 0);
  EXPECT_EQ(e.getNumOutDims(), 0);
  EXPECT_EQ(e.getTotalInDimSize(), 1u);
  EXPECT_EQ(e.apply({}).value(), Point{});
  EXPECT_TRUE(e.isSurjective());
  EXPECT_TRUE(e.isInjective());
  EXPECT_EQ(e, LinearLayout());
}

} // namespace
} // namespace llcheck::test
