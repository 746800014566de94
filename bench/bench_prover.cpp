// Google Benchmark suite for the prover (issue 5: "median proof time <= 20 ms per property for
// layouts of <= 32 bits; the distribution over the corpus"). Figures in bench/README.md.
//
// Cases: every layout of corpus/layouts and corpus/illegal, plus a blocked and a swizzled shared
// layout scaled to 16, 24 and 32 input bits (the corpus stops at 12). Each property that
// `llcheck verify` asks Z3 for is timed on its own, encoding and solving included:
//
//   BM_Prove/<property>/<layout>   injective, surjective, invertible on every layout;
//                                  distributed on distributed layouts, memory on memory ones
//
// After the runs, main() prints the distribution per property over the layouts (median, 90th
// percentile, max of each layout's median time), the figures the issue asks for.
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/prover/Prover.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace llcheck;

struct Case {
  std::string name;
  LinearLayout layout;
};

struct Property {
  const char* name;
  prover::ProofResult (*prove)(const LinearLayout&, const prover::ProverOptions&);
  bool (*applies)(const LinearLayout&);
};

const std::vector<Property>& properties() {
  static const std::vector<Property> ps = {
      {"injective", prover::proveInjective, [](const LinearLayout&) { return true; }},
      {"surjective", prover::proveSurjective, [](const LinearLayout&) { return true; }},
      {"invertible", prover::proveInvertible, [](const LinearLayout&) { return true; }},
      {"distributed", prover::proveDistributed,
       [](const LinearLayout& l) { return classify(l) == LayoutKind::Distributed; }},
      {"memory", prover::proveMemory,
       [](const LinearLayout& l) { return classify(l) == LayoutKind::Memory; }},
  };
  return ps;
}

std::vector<Case> gCases;

/// Shapes whose element count is 2^bits, for the scaled layouts.
std::vector<uint64_t> shapeOf(int bits) {
  return {uint64_t{1} << (bits / 2), uint64_t{1} << (bits - bits / 2)};
}

void BM_Prove(benchmark::State& state, const Property* p, const Case* c) {
  for (auto _ : state) {
    auto r = p->prove(c->layout, {});
    benchmark::DoNotOptimize(r);
  }
}

/// Keeps each benchmark's median real time (or its only run) for the summary.
class Collector : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      std::string name = r.benchmark_name();
      bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      if (median || (r.run_type == Run::RT_Iteration && r.repetitions <= 1)) {
        // "BM_Prove/<property>/<layout>_median" -> property, in ms.
        std::string rest = name.substr(name.find('/') + 1);
        std::string property = rest.substr(0, rest.find('/'));
        // Every benchmark here is registered in milliseconds.
        ms[property].push_back(r.GetAdjustedRealTime());
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, std::vector<double>> ms;
};

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  // Nearest rank: the smallest value with at least q of the values at or below it.
  std::size_t k =
      static_cast<std::size_t>(std::max(1.0, std::ceil(q * static_cast<double>(v.size()))));
  return v[std::min(k, v.size()) - 1];
}

} // namespace

int main(int argc, char** argv) {
  for (const char* dir : {"/corpus/layouts", "/corpus/illegal"}) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(std::string(LLCHECK_SOURCE_DIR) + dir))
      if (e.path().extension() == ".json")
        files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
      auto loaded = loadSpec(f, {});
      if (!loaded.ok()) {
        std::cerr << "bench_prover: " << loaded.error().str() << "\n";
        return 1;
      }
      gCases.push_back({std::filesystem::path(f).stem().string(), loaded->layout});
    }
  }
  const char* kBlocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
                         "warpsPerCTA = [4, 1], order = [1, 0]}>";
  const char* kSwizzled =
      "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>";
  for (int bits : {16, 24, 32})
    for (auto [name, attr] : {std::pair{"blocked", kBlocked}, std::pair{"swizzled", kSwizzled}}) {
      SpecOptions o;
      o.shape = shapeOf(bits);
      auto loaded = loadSpec(attr, o);
      if (!loaded.ok() || loaded->layout.getTotalInDimSizeLog2() != bits) {
        std::cerr << "bench_prover: scaled " << name << " at " << bits << " bits does not load\n";
        return 1;
      }
      gCases.push_back(
          {std::string("scaled-") + name + "-" + std::to_string(bits) + "bit", loaded->layout});
    }
  // Check once, outside the timing, that Z3 decides every case as the algebra does: a benchmark
  // of proofs that fail or time out would time the wrong thing.
  for (const Case& c : gCases) {
    auto report = verify(c.layout, {});
    if (!report.ok())
      return 1;
    prover::addProofs(*report, {});
    if (!report->disagreements.empty() || !report->unknowns().empty()) {
      std::cerr << "bench_prover: " << c.name << ": z3 does not decide as the algebra does\n";
      return 1;
    }
  }
  for (const Property& p : properties())
    for (const Case& c : gCases)
      if (p.applies(c.layout))
        benchmark::RegisterBenchmark(("BM_Prove/" + std::string(p.name) + "/" + c.name).c_str(),
                                     BM_Prove, &p, &c)
            ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  std::printf("\nproof time per property over %zu layouts (ms, each layout's median)\n",
              gCases.size());
  std::printf("%-12s %8s %8s %8s %8s\n", "property", "layouts", "median", "p90", "max");
  for (const Property& p : properties()) {
    auto it = collector.ms.find(p.name);
    if (it == collector.ms.end() || it->second.empty())
      continue;
    const std::vector<double>& v = it->second;
    std::printf("%-12s %8zu %8.2f %8.2f %8.2f\n", p.name, v.size(), percentile(v, 0.5),
                percentile(v, 0.9), *std::max_element(v.begin(), v.end()));
  }
  benchmark::Shutdown();
  return 0;
}
