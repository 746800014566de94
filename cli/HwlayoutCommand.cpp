// `llcheck hwlayout`: read (or emulate) the instruction probes' results, check, print.
#include "HwlayoutCommand.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/JsonFields.h"
#include "llcheck/core/OutputFile.h"
#include "llcheck/core/Spec.h"
#include "llcheck/gpu_oracle/HwLayout.h"
#include "llcheck/gpu_oracle/InstructionProbes.h"
#include "llcheck/gpu_oracle/PtxEmulation.h"

#include <ostream>

namespace llcheck::cli {

CLI::App* addHwlayoutCommand(CLI::App& app, HwlayoutOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "hwlayout",
      "Compare the layouts single instructions showed on a GPU (mma.sync, wgmma, ldmatrix, "
      "stmatrix, TMA, cp.async; measured by gpu_oracle/instructions/run.sh) with llcheck's "
      "encodings, or (--emulate) the PTX ISA's fragment tables with them; needs no GPU");
  cmd->add_option("RESULTS", o.results,
                  "The probes' results (instructions.json from run.sh, e.g. "
                  "corpus/oracle/instructions.json)");
  cmd->add_flag("--emulate", o.emulate,
                "Check the PTX ISA's fragment tables instead of a GPU's results (no RESULTS)");
  cmd->add_option("--out", o.out, "With --emulate: also write the emulated results to this file");
  cmd->add_option("--known", o.known,
                  "Known differences: a JSON object {\"<probe id>[/<layout>]\": \"reason\"}");
  cmd->add_option("--format", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--list", o.list, "List the probes: id and family, one a line");
  return cmd;
}

int runHwlayout(const HwlayoutOptions& o, std::ostream& out, std::string& errorMessage) {
  if (o.list) {
    for (const hwprobe::Probe& p : hwprobe::kProbes)
      out << p.id << "  " << hwprobe::familyName(p.family) << "\n";
    return 0;
  }
  if (o.emulate == !o.results.empty()) {
    errorMessage = o.emulate
                       ? "hwlayout: --emulate takes no RESULTS file"
                       : "hwlayout: give a RESULTS file (the JSON run.sh writes) or --emulate";
    return 2;
  }
  if (!o.out.empty() && !o.emulate) {
    errorMessage = "hwlayout: --out writes the emulated results; it needs --emulate";
    return 2;
  }
  nlohmann::json results;
  if (o.emulate) {
    results = hwlayout::emulateResults();
    if (!o.out.empty()) {
      auto written = writeFileAtomically(o.out, dumpJson(results) + "\n");
      if (!written.ok()) {
        errorMessage = written.error().str();
        return 2;
      }
    }
  } else {
    auto j = readJsonFile(o.results);
    if (!j.ok()) {
      errorMessage = j.error().str();
      return 2;
    }
    results = std::move(*j);
  }
  hwlayout::CheckOptions options;
  if (!o.known.empty()) {
    auto k = readJsonFile(o.known);
    if (!k.ok()) {
      errorMessage = k.error().str();
      return 2;
    }
    if (!k->is_object()) {
      errorMessage = o.known + ": known differences must be a JSON object";
      return 2;
    }
    // Each reason is printed: a string, checked like any JSON from outside.
    for (const auto& [key, reason] : k->items()) {
      auto r = json::asString(reason, json::fieldPath("", key), 4096);
      if (!r.ok()) {
        errorMessage = r.error().within(o.known).str();
        return 2;
      }
    }
    options.known = std::move(*k);
  }
  auto report = hwlayout::checkResults(results, options);
  if (!report.ok()) {
    errorMessage = (o.emulate ? std::string("emulation") : o.results) + ": " + report.error().str();
    return 2;
  }
  if (o.format == "json")
    out << dumpJson(hwlayout::reportJson(*report), 1) << "\n";
  else
    hwlayout::printReport(out, *report);
  return hwlayout::passed(*report) ? 0 : 1;
}

} // namespace llcheck::cli
