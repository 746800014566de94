// `llcheck coalescing SPEC`: the global-memory vector width, requests, sectors and lines of a
// warp's load and store of a distributed layout (core's Coalescing.h), printed as text or JSON.
// The Z3 proof of the sectors per request arrives as a callback (CoalescingProver), so that this
// file needs core only and the Python module (core only) shares the printer.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/Coalescing.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace llcheck::cli {

/// What the prover says about the sectors per request, ready to print.
struct CoalescingProof {
  nlohmann::json json;        ///< ProofResult::toJson()
  std::string line;           ///< one line for the text output
  int status = 0;             ///< 1: refuted, unknown or an error
  std::string unknownMessage; ///< for stderr, when Z3 could not decide
};

/// Proves a rank count's sectors per request (prover::proveSectorBound).
using CoalescingProver = std::function<CoalescingProof(const GlobalAccess&)>;

struct CoalescingRequest {
  LoadedLayout layout;
  std::string dtype;
  CoalescingOptions options;
  GlobalMemoryModel model;
  bool json = false;
  /// Nothing: the sector bound is not proven (--no-z3, the Python module).
  CoalescingProver prove = nullptr;
};

/// --strides: comma-separated non-negative element counts, dim0 first ("64,1").
[[nodiscard]] Result<std::vector<int64_t>> parseStrides(const std::string& text);

/// Exit status 0; 1 when Z3 refutes the predicted sectors per request or cannot decide them (an
/// "unknown" line goes to stderr); 2 with a one-line message in errorMessage.
int runCoalescing(const CoalescingRequest& request, std::ostream& out, std::string& errorMessage);

} // namespace llcheck::cli
