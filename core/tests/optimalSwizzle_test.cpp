// optimalSwizzle: on random conversions through shared memory, the layout built is a bijection,
// keeps the widest common vector, and attains Lemma 9.5's bound in our bank model, checked by
// the rank count and again by enumerating the addresses (BankSimulator.h).
#include "BankSimulator.h"
#include "TestLayouts.h"

#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"

namespace llcheck::test {
namespace {

/// A random distributed layout: every tensor bit on one input bit, registers/lanes/warps as
/// asked, optional zero (broadcast) columns, over 1 or 2 dims.
LinearLayout randomDistributed(Gen& g, int regBits, int laneBits, int warpBits, int outBits,
                               std::vector<int> dimBits, int zeros) {
  std::vector<uint64_t> cols;
  for (int i = 0; i < outBits; ++i)
    cols.push_back(uint64_t{1} << i);
  g.shuffle(cols);
  for (int z = 0; z < zeros; ++z)
    cols.insert(cols.begin() + static_cast<std::ptrdiff_t>(g.below(cols.size() + 1)), 0);
  std::vector<DimSize> outs;
  for (std::size_t i = 0; i < dimBits.size(); ++i)
    outs.push_back({dims::standardOut(static_cast<int>(i)), uint64_t{1} << dimBits[i]});
  auto split = [&](uint64_t v) {
    std::vector<uint64_t> out;
    for (int b : dimBits) {
      out.push_back(v & ((uint64_t{1} << b) - 1));
      v >>= b;
    }
    return out;
  };
  std::vector<DimBases> bases;
  std::size_t k = 0;
  for (auto [name, bits] : std::vector<std::pair<const char*, int>>{
           {"register", regBits}, {"lane", laneBits}, {"warp", warpBits}}) {
    DimBases d{S(name), {}};
    for (int i = 0; i < bits; ++i)
      d.bases.push_back(split(cols[k++]));
    bases.push_back(d);
  }
  return LinearLayout::create(bases, outs, false).value();
}

TEST(OptimalSwizzle, attainsTheBoundAndIsABijection) {
  Gen g(7);
  int cases = 0, vectorised = 0;
  const int kCases = 2000 / kSanitizerDivisor;
  for (int i = 0; i < kCases; ++i) {
    const char* archs[] = {"sm90", "gfx942", "gfx950"};
    SharedMemoryModel model = sharedMemoryModel(archs[g.range(0, 2)]).value();
    int laneBits = model.warpSize == 32 ? 5 : 6;
    int warpBits = g.range(0, 2);
    int outBits = laneBits + warpBits + g.range(0, 5);
    int d0 = g.range(1, outBits);
    std::vector<int> dimBits =
        d0 == outBits ? std::vector<int>{outBits} : std::vector<int>{d0, outBits - d0};
    int zerosSrc = g.chance(0.2) ? 1 : 0, zerosDst = g.chance(0.2) ? 1 : 0;
    int regs = outBits - laneBits - warpBits;
    LinearLayout src =
        randomDistributed(g, regs + zerosSrc, laneBits, warpBits, outBits, dimBits, zerosSrc);
    LinearLayout dst =
        randomDistributed(g, regs + zerosDst, laneBits, warpBits, outBits, dimBits, zerosDst);
    int bits = 8 << g.range(0, 3);
    auto s = optimalSwizzle(src, dst, bits, model);
    ASSERT_TRUE(s.ok()) << s.error().str() << "\nSRC" << src.toString() << "\nDST"
                        << dst.toString();
    std::string what = "SRC" + src.toString() + "\nDST" + dst.toString() + "\nSHARED" +
                       s->shared.toString() + "\n" + toJson(*s, bits).dump();
    ASSERT_TRUE(s->shared.isInvertible()) << what;
    // The widest common vector: every register direction both layouts share, up to 16 bytes.
    std::vector<uint64_t> srcRegs, dstRegs;
    for (uint64_t c : src.columns().subspan(0, src.getInDimSizeLog2(S("register"))))
      srcRegs.push_back(c);
    for (uint64_t c : dst.columns().subspan(0, dst.getInDimSizeLog2(S("register"))))
      dstRegs.push_back(c);
    int common = static_cast<int>(intersectionBasis(srcRegs, dstRegs).size());
    int cap = log2Of(static_cast<uint64_t>(16 / (bits / 8)));
    ASSERT_EQ(s->vectorLog2, std::min(common, cap)) << what;
    ASSERT_EQ(s->store.vectorBits, (1 << s->vectorLog2) * bits) << what;
    ASSERT_EQ(s->load.vectorBits, (1 << s->vectorLog2) * bits) << what;
    ASSERT_TRUE(s->bound.attainedBy(s->store, s->load)) << what;
    // The same counts again from the addresses, and the bound is then the ideal: no conflicts.
    Simulated st = simulate(src, s->shared, {}, model.arch, bits, s->vectorLog2, false);
    Simulated ld = simulate(dst, s->shared, {}, model.arch, bits, s->vectorLog2, true);
    ASSERT_TRUE(st.vectorValid && ld.vectorValid) << what;
    ASSERT_EQ(st.wavefronts, s->store.wavefronts) << what;
    ASSERT_EQ(ld.wavefronts, s->load.wavefronts) << what;
    ASSERT_EQ(s->store.bankConflicts + s->load.bankConflicts, 0u) << what;
    ++cases;
    vectorised += s->vectorLog2 > 0;
  }
  EXPECT_EQ(cases, kCases);
  EXPECT_GT(vectorised, kCases / 4);
}

TEST(OptimalSwizzle, rejectsConversionsItCannotServe) {
  SharedMemoryModel sm90 = sharedMemoryModel("sm90").value();
  LinearLayout a = identity1D(32, S("lane"), S("dim0")) * identity1D(2, S("block"), S("dim0"));
  LinearLayout b = identity1D(2, S("block"), S("dim0")) * identity1D(32, S("lane"), S("dim0"));
  auto crosses = optimalSwizzle(a, b, 16, sm90);
  ASSERT_FALSE(crosses.ok());
  EXPECT_NE(crosses.error().str().find("other CTAs"), std::string::npos);
  auto width = optimalSwizzle(a, a, 12, sm90);
  ASSERT_FALSE(width.ok());
}

} // namespace
} // namespace llcheck::test
