// ldmatrix(): whether ldmatrix/stmatrix lowers REG <-> SHARED, checked by emulating the
// instruction as the PTX ISA defines it (lanes 8i .. 8i+7 give the 16-byte row addresses of
// matrix i; lane t receives word t%4 of row t/4, or with .trans the elements (2(t%4) + e, t/4))
// with addresses taken from REG as the lowering would, and requiring every register of every
// lane and warp to end up with the element REG says. Cases: layouts built to divide (random
// tile-compatible conversions under random invertible shared layouts and register orders),
// the same with one column perturbed (then "divides" must equal "some register permutation
// emulates correctly"), and Triton's mma v2 dot operands with swizzled / nvmma shared layouts.
#include "LdmatrixEmulator.h"
#include "TestLayouts.h"

#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/Ldmatrix.h"

#include <map>
#include <set>

namespace llcheck::test {
namespace {

/// A random invertible shared layout offset -> (dim0, dim1) of n bits.
LinearLayout randomShared(Gen& g, int n) {
  Gen::Shape sh;
  sh.ins = {{dims::kOffset, n}};
  int a = g.range(0, n);
  sh.outs = {{S("dim0"), a}, {S("dim1"), n - a}};
  return Gen::fromPacked(sh, g.invertibleColumns(n));
}

struct Built {
  LinearLayout reg, shared;
  int elementBits;
  bool trans;
};

/// A conversion made to divide: the tile's columns, random 16-byte-aligned rows, registers,
/// warps (some zero), registers shuffled, then REG = SHARED ∘ L.
Built buildDividing(Gen& g) {
  bool trans = g.chance(0.3);
  int elementBits = trans ? 16 : 8 << g.range(0, 2);
  int rowBits = 4 - log2Of(static_cast<uint64_t>(elementBits / 8));
  int k = rowBits - 2;
  int n = g.range(rowBits + 1, rowBits + 5);
  auto aligned = [&] {
    return g.chance(0.2) ? 0 : g.below(uint64_t{1} << (n - rowBits)) << rowBits;
  };
  std::vector<uint64_t> regs, lanes(5), warps;
  if (trans) {
    lanes[2] = 1, lanes[3] = 2, lanes[4] = 4;
    lanes[0] = aligned(), lanes[1] = aligned();
    regs.push_back(aligned());
  } else {
    for (int b = 0; b < k; ++b)
      regs.push_back(uint64_t{1} << b);
    lanes[0] = uint64_t{1} << k, lanes[1] = uint64_t{1} << (k + 1);
    for (int b = 2; b < 5; ++b)
      lanes[b] = aligned();
  }
  for (int extra = g.range(0, 5 - static_cast<int>(regs.size())); extra > 0; --extra)
    regs.push_back(aligned());
  for (int b = g.range(0, 2); b > 0; --b)
    warps.push_back(aligned());
  g.shuffle(regs);
  auto bases = [](const std::vector<uint64_t>& cols) {
    std::vector<std::vector<uint64_t>> v;
    for (uint64_t c : cols)
      v.push_back({c});
    return v;
  };
  LinearLayout l = LinearLayout::create({{dims::kRegister, bases(regs)},
                                         {dims::kLane, bases(lanes)},
                                         {dims::kWarp, bases(warps)}},
                                        {{dims::kOffset, uint64_t{1} << n}}, false)
                       .value();
  LinearLayout shared = randomShared(g, n);
  return {l.compose(shared).value(), shared, elementBits, trans};
}

/// REG with one register, lane or warp basis replaced by a random element of the tensor.
LinearLayout perturb(Gen& g, const LinearLayout& reg) {
  std::vector<DimBases> bases = reg.getBases();
  std::vector<std::pair<std::size_t, std::size_t>> slots;
  for (std::size_t d = 0; d < bases.size(); ++d)
    for (std::size_t i = 0; i < bases[d].bases.size(); ++i)
      slots.emplace_back(d, i);
  auto [d, i] = slots[g.below(slots.size())];
  std::vector<DimSize> outs = reg.getOutDims();
  for (std::size_t o = 0; o < outs.size(); ++o)
    bases[d].bases[i][o] = g.below(outs[o].size);
  return LinearLayout::create(bases, outs, false).value();
}

TEST(Ldmatrix, DividingConversionsEmulateCorrectly) {
  Gen g(8088);
  std::map<int, int> byVariant;
  for (int trial = 0; trial < kTrials; ++trial) {
    Built b = buildDividing(g);
    SCOPED_TRACE(b.reg.toString() + b.shared.toString());
    auto plan = ldmatrix(b.reg, b.shared, {b.elementBits, b.trans});
    LL_ASSERT_OK(plan);
    checkPlan(b.reg, b.shared, *plan);
    ++byVariant[plan->matricesPerInstruction];
  }
  EXPECT_GT(byVariant[1], 5);
  EXPECT_GT(byVariant[2], 5);
  EXPECT_GT(byVariant[4], 5);
}

TEST(Ldmatrix, DividesIffSomeRegisterPermutationEmulatesCorrectly) {
  Gen g(4711);
  int divides = 0, not_ = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    Built b = buildDividing(g);
    // Unperturbed a third of the time: the registers are still shuffled, so the identity order
    // rarely divides and the permutation must be found.
    LinearLayout reg = g.chance(0.33) ? b.reg : perturb(g, b.reg);
    SCOPED_TRACE(reg.toString() + b.shared.toString());
    auto plan = ldmatrix(reg, b.shared, {b.elementBits, b.trans});
    LL_ASSERT_OK(plan);
    Machine m(reg, b.shared);
    std::vector<int> perm(static_cast<std::size_t>(m.regBits));
    std::iota(perm.begin(), perm.end(), 0);
    bool any = false;
    do
      any = emulate(m, b.elementBits, b.trans, perm).ok;
    while (!any && std::next_permutation(perm.begin(), perm.end()));
    EXPECT_EQ(plan->divides, any) << plan->reason;
    if (plan->divides)
      checkPlan(reg, b.shared, *plan);
    else
      EXPECT_FALSE(plan->reason.empty());
    (plan->divides ? divides : not_)++;
  }
  EXPECT_GT(divides, 20);
  EXPECT_GT(not_, 20);
}

LinearLayout spec(const std::string& attr, std::vector<uint64_t> shape) {
  LayoutContext o;
  o.shape = std::move(shape);
  return loadSpec(attr, o).value().layout;
}

TEST(Ldmatrix, MmaV2DotOperandsFromSwizzledSharedMemory) {
  const std::string mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                          "[2, 2], instrShape = [16, 8]}>";
  auto dotA = [&](int kWidth) {
    return "#ttg.dot_op<{opIdx = 0, parent = " + mma + ", kWidth = " + std::to_string(kWidth) +
           "}>";
  };
  auto dotB = "#ttg.dot_op<{opIdx = 1, parent = " + mma + ", kWidth = 2}>";
  const std::string swizzled = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                               "order = [1, 0]}>";
  const std::string plain = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
                            "order = [1, 0]}>";
  const std::string nvmma = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                            "elementBitWidth = 16}>";

  // A (M x K) f16, K contiguous in shared memory: ldmatrix.x4, conflict-free when swizzled.
  for (const std::string& sh : {swizzled, nvmma}) {
    LinearLayout reg = spec(dotA(2), {64, 64}), shared = spec(sh, {64, 64});
    auto plan = ldmatrix(reg, shared, {16, false});
    LL_ASSERT_OK(plan);
    SCOPED_TRACE(sh + "\n" + toJson(*plan).dump());
    checkPlan(reg, shared, *plan);
    EXPECT_EQ(plan->matricesPerInstruction, 4);
    EXPECT_EQ(plan->wavefrontsPerMatrix, 1u);
    EXPECT_EQ(plan->bankConflictsPerWarp, 0u);
    EXPECT_EQ(toJson(*plan)["instruction"], "ldmatrix.x4 / stmatrix.x4");
  }
  // Unswizzled 128-byte rows: the 8 rows of a matrix share a bank group (8 wavefronts).
  {
    LinearLayout reg = spec(dotA(2), {64, 64}), shared = spec(plain, {64, 64});
    auto plan = ldmatrix(reg, shared, {16, false});
    LL_ASSERT_OK(plan);
    checkPlan(reg, shared, *plan);
    EXPECT_EQ(plan->wavefrontsPerMatrix, 8u);
  }
  // B (K x N) f16 with N contiguous: each lane needs a pair along K, a column in memory, so
  // only .trans lowers it.
  {
    LinearLayout reg = spec(dotB, {64, 64}), shared = spec(swizzled, {64, 64});
    auto direct = ldmatrix(reg, shared, {16, false});
    LL_ASSERT_OK(direct);
    EXPECT_FALSE(direct->divides);
    auto trans = ldmatrix(reg, shared, {16, true});
    LL_ASSERT_OK(trans);
    SCOPED_TRACE(toJson(*trans).dump());
    checkPlan(reg, shared, *trans);
    EXPECT_EQ(trans->wavefrontsPerMatrix, 1u);
  }
  // A as 8-bit (kWidth 4: four consecutive K elements per 32-bit register).
  {
    const std::string sh8 = "#ttg.swizzled_shared<{vec = 16, perPhase = 2, maxPhase = 4, "
                            "order = [1, 0]}>";
    LinearLayout reg = spec(dotA(4), {64, 64}), shared = spec(sh8, {64, 64});
    auto plan = ldmatrix(reg, shared, {8, false});
    LL_ASSERT_OK(plan);
    SCOPED_TRACE(toJson(*plan).dump());
    checkPlan(reg, shared, *plan);
  }
}

TEST(Ldmatrix, RejectsBadInput) {
  Gen g(1);
  Built b = buildDividing(g);
  EXPECT_FALSE(ldmatrix(b.reg, b.shared, {64, false}).ok());
  EXPECT_FALSE(ldmatrix(b.reg, b.shared, {8, true}).ok());
  EXPECT_FALSE(ldmatrix(b.reg, identity1D(4, S("offset"), S("dim0")), {16, false}).ok());
}

} // namespace
} // namespace llcheck::test
