// The answer of `llcheck coalescing SPEC` (and of the Python module's coalescing): the
// global-memory vector width, requests, sectors and lines of a warp's load and store of a
// distributed layout (core's Coalescing.h), with Z3's proof of the sectors per request where
// they are a rank count, as text or as JSON.
#pragma once

#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/prover/Prover.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace llcheck::verdict {

struct CoalescingRequest {
  LoadedLayout layout;
  std::string dtype;
  CoalescingOptions options;
  GlobalMemoryModel model;
  bool json = false;
  /// Z3's limits for the proof of the sectors per request; nothing: not proven (--no-z3).
  std::optional<prover::ProverOptions> prove;
  /// --lowering triton: also what this Triton release emits for a tt.load and a tt.store of
  /// the layout (predictTritonGlobalAccess), beside llcheck's widest vector.
  std::optional<TritonVersion> tritonLowering;
};

/// Exit status 0; 1 when Z3 refutes the predicted sectors per request or cannot decide them (an
/// "unknown" line goes to stderr); 2 with a one-line message in errorMessage.
int runCoalescing(const CoalescingRequest& request, std::ostream& out, std::string& errorMessage);

} // namespace llcheck::verdict
