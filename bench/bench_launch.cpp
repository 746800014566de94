// Google Benchmark suite for one launch's evaluation (LaunchEvaluation.h): what `report
// --launches` costs per launch of a real kernel. Figures in bench/README.md.
//
// The kernel is Triton 3.6's tutorial matmul as it ran on the H200
// (gpu_oracle/ldgsts_rule/matmul/matmul-K1024.ttgir: 128 x 128 x 32 tiles, 4 warps, 3 stages), at
// the launch run.py made (M = N = 256, four programs) for K = 32, 256 and 1024: the K loop's
// trips grow with K, the rest of the kernel does not. Each reports its element operations per
// second (`items_per_second`) and the visited accesses.
//
//   BM_EvaluateLaunch/<K>      the whole evaluation, text in, counts out
//   BM_EvaluateLaunchNoVisit/<K> the same with a visitor that does nothing with the access
//   BM_EvaluateOneProgram/32   one program, one K iteration: mostly the reading of the text
#include "llcheck/core/LaunchEvaluation.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

using namespace llcheck;

const std::string& kernelText() {
  static const std::string text = [] {
    std::ifstream in(std::string(LLCHECK_SOURCE_DIR) +
                     "/gpu_oracle/ldgsts_rule/matmul/matmul-K1024.ttgir");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  return text;
}

LaunchArguments launchAt(int64_t k) {
  LaunchArguments a;
  a.grid = {4, 1, 1};
  a.integers = {{"M", 256},       {"N", 256},         {"K", k},
                {"stride_am", k}, {"stride_bk", 256}, {"stride_cm", 256}};
  return a;
}

void run(benchmark::State& state, bool sumBytes, uint64_t programs = 4) {
  const std::string& text = kernelText();
  LaunchArguments arguments = launchAt(state.range(0));
  arguments.grid[0] = programs;
  uint64_t ops = 0, visits = 0;
  int64_t sum = 0;
  for (auto _ : state) {
    auto e = evaluateLaunch(text, "matmul-K1024.ttgir", arguments, [&](const AccessRun& r) {
      ++visits;
      if (sumBytes)
        for (int64_t b : r.bytes)
          sum += b;
    });
    if (!e.ok() || !e->stopped.empty() || !e->notEvaluated.empty()) {
      state.SkipWithError(e.ok() ? "the launch was not evaluated whole" : "no evaluation");
      return;
    }
    ops += e->elementOps;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(ops));
  state.counters["accesses"] =
      benchmark::Counter(static_cast<double>(visits) / static_cast<double>(state.iterations()));
}

void BM_EvaluateLaunch(benchmark::State& state) {
  run(state, true);
}
void BM_EvaluateLaunchNoVisit(benchmark::State& state) {
  run(state, false);
}

// One program of one K iteration: mostly reading the kernel's text (the in-process baseline
// the others are a multiple of).
void BM_EvaluateOneProgram(benchmark::State& state) {
  run(state, false, 1);
}

BENCHMARK(BM_EvaluateLaunch)->Arg(32)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvaluateLaunchNoVisit)->Arg(32)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvaluateOneProgram)->Arg(32)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
