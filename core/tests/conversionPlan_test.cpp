// planConversion: the kind of movement C = DST^-1 ∘ SRC implies, against the brute-force
// definition on every element: which SRC locations hold what each DST location needs.
#include "TestLayouts.h"

#include "llcheck/core/conversion/ConversionPlan.h"

#include <map>
#include <set>

namespace llcheck::test {
namespace {

struct Where {
  uint64_t reg, lane, warp, block;
  auto operator<=>(const Where&) const = default;
};

/// Every location of a distributed layout (register, lane, warp, block) by the element it holds.
std::map<std::vector<uint64_t>, std::vector<Where>> holders(const LinearLayout& l) {
  Ref r(l);
  std::map<std::vector<uint64_t>, std::vector<Where>> by;
  for (uint64_t f = 0; f < r.numInputs(); ++f) {
    std::vector<uint64_t> x = r.unflattenIn(f);
    by[r.eval(x)].push_back({x[0], x[1], x[2], x[3]});
  }
  return by;
}

ConversionKind bruteKind(const LinearLayout& src, const LinearLayout& dst) {
  auto s = holders(src), d = holders(dst);
  bool sameBlock = true, sameWarp = true, sameLane = true;
  for (const auto& [elem, wanted] : d)
    for (const Where& y : wanted) {
      bool b = false, w = false, l = false;
      for (const Where& x : s[elem]) {
        b = b || x.block == y.block;
        w = w || (x.block == y.block && x.warp == y.warp);
        l = l || (x.block == y.block && x.warp == y.warp && x.lane == y.lane);
      }
      sameBlock = sameBlock && b;
      sameWarp = sameWarp && w;
      sameLane = sameLane && l;
    }
  if (!sameBlock)
    return ConversionKind::InterCta;
  if (!sameWarp)
    return ConversionKind::SharedMemory;
  if (!sameLane)
    return ConversionKind::WarpShuffle;
  return Ref(src).table() == Ref(dst).table() && src.getInDims() == dst.getInDims()
             ? ConversionKind::NoOp
             : ConversionKind::RegisterPermutation;
}

/// A distributed layout of `total` bits over the given out bits, as a random choice of which
/// input bit goes where (each output bit once), with optional broadcast (zero) columns.
LinearLayout randomDistributed(Gen& g, int regBits, int laneBits, int warpBits, int blockBits,
                               int outBits, bool broadcast) {
  std::vector<uint64_t> cols;
  for (int i = 0; i < outBits; ++i)
    cols.push_back(uint64_t{1} << i);
  int total = regBits + laneBits + warpBits + blockBits;
  while (static_cast<int>(cols.size()) < total)
    cols.push_back(0);
  g.shuffle(cols);
  if (!broadcast) // zeros only in registers
    std::stable_partition(cols.begin(), cols.end(), [](uint64_t c) { return c == 0; });
  std::vector<DimBases> bases;
  int k = 0;
  for (auto [name, bits] : std::vector<std::pair<const char*, int>>{
           {"register", regBits}, {"lane", laneBits}, {"warp", warpBits}, {"block", blockBits}}) {
    DimBases d{S(name), {}};
    for (int i = 0; i < bits; ++i)
      d.bases.push_back({cols[k++]});
    bases.push_back(d);
  }
  return LinearLayout::create(bases, {{S("dim0"), uint64_t{1} << outBits}}, false).value();
}

TEST(ConversionPlan, kindMatchesWhoHoldsWhat) {
  Gen g(4242);
  std::map<ConversionKind, int> seen;
  for (int i = 0; i < 3000; ++i) {
    int lane = g.range(0, 3), warp = g.range(0, 2), block = g.range(0, 1);
    int outBits = lane + warp + block + g.range(0, 3);
    int srcRegs = outBits - lane - warp - block + g.range(0, 1);
    int dstRegs = outBits - lane - warp - block + g.range(0, 1);
    bool bSrc = g.chance(0.3), bDst = g.chance(0.3);
    if (bSrc)
      ++srcRegs; // room for a broadcast column elsewhere
    if (bDst)
      ++dstRegs;
    LinearLayout src = randomDistributed(g, srcRegs, lane, warp, block, outBits, bSrc);
    LinearLayout dst =
        g.chance(0.2) ? src : randomDistributed(g, dstRegs, lane, warp, block, outBits, bDst);
    auto plan = planConversion(src, dst);
    ASSERT_TRUE(plan.ok()) << plan.error().str();
    ConversionKind expected = bruteKind(src, dst);
    ASSERT_EQ(conversionKindName(plan->kind), std::string(conversionKindName(expected)))
        << "SRC" << src.toString() << "\nDST" << dst.toString() << "\nC"
        << plan->conversion.toString();
    ++seen[plan->kind];
  }
  for (ConversionKind k :
       {ConversionKind::NoOp, ConversionKind::RegisterPermutation, ConversionKind::WarpShuffle,
        ConversionKind::SharedMemory, ConversionKind::InterCta})
    EXPECT_GT(seen[k], 20) << conversionKindName(k);
}

TEST(ConversionPlan, rejectsDifferentTensorsAndHardware) {
  LinearLayout a = identity1D(32, S("lane"), S("dim0")) * identity1D(2, S("warp"), S("dim0"));
  LinearLayout b = identity1D(32, S("lane"), S("dim0")) * identity1D(2, S("register"), S("dim0"));
  auto warps = planConversion(a, b);
  ASSERT_FALSE(warps.ok());
  EXPECT_NE(warps.error().str().find("warps"), std::string::npos);
  LinearLayout c = identity1D(32, S("lane"), S("dim1")) * identity1D(2, S("warp"), S("dim1"));
  auto tensor = planConversion(a, c);
  ASSERT_FALSE(tensor.ok());
  EXPECT_NE(tensor.error().str().find("keeps the tensor"), std::string::npos);
  EXPECT_FALSE(planConversion(a, identity1D(64, S("offset"), S("dim0"))).ok());
}

} // namespace
} // namespace llcheck::test
