// The sector bound as a Z3 proof (CoalescingProofs.h): proven with a witness where the model's
// prediction holds, on random blocked layouts with random strides and base alignments (row-major,
// transposed, padded by a power of two; the rank counts among them),
// and refuted where the prediction is half the truth (a counterexample request) or twice it
// (no request reaches it); unknown under a resource limit too small to decide.
#include "GlobalMemorySimulator.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/prover/CoalescingProofs.h"

namespace llcheck::test {
namespace {

using prover::Outcome;

LinearLayout randomBlockedLayout(Gen& g) {
  auto pow2 = [](int b) { return uint64_t{1} << b; };
  int tpw0 = g.range(0, 5), w0 = g.range(0, 2);
  BlockedParams p{{pow2(g.range(0, 2)), pow2(g.range(0, 3))},
                  {pow2(tpw0), pow2(5 - tpw0)},
                  {pow2(w0), pow2(2 - w0)},
                  g.chance(0.7) ? std::vector<uint64_t>{1, 0} : std::vector<uint64_t>{0, 1},
                  {}};
  return blockedToLinearLayout(p, {pow2(g.range(3, 6)), pow2(g.range(3, 6))}).value();
}

const GlobalMemoryModel& sm90() {
  static const GlobalMemoryModel m = globalMemoryModel("sm90").value();
  return m;
}

TEST(CoalescingProofs, ProvesThePredictionOnRandomLayouts) {
  Gen g(20261126);
  prover::ProverOptions o;
  // Walked counts (odd strides, misaligned bases) have no proof; enough of the cases must be
  // rank counts for the test to say something.
  const int trials = 60 / kSanitizerDivisor;
  int byRank = 0;
  for (int trial = 0; trial < trials; ++trial) {
    LinearLayout reg = randomBlockedLayout(g);
    CoalescingOptions options;
    options.elementBits = 8 << g.range(0, 3);
    uint64_t rows = reg.getOutDimSize(dims::standardOut(0)),
             cols = reg.getOutDimSize(dims::standardOut(1));
    switch (g.range(0, 3)) {
    case 1:
      options.strides = {1, static_cast<int64_t>(rows)};
      break;
    case 2:
      options.strides = {static_cast<int64_t>(cols * 2), 1};
      break;
    case 3:
      options.strides = {static_cast<int64_t>(cols) + g.range(1, 9), 1};
      break;
    default:
      break;
    }
    options.baseAlignment =
        g.chance(0.7) ? 128
                      : std::max<uint64_t>(uint64_t{1} << g.range(0, 7),
                                           static_cast<uint64_t>(options.elementBits / 8));
    SCOPED_TRACE(reg.toString());
    auto a = predictGlobalAccess(reg, options, sm90());
    LL_ASSERT_OK(a);
    byRank += a->byRank;
    if (!a->byRank)
      continue; // Z3 proves rank counts only
    prover::ProofResult r = prover::proveSectorBound(reg, options, sm90(), *a, o);
    ASSERT_EQ(r.outcome, Outcome::Proven) << r.detail;
    ASSERT_EQ(r.witness["lanes"].size(), a->maxSectorsPerRequest);

    // Half as many: the request Z3 finds touches more, as the addresses confirm.
    if (a->maxSectorsPerRequest > 1) {
      GlobalAccess low = *a;
      low.maxSectorsPerRequest /= 2;
      prover::ProofResult bad = prover::proveSectorBound(reg, options, sm90(), low, o);
      EXPECT_EQ(bad.outcome, Outcome::Refuted) << bad.detail;
      EXPECT_EQ(bad.counterexample["lanes"].size(), 2u);
    }
    // Twice as many: no request reaches it.
    if (a->maxSectorsPerRequest < 32) {
      GlobalAccess high = *a;
      high.maxSectorsPerRequest *= 2;
      EXPECT_EQ(prover::proveSectorBound(reg, options, sm90(), high, o).outcome, Outcome::Refuted);
    }
  }
  EXPECT_GE(byRank * 6, trials);
}

TEST(CoalescingProofs, IssueExampleAndResourceLimit) {
  BlockedParams p{{1, 8}, {4, 8}, {4, 1}, {1, 0}, {}};
  LinearLayout reg = blockedToLinearLayout(p, {64, 64}).value();
  auto a = predictGlobalAccess(reg, {}, sm90());
  LL_ASSERT_OK(a);
  prover::ProofResult r = prover::proveSectorBound(reg, {}, sm90(), *a, {});
  EXPECT_EQ(r.outcome, Outcome::Proven) << r.detail;
  EXPECT_EQ(r.witness["sectors"].size(), 16u);
  prover::ProverOptions tight;
  tight.rlimit = 1;
  EXPECT_EQ(prover::proveSectorBound(reg, {}, sm90(), *a, tight).outcome, Outcome::Unknown);
}

} // namespace
} // namespace llcheck::test
