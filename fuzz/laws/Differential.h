// The three-way differential laws: the algebra, the enumeration engine and Z3 decide
// injective, surjective, invertible, distributed (Def. 4.10) and memory (Def. 4.14) on the same
// small layouts and must agree. The only laws that call prover/ (fuzz/ sits above it; core
// knows neither).
#pragma once

#include "Laws.h"

#include "llcheck/core/Properties.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llcheck::fuzz {

/// Their layouts have at most this many input (and output) bits.
inline constexpr int kMaxDifferentialBits = 12;
/// Z3's limit per query; past it the answer is "unknown", counted and not a failure.
inline constexpr unsigned kDifferentialTimeoutMs = 2000;

/// One side's answer: holds or not, or undecided (a Z3 unknown), or an error (a failure).
struct DifferentialAnswer {
  bool holds = false;
  bool decided = true;
  std::string why;
  bool error = false;
  /// "holds (why)", "fails (why)", "unknown (why)", "error (why)".
  [[nodiscard]] std::string text() const;
};

/// nullopt when the three agree (an undecided Z3 agrees with anything, and is counted with
/// noteUndecided()); otherwise all three answers and the layout.
[[nodiscard]] Verdict compareAnswers(Property property, const DifferentialAnswer& algebra,
                                     const DifferentialAnswer& enumeration,
                                     const DifferentialAnswer& z3, const LinearLayout& l);

/// differential.injective, .surjective, .invertible, .distributed, .memory.
[[nodiscard]] std::vector<Law> differentialLaws();
/// differential.coalescing_wide_addresses (WideAddresses.cpp): coalescing and its Z3 proof
/// against 128-bit addresses; its cases are its own (not a layout of known properties).
[[nodiscard]] Law wideAddressesLaw();

} // namespace llcheck::fuzz
