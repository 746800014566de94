// The properties `llcheck convert` reports about its plan (ConvertProofs.h proves them), as a
// type that needs core only, so that Conversion.cpp's printers do not depend on how they were
// established.
#pragma once

#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace llcheck::verdict {

struct ConvertProofs {
  /// name -> {"holds", "by", "statement", "detail"?, "counterexample"?, "unknown"?, "proof"?}
  nlohmann::json properties = nlohmann::json::object();
  /// One line per property, for the text output, after a "properties:" heading line.
  std::string text;
  bool failed = false;                    ///< a property is refuted, or two engines disagree
  std::vector<std::string> disagreements; ///< algebra and Z3 answered differently (a bug)
  std::vector<std::string> unknowns;      ///< properties Z3 could not decide
  std::string unknownMessage;             ///< for stderr when unknowns is not empty
  bool swizzleBoundByZ3 = false;          ///< Lemma 9.5's bound proven by Z3 as well
};

/// Checks and proves the properties of a plan (and, through shared memory, of its swizzle).
using ConvertProver = std::function<ConvertProofs(const ConversionPlan&, const OptimalSwizzle*)>;

} // namespace llcheck::verdict
