// `llcheck fuzz` (FuzzCommand.h): its options, and the run of the law suite, the replay of saved
// cases or the mutation check that they ask for.
#include "FuzzCommand.h"

#include "Shard.h"

#include "laws/Driver.h"
#include "mutation/Mutation.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/OutputFile.h"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>

namespace llcheck::cli {

namespace {
constexpr double kMaxSeconds = 1e7;
constexpr uint64_t kMaxCases = 1000000000;

/// A seed: digits only, at most 2^64 - 1 (a sign would be wrapped around by the conversion: -1
/// as 2^64 - 1). CLI11 would read a larger number as 2^64 - 1 and run
/// that seed, which reproduces nothing the user asked for.
const CLI::Validator kSeed(
    [](std::string& s) {
      uint64_t v = 0;
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        return "'" + utf8Prefix(s, 40) + "' is not a number without a sign";
      if (ec == std::errc::result_out_of_range || end != s.data() + s.size())
        return "'" + utf8Prefix(s, 40) + "' is more than 2^64 - 1 (18446744073709551615)";
      return std::string();
    },
    "UNSIGNED");
} // namespace

FuzzCommand::FuzzCommand(CLI::App& app) {
  cmd_ = app.add_subcommand(
      "fuzz", "Check the laws of the layout algebra, the encodings, conversion planning and the "
              "formats on random cases (RapidCheck): time-boxed, reproducible from --seed, "
              "sharded; failures are shrunk and saved under corpus/regressions/");
  cmd_->add_option("--time", time_, "Stop after SEC seconds (default 60; 0: only --cases)")
      ->type_name("SEC");
  seedOpt_ = cmd_->add_option("--seed", seed_,
                              "The seed every case derives from (default: a fresh one, printed)")
                 ->type_name("N")
                 ->check(kSeed);
  shardOpt_ = cmd_->add_option("--shard", shard_,
                               "Run shard I of N (0 <= I < N): the laws whose index is I modulo "
                               "N; default: GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS if set")
                  ->type_name("I/N");
  cmd_->add_option("--cases", cases_, "At most N cases per law (default: no limit; at most 10^9)")
      ->type_name("N")
      ->check(CLI::Range(uint64_t{0}, kMaxCases));
  cmd_->add_option("--law", laws_, "Only this law (repeatable; see --list)")->type_name("NAME");
  cmd_->add_option("--junit", junit_, "Also write a JUnit XML report to FILE")->type_name("FILE");
  cmd_->add_option("--format", format_, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd_->add_option("--regressions", regressions_,
                   "Where failing cases are saved (default corpus/regressions; '' : not saved)")
      ->type_name("DIR");
  cmd_->add_option("--replay", replay_,
                   "Check the saved case FILE, or every *.json case under DIR, instead of "
                   "generating cases")
      ->type_name("PATH");
  cmd_->add_flag("--list", list_, "List the laws and what each states");
  cmd_->add_flag("--quiet", quiet_,
                 "No progress line on stderr (there is one only on a terminal: cases, rate, "
                 "time left)");
  cmd_->add_flag("--mutation", mutation_,
                 "Instead of the laws: the mutation check. Flips each single bit of every basis "
                 "of the corpus layouts and of the conversion plans of corpus and generated "
                 "pairs, and reports how many mutants the checks catch");
  cmd_->add_option("--corpus", corpus_,
                   "--mutation: the Layout JSON files to mutate (default corpus/layouts)")
      ->type_name("DIR");
  cmd_->add_option("--max-layouts", maxLayouts_, "--mutation: only the first N corpus files")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  cmd_->add_option("--pairs", pairs_,
                   "--mutation: generated conversion pairs (from --seed, default 1) besides the "
                   "corpus pairs (default 20)")
      ->type_name("N")
      ->check(CLI::Range(0, 100000));
  cmd_->add_option("--min-score", minScore_,
                   "--mutation: exit 1 when the layout or the plan score is below X (0..1)")
      ->type_name("X")
      ->check(CLI::Range(0.0, 1.0));
}

int FuzzCommand::runMutation(std::ostream& out, std::string& errorMessage) {
  using namespace llcheck::fuzz;
  MutationOptions o;
  o.corpusDir = corpus_;
  o.maxLayouts = maxLayouts_;
  o.generatedPairs = pairs_;
  o.seed = *seedOpt_ ? seed_ : 1;
  auto report = fuzz::runMutation(o);
  if (!report.ok()) {
    errorMessage = report.error().str();
    return 2;
  }
  if (format_ == "json")
    out << dumpJson(toJson(*report)) << "\n";
  else
    out << toText(*report);
  bool low = report->layouts.score() < minScore_ || report->plans.score() < minScore_;
  if (low && format_ != "json")
    out << "FAILED: a score is below --min-score " << minScore_ << "\n";
  return low || report->disagreements > 0 ? 1 : 0;
}

int FuzzCommand::run(std::ostream& out, std::string& errorMessage) {
  using namespace llcheck::fuzz;
  const std::vector<Law>& registry = allLaws();
  bool json = format_ == "json";
  if (list_) {
    // With --law, only those laws (their statements), so that a name can be looked up.
    FuzzOptions every;
    every.only = laws_;
    auto laws = selectLaws(registry, every);
    if (!laws.ok()) {
      errorMessage = laws.error().str();
      return 2;
    }
    for (const Law* l : *laws)
      out << l->name << "  " << l->statement << "\n";
    return 0;
  }
  if (mutation_)
    return runMutation(out, errorMessage);
  if (!replay_.empty()) {
    auto results = replay(replay_, registry);
    if (!results.ok()) {
      errorMessage = results.error().str();
      return 2;
    }
    int failed = 0;
    nlohmann::json cases = nlohmann::json::array();
    for (const ReplayResult& r : *results) {
      failed += r.verdict.has_value();
      if (json)
        cases.push_back({{"file", r.file},
                         {"law", r.law},
                         {"ok", !r.verdict},
                         {"failure", r.verdict ? nlohmann::json(*r.verdict) : nullptr}});
      else if (r.verdict) {
        out << "FAILED " << r.file << " (" << r.law << ")\n";
        std::istringstream lines(*r.verdict);
        for (std::string line; std::getline(lines, line);)
          out << "  | " << line << "\n";
      } else
        out << "ok     " << r.file << " (" << r.law << ")\n";
    }
    if (json)
      out << dumpJson({{"replayed", results->size()}, {"failures", failed}, {"cases", cases}})
          << "\n";
    else
      out << results->size() << " regression cases replayed, " << failed << " failed\n";
    return failed ? 1 : 0;
  }

  FuzzOptions options;
  char* end = nullptr;
  double seconds = std::strtod(time_.c_str(), &end);
  if (time_.empty() || end != time_.c_str() + time_.size() || !(seconds >= 0)) {
    errorMessage = "--time: '" + utf8Prefix(time_, 40) + "' is not a number of seconds >= 0";
    return 2;
  }
  if (seconds > kMaxSeconds) {
    errorMessage = "--time: " + utf8Prefix(time_, 40) +
                   " seconds is more than the limit, 10000000 (about 115 days)";
    return 2;
  }
  options.seconds = seconds;
  options.maxCases = cases_;
  options.only = laws_;
  options.regressionsDir = regressions_;
  if (seconds == 0 && cases_ == 0) {
    errorMessage = "--time 0 needs --cases N (otherwise the run never ends)";
    return 2;
  }
  if (*shardOpt_) {
    if (!parseShard(shard_, options.shardIndex, options.shardCount)) {
      errorMessage = "--shard: '" + utf8Prefix(shard_, 40) + "' is not I/N with 0 <= I < N";
      return 2;
    }
  } else if (!shardFromEnvironment(options.shardIndex, options.shardCount, errorMessage)) {
    return 2;
  }
  if (*seedOpt_)
    options.seed = seed_;
  else
    options.seed =
        std::random_device{}() ^
        static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  auto laws = selectLaws(registry, options);
  if (!laws.ok()) {
    errorMessage = laws.error().str();
    return 2;
  }
  // Opened before the run, so that a path that cannot be written is refused before the time
  // box is spent; written and committed after it (a write error is exit 2 naming the path).
  std::optional<OutputFile> junit;
  if (!junit_.empty()) {
    auto f = OutputFile::create(junit_);
    if (!f.ok()) {
      errorMessage = "--junit: cannot write '" + utf8Prefix(junit_, 200) + "': " + f.error().str();
      return 2;
    }
    junit.emplace(std::move(*f));
  }
  if (!quiet_ && isatty(STDERR_FILENO))
    options.progress = &std::cerr;
  FuzzReport report = runLaws(*laws, options);
  // In JSON mode stdout holds only the JSON; the failures' descriptions go to stderr.
  std::ostream& details = json ? std::cerr : out;
  for (const Failure& f : report.failures)
    details << describeFailure(f, findLaw(f.law)) << "\n";
  if (json)
    out << dumpJson(toJson(report)) << "\n";
  else
    out << summaryText(report);
  if (junit) {
    auto written = junit->write(toJunit(report, registry));
    if (written.ok())
      written = junit->commit();
    if (!written.ok()) {
      errorMessage = "--junit: " + written.error().str();
      return 2;
    }
  }
  return report.failures.empty() ? 0 : 1;
}

} // namespace llcheck::cli
