// The properties `llcheck convert` proves about its plan, each by the algebra and (unless
// --no-z3) by Z3: conversion correctness, the shared-memory round trip, each side's bank bound
// and the swizzle's Lemma 9.5 bound. Kept apart from the printing in ConversionCommands.cpp.
#pragma once

#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/prover/Prover.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace llcheck::cli {

struct ConvertProofs {
  /// name -> {"holds", "by", "statement", "detail"?, "counterexample"?, "unknown"?, "proof"?}
  nlohmann::json properties = nlohmann::json::object();
  /// One line per property, for the text output.
  std::string text;
  bool failed = false;               ///< a property is refuted (or Z3 contradicts the algebra)
  std::vector<std::string> unknowns; ///< properties Z3 could not decide
  bool swizzleBoundByZ3 = false;     ///< Lemma 9.5's bound proven by Z3 as well
};

/// `z3`: the prover's limits, or nullopt for --no-z3 (the algebra's checks alone).
[[nodiscard]] ConvertProofs proveConvert(const ConversionPlan& plan, const OptimalSwizzle* swizzle,
                                         int elementBits, const SharedMemoryModel& model,
                                         const std::optional<prover::ProverOptions>& z3);

} // namespace llcheck::cli
