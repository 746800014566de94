// The law suite's speed: one benchmark per law of fuzz/laws, each iteration one generated case
// checked (generation by RapidCheck included, shrinking excluded: it only runs on failures).
// items_per_second is law checks per second on one core.
#include "laws/Laws.h"

#include <benchmark/benchmark.h>

namespace {

void lawChecks(benchmark::State& state, const llcheck::fuzz::Law* law) {
  uint64_t index = 0;
  for (auto _ : state) {
    rc::Shrinkable<llcheck::fuzz::Case> s =
        law->gen(rc::Random(0x9e3779b97f4a7c15ull * ++index), rc::kNominalSize);
    llcheck::fuzz::Verdict v = llcheck::fuzz::checkLaw(*law, s.value());
    if (v)
      state.SkipWithError(("the law failed: " + *v).c_str());
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

} // namespace

int main(int argc, char** argv) {
  for (const llcheck::fuzz::Law& law : llcheck::fuzz::allLaws())
    benchmark::RegisterBenchmark(("law/" + law.name).c_str(), lawChecks, &law);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
