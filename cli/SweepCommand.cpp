#include "SweepCommand.h"

#include "Shard.h"
#include "TritonFlag.h"
#include "sweep/Sweep.h"

#include "llcheck/core/Formats.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <optional>

namespace llcheck::cli {

SweepCommand::SweepCommand(CLI::App &app) {
  cmd_ = app.add_subcommand("sweep", "Check every encoding of one family in a "
                                     "bounded parameter space: each layout "
                                     "verified (its kind's legality, algebra "
                                     "and enumeration agreeing) and, for the "
                                     "distributed families, every conversion "
                                     "plan between two layouts of one shape "
                                     "checked against enumeration");
  cmd_->add_option("FAMILY", family_,
                   "blocked, swizzled_shared, nvmma_shared, nvidia_mma, "
                   "amd_mfma or dot_op")
      ->required();
  cmd_->add_option("--max-log2", maxLog2_,
                   "Every tensor dim at most 2^N (default 3)")
      ->type_name("N")
      ->check(CLI::Range(0, 12));
  cmd_->add_option("--num-warps", numWarps_,
                   "Warps per CTA to sweep (repeatable or space separated; "
                   "default 1 2 4 8 16)")
      ->type_name("W")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1024}));
  cmd_->add_option("--pair-max-log2", pairMaxLog2_,
                   "Check conversion plans only over tensors of at most 2^P "
                   "elements (default 3; "
                   "-1: no plans)")
      ->type_name("P")
      ->check(CLI::Range(-1, 24));
  shardOpt_ =
      cmd_->add_option(
              "--shard", shard_,
              "Run shard I of N (0 <= I < N): the (shape, lanes, warps) groups "
              "whose index is I modulo N; default: from the job engine "
              "(JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, GTEST_SHARD_INDEX)")
          ->type_name("I/N");
  shardCountOpt_ =
      cmd_->add_option(
              "--shard-count", shardCount_,
              "The number of shards, for JOB_COMPLETION_INDEX (a Kubernetes "
              "Indexed Job); checked against the other engines' counts "
              "(default: LLCHECK_SHARD_COUNT)")
          ->type_name("N");
  cmd_->add_option("--format", format_, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  addTritonOption(cmd_, triton_);
}

int SweepCommand::run(std::ostream &out, std::string &errorMessage) {
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
  o.numWarps = numWarps_;
  auto shard = resolveShard(
      *shardOpt_ ? std::optional<std::string>(shard_) : std::nullopt,
      *shardCountOpt_ ? std::optional<int>(shardCount_) : std::nullopt,
      [](const char *name) { return std::getenv(name); });
  if (!shard.ok()) {
    errorMessage = shard.error().str();
    return 2;
  }
  o.shardIndex = shard->index;
  o.shardCount = shard->count;
  if (isatty(STDERR_FILENO))
    o.progress = &std::cerr;
  auto report = fuzz::runSweep(o);
  if (!report.ok()) {
    errorMessage = report.error().str();
    return 2;
  }
  if (format_ == "json")
    out << dumpJson(fuzz::toJson(*report)) << "\n";
  else
    out << fuzz::toText(*report);
  return report->verifyFailures + report->planFailures > 0 ? 1 : 0;
}

} // namespace llcheck::cli
