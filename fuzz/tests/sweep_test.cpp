// The sweep, the plan check and the mutation check as ctests: the plan check accepts planned
// conversions and rejects each single-bit flip that moves an element wrongly; the blocked
// sweep enumerates exactly the space its documentation describes (counted here by a closed
// formula, not by the sweep's own loops) with no failure; shards partition the groups; the
// shared families verify clean; bad options are Errors.
#include "check/PlanCheck.h"
#include "mutation/Mutation.h"
#include "sweep/Sweep.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/conversion/ConversionPlan.h"

#include <gtest/gtest.h>

namespace llcheck::fuzz {
namespace {

BlockedParams blocked(std::vector<uint64_t> spt, std::vector<uint64_t> tpw,
                      std::vector<uint64_t> wpc, std::vector<uint64_t> order) {
  return {std::move(spt), std::move(tpw), std::move(wpc), std::move(order), {}};
}

TEST(PlanCheck, acceptsAPlanAndRejectsAWrongConversion) {
  auto a = blockedToLinearLayout(blocked({1, 8}, {4, 8}, {4, 1}, {1, 0}), {64, 64});
  auto b = blockedToLinearLayout(blocked({8, 1}, {8, 4}, {1, 4}, {0, 1}), {64, 64});
  ASSERT_TRUE(a.ok() && b.ok());
  auto plan = planConversion(*a, *b);
  ASSERT_TRUE(plan.ok()) << plan.error().str();
  EXPECT_FALSE(planViolation(plan->src, plan->dst, plan->conversion));
  // The identity (what a no-op between equal layouts would be) does not convert a to b.
  auto same = planConversion(*a, *a);
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(planViolation(plan->src, plan->dst, same->conversion));
  // Flipping a lane bit of C's register column sends an element to the wrong thread.
  std::vector<DimBases> bases = plan->conversion.getBases();
  bases[0].bases[0][1] ^= 1;
  auto wrong = LinearLayout::create(bases, plan->conversion.getOutDims(), false);
  ASSERT_TRUE(wrong.ok());
  auto v = planViolation(plan->src, plan->dst, *wrong);
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("SRC input"), std::string::npos) << *v;
}

/// Number of ways to write 2^bits as an ordered product of `rank` powers of two.
uint64_t compositions(int bits, int rank) {
  uint64_t n = 1; // C(bits + rank - 1, rank - 1)
  for (int i = 1; i < rank; ++i)
    n = n * static_cast<uint64_t>(bits + i) / static_cast<uint64_t>(i);
  return n;
}

TEST(Sweep, blockedEnumeratesItsWholeSpaceWithoutFailures) {
  SweepOptions o;
  o.family = "blocked";
  o.maxLog2 = 1;
  o.numWarps = {1, 4};
  o.pairMaxLog2 = 2;
  auto r = runSweep(o);
  ASSERT_TRUE(r.ok()) << r.error().str();
  // sum over rank, shape (each dim 2^0..2^maxLog2), lanes, warps of
  // prod_d (s_d + 1) sizePerThread * splits(lanes) * splits(warps) * rank! orders.
  uint64_t want = 0, groups = 0;
  for (int rank = 1; rank <= 3; ++rank) {
    uint64_t spt = 1, shapes = 1, fact = 1;
    for (int d = 0; d < rank; ++d) {
      spt *= 2 + 1; // sum over s = 0..1 of (s + 1)
      shapes *= 2;
      fact *= static_cast<uint64_t>(d + 1);
    }
    for (int lanes : {5, 6})
      for (int warps : {0, 2}) {
        want += spt * compositions(lanes, rank) * compositions(warps, rank) * fact;
        groups += shapes;
      }
  }
  EXPECT_EQ(r->enumerated, want);
  EXPECT_EQ(r->groups, groups);
  EXPECT_EQ(r->rejected, 0u);
  EXPECT_GT(r->verified, 0u);
  EXPECT_LE(r->verified, r->enumerated);
  EXPECT_GT(r->pairs, 0u);
  EXPECT_EQ(r->verifyFailures, 0u) << toText(*r);
  EXPECT_EQ(r->planFailures, 0u) << toText(*r);
}

TEST(Sweep, shardsPartitionTheGroups) {
  SweepOptions o;
  o.family = "blocked";
  o.maxLog2 = 1;
  o.numWarps = {2};
  o.pairMaxLog2 = 2;
  auto whole = runSweep(o);
  ASSERT_TRUE(whole.ok());
  uint64_t groups = 0, enumerated = 0, verified = 0, pairs = 0;
  for (int i = 0; i < 3; ++i) {
    o.shardIndex = i;
    o.shardCount = 3;
    auto part = runSweep(o);
    ASSERT_TRUE(part.ok());
    groups += part->groups;
    enumerated += part->enumerated;
    verified += part->verified;
    pairs += part->pairs;
  }
  EXPECT_EQ(groups, whole->groups);
  EXPECT_EQ(enumerated, whole->enumerated);
  EXPECT_EQ(verified, whole->verified);
  EXPECT_EQ(pairs, whole->pairs);
}

TEST(Sweep, sharedFamiliesVerifyClean) {
  for (const char* family : {"swizzled_shared", "nvmma_shared"}) {
    SweepOptions o;
    o.family = family;
    o.maxLog2 = 3;
    auto r = runSweep(o);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->groups, 16u) << family; // 4 x 4 shapes
    EXPECT_GT(r->verified, 0u) << family;
    EXPECT_EQ(r->verifyFailures, 0u) << toText(*r);
    EXPECT_EQ(r->pairs, 0u) << family; // memory layouts: no register conversions
  }
}

TEST(Sweep, badOptionsAreErrors) {
  SweepOptions o;
  o.family = "bogus";
  EXPECT_FALSE(runSweep(o).ok());
  o.family = "blocked";
  o.numWarps = {3};
  EXPECT_FALSE(runSweep(o).ok());
  o.numWarps = {};
  o.maxLog2 = 13;
  EXPECT_FALSE(runSweep(o).ok());
}

TEST(Mutation, catchesEveryNonEquivalentPlanMutant) {
  MutationOptions o;
  o.generatedPairs = 4;
  auto r = runMutation(o);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_GT(r->plans.mutants, 0u);
  EXPECT_EQ(r->disagreements, 0u);
  EXPECT_EQ(r->plans.caught + r->plans.equivalent, r->plans.mutants) << toText(*r);
}

} // namespace
} // namespace llcheck::fuzz
