// Conformance reports for a compiler backend's TTGIR dumps (`llcheck report`): every layout of
// every kernel with its properties (as `llcheck verify` establishes them), every op that moves
// data between layouts with its plan, the legality of the layouts the compiler chose, the
// predicted shared-memory wavefronts of what the compiler emits next to llcheck's optimum for
// the same conversion, and, when GPU oracle results are given, the measured counters beside
// the predictions. The analysis lives here; Outputs.h writes it as JSON, Markdown, JUnit XML and
// HTML.
//
// # What the compiler emits (`predicted`)
//
// On NVIDIA targets (the sm80 and sm90 bank models), each op's `predicted` is what Triton
// (ReportOptions::triton) emits for it, by TritonLowering.h: local_alloc / local_store
// (tritonLocalAccess, Store), local_load (Load), async_copy_global_to_local (tritonAsyncCopy,
// the pointers taken as a row-major tensor 16-byte aligned: TTGIR does not show their
// contiguity), convert_layout (tritonConvertNeedsSharedMemory, then tritonConvertLayout: Triton's
// own scratch layout and instructions, or no shared traffic). llcheck's own best instruction for
// the same op (ld/st.shared at the widest vector or ldmatrix/stmatrix; for convert_layout, its
// plan) stays beside it as `predicted.llcheck`, and the GPU oracle's counters, which measured
// llcheck's instruction, are compared with that. A Triton access that a padded layout moves off
// its alignment is the finding "misaligned_access" (the GPU faults). On AMD targets `predicted`
// is llcheck's own best instruction, as before (`lowering`: "llcheck"); so is it where Triton's
// lowering is not modelled for an op's layouts (`triton_error` says why).
//
// # What "the same conversion" is for each op
//
// - ttg.convert_layout SRC -> DST: the optimum is llcheck's plan (no-op, register permutation,
//   warp shuffles, or shared memory with the optimal swizzle, paper 5.4 and 9.2); Triton's
//   predicted store + load above it is the finding "above_optimum".
// - ttg.local_alloc / ttg.local_store / ttg.async_copy_global_to_local write a register layout A
//   into the compiler's shared layout S; ttg.local_load reads S into a register layout B. The
//   kernel's conversion through S is A -> S -> B for every writer A and reader B of the same
//   shared layout (encoding and shape) in the module: its predicted cost is the compiler's
//   store of A plus load of B through S, its optimum optimalSwizzle(A, B). A shared layout that
//   nothing in the module reads with local_load is read straight from shared memory: where the
//   module shows the reader (ttng.warp_group_dot, ttng.tc_gen5_mma, a TMA store), the store is
//   compared with every #ttg.nvmma_shared layout that reader accepts, each costed as the
//   compiler's store is (Triton's lowering into that layout on NVIDIA; finding
//   "above_admissible_optimum", with the layout and both costs), the fewest wavefronts of any
//   shared layout kept as a lower bound; where it does not, with that lower bound alone
//   (finding "above_optimum_side": a cost, since the unknown reader may need the layout).
//
// # Redundant warps that exit early (`predicted.early_exit`)
//
// Where the SASS of the kernel lies beside its TTGIR (Sass.h), the module's last op that loads
// from shared memory (local_load, or convert_layout through shared memory) gets
// `predicted.early_exit`: the warps that hold only copies of its result layout (a zero warp
// basis: warps x (1 - 2^-zeros) of them) have their global stores masked by Triton, ptxas
// exits them at its predicated EXIT, and they skip the loads placed after it. So the GPU
// executes `instructions - exiting_warps x loads_after_exit` of the load's warp-level
// instructions (and, where every instruction of the side costs the same, as on every unpadded
// layout at one width, the wavefronts likewise). The result layout is taken as the stored one
// (the load's value is what the kernel stores, as in Triton's epilogues); the positional count
// needs straight-line SASS (a kernel with branches gets a note instead).
// - memdesc views (memdesc_index, _subslice, _trans, _reshape) move nothing; tensor-memory ops
//   (ttng.tmem_*) are listed without a prediction: llcheck has no model of tensor memory.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LaunchEvaluation.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Ttgir.h"
#include "llcheck/core/encodings/Shared.h"
#include "llcheck/prover/Prover.h"
#include "llcheck/reports/Sass.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llcheck::reports {

/// `llcheck oracle` results (corpus/oracle/results.json): the cases measured from TTGIR, keyed
/// by their origin "ttgir:PATH:LINE:OP[:VARIANT]".
/// One launch of a kernel: its id (for the reader) and what the kernel's arithmetic needs.
struct ReportLaunch {
  std::string id;
  LaunchArguments arguments;
};

struct OracleResults {
  std::string source, gpu, cuda, ncu, date, arch;
  std::map<std::string, nlohmann::json> byOrigin;
  /// PATH of every ttgir origin, to match against the files reported.
  std::vector<std::string> paths;
  /// The oracle path that names `file` (the same file, or one whose path ends with it), or "".
  [[nodiscard]] std::string pathFor(const std::string& file) const;
};

/// Reads and checks a results file; an Error says what and where.
[[nodiscard]] Result<OracleResults> readOracleResults(const std::string& path);

/// The launches file of `report --launches` (docs/report.md): {"launches": [{"id", "kernel",
/// "grid": [x, y, z], "integers": {NAME: int}, "pointer_offsets": {NAME: bytes}}, ...]}, by
/// kernel. Every field checked; an Error names the file and the field.
[[nodiscard]] Result<std::map<std::string, std::vector<ReportLaunch>>>
readLaunches(const std::string& path);

struct ReportOptions {
  /// --arch: the bank model for every kernel; otherwise each module's ttg.target picks it.
  std::optional<std::string> arch;
  /// --hardware: the NVIDIA GPU the kernels run on, when it is not their target's (sm80 code on
  /// an H100/H200): its bank model counts the wavefronts, the target's instructions are used.
  std::optional<std::string> hardware;
  bool z3 = true;
  prover::ProverOptions prover;
  int maxEnumerationBits = 16;
  const OracleResults* oracle = nullptr;
  /// Worker threads over the files (0: the hardware's).
  unsigned threads = 0;
  /// --triton: the Triton release that wrote the dumps; their encodings mean what it computes,
  /// and on NVIDIA each op's `predicted` is what its lowering emits.
  TritonVersion triton = kNewestTriton;
  /// Read the SASS beside each TTGIR file (Sass.h: STEM.sass, or STEM.cubin through cuobjdump)
  /// and predict the early exit of redundant warps from it (`predicted.early_exit`).
  bool readSass = true;
  /// The cuobjdump that disassembles a STEM.cubin ("": cubins are not read; findCuobjdump).
  std::string cuobjdump;
  /// How long cuobjdump may take on one cubin (Sass.h, disassembleCubin).
  int cuobjdumpSeconds = kCuobjdumpTimeoutSeconds;
  /// Called (from any worker, one call at a time) each time a file's report is written, with
  /// the files done and in all: for a progress line.
  std::function<void(std::size_t done, std::size_t total)> progress;
  /// --launches: launches of the kernels, by the TTGIR file's stem or the kernel function's
  /// name; each tt.load / tt.store of such a kernel gets its counts in each (`launches` in its
  /// entry: LaunchCounts.h).
  std::map<std::string, std::vector<ReportLaunch>> launches;
};

/// One finding: a reason for the op (or layout) to fail the conformance check.
struct Finding {
  Finding() = default;
  Finding(std::string kind_, std::string message_, double severity_, nlohmann::json fix_ = nullptr)
      : kind(std::move(kind_)), message(std::move(message_)), severity(severity_),
        fix(std::move(fix_)) {}
  /// "illegal_layout", "misaligned_access", "above_optimum", "above_admissible_optimum",
  /// "above_optimum_side", "global_above_ideal", "measured_mismatch", "not_understood",
  /// "unknown_property".
  std::string kind;
  std::string message;
  /// How bad, for the summary's order: excess wavefronts (1e9 for illegal layouts, 1e8 and up
  /// for a misaligned access).
  double severity = 0;
  /// The fix, spelled out (docs/report.md, "The fix"): the layout now and the better one as the
  /// TTGIR attribute and the Gluon constructor, both re-read by llcheck and checked before they
  /// are shown, the consumer that accepts it, both costs and the bound; null where the finding
  /// has no layout to propose.
  nlohmann::json fix;
  /// Where a module-level finding comes from (a tt.load's global_above_ideal): its op, source
  /// location and line ("" and 0 for findings of the module itself).
  std::string op, location;
  int line = 0;
  /// The fix's layouts for report.html's pictures (not in report.json, whose fix holds the
  /// attributes): the suggested one, and the one now where the kernel has no entry for it (a
  /// convert_layout's Triton scratch).
  std::optional<LinearLayout> suggestedLayout, nowLayout;
};

struct LayoutEntry {
  int id = 0;
  std::string encoding, attribute, kind;
  std::vector<uint64_t> shape;
  int line = 0;
  std::optional<LinearLayout> layout;
  std::vector<IntervalPad> padding;
  /// Bits of the element type of the first tensor or memdesc that uses the layout (0: none
  /// readable); the banks of a shared layout's picture depend on it.
  int elementBits = 0;
  /// verify's report (algebra, enumeration and, unless --no-z3, Z3).
  std::shared_ptr<const VerifyReport> verify;
  /// "distributed" or "memory": the legality property of its kind; empty for generic layouts.
  std::string legality;
  bool legal = true;
  std::string error;
};

struct OpEntry {
  std::string op, location;
  int line = 0;
  int src = -1, dst = -1;
  std::vector<uint64_t> shape;
  std::string dtype;
  int elementBits = 0;
  /// Contract fields of report.json (see docs/report.md).
  nlohmann::json plan, predicted, optimum, measured, legality;
  /// --launches: an sm90 async copy's LDGSTS in each launch (docs/report.md), else null.
  nlohmann::json launches;
  /// The ttg.warp_specialize region the op runs in ({"name", "num_warps", "layouts_agree"}),
  /// null outside one.
  nlohmann::json partition;
  /// The scf.for loops around it and its runs per program (TtgirOp::trips; nullopt: not known).
  int loopDepth = 0;
  std::optional<uint64_t> trips = 1;
  std::string tripsFormula; ///< TtgirOp::tripsFormula
  /// The scf.if region it is in (line 0: none): it runs only where the condition says.
  TtgirBranch branch;
  std::vector<Finding> findings;
  /// Not analysable (an operand with no layout, an unknown dtype): why.
  std::string notAnalysed;
};

struct KernelReport {
  std::string file;
  std::string target, arch, archNote;
  /// Banks of the bank model used (32 on NVIDIA and gfx942, 64 on gfx950).
  int banks = 32;
  std::optional<uint64_t> numWarps, threadsPerWarp, numCtas;
  std::vector<LayoutEntry> layouts;
  std::vector<OpEntry> ops;
  /// One entry per tt.load / tt.store of a tensor of pointers (report.json's
  /// "global_accesses", docs/report.md).
  nlohmann::json globalAccesses = nlohmann::json::array();
  /// One entry per reduction, scan, histogram, gather and atomic (report.json's "scratch_ops"):
  /// whether its lowering goes through shared-memory scratch, why, and its predicted accesses;
  /// one that cannot be predicted is also listed in notUnderstood.
  nlohmann::json scratchOps = nlohmann::json::array();
  /// The regions of its ttg.warp_specialize ops ({"name", "num_warps", "line"}).
  nlohmann::json partitions = nlohmann::json::array();
  /// TMA copies (the box, its bytes and swizzle, whether the descriptor's encoding is the
  /// buffer's), each mbarrier's expected bytes against the copies arriving on it, and the MMAs
  /// that read shared operands through descriptors (report.json's "tma_copies", "barriers",
  /// "descriptor_reads").
  nlohmann::json tmaCopies = nlohmann::json::array();
  nlohmann::json barriers = nlohmann::json::array();
  nlohmann::json descriptorReads = nlohmann::json::array();
  /// The --launches of this kernel evaluated: {"launch", "programs", "stopped"} each.
  nlohmann::json launches = nlohmann::json::array();
  std::vector<TtgirNotUnderstood> notUnderstood;
  /// Findings that belong to no op (illegal layouts, not-understood items).
  std::vector<Finding> findings;
  /// The SASS read beside the file ({"path", "functions", "error"}), null when none was there.
  nlohmann::json sass;
  double seconds = 0;
};

struct Report {
  std::vector<KernelReport> kernels;
  std::string arch; ///< --arch, or "" when each module chose
  bool z3 = true;
  TritonVersion triton = kNewestTriton; ///< whose semantics the layouts were read with
  std::string oracleSource, oracleGpu, oracleDate;
  double seconds = 0;
  [[nodiscard]] std::size_t findingCount() const;
};

/// The files INPUT names: a file itself, a folder every *.ttgir / *.mlir file below it (sorted).
/// A path that does not exist, or a folder without any, is an Error.
[[nodiscard]] Result<std::vector<std::string>>
collectInputs(const std::vector<std::string>& inputs);

/// Reads every file and reports it. A file that cannot be read, is not a TTGIR module or is
/// malformed is an Error (bad input, exit 2); anything inside a module that llcheck does not
/// understand becomes a "not understood" entry.
[[nodiscard]] Result<Report> buildReport(const std::vector<std::string>& files,
                                         const ReportOptions& options);

/// Reads one file as buildReport does: an Error when it cannot be read, is not a TTGIR module or
/// is malformed.
[[nodiscard]] Result<TtgirModule> readModule(const std::string& file,
                                             TritonVersion triton = kNewestTriton);

/// Receives each op's entry as soon as it is made; `kernel` has its layouts and module findings
/// (not its ops).
using OpSink = std::function<void(const KernelReport& kernel, OpEntry&& op)>;

/// The report of one module already read (the tests use it directly).
[[nodiscard]] KernelReport reportModule(const TtgirModule& module, const ReportOptions& options);
/// The same, each op handed to `sink` instead of kept in the report's `ops` (which stays empty):
/// how `llcheck report` keeps one op at a time in memory.
[[nodiscard]] KernelReport reportModule(const TtgirModule& module, const ReportOptions& options,
                                        const OpSink& sink);

} // namespace llcheck::reports
