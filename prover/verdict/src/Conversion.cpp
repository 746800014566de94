// Printing for `llcheck convert` and `llcheck bank-conflicts` (see Conversion.h).
#include "llcheck/verdict/Conversion.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/Broadcast.h"
#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/core/conversion/Contiguity.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/Gather.h"
#include "llcheck/core/conversion/Ldmatrix.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/core/conversion/TritonLowering.h"
#include "llcheck/core/conversion/WarpShuffle.h"

#include <iostream>
#include <optional>
#include <ostream>

namespace llcheck::verdict {

namespace {

std::string accessLine(const AccessCount& a) {
  return std::to_string(a.vectorBits) + "-bit accesses, " + std::to_string(a.instructions) +
         " instructions, " + std::to_string(a.wavefronts) + " wavefronts (ideal " +
         std::to_string(a.idealWavefronts) + "), " + std::to_string(a.bankConflicts) +
         " bank conflicts";
}

/// ld/st, matrix or matrix.trans: names differ between llcheck and the PTX spelling Triton uses
/// ("ldmatrix.x4.b16" and "ldmatrix.sync.aligned.m8n8.x4.shared.b16" are the same access).
std::string instructionFamily(const std::string& name) {
  bool matrix = name.find("matrix") != std::string::npos;
  bool trans = name.find(".trans") != std::string::npos;
  return matrix ? (trans ? "matrix.trans" : "matrix") : "vector";
}

/// The text line of one side as Triton lowers it, and llcheck's beside it where they differ.
std::string tritonLine(const char* side, const TritonAccess& t, const std::string& llcheckName,
                       const AccessCount& llcheckCount) {
  std::string line = std::string("  ") + side + t.name + ", " + accessLine(t.count) + " (" +
                     std::to_string(t.instructionsPerWarp) + " per warp)\n";
  if (instructionFamily(t.name) == instructionFamily(llcheckName) &&
      t.count.vectorBits == llcheckCount.vectorBits &&
      t.count.wavefronts == llcheckCount.wavefronts &&
      t.count.instructions == llcheckCount.instructions)
    return line;
  return line + "      llcheck: " + llcheckName + ", " + std::to_string(llcheckCount.instructions) +
         " instructions, " + std::to_string(llcheckCount.wavefronts) + " wavefronts\n";
}

const char* kindMeaning(ConversionKind k) {
  switch (k) {
  case ConversionKind::NoOp:
    return "SRC and DST are the same layout: nothing moves";
  case ConversionKind::RegisterPermutation:
    return "every thread already holds what it needs: registers are renamed";
  case ConversionKind::WarpShuffle:
    return "every warp already holds what it needs: lanes exchange data by warp shuffles";
  case ConversionKind::SharedMemory:
    return "warps exchange data: a store to and a load from shared memory";
  case ConversionKind::InterCta:
    return "CTAs exchange data (distributed shared memory): llcheck does not plan this";
  }
  return "";
}

/// ldmatrix/stmatrix (NVIDIA only, no padding): the plain form and, for 16-bit, .trans.
nlohmann::json matrixInstructions(const ConversionRequest& r, std::string& text) {
  nlohmann::json j = nlohmann::json::object();
  if (r.model.arch.rfind("sm", 0) != 0 || !r.dst.padding.empty() || r.elementBits > 32) {
    text += "  ldmatrix/stmatrix: not applicable (" +
            std::string(r.model.arch.rfind("sm", 0) != 0 ? "not an NVIDIA architecture"
                        : r.elementBits > 32             ? "elements wider than 32 bits"
                                                         : "padded shared layout") +
            ")\n";
    return nullptr;
  }
  for (bool trans : {false, true}) {
    if (trans && r.elementBits != 16)
      continue;
    auto plan = ldmatrix(r.src.layout, r.dst.layout, LdmatrixOptions{r.elementBits, trans});
    const char* name = trans ? "trans" : "plain";
    if (!plan.ok()) {
      j[name] = {{"error", plan.error().str()}};
      continue;
    }
    j[name] = toJson(*plan);
    text += std::string("  ldmatrix/stmatrix") + (trans ? ".trans" : "") + ": ";
    if (!plan->divides)
      text += "no (" + plan->reason + ")\n";
    else
      text += "x" + std::to_string(plan->matricesPerInstruction) + ", " +
              std::to_string(plan->instructionsPerWarp) + " instructions per warp, " +
              std::to_string(plan->bankConflictsPerWarp) + " bank conflicts per warp\n";
  }
  return j;
}

/// The layout's own load or store from global memory (llcheck coalescing's defaults: a contiguous
/// row-major tensor on a 128-byte boundary): a conversion is often there for the sake of one of
/// them, so each side's cost outside shared memory stands beside the conversion's. Only NVIDIA's
/// global memory is modelled; for another arch, or a layout the model does not take, the JSON
/// says why it is missing.
nlohmann::json globalAccessFacts(const LinearLayout& l, int elementBits, const std::string& arch,
                                 const std::string& name, std::string& text) {
  auto model = globalMemoryModel(arch);
  if (!model.ok())
    return {{"not_predicted", "global memory is modelled for NVIDIA's sm80 and sm90, not " + arch}};
  CoalescingOptions options;
  options.elementBits = elementBits;
  auto a = predictGlobalAccess(l, options, *model);
  if (!a.ok())
    return {{"not_predicted", a.error().str()}};
  nlohmann::json j = coalescingJson(*a, l, options, *model);
  text += name + ": global load/store: ld/st.global." + a->ptxSuffix() + ", " +
          std::to_string(a->instructionsPerWarp) + " per warp, " + std::to_string(a->sectors) +
          " sectors in " + std::to_string(a->requests) +
          (a->requests == 1 ? " request" : " requests") + " per CTA (" +
          (a->sectors == a->idealSectors ? std::string("the ideal")
                                         : "ideal " + std::to_string(a->idealSectors)) +
          ")\n";
  return j;
}

/// Contiguity (in the tensor's row-major order), global access and duplicated data of a
/// distributed layout.
nlohmann::json layoutFacts(const LinearLayout& l, int elementBits, const std::string& arch,
                           const std::string& name, std::string& text) {
  nlohmann::json j = nlohmann::json::object();
  ContiguityOptions options;
  options.elementBits = elementBits;
  if (auto c = contiguity(l, options); c.ok()) {
    j["contiguity"] = toJson(*c);
    text += name + ": " + std::to_string(c->elements) + " contiguous elements per thread (" +
            std::to_string(c->bits) + "-bit accesses to a row-major tensor)\n";
  }
  j["global"] = globalAccessFacts(l, elementBits, arch, name, text);
  if (auto b = broadcast(l); b.ok()) {
    j["broadcast"] = toJson(*b);
    for (const std::string& line : b->summary)
      text += name + ": " + line + "\n";
  }
  return j;
}

/// Warp shuffles (a WarpShuffle conversion): their schedule into `j`, a summary into `text`.
std::optional<Error> addWarpShuffles(const ConversionRequest& r, nlohmann::json& j,
                                     std::string& text) {
  auto shuffles = planWarpShuffles(r.src.layout, r.dst.layout, r.elementBits);
  if (!shuffles.ok())
    return shuffles.error();
  j["shuffle"] = toJson(*shuffles);
  text += "warp shuffles: " + std::to_string(shuffles->rounds) + " rounds, each lane sends " +
          std::to_string(shuffles->vectorElements) + " x " + r.dtype + " per round (" +
          std::to_string(shuffles->shufflesPerVector) +
          " shfl per round); the per-lane schedule is in --format json\n";
  return std::nullopt;
}

/// The optimal shared layout of a SharedMemory conversion and its lower bound (Lemma 9.5): into
/// `j` (with the proof's statement) and `text`.
Result<OptimalSwizzle> addOptimalSwizzle(const ConversionRequest& r, nlohmann::json& j,
                                         std::string& text) {
  auto found = optimalSwizzle(r.src.layout, r.dst.layout, r.elementBits, r.model);
  if (!found.ok())
    return found.error();
  const OptimalSwizzle& o = *found;
  // Checked from the layout alone before it is shown (whyNotShown, as `report` does): a layout
  // that is not a memory layout, or one refuteSuggestion refutes (a bug in llcheck, said so), is
  // printed as a refusal instead of the layout, and the status is 1.
  if (std::string why = whyNotShown(o, r.src.layout, r.dst.layout, r.elementBits, r.model);
      !why.empty()) {
    j["refused"] = why;
    text += why + "\n";
    return found;
  }
  j["checked"] = "a memory layout (Def. 4.14) of the tensor by the algebra and enumeration, "
                 "and both sides' costs counted again from it";
  nlohmann::json s = toJson(o, r.elementBits);
  for (const char* key : {"shared", "construction", "vector_bits", "store", "load", "lower_bound",
                          "vec", "bank", "segment", "candidates"})
    j[key] = s[key];
  bool attained = o.bound.attainedBy(o.store.count, o.load.count);
  j["proof"] = {{"lower_bound_attained", attained},
                {"by", {"algebra"}},
                {"statement", "Lemma 9.5: no segment space larger than conflict_free_segment_dims "
                              "avoids both phases' lane spaces; with the pieces each side moves, "
                              "the layout's store and load take the least wavefronts that allows"}};
  text += "optimal shared layout (" + o.construction +
          "; offset bits: " + std::to_string(o.vec.size()) + " contiguous, " +
          std::to_string(o.bank.size()) + " bank, " + std::to_string(o.segment.size()) +
          " segment):\n" + o.shared.toString().substr(1) + "\n" + "store: " + o.store.name + ", " +
          accessLine(o.store.count) + "\n" + "load:  " + o.load.name + ", " +
          accessLine(o.load.count) + "\n" +
          "lower bound (Lemma 9.5): " + std::to_string(o.bound.conflictFreeSegmentDims) +
          " segment dims can avoid both phases' lanes, " + std::to_string(o.bound.segmentDims) +
          " needed; least wavefronts: store " + std::to_string(o.bound.storeWavefronts) +
          ", load " + std::to_string(o.bound.loadWavefronts) +
          (attained ? " (attained)" : " (NOT attained)") + "\n" + "candidates searched:";
  for (const SwizzleCandidate& c : o.candidates)
    text += "\n  " + c.construction + ": " + c.store + " + " + c.load + " = " +
            std::to_string(c.storeWavefronts) + " + " + std::to_string(c.loadWavefronts) +
            " wavefronts";
  text += "\n";
  return found;
}

/// Triton's own scratch layout and its two sides (--lowering triton, when Triton goes through
/// shared memory): they replace llcheck's in `j`, whose own stay beside them under "llcheck".
std::optional<Error> addTritonScratch(const ConversionRequest& r, const ConversionPlan& plan,
                                      const std::optional<OptimalSwizzle>& swizzle,
                                      nlohmann::json& j, nlohmann::json& t, std::string& text) {
  auto tc = tritonConvertLayout(r.src.layout, r.dst.layout, r.model,
                                TritonLoweringOptions{r.triton, r.elementBits});
  if (!tc.ok())
    return tc.error();
  t["shared_memory"] = true;
  t["rounds"] = tc->rounds;
  t["triton_conflicts"] = tc->tritonConflicts;
  // The scratch layout and the two sides replace llcheck's; llcheck's stay beside them.
  nlohmann::json mine = {{"kind", conversionKindName(plan.kind)}};
  for (const char* key : {"shared", "store", "load", "vector_bits", "construction", "vec", "bank",
                          "segment", "candidates"})
    if (j.contains(key)) {
      mine[key] = j[key];
      if (std::string(key) != "shared" && std::string(key) != "store" &&
          std::string(key) != "load" && std::string(key) != "vector_bits")
        j.erase(key);
    }
  j["llcheck"] = mine;
  j["shared"] = toJson(tc->scratch);
  j["store"] = toJson(tc->store);
  j["load"] = toJson(tc->load);
  j["vector_bits"] = tc->store.count.vectorBits;
  j["triton_scratch"] = {
      {"vector", tc->vector}, {"bank", tc->bank}, {"segment", tc->segment}, {"reps", tc->reps}};
  text += "its own scratch layout (" + std::to_string(tc->vector.size()) + " vector, " +
          std::to_string(tc->bank.size()) + " bank, " + std::to_string(tc->segment.size()) +
          " segment bases" +
          (tc->rounds > 1 ? ", " + std::to_string(tc->rounds) + " rounds" : std::string()) +
          "):\n" + tc->scratch.toString().substr(1) + "\n";
  if (swizzle) {
    text += tritonLine("store: ", tc->store, swizzle->store.name, swizzle->store.count);
    text += tritonLine("load:  ", tc->load, swizzle->load.name, swizzle->load.count);
  } else {
    // llcheck needs no shared memory here (a warp already holds a copy of what it
    // needs), Triton does not notice.
    text += tritonLine("store: ", tc->store, tc->store.name, tc->store.count) +
            tritonLine("load:  ", tc->load, tc->load.name, tc->load.count) +
            "      llcheck: " + conversionKindName(plan.kind) + ", no shared memory\n";
  }
  return std::nullopt;
}

/// --lowering triton: what Triton's convert_layout does, into `j["triton"]` and `text`.
std::optional<Error> addTritonLowering(const ConversionRequest& r, const ConversionPlan& plan,
                                       const std::optional<OptimalSwizzle>& swizzle,
                                       nlohmann::json& j, std::string& text) {
  nlohmann::json t = {{"version", tritonVersionName(r.triton)}};
  text += "Triton " + tritonVersionName(r.triton) + "'s lowering (--lowering triton): ";
  auto needs = tritonConvertNeedsSharedMemory(r.src.layout, r.dst.layout, r.triton);
  if (!needs.ok())
    return needs.error();
  if (!*needs) {
    t["shared_memory"] = false;
    text += "no shared memory (its warps exchange nothing)\n";
  } else if (auto e = addTritonScratch(r, plan, swizzle, j, t, text)) {
    return e;
  }
  j["lowering"] = "triton";
  j["triton"] = t;
  return std::nullopt;
}

} // namespace

int runBankConflicts(const ConversionRequest& r, std::ostream& out, std::string& errorMessage) {
  auto report = bankConflicts(r.src.layout, r.dst.layout, r.dst.padding, r.elementBits, r.model);
  if (!report.ok()) {
    errorMessage = report.error().str();
    return 2;
  }
  std::string matrixText;
  nlohmann::json matrix = matrixInstructions(r, matrixText);
  std::string storeName = sharedInstructionName(
      r.model, SharedAccessKind::Store, SharedInstruction::Vector, report->store.vectorBits, 0);
  std::string loadName = sharedInstructionName(
      r.model, SharedAccessKind::Load, SharedInstruction::Vector, report->load.vectorBits, 0);
  nlohmann::json store = toJson(report->store);
  store["instruction"] = storeName;
  nlohmann::json load = toJson(report->load);
  load["instruction"] = loadName;
  std::optional<TritonAccess> tStore, tLoad;
  if (r.tritonLowering) {
    TritonLoweringOptions options{r.triton, r.elementBits};
    auto ts = tritonLocalAccess(r.src.layout, r.dst.layout, r.dst.padding, SharedAccessKind::Store,
                                r.model, options);
    auto tl = tritonLocalAccess(r.src.layout, r.dst.layout, r.dst.padding, SharedAccessKind::Load,
                                r.model, options);
    if (!ts.ok() || !tl.ok()) {
      errorMessage = (!ts.ok() ? ts : tl).error().str();
      return 2;
    }
    tStore = *ts;
    tLoad = *tl;
  }
  if (r.json) {
    nlohmann::json j = {{"ldmatrix", matrix},
                        {"arch", r.model.arch},
                        {"dtype", r.dtype},
                        {"lowering", r.tritonLowering ? "triton" : "llcheck"}};
    if (tStore) {
      j["store"] = toJson(*tStore);
      j["load"] = toJson(*tLoad);
      j["triton"] = tritonVersionName(r.triton);
      j["llcheck"] = {{"store", store}, {"load", load}};
    } else {
      j["store"] = store;
      j["load"] = load;
    }
    out << dumpJson(j) << "\n";
    return 0;
  }
  out << "REG to/from SHARED on " << r.model.arch << ", " << r.dtype
      << " (per CTA, summed over warps):\n"
      << "  store: " << accessLine(report->store) << "\n"
      << "  load:  " << accessLine(report->load) << "\n";
  if (!r.dst.padding.empty())
    out << "  (SHARED is padded: counted address by address, one instruction of each bank "
           "pattern)\n";
  out << matrixText;
  if (tStore)
    out << "Triton " << tritonVersionName(r.triton) << "'s lowering (--lowering triton):\n"
        << tritonLine("store: ", *tStore, storeName, report->store)
        << tritonLine("load:  ", *tLoad, loadName, report->load);
  return 0;
}

int runConvert(const ConversionRequest& r, std::ostream& out, std::string& errorMessage) {
  auto plan = planConversion(r.src.layout, r.dst.layout, r.triton);
  if (!plan.ok()) {
    errorMessage = plan.error().str();
    return 2;
  }
  nlohmann::json j = {{"kind", conversionKindName(plan->kind)},
                      {"conversion", toJson(plan->conversion)},
                      {"arch", r.model.arch},
                      {"dtype", r.dtype},
                      {"shared", nullptr},
                      {"vector_bits", nullptr},
                      {"store", nullptr},
                      {"load", nullptr},
                      {"lower_bound", nullptr},
                      {"proof", nullptr}};
  bool attained = true;
  std::string text = "conversion: " + std::string(conversionKindName(plan->kind)) + " (" +
                     kindMeaning(plan->kind) + ")\nC = DST^-1 o SRC:\n" +
                     plan->conversion.toString().substr(1) + "\n";
  j["layouts"] = {{"src", layoutFacts(plan->src, r.elementBits, r.model.arch, "SRC", text)},
                  {"dst", layoutFacts(plan->dst, r.elementBits, r.model.arch, "DST", text)}};
  if (plan->kind == ConversionKind::WarpShuffle) {
    if (auto e = addWarpShuffles(r, j, text)) {
      errorMessage = e->str();
      return 2;
    }
  }
  std::optional<OptimalSwizzle> swizzle;
  if (plan->kind == ConversionKind::SharedMemory) {
    auto found = addOptimalSwizzle(r, j, text);
    if (!found.ok()) {
      errorMessage = found.error().str();
      return 2;
    }
    swizzle = std::move(*found);
    attained = swizzle->bound.attainedBy(swizzle->store.count, swizzle->load.count) &&
               !j.contains("refused");
  }
  if (r.tritonLowering) {
    if (auto e = addTritonLowering(r, *plan, swizzle, j, text)) {
      errorMessage = e->str();
      return 2;
    }
  } else {
    j["lowering"] = "llcheck";
  }
  ConvertProofs proofs;
  if (r.properties) {
    proofs = r.properties(*plan, swizzle ? &*swizzle : nullptr);
    j["properties"] = proofs.properties;
    if (swizzle && proofs.swizzleBoundByZ3)
      j["proof"]["by"].push_back("z3");
    text += proofs.text;
  }
  if (r.json)
    out << dumpJson(j) << "\n";
  else
    out << text;
  if (!proofs.unknowns.empty()) {
    // Not bad input: the answer is "unknown", and the status is 1.
    std::string names;
    for (const std::string& u : proofs.unknowns)
      names += (names.empty() ? "" : ", ") + u;
    std::cerr << "llcheck: unknown: z3 could not decide " << names << " " << proofs.unknownMessage
              << "\n";
  }
  return attained && !proofs.failed && proofs.unknowns.empty() ? 0 : 1;
}

int runGather(const LoadedLayout& layout, int axis, bool json, std::ostream& out,
              std::string& errorMessage) {
  auto plan = planGather(layout.layout, axis);
  if (!plan.ok()) {
    errorMessage = plan.error().within(layout.source).str();
    return 2;
  }
  if (json) {
    out << dumpJson(toJson(*plan)) << "\n";
    return 0;
  }
  out << "gather along " << plan->axisDim.str() << " (size " << plan->axisSize << "): ";
  if (plan->withinWarp)
    out << "stays within each warp: " << plan->rounds << " shuffle round"
        << (plan->rounds == 1 ? "" : "s") << " (the axis runs through " << plan->laneBits.size()
        << " lane bits and " << plan->registerBits.size() << " register bits)\n";
  else
    out << "crosses warps (" << plan->warpBits.size() << " warp bits and " << plan->blockBits.size()
        << " block bits run along the axis): it needs shared memory, not shuffles\n";
  return 0;
}

} // namespace llcheck::verdict
