// The shared-memory scratch of an op whose lowering uses shared memory that is no tensor's
// layout (a reduce or scan across warps, a histogram, a gather across warps, an atomic whose
// result every thread receives): its instructions step by step, each with the bank model's
// wavefronts. TritonScratch.h, TritonScan.h and TritonScratchOps.h say what Triton emits.
#pragma once

#include "llcheck/core/conversion/TritonLowering.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llcheck {

/// One shared-memory instruction (or group of instructions) of an op's scratch, per
/// CTA.
struct TritonScratchStep {
  TritonScratchStep() = default;
  TritonScratchStep(std::string phase_, int operand_, TritonAccess access_)
      : phase(std::move(phase_)), operand(operand_), access(std::move(access_)) {}
  /// What it does: "partials stored", "result loaded" (a reduce in 3.6), "to the exchange
  /// layout (store)" (3.9), "totals loaded" (a scan), "bins added" (a histogram), ...
  std::string phase;
  int operand = 0; ///< which of the op's operands (an argmax reduces two)
  /// The instruction, its count and the bank model's wavefronts. Predicated lanes that do not
  /// take part cost nothing; an instruction no lane of a warp takes part in is still executed
  /// by that warp (and costs no wavefront).
  TritonAccess access;
  /// Why its addresses are the data's (a gather's loads, 3.9's histogram atomics); then
  /// `access.count.wavefronts` is the most they can take and `wavefrontsMin` the least, and
  /// `access.count.instructions` the most executed. Empty: the counts are exact.
  std::string dataDependent;
  uint64_t wavefrontsMin = 0;
  /// Predicated loads: the warp instructions in which some lane takes part (what runs where
  /// ptxas branches around the loads instead of predicating them); 0: not told.
  uint64_t instructionsTakingPart = 0;
};

struct TritonScratch {
  bool sharedMemory = false;
  std::vector<TritonScratchStep> steps; ///< in program order
  /// A scan's loads as the PTX has them, per operand (bits per lane -> instructions per warp),
  /// where ptxas merges some of them further: the steps count the SASS that runs.
  std::vector<std::map<int, uint64_t>> ptxLoadWidthsPerWarp;
  std::vector<std::string> why;
};

/// {"phase", "operand", "instruction", "instructions", "instructions_per_warp", "wavefronts",
///  ...}: toJson(TritonAccess) with the phase.
[[nodiscard]] nlohmann::json toJson(const TritonScratchStep& s);

} // namespace llcheck
