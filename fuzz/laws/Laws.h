// The named laws of the layout algebra, the encodings, conversion planning and the formats: a
// registry of {name, generator, check}. Each check compares the algebra with something
// computed independently where one exists (the whole table of a layout evaluated from its raw
// bases, the enumeration engine, a definition from the paper, the address simulator), so a law
// can fail; `llcheck fuzz` and the ctest `fuzz_laws` run them, and a failing case, shrunk, is
// kept under corpus/regressions/ and replayed by every `make test`.
//
// The Z3 differential laws (algebra vs enumeration vs prover) live in Differential.cpp, the
// only part of fuzz/ that calls prover/; core knows neither.
#pragma once

#include "Generators.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck::fuzz {

/// nullopt when the law holds on the case; otherwise what went wrong, in one or a few lines.
using Verdict = std::optional<std::string>;

struct Law {
  std::string name;      ///< "compose.associative": the operation, then what it promises
  std::string statement; ///< one line, for --list and failure reports
  rc::Gen<Case> gen;
  std::function<Verdict(const Case&)> check;
};

/// Every law, in a fixed order (shards split this list).
[[nodiscard]] const std::vector<Law>& allLaws();
/// The law named `name`, or nullptr.
[[nodiscard]] const Law* findLaw(std::string_view name);

/// A check that could not decide its case (a Z3 "unknown") calls noteUndecided(); the driver
/// counts them per law (LawResult::undecided). Never a failure. Counted per thread.
void noteUndecided();
[[nodiscard]] uint64_t undecidedCount();

/// check(c), with any exception turned into a failure that names it.
[[nodiscard]] Verdict checkLaw(const Law& law, const Case& c);

} // namespace llcheck::fuzz
