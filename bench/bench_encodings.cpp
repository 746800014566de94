// Google Benchmark suite for the encodings: attribute text -> LinearLayout, as `llcheck layout`
// and `llcheck batch` do it (parseAttribute, then attributeToLayout). Figures in bench/README.md.
//
// The cases come from a file of `llcheck batch` lines ({"id", "attr", "shape", "num_warps",
// "threads_per_warp"}), given as --cases=FILE (bench/triton_vs_llcheck.py writes the conformance
// grid this way), or by default from the recorded Triton answers in
// tests/triton_reference/encodings/encoding_cases.json. Only cases llcheck converts are timed;
// a case it rejects is counted and left out, so the timings are of real conversions.
//
//   BM_ConvertAll       every case once per iteration; per_case is the mean time of one case.
//   BM_Convert/<id>     one case (with --per-case); their median is the "single conversion"
//                       figure.
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/Spec.h"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#ifndef LLCHECK_SOURCE_DIR
#error "LLCHECK_SOURCE_DIR must name the source tree (see bench/CMakeLists.txt)"
#endif

namespace {

using llcheck::LayoutContext;

struct Case {
  std::string id;
  std::string attr;
  LayoutContext options;
};

std::vector<Case> gCases;

bool convert(const Case& c) {
  auto attr = llcheck::parseAttribute(c.attr, "attribute");
  if (!attr.ok())
    return false;
  auto layout = llcheck::attributeToLayout(*attr, c.options, "attribute");
  benchmark::DoNotOptimize(layout);
  return layout.ok();
}

Case fromJson(const nlohmann::json& j, const std::string& id) {
  Case c;
  c.id = id;
  c.attr = j["attr"].get<std::string>();
  if (j.contains("shape") && j["shape"].is_array())
    c.options.shape = j["shape"].get<std::vector<uint64_t>>();
  if (j.contains("num_warps") && j["num_warps"].is_number())
    c.options.numWarps = j["num_warps"].get<uint64_t>();
  if (j.contains("threads_per_warp") && j["threads_per_warp"].is_number())
    c.options.threadsPerWarp = j["threads_per_warp"].get<uint64_t>();
  return c;
}

std::vector<Case> loadCases(const std::string& path) {
  std::vector<Case> cases;
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  if (path.size() >= 5 && path.substr(path.size() - 5) == ".json") {
    nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& [encoding, list] : j["encodings"].items())
      for (const nlohmann::json& tc : list)
        if (tc.contains("attr") && tc.contains("layout"))
          cases.push_back(fromJson(tc, tc["id"].get<std::string>()));
    return cases;
  }
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) {
      nlohmann::json j = nlohmann::json::parse(line);
      cases.push_back(
          fromJson(j, j["id"].is_string() ? j["id"].get<std::string>() : j["id"].dump()));
    }
  return cases;
}

void BM_ConvertAll(benchmark::State& state) {
  for (auto _ : state)
    for (const Case& c : gCases)
      benchmark::DoNotOptimize(convert(c));
  state.counters["cases"] = static_cast<double>(gCases.size());
  state.counters["per_case"] = benchmark::Counter(static_cast<double>(gCases.size()),
                                                  benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}

void BM_Convert(benchmark::State& state, const Case* c) {
  for (auto _ : state)
    benchmark::DoNotOptimize(convert(*c));
}

} // namespace

int main(int argc, char** argv) {
  std::string path = LLCHECK_SOURCE_DIR "/tests/triton_reference/encodings/encoding_cases.json";
  bool perCase = false;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--cases=", 8) == 0)
      path = argv[i] + 8;
    else if (std::strcmp(argv[i], "--per-case") == 0)
      perCase = true;
    else
      rest.push_back(argv[i]);
  }
  try {
    std::size_t rejected = 0;
    for (Case& c : loadCases(path)) {
      if (convert(c))
        gCases.push_back(std::move(c));
      else
        ++rejected;
    }
    std::fprintf(stderr, "%zu cases from %s (%zu that llcheck rejects left out)\n", gCases.size(),
                 path.c_str(), rejected);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_encodings: %s\n", e.what());
    return 2;
  }
  benchmark::RegisterBenchmark("BM_ConvertAll", BM_ConvertAll);
  if (perCase)
    for (const Case& c : gCases)
      benchmark::RegisterBenchmark(("BM_Convert/" + c.id).c_str(), BM_Convert, &c);
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
