// Ask the hardware, not the compiler (issue 21): the layouts single instructions show on a GPU,
// rebuilt from what the probes of InstructionProbes.h recorded, and compared with llcheck's
// encodings. This is the host side of `llcheck hwlayout`; it needs no GPU.
//
// # What is read off the hardware
//
// Each probe gives a map from where the instruction holds an element (register and lane, and
// warp for wgmma; or a shared-memory offset) to which element it is. The map is fitted as a
// linear layout over F2: its bases are the images of the single input bits, and every other
// input is then checked to land on the XOR of its bits' images. A map that is not F2-linear
// is refused with the first input that breaks it (a counterexample); so is a map where some
// input received nothing or two different things.
//
// - mma.sync takes every operand from registers, so no address names an element: renaming the
//   rows (M) of A and C together, the columns (N) of B and C, or K in A and B changes nothing
//   the hardware can show. The probe records the product relation instead (which slot of A
//   times which slot of B adds into which slot of C), and each operand's layout is read with
//   the other two as llcheck lays them out: C's with A's rows and B's columns, A's with C's rows
//   and B's K, B's with A's K and C's columns. All three agree with llcheck exactly when
//   llcheck's three layouts, used to fill and read the registers, make the instruction compute
//   the matrix product. The relation itself is compared too.
// - wgmma reads A and B from shared memory through descriptors (the PTX manual's canonical
//   K-major layout without swizzle), so its accumulator is read in absolute coordinates; A in
//   registers is read against that measured accumulator and B's K in shared memory.
// - ldmatrix / stmatrix: each lane gives the address of one row; bytes are followed to the row
//   and column they come from (or go to), and the layout is read at 8-, 16- and 32-bit
//   elements, where the bytes of each element stay together.
// - TMA: every shared-memory byte names the global byte it holds; offsets (in elements) map to
//   the box's coordinates.
// - cp.async: lane and byte to the shared byte it lands on.
//
// # What it is compared with
//
// mma.sync: #ttg.nvidia_mma version 2 (instrShape [16, 8]) and #ttg.dot_op opIdx 0 / 1 with
// the operand's native kWidth (32 bits of K per thread: 2 for 16-bit types, 4 for 8-bit, 1 for
// tf32 and f64), restricted to one instruction: registers 0 .. (elements per thread - 1), lanes,
// warp 0. wgmma: #ttg.nvidia_mma version 3 (instrShape [16, N, K]) over [64, N], warps 0-3,
// and its #ttg.dot_op opIdx 0. ldmatrix / stmatrix: the instruction of llcheck's ldmatrix model
// (Ldmatrix.h, the runner's addressing in oracle_runner.cu), and the planner `ldmatrix()` must
// lower the measured layout as exactly that one instruction. TMA: #ttg.nvmma_shared over the
// box (transposed = true: the same box with the contiguous dim as dim0). cp.async: the vector
// access of the bank model (w consecutive bytes in order at the lane's address).
//
// The tiling checks then lay the encodings over larger shapes and warpsPerCTA and check that
// every warp holds whole copies of the measured tile, moved by multiples of the tile, and that
// each warp holds the rows of A and the columns of B its accumulator tiles need.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace llcheck::hwlayout {

/// What the hardware showed: for every input (flattened, minor to major, as LinearLayout) the
/// coordinates it landed on (one value per out dim), or nothing.
struct ObservedMap {
  std::vector<Dim> ins;
  std::vector<DimSize> outs;
  std::vector<std::optional<std::vector<uint64_t>>> at;
  /// Inputs that received two different things: a message each (the map is then no function).
  std::vector<std::string> conflicts;
};

/// An empty map over `ins` -> `outs` (every input unset).
[[nodiscard]] ObservedMap emptyMap(std::vector<Dim> ins, std::vector<DimSize> outs);

/// Sets input x to `value`, noting a conflict when it already holds something else.
void observe(ObservedMap& map, uint64_t x, const std::vector<uint64_t>& value);

/// Input x in the user's words: "register 2, lane 5" (dims of size 1 left out).
[[nodiscard]] std::string describeInput(const std::vector<Dim>& ins, uint64_t x);
/// "(3, 4)".
[[nodiscard]] std::string describePoint(const std::vector<uint64_t>& p);

/// The linear layout equal to `map` on every input. An Error when an input received nothing or
/// two values, when a value is out of its dim's range, or (a counterexample) when the map is not
/// F2-linear: the input, where it landed, and where the XOR of its bits' images lies.
[[nodiscard]] Result<LinearLayout> fitLinear(const ObservedMap& map);

/// The first input bit whose image differs, in words ("lane 4: the GPU (1, 0), llcheck (0, 2)");
/// empty when the layouts are equal. Both must have the same dims.
[[nodiscard]] std::string firstDifference(const LinearLayout& hardware,
                                          const LinearLayout& llcheck);

/// One layout read off the hardware and compared with llcheck's.
struct LayoutComparison {
  std::string what;     ///< "accumulator", "operand A", "16-bit elements", ...
  std::string encoding; ///< llcheck's side: the attribute and shape, or the model
  bool read = false;    ///< the hardware's map was decoded and is F2-linear
  std::optional<LinearLayout> hardware;
  bool hasCounterpart = true; ///< false: llcheck has no encoding for it (and says so)
  bool equal = false;
  std::string problem; ///< why not read, or the minimal case where it differs
  std::string known;   ///< the reason given in the known-differences file, if listed
};

struct ProbeReport {
  std::string id, family, instruction;
  bool ran = false;
  std::string error; ///< the probe's own error (it did not run), or a decoding problem
  std::vector<std::string> notes;
  std::vector<LayoutComparison> layouts;
};

/// An encoding laid over a larger shape and warpsPerCTA, checked against a measured tile.
struct TilingCheck {
  std::string family, probe, encoding, shape;
  bool ok = false;
  std::string problem;
};

struct Report {
  std::string gpu, driver, cuda, date;
  bool emulated = false; ///< the file is the PTX-formula emulation, not a GPU's
  std::vector<ProbeReport> probes;
  std::vector<TilingCheck> tilings;
  std::vector<std::string> missing;   ///< catalogue probes the file does not have
  std::vector<std::string> sanitizer; ///< one line per family; empty when not in the file
  std::vector<std::string> problems;  ///< sanitizer errors and the like
};

struct CheckOptions {
  /// Known differences: {"<probe id>" or "<probe id>/<what>": "reason"}. A listed probe that
  /// failed or a listed layout that differs does not fail the check.
  nlohmann::json known = nlohmann::json::object();
  /// Whether to lay each encoding over larger shapes and warp grids (the tiling checks: most of
  /// the time a check takes). Tests of one probe's decoding leave them out.
  bool tilings = true;
};

/// Decodes every probe of `results` (the JSON run.sh writes, or the emulation's), compares it
/// with llcheck's encodings and runs the tiling checks. An Error only for a file that is not a
/// results file at all; everything a probe shows is in the report.
[[nodiscard]] Result<Report> checkResults(const nlohmann::json& results,
                                          const CheckOptions& options = {});

struct FamilySummary {
  std::string family;
  int probes = 0, ran = 0;
  int read = 0, equal = 0, noCounterpart = 0, differ = 0, known = 0;
  int tilings = 0, tilingsOk = 0;
};
[[nodiscard]] std::vector<FamilySummary> summarize(const Report& report);

/// Every layout equal (or its difference known), every probe ran (or is known), every tiling
/// consistent, no sanitizer error, no catalogue probe missing.
[[nodiscard]] bool passed(const Report& report);

/// The summary per family, then each difference, failure and problem with its minimal case.
void printReport(std::ostream& os, const Report& report);
[[nodiscard]] nlohmann::json reportJson(const Report& report);

} // namespace llcheck::hwlayout
