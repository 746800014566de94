// Google Benchmark suite for the prover (issue 5: "median proof time <= 20 ms per property for
// layouts of <= 32 bits; the distribution over the corpus"). Figures in bench/README.md.
//
// Cases: every layout of corpus/layouts and corpus/illegal, plus a blocked and a swizzled shared
// layout scaled to 16, 24 and 32 input bits (the corpus stops at 12). Each property that
// `llcheck verify` asks Z3 for is timed on its own, encoding and solving included:
//
//   BM_Prove/<property>/<layout>   injective, surjective, invertible on every layout;
//                                  distributed on distributed layouts, memory on memory ones
//   BM_Prove/<property>/<pair>     what `llcheck convert` asks Z3 for: conversion on every
//                                  pair; shared_round_trip, store_banks, load_banks (ld/st.shared
//                                  or ldmatrix/stmatrix) and swizzle_bound on pairs through shared
//                                  memory. The
//                                  pairs: every two distributed corpus layouts over the same
//                                  tensor, and 24 pseudo-random #ttg.blocked pairs (fixed seed)
//                                  over 64x64 and 128x128, f16 and f32, on sm90.
//
// After the runs, main() prints the distribution per property over the layouts (median, 90th
// percentile, max of each layout's median time), the figures the issue asks for.
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/Ldmatrix.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/prover/Prover.h"
#include "llcheck/prover/SharedProofs.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace llcheck;

struct Case {
  std::string name;
  LinearLayout layout;
};

struct ProvedProperty {
  const char* name;
  prover::ProofResult (*prove)(const LinearLayout&, const prover::ProverOptions&);
  bool (*applies)(const LinearLayout&);
};

const std::vector<ProvedProperty>& properties() {
  static const std::vector<ProvedProperty> ps = {
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

/// A conversion and, through shared memory, the layout convert would build for it.
struct ConvCase {
  std::string name;
  ConversionPlan plan;
  std::optional<OptimalSwizzle> swizzle;
  int bits = 16;
  SharedMemoryModel model;
};

struct ConvProperty {
  const char* name;
  prover::ProofResult (*prove)(const ConvCase&, const prover::ProverOptions&);
  bool (*applies)(const ConvCase&);
};

prover::ProofResult proveBanks(const ConvCase& c, bool store, const prover::ProverOptions& o) {
  const OptimalSwizzle& s = *c.swizzle;
  const SideAccess& side = store ? s.store : s.load;
  const LinearLayout& reg = store ? c.plan.src : c.plan.dst;
  SharedAccessKind kind = store ? SharedAccessKind::Store : SharedAccessKind::Load;
  if (side.instruction == SharedInstruction::Vector)
    return prover::proveBankBound(reg, s.shared, c.bits, c.model, kind, side.count, o);
  // As `llcheck convert` does: core's ldmatrix plan gives the count per matrix.
  bool trans = side.instruction == SharedInstruction::MatrixTrans;
  auto plan = ldmatrix(reg, s.shared, {c.bits, trans});
  return prover::proveMatrixBankBound(reg, s.shared, c.bits, trans, c.model, kind,
                                      plan.ok() ? plan->wavefrontsPerMatrix : 0, o);
}

const std::vector<ConvProperty>& convProperties() {
  static const std::vector<ConvProperty> ps = {
      {"conversion",
       [](const ConvCase& c, const prover::ProverOptions& o) {
         return prover::proveConversion(c.plan.src, c.plan.dst, c.plan.conversion, o);
       },
       [](const ConvCase&) { return true; }},
      {"shared_round_trip",
       [](const ConvCase& c, const prover::ProverOptions& o) {
         return prover::proveSharedRoundTrip(c.plan.src, c.swizzle->shared, c.plan.dst, o);
       },
       [](const ConvCase& c) { return c.swizzle.has_value(); }},
      {"store_banks",
       [](const ConvCase& c, const prover::ProverOptions& o) { return proveBanks(c, true, o); },
       [](const ConvCase& c) { return c.swizzle.has_value(); }},
      {"load_banks",
       [](const ConvCase& c, const prover::ProverOptions& o) { return proveBanks(c, false, o); },
       [](const ConvCase& c) { return c.swizzle.has_value(); }},
      {"swizzle_bound",
       [](const ConvCase& c, const prover::ProverOptions& o) {
         return prover::proveSwizzleBound(*c.swizzle, o);
       },
       [](const ConvCase& c) { return c.swizzle.has_value(); }},
  };
  return ps;
}

std::vector<ConvCase> gConv;

void BM_ProveConversion(benchmark::State& state, const ConvProperty* p, const ConvCase* c) {
  for (auto _ : state) {
    auto r = p->prove(*c, {});
    benchmark::DoNotOptimize(r);
  }
}

/// Adds SRC -> DST if it plans; false when the pair is no conversion (other tensor, ...).
bool addConversion(const std::string& name, const LinearLayout& src, const LinearLayout& dst,
                   int bits) {
  auto plan = planConversion(src, dst);
  if (!plan.ok() || plan->kind == ConversionKind::InterCta)
    return false;
  ConvCase c{name, *plan, std::nullopt, bits, sharedMemoryModel("sm90").value()};
  if (plan->kind == ConversionKind::SharedMemory) {
    auto s = optimalSwizzle(src, dst, bits, c.model);
    if (!s.ok())
      return false;
    c.swizzle = *s;
  }
  gConv.push_back(std::move(c));
  return true;
}

/// Every two distributed corpus layouts over one tensor, and pseudo-random blocked pairs.
void conversionCases() {
  std::vector<const Case*> distributed;
  for (const Case& c : gCases)
    if (c.name.rfind("scaled-", 0) != 0 && classify(c.layout) == LayoutKind::Distributed)
      distributed.push_back(&c);
  for (const Case* a : distributed)
    for (const Case* b : distributed)
      if (a != b)
        (void)addConversion(a->name + "->" + b->name, a->layout, b->layout, 16);
  std::mt19937 rng(5);
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto blocked = [&]() {
    int tpw0 = pick(0, 5), w0 = pick(0, 2);
    bool rowMajor = pick(0, 1) == 1;
    return "#ttg.blocked<{sizePerThread = [" + std::to_string(1 << pick(0, 3)) + ", " +
           std::to_string(1 << pick(0, 3)) + "], threadsPerWarp = [" + std::to_string(1 << tpw0) +
           ", " + std::to_string(1 << (5 - tpw0)) + "], warpsPerCTA = [" + std::to_string(1 << w0) +
           ", " + std::to_string(1 << (2 - w0)) + "], order = [" + (rowMajor ? "1, 0" : "0, 1") +
           "]}>";
  };
  for (int i = 0; i < 24; ++i) {
    int side = i % 2 == 0 ? 64 : 128;
    LayoutContext o;
    o.shape = {static_cast<uint64_t>(side), static_cast<uint64_t>(side)};
    auto a = loadSpec(blocked(), o), b = loadSpec(blocked(), o);
    if (a.ok() && b.ok())
      (void)addConversion("blocked-" + std::to_string(side) + "-" + std::to_string(i), a->layout,
                          b->layout, i % 4 < 2 ? 16 : 32);
  }
}

/// Shapes whose element count is 2^bits, for the scaled layouts.
std::vector<uint64_t> shapeOf(int bits) {
  return {uint64_t{1} << (bits / 2), uint64_t{1} << (bits - bits / 2)};
}

void BM_Prove(benchmark::State& state, const ProvedProperty* p, const Case* c) {
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
      LayoutContext o;
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
  conversionCases();
  for (const ConvCase& c : gConv)
    for (const ConvProperty& p : convProperties())
      if (p.applies(c) && p.prove(c, {}).outcome != prover::Outcome::Proven) {
        std::cerr << "bench_prover: " << c.name << ": z3 does not prove " << p.name << "\n";
        return 1;
      }
  for (const ConvProperty& p : convProperties())
    for (const ConvCase& c : gConv)
      if (p.applies(c))
        benchmark::RegisterBenchmark(("BM_Prove/" + std::string(p.name) + "/" + c.name).c_str(),
                                     BM_ProveConversion, &p, &c)
            ->Unit(benchmark::kMillisecond);
  for (const ProvedProperty& p : properties())
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
  std::printf("\nproof time per property over %zu layouts and %zu conversions (ms, each case's "
              "median)\n",
              gCases.size(), gConv.size());
  std::printf("%-18s %8s %8s %8s %8s\n", "property", "cases", "median", "p90", "max");
  std::vector<const char*> names;
  for (const ProvedProperty& p : properties())
    names.push_back(p.name);
  for (const ConvProperty& p : convProperties())
    names.push_back(p.name);
  for (const char* name : names) {
    auto it = collector.ms.find(name);
    if (it == collector.ms.end() || it->second.empty())
      continue;
    const std::vector<double>& v = it->second;
    std::printf("%-18s %8zu %8.2f %8.2f %8.2f\n", name, v.size(), percentile(v, 0.5),
                percentile(v, 0.9), *std::max_element(v.begin(), v.end()));
  }
  benchmark::Shutdown();
  return 0;
}
