// Conversion correctness: for the plan's C = DST^-1 o SRC, Z3 proves src(x) = dst(C(x)) for
// every x, on Triton's conversions and on random distributed pairs, and refutes it, with a
// counterexample brute force confirms, when C is perturbed. Brute force over the whole input
// space is the truth in both directions.
#include "ProverTestUtil.h"

#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/ConversionPlan.h"

namespace llcheck::test {
namespace {

using prover::Outcome;

/// Whether src(x) = dst(c(x)) for every x, by the reference evaluator (outputs matched by name).
bool bruteCorrect(const LinearLayout& src, const LinearLayout& dst, const LinearLayout& c) {
  Ref rs(src), rd(dst), rc(c);
  for (uint64_t f = 0; f < rs.numInputs(); ++f) {
    std::vector<uint64_t> x = rs.unflattenIn(f);
    // c's inputs are src's input dims, possibly in another order.
    std::vector<uint64_t> xc;
    for (const DimSize& d : rc.ins())
      xc.push_back(valueOf(rs.inPoint(f), d.name));
    std::vector<uint64_t> to = rc.eval(xc);
    std::vector<uint64_t> xd;
    for (const DimSize& d : rd.ins())
      xd.push_back(valueOf(rc.outPoint(to), d.name));
    Point a = rs.outPoint(rs.eval(x)), b = rd.outPoint(rd.eval(xd));
    for (const auto& [name, v] : a)
      if (valueOf(b, name) != v)
        return false;
  }
  return true;
}

void expectCounterexample(const LinearLayout& src, const LinearLayout& dst, const LinearLayout& c,
                          const nlohmann::json& ce) {
  Ref rs(src), rd(dst), rc(c);
  std::vector<uint64_t> x = inputValues(src, ce.at("input"));
  EXPECT_EQ(rs.outPoint(rs.eval(x)), rs.outPoint(outputValues(src, ce.at("src_output"))));
  std::vector<uint64_t> xc;
  for (const DimSize& d : rc.ins())
    xc.push_back(valueOf(rs.inPoint(rs.flattenIn(x)), d.name));
  std::vector<uint64_t> to = rc.eval(xc);
  for (const auto& [name, v] : rc.outPoint(to))
    EXPECT_EQ(ce.at("moved_to").at(name.str()).get<uint64_t>(), v);
  std::vector<uint64_t> xd;
  for (const DimSize& d : rd.ins())
    xd.push_back(valueOf(rc.outPoint(to), d.name));
  Point a = rs.outPoint(rs.eval(x)), b = rd.outPoint(rd.eval(xd));
  bool differs = false;
  for (const auto& [name, v] : a)
    differs = differs || valueOf(b, name) != v;
  EXPECT_TRUE(differs) << ce.dump();
}

/// C with one basis flipped in one bit: a wrong plan.
LinearLayout perturbed(const LinearLayout& c, Gen& g) {
  std::vector<DimBases> bases = c.getBases();
  std::vector<std::size_t> nonEmpty;
  for (std::size_t d = 0; d < bases.size(); ++d)
    if (!bases[d].bases.empty())
      nonEmpty.push_back(d);
  DimBases& d = bases[nonEmpty[g.below(nonEmpty.size())]];
  std::vector<uint64_t>& b = d.bases[g.below(d.bases.size())];
  std::vector<DimSize> outs = c.getOutDims();
  std::size_t k = g.below(outs.size());
  while (outs[k].size == 1)
    k = (k + 1) % outs.size();
  b[k] ^= uint64_t{1} << g.below(static_cast<uint64_t>(std::countr_zero(outs[k].size)));
  return LinearLayout::create(bases, outs, false).value();
}

LinearLayout load(const char* attr, std::vector<uint64_t> shape) {
  LayoutContext o;
  o.shape = std::move(shape);
  auto l = loadSpec(attr, o);
  EXPECT_TRUE(l.ok()) << attr << ": " << l.error().str();
  return l->layout;
}

TEST(Conversion, TritonConversionsAreProvenAndPerturbedOnesRefuted) {
  const char* blockedRow = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>";
  const char* blockedCol = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [1, 4], order = [0, 1]}>";
  const char* mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
                    "instrShape = [16, 8]}>";
  const char* dotA = "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, "
                     "versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>";
  const char* broadcast = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], "
                          "warpsPerCTA = [4, 1], order = [1, 0]}>";
  std::vector<std::pair<const char*, const char*>> pairs = {{blockedRow, blockedCol},
                                                            {blockedCol, blockedRow},
                                                            {blockedRow, mma},
                                                            {mma, blockedRow},
                                                            {mma, dotA},
                                                            {blockedRow, blockedRow},
                                                            {broadcast, mma},
                                                            {mma, broadcast}};
  Gen g(99);
  for (std::vector<uint64_t> shape : {std::vector<uint64_t>{32, 32}, {64, 64}, {16, 64}})
    for (auto [a, b] : pairs) {
      LinearLayout src = load(a, shape), dst = load(b, shape);
      auto plan = planConversion(src, dst);
      ASSERT_TRUE(plan.ok()) << plan.error().str();
      SCOPED_TRACE(plan->src.toString() + " -> " + plan->dst.toString());
      auto p = prover::proveConversion(plan->src, plan->dst, plan->conversion, {});
      EXPECT_EQ(p.outcome, Outcome::Proven) << p.detail;
      EXPECT_TRUE(bruteCorrect(plan->src, plan->dst, plan->conversion));
      LinearLayout wrong = perturbed(plan->conversion, g);
      auto q = prover::proveConversion(plan->src, plan->dst, wrong, {});
      bool correct = bruteCorrect(plan->src, plan->dst, wrong);
      ASSERT_EQ(q.outcome, correct ? Outcome::Proven : Outcome::Refuted) << q.detail;
      if (q.outcome == Outcome::Refuted)
        expectCounterexample(plan->src, plan->dst, wrong, q.counterexample);
    }
}

TEST(Conversion, RandomDistributedPairs) {
  Gen g(31337);
  int refuted = 0;
  for (int t = 0; t < kTrials / 2; ++t) {
    LinearLayout src = g.distributed(8);
    // The same tensor, another distribution: src with its input bits permuted.
    std::vector<DimBases> bases = src.getBases();
    std::vector<std::vector<uint64_t>*> all;
    for (DimBases& d : bases)
      for (auto& b : d.bases)
        all.push_back(&b);
    for (std::size_t i = all.size(); i > 1; --i)
      std::swap(*all[i - 1], *all[g.below(i)]);
    LinearLayout dst = LinearLayout::create(bases, src.getOutDims(), false).value();
    auto plan = planConversion(src, dst);
    if (!plan.ok())
      continue; // not two distributed layouts (planConversion says why; not ours to test)
    auto p = prover::proveConversion(plan->src, plan->dst, plan->conversion, {});
    EXPECT_EQ(p.outcome, Outcome::Proven) << p.detail;
    if (plan->conversion.getTotalInDimSizeLog2() == 0)
      continue;
    LinearLayout wrong = perturbed(plan->conversion, g);
    auto q = prover::proveConversion(plan->src, plan->dst, wrong, {});
    bool correct = bruteCorrect(plan->src, plan->dst, wrong);
    ASSERT_EQ(q.outcome, correct ? Outcome::Proven : Outcome::Refuted) << q.detail;
    if (q.outcome == Outcome::Refuted) {
      ++refuted;
      expectCounterexample(plan->src, plan->dst, wrong, q.counterexample);
    }
  }
  EXPECT_GT(refuted, 10);
}

} // namespace
} // namespace llcheck::test
