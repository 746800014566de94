// Printing for `llcheck convert` and `llcheck bank-conflicts` (see ConversionCommands.h).
#include "ConversionCommands.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/Broadcast.h"
#include "llcheck/core/conversion/Contiguity.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/Gather.h"
#include "llcheck/core/conversion/Ldmatrix.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/core/conversion/WarpShuffle.h"

#include <iostream>
#include <optional>
#include <ostream>

namespace llcheck::cli {

namespace {

std::string accessLine(const AccessCount& a) {
  return std::to_string(a.vectorBits) + "-bit accesses, " + std::to_string(a.instructions) +
         " instructions, " + std::to_string(a.wavefronts) + " wavefronts (ideal " +
         std::to_string(a.idealWavefronts) + "), " + std::to_string(a.bankConflicts) +
         " bank conflicts";
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

/// Contiguity (in the tensor's row-major order) and duplicated data of a distributed layout.
nlohmann::json layoutFacts(const LinearLayout& l, int elementBits, const std::string& name,
                           std::string& text) {
  nlohmann::json j = nlohmann::json::object();
  ContiguityOptions options;
  options.elementBits = elementBits;
  if (auto c = contiguity(l, options); c.ok()) {
    j["contiguity"] = toJson(*c);
    text += name + ": " + std::to_string(c->elements) + " contiguous elements per thread (" +
            std::to_string(c->bits) + "-bit accesses to a row-major tensor)\n";
  }
  if (auto b = broadcast(l); b.ok()) {
    j["broadcast"] = toJson(*b);
    for (const std::string& line : b->summary)
      text += name + ": " + line + "\n";
  }
  return j;
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
  if (r.json) {
    out << nlohmann::json{{"store", toJson(report->store)},
                          {"load", toJson(report->load)},
                          {"ldmatrix", matrix},
                          {"arch", r.model.arch},
                          {"dtype", r.dtype}}
               .dump()
        << "\n";
    return 0;
  }
  out << "REG to/from SHARED on " << r.model.arch << ", " << r.dtype
      << " (per CTA, summed over warps):\n"
      << "  store: " << accessLine(report->store) << "\n"
      << "  load:  " << accessLine(report->load) << "\n";
  if (!r.dst.padding.empty())
    out << "  (SHARED is padded: counted by enumerating every address)\n";
  out << matrixText;
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
  j["layouts"] = {{"src", layoutFacts(plan->src, r.elementBits, "SRC", text)},
                  {"dst", layoutFacts(plan->dst, r.elementBits, "DST", text)}};
  if (plan->kind == ConversionKind::WarpShuffle) {
    auto shuffles = planWarpShuffles(r.src.layout, r.dst.layout, r.elementBits);
    if (!shuffles.ok()) {
      errorMessage = shuffles.error().str();
      return 2;
    }
    j["shuffle"] = toJson(*shuffles);
    text += "warp shuffles: " + std::to_string(shuffles->rounds) + " rounds, each lane sends " +
            std::to_string(shuffles->vectorElements) + " x " + r.dtype + " per round (" +
            std::to_string(shuffles->shufflesPerVector) +
            " shfl per round); the per-lane schedule is in --format json\n";
  }
  std::optional<OptimalSwizzle> swizzle;
  if (plan->kind == ConversionKind::SharedMemory) {
    auto found = optimalSwizzle(r.src.layout, r.dst.layout, r.elementBits, r.model);
    if (!found.ok()) {
      errorMessage = found.error().str();
      return 2;
    }
    swizzle = std::move(*found);
    nlohmann::json s = toJson(*swizzle, r.elementBits);
    for (const char* key : {"shared", "construction", "vector_bits", "store", "load", "lower_bound",
                            "vec", "bank", "segment", "candidates"})
      j[key] = s[key];
    const OptimalSwizzle& o = *swizzle;
    attained = o.bound.attainedBy(o.store.count, o.load.count);
    j["proof"] = {{"lower_bound_attained", attained},
                  {"by", {"algebra"}},
                  {"statement",
                   "Lemma 9.5: no segment space larger than conflict_free_segment_dims "
                   "avoids both phases' lane spaces; with the pieces each side moves, the "
                   "layout's store and load take the least wavefronts that allows"}};
    text += "optimal shared layout (" + o.construction +
            "; offset bits: " + std::to_string(o.vec.size()) + " contiguous, " +
            std::to_string(o.bank.size()) + " bank, " + std::to_string(o.segment.size()) +
            " segment):\n" + o.shared.toString().substr(1) + "\n" + "store: " + o.store.name +
            ", " + accessLine(o.store.count) + "\n" + "load:  " + o.load.name + ", " +
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
    out << j.dump() << "\n";
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
    out << toJson(*plan).dump() << "\n";
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

} // namespace llcheck::cli
