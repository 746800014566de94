// `llcheck coalescing`'s answer (see Coalescing.h).
#include "llcheck/verdict/Coalescing.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/TritonVersion.h"
#include "llcheck/prover/CoalescingProofs.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <ostream>

namespace llcheck::verdict {

namespace {

/// What the prover says about the sectors per request, ready to print.
struct CoalescingProof {
  nlohmann::json json;        ///< ProofResult::toJson()
  std::string line;           ///< one line for the text output
  int status = 0;             ///< 1: refuted, unknown or an error
  std::string unknownMessage; ///< for stderr, when Z3 could not decide
};

/// The sector bound of a rank count, proven by Z3 and put in words (coalescing's proof line).
CoalescingProof proveCoalescing(const CoalescingRequest& r, const GlobalAccess& a) {
  const prover::ProverOptions& options = *r.prove;
  prover::ProofResult p = prover::proveSectorBound(r.layout.layout, r.options, r.model, a, options);
  CoalescingProof out;
  out.json = p.toJson();
  switch (p.outcome) {
  case prover::Outcome::Proven:
    out.line = "proven by z3: no request touches more than " +
               std::to_string(a.maxSectorsPerRequest) + " sectors, and register " +
               p.witness["register"].dump() + " of warp " + p.witness["warp"].dump() +
               " in lanes " + p.witness["lanes"].dump() + " touches that many";
    break;
  case prover::Outcome::Refuted:
    out.line = "REFUTED by z3: " + p.detail +
               (p.counterexample.empty() ? "" : " " + p.counterexample.dump());
    out.status = 1;
    break;
  case prover::Outcome::Unknown:
    out.line = "unknown: z3 could not decide it (" + p.detail + ")";
    out.unknownMessage = "llcheck: unknown: z3 could not decide the sectors per request within "
                         "--prover-timeout " +
                         std::to_string(options.timeoutMs) + " ms; they are not reported as proven";
    out.status = 1;
    break;
  case prover::Outcome::Error:
    out.line = "error: " + p.detail;
    out.status = 1;
    break;
  }
  return out;
}

} // namespace

int runCoalescing(const CoalescingRequest& r, std::ostream& out, std::string& errorMessage) {
  auto access = predictGlobalAccess(r.layout.layout, r.options, r.model);
  if (!access.ok()) {
    errorMessage = access.error().within(r.layout.source).str();
    return 2;
  }
  const LinearLayout& l = r.layout.layout;
  std::vector<int64_t> strides = effectiveStrides(l, r.options);
  const GlobalAccess& a = *access;
  // Z3 proves rank counts; an enumerated count (strides that are not F2-linear, a misaligned
  // base) walked every request already.
  std::optional<CoalescingProof> proof;
  if (r.prove && a.byRank)
    proof = proveCoalescing(r, a);
  int status = proof ? proof->status : 0;
  std::string proofLine = proof ? proof->line : "";
  if (proof && !proof->unknownMessage.empty())
    std::cerr << proof->unknownMessage << "\n";
  if (r.prove && !a.byRank)
    proofLine = "none: the addresses are not F2-linear, so every request was counted lane by "
                "lane (z3 proves rank counts)";
  std::string load = "ld.global." + a.ptxSuffix(), store = "st.global." + a.ptxSuffix();
  std::optional<TritonGlobalAccess> triton;
  if (r.tritonLowering) {
    auto t = predictTritonGlobalAccess(l, r.options, r.model, *r.tritonLowering);
    if (!t.ok()) {
      errorMessage = t.error().within("--lowering triton").str();
      return 2;
    }
    triton = *t;
  }
  if (r.json) {
    nlohmann::json j = coalescingJson(a, l, r.options, r.model);
    j["dtype"] = r.dtype;
    if (proof)
      j["proof"] = {{"sectors_per_request", proof->json}};
    else if (r.prove)
      j["proof"] = {{"sectors_per_request", nullptr}, {"why", proofLine}};
    if (triton) {
      nlohmann::json tl = toJson(triton->load), ts = toJson(triton->store);
      tl["ptx"] = "ld.global." + triton->load.ptxSuffix();
      ts["ptx"] = "st.global." + triton->store.ptxSuffix();
      j["triton"] = {
          {"version", tritonVersionName(*r.tritonLowering)}, {"load", tl}, {"store", ts}};
    }
    out << dumpJson(j) << "\n";
    return status;
  }
  std::string shapeText, strideText;
  for (std::size_t k = 0; k < strides.size(); ++k) {
    shapeText +=
        (k ? "x" : "") + std::to_string(l.getOutDimSize(dims::standardOut(static_cast<int>(k))));
    strideText += (k ? ", " : "") + std::to_string(strides[k]);
  }
  std::string base = r.options.baseAlignment >= static_cast<uint64_t>(r.model.lineBytes)
                         ? "line-aligned base"
                         : "base " + std::to_string(r.options.baseAlignment) + " bytes past a line";
  out << r.layout.source << " over a " << shapeText << " " << r.dtype << " tensor (strides "
      << strideText << ", " << base << ") on " << r.model.arch << ", per CTA (" << a.warps
      << (a.warps == 1 ? " warp" : " warps") << "):\n"
      << "  vector:   " << a.vectorBits << " bits per lane (" << load << " / " << store
      << "), limited by " << vectorLimitName(a.vectorLimit) << "\n"
      << "  requests: " << a.requests << " (" << a.instructionsPerWarp
      << " instructions per warp, one request each)\n"
      << "  sectors:  " << a.sectors << " (ideal " << a.idealSectors << ", "
      << a.sectors - a.idealSectors << " excess), at most " << a.maxSectorsPerRequest
      << " per request\n"
      << "  lines:    " << a.lines << ", at most " << a.maxLinesPerRequest << " per request\n"
      << "  (a load and a store touch the same sectors; counted by "
      << (a.byRank ? "rank" : "enumerating each request's lanes") << ")\n";
  if (!proofLine.empty())
    out << "  proof:    " << proofLine << "\n";
  if (triton) {
    const GlobalAccess &tl = triton->load, &ts = triton->store;
    out << "Triton " << tritonVersionName(*r.tritonLowering) << "'s code (--lowering triton):\n"
        << "  load:     ld.global." << tl.ptxSuffix() << " x" << tl.instructionsPerWarp
        << " per warp (" << tl.vectorBits << " bits per lane, limited by "
        << vectorLimitName(tl.vectorLimit) << "), every warp: " << tl.requests << " requests, "
        << tl.sectors << " sectors (ideal " << tl.idealSectors << ")\n"
        << "  store:    st.global." << ts.ptxSuffix() << " x" << ts.instructionsPerWarp
        << " per warp, " << ts.warps << " of the " << tl.warps << " warps"
        << (ts.warps < tl.warps ? " (the others hold copies: masked off)" : "") << ": "
        << ts.requests << " requests, " << ts.sectors << " sectors (ideal " << ts.idealSectors
        << ")\n";
  }
  return status;
}

} // namespace llcheck::verdict
