// Printing for `llcheck convert` and `llcheck bank-conflicts` (see ConversionCommands.h).
#include "ConversionCommands.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"

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

} // namespace

int runBankConflicts(const ConversionRequest& r, std::ostream& out, std::string& errorMessage) {
  auto report = bankConflicts(r.src.layout, r.dst.layout, r.dst.padding, r.elementBits, r.model);
  if (!report.ok()) {
    errorMessage = report.error().str();
    return 2;
  }
  if (r.json) {
    out << nlohmann::json{{"store", toJson(report->store)},
                          {"load", toJson(report->load)},
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
  return 0;
}

int runConvert(const ConversionRequest& r, std::ostream& out, std::string& errorMessage) {
  auto plan = planConversion(r.src.layout, r.dst.layout);
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
  if (plan->kind == ConversionKind::SharedMemory) {
    auto swizzle = optimalSwizzle(r.src.layout, r.dst.layout, r.elementBits, r.model);
    if (!swizzle.ok()) {
      errorMessage = swizzle.error().str();
      return 2;
    }
    nlohmann::json s = toJson(*swizzle, r.elementBits);
    for (const char* key : {"shared", "vector_bits", "store", "load", "lower_bound"})
      j[key] = s[key];
    j["vec"] = s["vec"];
    j["bank"] = s["bank"];
    j["segment"] = s["segment"];
    attained = swizzle->bound.attainedBy(swizzle->store, swizzle->load);
    j["proof"] = {{"lower_bound_attained", attained},
                  {"by", {"algebra"}},
                  {"statement",
                   "Lemma 9.5: no segment space larger than conflict_free_segment_dims "
                   "avoids both phases' lane spaces; the layout's store and load "
                   "take the least wavefronts that allows"}};
    const OptimalSwizzle& o = *swizzle;
    text += "optimal shared layout (offset bits: " + std::to_string(o.vectorLog2) + " vector, " +
            std::to_string(o.bank.size()) + " bank, " + std::to_string(o.segment.size()) +
            " segment):\n" + o.shared.toString().substr(1) + "\n" +
            "vector: " + std::to_string((1 << o.vectorLog2) * r.elementBits) + " bits (" +
            std::to_string(1 << o.vectorLog2) + " x " + r.dtype + ")\n" +
            "store: " + accessLine(o.store) + "\n" + "load:  " + accessLine(o.load) + "\n" +
            "lower bound (Lemma 9.5): " + std::to_string(o.bound.conflictFreeSegmentDims) +
            " segment dims can avoid both phases' lanes, " + std::to_string(o.bound.segmentDims) +
            " needed; least wavefronts: store " + std::to_string(o.bound.storeWavefronts) +
            ", load " + std::to_string(o.bound.loadWavefronts) +
            (attained ? " (attained)" : " (NOT attained)") + "\n";
  }
  if (r.json)
    out << j.dump() << "\n";
  else
    out << text;
  return attained ? 0 : 1;
}

} // namespace llcheck::cli
