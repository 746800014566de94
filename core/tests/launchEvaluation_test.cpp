// One launch of a TTGIR kernel run for every program (LaunchEvaluation.h). The expected
// addresses and masks are computed here from the kernel's Python meaning (offsets =
// pid * N + arange(BLOCK), mask = offsets < end), not from the evaluator; the H200's counts on
// real kernels check the sectors built on them (gpu_oracle/real_kernels).
#include "llcheck/core/LaunchEvaluation.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace llcheck {
namespace {

// FlagGems' row kernel shape: each program moves row pid of an M x N f16 tensor in a loop of
// 64-column blocks, masked at N; the store is under `if pid < LIMIT`.
const char* kRowKernel =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func public @rows(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("x"(#loc)), %y: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("y"(#loc)), %N: i32 loc("N"(#loc)), %LIMIT: i32 loc("LIMIT"(#loc))) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32 loc(#loc1)
    %c64_i32 = arith.constant 64 : i32 loc(#loc1)
    %pid = tt.get_program_id x : i32 loc(#loc2)
    %row = arith.muli %pid, %N : i32 loc(#loc3)
    %xr = tt.addptr %x, %row : !tt.ptr<f16>, i32 loc(#loc4)
    %yr = tt.addptr %y, %row : !tt.ptr<f16>, i32 loc(#loc4)
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked> loc(#loc5)
    %n = tt.splat %N : i32 -> tensor<64xi32, #blocked> loc(#loc6)
    %xs = tt.splat %xr : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked> loc(#loc7)
    %ys = tt.splat %yr : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked> loc(#loc7)
    %run = arith.cmpi slt, %pid, %LIMIT : i32 loc(#loc8)
    scf.for %i = %c0_i32 to %N step %c64_i32  : i32 {
      %off = tt.splat %i : i32 -> tensor<64xi32, #blocked> loc(#loc9)
      %c = arith.addi %off, %cols : tensor<64xi32, #blocked> loc(#loc9)
      %m = arith.cmpi slt, %c, %n : tensor<64xi32, #blocked> loc(#loc10)
      %p = tt.addptr %xs, %c : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked> loc(#loc11)
      %v = tt.load %p, %m : tensor<64x!tt.ptr<f16>, #blocked> loc(#loc12)
      scf.if %run {
        %q = tt.addptr %ys, %c : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked> loc(#loc11)
        tt.store %q, %v, %m : tensor<64x!tt.ptr<f16>, #blocked> loc(#loc13)
      } loc(#loc14)
    } loc(#loc15)
    tt.return loc(#loc16)
  } loc(#loc)
} loc(#loc)
)";

constexpr int kLoadLine = 20, kStoreLine = 23;

struct Seen {
  std::vector<int64_t> bytes;
  std::vector<uint8_t> active;
};

TEST(LaunchEvaluation, RunsEveryProgramsAddressesMasksLoopsAndBranches) {
  LaunchArguments args;
  args.grid = {3, 1, 1};
  args.integers = {{"N", 100}, {"LIMIT", 2}};
  args.pointerOffsets = {{"y", 16}};
  std::map<std::pair<int, uint64_t>, std::vector<Seen>> seen; // (line, program) -> runs
  auto r = evaluateLaunch(kRowKernel, "rows.ttgir", args, [&](const AccessRun& run) {
    ASSERT_EQ(*run.shape, std::vector<uint64_t>{64});
    seen[{run.line, run.program[0]}].push_back(
        {{run.bytes.begin(), run.bytes.end()}, {run.active.begin(), run.active.end()}});
  });
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(r->stopped.empty()) << r->stopped;
  EXPECT_TRUE(r->notEvaluated.empty());
  EXPECT_EQ(r->accesses, (std::vector<int>{kLoadLine, kStoreLine}));
  EXPECT_EQ(r->programs, 3u);
  // Two column blocks per row (0 and 64 of 100); the store only where pid < LIMIT.
  EXPECT_EQ(r->runs.at(kLoadLine), 6u);
  EXPECT_EQ(r->runs.at(kStoreLine), 4u);
  for (uint64_t pid = 0; pid < 3; ++pid) {
    for (auto [line, base] : {std::pair{kLoadLine, 0}, std::pair{kStoreLine, 16}}) {
      if (line == kStoreLine && pid >= 2) {
        EXPECT_FALSE(seen.count({line, pid}));
        continue;
      }
      const auto& runs = seen.at({line, pid});
      ASSERT_EQ(runs.size(), 2u);
      for (int64_t block = 0; block < 2; ++block)
        for (int64_t i = 0; i < 64; ++i) {
          int64_t column = block * 64 + i;
          auto k = static_cast<std::size_t>(i);
          EXPECT_EQ(runs[static_cast<std::size_t>(block)].bytes[k],
                    base + 2 * (static_cast<int64_t>(pid) * 100 + column));
          EXPECT_EQ(runs[static_cast<std::size_t>(block)].active[k], column < 100 ? 1 : 0);
        }
    }
  }
}

TEST(LaunchEvaluation, AnIfConvertedBranchRunsPredicatedOff) {
  // The same launch as code with no forward branch (ptxas if-converted the scf.if): the store
  // of program 2 (pid >= LIMIT) executes too, every lane off and no byte moved.
  LaunchArguments args;
  args.grid = {3, 1, 1};
  args.integers = {{"N", 100}, {"LIMIT", 2}};
  args.ifConverted = true;
  std::map<uint64_t, int> stores, offStores; // program -> runs
  auto r = evaluateLaunch(kRowKernel, "rows.ttgir", args, [&](const AccessRun& run) {
    if (run.line != kStoreLine)
      return;
    ++stores[run.program[0]];
    offStores[run.program[0]] += run.bytes.empty() && run.active.empty() ? 1 : 0;
  });
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(r->notEvaluated.empty());
  EXPECT_EQ(r->runs.at(kStoreLine), 6u);
  EXPECT_EQ(stores, (std::map<uint64_t, int>{{0, 2}, {1, 2}, {2, 2}}));
  EXPECT_EQ(offStores, (std::map<uint64_t, int>{{0, 0}, {1, 0}, {2, 2}}));
}

// Inductor's persistent reduction shape: rows masked at a constant (r < 40 of 64) and columns
// at a bound that needs the program id; with no program id, the rows past 40 are off whatever
// the program, in either operand order, and nothing else is known.
TEST(LaunchEvaluation, WithNoProgramIdAMaskIsOffWhereItsConstantHalfIs) {
  const char* kernel =
      R"(#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func public @rows(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x"(#loc)), %N: i32 loc("N"(#loc))) attributes {noinline = false} {
    %c40 = arith.constant dense<40> : tensor<64xi32, #blocked> loc(#loc1)
    %pid = tt.get_program_id x : i32 loc(#loc2)
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked> loc(#loc3)
    %rmask = arith.cmpi slt, %r, %c40 : tensor<64xi32, #blocked> loc(#loc4)
    %n = arith.subi %N, %pid : i32 loc(#loc5)
    %ns = tt.splat %n : i32 -> tensor<64xi32, #blocked> loc(#loc6)
    %xmask = arith.cmpi slt, %r, %ns : tensor<64xi32, #blocked> loc(#loc7)
    %m1 = arith.andi %rmask, %xmask : tensor<64xi1, #blocked> loc(#loc8)
    %m2 = arith.andi %xmask, %rmask : tensor<64xi1, #blocked> loc(#loc8)
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked> loc(#loc9)
    %p = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked> loc(#loc10)
    %v = tt.load %p, %m1 : tensor<64x!tt.ptr<f32>, #blocked> loc(#loc11)
    %w = tt.load %p, %m2 : tensor<64x!tt.ptr<f32>, #blocked> loc(#loc12)
    %u = tt.load %p, %xmask : tensor<64x!tt.ptr<f32>, #blocked> loc(#loc13)
    tt.return loc(#loc14)
  } loc(#loc)
} loc(#loc)
)";
  LaunchArguments none;
  none.programIdsKnown = false;
  std::map<int, std::vector<uint8_t>> active;
  auto r = evaluateLaunch(kernel, "rows.ttgir", none, [&](const AccessRun& run) {
    active[run.line] = {run.active.begin(), run.active.end()};
  });
  ASSERT_TRUE(r.ok()) << r.error().str();
  std::vector<uint8_t> want(64, 0);
  for (int i = 0; i < 40; ++i)
    want[static_cast<std::size_t>(i)] = 1; // may be on: it depends on the program
  EXPECT_EQ(active.at(15), want);
  EXPECT_EQ(active.at(16), want);
  EXPECT_FALSE(active.count(17)); // nothing known of xmask alone
  EXPECT_TRUE(r->notEvaluated.count(17));
  // With the program ids every mask is known exactly, the partial knowledge is not used.
  LaunchArguments args;
  args.grid = {2, 1, 1};
  args.integers = {{"N", 50}};
  std::map<std::pair<int, uint64_t>, std::vector<uint8_t>> exact;
  auto e = evaluateLaunch(kernel, "rows.ttgir", args, [&](const AccessRun& run) {
    exact[{run.line, run.program[0]}] = {run.active.begin(), run.active.end()};
  });
  ASSERT_TRUE(e.ok()) << e.error().str();
  for (uint64_t pid = 0; pid < 2; ++pid)
    for (int line : {15, 16}) {
      std::vector<uint8_t> m(64, 0);
      for (int i = 0; i < 64; ++i)
        m[static_cast<std::size_t>(i)] = i < 40 && i < 50 - static_cast<int>(pid);
      EXPECT_EQ(exact.at({line, pid}), m) << line << " " << pid;
    }
}

TEST(LaunchEvaluation, SaysWhatTheLaunchDoesNotFix) {
  LaunchArguments args;
  args.grid = {2, 1, 1};
  args.integers = {{"N", 100}}; // no LIMIT: the store's branch is not known
  int visits = 0;
  auto r = evaluateLaunch(kRowKernel, "rows.ttgir", args, [&](const AccessRun&) { ++visits; });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(visits, 4); // the loads, 2 blocks x 2 programs
  EXPECT_FALSE(r->notEvaluated.count(kLoadLine));
  ASSERT_TRUE(r->notEvaluated.count(kStoreLine));
  EXPECT_NE(r->notEvaluated.at(kStoreLine).find("the launch gives no value for %LIMIT"),
            std::string::npos)
      << r->notEvaluated.at(kStoreLine);
  EXPECT_FALSE(r->runs.count(kStoreLine));

  // Without N the loop's bound is unknown: nothing in it runs.
  args.integers = {{"LIMIT", 1}};
  auto n = evaluateLaunch(kRowKernel, "rows.ttgir", args, [&](const AccessRun&) { ++visits; });
  ASSERT_TRUE(n.ok());
  EXPECT_TRUE(n->notEvaluated.count(kLoadLine));
  EXPECT_NE(n->notEvaluated.at(kLoadLine).find("bounds the launch does not fix"),
            std::string::npos);
}

TEST(LaunchEvaluation, StopsAtItsLimitsAndRefusesAnEmptyGrid) {
  LaunchArguments args;
  args.grid = {1000, 1, 1};
  args.integers = {{"N", 4096}, {"LIMIT", 0}};
  LaunchLimits limits;
  limits.maxElementOps = 10000;
  auto r = evaluateLaunch(
      kRowKernel, "rows.ttgir", args, [](const AccessRun&) {}, limits);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->stopped.find("more than 10000 element operations"), std::string::npos);
  args.grid = {0, 1, 1};
  auto e = evaluateLaunch(kRowKernel, "rows.ttgir", args, [](const AccessRun&) {});
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().str().find("has no program"), std::string::npos);
  // A kernel function with no op in it, the file's last: nothing to run, nothing read past it.
  args.grid = {1, 1, 1};
  for (const char* empty : {"tt.func public @k() {\n}\n", "tt.func public @k() {\n"}) {
    auto n = evaluateLaunch(empty, "empty.ttgir", args, [](const AccessRun&) {});
    if (n.ok()) {
      EXPECT_TRUE(n->runs.empty());
    }
  }
}

// Liger's cross entropy: an early return under `if y == ignore_index`, with y loaded, is a
// cf.cond_br between blocks; what follows it depends on memory.
TEST(LaunchEvaluation, FollowsBlocksAndStopsAtABranchOnMemory) {
  const std::string text =
      R"(#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @k(%x: !tt.ptr<f32> loc("x"(#loc)), %t: !tt.ptr<i32> loc("t"(#loc)), %F: i32 loc("F"(#loc))) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32 loc(#loc1)
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked> loc(#loc2)
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked> loc(#loc3)
    %p = tt.addptr %xs, %r : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked> loc(#loc4)
    %f = arith.cmpi eq, %F, %c0 : i32 loc(#loc5)
    cf.cond_br %f, ^bb1, ^bb2 loc(#loc6)
  ^bb1:  // pred: ^bb0
    %v = tt.load %p : tensor<32x!tt.ptr<f32>, #blocked> loc(#loc7)
    tt.return loc(#loc8)
  ^bb2:  // pred: ^bb0
    %y = tt.load %t : !tt.ptr<i32> loc(#loc9)
    %g = arith.cmpi eq, %y, %c0 : i32 loc(#loc10)
    cf.cond_br %g, ^bb3, ^bb4 loc(#loc11)
  ^bb3:  // pred: ^bb2
    tt.store %p, %p : tensor<32x!tt.ptr<f32>, #blocked> loc(#loc12)
    tt.return loc(#loc8)
  ^bb4:  // pred: ^bb2
    tt.return loc(#loc8)
  } loc(#loc)
} loc(#loc)
)";
  for (int64_t F : {0, 1}) {
    LaunchArguments args;
    args.integers = {{"F", F}};
    int loads = 0;
    auto r = evaluateLaunch(text, "k.ttgir", args, [&](const AccessRun& run) {
      EXPECT_EQ(run.line, 11);
      ++loads;
    });
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(loads, F == 0 ? 1 : 0);
    EXPECT_EQ(r->notEvaluated.count(18), F == 0 ? 0u : 1u); // the store after the load of t
  }
}

// fla's norm backward, shortened: program pid does rows [3 pid, min(3 pid + 3, T)); the
// weights' load (mask from constants alone) and its extf are only used in the loop; the bias
// load, masked on the argument N, is used there too.
const char* kRowLoop =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func public @rows(%w: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("w"(#loc)), %b: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("b"(#loc)), %T: i32 loc("T"(#loc)), %N: i32 loc("N"(#loc))) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32 loc(#loc1)
    %c3_i32 = arith.constant 3 : i32 loc(#loc1)
    %c64 = arith.constant dense<64> : tensor<64xi32, #blocked> loc(#loc1)
    %pid = tt.get_program_id x : i32 loc(#loc2)
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked> loc(#loc5)
    %m = arith.cmpi slt, %cols, %c64 : tensor<64xi32, #blocked> loc(#loc10)
    %n = tt.splat %N : i32 -> tensor<64xi32, #blocked> loc(#loc6)
    %mn = arith.cmpi slt, %cols, %n : tensor<64xi32, #blocked> loc(#loc10)
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked> loc(#loc7)
    %wp = tt.addptr %ws, %cols : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked> loc(#loc11)
    %wv = tt.load %wp, %m : tensor<64x!tt.ptr<f16>, #blocked> loc(#loc12)
    %wf = arith.extf %wv : tensor<64xf16, #blocked> to tensor<64xf32, #blocked> loc(#loc12)
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked> loc(#loc7)
    %bp = tt.addptr %bs, %cols : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked> loc(#loc11)
    %bv = tt.load %bp, %mn : tensor<64x!tt.ptr<f16>, #blocked> loc(#loc12)
    %lo = arith.muli %pid, %c3_i32 : i32 loc(#loc3)
    %hi0 = arith.addi %lo, %c3_i32 : i32 loc(#loc3)
    %hi = arith.minsi %hi0, %T : i32 loc(#loc3)
    scf.for %i = %lo to %hi step %c1_i32  : i32 {
      %s = arith.addf %wf, %wf : tensor<64xf32, #blocked> loc(#loc9)
      %t = arith.addf %bv, %bv : tensor<64xf16, #blocked> loc(#loc9)
    } loc(#loc15)
    tt.return loc(#loc16)
  } loc(#loc)
} loc(#loc)
)";

constexpr int kWeightsLine = 14, kBiasLine = 18, kRowLoopLine = 22;

TEST(LaunchEvaluation, ALoadTheSassShowsSunkRunsOnlyWhereItsLoopDoes) {
  LaunchArguments args;
  args.grid = {4, 1, 1};
  args.integers = {{"T", 7}, {"N", 64}}; // rows 0-2, 3-5, 6, none: three programs loop
  auto plain = evaluateLaunch(kRowLoop, "rows.ttgir", args, [](const AccessRun&) {});
  ASSERT_TRUE(plain.ok()) << plain.error().str();
  ASSERT_TRUE(plain->stopped.empty()) << plain->stopped;
  // Only the weights' load may sink: the bias load's mask depends on N.
  EXPECT_EQ(plain->sinkableLoads, (std::map<int, int>{{kWeightsLine, kRowLoopLine}}));
  EXPECT_EQ(plain->runs.at(kWeightsLine), 4u);
  EXPECT_EQ(plain->runs.at(kRowLoopLine), 4u);
  args.sunkLoads = {kWeightsLine, kBiasLine};
  std::map<int, int> visits;
  auto sunk =
      evaluateLaunch(kRowLoop, "rows.ttgir", args, [&](const AccessRun& r) { ++visits[r.line]; });
  ASSERT_TRUE(sunk.ok());
  EXPECT_EQ(sunk->runs.at(kWeightsLine), 3u);
  EXPECT_EQ(visits[kWeightsLine], 3);
  EXPECT_EQ(sunk->runs.at(kBiasLine), 4u); // not a candidate: where it stands
  EXPECT_EQ(visits[kBiasLine], 4);
}

} // namespace
} // namespace llcheck
