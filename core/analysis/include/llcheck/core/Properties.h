// `verify`: every property of a layout, each established by the algebra and, where the layout
// is small enough, by enumeration as a second opinion, each false one with a concrete
// counterexample that has been re-checked by applying the layout before it is reported.
#pragma once

#include "llcheck/core/Enumeration.h"
#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

/// What the input dimensions say the layout is meant to be.
enum class LayoutKind {
  Distributed, ///< inputs among register, lane, warp, block (paper Def. 4.10 applies)
  Memory,      ///< inputs offset and optionally block (paper Def. 4.14 applies)
  Generic,     ///< anything else: no legality property is implied
};
[[nodiscard]] LayoutKind classify(const LinearLayout& layout);
[[nodiscard]] const char* kindName(LayoutKind kind);

/// The properties verify establishes, in the order it reports them.
enum class Property { Injective, Surjective, Invertible, Distributed, Memory };
/// "injective", "surjective", "invertible", "distributed", "memory": the names in JSON, text
/// and the properties a front end lets users require.
[[nodiscard]] const char* propertyName(Property property);
/// The property a name names; nullopt for any other text.
[[nodiscard]] std::optional<Property> parseProperty(std::string_view name);
/// Every property, in report order.
[[nodiscard]] const std::vector<Property>& allProperties();
/// The error for a name parseProperty does not know, located at `where` (the front end's option
/// or argument), listing the known names.
[[nodiscard]] Error unknownPropertyError(std::string_view name, const std::string& where);

struct PropertyResult {
  Property property = Property::Injective;
  [[nodiscard]] std::string name() const { return propertyName(property); }
  bool holds = false;
  /// How it was established: "algebra", "z3" (prover/), "enumeration".
  std::vector<std::string> by;
  /// Required for exit status 0 (the layout kind's legality, or required by the user).
  bool required = false;
  /// JSON null when the property holds; otherwise a concrete witness (see docs/verify.md).
  nlohmann::json counterexample;
  /// One human line: why it fails, or a note.
  std::string detail;
  /// Set when a prover that was asked could not decide the property (a timeout, a resource
  /// limit): why. Such a property is never reported as holding, and the report is not ok.
  std::string unknown;
  /// What a prover did (JSON "proof"); null when none ran.
  nlohmann::json proof;

  /// "unknown" when a prover gave up and nothing refutes the property, else "yes" or "no".
  [[nodiscard]] std::string status() const;
};

struct VerifyOptions {
  int maxEnumerationBits = kDefaultMaxEnumerationBits;
  /// Extra properties that must hold.
  std::vector<Property> require;
  /// Progress of the enumeration's long passes (see Enumeration.h); none by default.
  EnumerationProgress progress;
};

struct VerifyReport {
  LinearLayout layout;
  LayoutKind kind = LayoutKind::Generic;
  std::vector<PropertyResult> properties; // injective, surjective, invertible, distributed, memory
  /// getFreeVariableMasks per input dim, and by what.
  std::vector<std::pair<DimName, uint64_t>> freeVariables;
  std::vector<std::string> freeVariablesBy;
  /// getNumConsecutiveInOut with each output dim in the first position, and by what.
  std::vector<std::pair<DimName, uint64_t>> contiguity;
  std::vector<std::string> contiguityBy;
  /// Why enumeration was skipped, if it was.
  std::string enumerationSkipped;
  /// Algebra, prover and enumeration disagreeing: always a bug in llcheck, never a property of the
  /// layout. Reported loudly and makes the check fail.
  std::vector<std::string> disagreements;

  /// Every required property holds, no prover gave up, and nothing disagreed.
  [[nodiscard]] bool ok() const;
  /// Names of the properties a prover could not decide.
  [[nodiscard]] std::vector<std::string> unknowns() const;
  [[nodiscard]] const PropertyResult* find(Property property) const;
};

[[nodiscard]] Result<VerifyReport> verify(const LinearLayout& layout, const VerifyOptions& options);

[[nodiscard]] nlohmann::json toJson(const VerifyReport& report);
/// "ok", "FAILED", or "unknown (...)" when only undecided properties keep it from passing.
[[nodiscard]] std::string verdictText(const VerifyReport& report);
/// The text report of one layout (several lines).
[[nodiscard]] std::string toText(const VerifyReport& report, const std::string& title);
/// "register 4, lane 0" for a point of the input space.
[[nodiscard]] std::string describePoint(const Point& p);
/// "(3, 4)" for an output point.
[[nodiscard]] std::string describeOutput(const Point& p);

} // namespace llcheck
