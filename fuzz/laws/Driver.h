// The driver behind `llcheck fuzz`: runs laws on generated cases, time-boxed and sharded, each
// case a pure function of (seed, law name, case index) so any failure can be rerun; shrinks a
// failing case with RapidCheck's shrinks, saves it as a regression case (JSON) and replays
// saved cases.
#pragma once

#include "Laws.h"

#include "llcheck/core/Error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace llcheck::fuzz {

struct FuzzOptions {
  uint64_t seed = 0;
  /// Stop after this many seconds (0: no time limit; then maxCases must bound the run).
  double seconds = 60;
  /// At most this many cases per law (0: no limit).
  uint64_t maxCases = 0;
  /// Run the laws whose index in allLaws() is shardIndex modulo shardCount.
  int shardIndex = 0, shardCount = 1;
  /// Only these laws (exact names); empty: every law of the shard.
  std::vector<std::string> only;
  /// Where to save failing cases; empty: do not save.
  std::string regressionsDir;
  /// A progress line on this stream (a terminal), rewritten in place; null: none.
  std::ostream* progress = nullptr;
};

struct Failure {
  std::string law;
  uint64_t seed = 0, caseIndex = 0;
  std::string message; ///< the verdict on the shrunk case
  Case shrunk;
  int shrinkSteps = 0;
  std::string savedTo;   ///< the regression file, or empty
  std::string saveError; ///< why it could not be saved (the path and the system's reason)
};

/// What one case of a law may hold: the most its generator draws. `--replay` refuses a saved
/// case beyond it before the law runs (exit 2 naming the bound), and every generated case is
/// checked against it too, so that a generator cannot outgrow it unnoticed.
struct CaseBound {
  std::size_t layouts = 8;
  /// Input and output bits of each layout (conversion pairs draw 12 and 11).
  int inBits = 12, outBits = 12;
  std::size_t params = 32;
  int64_t minParam = 0, maxParam = int64_t{1} << 20;
};
[[nodiscard]] CaseBound caseBound(const std::string& law);
[[nodiscard]] std::string boundText(const CaseBound& b);
/// What of `c` is beyond `b`, in words; empty when nothing is.
[[nodiscard]] std::string beyondBound(const Case& c, const CaseBound& b);

struct LawResult {
  std::string name;
  uint64_t cases = 0, failures = 0;
  /// Cases the law could not decide (a Z3 "unknown"): neither passed nor failed.
  uint64_t undecided = 0;
  double seconds = 0;
};

struct FuzzReport {
  uint64_t seed = 0;
  int shardIndex = 0, shardCount = 1;
  std::vector<LawResult> laws;
  std::vector<Failure> failures;
  uint64_t cases = 0;
  double seconds = 0;
};

/// The laws a run with these options checks, in registry order; an Error for an unknown name.
[[nodiscard]] Result<std::vector<const Law*>> selectLaws(const std::vector<Law>& registry,
                                                         const FuzzOptions& options);

/// Runs `laws` (each stops at its first failure, which is shrunk and saved).
[[nodiscard]] FuzzReport runLaws(const std::vector<const Law*>& laws, const FuzzOptions& options);

/// The regression file's JSON: {"law", "statement", "seed", "case", "failure", "layouts":
/// [Layout JSON...], "params": [...]}.
[[nodiscard]] nlohmann::json caseToJson(const Failure& f, const Law* law);

/// One saved case, checked again.
struct ReplayResult {
  std::string file, law;
  Verdict verdict;
};
/// Replays FILE, or every *.json under a directory (sorted; a missing or empty directory gives
/// no results). An Error for a file that is not a regression case or names no law of
/// `registry`.
[[nodiscard]] Result<std::vector<ReplayResult>> replay(const std::string& path,
                                                       const std::vector<Law>& registry);

/// The failure as people read it: the law, the message, the shrunk case in Triton's printed
/// form, where it was saved and the commands that replay and rerun it.
[[nodiscard]] std::string describeFailure(const Failure& f, const Law* law);
/// {"laws": [{"name", "cases", "failures", "undecided"}...], "cases", "failures", "undecided",
/// "seed", ...}.
[[nodiscard]] nlohmann::json toJson(const FuzzReport& report);
/// JUnit XML: one testcase per law, a <failure> with the description for each failing one.
[[nodiscard]] std::string toJunit(const FuzzReport& report, const std::vector<Law>& registry);
/// One line per law (cases, failures), then a total line.
[[nodiscard]] std::string summaryText(const FuzzReport& report);

} // namespace llcheck::fuzz
