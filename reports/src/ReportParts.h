// Pieces of `llcheck report` that its files share (Report.cpp, ModuleReporter.cpp): the proofs
// and swizzles cached across worker threads, the bank model chosen for a module, the shared
// layouts a consumer (wgmma, tcgen05, TMA) accepts, and the small JSON pieces of an op's entry.
#pragma once

#include "llcheck/reports/Report.h"

#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llcheck::reports::detail {

[[nodiscard]] bool startsWith(const std::string& s, const std::string& p);
[[nodiscard]] bool endsWith(const std::string& s, const std::string& p);

/// A predicted misaligned access faults on the GPU: below an illegal layout (1e9), above wrong
/// data and measured mismatches (2e6, 1e6 + excess).
inline constexpr double kMisalignedSeverity = 1e8;

// ---- Caches shared by the worker threads ------------------------------------------------------

/// verify(l) (with Z3's proofs when o.z3), computed once per run; null with `error` set when the
/// layout cannot be verified.
[[nodiscard]] std::shared_ptr<const VerifyReport>
verifyCached(const LinearLayout& l, const ReportOptions& o, std::string& error);

/// optimalSwizzle(src, dst, bits, model), computed once per run.
[[nodiscard]] std::shared_ptr<const Result<OptimalSwizzle>>
swizzleCached(const LinearLayout& src, const LinearLayout& dst, int bits,
              const SharedMemoryModel& model);

// ---- The bank model chosen for a module ------------------------------------------------------

/// The model for the module's ttg.target ("cuda:90", "hip:gfx942"); `note` says when it is
/// a stand-in.
[[nodiscard]] SharedMemoryModel modelFor(const TtgirModule& m, const ReportOptions& o,
                                         std::string& note);

// ---- The layouts a consumer accepts ----------------------------------------------------------

/// What reads a shared layout besides registers, from the ops that use it.
struct Consumers {
  std::vector<std::string> names; ///< the consumer ops found
  bool mma = false, tma = false;
};

[[nodiscard]] Consumers consumersOf(const std::vector<std::string>& users);

/// " (wgmma)", " (tcgen05.mma)", " (TMA store)": the instruction a consumer op becomes, or "".
[[nodiscard]] std::string consumerInstruction(const std::string& op);

/// The value of `key = ...` in an attribute's text, or "".
[[nodiscard]] std::string attrField(const std::string& attr, const std::string& key);

/// `attr` with `key`'s value replaced (or the field added after the first '{').
[[nodiscard]] std::string withField(const std::string& attr, const std::string& key,
                                    const std::string& value);

/// The #ttg.nvmma_shared layouts `consumers` accept in place of `attr` over `shape` (attr
/// itself among them), in a fixed order.
[[nodiscard]] std::vector<std::string> admissibleNvmma(const std::string& attr,
                                                       const std::vector<uint64_t>& shape,
                                                       int elementBits, const Consumers& consumers);

// ---- Pieces of an op's entry -----------------------------------------------------------------

[[nodiscard]] nlohmann::json accessJson(const AccessCount& a, const std::string& instruction = "");
[[nodiscard]] std::string accessName(const SharedMemoryModel& model, SharedAccessKind kind,
                                     const AccessCount& a);
[[nodiscard]] nlohmann::json swizzleSummary(const OptimalSwizzle& s);
/// The module's layout `id`, or null.
[[nodiscard]] const LayoutEntry* layoutAt(const KernelReport& k, int id);
[[nodiscard]] nlohmann::json legalityOf(const LayoutEntry* l);
/// An entry inside scf.for loops gets "loop_depth" and "trips" (its runs per program, null
/// where a loop's bound is not a constant); one outside every loop gets neither.
/// `loop_depth`, `trips` and, where trips is null and one is known, `trips_formula`.
void putLoop(nlohmann::json& e, int loopDepth, const std::optional<uint64_t>& trips,
             const std::string& tripsFormula);
/// `under_if`: {"line", "branch": "then" | "else"} of an op inside an scf.if, whose counts are
/// for a run of that region (its condition is a kernel value the report does not have).
void putBranch(nlohmann::json& e, const TtgirBranch& branch);

[[nodiscard]] bool isStoreOp(const std::string& name);
[[nodiscard]] bool isLoadOp(const std::string& name);
[[nodiscard]] bool isView(const std::string& name);

/// Oracle counters of `side` ("store"/"load") for the case of `origin`, compared with
/// `predicted` wavefronts: fills `measured` and adds a finding when they differ beyond the
/// oracle's own noise classification.
void attachMeasured(OpEntry& e, const OracleResults* oracle, const std::string& origin,
                    const std::vector<std::pair<std::string, uint64_t>>& predicted,
                    const std::string& what);

} // namespace llcheck::reports::detail
