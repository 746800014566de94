// `llcheck oracle`: plan every case, run the CUDA runner under ncu, join verdicts and counters.
#include "OracleCommand.h"

#include "Progress.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/OutputFile.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/gpu_oracle/Oracle.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

namespace llcheck::cli {

namespace fs = std::filesystem;

namespace {

/// Quotes a path for /bin/sh.
std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// `command` under coreutils' timeout: after `seconds` its whole process group gets SIGTERM,
/// 10 s later SIGKILL (a child left holding the pipe goes with it), and the exit status is 124.
std::string limited(const std::string& command, double seconds) {
  char s[32];
  std::snprintf(s, sizeof s, "%.0f", seconds < 1 ? 1.0 : seconds);
  return std::string("timeout -k 10 ") + s + " " + command;
}

/// The exit status timeout(1) gives for a command it killed.
constexpr int kTimedOut = 124;
/// nvidia-smi and `ncu --version` answer in seconds; a minute means they hang.
constexpr double kProbeSeconds = 60;

/// A command's standard output (empty when it cannot run), and its exit status.
std::pair<std::string, int> capture(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p)
    return {"", -1};
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p))
    out.append(buf, n);
  int status = pclose(p);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

/// Runs `command` (ncu over the runner) with its standard output and error read here through
/// one pipe. The runner reports "oracle runner: N/M cases" after each case: those advance
/// `line`, when there is one, and otherwise every 100th goes to stderr (none with `quiet`).
/// ncu's CSV rows and "==PROF==" lines go to `to`; any other line (an error) goes to stderr and
/// to `to`, where the CSV reader skips it. The exit status as std::system gives it.
int runProfiled(const std::string& command, const fs::path& to, CountProgressLine* line,
                bool quiet) {
  // ncu's CSV through OutputFile (a link planted at its name is not written through).
  auto file = OutputFile::create(to.string());
  if (!file.ok())
    return -1;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p)
    return -1;
  bool writeError = false;
  std::string text;
  char buf[4096];
  auto handle = [&](const std::string& l) {
    std::size_t done = 0, total = 0;
    char tail[8] = {};
    if (std::sscanf(l.c_str(), "oracle runner: %zu/%zu case%7s", &done, &total, tail) == 3) {
      if (line)
        line->update(done, total);
      else if (!quiet && (done % 100 == 0 || done == total))
        std::cerr << l << std::flush;
      return;
    }
    writeError = writeError || !file->write(l).ok();
    if (l.rfind("\"", 0) != 0 && l.rfind("==PROF==", 0) != 0)
      std::cerr << l << std::flush;
  };
  while (std::fgets(buf, sizeof buf, p)) {
    text += buf;
    if (text.back() != '\n')
      continue;
    handle(text);
    text.clear();
  }
  if (!text.empty())
    handle(text + "\n");
  if (line)
    line->done();
  int status = pclose(p);
  if (writeError || !file->commit().ok()) {
    std::cerr << "llcheck oracle: cannot write " << to.string() << "\n";
    return status == 0 ? -1 : status;
  }
  return status;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.pop_back();
  return s;
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

/// The runner: --runner, $LLCHECK_ORACLE_RUNNER, or beside the build's gpu_oracle/.
std::string findRunner(const std::string& given) {
  if (!given.empty())
    return given;
  if (const char* env = std::getenv("LLCHECK_ORACLE_RUNNER"))
    return env;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    return (self.parent_path().parent_path() / "gpu_oracle" / "llcheck_oracle_runner").string();
  return "llcheck_oracle_runner";
}

/// Every case of the CASES file, planned (JSON lines; blank lines and '#' comments skipped);
/// nullopt after setting `errorMessage`.
std::optional<std::vector<oracle::PlannedCase>>
readCases(const OracleOptions& o, const SharedMemoryModel& model, std::string& errorMessage) {
  auto text = readInputFile(o.cases);
  if (!text.ok()) {
    errorMessage = text.error().str();
    return std::nullopt;
  }
  std::vector<oracle::PlannedCase> cases;
  std::istringstream lines(*text);
  std::string line;
  for (int lineNo = 1; std::getline(lines, line); ++lineNo) {
    if (trim(line).empty() || line[0] == '#')
      continue;
    auto where = o.cases + ":" + std::to_string(lineNo);
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      errorMessage = where + ": not a JSON object";
      return std::nullopt;
    }
    auto c = oracle::caseFromJson(j);
    if (!c.ok()) {
      errorMessage = where + ": " + c.error().str();
      return std::nullopt;
    }
    auto planned = oracle::planCase(*c, model);
    if (!planned.ok()) {
      errorMessage = where + ": case " + c->id + ": " + planned.error().str();
      return std::nullopt;
    }
    cases.push_back(std::move(*planned));
  }
  if (cases.empty()) {
    errorMessage = o.cases + ": no cases";
    return std::nullopt;
  }
  return cases;
}

/// What the oracle runs on: the GPU's name, the runner, and ncu's version (empty with
/// --no-counters).
struct OracleTools {
  std::string gpu, runner, ncuVersion;
};

/// The GPU, the runner and ncu, each checked before anything runs; nullopt after setting
/// `errorMessage`.
std::optional<OracleTools> findTools(const OracleOptions& o, std::string& errorMessage) {
  OracleTools t;
  auto [gpu, gpuStatus] = capture(
      limited("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader", kProbeSeconds) +
      " 2>/dev/null");
  if (gpuStatus != 0 || trim(gpu).empty()) {
    errorMessage = "oracle: no NVIDIA GPU here (nvidia-smi lists none); run it on a machine with "
                   "a GPU (the committed results are in corpus/oracle/)";
    return std::nullopt;
  }
  t.gpu = gpu;
  t.runner = findRunner(o.runner);
  if (!fs::exists(t.runner)) {
    errorMessage = "oracle: no runner at " + t.runner +
                   " (build it: nvcc -O2 -std=c++17 -arch=sm_90 "
                   "gpu_oracle/runner/oracle_runner.cu -o llcheck_oracle_runner, or cmake with "
                   "CUDA; then pass --runner)";
    return std::nullopt;
  }
  if (!o.noCounters) {
    auto [v, status] =
        capture(limited(shellQuote(o.ncu) + " --version", kProbeSeconds) + " 2>/dev/null");
    if (status != 0) {
      errorMessage = "oracle: Nsight Compute ('" + o.ncu +
                     "') does not run; pass --ncu PATH "
                     "or --no-counters";
      return std::nullopt;
    }
    std::istringstream vs(v);
    for (std::string l; std::getline(vs, l);)
      if (!trim(l).empty())
        t.ncuVersion = trim(l);
  }
  return t;
}

/// What the runner (under ncu) wrote: one verdict per case, the CUDA version, and one set of
/// counters per case (none with --no-counters).
struct RunnerOutput {
  std::vector<std::string> verdictOf;
  std::string cudaVersion;
  std::vector<std::map<std::string, double>> counters;
};

/// Writes the runner's input into `dir`, runs it (under ncu unless --no-counters) and reads its
/// verdicts and ncu's CSV back; nullopt after setting `errorMessage`.
std::optional<RunnerOutput> runCases(const OracleOptions& o,
                                     const std::vector<oracle::PlannedCase>& cases,
                                     const OracleTools& tools, const fs::path& dir,
                                     std::string& errorMessage) {
  fs::path plans = dir / "plans.txt", verdicts = dir / "verdicts.txt", csv = dir / "ncu.csv";
  {
    // Through OutputFile: a link planted in a --work-dir as plans.txt is replaced, never
    // written through.
    std::ostringstream text;
    oracle::writeRunnerInput(text, cases);
    auto written = writeFileAtomically(plans.string(), text.str());
    if (!written.ok()) {
      errorMessage = written.error().str();
      return std::nullopt;
    }
  }
  std::string metrics;
  for (const std::string& m : oracle::oracleMetrics())
    metrics += (metrics.empty() ? "" : ",") + m;
  const std::string& runner = tools.runner;
  std::string command =
      o.noCounters ? shellQuote(runner) + " " + shellQuote(plans) + " " + shellQuote(verdicts)
                   : shellQuote(o.ncu) + " --csv --print-metric-instances details --metrics " +
                         metrics + " --kernel-name regex:oracle_measured " + shellQuote(runner) +
                         " " + shellQuote(plans) + " " + shellQuote(verdicts);
  // The runner writes its verdicts itself: a link planted under that name in a --work-dir (a
  // file of an earlier run too) is removed first (the link, not what it points to), so the runner
  // creates a file of its own.
  std::error_code removeError;
  fs::remove(verdicts, removeError);
  fs::remove(csv, removeError); // the same for ncu's CSV, which OutputFile would refuse
  if (!o.quiet)
    std::cerr << "llcheck oracle: " << cases.size() << " cases on " << trim(tools.gpu) << "\n";
  std::optional<CountProgressLine> progress;
  if (!o.quiet && isatty(STDERR_FILENO))
    progress.emplace("oracle", "cases");
  // Without ncu, the runner's standard output (nothing the oracle reads) goes to ncu.csv's place.
  int status =
      runProfiled(limited(command, o.runnerTimeout), csv, progress ? &*progress : nullptr, o.quiet);
  if (WIFEXITED(status) && WEXITSTATUS(status) == kTimedOut) {
    errorMessage = "oracle: the runner ran past --runner-timeout (" +
                   std::to_string(static_cast<long long>(o.runnerTimeout)) +
                   " s) and was killed; nothing is written";
    return std::nullopt;
  }
  if (status != 0) {
    errorMessage = "oracle: the runner failed (exit status " +
                   std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : status) +
                   "); its message is above";
    return std::nullopt;
  }
  RunnerOutput r;
  {
    // The runner's verdicts, checked: one line "<case id> <verdict>" per case, in the order of
    // the cases (a line for another case, or a second one, is not taken for this case's).
    auto text = readInputFile(verdicts.string());
    if (!text.ok()) {
      errorMessage = "oracle: the runner's verdicts: " + text.error().str();
      return std::nullopt;
    }
    std::istringstream f(*text);
    int lineNo = 0;
    for (std::string l; std::getline(f, l);) {
      ++lineNo;
      std::string where = verdicts.string() + ":" + std::to_string(lineNo);
      if (l.rfind("# ", 0) == 0) {
        r.cudaVersion = utf8Prefix(l.substr(2), 200);
        continue;
      }
      auto space = l.find(' ');
      std::string id = l.substr(0, space);
      std::size_t i = r.verdictOf.size();
      if (i >= cases.size() || id != cases[i].input.id) {
        errorMessage = where + ": a verdict for '" + utf8Prefix(id, 80) + "', expected " +
                       (i < cases.size() ? "case '" + cases[i].input.id + "'" : "no more cases");
        return std::nullopt;
      }
      std::string verdict = space == std::string::npos ? "no verdict" : l.substr(space + 1);
      if (verdict.size() > 4096) {
        errorMessage = where + ": a verdict of more than 4096 bytes";
        return std::nullopt;
      }
      r.verdictOf.push_back(verdict);
    }
  }
  if (!o.noCounters) {
    auto csvText = readInputFile(csv.string());
    if (!csvText.ok()) {
      errorMessage = csvText.error().str();
      return std::nullopt;
    }
    auto parsed = oracle::parseNcuCsv(*csvText);
    if (!parsed.ok()) {
      errorMessage = parsed.error().str();
      return std::nullopt;
    }
    r.counters = *parsed;
  }
  if (r.verdictOf.size() != cases.size() || (!o.noCounters && r.counters.size() != cases.size())) {
    errorMessage = "oracle: " + std::to_string(cases.size()) + " cases but " +
                   std::to_string(r.verdictOf.size()) + " verdicts and " +
                   std::to_string(r.counters.size()) + " profiled launches";
    return std::nullopt;
  }
  return r;
}

/// The results JSON: each case's prediction beside its verdict and counters, with the first 20
/// wrong and mismatched cases printed; counts them into `wrong`, `mismatched` and `noisy`.
nlohmann::json resultsJson(const OracleOptions& o, const std::vector<oracle::PlannedCase>& cases,
                           const OracleTools& tools, const RunnerOutput& run, int& wrong,
                           int& mismatched, int& noisy) {
  nlohmann::json results = {{"gpu", trim(tools.gpu)},  {"cuda", run.cudaVersion},
                            {"ncu", tools.ncuVersion}, {"date", utcNow()},
                            {"arch", o.arch},          {"cases", nlohmann::json::array()}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::map<std::string, double> none;
    const auto& c = o.noCounters ? none : run.counters[i];
    const std::string& verdict = run.verdictOf[i];
    nlohmann::json r = oracle::resultJson(cases[i], verdict, oracle::measuredStore(c),
                                          oracle::measuredLoad(c), oracle::measuredShuffles(c));
    if (o.noCounters)
      r.erase("measured"), r.erase("match"), r.erase("agreement");
    if (!r["correct"].get<bool>() && ++wrong <= 20)
      std::cout << "wrong data " << cases[i].input.id << ": " << verdict << "\n";
    if (!o.noCounters && r["agreement"] == "noise")
      ++noisy;
    if (!o.noCounters && r["agreement"] == "mismatch" && ++mismatched <= 20)
      std::cout << "mismatch " << cases[i].input.id << ": predicted store "
                << dumpJson(r["predicted"]["store"]) << " load " << dumpJson(r["predicted"]["load"])
                << ", measured store " << dumpJson(r["measured"]["store"]) << " load "
                << dumpJson(r["measured"]["load"])
                << (r["kind"] == "warp_shuffle"
                        ? ", shuffles predicted " + dumpJson(r["predicted"]["shuffles"]) +
                              " measured " + dumpJson(r["measured"]["shuffles"])
                        : std::string())
                << "\n";
    results["cases"].push_back(std::move(r));
  }
  return results;
}

} // namespace

CLI::App* addOracleCommand(CLI::App& app, OracleOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "oracle", "Run each case on the GPU exactly as planned (store SRC into SHARED, load DST) "
                "and compare Nsight Compute's shared-memory counters with the predictions; "
                "needs an NVIDIA GPU, ncu and the CUDA runner (gpu_oracle/README.md)");
  cmd->add_option("CASES", o.cases,
                  "JSON lines {\"id\", \"src\": L, \"dst\": L, \"shared\": L, \"dtype\", "
                  "\"store\"/\"load\": vector|matrix|matrix_trans, \"origin\"} "
                  "(e.g. corpus/oracle/cases.jsonl)")
      ->required();
  cmd->add_option("--out", o.out, "Results JSON to write")->required();
  cmd->add_option("--arch", o.arch, "Bank model of the GPU (sm90: Hopper, sm80: Ampere)")
      ->check(CLI::IsMember({"sm90", "sm80"}));
  cmd->add_option("--runner", o.runner,
                  "The CUDA runner (default: $LLCHECK_ORACLE_RUNNER, else "
                  "<build>/gpu_oracle/llcheck_oracle_runner)");
  cmd->add_option("--ncu", o.ncu, "Nsight Compute's command line profiler (default: ncu)");
  cmd->add_flag("--no-counters", o.noCounters,
                "Check the data only, without ncu (no measured counters)");
  cmd->add_flag("--quiet", o.quiet,
                "No progress on stderr while the runner runs the cases (on a terminal a line: "
                "cases done, rate, time left; elsewhere every 100th case)");
  cmd->add_option("--runner-timeout", o.runnerTimeout,
                  "Kill the runner (under ncu) after SEC seconds and fail (default 3600; the "
                  "committed 2,740 cases took 301 s)")
      ->type_name("SEC")
      ->check(CLI::Range(1.0, 86400.0));
  cmd->add_option("--work-dir", o.workDir,
                  "Keep the runner's input (plans.txt), its verdicts and ncu's CSV in this "
                  "folder (default: a temporary folder, removed)");
  return cmd;
}

int runOracle(const OracleOptions& o, std::string& errorMessage) {
  auto model = sharedMemoryModel(o.arch);
  if (!model.ok()) {
    errorMessage = model.error().str();
    return 2;
  }
  auto cases = readCases(o, *model, errorMessage);
  if (!cases)
    return 2;
  auto tools = findTools(o, errorMessage);
  if (!tools)
    return 2;

  // The default work folder is private and new (mkdtemp: no name another user can plant
  // links in beforehand), and removed on every way out of here; a --work-dir is kept.
  std::error_code ec;
  fs::path dir;
  if (o.workDir.empty()) {
    auto made = makePrivateFolder((fs::temp_directory_path() / "llcheck-oracle-").string());
    if (!made.ok()) {
      errorMessage = made.error().str();
      return 2;
    }
    dir = *made;
  } else {
    dir = o.workDir;
    fs::create_directories(dir, ec);
    if (ec) {
      errorMessage = dir.string() + ": cannot create the work folder (" + ec.message() + ")";
      return 2;
    }
  }
  struct RemoveFolder {
    fs::path dir;
    ~RemoveFolder() {
      std::error_code ignored;
      if (!dir.empty())
        fs::remove_all(dir, ignored);
    }
  } removeFolder{o.workDir.empty() ? dir : fs::path()};
  auto run = runCases(o, *cases, *tools, dir, errorMessage);
  if (!run)
    return 2;

  int wrong = 0, mismatched = 0, noisy = 0;
  nlohmann::json results = resultsJson(o, *cases, *tools, *run, wrong, mismatched, noisy);
  auto written = writeFileAtomically(o.out, dumpJson(results) + "\n");
  if (!written.ok()) {
    errorMessage = written.error().str();
    return 2;
  }
  std::size_t n = cases->size();
  std::cout << n << " cases: " << n - static_cast<std::size_t>(wrong) << " delivered their data";
  if (!o.noCounters)
    std::cout << "; counters: " << n - static_cast<std::size_t>(mismatched + noisy)
              << " exactly as predicted, " << noisy << " within the counter's noise (1-4 extra "
              << "wavefronts), " << mismatched << " mismatched";
  std::cout << " (" << o.out << ")\n";
  return wrong == 0 && mismatched == 0 ? 0 : 1;
}

} // namespace llcheck::cli
