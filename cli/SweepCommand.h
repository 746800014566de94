// `llcheck sweep FAMILY`: every encoding of one Triton family in a bounded
// parameter space, each verified, and the conversion plans between them checked
// against enumeration (fuzz/sweep/Sweep.h); sharded like `fuzz`.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace llcheck::cli {

class SweepCommand {
public:
  /// Registers the `sweep` subcommand and its options on `app`.
  explicit SweepCommand(CLI::App &app);
  [[nodiscard]] bool parsed() const { return static_cast<bool>(*cmd_); }
  /// The exit status: 0 nothing failed, 1 a check failed, 2 bad options
  /// (errorMessage: one line).
  int run(std::ostream &out, std::string &errorMessage);

private:
  CLI::App *cmd_ = nullptr;
  std::string family_, shard_, format_ = "text", triton_;
  int maxLog2_ = 3, pairMaxLog2_ = 3, shardCount_ = 1;
  std::vector<uint64_t> numWarps_;
  CLI::Option *shardOpt_ = nullptr;
  CLI::Option *shardCountOpt_ = nullptr;
};

} // namespace llcheck::cli
