// The llcheck command line: parses arguments, loads SPECs, calls the libraries and prints.
// It holds no algorithm of its own. Exit status: 0 every checked property holds, 1 a property
// is violated or a check failed, 2 bad input or usage (one line on stderr), 3 internal error.
#include "Batch.h"
#include "ContextFlags.h"
#include "FuzzCommand.h"
#include "HwlayoutCommand.h"
#include "OracleCommand.h"
#include "Progress.h"
#include "ReportCommand.h"
#include "SweepCommand.h"
#include "TritonFlag.h"
#include "TtgirOutput.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/prover/Prover.h"
#include "llcheck/verdict/Coalescing.h"
#include "llcheck/verdict/Conversion.h"
#include "llcheck/verdict/ConvertProofs.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <new>
#include <sstream>

namespace {

using namespace llcheck;

constexpr int kExitOk = 0;
constexpr int kExitViolated = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 3;

/// The one place that prints a user-facing error: a single line on stderr, with control
/// characters from the input made visible rather than written raw.
void printError(const std::string& message) {
  std::string line;
  for (unsigned char c : message)
    line += c == '\n' || c == '\r' ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  std::cerr << "llcheck: error: " << line << "\n";
}

struct CommonOptions {
  std::string shape;
  std::string numWarps;
  std::string threadsPerWarp;
  std::string triton;
  std::string format = "text";
  CLI::Option* shapeOpt = nullptr;
  CLI::Option* numWarpsOpt = nullptr;
  CLI::Option* threadsPerWarpOpt = nullptr;
};

void addCommonOptions(CLI::App* cmd, CommonOptions& o) {
  o.shapeOpt = cmd->add_option("--shape", o.shape,
                               "Tensor shape, e.g. 64x16 (powers of two): the shape an encoding "
                               "attribute is laid over; checked against a layout file's outputs")
                   ->type_name("SHAPE");
  o.numWarpsOpt = cmd->add_option("--num-warps", o.numWarps,
                                  "Warps per CTA; checked against the layout's warp dimension")
                      ->type_name("N");
  o.threadsPerWarpOpt = cmd->add_option("--threads-per-warp", o.threadsPerWarp,
                                        "Lanes per warp; checked against the layout's lane "
                                        "dimension")
                            ->type_name("N");
  cli::addTritonOption(cmd, o.triton);
}

/// A count option: a positive power of two, given in decimal.
Result<uint64_t> parseCount(const std::string& text, const char* flag) {
  uint64_t v = 0;
  bool digits = !text.empty() && text.size() <= 12;
  for (char c : text)
    digits = digits && c >= '0' && c <= '9';
  if (!digits)
    return makeError("'" + utf8Prefix(text, 32) + "' is not a positive integer", flag);
  for (char c : text)
    v = v * 10 + static_cast<uint64_t>(c - '0');
  if (v == 0 || (v & (v - 1)) != 0)
    return makeError(std::to_string(v) + " is not a power of two", flag);
  return v;
}

Result<LayoutContext> specOptions(const CommonOptions& o) {
  LayoutContext s;
  if (o.shapeOpt && o.shapeOpt->count() > 0) {
    auto shape = parseShape(o.shape);
    if (!shape.ok())
      return shape.error();
    s.shape = *shape;
  }
  if (o.numWarpsOpt && o.numWarpsOpt->count() > 0) {
    auto n = parseCount(o.numWarps, "--num-warps");
    if (!n.ok())
      return n.error();
    s.numWarps = *n;
  }
  if (o.threadsPerWarpOpt && o.threadsPerWarpOpt->count() > 0) {
    auto n = parseCount(o.threadsPerWarp, "--threads-per-warp");
    if (!n.ok())
      return n.error();
    s.threadsPerWarp = *n;
  }
  auto triton = cli::parseTritonOption(o.triton, "--triton");
  if (!triton.ok())
    return triton.error();
  s.triton = *triton;
  return s;
}

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// `llcheck layout FILE.ttgir`: exit 0 when everything in the module was understood, 1 when
/// something was not (listed in the output), 2 when the file is malformed.
int runTtgir(const std::string& path, const std::string& text, const CommonOptions& o,
             const LayoutContext& opts, bool withOps) {
  if (opts.shape) {
    printError(path + ": --shape does not apply to a TTGIR file (each type gives its shape)");
    return kExitBadInput;
  }
  auto m = readTtgir(text, path, TtgirOptions{opts.numWarps, opts.threadsPerWarp, opts.triton});
  if (!m.ok()) {
    printError(m.error().str());
    return kExitBadInput;
  }
  if (o.format == "json")
    std::cout << dumpJson(cli::ttgirJson(*m, withOps)) << "\n";
  else
    std::cout << cli::ttgirText(*m, withOps, o.format == "attr");
  return m->notUnderstood.empty() ? kExitOk : kExitViolated;
}

/// #ttg.padded_shared's padding, which is not F2-linear and so not part of the layout printed.
std::string paddingStatement(const std::vector<IntervalPad>& padding) {
  std::string pairs, formula = "o";
  for (const IntervalPad& p : padding) {
    pairs +=
        (pairs.empty() ? "" : ", ") + std::to_string(p.interval) + ":+" + std::to_string(p.pad);
    formula += " + (o / " + std::to_string(p.interval) + ") * " + std::to_string(p.pad);
  }
  return "padding [" + pairs +
         "] is applied on top of this linear map (it is not F2-linear): the element at offset o "
         "lies at " +
         formula + " (integer division)";
}

int runLayout(const std::string& spec, const CommonOptions& o, bool withOps) {
  auto opts = specOptions(o);
  if (!opts.ok()) {
    printError(opts.error().str());
    return kExitBadInput;
  }
  auto text = readInputFile(spec);
  if (text.ok() && looksLikeTtgir(*text))
    return runTtgir(spec, *text, o, *opts, withOps);
  if (withOps) {
    // A file that could not be read says why (too large, a folder), not that it is no TTGIR.
    bool inline_ = spec.rfind('#', 0) == 0 || spec.rfind("cute:", 0) == 0;
    printError(text.ok() || inline_
                   ? spec + ": --ops lists the data-moving ops of a TTGIR file; this is not one"
                   : text.error().str());
    return kExitBadInput;
  }
  auto loaded = loadSpec(spec, *opts);
  if (!loaded.ok()) {
    printError(loaded.error().str());
    return kExitBadInput;
  }
  const LinearLayout& l = loaded->layout;
  if (o.format == "json") {
    nlohmann::json j = toJson(l);
    // Kept as a description, so the JSON still loads as the layout's linear component.
    if (!loaded->padding.empty())
      j["description"] = paddingStatement(loaded->padding);
    std::cout << dumpJson(j) << "\n";
  } else if (o.format == "attr") {
    auto attr = toLinearAttr(l, opts->triton);
    if (!attr.ok()) {
      printError(attr.error().within(loaded->source).str());
      return kExitBadInput;
    }
    std::cout << *attr << "\n";
  } else {
    std::cout << l.toString().substr(1) << "\n";
    if (!loaded->padding.empty())
      std::cout << paddingStatement(loaded->padding) << "\n";
    // Which Triton's semantics the layout follows, for an encoding attribute (a layout given
    // as bases means the same in every release).
    if (loaded->format.rfind("ttg.", 0) == 0 || loaded->format.rfind("ttng.", 0) == 0 ||
        loaded->format.rfind("triton_gpu.", 0) == 0)
      std::cout << "(Triton " << tritonVersionName(opts->triton) << " semantics)\n";
  }
  return kExitOk;
}

std::string shortName(const std::string& source) {
  if (source == "attribute")
    return source;
  return std::filesystem::path(source).filename().string();
}

std::string summaryTable(const std::vector<std::pair<std::string, VerifyReport>>& rows) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"layout", "kind", "in->out bits", "injective", "surjective", "invertible",
                   "distributed", "memory", "free variables", "contiguity", "verdict"});
  auto yn = [](const PropertyResult* p) {
    if (!p)
      return std::string("-");
    return p->status() + (p->required ? "*" : "");
  };
  for (const auto& [name, r] : rows) {
    std::string freeVars;
    for (const auto& [d, m] : r.freeVariables)
      if (m != 0)
        freeVars +=
            (freeVars.empty() ? "" : " ") + d.str() + ":" + std::to_string(std::popcount(m));
    std::string contig;
    for (const auto& [d, n] : r.contiguity)
      contig += (contig.empty() ? "" : " ") + std::to_string(n);
    cells.push_back({name, kindName(r.kind),
                     std::to_string(r.layout.getTotalInDimSizeLog2()) + "->" +
                         std::to_string(r.layout.getTotalOutDimSizeLog2()),
                     yn(r.find(Property::Injective)), yn(r.find(Property::Surjective)),
                     yn(r.find(Property::Invertible)), yn(r.find(Property::Distributed)),
                     yn(r.find(Property::Memory)), freeVars.empty() ? "none" : freeVars,
                     contig.empty() ? "1" : contig,
                     r.ok()                 ? "ok"
                     : r.unknowns().empty() ? "FAILED"
                                            : "unknown"});
  }
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& row : cells)
    for (std::size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  std::ostringstream os;
  for (std::size_t r = 0; r < cells.size(); ++r) {
    for (std::size_t c = 0; c < cells[r].size(); ++c)
      os << cells[r][c]
         << (c + 1 < cells[r].size() ? std::string(width[c] - cells[r][c].size() + 2, ' ') : "");
    os << "\n";
  }
  return os.str();
}

/// How the prover is asked: off (--no-z3) or with these limits.
struct ProverChoice {
  bool enabled = true;
  prover::ProverOptions options;
};

void addProverOptions(CLI::App* cmd, ProverChoice& z3, bool& noZ3, const char* noZ3Help) {
  cmd->add_option("--prover-timeout", z3.options.timeoutMs,
                  "Milliseconds Z3 may spend on each query (1-3600000, default " +
                      std::to_string(prover::kDefaultTimeoutMs) +
                      "); a property Z3 cannot decide in time is reported as unknown, exit 1")
      ->type_name("MS")
      ->check(CLI::Range(1u, 3600000u));
  cmd->add_flag("--no-z3", noZ3, noZ3Help);
}

int runVerify(const std::vector<std::string>& specs, const CommonOptions& o,
              const VerifyOptions& vopts, const ProverChoice& z3) {
  auto opts = specOptions(o);
  if (!opts.ok()) {
    printError(opts.error().str());
    return kExitBadInput;
  }
  bool badInput = false, failed = false;
  std::vector<std::string> unknown;
  std::vector<std::pair<std::string, VerifyReport>> reports;
  nlohmann::json results = nlohmann::json::array();
  for (const std::string& spec : specs) {
    auto loaded = loadSpec(spec, *opts);
    if (!loaded.ok()) {
      printError(loaded.error().str());
      badInput = true;
      continue;
    }
    // Enumerating up to 2^28 inputs can take a while: say how far it is (stderr only).
    cli::EnumerationProgressLine progress(shortName(loaded->source) + ", 2^" +
                                          std::to_string(loaded->layout.getTotalInDimSizeLog2()) +
                                          " inputs");
    VerifyOptions withProgress = vopts;
    withProgress.progress = progress.callback();
    auto report = verify(loaded->layout, withProgress);
    progress.done();
    if (!report.ok()) {
      printError(report.error().str());
      return kExitBadInput;
    }
    if (z3.enabled)
      prover::addProofs(*report, z3.options);
    for (const std::string& name : report->unknowns())
      unknown.push_back(name + " of " + shortName(loaded->source));
    failed = failed || !report->ok();
    if (o.format == "json") {
      nlohmann::json j = toJson(*report);
      j["source"] = loaded->source;
      if (!loaded->description.empty())
        j["description"] = loaded->description;
      results.push_back(std::move(j));
    } else if (specs.size() == 1) {
      std::cout << toText(*report, loaded->source);
    }
    reports.emplace_back(shortName(loaded->source), std::move(*report));
  }
  if (o.format == "json") {
    if (specs.size() == 1 && results.size() == 1) {
      std::cout << dumpJson(results[0]) << "\n";
    } else {
      std::size_t okCount = 0;
      for (const auto& [n, r] : reports)
        okCount += r.ok() ? 1 : 0;
      std::cout << dumpJson({{"results", results},
                             {"summary",
                              {{"layouts", reports.size()},
                               {"ok", okCount},
                               {"failed", reports.size() - okCount},
                               {"bad_input", specs.size() - reports.size()}}}})
                << "\n";
    }
  } else if (specs.size() > 1) {
    std::size_t okCount = 0;
    for (const auto& [n, r] : reports)
      okCount += r.ok() ? 1 : 0;
    std::cout << summaryTable(reports);
    std::cout << "(* = required: the legality of the layout's kind, or --require)\n";
    std::cout << plural(reports.size(), "layout") << " verified: " << okCount << " ok, "
              << reports.size() - okCount << " failed";
    if (specs.size() != reports.size())
      std::cout << ", " << specs.size() - reports.size() << " not loaded (bad input)";
    std::cout << "\n";
  }
  if (!unknown.empty()) {
    // Not an input error, so not printError: the answer is "unknown", and the status is 1.
    std::string names;
    for (const std::string& u : unknown)
      names += (names.empty() ? "" : ", ") + u;
    std::cerr << "llcheck: unknown: z3 could not decide " << names << " within --prover-timeout "
              << z3.options.timeoutMs << " ms; they are not reported as holding\n";
  }
  if (badInput)
    return kExitBadInput;
  return failed ? kExitViolated : kExitOk;
}

struct ConversionOptions {
  CommonOptions common;
  std::string src, dst, dtype, arch = "sm90", hardware;
  std::string lowering = "llcheck";
  ProverChoice z3; ///< convert only
  bool noZ3 = false;
};

void addConversionOptions(CLI::App* cmd, ConversionOptions& o, const char* srcHelp,
                          const char* dstHelp, bool bankConflicts = false) {
  // bank-conflicts names its operands REG and SHARED, as its description and docs/bank-conflicts.md
  // do.
  cmd->add_option(bankConflicts ? "REG" : "SRC", o.src, srcHelp)->required();
  cmd->add_option(bankConflicts ? "SHARED" : "DST", o.dst, dstHelp)->required();
  addCommonOptions(cmd, o.common);
  cmd->add_option("--dtype", o.dtype,
                  "Element type: i8, f8 (f8E4M3FN, f8E5M2), f16, bf16, i16, "
                  "f32, tf32, i32, f64, i64")
      ->required()
      ->type_name("DTYPE");
  cmd->add_option("--arch", o.arch,
                  "Shared-memory model: sm90 (default), sm80, gfx942, gfx950 (see below)")
      ->type_name("ARCH");
  cmd->add_option("--hardware", o.hardware,
                  "The GPU the code runs on, when it is not --arch's: its bank model counts the "
                  "wavefronts, --arch's instructions (ldmatrix, stmatrix) are used. --arch sm80 "
                  "--hardware sm90: code built for Ampere on an H100/H200")
      ->check(CLI::IsMember({"sm80", "sm90"}))
      ->type_name("ARCH");
  cmd->add_option("--format", o.common.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--lowering", o.lowering,
                  "Whose instructions: llcheck (default: the best the hardware allows) or triton "
                  "(what Triton emits, in the release --triton names; both are printed where they "
                  "differ)")
      ->check(CLI::IsMember({"llcheck", "triton"}))
      ->type_name("WHO");
  cmd->footer(sharedMemoryAssumptions());
}

/// Loads both SPECs and the model; a bad one is reported here (exit 2).
int runConversionCommand(const ConversionOptions& o, bool convert) {
  auto opts = specOptions(o.common);
  if (!opts.ok()) {
    printError(opts.error().str());
    return kExitBadInput;
  }
  auto model = sharedMemoryModel(o.arch);
  if (!model.ok()) {
    printError(model.error().str());
    return kExitBadInput;
  }
  if (!o.hardware.empty() && o.hardware != o.arch) {
    if (o.arch != "sm80" && o.arch != "sm90") {
      printError("--hardware: " + o.hardware + " runs NVIDIA code; --arch is " + o.arch);
      return kExitBadInput;
    }
    // The hardware's banks and phases; the target's instructions.
    auto hw = sharedMemoryModel(o.hardware);
    if (!hw.ok()) {
      printError(hw.error().str());
      return kExitBadInput;
    }
    hw->ldmatrix = model->ldmatrix;
    hw->stmatrix = model->stmatrix;
    model = std::move(hw);
  }
  auto bits = dtypeBits(o.dtype);
  if (!bits.ok()) {
    printError(bits.error().str());
    return kExitBadInput;
  }
  auto src = loadSpec(o.src, *opts);
  if (!src.ok()) {
    printError(src.error().within(convert ? "SRC" : "REG").str());
    return kExitBadInput;
  }
  // --num-warps and --threads-per-warp describe REG: a shared layout has no warps or lanes to
  // check them against (issue 33: `bank-conflicts REG SHARED --num-warps 4` refused SHARED).
  LayoutContext dstOptions = *opts;
  if (!convert) {
    dstOptions.numWarps.reset();
    dstOptions.threadsPerWarp.reset();
  }
  auto dst = loadSpec(o.dst, dstOptions);
  if (!dst.ok()) {
    printError(dst.error().within(convert ? "DST" : "SHARED").str());
    return kExitBadInput;
  }
  if (convert && !dst->padding.empty()) {
    printError("DST: a padded shared layout is not a distributed layout to convert to");
    return kExitBadInput;
  }
  if (!src->padding.empty()) {
    printError(std::string(convert ? "SRC" : "REG") +
               ": a padded shared layout is not a distributed layout");
    return kExitBadInput;
  }
  if (o.lowering == "triton" && o.arch != "sm90" && o.arch != "sm80") {
    printError("--lowering triton: Triton's lowering is modelled for NVIDIA sm80 and sm90, not " +
               o.arch);
    return kExitBadInput;
  }
  verdict::ConversionRequest request{*src, *dst, o.dtype, *bits, *model, o.common.format == "json"};
  request.tritonLowering = o.lowering == "triton";
  request.triton = opts->triton;
  if (convert) {
    std::optional<prover::ProverOptions> z3;
    if (!o.noZ3)
      z3 = o.z3.options;
    request.properties = [&request, z3](const ConversionPlan& plan, const OptimalSwizzle* s) {
      return verdict::proveConvert(plan, s, request.elementBits, request.model, z3);
    };
  }
  std::string message;
  int status = convert ? verdict::runConvert(request, std::cout, message)
                       : verdict::runBankConflicts(request, std::cout, message);
  if (!message.empty())
    printError(message);
  return status;
}

struct CoalescingCliOptions {
  CommonOptions common;
  std::string spec, dtype, arch = "sm90", strides, baseAlignment = "128", lowering = "llcheck";
  CLI::Option* stridesOpt = nullptr;
  ProverChoice z3;
  bool noZ3 = false;
};

/// --strides: comma-separated non-negative element counts, dim0 first ("64,1").
Result<std::vector<int64_t>> parseStrides(const std::string& text) {
  std::vector<int64_t> strides;
  std::string item;
  auto flush = [&]() -> std::optional<Error> {
    bool digits = !item.empty() && item.size() <= 13;
    for (char c : item)
      digits = digits && c >= '0' && c <= '9';
    if (!digits)
      return makeError("'" + utf8Prefix(item, 32) +
                           "' is not a stride (expected non-negative element counts, dim0 "
                           "first, such as 64,1)",
                       "--strides");
    strides.push_back(std::stoll(item));
    item.clear();
    return std::nullopt;
  };
  for (char c : text) {
    if (c == ',') {
      if (auto e = flush())
        return *e;
    } else {
      item += c;
    }
  }
  if (auto e = flush())
    return *e;
  return strides;
}

CLI::App* addCoalescingCommand(CLI::App& app, CoalescingCliOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "coalescing", "Predict the global-memory vector width, requests, 32-byte sectors and "
                    "128-byte lines of a warp's load and store of SPEC (per CTA)");
  cmd->add_option("SPEC", o.spec, "The distributed layout in registers")->required();
  addCommonOptions(cmd, o.common);
  cmd->add_option("--dtype", o.dtype,
                  "Element type: i8, f8 (f8E4M3FN, f8E5M2), f16, bf16, i16, f32, tf32, i32, f64, "
                  "i64")
      ->required()
      ->type_name("DTYPE");
  o.stridesOpt = cmd->add_option("--strides", o.strides,
                                 "Elements between consecutive indices of each dim, dim0 first "
                                 "(e.g. 1,64 for a column-major 64x64 tensor); default: "
                                 "contiguous row-major")
                     ->type_name("S0,S1,...");
  cmd->add_option("--base-alignment", o.baseAlignment,
                  "The tensor starts this many bytes past a 128-byte line (a power of two, at "
                  "least one element); 128 or more: on a line (default 128)")
      ->type_name("BYTES");
  cmd->add_option("--arch", o.arch, "Global-memory model: sm90 (default) or sm80")
      ->type_name("ARCH");
  cmd->add_option("--format", o.common.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  addProverOptions(cmd, o.z3, o.noZ3,
                   "Do not ask Z3: the sectors per request are not proven, only counted");
  cmd->add_option("--lowering", o.lowering,
                  "Whose instructions: llcheck (default: the widest vector the layout allows) or "
                  "triton (also what Triton emits for a tt.load and a tt.store, in the release "
                  "--triton names: its vector, and a store that only warps without copies issue)")
      ->check(CLI::IsMember({"llcheck", "triton"}))
      ->type_name("WHO");
  cmd->footer("Model: one request per warp-level instruction; a request's sectors are the "
              "distinct 32-byte segments its lanes' vectors fall in (lanes reading the same bytes "
              "share them); the ideal is the same bytes in the fewest sectors. Vectors are at "
              "most 16 bytes and aligned to their size (sm80 and sm90 alike; see "
              "docs/coalescing.md).");
  return cmd;
}

int runCoalescingCommand(const CoalescingCliOptions& o) {
  auto opts = specOptions(o.common);
  if (!opts.ok()) {
    printError(opts.error().str());
    return kExitBadInput;
  }
  auto model = globalMemoryModel(o.arch);
  if (!model.ok()) {
    printError(model.error().within("--arch").str());
    return kExitBadInput;
  }
  auto bits = dtypeBits(o.dtype);
  if (!bits.ok()) {
    printError(bits.error().str());
    return kExitBadInput;
  }
  auto alignment = parseCount(o.baseAlignment, "--base-alignment");
  if (!alignment.ok()) {
    printError(alignment.error().str());
    return kExitBadInput;
  }
  verdict::CoalescingRequest request;
  request.dtype = o.dtype;
  request.model = *model;
  request.json = o.common.format == "json";
  request.options.elementBits = *bits;
  request.options.baseAlignment = *alignment;
  if (!o.noZ3)
    request.prove = o.z3.options;
  if (o.lowering == "triton")
    request.tritonLowering = opts->triton;
  if (*alignment < static_cast<uint64_t>(*bits / 8)) {
    printError("--base-alignment: " + std::to_string(*alignment) + " bytes is less than one " +
               o.dtype + " element (" + std::to_string(*bits / 8) + " bytes)");
    return kExitBadInput;
  }
  if (o.stridesOpt->count() > 0) {
    auto strides = parseStrides(o.strides);
    if (!strides.ok()) {
      printError(strides.error().str());
      return kExitBadInput;
    }
    request.options.strides = *strides;
  }
  auto loaded = loadSpec(o.spec, *opts);
  if (!loaded.ok()) {
    printError(loaded.error().str());
    return kExitBadInput;
  }
  if (!loaded->padding.empty()) {
    printError(loaded->source + ": a padded shared layout is not a distributed layout");
    return kExitBadInput;
  }
  request.layout = std::move(*loaded);
  int rank = request.layout.layout.getNumOutDims();
  if (!request.options.strides.empty() &&
      static_cast<int>(request.options.strides.size()) != rank) {
    printError("--strides: " + std::to_string(request.options.strides.size()) +
               " strides for a tensor of rank " + std::to_string(rank) +
               " (one per dim, dim0 first)");
    return kExitBadInput;
  }
  std::string message;
  int status = verdict::runCoalescing(request, std::cout, message);
  if (!message.empty())
    printError(message);
  return status;
}

/// `llcheck verify`: --require read into properties, then the specs verified.
int runVerifyCommand(const std::vector<std::string>& specs, const CommonOptions& common,
                     VerifyOptions vopts, const std::string& require, ProverChoice z3, bool noZ3) {
  std::stringstream ss(require);
  for (std::string item; std::getline(ss, item, ',');) {
    if (item.empty())
      continue;
    std::optional<Property> property = parseProperty(item);
    if (!property) {
      printError(unknownPropertyError(item, "--require").str());
      return kExitBadInput;
    }
    vopts.require.push_back(*property);
  }
  z3.enabled = !noZ3;
  return runVerify(specs, common, vopts, z3);
}

/// `llcheck gather SPEC --axis A`.
int runGatherCommand(const std::string& spec, int axis, const CommonOptions& common) {
  auto opts = specOptions(common);
  if (!opts.ok()) {
    printError(opts.error().str());
    return kExitBadInput;
  }
  auto loaded = loadSpec(spec, *opts);
  if (!loaded.ok()) {
    printError(loaded.error().str());
    return kExitBadInput;
  }
  std::string message;
  int status = verdict::runGather(*loaded, axis, common.format == "json", std::cout, message);
  if (!message.empty())
    printError(message);
  return status;
}

/// `llcheck batch FILE`: the --triton default read, then every line printed.
int runBatchCommand(const std::string& file, const std::string& tritonFlag) {
  auto triton = cli::parseTritonOption(tritonFlag, "--triton");
  if (!triton.ok()) {
    printError(triton.error().str());
    return kExitBadInput;
  }
  std::string message;
  int status = cli::runBatch(file, std::cout, message, *triton);
  if (!message.empty())
    printError(message);
  return status;
}

// ---- The commands' options ---------------------------------------------------------------------
// One add...Command per subcommand, each declaring its operands and options on the variables it
// is given (they must outlive parsing); run() adds them in the order `llcheck --help` lists them.

/// The tool's description and the footer under `llcheck --help`.
void describeApp(CLI::App& app) {
  app.set_version_flag("--version", "llcheck 0.1.0");
  app.require_subcommand(1);
  app.footer("SPEC is a Layout JSON file, a file in Triton's printed form, a file holding an\n"
             "attribute (or, for layout, a whole TTGIR module), or an inline attribute such as "
             "'#ttg.linear<{register = [[0, 1]], lane "
             "= [...], warp = [...], block = []}>', or a CuTe layout such as\n"
             "'cute:Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)' (offset -> coordinates, as a shared "
             "layout).\n"
             "Exit status: 0 all checked properties hold, 1 a property is violated or unknown (Z3 "
             "timed out), 2 bad input "
             "or usage, 3 internal error.");
}

struct LayoutCliOptions {
  CommonOptions common;
  std::string spec;
  bool ops = false;
};

CLI::App* addLayoutCommand(CLI::App& app, LayoutCliOptions& o) {
  CLI::App* layout = app.add_subcommand(
      "layout", "Print the linear layout of SPEC, or every layout of a TTGIR file");
  layout->add_option("SPEC", o.spec, "The layout (file or inline attribute) or a TTGIR file")
      ->required();
  layout->add_flag("--ops", o.ops, "TTGIR files: also list the ops that move data between layouts");
  addCommonOptions(layout, o.common);
  layout
      ->add_option("--format", o.common.format,
                   "text (Triton's printed form), json (Layout JSON v1) or attr (#ttg.linear)")
      ->check(CLI::IsMember({"text", "json", "attr"}));
  return layout;
}

struct VerifyCliOptions {
  CommonOptions common;
  VerifyOptions vopts;
  std::vector<std::string> specs;
  std::string require;
  ProverChoice z3;
  bool noZ3 = false;
};

CLI::App* addVerifyCommand(CLI::App& app, VerifyCliOptions& o) {
  CLI::App* verifyCmd = app.add_subcommand(
      "verify", "Prove or refute every property of each SPEC by the algebra, Z3 and (small "
                "layouts) enumeration; several SPECs give a summary table");
  verifyCmd->add_option("SPEC", o.specs, "One or more layouts")->required();
  addCommonOptions(verifyCmd, o.common);
  verifyCmd->add_option("--format", o.common.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  verifyCmd->add_option("--require", o.require,
                        "Comma-separated properties that must also hold (injective, surjective, "
                        "invertible, distributed, memory)");
  verifyCmd
      ->add_option("--max-enumeration-bits", o.vopts.maxEnumerationBits,
                   "Enumerate layouts with at most 2^N inputs as a second opinion (0-28)")
      ->check(CLI::Range(0, 28));
  addProverOptions(verifyCmd, o.z3, o.noZ3,
                   "Do not ask Z3: properties are established by the algebra and enumeration");
  return verifyCmd;
}

CLI::App* addBatchCommand(CLI::App& app, std::string& file, std::string& triton) {
  CLI::App* batch = app.add_subcommand(
      "batch", "Print the linear layouts of many attributes, one JSON object per line (see "
               "docs/batch.md)");
  batch
      ->add_option("FILE", file,
                   "JSON lines {\"id\", \"attr\", \"shape\", \"num_warps\", "
                   "\"threads_per_warp\", \"triton\"}, or - for stdin")
      ->required();
  cli::addTritonOption(batch, triton)
      ->description("Triton release whose semantics the attributes have, where a line has no "
                    "\"triton\" key: " +
                    supportedTritonList() + " (default " + tritonVersionName(kNewestTriton) +
                    ", the newest)");
  return batch;
}

CLI::App* addConvertCommand(CLI::App& app, ConversionOptions& o) {
  CLI::App* convertCmd = app.add_subcommand(
      "convert", "Plan the conversion SRC -> DST (paper 5.4): no-op, register permutation, warp "
                 "shuffles or shared memory; for shared memory the optimal swizzled layout, its "
                 "vector width, predicted wavefronts and bank conflicts, and Lemma 9.5's bound");
  addConversionOptions(convertCmd, o, "The layout the data is in (distributed)",
                       "The layout the data must end up in (distributed)");
  addProverOptions(convertCmd, o.z3, o.noZ3,
                   "Do not ask Z3: the plan's properties are checked by the algebra alone");
  return convertCmd;
}

CLI::App* addBankConflictsCommand(CLI::App& app, ConversionOptions& o) {
  CLI::App* bankCmd = app.add_subcommand(
      "bank-conflicts", "Predict wavefronts and bank conflicts when REG is stored to and loaded "
                        "from SHARED (per CTA, summed over warps and instructions)");
  addConversionOptions(bankCmd, o, "The distributed layout in registers",
                       "The shared-memory layout (offset[, block] -> dims; "
                       "#ttg.padded_shared is counted with its padding)",
                       true);
  return bankCmd;
}

struct GatherCliOptions {
  CommonOptions common;
  std::string spec;
  int axis = 0;
};

CLI::App* addGatherCommand(CLI::App& app, GatherCliOptions& o) {
  CLI::App* gatherCmd = app.add_subcommand(
      "gather", "Does a gather along AXIS stay within a warp, and in how many shuffle rounds "
                "(paper 5.5)");
  gatherCmd->add_option("SPEC", o.spec, "The distributed layout of the source and index")
      ->required();
  gatherCmd->add_option("--axis", o.axis, "The tensor dimension gathered along (0, 1, ...)")
      ->required()
      ->check(CLI::Range(0, 15));
  addCommonOptions(gatherCmd, o.common);
  gatherCmd->add_option("--format", o.common.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return gatherCmd;
}

// ---- Dispatch ----------------------------------------------------------------------------------

/// A command's subcommand and what runs it once parsed.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

/// Parses the command line and runs the command it names. The unknown-command message and the
/// dispatch both read `commands`, so a command is named in one place.
int parseAndRun(CLI::App& app, const std::vector<Command>& commands, int argc, char** argv) {
  // CLI11 reports an unknown first word only as "A subcommand is required"; name it.
  std::string names;
  bool known = false;
  for (const Command& c : commands) {
    names += (names.empty() ? "" : ", ") + c.app->get_name();
    known = known || (argc > 1 && c.app->get_name() == argv[1]);
  }
  if (argc > 1 && argv[1][0] != '-' && !known) {
    printError("unknown command '" + utf8Prefix(argv[1], 64) + "' (commands: " + names +
               "; run 'llcheck --help')");
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    printError(std::string(e.what()) + " (run 'llcheck --help')");
    return kExitBadInput;
  }
  for (const Command& c : commands)
    if (c.app->parsed())
      return c.run();
  printError("no command given (commands: " + names + "; run 'llcheck --help')");
  return kExitBadInput;
}

int run(int argc, char** argv) {
  CLI::App app{"llcheck: verify linear layouts (GPU tensor layouts as F2-linear maps, as in "
               "Triton)"};
  describeApp(app);
  LayoutCliOptions layoutOpts;
  CLI::App* layout = addLayoutCommand(app, layoutOpts);
  VerifyCliOptions verifyOpts;
  CLI::App* verifyCmd = addVerifyCommand(app, verifyOpts);
  std::string batchFile, batchTriton;
  CLI::App* batch = addBatchCommand(app, batchFile, batchTriton);
  ConversionOptions convertOpts;
  CLI::App* convertCmd = addConvertCommand(app, convertOpts);
  ConversionOptions bankOpts;
  CLI::App* bankCmd = addBankConflictsCommand(app, bankOpts);
  GatherCliOptions gatherOpts;
  CLI::App* gatherCmd = addGatherCommand(app, gatherOpts);
  CoalescingCliOptions coalescingOpts;
  CLI::App* coalescingCmd = addCoalescingCommand(app, coalescingOpts);
  cli::OracleOptions oracleOpts;
  CLI::App* oracleCmd = cli::addOracleCommand(app, oracleOpts);
  cli::HwlayoutOptions hwlayoutOpts;
  CLI::App* hwlayoutCmd = cli::addHwlayoutCommand(app, hwlayoutOpts);
  cli::FuzzCommand fuzzCmd(app);
  cli::ReportCommandOptions reportOpts;
  CLI::App* reportCmd = cli::addReportCommand(app, reportOpts);
  cli::SweepCommand sweepCmd(app);

  // The command table, in the order `llcheck --help` lists them.
  auto reported = [](auto runner) {
    return [runner] {
      std::string message;
      int status = runner(message);
      if (!message.empty())
        printError(message);
      return status;
    };
  };
  const VerifyCliOptions& v = verifyOpts;
  const std::vector<Command> commands = {
      {layout, [&] { return runLayout(layoutOpts.spec, layoutOpts.common, layoutOpts.ops); }},
      {verifyCmd,
       [&] { return runVerifyCommand(v.specs, v.common, v.vopts, v.require, v.z3, v.noZ3); }},
      {batch, [&] { return runBatchCommand(batchFile, batchTriton); }},
      {convertCmd, [&] { return runConversionCommand(convertOpts, true); }},
      {bankCmd, [&] { return runConversionCommand(bankOpts, false); }},
      {coalescingCmd, [&] { return runCoalescingCommand(coalescingOpts); }},
      {gatherCmd,
       [&] { return runGatherCommand(gatherOpts.spec, gatherOpts.axis, gatherOpts.common); }},
      {oracleCmd, reported([&](std::string& m) { return cli::runOracle(oracleOpts, m); })},
      {hwlayoutCmd,
       reported([&](std::string& m) { return cli::runHwlayout(hwlayoutOpts, std::cout, m); })},
      {fuzzCmd.app(), reported([&](std::string& m) { return fuzzCmd.run(std::cout, m); })},
      {reportCmd, reported([&](std::string& m) { return cli::runReport(reportOpts, m); })},
      {sweepCmd.app(), reported([&](std::string& m) { return sweepCmd.run(std::cout, m); })},
  };
  return parseAndRun(app, commands, argc, argv);
}

} // namespace

namespace {

/// Memory set aside at start and given back when an allocation first fails, so that the
/// unwinding after std::bad_alloc can still allocate: some destructors do (nlohmann::json frees
/// nested arrays with a stack of its own), and a second bad_alloc inside a destructor would
/// terminate the process (SIGABRT) instead of reaching main's one-line message.
char* gMemoryReserve = nullptr;

void outOfMemory() {
  delete[] gMemoryReserve;
  gMemoryReserve = nullptr;
  throw std::bad_alloc();
}

} // namespace

int main(int argc, char** argv) {
  for (std::size_t mb : {32, 8, 1})
    if (!gMemoryReserve)
      gMemoryReserve = new (std::nothrow) char[mb << 20];
  std::set_new_handler(outOfMemory);
  llcheck::setContextNames(&llcheck::cli::contextFlag);
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    // Whatever asked for it, running out of memory ends the run with one line, not SIGABRT.
    std::cerr << "llcheck: internal error: out of memory (the input needs more memory than this "
                 "machine or its limits allow; docs/limits.md states the bounds)\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "llcheck: internal error (a bug in llcheck, please report it): " << e.what()
              << "\n";
    return kExitInternal;
  }
}
