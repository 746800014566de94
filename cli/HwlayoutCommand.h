// `llcheck hwlayout [RESULTS]`: the layouts single instructions showed on a GPU (the instruction
// probes of gpu_oracle/instructions/, run by its run.sh on a GPU machine), compared with
// llcheck's encodings; or the same check on the PTX ISA's fragment tables (--emulate). The
// decoding and comparison live in gpu_oracle/ (HwLayout.h); this is the wiring.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace llcheck::cli {

struct HwlayoutOptions {
  std::string results;
  bool emulate = false;
  std::string out;
  std::string known;
  std::string format = "text";
  bool list = false;
};

CLI::App* addHwlayoutCommand(CLI::App& app, HwlayoutOptions& options);

/// Exit status: 0 every layout equal (or its difference known), every probe ran, no sanitizer
/// error; 1 otherwise; 2 bad input (one line in errorMessage).
int runHwlayout(const HwlayoutOptions& options, std::ostream& out, std::string& errorMessage);

} // namespace llcheck::cli
