// The laws of evaluation and properties: apply, rank, free variables, contiguity and verify()
// against the whole table, and the 64-bit packing on wide layouts. Each law is one function;
// Laws.cpp registers them in one table (Catalog.h).
#include "Catalog.h"
#include "Support.h"

#include "llcheck/core/Enumeration.h"
#include "llcheck/core/Properties.h"

#include <algorithm>
#include <bit>

namespace llcheck::fuzz::laws {

namespace {

/// Input 0, the last input and 30 inputs drawn by splitmix64 from `seed`.
std::vector<uint64_t> samples(const RefLayout& r, int64_t seed) {
  std::vector<uint64_t> xs = {0, r.numInputs() - 1};
  uint64_t z = static_cast<uint64_t>(seed);
  for (int k = 0; k < 30; ++k) {
    z += 0x9e3779b97f4a7c15ull;
    uint64_t v = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
    xs.push_back((v ^ (v >> 31)) % r.numInputs());
  }
  return xs;
}

} // namespace

// ---- Evaluation and properties -------------------------------------------------------------

Verdict applyMatchesTheBases(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  RefLayout r(l);
  std::vector<uint64_t> t = r.table();
  for (uint64_t f = 0; f < t.size(); ++f) {
    LAW_REQUIRE(l.applyFlat(f) == t[f], "applyFlat(" + std::to_string(f) +
                                            ") = " + std::to_string(l.applyFlat(f)) +
                                            ", the bases give " + std::to_string(t[f]));
    std::vector<uint64_t> x = r.unflattenIn(f);
    Point p;
    for (std::size_t d = 0; d < x.size(); ++d)
      p.emplace_back(r.ins()[d].name, x[d]);
    LAW_TRY(y, l.apply(p), "apply");
    std::vector<uint64_t> yv;
    for (const auto& [name, v] : *y)
      yv.push_back(v);
    LAW_REQUIRE(yv == r.eval(x),
                "apply" + vecStr(x) + " = " + vecStr(yv) + ", the bases give " + vecStr(r.eval(x)));
  }
  return {};
}

Verdict rankEnumerated(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  RefLayout r(l);
  uint64_t distinct = imageOf(r).size();
  int rank = std::countr_zero(distinct);
  LAW_REQUIRE(l.rank() == rank, "rank() = " + std::to_string(l.rank()) + ", " +
                                    std::to_string(distinct) + " distinct outputs");
  LAW_REQUIRE(l.isInjective() == (distinct == r.numInputs()), "isInjective disagrees");
  LAW_REQUIRE(l.isSurjective() == (distinct == r.numOutputs()), "isSurjective disagrees");
  LAW_REQUIRE(l.isInvertible() == (distinct == r.numOutputs() && distinct == r.numInputs()),
              "isInvertible disagrees");
  return {};
}

rc::Gen<Case> generatorsMakeWhatTheyPromiseCases() {
  return fromDraws([]() {
    int k = pick(0, 4);
    Case c;
    c.layouts.push_back(drawLayout(static_cast<Kind>(k + 1)));
    c.params.push_back(k);
    return c;
  });
}

Verdict generatorsMakeWhatTheyPromise(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  RefLayout r(l);
  uint64_t distinct = imageOf(r).size();
  switch (c.params.at(0)) {
  case 0:
    LAW_REQUIRE(distinct == r.numOutputs(), "the surjective generator missed an output");
    break;
  case 1:
    LAW_REQUIRE(distinct == r.numInputs(), "the injective generator made a collision");
    break;
  case 2:
    LAW_REQUIRE(distinct == r.numInputs() && distinct == r.numOutputs(),
                "the invertible generator made a non-bijection");
    break;
  case 3:
    if (auto v = distributedViolation(l); !v.empty())
      return "the distributed generator: " + v;
    break;
  default:
    if (auto v = memoryViolation(l); !v.empty())
      return "the memory generator: " + v;
  }
  return {};
}

Verdict freeVariableMasksEnumerated(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(e, EnumeratedLayout::build(l), "enumeration");
  std::vector<uint64_t> enumerated = e->freeVariableMasks();
  auto masks = l.getFreeVariableMasks();
  LAW_REQUIRE(masks.size() == enumerated.size(), "one mask per input dim");
  std::vector<DimBases> bases = l.getBases();
  for (std::size_t d = 0; d < masks.size(); ++d) {
    LAW_REQUIRE(masks[d].second == enumerated[d],
                masks[d].first.str() + ": algebra mask " + std::to_string(masks[d].second) +
                    ", enumerated " + std::to_string(enumerated[d]));
    for (std::size_t i = 0; i < bases[d].bases.size(); ++i)
      if (std::all_of(bases[d].bases[i].begin(), bases[d].bases[i].end(),
                      [](uint64_t v) { return v == 0; }))
        LAW_REQUIRE((masks[d].second >> i) & 1,
                    bases[d].name.str() + " basis " + std::to_string(i) + " is zero but not free");
  }
  return {};
}

Verdict numConsecutiveEnumerated(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(e, EnumeratedLayout::build(l), "enumeration");
  uint64_t algebra = l.getNumConsecutiveInOut(), enumerated = e->numConsecutiveInOut(0);
  LAW_REQUIRE(algebra == enumerated, "getNumConsecutiveInOut() = " + std::to_string(algebra) +
                                         ", enumerated " + std::to_string(enumerated));
  return {};
}

Verdict verifyAlgebraAgreesWithEnumeration(const Case& c) {
  LAW_TRY(report, verify(c.layouts.at(0), VerifyOptions{}), "verify");
  LAW_REQUIRE(report->disagreements.empty(), "disagreement: " + report->disagreements[0]);
  LAW_REQUIRE(report->enumerationSkipped.empty(), "enumeration skipped");
  return {};
}

// ---- Wide layouts: the packing at 64 bits, checked at sample points ------------------------

// Layouts of up to 60 input and output bits (no dim may exceed 2^63), and sample inputs from
// params[0]; the whole table is out of reach, so these check the points the samples reach.
rc::Gen<Case> wide(Kind kind) {
  return fromDraws([kind]() {
    Case c;
    c.layouts.push_back(drawLayout(kind, static_cast<Names>(pick(0, 2)), 60));
    c.params.push_back(pick(0, 4095));
    return c;
  });
}

Verdict applyWideLayouts(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  RefLayout r(l);
  for (uint64_t f : samples(r, c.params.at(0))) {
    std::vector<uint64_t> x = r.unflattenIn(f), y = r.eval(x);
    LAW_REQUIRE(l.applyFlat(f) == r.flattenOut(y), "applyFlat(" + std::to_string(f) +
                                                       ") = " + std::to_string(l.applyFlat(f)) +
                                                       ", the bases give " + vecStr(y));
    Point p;
    for (std::size_t d = 0; d < x.size(); ++d)
      p.emplace_back(r.ins()[d].name, x[d]);
    LAW_TRY(got, l.apply(p), "apply");
    std::vector<uint64_t> yv;
    for (const auto& [name, v] : *got)
      yv.push_back(v);
    LAW_REQUIRE(yv == y,
                "apply" + vecStr(x) + " = " + vecStr(yv) + ", the bases give " + vecStr(y));
  }
  return {};
}

Verdict invertWideLayouts(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(inv, l.invert(), "invert");
  RefLayout r(l), ri(*inv);
  auto toInv = Reindex::between(r.outs(), ri.ins());
  auto back = Reindex::between(ri.outs(), r.ins());
  LAW_REQUIRE(toInv && back, "L^-1 has other dims than L" + str(*inv));
  for (uint64_t f : samples(r, c.params.at(0))) {
    uint64_t y = r.flattenOut(r.eval(r.unflattenIn(f)));
    uint64_t x = (*back)(ri.flattenOut(ri.eval(ri.unflattenIn((*toInv)(y)))));
    LAW_REQUIRE(x == f,
                "x = " + vecStr(r.unflattenIn(f)) + ", L^-1(L(x)) = " + vecStr(r.unflattenIn(x)));
    uint64_t g = (*toInv)(f % r.numOutputs()); // an output of L, as an input of L^-1
    uint64_t z = (*back)(ri.flattenOut(ri.eval(ri.unflattenIn(g))));
    uint64_t again = (*toInv)(r.flattenOut(r.eval(r.unflattenIn(z))));
    LAW_REQUIRE(again == g, "L(L^-1(y)) != y for y = " + vecStr(ri.unflattenIn(g)));
  }
  return {};
}

} // namespace llcheck::fuzz::laws
