// getFreeVariableMasks: flattened input bit c is free iff some input whose highest set bit is c
// maps to 0 (its column is a combination of the columns before it).
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

/// The enumeration definition, on the flattened input.
std::vector<uint64_t> bruteMasks(const LinearLayout& l) {
  Ref r(l);
  std::vector<uint64_t> masks;
  int c = 0;
  for (const DimSize& d : r.ins()) {
    uint64_t mask = 0;
    for (int i = 0; i < log2Of(d.size); ++i, ++c)
      for (uint64_t x = uint64_t{1} << c; x < (uint64_t{2} << c); ++x)
        if (r.evalFlat(x) == 0) {
          mask |= uint64_t{1} << i;
          break;
        }
    masks.push_back(mask);
  }
  return masks;
}

TEST(GetFreeVariableMasks, MatchesTheEnumerationDefinition) {
  Gen g(1901);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    auto masks = l.getFreeVariableMasks();
    std::vector<uint64_t> brute = bruteMasks(l);
    ASSERT_EQ(masks.size(), brute.size());
    int free = 0;
    for (std::size_t d = 0; d < masks.size(); ++d) {
      EXPECT_EQ(masks[d].first, l.getInDimNames()[d]);
      EXPECT_EQ(masks[d].second, brute[d]) << masks[d].first << l.toString();
      free += std::popcount(masks[d].second);
    }
    // The free bits are the input bits beyond the rank; none iff injective.
    Ref r(l);
    EXPECT_EQ(free, l.getTotalInDimSizeLog2() - bruteRank(r));
    EXPECT_EQ(free == 0, bruteInjective(r));
  }
}

TEST(GetFreeVariableMasks, ZeroBasesAreAlwaysFree) {
  Gen g(1902);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    auto masks = l.getFreeVariableMasks();
    for (std::size_t d = 0; d < masks.size(); ++d)
      for (int i = 0; i < l.getInDimSizeLog2(masks[d].first); ++i) {
        std::vector<uint64_t> b = l.getBasis(masks[d].first, i);
        if (std::all_of(b.begin(), b.end(), [](uint64_t v) { return v == 0; })) {
          EXPECT_TRUE((masks[d].second >> i) & 1);
        }
      }
  }
}

TEST(GetFreeVariableMasks, Examples) {
  // Broadcast over the upper 2 lanes bits and a repeated register column.
  LinearLayout l =
      LinearLayout::create(
          {{S("register"), {{1}, {2}, {1}}}, {S("lane"), {{4}, {0}, {0}}}, {S("warp"), {{3}}}},
          {{S("dim0"), 8}}, true)
          .value();
  auto masks = l.getFreeVariableMasks();
  ASSERT_EQ(masks.size(), 3u);
  EXPECT_EQ(masks[0], (std::pair<DimName, uint64_t>{S("register"), 0b100}));
  EXPECT_EQ(masks[1], (std::pair<DimName, uint64_t>{S("lane"), 0b110}));
  EXPECT_EQ(masks[2], (std::pair<DimName, uint64_t>{S("warp"), 0b1}));
  EXPECT_TRUE(LinearLayout::empty().getFreeVariableMasks().empty());
}

} // namespace
} // namespace llcheck::test
