// The properties `llcheck convert` proves about its plan, each by the algebra and (unless
// --no-z3) by Z3: conversion correctness, the shared-memory round trip, each side's bank bound
// and the swizzle's Lemma 9.5 bound. Kept apart from the printing in Conversion.cpp.
#pragma once

#include "llcheck/verdict/ConvertProperties.h"

#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/prover/Prover.h"

#include <optional>

namespace llcheck::verdict {

/// `z3`: the prover's limits, or nullopt for --no-z3 (the algebra's checks alone).
[[nodiscard]] ConvertProofs proveConvert(const ConversionPlan& plan, const OptimalSwizzle* swizzle,
                                         int elementBits, const SharedMemoryModel& model,
                                         const std::optional<prover::ProverOptions>& z3);

} // namespace llcheck::verdict
