// `llcheck report INPUT... --out DIR`: the conformance report of a compiler backend's TTGIR
// dumps (the analysis and the four output forms live in reports/; this is the wiring).
#pragma once

#include "llcheck/reports/Sass.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace llcheck::cli {

struct ReportCommandOptions {
  std::vector<std::string> inputs;
  std::string out;
  std::string oracle;
  std::string arch;
  std::string hardware;
  bool noZ3 = false;
  unsigned proverTimeoutMs = 0;
  unsigned jobs = 0;
  bool quiet = false;
  std::string triton;
  bool noSass = false;
  std::string cuobjdump;
  int cuobjdumpSeconds = reports::kCuobjdumpTimeoutSeconds;
  std::string launches;
};

CLI::App* addReportCommand(CLI::App& app, ReportCommandOptions& options);

/// Exit status: 0 no findings, 1 findings (each in the report), 2 bad input (one line in
/// errorMessage).
int runReport(const ReportCommandOptions& options, std::string& errorMessage);

} // namespace llcheck::cli
