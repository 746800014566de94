// Wiring of `llcheck report` (see ReportCommand.h).
#include "ReportCommand.h"

#include "Progress.h"
#include "TritonFlag.h"

#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/prover/Prover.h"
#include "llcheck/reports/Outputs.h"
#include "llcheck/reports/Report.h"
#include "llcheck/reports/Sass.h"

#include <unistd.h>

#include <iostream>
#include <optional>

namespace llcheck::cli {

CLI::App* addReportCommand(CLI::App& app, ReportCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "report", "Conformance report of TTGIR dumps: every layout proven as in verify, every "
                "data-moving op planned and predicted against llcheck's optimum (and measured, "
                "with --oracle); writes report.json, report.md, junit.xml and report.html. Exit 0 "
                "no findings, 1 findings, 2 bad input");
  cmd->add_option("INPUT", o.inputs, "TTGIR files, or folders searched for *.ttgir and *.mlir")
      ->required();
  cmd->add_option("--out", o.out,
                  "The folder the four files are written to (created): a real folder, not a "
                  "symbolic link; locked while a report is written (a second one exits 2); "
                  "each file replaced whole, never written through a link")
      ->required()
      ->type_name("DIR");
  cmd->add_option("--oracle", o.oracle,
                  "GPU oracle results (`llcheck oracle --out`, e.g. corpus/oracle/results.json): "
                  "measured counters beside the predictions of the ops they measured")
      ->type_name("RESULTS.json");
  cmd->add_option("--arch", o.arch,
                  "The bank model for every kernel (sm90, sm80, gfx942, gfx950); default: from "
                  "each module's ttg.target")
      ->type_name("ARCH");
  cmd->add_option("--hardware", o.hardware,
                  "The NVIDIA GPU the kernels run on, when it is not their target's: its bank "
                  "model counts the wavefronts, the target's instructions are used (sm80 code "
                  "on an H100/H200: --hardware sm90)")
      ->check(CLI::IsMember({"sm80", "sm90"}))
      ->type_name("ARCH");
  cmd->add_flag("--no-z3", o.noZ3,
                "Do not ask Z3: properties are established by the algebra and enumeration");
  cmd->add_option("--prover-timeout", o.proverTimeoutMs,
                  "Milliseconds Z3 may spend on each query (default " +
                      std::to_string(prover::kDefaultTimeoutMs) + ")")
      ->type_name("MS")
      ->check(CLI::Range(1u, 3600000u));
  cmd->add_option("--jobs", o.jobs, "Worker threads (default: one per core)")
      ->type_name("N")
      ->check(CLI::Range(1u, 256u));
  cmd->add_flag("--quiet", o.quiet, "Print nothing but errors");
  cmd->add_flag("--no-sass", o.noSass,
                "Do not read the SASS beside each TTGIR file (STEM.sass, or STEM.cubin through "
                "cuobjdump), from which the early exit of redundant warps is predicted");
  cmd->add_option("--cuobjdump", o.cuobjdump,
                  "The cuobjdump that disassembles a STEM.cubin beside a TTGIR file (default: "
                  "$CUOBJDUMP, then cuobjdump on PATH, then /usr/local/cuda/bin/cuobjdump)")
      ->type_name("PATH");
  cmd->add_option("--cuobjdump-timeout", o.cuobjdumpSeconds,
                  "Seconds cuobjdump may take on one cubin before it is killed and the SASS is "
                  "noted as not read (default " +
                      std::to_string(reports::kCuobjdumpTimeoutSeconds) + ")")
      ->type_name("SEC")
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--launches", o.launches,
                  "A JSON file of kernel launches (grid, integer arguments, pointer offsets); "
                  "each tt.load / tt.store of those kernels gets its instructions and sectors in "
                  "each launch, and each sm90 async copy its LDGSTS wavefronts, from the "
                  "kernel's own address arithmetic run for every program (docs/report.md)")
      ->type_name("FILE");
  addTritonOption(cmd, o.triton);
  return cmd;
}

int runReport(const ReportCommandOptions& o, std::string& errorMessage) {
  reports::ReportOptions options;
  auto triton = parseTritonOption(o.triton, "--triton");
  if (!triton.ok()) {
    errorMessage = triton.error().str();
    return 2;
  }
  options.triton = *triton;
  if (!o.arch.empty()) {
    auto model = sharedMemoryModel(o.arch);
    if (!model.ok()) {
      errorMessage = model.error().within("--arch").str();
      return 2;
    }
    options.arch = o.arch;
  }
  if (!o.hardware.empty())
    options.hardware = o.hardware;
  options.z3 = !o.noZ3;
  if (o.proverTimeoutMs)
    options.prover.timeoutMs = o.proverTimeoutMs;
  options.threads = o.jobs;
  options.readSass = !o.noSass;
  if (options.readSass) {
    options.cuobjdump = reports::findCuobjdump(o.cuobjdump);
    options.cuobjdumpSeconds = o.cuobjdumpSeconds;
    if (!o.cuobjdump.empty() && options.cuobjdump.empty()) {
      errorMessage = "--cuobjdump: '" + o.cuobjdump + "' is not an executable file";
      return 2;
    }
  }
  reports::OracleResults oracle;
  if (!o.oracle.empty()) {
    auto r = reports::readOracleResults(o.oracle);
    if (!r.ok()) {
      errorMessage = r.error().str();
      return 2;
    }
    oracle = std::move(*r);
    options.oracle = &oracle;
  }
  if (!o.launches.empty()) {
    auto launches = reports::readLaunches(o.launches);
    if (!launches.ok()) {
      errorMessage = launches.error().str();
      return 2;
    }
    options.launches = std::move(*launches);
  }
  auto files = reports::collectInputs(o.inputs);
  if (!files.ok()) {
    errorMessage = files.error().str();
    return 2;
  }
  // A progress line on a terminal only (never in a CI log), and not with --quiet.
  std::optional<CountProgressLine> line;
  if (!o.quiet && isatty(STDERR_FILENO) && files->size() > 1) {
    line.emplace("report", "files");
    options.progress = [&line](std::size_t done, std::size_t total) { line->update(done, total); };
  }
  auto written = reports::writeReport(*files, options, o.out);
  if (line)
    line->done();
  if (!written.ok()) {
    errorMessage = written.error().str();
    return 2;
  }
  const reports::ReportTotals& t = *written;
  if (!o.quiet)
    std::cout << "llcheck report: " << t.files << (t.files == 1 ? " kernel, " : " kernels, ")
              << t.layouts << (t.layouts == 1 ? " layout, " : " layouts, ") << t.opsChecked
              << " of " << t.ops << (t.ops == 1 ? " data-moving op" : " data-moving ops")
              << " checked, " << t.findings << (t.findings == 1 ? " finding in " : " findings in ")
              << t.seconds << " s; wrote " << o.out
              << "/{report.json,report.md,junit.xml,report.html}\n";
  return t.findings == 0 ? 0 : 1;
}

} // namespace llcheck::cli
