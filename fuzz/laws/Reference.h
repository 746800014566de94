// The independent side of every law: a layout evaluated from its raw bases with nothing but
// loops (no packing, rank or elimination), whole tables of it, the brute-force shared-memory
// address simulator, and the paper's definitions of distributed and memory layouts checked by
// enumeration. The evaluator and the simulator are tests/support's (ReferenceEvaluator.h,
// BankSimulator.h), which core's and prover's tests use too; here under the laws' names.
#pragma once

#include "BankSimulator.h"
#include "ReferenceEvaluator.h"

#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/encodings/Shared.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llcheck::fuzz {

using RefLayout = test::Ref;
/// What the simulator counts for one direction of a shared-memory access.
using SimulatedAccess = test::Simulated;

/// Sorted distinct flattened outputs.
[[nodiscard]] inline std::vector<uint64_t> imageOf(const RefLayout& r) {
  return test::image(r);
}
/// log2 of the number of distinct outputs: the rank, counted.
[[nodiscard]] inline int enumeratedRank(const RefLayout& r) {
  return test::bruteRank(r);
}

/// Paper Def. 4.10 from the bases: surjective (by enumeration), every column zero or one bit,
/// no two equal non-zero columns. Empty when it holds, else why not.
[[nodiscard]] std::string distributedViolation(const LinearLayout& l);
/// Paper Def. 4.14 from the bases: invertible (by enumeration), every column one or two bits.
[[nodiscard]] std::string memoryViolation(const LinearLayout& l);

/// Every (warp, register, lane) of CTA 0 through REG and the inverse table of SHARED
/// (test::simulate).
[[nodiscard]] inline SimulatedAccess simulateSharedAccess(const LinearLayout& reg,
                                                          const LinearLayout& shared,
                                                          const std::vector<IntervalPad>& padding,
                                                          const std::string& arch, int elementBits,
                                                          int vectorLog2, bool load) {
  return test::simulate(reg, shared, padding, arch, elementBits, vectorLog2, load);
}

} // namespace llcheck::fuzz
