// One module's entry of `llcheck report` (Report.h): every layout verified, every op's
// predicted accesses (llcheck's best choice and Triton's lowering), its optimum and the one its
// consumer accepts, the early exit read from the SASS, and the findings.
#include "ModuleReporter.h"

#include "EarlyExit.h"
#include "Fix.h"
#include "GlobalAccesses.h"
#include "LaunchCounts.h"
#include "ReportParts.h"

#include "llcheck/reports/Sass.h"

#include "llcheck/core/AxisInfo.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/core/conversion/Contiguity.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/Ldmatrix.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/core/conversion/TritonLowering.h"
#include "llcheck/core/conversion/TritonReduce.h"
#include "llcheck/core/conversion/TritonScan.h"
#include "llcheck/core/conversion/TritonScratchOps.h"
#include "llcheck/core/conversion/WarpShuffle.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

namespace llcheck::reports::detail {

using json = nlohmann::json;

namespace {

/// Whether a function of the module returns early: two tt.return in one tt.func (Triton lowers
/// `if cond: return` to a cf.cond_br to a block that returns; the condition is a scalar, the
/// same in every thread of the program).
bool returnsEarly(std::string_view text) {
  int returns = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    std::string_view line = text.substr(at, end == std::string_view::npos ? text.npos : end - at);
    at = end == std::string_view::npos ? text.size() : end + 1;
    std::size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos)
      continue;
    line.remove_prefix(first);
    if (line.starts_with("tt.func "))
      returns = 0;
    else if (line.starts_with("tt.return") && ++returns == 2)
      return true;
  }
  return false;
}

/// A SassFunction's storesOutsideLoops or storesInsideLoops as the report's `sass` entry shows
/// them: "e128 @0x4ac0".
json storesJson(const SassFunction& f, const std::vector<SassStore>& stores) {
  if (!f.storesNotReadable.empty())
    return nullptr;
  json out = json::array();
  for (const SassStore& s : stores) {
    std::ostringstream text;
    text << s.executedBy << s.bits << " @0x" << std::hex << s.address;
    out.push_back(text.str());
  }
  return out;
}

class ModuleReporter {
public:
  ModuleReporter(const TtgirModule& m, const ReportOptions& o) : m_(m), o_(o) {
    k_.file = m.source;
    k_.target = m.target.value_or("");
    k_.numWarps = m.numWarps;
    k_.threadsPerWarp = m.threadsPerWarp;
    k_.numCtas = m.numCtas;
    model_ = modelFor(m, o, k_.archNote);
    k_.arch = model_.arch;
    k_.banks = model_.banks;
    k_.notUnderstood = m.notUnderstood;
    if (auto axis = analyzeAxisInfo(m.text, m.source); axis.ok())
      axis_ = std::move(*axis);
    if (o.oracle)
      oraclePath_ = o.oracle->pathFor(m.source);
    if (o.readSass && !m.source.empty())
      sass_ = sassBeside(m.source, o.cuobjdump, o.cuobjdumpSeconds, returnsEarly(m.text));
    if (sass_) {
      json functions = json::array();
      for (const SassFunction& f : sass_->functions)
        functions.push_back(
            {{"name", f.name},
             {"lds", f.lds},
             {"ldsm", f.ldsm},
             {"predicated_exit", f.predicatedExit.empty() ? json(nullptr) : json(f.predicatedExit)},
             {"lds_after_exit", f.ldsAfterExit},
             {"ldsm_after_exit", f.ldsmAfterExit},
             {"lds_branched_around", f.ldsBranchedAround},
             {"stg", f.stg},
             {"stg_after_exit", f.stgAfterExit},
             {"straight_line", f.straightLine},
             {"stores_outside_loops", storesJson(f, f.storesOutsideLoops)},
             {"stores_inside_loops", storesJson(f, f.storesInsideLoops)},
             {"stores_not_readable",
              f.storesNotReadable.empty() ? json(nullptr) : json(f.storesNotReadable)}});
      k_.sass = {{"path", sass_->path},
                 {"functions", functions},
                 {"error", sass_->error.empty() ? json(nullptr) : json(sass_->error)}};
    }
  }

  KernelReport run(const OpSink& sink) {
    for (std::size_t i = 0; i < m_.layouts.size(); ++i)
      k_.layouts.push_back(layoutEntry(static_cast<int>(i), m_.layouts[i]));
    for (std::size_t i = 0; i < m_.partitions.size(); ++i) {
      json p = regionOf(static_cast<int>(i));
      p["line"] = m_.partitions[i].line;
      k_.partitions.push_back(std::move(p));
    }
    scratchOps();
    branchedAroundLoads();
    tmaCopies();
    descriptorReads();
    for (const TtgirNotUnderstood& n : k_.notUnderstood)
      k_.findings.push_back(
          {"not_understood", n.where + ": " + n.what + " '" + n.text + "': " + n.reason, 1e3});
    // Writers and readers of each shared layout, for the conversions through it.
    for (const TtgirOp& op : m_.ops) {
      if (!op.src)
        continue;
      if (isStoreOp(op.name) && op.src->layout >= 0 && op.dst.layout >= 0)
        writers_[op.dst.layout].insert({op.src->layout, asyncSourceOf(op)});
      if (isLoadOp(op.name) && op.src->layout >= 0 && op.dst.layout >= 0)
        readers_[op.src->layout].insert({op.dst.layout, std::nullopt});
    }
    // The last op that reads shared memory: the loads ptxas can put after a predicated EXIT.
    std::size_t lastLoad = m_.ops.size();
    for (std::size_t i = 0; i < m_.ops.size(); ++i)
      if (m_.ops[i].name == "ttg.local_load" ||
          (m_.ops[i].name == "ttg.convert_layout" && convertReadsShared(m_.ops[i])))
        lastLoad = i;
    // A reduce whose result is loaded from its scratch after that op is the last load instead.
    if (lastReduce_ && (lastLoad == m_.ops.size() || lastReduce_->line > m_.ops[lastLoad].line)) {
      reduceEarlyExit(*lastReduce_);
      lastLoad = m_.ops.size();
    }
    bool launched = launchesOf(m_, o_) != nullptr;
    for (std::size_t i = 0; i < m_.ops.size(); ++i) {
      OpEntry e = opEntry(m_.ops[i]);
      if (i == lastLoad)
        earlyExit(e, layoutAt(k_, e.dst),
                  m_.ops[i].name == "ttg.local_load" ? layoutAt(k_, e.src) : nullptr);
      // With launches to count, the ops wait for them (an async copy's LDGSTS per launch).
      if (sink && !launched)
        sink(k_, std::move(e));
      else
        k_.ops.push_back(std::move(e));
    }
    reportGlobalAccesses(m_, o_, k_, axis_ ? &*axis_ : nullptr);
    storesBeforeExit();
    reportLaunches(m_, o_, k_,
                   sass_ && sass_->functions.size() == 1 ? &sass_->functions.front() : nullptr);
    if (sink && launched) {
      for (OpEntry& e : k_.ops)
        sink(k_, std::move(e));
      k_.ops.clear();
    }
    return std::move(k_);
  }

private:
  LayoutEntry layoutEntry(int id, const TtgirLayout& t) {
    LayoutEntry e;
    e.id = id;
    e.encoding = t.encoding;
    e.attribute = t.attribute;
    e.kind = t.kind;
    e.shape = t.shape;
    e.line = t.line;
    e.layout = t.layout;
    e.error = t.error;
    for (const TtgirType& type : m_.types)
      if (type.layout == id) {
        if (auto bits = dtypeBits(type.elementType); bits.ok()) {
          e.elementBits = *bits;
          break;
        }
      }
    if (!t.layout)
      return e; // the reader listed it in notUnderstood
    if (startsWith(t.attribute, "#ttg.padded_shared")) {
      LayoutContext so;
      so.shape = t.shape;
      so.triton = o_.triton;
      if (auto loaded = loadSpec(t.attribute, so); loaded.ok())
        e.padding = loaded->padding;
    }
    std::string error;
    e.verify = verifyCached(*t.layout, o_, error);
    if (!e.verify) {
      e.error = error;
      k_.findings.push_back({"not_understood",
                             m_.source + ":" + std::to_string(t.line) + ": layout " +
                                 std::to_string(id) + " could not be verified: " + error,
                             1e3});
      return e;
    }
    LayoutKind kind = e.verify->kind;
    e.legality = kind == LayoutKind::Distributed ? "distributed"
                 : kind == LayoutKind::Memory    ? "memory"
                                                 : "";
    if (!e.legality.empty()) {
      const PropertyResult* p = e.verify->find(*parseProperty(e.legality));
      e.legal = p && p->status() == "yes";
      if (p && p->status() == "unknown")
        k_.findings.push_back({"unknown_property",
                               m_.source + ":" + std::to_string(t.line) + ": layout " +
                                   std::to_string(id) + " (" + t.encoding + "): " + e.legality +
                                   " could not be decided: " + p->unknown,
                               1e4});
      else if (!e.legal)
        k_.findings.push_back({"illegal_layout",
                               m_.source + ":" + std::to_string(t.line) + ": layout " +
                                   std::to_string(id) + " (" + t.encoding + ") is not " +
                                   e.legality + ": " + (p ? p->detail : std::string()),
                               1e9});
    }
    for (const std::string& d : e.verify->disagreements)
      k_.findings.push_back(
          {"not_understood",
           m_.source + ":" + std::to_string(t.line) +
               ": the algebra, Z3 and enumeration disagree (a bug in llcheck): " + d,
           1e9});
    return e;
  }

  void notAnalysed(OpEntry& e, const std::string& why) {
    e.notAnalysed = why;
    e.plan = {{"kind", "not_understood"}, {"reason", why}};
    e.findings.push_back({"not_understood", e.op + " at " + e.location + ": " + why, 1e3});
  }

  /// The warps of warp-specialize region I (the module's for the default region); 0: unknown.
  [[nodiscard]] uint64_t regionWarps(int i) const {
    const TtgirPartition& p = m_.partitions[static_cast<std::size_t>(i)];
    return p.numWarps != 0 ? p.numWarps : m_.numWarps.value_or(0);
  }

  /// {"name", "num_warps"} of warp-specialize region I, null for -1.
  [[nodiscard]] json regionOf(int i) const {
    if (i < 0 || static_cast<std::size_t>(i) >= m_.partitions.size())
      return nullptr;
    uint64_t warps = regionWarps(i);
    return {{"name", m_.partitions[static_cast<std::size_t>(i)].name},
            {"num_warps", warps == 0 ? json(nullptr) : json(warps)}};
  }

  /// The warp-specialize region I of an op, and whether its distributed layouts are over that
  /// region's warps (each op's counts are its layouts' warps: a partition of 1 warp that
  /// loads a tile is counted with 1 warp).
  [[nodiscard]] json partitionOf(int i, const LayoutEntry* src, const LayoutEntry* dst) const {
    json j = regionOf(i);
    uint64_t warps = regionWarps(i);
    bool agree = true; // checked where both are known
    for (const LayoutEntry* l : {src, dst})
      if (warps != 0 && l && l->layout && l->layout->hasInDim(dims::kWarp) &&
          static_cast<uint64_t>(l->layout->getInDimSize(dims::kWarp)) != warps)
        agree = false;
    j["layouts_agree"] = agree;
    return j;
  }

  OpEntry opEntry(const TtgirOp& op) {
    OpEntry e;
    e.op = op.name;
    e.location = op.location;
    e.line = op.line;
    e.src = op.src ? op.src->layout : -1;
    e.dst = op.dst.layout;
    e.shape = op.shape;
    e.dtype = op.elementType;
    e.plan = nullptr;
    e.predicted = nullptr;
    e.optimum = nullptr;
    e.measured = nullptr;
    e.loopDepth = op.loopDepth;
    e.trips = op.trips;
    e.tripsFormula = op.tripsFormula;
    e.branch = op.branch;
    const LayoutEntry* src = layoutAt(k_, e.src);
    const LayoutEntry* dst = layoutAt(k_, e.dst);
    e.legality = {{"src", legalityOf(src)}, {"dst", legalityOf(dst)}};
    if (op.partition >= 0 && static_cast<std::size_t>(op.partition) < m_.partitions.size())
      e.partition = partitionOf(op.partition, src, dst);
    for (const LayoutEntry* l : {src, dst})
      if (l && l->layout && !l->legality.empty() && !l->legal)
        e.findings.push_back({"illegal_layout",
                              "layout " + std::to_string(l->id) + " (" + l->encoding +
                                  ") the compiler chose is not " + l->legality,
                              1e9});
    if (startsWith(op.name, "ttng.tmem_")) {
      e.plan = {{"kind", "tensor_memory"},
                {"note", "tensor memory (Blackwell TMEM): llcheck has no bank model for it; the "
                         "layouts' legality is checked"}};
      return e;
    }
    if (isView(op.name)) {
      e.plan = {{"kind", "view"},
                {"note", "a view of a shared-memory buffer: no data moves; the layouts' "
                         "legality is checked"}};
      return e;
    }
    if (op.name == "ttg.local_alloc" && !op.src) {
      e.plan = {{"kind", "allocation"}, {"note", "allocates shared memory without a value"}};
      return e;
    }
    // Triton keeps an i1 in shared memory as an i8 (its STS.U8 / LDS.U8 in FlagGems' any, all
    // and sort, measured on the H200: gpu_oracle/real_kernels), and a pointer as its 64-bit
    // address (Triton 3.9 converts FlagGems' pointer tensors).
    auto bits = op.elementType == "i1"                     ? Result<int>(8)
                : op.elementType.rfind("!tt.ptr<", 0) == 0 ? Result<int>(64)
                                                           : dtypeBits(op.elementType);
    if (!bits.ok()) {
      notAnalysed(e, "element type '" + op.elementType + "': " + bits.error().str());
      return e;
    }
    e.elementBits = *bits;
    if (!src || !dst || !src->layout || !dst->layout) {
      notAnalysed(e, std::string(!src || !dst ? "an operand has no layout encoding"
                                              : "an operand's layout is not understood") +
                         " (" + (op.src ? op.src->type : std::string("-")) + " -> " + op.dst.type +
                         ")");
      return e;
    }
    if (isStoreOp(op.name) || isLoadOp(op.name))
      sharedAccess(e, op, isStoreOp(op.name) ? *src : *dst, isStoreOp(op.name) ? *dst : *src,
                   isStoreOp(op.name));
    else
      conversion(e, op, *src, *dst);
    return e;
  }

  /// convert_layout and the other register-to-register ops: llcheck's plan and optimum, and
  /// on NVIDIA what Triton emits as `predicted`.
  void conversion(OpEntry& e, const TtgirOp& op, const LayoutEntry& src, const LayoutEntry& dst) {
    llcheckConversion(e, op, src, dst);
    if (!e.notAnalysed.empty() || !e.predicted.is_object())
      return;
    if (tritonLowering())
      tritonConversion(e, src, dst, e.plan.value("kind", ""));
    else
      e.predicted["lowering"] = "llcheck";
  }

  /// llcheck's plan: what it predicts and its optimum (the same: llcheck's own best).
  void llcheckConversion(OpEntry& e, const TtgirOp& op, const LayoutEntry& src,
                         const LayoutEntry& dst) {
    auto plan = planConversion(*src.layout, *dst.layout, o_.triton);
    if (!plan.ok()) {
      notAnalysed(e, "no conversion plan: " + plan.error().str());
      return;
    }
    std::string kind = conversionKindName(plan->kind);
    e.plan = {{"kind", kind}};
    std::string origin = "ttgir:" + oraclePath_ + ":" + std::to_string(op.line) + ":" + op.name;
    switch (plan->kind) {
    case ConversionKind::NoOp:
    case ConversionKind::RegisterPermutation:
      e.predicted = {{"wavefronts", 0}};
      e.optimum = {{"wavefronts", 0}};
      return;
    case ConversionKind::InterCta:
      e.plan["note"] = "CTAs exchange data (distributed shared memory): llcheck does not plan this";
      return;
    case ConversionKind::WarpShuffle: {
      auto shuffles = planWarpShuffles(*src.layout, *dst.layout, e.elementBits);
      if (!shuffles.ok()) {
        notAnalysed(e, "no warp-shuffle plan: " + shuffles.error().str());
        return;
      }
      json s = {{"rounds", shuffles->rounds},
                {"vector_elements", shuffles->vectorElements},
                {"shuffles_per_vector", shuffles->shufflesPerVector},
                {"wavefronts", 0}};
      e.plan["shuffle"] = s;
      e.predicted = s;
      e.optimum = s;
      if (!oraclePath_.empty())
        attachMeasured(e, o_.oracle, origin + ":shuffle", {}, "llcheck's shuffle plan");
      return;
    }
    case ConversionKind::SharedMemory:
      break;
    }
    auto sw = swizzleCached(*src.layout, *dst.layout, e.elementBits, model_);
    if (!sw->ok()) {
      notAnalysed(e, "no shared-memory plan: " + sw->error().str());
      return;
    }
    const OptimalSwizzle& s = **sw;
    json summary = swizzleSummary(s);
    e.plan["construction"] = s.construction;
    e.plan["shared"] = summary["shared"];
    e.plan["note"] = "TTGIR does not fix the shared layout of a convert_layout (Triton picks it "
                     "when lowering): the prediction is llcheck's plan; Triton's measured cost "
                     "is in reports/triton-*/";
    e.predicted = {{"store", summary["store"]},
                   {"load", summary["load"]},
                   {"wavefronts", summary["wavefronts"]},
                   {"vector_bits", s.store.count.vectorBits},
                   {"of", "llcheck's optimal shared layout"}};
    e.optimum = {{"store", summary["store"]},
                 {"load", summary["load"]},
                 {"wavefronts", summary["wavefronts"]},
                 {"lower_bound", summary["lower_bound"]}};
    if (!oraclePath_.empty())
      attachMeasured(e, o_.oracle, origin + ":optimal",
                     {{"store", s.store.count.wavefronts}, {"load", s.load.count.wavefronts}},
                     "llcheck's optimal shared layout");
  }

  /// convert_layout on NVIDIA: `predicted` becomes what Triton emits (no shared memory, or its
  /// own scratch layout with its instructions), llcheck's plan moves to `predicted.llcheck`,
  /// and Triton's cost above llcheck's optimum is the finding `above_optimum`.
  void tritonConversion(OpEntry& e, const LayoutEntry& src, const LayoutEntry& dst,
                        const std::string& planKind) {
    json mine = e.predicted;
    if (!mine.is_object())
      return;
    mine["lowering"] = "llcheck";
    json t = {{"lowering", "triton"}, {"triton", tritonVersionName(o_.triton)}};
    auto needs = tritonConvertNeedsSharedMemory(*src.layout, *dst.layout, o_.triton);
    std::optional<TritonConversion> tc;
    std::string error;
    if (!needs.ok()) {
      error = needs.error().str();
    } else if (*needs) {
      auto c =
          tritonConvertLayout(*src.layout, *dst.layout, model_,
                              TritonLoweringOptions{o_.triton, e.elementBits, e.dtype == "i1"});
      if (c.ok())
        tc = std::move(*c);
      else
        error = c.error().str();
    }
    if (!error.empty()) {
      // Not modelled (e.g. layouts Triton's swizzling does not take): llcheck's plan stays.
      e.predicted["lowering"] = "llcheck";
      e.predicted["triton_error"] =
          "Triton " + tritonVersionName(o_.triton) + "'s lowering is not modelled here: " + error;
      return;
    }
    uint64_t optimum = e.optimum.is_object() ? e.optimum.value("wavefronts", uint64_t{0}) : 0;
    if (!tc) {
      t["shared_memory"] = false;
      t["wavefronts"] = 0;
      t["of"] = "Triton " + tritonVersionName(o_.triton) +
                "'s lowering: no shared memory (no data crosses warps)";
      t["llcheck"] = mine;
      e.predicted = t;
      return;
    }
    uint64_t total = tc->store.count.wavefronts + tc->load.count.wavefronts;
    t["shared_memory"] = true;
    t["store"] = toJson(tc->store);
    t["load"] = toJson(tc->load);
    t["wavefronts"] = total;
    t["vector_bits"] = tc->store.count.vectorBits;
    t["rounds"] = tc->rounds;
    t["triton_conflicts"] = tc->tritonConflicts;
    t["shared"] = toJson(tc->scratch);
    t["of"] = "Triton " + tritonVersionName(o_.triton) +
              "'s lowering: its own scratch layout and instructions";
    t["llcheck"] = mine;
    e.predicted = t;
    addMisaligned(e, tc->store.misalignedAccesses, tc->store.name,
                  "store of layout " + std::to_string(src.id) + " into Triton's scratch layout");
    addMisaligned(e, tc->load.misalignedAccesses, tc->load.name,
                  "load of layout " + std::to_string(dst.id) + " from Triton's scratch layout");
    if (total <= optimum)
      return;
    std::string ours = planKind == "shared_memory"
                           ? "llcheck's optimal shared layout takes " +
                                 std::to_string(e.optimum["store"]["wavefronts"].get<uint64_t>()) +
                                 " + " +
                                 std::to_string(e.optimum["load"]["wavefronts"].get<uint64_t>()) +
                                 " (" + e.optimum["store"]["instruction"].get<std::string>() +
                                 ", " + e.optimum["load"]["instruction"].get<std::string>() + ")"
                           : "llcheck's plan needs no shared memory (" + planKind + ")";
    json fix;
    std::optional<LinearLayout> suggestedLayout;
    if (planKind == "shared_memory") {
      auto sw = swizzleCached(*src.layout, *dst.layout, e.elementBits, model_);
      if (sw->ok())
        suggestedLayout = (*sw)->shared;
      json now = {{"layout", nullptr},
                  {"of", "Triton's own scratch layout for this convert_layout (not in the TTGIR)"},
                  {"store", tc->store.count.wavefronts},
                  {"load", tc->load.count.wavefronts},
                  {"wavefronts", total},
                  {"instructions", tc->store.name + ", " + tc->load.name}};
      if (auto scratch = spellSharedLinear(tc->scratch, src.shape, o_.triton); scratch.ok()) {
        now["attribute"] = scratch->attribute;
      }
      if (sw->ok())
        fix = sharedFix(src, dst, nullptr, **sw, std::nullopt, now, e.elementBits,
                        "TTGIR cannot give a convert_layout its shared layout: replace it by a "
                        "ttg.local_alloc of the value into this layout and a ttg.local_load into "
                        "layout " +
                            std::to_string(dst.id) +
                            " (Gluon: gl.allocate_shared_memory(x.dtype, x.shape, LAYOUT, "
                            "x).load(DST))");
    }
    e.findings.push_back(
        {"above_optimum",
         "layout " + std::to_string(src.id) + " -> layout " + std::to_string(dst.id) + ": Triton " +
             tritonVersionName(o_.triton) + " goes through shared memory (its scratch layout" +
             (tc->rounds > 1 ? ", " + std::to_string(tc->rounds) + " rounds" : std::string()) +
             ") and takes " + std::to_string(tc->store.count.wavefronts) + " + " +
             std::to_string(tc->load.count.wavefronts) + " wavefronts (" + tc->store.name + ", " +
             tc->load.name + "); " + ours,
         static_cast<double>(total - optimum), fix});
    if (fix.is_object() && !fix.contains("error")) {
      e.findings.back().suggestedLayout = suggestedLayout;
      e.findings.back().nowLayout = tc->scratch;
    }
  }

  /// The fix of a conversion A -> shared -> B whose shared layout (NOW, the compiler's; null
  /// for a convert_layout, whose scratch Triton picks) llcheck's optimum S replaces: S spelled as
  /// an attribute and a Gluon constructor (read back, Fix.h), costed again as the compiler
  /// would emit it (Triton's lowering on NVIDIA) beside llcheck's own instructions, with the
  /// bound and who accepts it. S itself passed refuteSuggestion (checkedOptimalSwizzle).
  json sharedFix(const LayoutEntry& a, const LayoutEntry& b, const LayoutEntry* now,
                 const OptimalSwizzle& s, std::optional<uint64_t> aAsync, const json& nowCost,
                 int elementBits, const std::string& how) {
    if (now) {
      const TtgirLayout* t = now->id >= 0 && now->id < static_cast<int>(m_.layouts.size())
                                 ? &m_.layouts[static_cast<std::size_t>(now->id)]
                                 : nullptr;
      Consumers c = consumersOf(t ? t->users : std::vector<std::string>{});
      if (!c.names.empty()) {
        std::string readers;
        for (const std::string& r : c.names)
          readers += (readers.empty() ? "" : ", ") + r;
        return {{"error", "shared layout " + std::to_string(now->id) + " is also read by " +
                              readers +
                              ", which take only #ttg.nvmma_shared layouts; llcheck's optimum "
                              "is not one"}};
      }
    }
    auto spelled = spellSharedLinear(s.shared, a.shape, o_.triton);
    if (!spelled.ok())
      return {{"error", spelled.error().str()}};
    LayoutEntry candidate = now ? *now : a;
    candidate.layout = s.shared;
    candidate.padding.clear();
    candidate.attribute = candidate.encoding = spelled->attribute;
    candidate.elementBits = elementBits;
    uint64_t nowTotal = nowCost.value("wavefronts", uint64_t{0});
    json suggested = {{"attribute", spelled->attribute},
                      {"gluon", spelled->gluon},
                      {"gluon_import", kGluonImport}};
    uint64_t mine = s.store.count.wavefronts + s.load.count.wavefronts;
    json llcheckCost = {{"store", s.store.count.wavefronts},
                        {"load", s.load.count.wavefronts},
                        {"wavefronts", mine},
                        {"instructions", s.store.name + ", " + s.load.name}};
    std::string gain;
    auto cst = compilerSide(a, candidate, true, aAsync);
    auto cld = compilerSide(b, candidate, false, std::nullopt);
    if (cst.ok() && cld.ok()) {
      uint64_t theirs = cst->count.wavefronts + cld->count.wavefronts;
      suggested["store"] = cst->count.wavefronts;
      suggested["load"] = cld->count.wavefronts;
      suggested["wavefronts"] = theirs;
      suggested["instructions"] = cst->instruction + ", " + cld->instruction;
      suggested["lowering"] = cst->triton && cld->triton
                                  ? "Triton " + tritonVersionName(o_.triton) + "'s lowering"
                                  : std::string("llcheck's instructions");
      suggested["llcheck"] = llcheckCost;
      gain = theirs < nowTotal
                 ? "; emitted as the compiler does, it takes " + std::to_string(theirs) +
                       " of the " + std::to_string(nowTotal) + " wavefronts now"
                 : "; but emitted as the compiler does it takes " + std::to_string(theirs) +
                       " wavefronts, not fewer than now: the gain needs "
                       "llcheck's instructions (" +
                       s.store.name + ", " + s.load.name + ")";
    } else {
      for (const char* k : {"store", "load", "wavefronts", "instructions"})
        suggested[k] = llcheckCost[k];
      suggested["lowering"] = "llcheck's instructions";
      suggested["compiler_error"] = (cst.ok() ? cld.error() : cst.error()).str();
    }
    return {{"shape", a.shape},
            {"element_bits", elementBits},
            {"now", nowCost},
            {"suggested", suggested},
            {"bound",
             {{"store", s.bound.storeWavefronts},
              {"load", s.bound.loadWavefronts},
              {"wavefronts", s.bound.storeWavefronts + s.bound.loadWavefronts},
              {"attained", s.bound.attainedBy(s.store.count, s.load.count)}}},
            {"accepted_by", std::string(aAsync ? "ttg.async_copy_global_to_local"
                                               : "ttg.local_alloc / ttg.local_store") +
                                " (layout " + std::to_string(a.id) +
                                ") and ttg.local_load (layout " + std::to_string(b.id) +
                                "): Triton lowers them through any shared layout"},
            {"why", "the fewest store + load wavefronts of any shared layout for layout " +
                        std::to_string(a.id) + " -> layout " + std::to_string(b.id) + " (" +
                        std::to_string(mine) + " with " + s.store.name + ", " + s.load.name +
                        "; llcheck's optimal swizzle, " + s.construction + ")" + gain},
            {"how", how},
            {"checked", "read back by llcheck's attribute reader as the same layout; verified a "
                        "memory layout of the tensor (Def. 4.14) whose store and load take the "
                        "wavefronts stated (refuteSuggestion)"}};
  }

  struct Side {
    AccessCount count;
    std::string instruction;
    /// The GPU oracle's name for the case that measured it: "" (ld/st.shared), ":ldmatrix-plain"
    /// or ":ldmatrix-trans" (make_cases.py has no stmatrix round trips).
    std::string oracleVariant;
    bool matrix = false;
    /// The side's JSON: the access object A with its instruction (Triton's: with
    /// instructions_per_warp, why, misaligned_accesses).
    json access;
    /// Triton's lowering (true) or llcheck's best instruction (false).
    bool triton = false;
    uint64_t misaligned = 0;
    /// Why Triton's lowering could not be modelled (then this is llcheck's side).
    std::string tritonError;
  };

  /// Whether `predicted` follows Triton's lowering: the NVIDIA bank models (TritonLowering.h
  /// models sm80 and sm90).
  [[nodiscard]] bool tritonLowering() const {
    return model_.arch == "sm80" || model_.arch == "sm90";
  }

  /// The cheapest way the compiler can move REG to (from) SHARED: ld/st.shared at the widest
  /// vector, or, where the architecture has them and they divide the layouts, ldmatrix /
  /// stmatrix (.trans for 16-bit elements): llcheck's own choice.
  Result<Side> side(const LayoutEntry& reg, const LayoutEntry& shared, bool store) {
    return memoized(reg, shared, store, /*async=*/std::nullopt, /*compiler=*/false,
                    [&] { return computeSide(reg, shared, store); });
  }

  Result<Side> computeSide(const LayoutEntry& reg, const LayoutEntry& shared, bool store) {
    auto r = bankConflicts(*reg.layout, *shared.layout, shared.padding, elementBits_, model_);
    if (!r.ok())
      return r.error();
    SharedAccessKind kind = store ? SharedAccessKind::Store : SharedAccessKind::Load;
    Side best;
    best.count = store ? r->store : r->load;
    best.instruction = accessName(model_, kind, best.count);
    bool matrix = store ? model_.stmatrix : model_.ldmatrix;
    if (matrix && shared.padding.empty() && elementBits_ <= 32) {
      uint64_t warps =
          reg.layout->hasInDim(DimName("warp")) ? reg.layout->getInDimSize(DimName("warp")) : 1;
      for (bool trans : {false, true}) {
        if (trans && elementBits_ != 16)
          continue;
        auto plan = ldmatrix(*reg.layout, *shared.layout, LdmatrixOptions{elementBits_, trans});
        if (!plan.ok() || !plan->divides)
          continue;
        AccessCount c = toAccessCount(*plan, warps);
        if (c.wavefronts < best.count.wavefronts) {
          best.count = c;
          best.instruction = sharedInstructionName(
              model_, kind, trans ? SharedInstruction::MatrixTrans : SharedInstruction::Matrix,
              c.vectorBits, plan->matricesPerInstruction);
          best.matrix = true;
          best.oracleVariant = trans ? ":ldmatrix-trans" : ":ldmatrix-plain";
        }
      }
    }
    best.access = accessJson(best.count, best.instruction);
    return best;
  }

  /// How a store reaches shared memory: st.shared (nullopt), or an async copy with the
  /// contiguity its op states of the source pointers (its `contiguity` attribute; 0: none).
  using AsyncSource = std::optional<uint64_t>;
  AsyncSource asyncSourceOf(const TtgirOp& op) const {
    if (op.name != "ttg.async_copy_global_to_local")
      return std::nullopt;
    if (op.contiguity)
      return *op.contiguity;
    return axisContiguity(op).value_or(0);
  }

  /// Reductions, scans, histograms, gathers and atomics: whether Triton's lowering goes through
  /// shared-memory scratch (from the operands' layouts: a reduce or scan whose axis spans warps
  /// does, a gather unless it is warp-local, a histogram always, an atomic whose scalar result
  /// is read), listed in scratch_ops with the accesses predicted (TritonReduce.h, TritonScan.h,
  /// TritonScratchOps.h); one that cannot be predicted becomes a not-understood item, so that
  /// no shared access is skipped silently.
  void scratchOps() {
    for (const TtgirScratchOp& op : m_.scratchOps) {
      json e = {
          {"op", op.name}, {"location", op.location}, {"line", op.line}, {"layout", op.src.layout}};
      if (json p = regionOf(op.partition); !p.is_null())
        e["partition"] = p;
      putLoop(e, op.loopDepth, op.trips, op.tripsFormula);
      putBranch(e, op.branch);
      if (op.axis >= 0)
        e["axis"] = op.axis;
      const TtgirLayout* l =
          op.src.layout >= 0 && static_cast<std::size_t>(op.src.layout) < m_.layouts.size()
              ? &m_.layouts[static_cast<std::size_t>(op.src.layout)]
              : nullptr;
      std::optional<bool> shared;
      std::string why;
      bool axial = op.name == "tt.reduce" || op.name == "tt.scan";
      const TtgirLayout* res =
          op.result.layout >= 0 && static_cast<std::size_t>(op.result.layout) < m_.layouts.size()
              ? &m_.layouts[static_cast<std::size_t>(op.result.layout)]
              : nullptr;
      if (op.name == "tt.gather") {
        auto local = l && l->layout && res && res->layout
                         ? tritonGatherIsWarpLocal(*l->layout, *res->layout, op.axis)
                         : Result<bool>(makeError("the source's or the result's layout could "
                                                  "not be read"));
        if (!local.ok()) {
          why = local.error().message;
        } else {
          shared = !*local;
          why = *local ? "each column along dim" + std::to_string(op.axis) +
                             " stays within one warp: Triton gathers by warp shuffles, no "
                             "shared memory"
                       : "dim" + std::to_string(op.axis) +
                             " crosses warps: Triton stores the source to shared-memory "
                             "scratch and loads each element at its index";
        }
      } else if (axial) {
        if (!l || !l->layout || op.axis < 0 || op.axis >= l->layout->getNumOutDims() ||
            !l->layout->hasInDim(dims::kWarp)) {
          why = "the operand's layout or the axis could not be read";
        } else {
          int warps = 0;
          for (int i = 0; i < l->layout->getInDimSizeLog2(dims::kWarp); ++i)
            warps += l->layout->getBasis(dims::kWarp, i, dims::standardOut(op.axis)) != 0;
          shared = warps > 0;
          why = warps > 0
                    ? "dim" + std::to_string(op.axis) + " spans " + std::to_string(1 << warps) +
                          " warps: Triton combines the warps' partial results through "
                          "shared-memory scratch"
                    : "dim" + std::to_string(op.axis) +
                          " lies within each warp: Triton uses registers and warp shuffles, "
                          "no shared memory";
        }
      } else if (op.name == "tt.histogram") {
        shared = true;
        why = "Triton's histogram lowering accumulates the bins through shared memory";
      } else if (op.scalarResult) {
        shared = resultUsed(op, 0);
        why = *shared ? "a scalar result: one thread's atomic, its value sent to every thread "
                        "through shared memory"
                      : "a scalar result nobody reads: one thread's atomic, no shared memory";
      } else {
        shared = false;
        why = "a tensor result: each thread's own atomics, no shared memory";
      }
      e["shared_memory"] = shared ? json(*shared) : json(nullptr);
      e["why"] = why;
      bool predicted = false;
      if (op.name == "tt.reduce" && shared && *shared)
        predicted = predictReduce(e, op, *l->layout, why);
      else if (op.name == "tt.scan" && shared && *shared)
        predicted = predictScan(e, op, *l->layout, why);
      else if (shared && *shared)
        predicted = predictScratchOp(e, op, l, res, why);
      if (shared && *shared && op.name != "tt.reduce" && op.name != "tt.histogram")
        lastReduce_.reset(); // a later op reads shared memory: the reduce's loads are not last
      k_.scratchOps.push_back(e);
      if ((!shared || *shared) && !predicted)
        k_.notUnderstood.push_back(
            {"op", op.name, where(op.location, op.line),
             op.name + ": " + why + "; llcheck does not predict these shared-memory accesses yet",
             false});
    }
  }

  /// A store of values some warps only hold copies of is masked in those warps, and ptxas puts
  /// their early EXIT after some of the kernel's stores: the stores before it are executed,
  /// predicated off, by every warp. A scalar store (thread 0's) is the same with the kernel's
  /// warps: after the EXIT only warp 0 executes it (gpu_oracle/reduce_scratch), before it every
  /// warp does, predicated (gpu_oracle/real_kernels: Liger's RMS-norm rstd, 4 of 4 warps), and
  /// where ptxas branches around it only warp 0 does (3.9's Liger layer norm). The SASS says
  /// which for each STG outside the kernel's loops (SassFunction::storesOutsideLoops); the
  /// kernel's stores are matched to those from the end (program order, widths checked), and a
  /// store every warp executes gets `instructions_executed`: its instructions times all the
  /// layout's warps, or the kernel's for a scalar store.
  void storesBeforeExit() {
    if (!sass_ || sass_->functions.size() != 1)
      return;
    const SassFunction& f = sass_->functions.front();
    if (!f.storesNotReadable.empty())
      return; // ptxas may jump around a store: not told here
    std::vector<json*> stores;
    for (json& g : k_.globalAccesses)
      if (g.value("op", "") == "tt.store" && g.contains("predicted") && g["predicted"].is_object())
        stores.push_back(&g);
    std::stable_sort(stores.begin(), stores.end(), [](const json* a, const json* b) {
      return a->value("line", 0) > b->value("line", 0); // the last first
    });
    const std::vector<SassStore>& sass = f.storesOutsideLoops;
    std::size_t left = sass.size();
    for (json* g : stores) {
      json& p = (*g)["predicted"];
      uint64_t perWarp = p.value("instructions_per_warp", uint64_t{0});
      unsigned bits = p.value("vector_bits", 0u);
      bool scalar = p.value("scalar", false);
      if (g->contains("loop_depth")) {
        // Its STGs are inside the loop's code, unless ptxas unrolled a loop of known trips
        // (Inductor's two-trip store loop): then they are the last ones left, of its width.
        const json& trips = (*g)["trips"];
        uint64_t n = trips.is_number_unsigned() ? perWarp * trips.get<uint64_t>() : 0;
        if (n > 0 && n <= left &&
            std::all_of(sass.begin() + static_cast<std::ptrdiff_t>(left - n),
                        sass.begin() + static_cast<std::ptrdiff_t>(left),
                        [&](const SassStore& s) { return s.bits == bits; }))
          left -= n;
        else
          everyWarpInLoop(*g, f);
        continue;
      }
      if (perWarp == 0 || perWarp > left)
        break;
      auto mine = sass.begin() + static_cast<std::ptrdiff_t>(left - perWarp);
      auto end = sass.begin() + static_cast<std::ptrdiff_t>(left);
      left -= perWarp;
      // STGs of another width are not this op's: the matching has gone astray, say no more.
      if (std::any_of(mine, end, [&](const SassStore& s) { return s.bits != bits; }))
        break;
      bool someWarps =
          std::all_of(mine, end, [](const SassStore& s) { return s.executedBy != 'e'; });
      uint64_t warps = warpsOf(*g);
      bool exitAfter = f.lastPredicatedExit && *f.lastPredicatedExit > mine->address;
      // A tile's masked stores with no early EXIT after them: as predicted.
      if (warps == 0 || someWarps || (!scalar && !exitAfter))
        continue;
      uint64_t n = p.value("instructions", uint64_t{0});
      if (n < perWarp * warps)
        p["instructions_executed"] = {
            {"instructions", perWarp * warps},
            {"of", std::string(exitAfter ? "the store comes before a predicated EXIT in "
                                         : "no warp exits early or branches around it in ") +
                       sass_->path +
                       ": every warp executes it, predicated off where it holds no value to "
                       "store"}};
    }
  }

  /// The warps that hold a global access's values, copies included (the prediction's `warps`
  /// counts distinct ones): its layout's, or the kernel's for a scalar access; 0 when unknown.
  uint64_t warpsOf(const json& g) const {
    if (g.contains("predicted") && g["predicted"].value("scalar", false))
      return m_.numWarps.value_or(0);
    const LayoutEntry* l = layoutAt(k_, g.value("layout", -1));
    return l && l->layout && l->layout->hasInDim(dims::kWarp)
               ? static_cast<uint64_t>(l->layout->getInDimSize(dims::kWarp))
               : 0;
  }

  /// A scalar store inside a loop ptxas kept is predicated on thread 0, and every warp that
  /// runs the loop executes it (FlagGems' topk and sort: 4 of 4 warps on the H200) unless a
  /// branch jumps over it; so is a tile's store in a loop whose layout holds copies in some
  /// warps (fla's HGRN backward: a 32-element row in 4 warps, `@!P0 STG` in each, 4 times the
  /// owners' instructions). Which STG inside the loops is this op's the SASS does not say, so
  /// every one of its width must be executed by every warp.
  void everyWarpInLoop(json& g, const SassFunction& f) const {
    json& p = g["predicted"];
    uint64_t perWarp = p.value("instructions_per_warp", uint64_t{0});
    unsigned bits = p.value("vector_bits", 0u);
    uint64_t warps = warpsOf(g);
    bool any = false, all = true;
    for (const SassStore& s : f.storesInsideLoops)
      if (s.bits == bits) {
        any = true;
        all = all && s.executedBy == 'e';
      }
    if (!any || !all || warps == 0 || perWarp == 0 ||
        p.value("instructions", uint64_t{0}) >= perWarp * warps)
      return;
    p["instructions_executed"] = {
        {"instructions", perWarp * warps},
        {"of", "the store is inside a loop in " + sass_->path +
                   " and no branch there jumps over a " + std::to_string(bits) +
                   "-bit STG: every warp executes it, predicated off " +
                   (p.value("scalar", false) ? "in all but thread 0"
                                             : "where it holds only copies of the values")}};
  }

  /// Triton 3.6 predicates a reduce's combining loads on tid < the scratch's size; ptxas
  /// sometimes branches around them instead (unpredicated LDS after a predicated forward BRA,
  /// in the SASS beside the TTGIR), and then a warp none of whose lanes takes part skips them.
  /// Those loads are given to the combining steps in program order (the SASS does not say
  /// which operand's they are), each step's executions cut to the warps taking part.
  void branchedAroundLoads() {
    if (!sass_ || sass_->functions.size() != 1 || o_.triton != TritonVersion::v3_6)
      return;
    uint64_t left = sass_->functions.front().ldsBranchedAround;
    for (json& e : k_.scratchOps) {
      if (e.value("op", "") != "tt.reduce" || !e.contains("predicted"))
        continue;
      for (json& step : e["predicted"]) {
        uint64_t perWarp = step.value("instructions_per_warp", uint64_t{0});
        uint64_t taking = step.value("instructions_taking_part", uint64_t{0});
        if (left == 0 || step.value("phase", "") != "partials combined (load)" || perWarp == 0 ||
            perWarp > left || taking >= step.value("instructions", uint64_t{0}))
          continue;
        left -= perWarp;
        step["branched_around"] = {
            {"instructions_executed", taking},
            {"wavefronts_executed", step.value("wavefronts", uint64_t{0})},
            {"of", "ptxas branches around these loads (" + sass_->path +
                       "): only the warps with a lane taking part execute them"}};
      }
    }
  }

  /// An encoding as written ("#shared") with its alias substituted (the attribute's text).
  [[nodiscard]] std::string resolvedEncoding(const std::string& encoding) const {
    for (const TtgirAlias& a : m_.aliases) // names are kept without their '#'
      if ("#" + a.name == encoding)
        return a.text;
    return encoding;
  }

  [[nodiscard]] std::string where(const std::string& location, int line) const {
    return location.empty() ? m_.source + ":" + std::to_string(line) : location;
  }

  /// TMA copies: the TMA unit moves one box in the descriptor's swizzle, so what matters is
  /// the box's bytes and whether the descriptor's encoding is the buffer's (the buffer's
  /// readers and writers assume the buffer's). Each mbarrier's barrier_expect is checked
  /// against the bytes of the copies that arrive on it.
  void tmaCopies() {
    std::map<std::string, std::pair<uint64_t, uint64_t>> arriving; // barrier -> bytes, copies
    for (const TtgirTmaCopy& c : m_.tmaCopies) {
      std::string encoding = resolvedEncoding(c.encoding);
      json e = {{"op", c.name},         {"location", c.location},
                {"line", c.line},       {"descriptor", c.descriptor},
                {"box", c.box},         {"element", c.elementType},
                {"encoding", encoding}, {"buffer_layout", c.buffer.layout}};
      if (json p = regionOf(c.partition); !p.is_null())
        e["partition"] = p; // the warps that issue it
      auto bits = dtypeBits(c.elementType);
      if (c.box.empty() || !bits.ok()) {
        e["note"] = c.box.empty() ? "the descriptor's type could not be read"
                                  : "element type " + c.elementType + ": " + bits.error().message;
        k_.tmaCopies.push_back(e);
        continue;
      }
      // A TMA box has at most 256 elements per dim (and 5 dims); anything far past that is not
      // a descriptor Triton built, and is not multiplied out.
      uint64_t elems = 1;
      bool huge = c.box.size() > 5;
      for (uint64_t d : c.box) {
        huge = huge || d > (uint64_t{1} << 16);
        elems *= huge ? 1 : d;
      }
      if (huge) {
        e["note"] = "a box of more than 5 dims or 65536 elements in a dim is not a TMA box";
        k_.tmaCopies.push_back(e);
        continue;
      }
      uint64_t bytes = elems * static_cast<uint64_t>(*bits) / 8;
      e["bytes"] = bytes;
      // #ttg.nvmma_shared<{swizzlingByteWidth = 128, ...}>: the swizzle the TMA unit applies.
      if (std::size_t at = encoding.find("swizzlingByteWidth = "); at != std::string::npos) {
        const char* from = encoding.data() + at + std::string_view("swizzlingByteWidth = ").size();
        uint64_t v = 0;
        if (std::from_chars(from, encoding.data() + encoding.size(), v).ec == std::errc())
          e["swizzle_bytes"] = v;
      }
      e["shared_instructions"] =
          "none: the TMA unit " +
          std::string(c.name.find("global_to_local") != std::string::npos ? "writes" : "reads") +
          " the shared buffer, no thread issues ld/st.shared";
      const TtgirLayout* buf =
          c.buffer.layout >= 0 && static_cast<std::size_t>(c.buffer.layout) < m_.layouts.size()
              ? &m_.layouts[static_cast<std::size_t>(c.buffer.layout)]
              : nullptr;
      if (buf) {
        bool same = buf->encoding == c.encoding || buf->attribute == encoding;
        e["matches_buffer_layout"] = same;
        if (!same)
          k_.findings.push_back(
              {"tma_layout_mismatch",
               where(c.location, c.line) + ": " + c.name + " moves the box in " + encoding +
                   " (the descriptor's encoding), but the buffer is laid out as " + buf->attribute +
                   ": its readers and writers see the data in another order",
               100.0});
      }
      if (!c.barrier.empty()) {
        e["barrier"] = c.barrier;
        arriving[c.barrier].first += bytes;
        arriving[c.barrier].second += 1;
      }
      k_.tmaCopies.push_back(e);
    }
    for (const TtgirBarrierExpect& x : m_.barrierExpects) {
      auto it = arriving.find(x.barrier);
      json b = {{"barrier", x.barrier}, {"line", x.line}, {"expect_bytes", x.bytes}};
      if (it == arriving.end()) {
        b["note"] = "no TMA copy in this module arrives on it";
      } else {
        b["copies"] = it->second.second;
        b["copies_bytes"] = it->second.first;
        b["agree"] = it->second.first == x.bytes;
        if (it->second.first != x.bytes)
          k_.findings.push_back(
              {"tma_expect_mismatch",
               m_.source + ":" + std::to_string(x.line) + ": barrier_expect " + x.barrier +
                   " expects " + std::to_string(x.bytes) + " bytes, but the " +
                   std::to_string(it->second.second) + " TMA copies arriving on it bring " +
                   std::to_string(it->second.first) +
                   ": a barrier expecting more never completes, one expecting fewer completes "
                   "before the data is there",
               100.0});
      }
      k_.barriers.push_back(b);
    }
  }

  /// MMAs reading shared operands through matrix descriptors: listed (no ld.shared is issued
  /// for them), with each operand's layout.
  void descriptorReads() {
    for (const TtgirDescriptorRead& d : m_.descriptorReads) {
      json operands = json::array();
      for (const TtgirOperand& o : d.sharedOperands) {
        const TtgirLayout* l =
            o.layout >= 0 && static_cast<std::size_t>(o.layout) < m_.layouts.size()
                ? &m_.layouts[static_cast<std::size_t>(o.layout)]
                : nullptr;
        operands.push_back({{"type", o.type},
                            {"layout", o.layout},
                            {"encoding", l ? json(l->attribute) : json(nullptr)}});
      }
      k_.descriptorReads.push_back(
          {{"op", d.name},
           {"location", d.location},
           {"line", d.line},
           {"operands", operands},
           {"shared_instructions",
            "none: the MMA reads these operands through matrix descriptors, no ld.shared"}});
    }
  }

  /// Whether result I of OP is read anywhere after it in its region: `%2#1` of a
  /// multi-result op, `%2` of a single one. Unnamed ops count as read.
  [[nodiscard]] bool resultUsed(const TtgirScratchOp& op, int i) const {
    if (op.resultName.empty())
      return true;
    std::string_view text = m_.text;
    std::size_t from = 0;
    for (int line = 1; line < op.line; ++line) {
      std::size_t newline = text.find('\n', from);
      if (newline == std::string_view::npos)
        return true;
      from = newline + 1;
    }
    // Up to the end of the region that holds the op: MLIR reuses a name in sibling regions.
    std::size_t until = from;
    bool inString = false;
    for (int depth = 0; until < text.size() && depth >= 0; ++until) {
      char c = text[until];
      if (c == '"')
        inString = !inString;
      else if (!inString && c == '{')
        ++depth;
      else if (!inString && c == '}')
        --depth;
    }
    text = text.substr(from, until - from);
    bool multi = op.resultCount > 1;
    std::string ref = multi ? op.resultName + "#" + std::to_string(i) : op.resultName;
    int seen = 0;
    for (std::size_t at = text.find(ref); at != std::string_view::npos;
         at = text.find(ref, at + 1)) {
      std::size_t end = at + ref.size();
      char next = end < text.size() ? text[end] : ' ';
      bool ident = std::isalnum(static_cast<unsigned char>(next)) || next == '_' || next == '$' ||
                   next == '.' || (!multi && (next == ':' || next == '#'));
      if (!ident)
        ++seen;
    }
    return seen > (multi ? 0 : 1); // a single result's name also appears where it is defined
  }

  /// Records why a scratch op's accesses cannot be predicted (`predicted_error`, and in its
  /// not-understood reason); false, for the predict functions to return.
  static bool failPrediction(json& e, std::string& why, const std::string& message) {
    e["predicted_error"] = message;
    why += "; " + message;
    return false;
  }

  /// The element width of each operand of a reduce or scan (an i1 counts 1); nullopt, with
  /// `predicted_error`, where one cannot be read.
  std::optional<std::vector<int>> operandBits(json& e, const TtgirScratchOp& op, std::string& why) {
    std::vector<int> bits;
    for (const std::string& t : op.operandElementTypes) {
      auto b = t == "i1" ? Result<int>(1) : dtypeBits(t);
      if (!b.ok()) {
        failPrediction(e, why, "operand element type " + t + ": " + b.error().message);
        return std::nullopt;
      }
      bits.push_back(*b);
    }
    return bits;
  }

  /// A reduce's or scan's steps as `predicted` (one entry per instruction of each step), with
  /// their wavefronts and rules; the index of the last step that loads, if any.
  static std::optional<std::size_t> putSteps(json& e, const TritonScratch& red) {
    json steps = json::array();
    uint64_t wavefronts = 0;
    std::optional<std::size_t> lastLoadStep;
    for (const TritonScratchStep& st : red.steps) {
      if (st.access.name.rfind("ld", 0) == 0)
        lastLoadStep = steps.size();
      steps.push_back(toJson(st));
      wavefronts += st.access.count.wavefronts;
    }
    e["predicted"] = steps;
    e["wavefronts"] = wavefronts;
    e["lowering"] = red.why;
    return lastLoadStep;
  }

  /// A reduce across warps on sm80/sm90: Triton's shared-memory accesses (TritonReduce.h) as
  /// `predicted`. False, with `predicted_error`, where they cannot be modelled (then the op
  /// stays not understood).
  bool predictReduce(json& e, const TtgirScratchOp& op, const LinearLayout& src, std::string& why) {
    lastReduce_.reset();
    if (!tritonLowering()) {
      why += "; Triton's reduce lowering is modelled on NVIDIA sm80/sm90 only";
      return false;
    }
    auto bits = operandBits(e, op, why);
    if (!bits)
      return false;
    std::vector<TritonReduceOperand> operands;
    json unused = json::array();
    for (int b : *bits) {
      int i = static_cast<int>(operands.size());
      operands.push_back({b, resultUsed(op, i)});
      if (!operands.back().resultUsed)
        unused.push_back(i);
    }
    if (!unused.empty())
      e["results_unused"] = unused; // their loads are dead code, deleted by LLVM
    std::optional<LinearLayout> result;
    if (!op.result.type.empty()) {
      const TtgirLayout* r =
          op.result.layout >= 0 && static_cast<std::size_t>(op.result.layout) < m_.layouts.size()
              ? &m_.layouts[static_cast<std::size_t>(op.result.layout)]
              : nullptr;
      if (!r || !r->layout)
        return failPrediction(e, why, "the result's layout could not be read");
      result = *r->layout;
    }
    auto red = tritonReduce(src, op.axis, result, operands, model_, o_.triton);
    if (!red.ok())
      return failPrediction(e, why, red.error().str());
    std::optional<std::size_t> lastLoadStep = putSteps(e, *red);
    if (lastLoadStep && lastLoadStep == red->steps.size() - 1)
      lastReduce_ = ReduceLoad{k_.scratchOps.size(),
                               *lastLoadStep,
                               op.line,
                               result,
                               red->steps.back().access.count.vectorBits,
                               src.getInDimSize(dims::kWarp)};
    return true;
  }

  /// A scan across warps on sm80/sm90: Triton's shared-memory accesses (TritonScan.h) as
  /// `predicted`; false, with `predicted_error`, where they cannot be modelled. Every thread
  /// goes on to use the totals it loads, so no load of a scan is a kernel's last before an
  /// early exit.
  bool predictScan(json& e, const TtgirScratchOp& op, const LinearLayout& src, std::string& why) {
    lastReduce_.reset();
    if (!tritonLowering()) {
      why += "; Triton's scan lowering is modelled on NVIDIA sm80/sm90 only";
      return false;
    }
    auto bits = operandBits(e, op, why);
    if (!bits)
      return false;
    if (op.reverse)
      e["reverse"] = true;
    auto scan = tritonScan(src, op.axis, op.reverse, *bits, model_, o_.triton);
    if (!scan.ok())
      return failPrediction(e, why, scan.error().str());
    (void)putSteps(e, *scan);
    json ptx = json::array();
    for (const auto& widths : scan->ptxLoadWidthsPerWarp) {
      json w = json::object();
      for (const auto& [width, n] : widths)
        w[std::to_string(width)] = n;
      ptx.push_back(w);
    }
    e["ptx_load_widths_per_warp"] = ptx; // per operand, before ptxas merges them
    return true;
  }

  /// A histogram, a gather across warps or a scalar atomic on sm80/sm90 (TritonScratchOps.h),
  /// as `predicted`; false, with `predicted_error`, where it cannot be modelled. Steps whose
  /// addresses are the data's carry `data_dependent` and bounds: the op's `wavefronts` is then
  /// the most it can take (`wavefronts_exact` false).
  bool predictScratchOp(json& e, const TtgirScratchOp& op, const TtgirLayout* src,
                        const TtgirLayout* result, std::string& why) {
    if (!tritonLowering()) {
      why += "; Triton's lowering of " + op.name + " is modelled on NVIDIA sm80/sm90 only";
      return false;
    }
    lastReduce_.reset();
    auto bits = operandBits(e, op, why);
    if (!bits)
      return false;
    int width = bits->empty() ? 32 : std::max(8, bits->front());
    Result<TritonScratch> scratch = makeError("internal: no model for " + op.name);
    if (op.name == "tt.histogram") {
      if (!src || !src->layout || !result || !result->layout)
        return failPrediction(e, why, "the histogram's operand or result layout could not be read");
      scratch = tritonHistogram(*src->layout, *result->layout, model_, o_.triton);
    } else if (op.name == "tt.gather") {
      if (bits->empty())
        return failPrediction(e, why, "the gathered element type could not be read");
      scratch = tritonGather(*src->layout, *result->layout, op.axis, width, model_, o_.triton);
    } else {
      scratch = tritonScalarAtomic(width, m_.numWarps.value_or(0), model_);
    }
    if (!scratch.ok())
      return failPrediction(e, why, scratch.error().str());
    std::optional<std::size_t> lastLoadStep = putSteps(e, *scratch);
    // A histogram's bins are loaded in the result's layout, as a reduce's result: where they
    // are the kernel's last shared loads, warps holding only copies may exit before them.
    if (op.name == "tt.histogram" && lastLoadStep && *lastLoadStep == scratch->steps.size() - 1)
      lastReduce_ = ReduceLoad{k_.scratchOps.size(),
                               *lastLoadStep,
                               op.line,
                               *result->layout,
                               32,
                               src->layout->getInDimSize(dims::kWarp)};
    bool exact = std::all_of(scratch->steps.begin(), scratch->steps.end(),
                             [](const TritonScratchStep& st) { return st.dataDependent.empty(); });
    if (!exact)
      e["wavefronts_exact"] = false;
    return true;
  }

  /// Whether Triton lowers this convert_layout through shared memory (one within warps, by
  /// shuffles, loads nothing); true where that cannot be told.
  [[nodiscard]] bool convertReadsShared(const TtgirOp& op) const {
    auto layout = [&](int i) -> const std::optional<LinearLayout>* {
      return i >= 0 && static_cast<std::size_t>(i) < m_.layouts.size()
                 ? &m_.layouts[static_cast<std::size_t>(i)].layout
                 : nullptr;
    };
    const std::optional<LinearLayout>* src = op.src ? layout(op.src->layout) : nullptr;
    const std::optional<LinearLayout>* dst = layout(op.dst.layout);
    if (!src || !dst || !*src || !*dst)
      return true;
    auto shared = tritonConvertNeedsSharedMemory(**src, **dst, o_.triton);
    return !shared.ok() || *shared;
  }

  /// The reduce (or histogram) that may hold a kernel's last shared-memory loads: its entry in
  /// k_.scratchOps, its last step (a load), its line, its result layout (nullopt: a scalar) and
  /// warps.
  struct ReduceLoad {
    std::size_t entry, step;
    int line;
    std::optional<LinearLayout> result;
    int vectorBits;
    uint64_t warps;
  };
  std::optional<ReduceLoad> lastReduce_;

  /// `early_exit` of a reduce whose result loads are the kernel's last (EarlyExit.h): they come
  /// from its scratch (no shared layout), the loaded layout is the result's, and a scalar result
  /// is held by every thread (its store is one thread's).
  void reduceEarlyExit(const ReduceLoad& r) {
    if (!sass_)
      return;
    json& e = k_.scratchOps[r.entry];
    json& step = e["predicted"][r.step];
    LinearLayout loaded;
    if (r.result) {
      loaded = *r.result;
    } else {
      std::vector<DimBases> bases = {
          {dims::kRegister, {}},
          {dims::kLane, std::vector<std::vector<uint64_t>>(5, {0})},
          {dims::kWarp, std::vector<std::vector<uint64_t>>(
                            static_cast<std::size_t>(std::countr_zero(r.warps)), {0})}};
      auto l = LinearLayout::create(bases, {{dims::standardOut(0), 1}}, false);
      if (!l.ok())
        return;
      loaded = *l;
    }
    step["early_exit"] =
        earlyExitPrediction(*sass_, step, loaded, nullptr, {}, model_, std::max(8, r.vectorBits));
  }

  /// On sm90, an async copy's LDGSTS wavefronts depend on where its source lies (the rules of
  /// TritonLowering.h, measured on an H200): with the strides the axis analysis found, the
  /// predicted wavefronts are the source-aware count, and the destination's alone stay beside
  /// them (`destination_wavefronts`, what the optimum and its findings compare: a shared layout
  /// cannot change the source). Unknown strides are taken as rows far apart (each row its own
  /// line: the most an unknown stride can cost for rows narrower than a line), and said so.
  void sourceAwareCopy(OpEntry& e, const TtgirOp& op, const LayoutEntry& reg,
                       const LayoutEntry& shared, uint64_t stated) {
    if (model_.arch != "sm90" || !axis_)
      return;
    const TtgirAccessFacts* f = axis_->atLine(op.line);
    if (!f || f->op != op.name)
      return;
    json source = {{"of", "where the copy's source lies in global memory (llcheck's axis "
                          "analysis of the TTGIR); LDGSTS's wavefronts depend on it "
                          "(gpu_oracle/ldgsts_rule)"}};
    if (!f->offsets.affine) {
      source["not_established"] = "the pointers are not affine (" + f->offsets.notAffine + ")";
      e.predicted["source"] = source;
      return;
    }
    AsyncCopySource src;
    std::vector<std::string> assumed = f->offsets.assumptions;
    int64_t far = int64_t{1} << 16;
    for (const AffineStride& st : f->offsets.strides) {
      if (st.factor < 0) {
        source["not_established"] = "a negative stride";
        e.predicted["source"] = source;
        return;
      }
      if (st.symbol.empty()) {
        src.strides.push_back(st.factor);
      } else {
        src.strides.push_back(far);
        far <<= 4;
        assumed.push_back(st.symbol + " taken as rows far apart (each row in its own line: the "
                                      "most it can cost rows narrower than a line)");
      }
    }
    int64_t aligned = 1;
    for (int64_t d : f->pointer.divisibility)
      aligned = std::max(aligned, d);
    if (aligned < 128)
      assumed.push_back("the tile's first byte at a 128-byte line (Triton proves " +
                        std::to_string(aligned) + "-byte alignment)");
    assumed.push_back("the shared buffer at a 128-byte boundary");
    TritonLoweringOptions options{o_.triton, elementBits_};
    auto t = tritonAsyncCopy(*reg.layout, *shared.layout, shared.padding,
                             asyncMaxElements(reg, stated), model_, options, &src);
    if (!t.ok()) {
      source["not_established"] = t.error().str();
      e.predicted["source"] = source;
      return;
    }
    source["strides"] = affineStridesText(f->offsets.strides);
    source["assumed"] = assumed;
    e.predicted["source"] = source;
    e.predicted["destination_wavefronts"] = e.predicted["wavefronts"];
    e.predicted["store"] = toJson(*t);
    e.predicted["wavefronts"] = t->count.wavefronts;
  }

  /// What Triton's getContiguity gives an async copy's source pointers, from llcheck's own
  /// AxisInfo of the TTGIR: min(alignment, the thread's run of registers) along the source
  /// layout's fastest dim. nullopt where the analysis has no facts for the op.
  std::optional<uint64_t> axisContiguity(const TtgirOp& op) const {
    if (!axis_ || !op.src || op.src->layout < 0)
      return std::nullopt;
    const TtgirAccessFacts* f = axis_->atLine(op.line);
    const LinearLayout* reg = static_cast<std::size_t>(op.src->layout) < m_.layouts.size() &&
                                      m_.layouts[static_cast<std::size_t>(op.src->layout)].layout
                                  ? &*m_.layouts[static_cast<std::size_t>(op.src->layout)].layout
                                  : nullptr;
    if (!f || f->op != op.name || !reg)
      return std::nullopt;
    int d = tritonFastestDim(*reg);
    if (d < 0)
      return std::nullopt;
    uint64_t run = 1;
    for (int i = 0; i < std::countr_zero(reg->getInDimSize(dims::kRegister)); ++i) {
      bool along = true;
      for (int k = 0; k < reg->getNumOutDims(); ++k)
        along =
            along && reg->getBasis(dims::kRegister, i, dims::standardOut(k)) == (k == d ? run : 0);
      if (!along)
        break;
      run *= 2;
    }
    return std::min<uint64_t>(run,
                              static_cast<uint64_t>(axisAlignment(f->pointer, d, f->pointeeBits)));
  }

  /// The elements per thread an async copy of REG may move at once, as Triton's lowering caps
  /// its vector: the op's `contiguity` attribute where it has one (what Triton's axis analysis
  /// proved of the pointers; the pointer arithmetic itself is not read here), else the
  /// pointers taken as a row-major tensor of REG's shape, 16-byte aligned: the thread's run of
  /// consecutive elements (Contiguity.h), at most one row. At most 16 bytes either way.
  int asyncMaxElements(const LayoutEntry& reg, uint64_t stated) const {
    int most = 16 / std::max(1, elementBits_ / 8);
    if (stated > 0)
      return static_cast<int>(std::min<uint64_t>(stated, static_cast<uint64_t>(most)));
    ContiguityOptions co;
    co.elementBits = elementBits_;
    auto c = contiguity(*reg.layout, co);
    uint64_t run = c.ok() ? c->elements : 1;
    if (!reg.shape.empty())
      run = std::min<uint64_t>(run, reg.shape.back());
    return static_cast<int>(std::min<uint64_t>(run, static_cast<uint64_t>(most)));
  }

  /// What the compiler emits for REG to (from) SHARED: on NVIDIA, Triton's lowering
  /// (tritonLocalAccess, tritonAsyncCopy for `async` copies); elsewhere, or where Triton's
  /// lowering is not modelled for these layouts, llcheck's own choice (side()).
  Result<Side> compilerSide(const LayoutEntry& reg, const LayoutEntry& shared, bool store,
                            AsyncSource async) {
    return memoized(reg, shared, store, async, /*compiler=*/true,
                    [&] { return computeCompilerSide(reg, shared, store, async); });
  }

  Result<Side> computeCompilerSide(const LayoutEntry& reg, const LayoutEntry& shared, bool store,
                                   AsyncSource async) {
    if (!tritonLowering())
      return side(reg, shared, store);
    TritonLoweringOptions options{o_.triton, elementBits_};
    Result<TritonAccess> t =
        async ? tritonAsyncCopy(*reg.layout, *shared.layout, shared.padding,
                                asyncMaxElements(reg, *async), model_, options)
              : tritonLocalAccess(*reg.layout, *shared.layout, shared.padding,
                                  store ? SharedAccessKind::Store : SharedAccessKind::Load, model_,
                                  options);
    if (!t.ok()) {
      auto mine = side(reg, shared, store);
      if (mine.ok())
        mine->tritonError = "Triton " + tritonVersionName(o_.triton) +
                            "'s lowering is not modelled here: " + t.error().str();
      return mine;
    }
    Side s;
    s.count = t->count;
    s.instruction = t->name;
    s.matrix = t->instruction != SharedInstruction::Vector;
    s.access = toJson(*t);
    s.triton = true;
    s.misaligned = t->misalignedAccesses;
    return s;
  }

  /// `predicted` of one side: the compiler's, with llcheck's own choice beside it.
  json predictedJson(const Side& compiler, const Side& mine, const char* sideName) const {
    json p = {{sideName, compiler.access},
              {"vector_bits", compiler.count.vectorBits},
              {"wavefronts", compiler.count.wavefronts},
              {"lowering", compiler.triton ? "triton" : "llcheck"}};
    if (compiler.misaligned > 0)
      p["misaligned_accesses"] = compiler.misaligned;
    if (compiler.triton) {
      p["triton"] = tritonVersionName(o_.triton);
      p["of"] = "Triton " + tritonVersionName(o_.triton) +
                "'s lowering through the compiler's shared layout";
      p["llcheck"] = {{sideName, mine.access},
                      {"vector_bits", mine.count.vectorBits},
                      {"wavefronts", mine.count.wavefronts},
                      {"of", "llcheck's best instruction through the compiler's shared layout"}};
    } else {
      p["of"] = "the compiler's shared layout";
      if (!compiler.tritonError.empty())
        p["triton_error"] = compiler.tritonError;
    }
    return p;
  }

  /// The finding `misaligned_access` when Triton's lowering of one side (`what`) moves vectors
  /// off their alignment (a padded layout): the GPU faults.
  void addMisaligned(OpEntry& e, uint64_t misaligned, const std::string& instruction,
                     const std::string& what) const {
    if (misaligned == 0)
      return;
    e.findings.push_back({"misaligned_access",
                          what + ": Triton " + tritonVersionName(o_.triton) + " emits " +
                              instruction + ", and " + std::to_string(misaligned) +
                              " lane accesses are not aligned to their width (the padding moves "
                              "them): the GPU faults (misaligned address)",
                          kMisalignedSeverity + static_cast<double>(misaligned)});
  }

  /// local_alloc / local_store / async copies (store) and local_load (load) through the
  /// compiler's shared layout.
  void sharedAccess(OpEntry& e, const TtgirOp& op, const LayoutEntry& reg,
                    const LayoutEntry& shared, bool store) {
    elementBits_ = e.elementBits;
    const char* sideName = store ? "store" : "load";
    const AsyncSource async = asyncSourceOf(op);
    auto mine = side(reg, shared, store);
    auto compiler = mine.ok() ? compilerSide(reg, shared, store, async) : mine;
    if (!compiler.ok()) {
      notAnalysed(e, std::string("no ") + sideName + " prediction for layout " +
                         std::to_string(reg.id) + " through shared layout " +
                         std::to_string(shared.id) + ": " + compiler.error().str());
      return;
    }
    e.plan = {{"kind", store ? "shared_store" : "shared_load"},
              {"shared_layout", shared.id},
              {"register_layout", reg.id}};
    if (!shared.padding.empty())
      e.plan["note"] =
          "padded shared layout: counted address by address, one instruction of each bank pattern";
    e.predicted = predictedJson(*compiler, *mine, sideName);
    if (async && compiler->triton) {
      std::optional<uint64_t> axis = axisContiguity(op);
      e.predicted["pointer_contiguity"] = {
          {"elements", asyncMaxElements(reg, *async)},
          {"of", op.contiguity
                     ? "the op's contiguity attribute (" + std::to_string(*async) +
                           " elements: Triton's axis analysis of the pointers), at most 16 bytes"
                 : axis ? "llcheck's axis analysis of the pointers in this TTGIR (" +
                              std::to_string(*axis) + " elements), at most 16 bytes"
                        : std::string("assumed: the op states no contiguity and the axis "
                                      "analysis found no facts; the pointers as a row-major "
                                      "tensor, 16-byte aligned (the thread's run of "
                                      "consecutive elements, at most a row and 16 bytes)")}};
      if (axis)
        e.predicted["pointer_contiguity"]["axis_info_elements"] = *axis;
      if (store)
        sourceAwareCopy(e, op, reg, shared, *async);
    }
    addMisaligned(e, compiler->misaligned, compiler->instruction,
                  std::string(sideName) + " of layout " + std::to_string(reg.id) +
                      (store ? " into" : " from") + " shared layout " + std::to_string(shared.id) +
                      " (" + shared.encoding + ")");
    std::string origin = "ttgir:" + oraclePath_ + ":" + std::to_string(op.line) + ":" + op.name;
    // llcheck's oracle ran llcheck's instruction through the compiler's shared layout.
    if (!oraclePath_.empty() && (!mine->matrix || !store))
      attachMeasured(e, o_.oracle, origin + mine->oracleVariant,
                     {{sideName, mine->count.wavefronts}},
                     "the compiler's shared layout, " + mine->instruction);

    // The other side of the conversions through this shared layout.
    const auto& partners = store ? readers_[shared.id] : writers_[shared.id];
    json conversions = json::array();
    double worst = 0;
    std::string worstMessage;
    json worstFix;
    std::optional<LinearLayout> worstLayout;
    for (const auto& [p, partnerAsync] : partners) {
      const LayoutEntry* other = layoutAt(k_, p);
      if (!other || !other->layout)
        continue;
      const LayoutEntry& a = store ? reg : *other;
      const LayoutEntry& b = store ? *other : reg;
      AsyncSource aAsync = store ? async : partnerAsync;
      auto st = compilerSide(a, shared, true, aAsync);
      auto ld = compilerSide(b, shared, false, std::nullopt);
      auto sw = swizzleCached(*a.layout, *b.layout, e.elementBits, model_);
      if (st.ok() && ld.ok() && !sw->ok())
        e.findings.push_back({"not_understood",
                              e.op + " at " + e.location + ": layout " + std::to_string(a.id) +
                                  " -> shared layout " + std::to_string(shared.id) + " -> layout " +
                                  std::to_string(b.id) + ": " + sw->error().str(),
                              1e3});
      if (!st.ok() || !ld.ok() || !sw->ok())
        continue;
      const OptimalSwizzle& s = **sw;
      uint64_t compilerCost = st->count.wavefronts + ld->count.wavefronts;
      uint64_t best = s.store.count.wavefronts + s.load.count.wavefronts;
      json c = {{"store", st->count.wavefronts},
                {"load", ld->count.wavefronts},
                {"wavefronts", compilerCost},
                {"store_instruction", st->instruction},
                {"load_instruction", ld->instruction},
                {"lowering", st->triton && ld->triton ? "triton" : "llcheck"}};
      if (st->triton || ld->triton) {
        auto lst = side(a, shared, true);
        auto lld = side(b, shared, false);
        if (lst.ok() && lld.ok())
          c["llcheck"] = {{"store", lst->count.wavefronts},
                          {"load", lld->count.wavefronts},
                          {"wavefronts", lst->count.wavefronts + lld->count.wavefronts},
                          {"store_instruction", lst->instruction},
                          {"load_instruction", lld->instruction}};
      }
      conversions.push_back(
          {{"src", a.id}, {"dst", b.id}, {"compiler", c}, {"optimal", swizzleSummary(s)}});
      // One conversion is one finding, on the op that pays its excess: the store's side or the
      // load's (an AMD store can take the excess while the load is optimal).
      auto excess = [](uint64_t have, uint64_t can) {
        return static_cast<int64_t>(have) - static_cast<int64_t>(can);
      };
      int64_t storeExcess = excess(st->count.wavefronts, s.store.count.wavefronts);
      int64_t loadExcess = excess(ld->count.wavefronts, s.load.count.wavefronts);
      bool paysHere = store ? storeExcess > loadExcess : storeExcess <= loadExcess;
      if (paysHere && compilerCost > best && static_cast<double>(compilerCost - best) > worst) {
        worstLayout = s.shared;
        worstFix = sharedFix(
            a, b, &shared, s, aAsync,
            {{"layout", shared.id},
             {"attribute", shared.attribute},
             {"store", st->count.wavefronts},
             {"load", ld->count.wavefronts},
             {"wavefronts", compilerCost},
             {"instructions", st->instruction + ", " + ld->instruction}},
            e.elementBits,
            "give shared layout " + std::to_string(shared.id) +
                " this encoding: in TTGIR, the memdesc type of its ttg.local_alloc; in Gluon, "
                "the layout argument of gl.allocate_shared_memory");
        worst = static_cast<double>(compilerCost - best);
        worstMessage = "layout " + std::to_string(a.id) + " -> shared layout " +
                       std::to_string(shared.id) + " -> layout " + std::to_string(b.id) +
                       " takes " + std::to_string(st->count.wavefronts) + " + " +
                       std::to_string(ld->count.wavefronts) + " wavefronts (" + st->instruction +
                       ", " + ld->instruction + (st->triton ? "; Triton's lowering" : "") +
                       "); llcheck's optimal shared layout takes " +
                       std::to_string(s.store.count.wavefronts) + " + " +
                       std::to_string(s.load.count.wavefronts) + " (" + s.store.name + ", " +
                       s.load.name + ")";
      }
    }
    if (!conversions.empty()) {
      e.optimum = {{"conversions", conversions}};
      if (worst > 0)
        e.findings.push_back({"above_optimum", worstMessage, worst, worstFix});
      if (worst > 0 && worstFix.is_object() && !worstFix.contains("error"))
        e.findings.back().suggestedLayout = worstLayout;
      return;
    }
    // Nothing in the module reads (writes) this shared layout through registers: the best this
    // side alone can do, whatever shared layout (a lower bound), and, where the layout's other
    // readers are known, the best among the layouts they accept.
    auto sw = swizzleCached(*reg.layout, *reg.layout, e.elementBits, model_);
    if (!sw->ok()) {
      e.optimum = {{"error", sw->error().str()}};
      return;
    }
    if (store && admissibleStore(e, reg, shared, *compiler, async))
      return;
    const SideAccess& best = store ? (*sw)->store : (*sw)->load;
    e.optimum = {{sideName, accessJson(best.count, best.name)},
                 {"wavefronts", best.count.wavefronts},
                 {"vector_bits", best.count.vectorBits},
                 {"of", std::string("the fewest ") + sideName +
                            " wavefronts of any shared layout (no local_" +
                            (store ? "load reads" : "alloc/local_store writes") +
                            " this shared layout in the module)"}};
    json sideFix;
    if (compiler->count.wavefronts > best.count.wavefronts) {
      auto spelled = spellSharedLinear((*sw)->shared, reg.shape, o_.triton);
      if (!spelled.ok())
        sideFix = {{"error", spelled.error().str()}};
      else
        sideFix = {
            {"shape", reg.shape},
            {"element_bits", e.elementBits},
            {"now",
             {{"layout", shared.id},
              {"attribute", shared.attribute},
              {"wavefronts", compiler->count.wavefronts},
              {"instructions", compiler->instruction}}},
            {"suggested",
             {{"attribute", spelled->attribute},
              {"gluon", spelled->gluon},
              {"gluon_import", kGluonImport},
              {"wavefronts", best.count.wavefronts},
              {"instructions", best.name},
              {"lowering", "llcheck's instructions"}}},
            {"bound", {{"wavefronts", best.count.wavefronts}, {"instructions", best.name}}},
            {"accepted_by", std::string("not established: nothing in the module ") +
                                (store ? "reads this shared layout back into registers"
                                       : "writes it from registers") +
                                ", and its other " + (store ? "reader" : "writer") +
                                " (e.g. an MMA) may need the compiler's layout"},
            {"why", std::string("the fewest ") + sideName + " wavefronts of any shared layout"},
            {"how", "only where the other side accepts it: give shared layout " +
                        std::to_string(shared.id) + " this encoding"},
            {"checked", "read back by llcheck's attribute reader as the same layout"}};
    }
    if (compiler->count.wavefronts > best.count.wavefronts)
      e.findings.push_back(
          {"above_optimum_side",
           std::string(sideName) + " of layout " + std::to_string(reg.id) + " into shared layout " +
               std::to_string(shared.id) + " (" + shared.encoding + ") takes " +
               std::to_string(compiler->count.wavefronts) + " wavefronts (" +
               compiler->instruction + (compiler->triton ? ", Triton's lowering" : "") +
               "); the best shared layout for this " + sideName + " takes " +
               std::to_string(best.count.wavefronts) + " (" + best.name +
               "); its reader (e.g. an MMA) may need the compiler's layout",
           static_cast<double>(compiler->count.wavefronts - best.count.wavefronts), sideFix});
    if (sideFix.is_object() && !sideFix.contains("error"))
      e.findings.back().suggestedLayout = (*sw)->shared;
  }

  /// A store into a shared layout that MMA or TMA reads: its cost against every #ttg.nvmma_shared
  /// layout those readers accept (admissibleNvmma), each costed as the compiler's store is (on
  /// NVIDIA, Triton's lowering into that layout). Fills e.optimum["admissible"] and adds
  /// `above_admissible_optimum` when one of them is cheaper; false when the readers are unknown.
  bool admissibleStore(OpEntry& e, const LayoutEntry& reg, const LayoutEntry& shared,
                       const Side& mine, AsyncSource async) {
    const TtgirLayout* t = shared.id >= 0 && shared.id < static_cast<int>(m_.layouts.size())
                               ? &m_.layouts[static_cast<std::size_t>(shared.id)]
                               : nullptr;
    Consumers consumers = consumersOf(t ? t->users : std::vector<std::string>{});
    if (consumers.names.empty())
      return false;
    std::vector<std::string> candidates =
        admissibleNvmma(shared.attribute, shared.shape, e.elementBits, consumers);
    if (candidates.empty())
      return false;
    json tried = json::array();
    std::optional<std::pair<std::string, Side>> best;
    // Ties on the store are broken by what the readers' own reads cost (an MMA's core-matrix
    // reads, modelled: coreMatrixReadWavefronts), then in favour of the compiler's layout.
    std::optional<uint64_t> bestReads;
    bool bestIsCompilers = false;
    for (const std::string& attr : candidates) {
      LayoutContext so;
      so.shape = shared.shape;
      so.triton = o_.triton;
      auto l = loadSpec(attr, so);
      if (!l.ok()) {
        tried.push_back({{"attribute", attr}, {"error", l.error().str()}});
        continue;
      }
      // Only a layout llcheck verifies as a memory layout is offered (with Z3 where the run
      // has it): one that is not is a bug in the candidates' construction, said so.
      std::string verifyError;
      auto checked = verifyCached(l->layout, o_, verifyError);
      const PropertyResult* memory = checked ? checked->find(Property::Memory) : nullptr;
      if (!memory || memory->status() != "yes" || !checked->disagreements.empty()) {
        tried.push_back(
            {{"attribute", attr},
             {"error", "a bug in llcheck: this candidate fails llcheck's own verification (" +
                           (checked ? (memory ? memory->detail : std::string("no memory check"))
                                    : verifyError) +
                           "), so it is not offered"}});
        continue;
      }
      LayoutEntry candidate = shared;
      candidate.layout = l->layout;
      candidate.padding = l->padding;
      // Costed the way the compiler's own store is: Triton's lowering where mine is.
      auto c = mine.triton ? compilerSide(reg, candidate, true, async) : side(reg, candidate, true);
      if (!c.ok()) {
        tried.push_back({{"attribute", attr}, {"error", c.error().str()}});
        continue;
      }
      json entry = {{"attribute", attr}, {"store", c->access}, {"wavefronts", c->count.wavefronts}};
      if (c->triton) {
        entry["lowering"] = "triton";
        if (auto own = side(reg, candidate, true); own.ok())
          entry["llcheck"] = {{"store", own->access}, {"wavefronts", own->count.wavefronts}};
      }
      std::optional<uint64_t> reads =
          consumers.mma ? coreMatrixReadWavefronts(*candidate.layout, e.elementBits) : std::nullopt;
      if (reads)
        entry["reader_wavefronts"] = *reads;
      bool compilers = shared.layout && sameLayout(*candidate.layout, *shared.layout);
      tried.push_back(entry);
      bool better = !best || c->count.wavefronts < best->second.count.wavefronts;
      if (best && c->count.wavefronts == best->second.count.wavefronts) {
        if (reads && bestReads && *reads != *bestReads)
          better = *reads < *bestReads;
        else
          better = compilers && !bestIsCompilers;
      }
      if (better) {
        best = std::make_pair(attr, *c);
        bestReads = reads;
        bestIsCompilers = compilers;
      }
    }
    if (!best)
      return false;
    const SideAccess& bound =
        (*swizzleCached(*reg.layout, *reg.layout, e.elementBits, model_))->store;
    e.optimum = {
        {"store", accessJson(bound.count, bound.name)},
        {"wavefronts", bound.count.wavefronts},
        {"vector_bits", bound.count.vectorBits},
        {"of", "the fewest store wavefronts of any shared layout: a lower bound (the "
               "layout's readers accept only #ttg.nvmma_shared; see admissible)"},
        {"admissible",
         {{"readers", consumers.names},
          {"of", std::string("every #ttg.nvmma_shared layout the readers accept "
                             "(swizzle 0/32/64/128 bytes that fits the contiguous "
                             "dimension; MN- or K-major for 16-bit MMA operands), each "
                             "tried") +
                     (mine.triton ? " and costed with Triton " + tritonVersionName(o_.triton) +
                                        "'s lowering"
                                  : std::string())},
          {"candidates", tried},
          {"best",
           {{"attribute", best->first},
            {"store", best->second.access},
            {"wavefronts", best->second.count.wavefronts}}},
          {"ties", "equal stores are ordered by the readers' reads (an MMA reads 8-row x "
                   "16-byte core matrices: reader_wavefronts, modelled), then the compiler's "
                   "own layout first"}}}};
    if (bestReads)
      e.optimum["admissible"]["best"]["reader_wavefronts"] = *bestReads;
    uint64_t have = mine.count.wavefronts, can = best->second.count.wavefronts;
    if (have > can) {
      std::string ratio = can == 0 ? "" : " (" + fixedRatio(have, can) + "x fewer)";
      std::string readers;
      for (const std::string& r : consumers.names)
        readers += (readers.empty() ? "" : ", ") + r + consumerInstruction(r);
      json fix;
      std::optional<LinearLayout> suggestedLayout;
      auto spelled = spellNvmma(best->first, shared.shape, o_.triton);
      if (!spelled.ok()) {
        fix = {{"error", spelled.error().str()}};
      } else {
        suggestedLayout = spelled->layout;
        json suggested = {{"attribute", spelled->attribute},
                          {"gluon", spelled->gluon},
                          {"gluon_import", kGluonImport},
                          {"wavefronts", can},
                          {"instructions", best->second.instruction}};
        if (bestReads)
          suggested["reader_wavefronts"] = *bestReads;
        std::string readWhy;
        if (bestReads) {
          std::optional<uint64_t> nowReads =
              coreMatrixReadWavefronts(*shared.layout, e.elementBits);
          readWhy = "; the MMA reads it in " + std::to_string(*bestReads) +
                    " wavefronts of core matrices" +
                    (nowReads ? " (" + std::to_string(*nowReads) + " now)" : std::string()) +
                    ", modelled: no counter measures them";
        }
        fix = {{"shape", shared.shape},
               {"element_bits", e.elementBits},
               {"now",
                {{"layout", shared.id},
                 {"attribute", shared.attribute},
                 {"wavefronts", have},
                 {"instructions", mine.instruction}}},
               {"suggested", suggested},
               {"bound",
                {{"wavefronts", bound.count.wavefronts},
                 {"instructions", bound.name},
                 {"of", "the fewest store wavefronts of any shared layout"}}},
               {"accepted_by", readers + " (every #ttg.nvmma_shared layout listed in "
                                         "optimum.admissible.candidates: the swizzles that fit "
                                         "its contiguous dimension)"},
               {"why", "the fewest store wavefronts of the " + std::to_string(tried.size()) +
                           " #ttg.nvmma_shared layouts " + readers + " accept" + ratio + readWhy},
               {"how", "give shared layout " + std::to_string(shared.id) +
                           " this encoding (TTGIR: the memdesc type of its ttg.local_alloc; "
                           "Gluon: the layout argument of gl.allocate_shared_memory)"},
               {"checked", "verified a memory layout by llcheck (Def. 4.14) and costed with the "
                           "store the compiler emits"}};
      }
      e.findings.push_back({"above_admissible_optimum",
                            "store of layout " + std::to_string(reg.id) + " into shared layout " +
                                std::to_string(shared.id) + " (" + shared.encoding + ") takes " +
                                std::to_string(have) + " wavefronts (" + mine.instruction + "); " +
                                best->first + ", which its readers (" + readers +
                                ") also accept, takes " + std::to_string(can) + " (" +
                                best->second.instruction + ")" + ratio,
                            static_cast<double>(have - can), fix});
      e.findings.back().suggestedLayout = suggestedLayout;
    }
    return true;
  }

  /// `predicted.early_exit` of the module's last shared-memory load (EarlyExit.h).
  void earlyExit(OpEntry& e, const LayoutEntry* loaded, const LayoutEntry* shared) const {
    if (!sass_ || !e.predicted.is_object() || e.predicted.value("lowering", "") != "triton" ||
        !e.predicted.contains("load") || !loaded || !loaded->layout)
      return;
    bool viaShared = shared && shared->layout;
    e.predicted["early_exit"] = earlyExitPrediction(
        *sass_, e.predicted["load"], *loaded->layout, viaShared ? &*shared->layout : nullptr,
        viaShared ? shared->padding : std::vector<IntervalPad>{}, model_, e.elementBits);
  }

  static std::string fixedRatio(uint64_t a, uint64_t b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", static_cast<double>(a) / static_cast<double>(b));
    return buf;
  }

  const TtgirModule& m_;
  const ReportOptions& o_;
  KernelReport k_;
  /// Triton's AxisInfo of the module's pointers (AxisInfo.h).
  std::optional<TtgirAxisAnalysis> axis_;
  SharedMemoryModel model_;
  std::string oraclePath_;
  /// The SASS beside the module, when there is one.
  std::optional<SassBeside> sass_;
  /// Register layouts that write (read) each shared layout, and whether the write is an async
  /// copy (cp.async).
  std::map<int, std::set<std::pair<int, AsyncSource>>> writers_, readers_;
  int elementBits_ = 16;

  /// Sides already costed. A kernel repeats the same access (one local_load per pipeline stage,
  /// the same tile loaded in twenty places), and Triton's lowering counts up to 2^15
  /// instructions one by one: each distinct side is costed once per module. The key holds
  /// everything a side depends on (the register layout, by its id: it is always the module's;
  /// the shared layout by value, since a suggested candidate carries the id of the layout it
  /// replaces), and the model and the release are the module's.
  struct SideKey {
    int reg, elementBits;
    bool store;
    AsyncSource async;
    bool compiler;
    LinearLayout shared;
    std::vector<IntervalPad> padding;
    friend bool operator==(const SideKey&, const SideKey&) = default;
  };
  struct SideKeyHash {
    std::size_t operator()(const SideKey& k) const {
      std::size_t h = k.shared.hash();
      for (uint64_t v :
           {static_cast<uint64_t>(k.reg), static_cast<uint64_t>(k.elementBits),
            static_cast<uint64_t>(k.store), k.async.value_or(~uint64_t{0}),
            static_cast<uint64_t>(k.compiler), static_cast<uint64_t>(k.padding.size())})
        h = h * 1000003u ^ std::hash<uint64_t>{}(v);
      return h;
    }
  };
  std::unordered_map<SideKey, Result<Side>, SideKeyHash> sides_;

  template <class Compute>
  Result<Side> memoized(const LayoutEntry& reg, const LayoutEntry& shared, bool store,
                        AsyncSource async, bool compiler, Compute compute) {
    SideKey key{reg.id, elementBits_, store, async, compiler, *shared.layout, shared.padding};
    if (auto it = sides_.find(key); it != sides_.end())
      return it->second;
    Result<Side> r = compute();
    sides_.emplace(std::move(key), r);
    return r;
  }
};

} // namespace

KernelReport reportOneModule(const TtgirModule& module, const ReportOptions& options,
                             const OpSink& sink) {
  return ModuleReporter(module, options).run(sink);
}

} // namespace llcheck::reports::detail
