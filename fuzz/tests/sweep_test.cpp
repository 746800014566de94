// The sweep, the plan check and the mutation check as ctests: the plan check accepts planned
// conversions and rejects each single-bit flip that moves an element wrongly; the blocked
// sweep enumerates exactly the space its documentation describes (counted here by a closed
// formula, not by the sweep's own loops) with no failure; the shards, dealt by cost, partition
// the groups, add up to the unsharded run and merge into its result; a shard stopped and
// resumed from its checkpoint gives the uninterrupted totals; merge and resume refuse results
// and checkpoints of other sweeps; the shared families verify clean; bad options are Errors.
#include "check/PlanCheck.h"
#include "mutation/Mutation.h"
#include "sweep/Spaces.h"
#include "sweep/Sweep.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/OutputFile.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/ConversionPlan.h"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>

namespace llcheck::fuzz {
namespace {

// The sanitizer build runs these sweeps at -O0 under ASan, where checking conversion plans
// against enumeration dominates: there the sharding, checkpoint and plan tests check plans over
// smaller tensors and sweep the non-blocked families to 2^1 (the same code paths).
#ifdef LLCHECK_SANITIZED_BUILD
constexpr int kPairMaxLog2 = 1, kFamilyMaxLog2 = 1;
constexpr int kShardCounts[] = {3, 5000};
#else
constexpr int kPairMaxLog2 = 2, kFamilyMaxLog2 = 2;
constexpr int kShardCounts[] = {1, 3, 7, 5000};
#endif

/// The families the planning tests walk: every one, or in the sanitizer build one of each kind
/// of space (blocked's parameters, a shared family, a matrix-core family), the same code paths
/// (the others take 100 s there).
std::vector<std::string> plannedFamilies() {
#ifdef LLCHECK_SANITIZED_BUILD
  return {"blocked", "swizzled_shared", "nvidia_mma"};
#else
  return sweepFamilies();
#endif
}

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

/// The counts of a report, for comparing two runs (seconds and the shard differ).
std::vector<uint64_t> totals(const SweepReport& r) {
  return {r.groups,        r.enumerated,  r.rejected,       r.distinct,     r.verified,
          r.pairs,         r.unplanned,   r.verifyFailures, r.planFailures, r.failures.size(),
          r.renamedGroups, r.renamedSets, r.renamedLayouts, r.renamedPairs};
}

TEST(Sweep, shardTotalsAddUpToTheUnshardedRun) {
  SweepOptions o;
  o.family = "blocked";
  o.maxLog2 = 1;
  o.numWarps = {4};
  o.pairMaxLog2 = kPairMaxLog2;
  auto whole = runSweep(o);
  ASSERT_TRUE(whole.ok()) << whole.error().str();
  std::vector<SweepReport> parts;
  std::vector<uint64_t> sum(totals(*whole).size(), 0);
  for (int i = 0; i < 3; ++i) {
    o.shardIndex = i;
    o.shardCount = 3;
    auto part = runSweep(o);
    ASSERT_TRUE(part.ok()) << part.error().str();
    EXPECT_GT(part->groups, 0u);
    auto t = totals(*part);
    for (std::size_t k = 0; k < t.size(); ++k)
      sum[k] += t[k];
    parts.push_back(*part);
  }
  EXPECT_EQ(sum, totals(*whole));
  // merge reads them back from JSON, in any order, and prints what the unsharded run does.
  std::vector<SweepReport> read;
  for (int i : {2, 0, 1}) {
    auto r = sweepReportFromJson(toJson(parts[static_cast<std::size_t>(i)]), "shard");
    ASSERT_TRUE(r.ok()) << r.error().str();
    read.push_back(*r);
  }
  auto merged = mergeSweepReports(read, {"c.json", "a.json", "b.json"});
  ASSERT_TRUE(merged.ok()) << merged.error().str();
  EXPECT_EQ(totals(*merged), totals(*whole));
  EXPECT_EQ(merged->shardCount, 1);
  EXPECT_EQ(merged->mergedShards, 3);
  auto a = toJson(*merged), b = toJson(*whole);
  for (auto* j : {&a, &b})
    for (const char* key : {"seconds", "merged_shards"})
      j->erase(key);
  EXPECT_EQ(a, b);
}

TEST(SweepPlan, dealsEveryGroupToExactlyOneShard) {
  for (const std::string& family : plannedFamilies())
    for (int shards : kShardCounts) {
      SweepOptions o;
      o.family = family;
      o.maxLog2 = 1;
      o.numWarps = {1, 4};
      // Planning builds the layouts of the groups whose pairs are checked: dot_op's parse slowly.
      o.pairMaxLog2 = family == "dot_op" ? 0 : 1;
      o.shardCount = shards;
      auto plan = planSweep(o);
      ASSERT_TRUE(plan.ok()) << plan.error().str();
      ASSERT_FALSE(plan->empty()) << family;
      std::vector<uint64_t> load(static_cast<std::size_t>(shards), 0);
      uint64_t largest = 0;
      for (const SweepGroup& g : *plan) {
        ASSERT_GE(g.shard, 0);
        ASSERT_LT(g.shard, shards);
        EXPECT_GT(g.cost, 0u);
        load[static_cast<std::size_t>(g.shard)] += g.cost;
        largest = std::max(largest, g.cost);
      }
      // Greedy dealing, costliest first, leaves no shard more than one group above another.
      auto [least, most] = std::minmax_element(load.begin(), load.end());
      EXPECT_LE(*most - *least, largest) << family << " over " << shards;
      // Every process deals the same way.
      if (shards != 7)
        continue;
      auto again = planSweep(o);
      ASSERT_TRUE(again.ok());
      for (std::size_t i = 0; i < plan->size(); ++i)
        EXPECT_EQ((*again)[i].shard, (*plan)[i].shard);
    }
}

TEST(SweepPlan, eachShardRunsExactlyItsGroups) {
  // A shard's parameter sets are its groups' (counted by formula), and together they are the
  // family's: no group run twice or left out.
  for (const std::string& family : plannedFamilies()) {
    SweepOptions o;
    o.family = family;
    o.maxLog2 = family == "blocked" || family == "dot_op" ? 1 : kFamilyMaxLog2;
    o.numWarps = {1, 4};
    o.pairMaxLog2 = -1;
    o.shardCount = 3;
    auto plan = planSweep(o);
    ASSERT_TRUE(plan.ok());
    std::vector<uint64_t> sets(3, 0), groups(3, 0);
    for (const SweepGroup& g : *plan) {
      sets[static_cast<std::size_t>(g.shard)] += g.sets;
      ++groups[static_cast<std::size_t>(g.shard)];
    }
    for (int i = 0; i < 3; ++i) {
      o.shardIndex = i;
      auto r = runSweep(o);
      ASSERT_TRUE(r.ok()) << r.error().str();
      EXPECT_EQ(r->enumerated, sets[static_cast<std::size_t>(i)]) << family << " shard " << i;
      EXPECT_EQ(r->groups, groups[static_cast<std::size_t>(i)]) << family << " shard " << i;
    }
  }
}

/// A checkpoint file of its own for one test, removed with its temporary.
struct TempCheckpoint {
  std::filesystem::path path;
  explicit TempCheckpoint(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("llcheck-sweep-" + name + "-" + std::to_string(::getpid()) + ".json")) {
    std::filesystem::remove(path);
  }
  ~TempCheckpoint() {
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + ".tmp");
  }
};

struct Interrupted {};

TEST(SweepCheckpoint, aResumedShardGivesTheUninterruptedTotals) {
  SweepOptions o;
  o.family = "blocked";
  o.maxLog2 = 1;
  o.numWarps = {4};
  o.pairMaxLog2 = kPairMaxLog2;
  o.shardIndex = 1;
  o.shardCount = 2;
  auto whole = runSweep(o);
  ASSERT_TRUE(whole.ok());
  TempCheckpoint file("resume");
  o.checkpoint = file.path.string();
  o.checkpointSeconds = 0;
  // Stopped after 5 groups, before the checkpoint write that follows the 5th (as a process
  // killed there would be): the file holds 4 groups, and the 5th is done again.
  int finished = 0;
  o.progress = [&](const SweepProgress&) {
    if (++finished == 5)
      throw Interrupted{};
  };
  EXPECT_THROW((void)runSweep(o), Interrupted);
  auto text = readInputFile(file.path.string());
  ASSERT_TRUE(text.ok());
  auto saved = nlohmann::json::parse(*text);
  EXPECT_EQ(saved["groups"], 4);
  EXPECT_EQ(saved["done_groups"].size(), 4u);
  o.progress = nullptr;
  auto resumed = runSweep(o);
  ASSERT_TRUE(resumed.ok()) << resumed.error().str();
  EXPECT_EQ(totals(*resumed), totals(*whole));
  // Started again once finished, it has nothing left to do and reports the same.
  auto again = runSweep(o);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(totals(*again), totals(*whole));
}

TEST(SweepCheckpoint, aStopInsideAGroupDropsThatGroupAndResumesToTheUninterruptedTotals) {
  SweepOptions o;
  o.family = "blocked";
  o.maxLog2 = 2;
  o.numWarps = {4};
  o.pairMaxLog2 = kPairMaxLog2;
  o.shardIndex = 0;
  o.shardCount = 4;
  auto whole = runSweep(o);
  ASSERT_TRUE(whole.ok());
  TempCheckpoint file("stop-inside");
  o.checkpoint = file.path.string();
  o.checkpointSeconds = 0;
  // Asked at every encoding and pair, the stop comes true at the 3,000th question: inside a
  // group (a group has thousands of encodings and pairs here, so it cannot be a group's end).
  o.stopCheckEvery = 1;
  uint64_t asked = 0, groupsFinished = 0;
  o.stop = [&] { return ++asked >= 3000; };
  o.progress = [&](const SweepProgress&) { ++groupsFinished; };
  auto stopped = runSweep(o);
  ASSERT_TRUE(stopped.ok()) << stopped.error().str();
  EXPECT_EQ(stopped->groups, groupsFinished);
  EXPECT_LT(stopped->enumerated, whole->enumerated);
  auto text = readInputFile(file.path.string());
  ASSERT_TRUE(text.ok());
  auto saved = nlohmann::json::parse(*text);
  // The checkpoint holds the whole groups finished before the stop, and only their counts.
  EXPECT_EQ(saved["groups"], groupsFinished);
  EXPECT_EQ(saved["encodings"], stopped->enumerated);
  o.stop = nullptr;
  o.progress = nullptr;
  auto resumed = runSweep(o);
  ASSERT_TRUE(resumed.ok()) << resumed.error().str();
  EXPECT_EQ(totals(*resumed), totals(*whole));
}

// Two sweeps on one checkpoint: the second is refused at once, naming the holder; a link planted
// at a temporary name is not written through (the checkpoint is written by OutputFile).
TEST(SweepCheckpoint, isLockedAndNotWrittenThroughALink) {
  SweepOptions o;
  o.family = "nvidia_mma";
  o.maxLog2 = 0;
  TempCheckpoint file("lock");
  o.checkpoint = file.path.string();
  std::string lockPath = o.checkpoint + ".lock";
  std::filesystem::remove(lockPath);
  {
    auto held = FileLock::acquire(AT_FDCWD, lockPath, "pid 1 on host test");
    ASSERT_TRUE(held.ok()) << held.error().str();
    auto r = runSweep(o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().str().find("is held by another llcheck (pid 1 on host test)"),
              std::string::npos)
        << r.error().str();
    EXPECT_FALSE(std::filesystem::exists(file.path));
  }
  std::filesystem::path victim = file.path.string() + ".victim";
  { std::ofstream(victim) << "keep\n"; }
  std::filesystem::create_symlink(victim, file.path.string() + ".tmp");
  ASSERT_TRUE(runSweep(o).ok());
  auto kept = readInputFile(victim.string());
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(*kept, "keep\n");
  auto saved = readInputFile(file.path.string());
  ASSERT_TRUE(saved.ok());
  EXPECT_NE(saved->find(kSweepCheckpointFormat), std::string::npos);
  std::filesystem::remove(victim);
  std::filesystem::remove(lockPath);
}

TEST(SweepCheckpoint, refusesACheckpointOfOtherParameters) {
  SweepOptions o;
  o.family = "nvidia_mma";
  o.maxLog2 = 1;
  o.shardIndex = 0;
  o.shardCount = 2;
  TempCheckpoint file("params");
  o.checkpoint = file.path.string();
  ASSERT_TRUE(runSweep(o).ok());
  o.maxLog2 = 2;
  o.shardIndex = 1;
  auto r = runSweep(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("--max-log2 1 there, 2 here"), std::string::npos)
      << r.error().str();
  EXPECT_NE(r.error().str().find("--shard 0/2 there, 1/2 here"), std::string::npos)
      << r.error().str();
}

TEST(SweepMerge, refusesMissingDuplicateAndMismatchedShards) {
  SweepOptions o;
  o.family = "nvidia_mma";
  o.maxLog2 = 1;
  o.shardCount = 3;
  std::vector<SweepReport> parts;
  for (int i = 0; i < 3; ++i) {
    o.shardIndex = i;
    auto r = runSweep(o);
    ASSERT_TRUE(r.ok());
    parts.push_back(*r);
  }
  auto error = [](const Result<SweepReport>& r) { return r.ok() ? "" : r.error().str(); };
  EXPECT_EQ(error(mergeSweepReports({parts[0], parts[1]}, {"a", "b"})),
            "shard 2/3 is missing (2 of 3 shard results given)");
  EXPECT_EQ(error(mergeSweepReports({parts[0], parts[1], parts[0]}, {"a", "b", "c"})),
            "c: shard 0/3 again (also a)");
  SweepReport other = parts[2];
  other.maxLog2 = 2;
  EXPECT_EQ(error(mergeSweepReports({parts[0], parts[1], other}, {"a", "b", "c"})),
            "c: a result of another sweep: --max-log2 2 here, 1 in a");
  SweepReport partial = parts[1];
  --partial.groups;
  EXPECT_NE(
      error(mergeSweepReports({parts[0], partial, parts[2]}, {"a", "b", "c"})).find("b: groups: "),
      std::string::npos);
  auto j = toJson(parts[0]);
  j.erase("pairs");
  EXPECT_EQ(error(sweepReportFromJson(j, "a.json")), "a.json: pairs: missing (a required field)");
}

// Counts are checked, never trusted (issue 31): a result that does not add up to its shard's
// deal, a total that would wrap, seconds past the bound, a field forged or misspelt.
TEST(SweepMerge, refusesCountsThatDoNotAddUp) {
  SweepOptions o;
  o.family = "nvidia_mma";
  o.maxLog2 = 1;
  o.shardCount = 2;
  std::vector<SweepReport> parts;
  for (int i = 0; i < 2; ++i) {
    o.shardIndex = i;
    auto r = runSweep(o);
    ASSERT_TRUE(r.ok());
    parts.push_back(*r);
  }
  auto error = [](const Result<SweepReport>& r) { return r.ok() ? "" : r.error().str(); };
  ASSERT_EQ(error(mergeSweepReports(parts, {"a", "b"})), "");
  // Fewer parameter sets than the deal gave the shard: not swept, whatever "groups" says.
  SweepReport fewer = parts[1];
  fewer.enumerated = 0;
  fewer.rejected = fewer.distinct = fewer.verified = fewer.renamedLayouts = 0;
  EXPECT_NE(error(mergeSweepReports({parts[0], fewer}, {"a", "b"})).find("b: encodings: 0, but "),
            std::string::npos);
  // A failure in a group of another shard.
  SweepReport elsewhere = parts[0];
  elsewhere.verifyFailures = 1;
  elsewhere.failures.push_back({"verify", "#x", "2x2", "m", 1000000});
  EXPECT_NE(error(mergeSweepReports({elsewhere, parts[1]}, {"a", "b"})).find("a: failed[0].group"),
            std::string::npos);
  // Totals that wrap: each count fits, their sum does not.
  SweepReport wrap0 = parts[0], wrap1 = parts[1];
  wrap0.verifyFailures = wrap1.verifyFailures = uint64_t{1} << 63;
  EXPECT_NE(error(mergeSweepReports({wrap0, wrap1}, {"a", "b"})).find("b: verify_failures: "),
            std::string::npos);
  wrap0 = parts[0];
  wrap1 = parts[1];
  wrap0.acceptFailures = wrap1.acceptFailures = uint64_t{1} << 63;
  EXPECT_NE(error(mergeSweepReports({wrap0, wrap1}, {"a", "b"})).find("b: accept_failures: "),
            std::string::npos);
  wrap0 = parts[0];
  wrap0.verifyFailures = uint64_t{1} << 63;
  wrap0.planFailures = uint64_t{1} << 63;
  EXPECT_NE(error(mergeSweepReports({wrap0, parts[1]}, {"a", "b"})).find("a: failures: "),
            std::string::npos);
  // Seconds that add up past the bound (1e308 + 1e308 was inf, written as null).
  wrap0 = parts[0];
  wrap1 = parts[1];
  wrap0.seconds = wrap1.seconds = kMaxSweepSeconds;
  EXPECT_NE(error(mergeSweepReports({wrap0, wrap1}, {"a", "b"})).find("b: seconds: "),
            std::string::npos);

  // The reader: every count against the others it is part of, the bounds, unknown fields.
  auto read = [&](const nlohmann::json& j) { return error(sweepReportFromJson(j, "a.json")); };
  EXPECT_EQ(read(toJson(parts[0])), "");
  auto j = toJson(parts[0]);
  j["verify_failures"] = uint64_t{1} << 63;
  j["failures"] = uint64_t{1} << 63;
  EXPECT_NE(read(j).find("a.json: verify_failures: 9223372036854775808 is more than the layouts "
                         "verified"),
            std::string::npos)
      << read(j);
  j = toJson(parts[0]);
  j["failures"] = 0u;
  j["plan_failures"] = 1u;
  EXPECT_NE(read(j).find("a.json: failures: 0, but "), std::string::npos) << read(j);
  j = toJson(parts[0]);
  j["seconds"] = 1e308;
  EXPECT_NE(read(j).find("a.json: seconds: expected a number from 0 to 1e+10"), std::string::npos)
      << read(j);
  j = toJson(parts[0]);
  j["verifed"] = 0u;
  EXPECT_NE(read(j).find("a.json: verifed: unknown field"), std::string::npos) << read(j);
  j = toJson(parts[0]);
  j["groups"] = -1;
  EXPECT_NE(read(j).find("a.json: groups: expected an integer"), std::string::npos) << read(j);
  j = toJson(parts[0]);
  j["failed"] = {
      {{"check", "verify"}, {"attribute", "#x"}, {"shape", "2"}, {"message", "m"}, {"group", 0}}};
  EXPECT_NE(read(j).find("a.json: failed: lists 1 verify failures, more than counted (0)"),
            std::string::npos)
      << read(j);
  j = toJson(parts[0]);
  j["num_warps"] = {3};
  EXPECT_NE(read(j).find("a.json: num_warps[0]: 3 is not a power of two"), std::string::npos)
      << read(j);
}

// Why one side rejects what the other answers is counted for every such encoding (a sweep keeps
// only its first failures): merged shards add their counts up, a result's reasons must add up to
// its count, and past kMaxAcceptReasons distinct reasons the rest share one bucket.
TEST(SweepMerge, addsUpTheReasonsOneSideRejects) {
  SweepOptions o;
  o.family = "nvidia_mma";
  o.maxLog2 = 1;
  o.shardCount = 2;
  std::vector<SweepReport> parts;
  for (int i = 0; i < 2; ++i) {
    o.shardIndex = i;
    auto r = runSweep(o);
    ASSERT_TRUE(r.ok());
    parts.push_back(*r);
  }
  parts[0].acceptFailures = 5;
  countAcceptReason(parts[0], "Triton rejects: A", 3);
  countAcceptReason(parts[0], "llcheck rejects: B", 2);
  parts[1].acceptFailures = 4;
  countAcceptReason(parts[1], "Triton rejects: A", 4);
  std::vector<SweepReport> read;
  for (const SweepReport& p : parts) {
    auto r = sweepReportFromJson(toJson(p), "shard");
    ASSERT_TRUE(r.ok()) << r.error().str();
    read.push_back(*r);
  }
  auto merged = mergeSweepReports(read, {"a", "b"});
  ASSERT_TRUE(merged.ok()) << merged.error().str();
  EXPECT_EQ(merged->acceptFailures, 9u);
  EXPECT_EQ(merged->acceptReasons,
            (std::map<std::string, uint64_t>{{"Triton rejects: A", 7}, {"llcheck rejects: B", 2}}));
  auto j = toJson(parts[0]);
  j["accept_reasons"]["Triton rejects: A"] = 2u;
  auto bad = sweepReportFromJson(j, "a.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().str(), "a.json: accept_reasons: add up to 4, not \"accept_failures\" (5)");
  SweepReport many;
  for (std::size_t i = 0; i < kMaxAcceptReasons + 3; ++i)
    countAcceptReason(many, "reason " + std::to_string(i));
  EXPECT_EQ(many.acceptReasons.size(), kMaxAcceptReasons + 1);
  EXPECT_EQ(many.acceptReasons[kOtherAcceptReasons], 3u);
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
  o.maxLog2 = 1;
  o.shardIndex = 3;
  o.shardCount = 3;
  EXPECT_FALSE(runSweep(o).ok());
  EXPECT_FALSE(planSweep(o).ok());
}

// Doing less work (docs/sweep.md): the premise, that #ttg.blocked with its dims renamed is the
// layout with its out dims renamed and has the same verdict, checked over every parameter set of
// rank 2 and 3 at small bounds; then each family's reduced sweep against its unreduced one.
TEST(SweepReduce, aBlockedEncodingRenamedIsItsLayoutRenamedWithTheSameVerdict) {
  uint64_t checked = 0, verified = 0;
  for (std::size_t rank : {2u, 3u})
    for (uint64_t s0 : {1u, 2u, 4u})
      for (uint64_t s1 : {1u, 2u})
        for (uint64_t s2 : {1u, 2u}) {
          std::vector<uint64_t> shape = {s0, s1, s2};
          shape.resize(rank);
          for (uint64_t warps : {1u, 2u}) {
            SweepOptions o;
            o.family = "blocked";
            // Every parameter set of this group, from the sweep's own enumeration of a tiny
            // space would be circular: written out here instead.
            std::vector<std::vector<uint64_t>> spts = {{}}, tpws = {{}}, wpcs = {{}};
            auto grow = [&](std::vector<std::vector<uint64_t>>& v, auto options) {
              std::vector<std::vector<uint64_t>> next;
              for (const auto& p : v)
                for (uint64_t x : options(p.size())) {
                  auto q = p;
                  q.push_back(x);
                  next.push_back(q);
                }
              v = next;
            };
            for (std::size_t d = 0; d < rank; ++d) {
              grow(spts, [&](std::size_t i) {
                std::vector<uint64_t> xs;
                for (uint64_t x = 1; x <= shape[i]; x *= 2)
                  xs.push_back(x);
                return xs;
              });
              grow(tpws, [](std::size_t) { return std::vector<uint64_t>{1, 2, 4, 8, 16, 32}; });
              grow(wpcs, [](std::size_t) { return std::vector<uint64_t>{1, 2}; });
            }
            auto product = [](const std::vector<uint64_t>& v, uint64_t want) {
              uint64_t p = 1;
              for (uint64_t x : v)
                p *= x;
              return p == want;
            };
            std::vector<uint64_t> order(rank);
            std::iota(order.begin(), order.end(), 0u);
            std::size_t n = 0;
            for (const auto& spt : spts)
              for (const auto& tpw : tpws)
                for (const auto& wpc : wpcs) {
                  if (!product(tpw, 32) || !product(wpc, warps))
                    continue;
                  std::vector<uint64_t> ord = order;
                  do {
                    auto l = blockedToLinearLayout(blocked(spt, tpw, wpc, ord), shape);
                    ASSERT_TRUE(l.ok());
                    std::vector<std::size_t> pi(rank);
                    std::iota(pi.begin(), pi.end(), std::size_t{0});
                    while (std::next_permutation(pi.begin(), pi.end())) {
                      // New dim d is old dim pi[d].
                      std::vector<std::size_t> inv(rank);
                      std::vector<uint64_t> s2v(rank), spt2(rank), tpw2(rank), wpc2(rank),
                          ord2(rank);
                      for (std::size_t d = 0; d < rank; ++d) {
                        inv[pi[d]] = d;
                        s2v[d] = shape[pi[d]];
                        spt2[d] = spt[pi[d]];
                        tpw2[d] = tpw[pi[d]];
                        wpc2[d] = wpc[pi[d]];
                      }
                      for (std::size_t i = 0; i < rank; ++i)
                        ord2[i] = inv[ord[i]];
                      auto r = blockedToLinearLayout(blocked(spt2, tpw2, wpc2, ord2), s2v);
                      ASSERT_TRUE(r.ok());
                      // Same bases, coordinates renamed (both list dim0, dim1, ... in order).
                      ASSERT_EQ(l->getOutDimNames(), r->getOutDimNames());
                      auto lb = l->getBases(), rb = r->getBases();
                      ASSERT_EQ(lb.size(), rb.size());
                      for (std::size_t k = 0; k < lb.size(); ++k) {
                        ASSERT_EQ(lb[k].bases.size(), rb[k].bases.size());
                        for (std::size_t b = 0; b < lb[k].bases.size(); ++b)
                          for (std::size_t d = 0; d < rank; ++d)
                            ASSERT_EQ(rb[k].bases[b][d], lb[k].bases[b][pi[d]]);
                      }
                      ++checked;
                      if (n++ % 16 == 0) {
                        auto va = verify(*l, VerifyOptions{}), vb = verify(*r, VerifyOptions{});
                        ASSERT_TRUE(va.ok() && vb.ok());
                        EXPECT_EQ(va->ok(), vb->ok());
                        ASSERT_EQ(va->properties.size(), vb->properties.size());
                        for (std::size_t k = 0; k < va->properties.size(); ++k)
                          EXPECT_EQ(va->properties[k].holds, vb->properties[k].holds)
                              << va->properties[k].name();
                        EXPECT_EQ(va->disagreements.empty(), vb->disagreements.empty());
                        ++verified;
                      }
                    }
                  } while (std::next_permutation(ord.begin(), ord.end()));
                }
            (void)o;
          }
        }
  EXPECT_GT(checked, 10000u);
  EXPECT_GT(verified, 500u);
}

TEST(SweepParts, thePartsOfAGroupAreItsEncodingsEachOnce) {
  // Cut by the multiset of sizePerThread, a group's parts hold its encodings, each exactly once,
  // and their counted sets add up to the group's.
  for (const std::vector<uint64_t>& shape :
       {std::vector<uint64_t>{4, 4}, {8, 2, 4}, {4, 4, 4}, {16, 1, 2}}) {
    SweepGroup g{shape, 32, 4};
    SweepOptions o;
    o.family = "blocked";
    std::multiset<std::string> whole, parted;
    for (const sweep::Encoding& e : sweep::encodingsOf(g, o))
      whole.insert(blockedAttributeText(*e.blocked));
    uint64_t sets = 0;
    std::vector<SweepGroup> parts = sweep::partsOf(g);
    EXPECT_GT(parts.size(), 1u);
    for (const SweepGroup& part : parts) {
      sets += sweep::setsOf(part, o.family);
      for (const sweep::Encoding& e : sweep::encodingsOf(part, o))
        parted.insert(blockedAttributeText(*e.blocked));
    }
    EXPECT_EQ(parted, whole) << sweep::shapeText(shape);
    EXPECT_EQ(sets, sweep::setsOf(g, o.family));
    EXPECT_EQ(sets, whole.size());
  }
}

/// key() with the out dims renamed by pi (pi[d]: the dim whose coordinates go to d). Written
/// here again rather than taken from Sweep.cpp, whose reduction this test checks.
std::vector<uint64_t> renamedKeyOf(const std::vector<uint64_t>& k,
                                   const std::vector<std::size_t>& pi) {
  std::vector<uint64_t> r = k;
  const std::size_t outs = pi.size();
  for (std::size_t d = 0; d < outs; ++d)
    r[d] = k[pi[d]];
  std::size_t at = outs;
  while (at < k.size()) {
    std::size_t n = k[at++];
    for (std::size_t b = 0; b < n; ++b, at += outs)
      for (std::size_t d = 0; d < outs; ++d)
        r[at + d] = k[at + pi[d]];
  }
  return r;
}

TEST(SweepParts, aSweepCutIntoPartsVerifiesEveryLayoutTheWholeGroupsDo) {
  // blocked up to 4x4x4 with groups of 8 or more elements cut into parts (the default cuts only
  // at 2^13): the layouts verified, as a set, are the uncut sweep's; with the reduction, every
  // one of a group that is run is verified or a renaming of its dims is. Under the sanitizers
  // (100 s at that bound) up to 2x2x2, cut from 4 elements: the same code paths.
#ifdef LLCHECK_SANITIZED_BUILD
  constexpr int kMaxLog2 = 1, kPartMinLog2 = 2;
  constexpr uint64_t kLeastChecked = 100;
#else
  constexpr int kMaxLog2 = 2, kPartMinLog2 = 3;
  constexpr uint64_t kLeastChecked = 1000;
#endif
  SweepOptions o;
  o.family = "blocked";
  o.maxLog2 = kMaxLog2;
  o.numWarps = {2};
  o.pairMaxLog2 = -1;
  o.reduce = false;
  using Keys = std::set<std::pair<std::size_t, std::vector<uint64_t>>>; // (rank, key)
  Keys whole, parted, reduced;
  auto into = [](Keys& keys) {
    return [&keys](const LinearLayout& l) {
      keys.insert({static_cast<std::size_t>(l.getNumOutDims()), sweep::key(l)});
    };
  };
  o.partMinLog2 = 64;
  o.verifiedLayout = into(whole);
  auto w = runSweep(o);
  o.partMinLog2 = kPartMinLog2;
  auto plan = planSweep(o);
  o.verifiedLayout = into(parted);
  auto p = runSweep(o);
  o.reduce = true;
  o.verifiedLayout = into(reduced);
  auto r = runSweep(o);
  ASSERT_TRUE(w.ok() && p.ok() && r.ok() && plan.ok());
  EXPECT_EQ(w->balance, kSweepBalance);
  EXPECT_EQ(p->balance, kSweepBalanceParts);
  EXPECT_EQ(balanceOf(*plan), kSweepBalanceParts);
  EXPECT_GT(p->groups, w->groups);
  EXPECT_EQ(p->enumerated, w->enumerated);
  EXPECT_EQ(p->rejected, w->rejected);
  EXPECT_EQ(p->failureCount() + w->failureCount() + r->failureCount(), 0u);
  EXPECT_EQ(parted, whole);
  // A layout that two sizePerThread multisets give is verified in each part.
  EXPECT_GE(p->verified, w->verified);
  uint64_t checked = 0;
  for (const auto& [rank, k] : whole) {
    std::vector<uint64_t> sizes(k.begin(), k.begin() + static_cast<std::ptrdiff_t>(rank));
    if (!std::is_sorted(sizes.begin(), sizes.end(), std::greater<>()))
      continue; // its group is a renaming of one run (the reduction's whole groups)
    ++checked;
    std::vector<std::size_t> pi(rank);
    std::iota(pi.begin(), pi.end(), std::size_t{0});
    bool covered = false;
    do {
      bool keeps = true;
      for (std::size_t d = 0; d < rank; ++d)
        keeps = keeps && sizes[pi[d]] == sizes[d];
      covered = covered || (keeps && reduced.count({rank, renamedKeyOf(k, pi)}) > 0);
    } while (!covered && std::next_permutation(pi.begin(), pi.end()));
    EXPECT_TRUE(covered) << "a layout over " << sweep::shapeText(sizes)
                         << " is neither verified nor a renaming of one verified";
  }
  EXPECT_GT(checked, kLeastChecked);
}

TEST(SweepReduce, theReducedSweepHasTheUnreducedVerdicts) {
  struct Case {
    const char* family;
    int maxLog2;
    std::vector<uint64_t> warps;
  };
  std::vector<Case> cases = {{"blocked", 1, {1, 4}},  {"swizzled_shared", kFamilyMaxLog2, {}},
                             {"nvmma_shared", 4, {}}, {"nvidia_mma", kFamilyMaxLog2, {4}},
                             {"amd_mfma", 1, {2}},    {"amd_wmma", 1, {4}}};
#ifndef LLCHECK_SANITIZED_BUILD
  // The two largest (a second each here, 100 s under the sanitizers); the first case takes
  // blocked's renamed groups through the same code.
  cases.push_back({"blocked", 2, {2}});
  cases.push_back({"slice", 1, {1, 2}});
#endif
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.family) + " --max-log2 " + std::to_string(c.maxLog2));
    SweepOptions o;
    o.family = c.family;
    o.maxLog2 = c.maxLog2;
    o.numWarps = c.warps;
    o.pairMaxLog2 = kPairMaxLog2;
    o.reduce = false;
    auto whole = runSweep(o);
    o.reduce = true;
    auto reduced = runSweep(o);
    ASSERT_TRUE(whole.ok() && reduced.ok());
    EXPECT_EQ(whole->renamedLayouts + whole->renamedPairs + whole->renamedGroups, 0u);
    // The same space, the same verdicts.
    EXPECT_EQ(reduced->groups, whole->groups);
    EXPECT_EQ(reduced->enumerated, whole->enumerated);
    EXPECT_EQ(reduced->failureCount(), whole->failureCount());
    EXPECT_EQ(whole->failureCount(), 0u) << toText(*whole);
    if (std::string(c.family) == "blocked") {
      EXPECT_GT(reduced->renamedGroups, 0u);
      EXPECT_LT(reduced->verified, whole->verified);
    } else {
      // Only renamings within a group: every distinct layout and pair is checked or skipped.
      EXPECT_EQ(reduced->rejected, whole->rejected);
      EXPECT_EQ(reduced->distinct, whole->distinct);
      EXPECT_EQ(reduced->verified + reduced->renamedLayouts, whole->verified);
      EXPECT_EQ(reduced->pairs + reduced->renamedPairs, whole->pairs);
    }
  }
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
