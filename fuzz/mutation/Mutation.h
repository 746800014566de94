// The mutation check: how much of a wrong layout or a wrong conversion plan the suite notices.
// Each mutant flips one bit of one basis vector:
//   - of a corpus layout (corpus/layouts): caught when `verify`'s report of the mutant (the five
//     properties, the free-variable masks, the contiguity) differs from the original's;
//   - of the conversion C of a plan (planConversion of a corpus pair of the same tensor, or of a
//     generated pair): caught when the plan's correctness check against enumeration
//     (PlanCheck.h) fails. A mutated C that is still correct is an *equivalent* mutant (DST
//     holds the same element at both places: it broadcasts along the flipped bit); Z3's
//     proveConversion must then prove it correct too, or the mutant counts as a disagreement.
// The score is caught / (mutants - equivalent); the survivors are listed with why.
#pragma once

#include "llcheck/core/Error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace llcheck::fuzz {

struct MutationOptions {
  /// Layout JSON files (every *.json, sorted); empty: no layout mutants.
  std::string corpusDir;
  /// Use at most this many corpus files (0: all).
  int maxLayouts = 0;
  /// Generated conversion pairs (genConversionPair from seed, seed + 1, ...), besides the corpus
  /// pairs.
  int generatedPairs = 20;
  uint64_t seed = 1;
  /// Z3's limit per query when an uncaught plan mutant is proven equivalent.
  unsigned timeoutMs = 5000;
};

struct Mutant {
  std::string family;  ///< "layout" or "plan"
  std::string subject; ///< the corpus file or the pair
  std::string where;   ///< "offset basis 5, output bit 3 (dim1 bit 0)"
  bool caught = false;
  bool equivalent = false; ///< plan mutants only: the mutated plan is correct too
  std::string why;         ///< what caught it, or why it survived
};

struct FamilyScore {
  uint64_t mutants = 0, caught = 0, equivalent = 0;
  /// caught / (mutants - equivalent); 1 when nothing is left to catch.
  [[nodiscard]] double score() const;
};

struct MutationReport {
  std::vector<Mutant> mutants;
  FamilyScore layouts, plans;
  std::vector<std::string> subjects; ///< what was mutated, in order
  uint64_t disagreements = 0;        ///< enumeration said correct, Z3 refuted or errored
  double seconds = 0;
};

[[nodiscard]] Result<MutationReport> runMutation(const MutationOptions& options);

/// {"layouts": {"mutants", "caught", "equivalent", "score"}, "plans": {...}, "survivors":
/// [{"family", "subject", "where", "equivalent", "why"}...], "subjects", "disagreements",
/// "seconds"}.
[[nodiscard]] nlohmann::json toJson(const MutationReport& report);
/// The two scores, then every survivor grouped by why.
[[nodiscard]] std::string toText(const MutationReport& report);

} // namespace llcheck::fuzz
