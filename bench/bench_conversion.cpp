// Google Benchmark suite for conversion planning (issue: "optimal swizzle <= 20 us, bank-conflict
// prediction <= 5 us median for 32-bit layouts"). Figures in bench/README.md.
//
// Cases: conversions Triton performs between its encodings (blocked, its transpose, nvidia_mma,
// dot operands, slices) over typical tile shapes, each paired with the shared layouts Triton
// uses (swizzled_shared, nvmma_shared). Layouts are built once; only the planning is timed.
//
//   BM_BankConflicts/<case>          store and load of REG to/from SHARED, rank formula
//   BM_BankConflictsEnumerated/<case> the same counts by enumerating every address (the path
//                                    #ttg.padded_shared needs): the in-process baseline
//   BM_OptimalSwizzle/<case>         the optimal shared layout and its predicted counts
//   BM_PlanConversion/<case>         the kind of movement only
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"

#include <benchmark/benchmark.h>

#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace llcheck;

struct Pair {
  std::string name;
  std::string src, dst, shared;
  std::vector<uint64_t> shape;
  int bits;
};

const char* kBlockedRow =
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
    "order = [1, 0]}>";
const char* kBlockedCol =
    "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], "
    "order = [0, 1]}>";
const char* kMma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
                   "instrShape = [16, 8]}>";
const char* kMmaV3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                     "instrShape = [16, 128, 16]}>";
const char* kDotA = "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, "
                    "versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 1}>";
const char* kSwizzled =
    "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>";
const char* kRowMajor =
    "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";
const char* kNvmma = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                     "elementBitWidth = 32}>";

std::vector<Pair> pairs() {
  return {
      {"blocked_transpose_64x64", kBlockedRow, kBlockedCol, kSwizzled, {64, 64}, 32},
      {"blocked_transpose_128x128", kBlockedRow, kBlockedCol, kRowMajor, {128, 128}, 32},
      {"blocked_to_mma_64x64", kBlockedRow, kMma, kSwizzled, {64, 64}, 32},
      {"mma_to_blocked_128x128", kMma, kBlockedRow, kSwizzled, {128, 128}, 32},
      {"mma_to_dot_a_64x64", kMma, kDotA, kRowMajor, {64, 64}, 32},
      {"mmav3_to_blocked_128x128", kMmaV3, kBlockedRow, kNvmma, {128, 128}, 32},
      {"blocked_to_mma_64x64_f16", kBlockedRow, kMma, kSwizzled, {64, 64}, 16},
  };
}

struct Loaded {
  Pair pair;
  LinearLayout src, dst, shared;
  SharedMemoryModel model;
};

std::vector<Loaded> gCases;

LinearLayout load(const std::string& attr, const std::vector<uint64_t>& shape) {
  LayoutContext o;
  o.shape = shape;
  return loadSpec(attr, o).value().layout;
}

void BM_BankConflicts(benchmark::State& state, const Loaded* c) {
  for (auto _ : state) {
    auto r = bankConflicts(c->src, c->shared, {}, c->pair.bits, c->model);
    benchmark::DoNotOptimize(r);
  }
}

void BM_BankConflictsEnumerated(benchmark::State& state, const Loaded* c) {
  // A padding that moves nothing sends the count down the enumerating path.
  std::vector<IntervalPad> noPad = {{uint64_t{1} << 40, 0}};
  for (auto _ : state) {
    auto r = bankConflicts(c->src, c->shared, noPad, c->pair.bits, c->model);
    benchmark::DoNotOptimize(r);
  }
}

void BM_OptimalSwizzle(benchmark::State& state, const Loaded* c) {
  for (auto _ : state) {
    auto r = optimalSwizzle(c->src, c->dst, c->pair.bits, c->model);
    benchmark::DoNotOptimize(r);
  }
}

void BM_PlanConversion(benchmark::State& state, const Loaded* c) {
  for (auto _ : state) {
    auto r = planConversion(c->src, c->dst);
    benchmark::DoNotOptimize(r);
  }
}

} // namespace

int main(int argc, char** argv) {
  SharedMemoryModel sm90 = sharedMemoryModel("sm90").value();
  for (const Pair& p : pairs())
    gCases.push_back(
        {p, load(p.src, p.shape), load(p.dst, p.shape), load(p.shared, p.shape), sm90});
  // Check once, outside the timing, that every case is a real one.
  for (const Loaded& c : gCases) {
    auto b = bankConflicts(c.src, c.shared, {}, c.pair.bits, c.model);
    auto e = bankConflicts(c.src, c.shared, {{uint64_t{1} << 40, 0}}, c.pair.bits, c.model);
    auto s = optimalSwizzle(c.src, c.dst, c.pair.bits, c.model);
    if (!b.ok() || !e.ok() || !s.ok() || b->store.wavefronts != e->store.wavefronts ||
        b->load.wavefronts != e->load.wavefronts) {
      std::cerr << "bench_conversion: case " << c.pair.name << " does not plan: "
                << (!b.ok()   ? b.error().str()
                    : !s.ok() ? s.error().str()
                              : "counts differ")
                << "\n";
      return 1;
    }
  }
  for (const Loaded& c : gCases) {
    benchmark::RegisterBenchmark(("BM_BankConflicts/" + c.pair.name).c_str(), BM_BankConflicts, &c);
    benchmark::RegisterBenchmark(("BM_BankConflictsEnumerated/" + c.pair.name).c_str(),
                                 BM_BankConflictsEnumerated, &c);
    benchmark::RegisterBenchmark(("BM_OptimalSwizzle/" + c.pair.name).c_str(), BM_OptimalSwizzle,
                                 &c);
    benchmark::RegisterBenchmark(("BM_PlanConversion/" + c.pair.name).c_str(), BM_PlanConversion,
                                 &c);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
