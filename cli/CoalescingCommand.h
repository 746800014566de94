// `llcheck coalescing SPEC`: the global-memory vector width, requests, sectors and lines of a
// warp's load and store of a distributed layout (core's Coalescing.h), printed as text or JSON.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/prover/Prover.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace llcheck::cli {

struct CoalescingRequest {
  LoadedLayout layout;
  std::string dtype;
  CoalescingOptions options;
  GlobalMemoryModel model;
  bool json = false;
  /// Z3's limits, or nothing: the sector bound is then not proven (--no-z3).
  std::optional<prover::ProverOptions> z3;
};

/// --strides: comma-separated non-negative element counts, dim0 first ("64,1").
[[nodiscard]] Result<std::vector<int64_t>> parseStrides(const std::string& text);

/// Exit status 0; 1 when Z3 refutes the predicted sectors per request or cannot decide them (an
/// "unknown" line goes to stderr); 2 with a one-line message in errorMessage.
int runCoalescing(const CoalescingRequest& request, std::ostream& out, std::string& errorMessage);

} // namespace llcheck::cli
