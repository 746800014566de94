// operator==, equalIgnoringOutDimSizes and hash.
#include "TestLayouts.h"

#include <unordered_set>

namespace llcheck::test {
namespace {

TEST(Equality, EqualIffSameBasesDimsAndSizesInOrder) {
  Gen g(2201);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout a = g.any(), b = g.chance(0.3) ? a : g.any();
    bool same = a.getBases() == b.getBases() && a.getOutDims() == b.getOutDims();
    EXPECT_EQ(a == b, same);
    EXPECT_EQ(b == a, same);
    if (same) {
      EXPECT_EQ(a.hash(), b.hash());
    }
    bool sameIgnoring = a.getBases() == b.getBases() && a.getOutDimNames() == b.getOutDimNames();
    EXPECT_EQ(a.equalIgnoringOutDimSizes(b), sameIgnoring);
  }
}

TEST(Equality, OutputSizesAndOrderMatter) {
  LinearLayout a = identity1D(4, S("i"), S("o"));
  LinearLayout big = LinearLayout::create({{S("i"), {{1}, {2}}}}, {{S("o"), 8}}, false).value();
  EXPECT_NE(a, big);
  EXPECT_TRUE(a.equalIgnoringOutDimSizes(big));
  EXPECT_NE(a.hash(), big.hash());
  LinearLayout two = identity1D(2, S("i"), S("o")) * identity1D(2, S("j"), S("p"));
  LinearLayout twoT = two.transposeIns({S("j"), S("i")}).value();
  EXPECT_NE(two, twoT);
  EXPECT_FALSE(two.equalIgnoringOutDimSizes(twoT));
  LinearLayout twoO = two.transposeOuts({S("p"), S("o")}).value();
  EXPECT_NE(two, twoO);
  EXPECT_FALSE(two.equalIgnoringOutDimSizes(twoO));
  // A renamed dim differs.
  EXPECT_NE(a, identity1D(4, S("j"), S("o")));
  EXPECT_NE(a, identity1D(4, S("i"), S("p")));
  // Size-1 dims count.
  EXPECT_NE(a, a * identity1D(1, S("b"), S("o")));
}

TEST(Equality, HashSpreadsDistinctLayouts) {
  Gen g(2202);
  std::unordered_set<LinearLayout> set;
  std::vector<LinearLayout> distinct;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    if (set.insert(l).second)
      distinct.push_back(l);
  }
  for (const LinearLayout& l : distinct)
    EXPECT_EQ(set.count(l), 1u);
  std::unordered_set<std::size_t> hashes;
  for (const LinearLayout& l : distinct)
    hashes.insert(l.hash());
  EXPECT_GT(hashes.size(), distinct.size() * 9 / 10);
}

} // namespace
} // namespace llcheck::test
