// `llcheck oracle CASES --out FILE`: runs each case on the GPU with the CUDA runner under
// Nsight Compute and writes predictions, counters and data checks side by side (the oracle's
// host logic lives in gpu_oracle/; this is the command's wiring).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace llcheck::cli {

struct OracleOptions {
  std::string cases;
  std::string out;
  std::string arch = "sm90";
  std::string runner;
  std::string ncu = "ncu";
  bool noCounters = false;
  /// No progress line (there is one only on a terminal) and no "N cases on GPU" line.
  bool quiet = false;
  std::string workDir;
  /// The runner (under ncu) is killed after this many seconds, and the run fails saying so.
  double runnerTimeout = 3600;
};

CLI::App* addOracleCommand(CLI::App& app, OracleOptions& options);

/// Exit status: 0 every case correct and every counter as predicted, 1 otherwise, 2 bad input
/// or no GPU / runner / ncu.
int runOracle(const OracleOptions& options, std::string& errorMessage);

} // namespace llcheck::cli
