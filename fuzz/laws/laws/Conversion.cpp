// The laws of conversions: the plan, its kind, the optimal swizzle and the bank model against the
// address simulator. Each law is one function; Laws.cpp registers them in one table (Catalog.h).
#include "Catalog.h"
#include "Support.h"

#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"

#include <algorithm>
#include <bit>
#include <map>

namespace llcheck::fuzz::laws {

namespace {

/// A conversion case: SRC (or REG), DST (or SHARED), and the architecture and element width its
/// params pick.
void swizzleCase(const Case& c, const LinearLayout*& src, const LinearLayout*& dst,
                 std::string& arch, int& bits) {
  src = &c.layouts.at(0);
  dst = &c.layouts.at(1);
  arch = kArchs.at(static_cast<std::size_t>(c.params.at(0)) % kArchs.size());
  bits = 8 << (c.params.at(1) & 3);
}

} // namespace

// ---- Conversions ---------------------------------------------------------------------------

Verdict convertPlanIsCorrect(const Case& c) {
  const LinearLayout &src = c.layouts.at(0), &dst = c.layouts.at(1);
  LAW_TRY(plan, planConversion(src, dst), "planConversion");
  if (auto v = composesTo(plan->dst, plan->conversion, plan->src, "SRC(x) vs DST(C(x))"))
    return v;
  LAW_REQUIRE((plan->kind == ConversionKind::NoOp) == (src == dst),
              std::string("kind ") + conversionKindName(plan->kind) +
                  (src == dst ? " for equal layouts" : " for different layouts"));
  return {};
}

Verdict convertKindIsTheCheapest(const Case& c) {
  const LinearLayout &src = c.layouts.at(0), &dst = c.layouts.at(1);
  LAW_TRY(plan, planConversion(src, dst), "planConversion");
  // element -> (lane, warp, block) of every SRC location holding it.
  RefLayout rs(src), rd(dst);
  std::map<std::vector<uint64_t>, std::vector<std::vector<uint64_t>>> holders;
  auto where = [](const RefLayout& r, const std::vector<uint64_t>& x) {
    return std::vector<uint64_t>{RefLayout::valueOf(r.ins(), x, dims::kBlock),
                                 RefLayout::valueOf(r.ins(), x, dims::kWarp),
                                 RefLayout::valueOf(r.ins(), x, dims::kLane)};
  };
  for (uint64_t f = 0; f < rs.numInputs(); ++f) {
    std::vector<uint64_t> x = rs.unflattenIn(f);
    holders[rs.eval(x)].push_back(where(rs, x));
  }
  int needed = 0; // 0 own thread, 1 own warp, 2 own CTA, 3 another CTA
  for (uint64_t f = 0; f < rd.numInputs(); ++f) {
    std::vector<uint64_t> y = rd.unflattenIn(f);
    std::vector<uint64_t> w = where(rd, y);
    int best = 3;
    for (const auto& h : holders[outByName(rs, rd.outs(), rd.eval(y))]) {
      int level = h[0] != w[0] ? 3 : h[1] != w[1] ? 2 : h[2] != w[2] ? 1 : 0;
      best = std::min(best, level);
    }
    needed = std::max(needed, best);
  }
  ConversionKind want = needed == 3   ? ConversionKind::InterCta
                        : needed == 2 ? ConversionKind::SharedMemory
                        : needed == 1 ? ConversionKind::WarpShuffle
                        : src == dst  ? ConversionKind::NoOp
                                      : ConversionKind::RegisterPermutation;
  LAW_REQUIRE(plan->kind == want, std::string("kind ") + conversionKindName(plan->kind) +
                                      ", the search says " + conversionKindName(want));
  return {};
}

Verdict optimalSwizzleIsABijection(const Case& c) {
  const LinearLayout *src, *dst;
  std::string arch;
  int bits;
  swizzleCase(c, src, dst, arch, bits);
  LAW_TRY(model, sharedMemoryModel(arch), "model");
  LAW_TRY(s, optimalSwizzle(*src, *dst, bits, *model), "optimalSwizzle");
  RefLayout r(s->shared);
  LAW_REQUIRE(r.numInputs() == r.numOutputs() && imageOf(r).size() == r.numOutputs(),
              "not a bijection:" + str(s->shared));
  LAW_REQUIRE(s->shared.hasInDim(dims::kOffset), "no offset dim");
  return {};
}

Verdict optimalSwizzleAttainsTheBound(const Case& c) {
  const LinearLayout *src, *dst;
  std::string arch;
  int bits;
  swizzleCase(c, src, dst, arch, bits);
  LAW_TRY(model, sharedMemoryModel(arch), "model");
  LAW_TRY(s, optimalSwizzle(*src, *dst, bits, *model, {false, false}), "optimalSwizzle");
  LAW_REQUIRE(s->bound.attainedBy(s->store.count, s->load.count),
              "store " + std::to_string(s->store.count.wavefronts) + " / load " +
                  std::to_string(s->load.count.wavefronts) + " wavefronts, bound " +
                  std::to_string(s->bound.storeWavefronts) + " / " +
                  std::to_string(s->bound.loadWavefronts));
  for (bool load : {false, true}) {
    const AccessCount& a = load ? s->load.count : s->store.count;
    SimulatedAccess sim =
        simulateSharedAccess(load ? *dst : *src, s->shared, {}, arch, bits,
                             std::countr_zero(static_cast<uint64_t>(a.vectorBits / bits)), load);
    LAW_REQUIRE(sim.vectorValid && sim.wavefronts == a.wavefronts && sim.ideal == sim.wavefronts,
                std::string(load ? "load" : "store") + ": model " + std::to_string(a.wavefronts) +
                    " wavefronts, simulator " + std::to_string(sim.wavefronts) + " (ideal " +
                    std::to_string(sim.ideal) + ")\nSHARED" + str(s->shared));
  }
  return {};
}

rc::Gen<Case> bankModelEqualsTheSimulatorCases() {
  return fromDraws([]() {
    Case c = drawConversionPair();
    // SHARED: an invertible offset -> the tensor, from the identity by column operations.
    const LinearLayout& reg = c.layouts[0];
    DimBits outs = bitsOf(reg.getOutDims());
    int m = reg.getTotalOutDimSizeLog2();
    std::vector<uint64_t> cols;
    for (int i = 0; i < m; ++i)
      cols.push_back(uint64_t{1} << i);
    for (int k = 0, n = m < 2 ? 0 : pick(0, m); k < n; ++k) {
      int a = pick(0, m - 1), b = pick(0, m - 1);
      if (a != b)
        cols[static_cast<std::size_t>(a)] ^= cols[static_cast<std::size_t>(b)];
    }
    for (int k = 0, n = m < 2 ? 0 : pick(0, m); k < n; ++k)
      std::swap(cols[static_cast<std::size_t>(pick(0, m - 1))],
                cols[static_cast<std::size_t>(pick(0, m - 1))]);
    c.layouts[1] = layoutFromColumns({{dims::kOffset, m}}, outs, cols);
    return c;
  });
}

Verdict bankModelEqualsTheSimulator(const Case& c) {
  const LinearLayout *reg, *shared;
  std::string arch;
  int bits;
  swizzleCase(c, reg, shared, arch, bits);
  LAW_TRY(model, sharedMemoryModel(arch), "model");
  LAW_TRY(report, bankConflicts(*reg, *shared, {}, bits, *model), "bankConflicts");
  for (bool load : {false, true}) {
    const AccessCount& a = load ? report->load : report->store;
    int v = std::countr_zero(static_cast<uint64_t>(a.vectorBits / bits));
    SimulatedAccess sim = simulateSharedAccess(*reg, *shared, {}, arch, bits, v, load);
    std::string side = load ? "load" : "store";
    LAW_REQUIRE(sim.vectorValid, side + ": the model's vector of " + std::to_string(v) +
                                     " bits is not valid in the simulator");
    LAW_REQUIRE(a.instructions == sim.instructions && a.wavefronts == sim.wavefronts &&
                    a.idealWavefronts == sim.ideal,
                side + ": model " + std::to_string(a.instructions) + " instructions, " +
                    std::to_string(a.wavefronts) + " wavefronts (ideal " +
                    std::to_string(a.idealWavefronts) + "); simulator " +
                    std::to_string(sim.instructions) + ", " + std::to_string(sim.wavefronts) +
                    " (ideal " + std::to_string(sim.ideal) + ")");
    if ((a.vectorBits * 2) / 8 <= model->maxAccessBytes &&
        (uint64_t{2} << v) <= shared->getTotalInDimSize())
      LAW_REQUIRE(!simulateSharedAccess(*reg, *shared, {}, arch, bits, v + 1, load).vectorValid,
                  side + ": a vector one element wider is also valid");
  }
  return {};
}

} // namespace llcheck::fuzz::laws
