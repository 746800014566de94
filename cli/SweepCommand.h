// `llcheck sweep FAMILY`: every encoding of one Triton family in a bounded parameter space,
// each verified, and the conversion plans between them checked against enumeration
// (fuzz/sweep/Sweep.h); sharded by cost over a job engine's tasks, resumable from a checkpoint,
// and `llcheck sweep merge` adds the shards' JSON results up (docs/sweep.md).
#pragma once

#include "sweep/Sweep.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace llcheck::cli {

class SweepCommand {
public:
  /// Registers the `sweep` subcommand, its `merge` subcommand and their options on `app`.
  explicit SweepCommand(CLI::App& app);
  [[nodiscard]] bool parsed() const { return static_cast<bool>(*cmd_); }
  /// The subcommand, for the command table.
  [[nodiscard]] CLI::App* app() const { return cmd_; }
  /// The exit status: 0 nothing failed, 1 a check failed, 2 bad options or input (errorMessage:
  /// one line).
  int run(std::ostream& out, std::string& errorMessage);

private:
  int runMerge(std::ostream& out, std::string& errorMessage);

  CLI::App* cmd_ = nullptr;
  CLI::App* mergeCmd_ = nullptr;
  std::string family_, shard_, format_ = "text", triton_, checkpoint_, against_, python_,
                               groupTimes_;
  int maxLog2_ = 3, pairMaxLog2_ = 3, partMinLog2_ = fuzz::SweepParameters::kDefaultPartMinLog2,
      shardCount_ = 1, jobs_ = 1, tritonTimeout_ = 600;
  double checkpointEvery_ = 5;
  bool quiet_ = false, noReduce_ = false, estimate_ = false;
  std::vector<uint64_t> numWarps_;
  CLI::Option* shardOpt_ = nullptr;
  CLI::Option* shardCountOpt_ = nullptr;
  CLI::Option* tritonOpt_ = nullptr;
  std::vector<std::string> results_;
  std::string mergeFormat_ = "text";
};

} // namespace llcheck::cli
