// `llcheck fuzz`: the law suite of fuzz/ (RapidCheck), time-boxed, seeded, sharded, with
// failures shrunk and saved under corpus/regressions/, the replay of saved cases, and the
// mutation check (--mutation: fuzz/mutation/Mutation.h).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace llcheck::cli {

class FuzzCommand {
public:
  /// Registers the `fuzz` subcommand and its options on `app`.
  explicit FuzzCommand(CLI::App& app);
  [[nodiscard]] bool parsed() const { return static_cast<bool>(*cmd_); }
  /// The subcommand, for the command table.
  [[nodiscard]] CLI::App* app() const { return cmd_; }
  /// The exit status: 0 no failure, 1 a law failed, 2 bad options (errorMessage: one line).
  int run(std::ostream& out, std::string& errorMessage);

private:
  CLI::App* cmd_ = nullptr;
  std::string time_ = "60";
  uint64_t seed_ = 0;
  uint64_t cases_ = 0;
  std::string shard_, junit_, format_ = "text", replay_, regressions_ = "corpus/regressions";
  std::vector<std::string> laws_;
  bool list_ = false;
  bool quiet_ = false;
  bool mutation_ = false;
  std::string corpus_ = "corpus/layouts";
  int pairs_ = 20, maxLayouts_ = 0;
  double minScore_ = 0;
  int runMutation(std::ostream& out, std::string& errorMessage);
  CLI::Option* seedOpt_ = nullptr;
  CLI::Option* shardOpt_ = nullptr;
};

} // namespace llcheck::cli
