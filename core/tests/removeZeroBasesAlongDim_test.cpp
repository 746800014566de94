// removeZeroBasesAlongDim: drop the zero bases of one input dim; the image is unchanged and the
// other dims are untouched.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

TEST(RemoveZeroBasesAlongDim, KeepsTheNonZeroBasesAndTheImage) {
  Gen g(1801);
  int removed = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    if (l.getNumInDims() == 0)
      continue;
    DimName d = l.getInDimNames()[g.below(static_cast<uint64_t>(l.getNumInDims()))];
    auto r = l.removeZeroBasesAlongDim(d);
    LL_ASSERT_OK(r);
    std::vector<DimBases> expected = l.getBases();
    for (DimBases& db : expected) {
      if (db.name != d)
        continue;
      std::vector<std::vector<uint64_t>> kept;
      for (const auto& b : db.bases)
        if (std::any_of(b.begin(), b.end(), [](uint64_t v) { return v != 0; }))
          kept.push_back(b);
      removed += kept.size() < db.bases.size();
      db.bases = kept;
    }
    EXPECT_EQ(r->getBases(), expected);
    EXPECT_EQ(r->getOutDims(), l.getOutDims());
    EXPECT_EQ(image(Ref(*r)), image(Ref(l)));
  }
  EXPECT_GT(removed, 10);
}

TEST(RemoveZeroBasesAlongDim, Examples) {
  // Registers 0-3 and 4-7 hold the same elements: 4 distinct registers remain.
  LinearLayout l = identity1D(2, S("register"), S("dim0")) * zeros1D(2, S("register"), S("dim0")) *
                   identity1D(2, S("register"), S("dim0")) * identity1D(4, S("lane"), S("dim0"));
  LinearLayout r = l.removeZeroBasesAlongDim(S("register")).value();
  EXPECT_EQ(r.getInDimSize(S("register")), 4u);
  EXPECT_EQ(r.getBasis(S("register"), 1), std::vector<uint64_t>{2});
  EXPECT_EQ(r.removeZeroBasesAlongDim(S("register")).value(), r);
  EXPECT_FALSE(l.removeZeroBasesAlongDim(S("warp")).ok());
}

} // namespace
} // namespace llcheck::test
