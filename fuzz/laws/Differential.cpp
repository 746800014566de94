// The three-way differential laws (issue 9): on each generated layout, the algebra (verify()
// with enumeration switched off), the enumeration engine (core's EnumeratedLayout, read here
// directly: its table, its collisions and missing outputs, the images of the one-hot inputs) and
// Z3 (prover/) decide one property each; any two that disagree is a failure that names all three
// answers; Z3 meets the algebra through prover::mergeWithZ3, the rule verify and convert use.
// A Z3 "unknown" (timeout, resource limit) decides nothing: it is counted with
// noteUndecided() and reported by the driver, never a failure. The layouts are small (at most
// kMaxDifferentialBits input bits) so that Z3 answers in milliseconds.
#include "Differential.h"

#include "llcheck/core/Enumeration.h"
#include "llcheck/core/Properties.h"
#include "llcheck/prover/Prover.h"

#include <bit>
#include <cstdint>
#include <string>

namespace llcheck::fuzz {

namespace {

thread_local uint64_t undecided = 0;

using Answer = DifferentialAnswer;

std::string layoutText(const LinearLayout& l) {
  std::string s = l.toString();
  return s.empty() ? " (empty layout)" : s;
}

/// What the enumeration engine's table says, with nothing of the algebra.
Answer byEnumeration(const LinearLayout& l, Property property) {
  auto t = EnumeratedLayout::build(l.getBases(), l.getOutDims());
  if (!t.ok())
    return {false, false, "enumeration failed: " + t.error().str()};
  auto collision = t->firstCollision();
  auto missing = t->smallestMissingOutput();
  int inBits = std::countr_zero(t->numInputs());
  std::vector<uint64_t> cols;
  for (int j = 0; j < inBits; ++j)
    cols.push_back(t->valueAt(uint64_t{1} << j));
  std::string collisionWhy = collision ? "inputs " + std::to_string(collision->first) + " and " +
                                             std::to_string(collision->second) + " collide"
                                       : "";
  std::string missingWhy = missing ? "output " + std::to_string(*missing) + " is missed" : "";
  if (property == Property::Injective)
    return {!collision, true, collisionWhy};
  if (property == Property::Surjective)
    return {!missing, true, missingWhy};
  if (property == Property::Invertible)
    return {!collision && !missing, true, collision ? collisionWhy : missingWhy};
  if (property == Property::Distributed) {
    if (classify(l) != LayoutKind::Distributed)
      return {false, true, "not distributed input dims"};
    if (missing)
      return {false, true, missingWhy};
    for (std::size_t j = 0; j < cols.size(); ++j) {
      if (std::popcount(cols[j]) > 1)
        return {false, true, "column " + std::to_string(j) + " has several bits"};
      for (std::size_t i = 0; i < j; ++i)
        if (cols[j] != 0 && cols[i] == cols[j])
          return {false, true,
                  "columns " + std::to_string(i) + " and " + std::to_string(j) + " are equal"};
    }
    return {true, true, ""};
  }
  // memory
  if (classify(l) != LayoutKind::Memory)
    return {false, true, "not memory input dims"};
  if (collision || missing)
    return {false, true, collision ? collisionWhy : missingWhy};
  for (std::size_t j = 0; j < cols.size(); ++j)
    if (int b = std::popcount(cols[j]); b < 1 || b > 2)
      return {false, true, "column " + std::to_string(j) + " has " + std::to_string(b) + " bits"};
  return {true, true, ""};
}

/// verify()'s answer with enumeration switched off: the algebra alone.
Answer byAlgebra(const LinearLayout& l, Property property) {
  VerifyOptions o;
  o.maxEnumerationBits = -1;
  auto report = verify(l, o);
  if (!report.ok())
    return {false, false, "verify failed: " + report.error().str()};
  const PropertyResult* p = report->find(property);
  if (!p)
    return {false, false, std::string("verify has no property ") + propertyName(property)};
  return {p->holds, true, p->detail};
}

Answer byZ3(const LinearLayout& l, Property property) {
  // Defs. 4.10 and 4.14 apply to layouts of their input dims only (a syntactic precondition all
  // three sides share); Z3 decides the definition itself.
  if (property == Property::Distributed && classify(l) != LayoutKind::Distributed)
    return {false, true, "not distributed input dims (Z3 not asked)"};
  if (property == Property::Memory && classify(l) != LayoutKind::Memory)
    return {false, true, "not memory input dims (Z3 not asked)"};
  prover::ProverOptions o;
  o.timeoutMs = kDifferentialTimeoutMs;
  prover::ProofResult r;
  switch (property) {
  case Property::Injective:
    r = prover::proveInjective(l, o);
    break;
  case Property::Surjective:
    r = prover::proveSurjective(l, o);
    break;
  case Property::Invertible:
    r = prover::proveInvertible(l, o);
    break;
  case Property::Distributed:
    r = prover::proveDistributed(l, o);
    break;
  case Property::Memory:
    r = prover::proveMemory(l, o);
    break;
  }
  switch (r.outcome) {
  case prover::Outcome::Proven:
    return {true, true, "proven"};
  case prover::Outcome::Refuted:
    return {false, true, "refuted: " + r.detail};
  case prover::Outcome::Unknown:
    return {false, false, r.detail};
  case prover::Outcome::Error:
    break;
  }
  // Z3 failing, or contradicting the algebra's own witness, is a finding, not an unknown.
  return {false, true,
          std::string("error") + (r.contradictsAlgebra ? " (contradicts the algebra)" : "") + ": " +
              r.detail};
}

Verdict threeWay(const LinearLayout& l, Property property) {
  return compareAnswers(property, byAlgebra(l, property), byEnumeration(l, property),
                        byZ3(l, property), l);
}

rc::Gen<Case> layoutsOf(std::vector<Kind> kinds, Names names) {
  return fromDraws([kinds, names]() {
    Case c;
    Kind k = kinds[static_cast<std::size_t>(pick(0, static_cast<int>(kinds.size()) - 1))];
    c.layouts.push_back(drawLayout(k, names, kMaxDifferentialBits));
    return c;
  });
}

} // namespace

std::string DifferentialAnswer::text() const {
  std::string s = !decided ? "unknown" : error ? "error" : holds ? "holds" : "fails";
  return why.empty() ? s : s + " (" + why + ")";
}

namespace {

/// Z3's answer as the prover states it, so that it meets the algebra's through the one rule
/// that every front end uses (prover::mergeWithZ3).
prover::ProofResult asProofResult(const DifferentialAnswer& z3) {
  prover::ProofResult r;
  r.outcome = z3.error      ? prover::Outcome::Error
              : !z3.decided ? prover::Outcome::Unknown
              : z3.holds    ? prover::Outcome::Proven
                            : prover::Outcome::Refuted;
  r.contradictsAlgebra = z3.error;
  r.detail = z3.why;
  return r;
}

} // namespace

Verdict compareAnswers(Property property, const DifferentialAnswer& algebra,
                       const DifferentialAnswer& enumeration, const DifferentialAnswer& z3,
                       const LinearLayout& l) {
  auto all = [&] {
    return propertyName(property) + std::string(": algebra ") + algebra.text() + ", enumeration " +
           enumeration.text() + ", z3 " + z3.text() + "\nlayout:" + layoutText(l);
  };
  // The algebra and the enumeration never time out: anything but the same answer is a failure.
  if (!algebra.decided || !enumeration.decided || algebra.error || enumeration.error ||
      algebra.holds != enumeration.holds)
    return all();
  // Z3 against the algebra by the rule `verify` and `convert` use: a disagreement is a bug, an
  // unknown decides nothing. Stricter here: a Z3 error (a query that failed) is a failure too,
  // where verify only withholds the claim, because the fuzzer is there to find such queries.
  prover::MergedVerdict merged =
      prover::mergeWithZ3(propertyName(property), algebra.holds, algebra.why, asProofResult(z3));
  if (merged.status == prover::MergedVerdict::Status::Disagree || z3.error)
    return all();
  if (!z3.decided)
    noteUndecided();
  return {};
}

void noteUndecided() {
  ++undecided;
}

uint64_t undecidedCount() {
  return undecided;
}

std::vector<Law> differentialLaws() {
  std::vector<Law> laws;
  auto add = [&](Property property, std::vector<Kind> kinds, Names names) {
    std::string name = propertyName(property);
    laws.push_back({"differential." + name,
                    "the algebra, the enumeration engine and Z3 agree whether L is " + name +
                        " (Z3 unknowns counted, not failures)",
                    layoutsOf(std::move(kinds), names),
                    [property](const Case& c) { return threeWay(c.layouts.at(0), property); }});
  };
  // Each property on the layouts that have it and on ones that may not, so both answers occur.
  std::vector<Kind> general = {Kind::Any, Kind::Injective, Kind::Surjective, Kind::Invertible};
  add(Property::Injective, general, Names::Arbitrary);
  add(Property::Surjective, general, Names::Arbitrary);
  add(Property::Invertible, general, Names::Arbitrary);
  add(Property::Distributed, {Kind::Any, Kind::Surjective, Kind::Distributed}, Names::Distributed);
  add(Property::Memory, {Kind::Any, Kind::Invertible, Kind::Memory}, Names::Memory);
  return laws;
}

} // namespace llcheck::fuzz
