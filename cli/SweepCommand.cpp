// `llcheck sweep` (SweepCommand.h): its options, one shard's sweep with its checkpoint, and
// `llcheck sweep merge` of the shards' results.
#include "SweepCommand.h"

#include "Progress.h"
#include "Shard.h"
#include "TritonFlag.h"
#include "sweep/Sweep.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/OutputFile.h"
#include "llcheck/core/Spec.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <ostream>

namespace llcheck::cli {

SweepCommand::SweepCommand(CLI::App& app) {
  cmd_ = app.add_subcommand(
      "sweep", "Check every encoding of one family in a bounded parameter space: each layout "
               "verified (its kind's legality, algebra and enumeration agreeing) and, for the "
               "distributed families, every conversion plan between two layouts of one shape "
               "checked against enumeration. docs/sweep.md");
  cmd_->add_option(
      "FAMILY", family_,
      "blocked, swizzled_shared, nvmma_shared, nvidia_mma, amd_mfma, amd_wmma, dot_op or "
      "slice");
  cmd_->add_option("--max-log2", maxLog2_, "Every tensor dim at most 2^N (default 3)")
      ->type_name("N")
      ->check(CLI::Range(0, 12));
  cmd_->add_option("--num-warps", numWarps_,
                   "Warps per CTA to sweep (repeatable or space separated; default 1 2 4 8 16)")
      ->type_name("W")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1024}));
  cmd_->add_option("--pair-max-log2", pairMaxLog2_,
                   "Check conversion plans only over tensors of at most 2^P elements (default 3; "
                   "-1: no plans)")
      ->type_name("P")
      ->check(CLI::Range(-1, fuzz::kMaxPairMaxLog2));
  cmd_->add_option("--part-min-log2", partMinLog2_,
                   "Cut each blocked group whose tensor has at least 2^E elements (and whose "
                   "plans are not checked) into parts, one per multiset of sizePerThread, dealt "
                   "as groups (default 13)")
      ->type_name("E")
      ->check(CLI::Range(0, 64));
  cmd_->add_flag("--estimate", estimate_,
                 "Sweep nothing: print the deal, each shard's groups, parameter sets and "
                 "estimated time, and the costliest group");
  shardOpt_ = cmd_->add_option("--shard", shard_,
                               "Run shard I of N (0 <= I < N): the (shape, lanes, warps) groups "
                               "dealt to it by estimated cost; default: from the job engine "
                               "(JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, GTEST_SHARD_INDEX)")
                  ->type_name("I/N");
  shardCountOpt_ = cmd_->add_option("--shard-count", shardCount_,
                                    "The number of shards, for JOB_COMPLETION_INDEX (a Kubernetes "
                                    "Indexed Job); checked against the other engines' counts "
                                    "(default: LLCHECK_SHARD_COUNT)")
                       ->type_name("N");
  cmd_->add_option("--checkpoint", checkpoint_,
                   "Keep this shard's progress in FILE (rewritten atomically; FILE.lock held "
                   "for the run) and, when FILE exists, go on from it; refused if it was "
                   "written for other parameters or does not add up")
      ->type_name("FILE");
  cmd_->add_option("--checkpoint-every", checkpointEvery_,
                   "Rewrite the checkpoint at most every SEC seconds (default 5; 0: after every "
                   "group)")
      ->type_name("SEC")
      ->check(CLI::Range(0.0, 86400.0));
  cmd_->add_option("--group-times", groupTimes_,
                   "Append a JSON line per group finished to FILE (put in place when the run "
                   "ends): its index, rank in the deal, "
                   "shape, lanes, warps, part, parameter sets, layouts verified, estimated and "
                   "measured seconds (for sizing a job: fuzz/sweep/size_job.py)")
      ->type_name("FILE");
  cmd_->add_flag("--quiet", quiet_, "No progress line on stderr (there is one only on a terminal)");
  cmd_->add_flag("--no-reduce", noReduce_,
                 "Check every distinct layout and plan, also those that are a renaming of the "
                 "tensor's dims of one checked (docs/sweep.md, Doing less work)");
  cmd_->add_option("--against", against_,
                   "triton or triton-VERSION (3.6, 3.9): compare every encoding with that "
                   "Triton's own to_linear_layout instead of verifying (needs --python)")
      ->type_name("PEER");
  cmd_->add_option("--python", python_,
                   "With --against: the Python that has that Triton (default: LLCHECK_PYTHON, "
                   "else python3)")
      ->type_name("PATH");
  cmd_->add_option("--triton-timeout", tritonTimeout_,
                   "With --against: seconds a Python process may send nothing while an answer "
                   "is awaited before it is killed and the sweep fails (default 600)")
      ->type_name("SEC")
      ->check(CLI::Range(1, 86400));
  cmd_->add_option("-j,--jobs", jobs_,
                   "With --against: this many Python processes ask Triton side by side (default 1)")
      ->type_name("N")
      ->check(CLI::Range(1, 256));
  cmd_->add_option("--format", format_, "text or json")->check(CLI::IsMember({"text", "json"}));
  tritonOpt_ = addTritonOption(cmd_, triton_);

  mergeCmd_ = cmd_->add_subcommand(
      "merge", "Add up the JSON results of every shard of one sweep (sweep --format json) into "
               "the result of one unsharded run");
  mergeCmd_->add_option("RESULT.json", results_, "The shards' JSON results, one file each")
      ->required()
      ->type_name("FILE");
  mergeCmd_->add_option("--format", mergeFormat_, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
}

namespace {

/// SIGTERM / SIGINT (a job engine stopping the task, Ctrl-C): the sweep stops within a few
/// hundred encodings, drops the group it is inside, writes its checkpoint of the groups finished
/// and exits with 128 + the signal, as the signal would have.
volatile std::sig_atomic_t stopSignal = 0;
extern "C" void onStopSignal(int sig) {
  stopSignal = sig;
}

/// The Python helper that asks Triton: LLCHECK_TRITON_HELPER, else the source tree's.
std::string tritonHelper() {
  if (const char* v = std::getenv("LLCHECK_TRITON_HELPER"); v && *v)
    return v;
  return std::string(LLCHECK_SOURCE_DIR) + "/fuzz/sweep/triton_layouts.py";
}

/// LLCHECK_SWEEP_TEST_KILL_AFTER=K (tests only, docs/sweep.md): once this process has finished
/// K groups, before the checkpoint write that would follow, it kills itself with SIGKILL, as a
/// preempted job dies, so that a test can resume a shard at a known point without a race;
/// K:TERM sends itself SIGTERM instead, as a job engine stopping the task does.
struct TestKill {
  uint64_t after = 0;
  int signal = SIGKILL;
};
std::optional<TestKill> testKillAfter() {
  const char* v = std::getenv("LLCHECK_SWEEP_TEST_KILL_AFTER");
  if (!v || !*v)
    return std::nullopt;
  char* end = nullptr;
  TestKill k{std::strtoull(v, &end, 10), SIGKILL};
  if (end && std::string(end) == ":TERM")
    k.signal = SIGTERM;
  return k;
}

/// --group-times FILE: a writer whose first lines are those FILE holds (the option appends;
/// copied a MiB at a time, however long the file has grown), or a device or FIFO written
/// directly.
Result<OutputFile> openGroupTimes(const std::string& path) {
  auto out = OutputFile::create(path);
  if (!out.ok())
    return out.error();
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0)
      ::close(fd);
    return out; // nothing to keep: a new file, or a device or FIFO
  }
  std::string chunk(1 << 20, '\0');
  char last = '\n';
  for (;;) {
    ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      return makeError("cannot read the lines it holds: " + errnoText(e), path);
    }
    if (n == 0)
      break;
    last = chunk[static_cast<std::size_t>(n) - 1];
    if (auto w = out->write(std::string_view(chunk.data(), static_cast<std::size_t>(n))); !w.ok()) {
      ::close(fd);
      return w.error();
    }
  }
  ::close(fd);
  if (last != '\n')
    if (auto w = out->write("\n"); !w.ok())
      return w.error();
  return out;
}

} // namespace

int SweepCommand::run(std::ostream& out, std::string& errorMessage) {
  if (*mergeCmd_)
    return runMerge(out, errorMessage);
  if (family_.empty()) {
    errorMessage = "FAMILY: missing (llcheck sweep FAMILY, or llcheck sweep merge RESULT.json...)";
    return 2;
  }
  fuzz::SweepOptions o;
  o.family = family_;
  auto triton = parseTritonOption(triton_, "--triton");
  if (!triton.ok()) {
    errorMessage = triton.error().str();
    return 2;
  }
  o.triton = *triton;
  o.maxLog2 = maxLog2_;
  o.pairMaxLog2 = pairMaxLog2_;
  o.partMinLog2 = partMinLog2_;
  o.numWarps = numWarps_;
  // An estimate is of every shard: `--shard-count N` alone names the deal.
  bool countOnly = estimate_ && *shardCountOpt_ && !*shardOpt_;
  auto shard = countOnly
                   ? Result<Shard>(Shard{0, shardCount_})
                   : resolveShard(*shardOpt_ ? std::optional<std::string>(shard_) : std::nullopt,
                                  *shardCountOpt_ ? std::optional<int>(shardCount_) : std::nullopt,
                                  [](const char* name) { return std::getenv(name); });
  if (!shard.ok()) {
    errorMessage = shard.error().str();
    return 2;
  }
  o.shardIndex = shard->index;
  o.shardCount = shard->count;
  o.checkpoint = checkpoint_;
  // CLI::Range lets NaN through (every comparison with it is false).
  if (!std::isfinite(checkpointEvery_) || checkpointEvery_ < 0 || checkpointEvery_ > 86400) {
    errorMessage = "--checkpoint-every: expected a number of seconds from 0 to 86400";
    return 2;
  }
  o.checkpointSeconds = checkpointEvery_;
  o.reduce = !noReduce_;
  if (!against_.empty()) {
    if (against_ != "triton") {
      if (against_.rfind("triton-", 0) != 0) {
        errorMessage = "--against: '" + against_ + "' is not triton or triton-VERSION";
        return 2;
      }
      auto v = parseTritonOption(against_.substr(7), "--against");
      if (!v.ok()) {
        errorMessage = v.error().str();
        return 2;
      }
      if (tritonOpt_->count() > 0 && *v != o.triton) {
        errorMessage = "--against: " + against_ + ", but --triton " + triton_ +
                       ": the encodings swept are the peer's";
        return 2;
      }
      o.triton = *v;
    }
    o.againstTriton = true;
    const char* env = std::getenv("LLCHECK_PYTHON");
    o.python = !python_.empty() ? python_ : (env && *env ? env : "python3");
    o.tritonTimeoutSeconds = tritonTimeout_;
    o.tritonHelper = tritonHelper();
    o.jobs = jobs_;
  }

  if (estimate_) {
    auto estimate = fuzz::estimateSweep(o);
    if (!estimate.ok()) {
      errorMessage = estimate.error().str();
      return 2;
    }
    if (format_ == "json")
      out << dumpJson(fuzz::toJson(*estimate)) << "\n";
    else
      out << fuzz::toText(*estimate);
    return 0;
  }

  std::optional<SweepProgressLine> line;
  if (!quiet_ && ::isatty(STDERR_FILENO) == 1)
    line.emplace(family_ + " " + std::to_string(o.shardIndex) + "/" + std::to_string(o.shardCount));
  auto killAfter = testKillAfter();
  uint64_t finished = 0;
  // --group-times through OutputFile: the lines FILE holds already, then one per group, put in
  // place whole when the run ends (a device or a FIFO is written line by line); a write that
  // fails stops the sweep (its checkpoint written) with exit 2 naming the file.
  std::optional<OutputFile> groupTimes;
  std::optional<Error> groupTimesError;
  if (!groupTimes_.empty()) {
    auto opened = openGroupTimes(groupTimes_);
    if (!opened.ok()) {
      errorMessage = "--group-times: " + opened.error().str();
      return 2;
    }
    groupTimes.emplace(std::move(*opened));
  }
  o.progress = [&](const fuzz::SweepProgress& p) {
    if (line)
      line->update(p);
    if (groupTimes && !groupTimesError && p.group) {
      const fuzz::SweepGroup& g = *p.group;
      auto written = groupTimes->write(
          dumpJson({{"group", p.groupIndex},
                    {"rank", p.groupRank},
                    {"shard", std::to_string(o.shardIndex) + "/" + std::to_string(o.shardCount)},
                    {"shape", g.shape},
                    {"lanes", g.lanes},
                    {"warps", g.warps},
                    {"size_per_thread_sorted", g.sizePerThreadSorted},
                    {"encodings", g.sets},
                    {"verified", p.groupVerified},
                    {"algebra_only", p.groupAlgebraOnly},
                    {"estimated_seconds", static_cast<double>(g.cost) / 1e6},
                    {"seconds", p.groupSeconds}}) +
          "\n");
      if (!written.ok())
        groupTimesError = written.error();
    }
    if (killAfter && ++finished == killAfter->after)
      std::raise(killAfter->signal);
  };
  o.stop = [&] { return stopSignal != 0 || groupTimesError.has_value(); };
  stopSignal = 0;
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  struct sigaction oldTerm {
  }, oldInt{};
  if (!checkpoint_.empty()) {
    ::sigaction(SIGTERM, &action, &oldTerm);
    ::sigaction(SIGINT, &action, &oldInt);
  }
  auto report = fuzz::runSweep(o);
  if (!checkpoint_.empty()) {
    ::sigaction(SIGTERM, &oldTerm, nullptr);
    ::sigaction(SIGINT, &oldInt, nullptr);
  }
  if (groupTimes && !groupTimesError) {
    auto committed = groupTimes->commit();
    if (!committed.ok())
      groupTimesError = committed.error();
  }
  if (groupTimesError) {
    if (line)
      line->done();
    errorMessage =
        "--group-times: " + groupTimesError->str() +
        (checkpoint_.empty() ? std::string()
                             : " (the checkpoint " + checkpoint_ + " holds the groups done)");
    return 2;
  }
  if (stopSignal != 0 && report.ok()) {
    if (line)
      line->done();
    errorMessage = std::string("stopped by ") + (stopSignal == SIGTERM ? "SIGTERM" : "SIGINT") +
                   ": the checkpoint " + checkpoint_ +
                   " holds the groups done (run again to go on)";
    return 128 + stopSignal;
  }
  if (line)
    line->done();
  if (!report.ok()) {
    errorMessage = report.error().str();
    return 2;
  }
  if (format_ == "json")
    out << dumpJson(fuzz::toJson(*report)) << "\n";
  else
    out << fuzz::toText(*report);
  return report->failureCount() > 0 ? 1 : 0;
}

int SweepCommand::runMerge(std::ostream& out, std::string& errorMessage) {
  std::vector<fuzz::SweepReport> shards;
  for (const std::string& path : results_) {
    auto text = readInputFile(path);
    if (!text.ok()) {
      errorMessage = text.error().str();
      return 2;
    }
    auto j = parseJsonText(*text, path);
    if (!j.ok()) {
      errorMessage = j.error().str();
      return 2;
    }
    if (j->is_object() && j->contains("checkpoint")) {
      errorMessage = path +
                     ": a checkpoint, not a shard's result (run the shard again with "
                     "--checkpoint " +
                     path + " to finish it and print its result)";
      return 2;
    }
    auto r = fuzz::sweepReportFromJson(*j, path);
    if (!r.ok()) {
      errorMessage = r.error().str();
      return 2;
    }
    shards.push_back(std::move(*r));
  }
  auto merged = fuzz::mergeSweepReports(shards, results_);
  if (!merged.ok()) {
    errorMessage = merged.error().str();
    return 2;
  }
  // `sweep --format json merge ...` means the same as `sweep merge --format json ...`.
  bool json =
      mergeCmd_->get_option("--format")->count() ? mergeFormat_ == "json" : format_ == "json";
  if (json)
    out << dumpJson(fuzz::toJson(*merged)) << "\n";
  else
    out << fuzz::toText(*merged);
  return merged->failureCount() > 0 ? 1 : 0;
}

} // namespace llcheck::cli
