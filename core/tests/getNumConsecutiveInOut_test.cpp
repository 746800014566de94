// getNumConsecutiveInOut: the largest V such that, for every input,
//   L(a*V + v, b, ...) = L(a*V, b, ...) + (v, 0, ...) for all v in [0, V)
// across the first input and first output dimension.
#include "TestLayouts.h"

#include "llcheck/core/Enumeration.h"

namespace llcheck::test {
namespace {

/// Brute force: every power of two V up to the first input's size is tried on every input.
uint64_t bruteNumConsecutive(const LinearLayout& l) {
  if (l.getNumInDims() == 0 || l.getNumOutDims() == 0)
    return 1;
  Ref r(l);
  uint64_t firstIn = r.ins()[0].size, best = 1;
  for (uint64_t V = 2; V <= firstIn; V *= 2) {
    bool ok = true;
    for (uint64_t f = 0; ok && f < r.numInputs(); ++f) {
      std::vector<uint64_t> x = r.unflattenIn(f);
      uint64_t v = x[0] % V;
      std::vector<uint64_t> base = x;
      base[0] -= v;
      std::vector<uint64_t> y = r.eval(x), yb = r.eval(base);
      ok = y[0] == yb[0] + v;
      for (std::size_t k = 1; k < y.size(); ++k)
        ok = ok && y[k] == yb[k];
    }
    if (ok)
      best = V; // not assumed closed downwards: the largest valid V wins
  }
  return best;
}

/// Layouts with vectors: the first dims often map register i to dim0 i.
LinearLayout vectorised(Gen& g) {
  int vec = g.range(0, 3);
  LinearLayout v = identity1D(uint64_t{1} << vec, S("register"), S("dim0"));
  LinearLayout rest = g.any(6);
  if (!rest.hasOutDim(S("dim0")) || rest.getOutDimNames()[0] != S("dim0"))
    return v;
  auto p = product(v, rest);
  return p.ok() ? *p : v;
}

TEST(GetNumConsecutiveInOut, MatchesTheDefinitionByEnumeration) {
  Gen g(2001);
  int above1 = 0;
  for (int t = 0; t < 2 * kTrials; ++t) {
    LinearLayout l = t % 2 ? vectorised(g) : g.any();
    uint64_t brute = bruteNumConsecutive(l);
    above1 += brute > 1;
    ASSERT_EQ(l.getNumConsecutiveInOut(), brute) << l.toString();
    auto e = EnumeratedLayout::build(l);
    LL_ASSERT_OK(e);
    EXPECT_EQ(e->numConsecutiveInOut(), brute);
  }
  EXPECT_GT(above1, kTrials / 2);
}

TEST(GetNumConsecutiveInOut, Examples) {
  // 4 registers along dim0 then lanes: vector of 4.
  LinearLayout l = identity1D(4, S("register"), S("dim0")) * identity1D(32, S("lane"), S("dim0"));
  EXPECT_EQ(l.getNumConsecutiveInOut(), 4u);
  // Registers then a register that jumps by 4: still 4... unless a lane fills the gap.
  LinearLayout gap = identity1D(2, S("register"), S("dim0")) * zeros1D(1, S("lane"), S("dim0")) *
                     strided1D(2, 2, S("register"), S("dim0")) *
                     identity1D(2, S("lane"), S("dim0"));
  EXPECT_EQ(gap.getNumConsecutiveInOut(), 2u);
  // A lane that sets bit 0 of dim0 breaks every vector.
  LinearLayout odd = LinearLayout::create({{S("register"), {{2}, {4}}}, {S("lane"), {{1}}}},
                                          {{S("dim0"), 8}}, true)
                         .value();
  EXPECT_EQ(odd.getNumConsecutiveInOut(), 1u);
  // The first input along dim1 (the second output) is not a vector along dim0.
  LinearLayout t = LinearLayout::create({{S("register"), {{0, 1}, {0, 2}}}, {S("lane"), {{1, 0}}}},
                                        {{S("dim0"), 2}, {S("dim1"), 4}}, true)
                       .value();
  EXPECT_EQ(t.getNumConsecutiveInOut(), 1u);
  EXPECT_EQ(t.transposeOuts({S("dim1"), S("dim0")}).value().getNumConsecutiveInOut(), 4u);
  EXPECT_EQ(LinearLayout::empty().getNumConsecutiveInOut(), 1u);
}

} // namespace
} // namespace llcheck::test
