#include "FuzzCommand.h"

#include "laws/Driver.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

namespace llcheck::cli {

namespace {

/// "I/N" with 0 <= I < N; false otherwise.
bool parseShard(const std::string& s, int& index, int& count) {
  std::size_t slash = s.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == s.size() || s.size() > 20)
    return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (i != slash && !std::isdigit(static_cast<unsigned char>(s[i])))
      return false;
  long long i = std::stoll(s.substr(0, slash)), n = std::stoll(s.substr(slash + 1));
  if (n < 1 || n > 1000000 || i >= n)
    return false;
  index = static_cast<int>(i);
  count = static_cast<int>(n);
  return true;
}

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
                 ->type_name("N");
  shardOpt_ = cmd_->add_option("--shard", shard_,
                               "Run shard I of N (0 <= I < N): the laws whose index is I modulo "
                               "N; default: GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS if set")
                  ->type_name("I/N");
  cmd_->add_option("--cases", cases_, "At most N cases per law (default: no limit)")
      ->type_name("N");
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
}

int FuzzCommand::run(std::ostream& out, std::string& errorMessage) {
  using namespace llcheck::fuzz;
  const std::vector<Law>& registry = allLaws();
  bool json = format_ == "json";
  if (list_) {
    for (const Law& l : registry)
      out << l.name << "  " << l.statement << "\n";
    return 0;
  }
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
      out << nlohmann::json{{"replayed", results->size()}, {"failures", failed}, {"cases", cases}}
                 .dump()
          << "\n";
    else
      out << results->size() << " regression cases replayed, " << failed << " failed\n";
    return failed ? 1 : 0;
  }

  FuzzOptions options;
  char* end = nullptr;
  double seconds = std::strtod(time_.c_str(), &end);
  if (time_.empty() || end != time_.c_str() + time_.size() || !(seconds >= 0) || seconds > 1e7) {
    errorMessage = "--time: '" + time_.substr(0, 40) + "' is not a number of seconds >= 0";
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
      errorMessage = "--shard: '" + shard_.substr(0, 40) + "' is not I/N with 0 <= I < N";
      return 2;
    }
  } else if (const char* total = std::getenv("GTEST_TOTAL_SHARDS")) {
    const char* index = std::getenv("GTEST_SHARD_INDEX");
    std::string s = std::string(index ? index : "") + "/" + total;
    if (!parseShard(s, options.shardIndex, options.shardCount)) {
      errorMessage = "GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS: '" + s.substr(0, 40) +
                     "' is not I/N with 0 <= I < N";
      return 2;
    }
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
  std::ofstream junit;
  if (!junit_.empty()) {
    junit.open(junit_);
    if (!junit) {
      errorMessage = "--junit: cannot write '" + junit_.substr(0, 200) + "'";
      return 2;
    }
  }
  if (isatty(STDERR_FILENO))
    options.progress = &std::cerr;
  FuzzReport report = runLaws(*laws, options);
  // In JSON mode stdout holds only the JSON; the failures' descriptions go to stderr.
  std::ostream& details = json ? std::cerr : out;
  for (const Failure& f : report.failures)
    details << describeFailure(f, findLaw(f.law)) << "\n";
  if (json)
    out << toJson(report).dump() << "\n";
  else
    out << summaryText(report);
  if (junit.is_open())
    junit << toJunit(report, registry);
  return report.failures.empty() ? 0 : 1;
}

} // namespace llcheck::cli
