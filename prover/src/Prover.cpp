// Each property as Z3 queries over the layout's encoding. A query asks for a counterexample, so
// unsat proves the property; a sat answer's model is read back as a concrete point and checked
// with the algebra (LinearLayout::apply, XorBasis) before it becomes a counterexample.
#include "llcheck/prover/Prover.h"

#include "Encoding.h"
#include "ProofSupport.h"
#include "Smt.h"
#include "llcheck/core/XorBasis.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <memory>

namespace llcheck::prover {

using nlohmann::json;
using smt::CheckResult;
using smt::Context;
using smt::Values;
using smt::Verdict;

const char* outcomeName(Outcome o) {
  switch (o) {
  case Outcome::Proven:
    return "proven";
  case Outcome::Refuted:
    return "refuted";
  case Outcome::Unknown:
    return "unknown";
  case Outcome::Error:
    return "error";
  }
  return "error";
}

json ProofResult::toJson() const {
  json j = {{"by", "z3"},
            {"result", outcomeName(outcome)},
            {"ms", ms},
            {"queries", queries},
            {"counterexample", counterexample}};
  if (!detail.empty())
    j["detail"] = detail;
  if (!witness.is_null())
    j["witness"] = witness;
  return j;
}

namespace {

using namespace detail;

// ---- Injectivity ------------------------------------------------------------------------------

ProofResult injective(Context& ctx, const LinearLayout& l, const ProverOptions& o) {
  smt::Solver s(ctx, limitsOf(o));
  Values x = smt::variables(ctx, l.inDims(), "x!"), y = smt::variables(ctx, l.inDims(), "y!");
  CheckResult c =
      s.check(!x.equals(ctx, y) && smt::apply(ctx, l, x).equals(ctx, smt::apply(ctx, l, y)));
  ProofResult r;
  if (c.verdict == Verdict::Proven) {
    r = proven();
  } else if (c.verdict == Verdict::Refuted) {
    Point a = x.read(*c.model), b = y.read(*c.model);
    Point ya = applyChecked(l, a), yb = applyChecked(l, b);
    confirm(a != b && ya == yb,
            describePoint(a) + " and " + describePoint(b) + " should map to the same output");
    r = refuted({{"inputs", {pointJson(a), pointJson(b)}}, {"output", pointJson(ya)}},
                describePoint(withoutUnitDims(l, a)) + " -> " + describeOutput(ya) + " and " +
                    describePoint(withoutUnitDims(l, b)) + " -> " + describeOutput(yb));
  } else {
    r = notDecided(c);
  }
  r.queries = 1;
  return r;
}

// ---- Surjectivity -----------------------------------------------------------------------------

/// The algebra's right inverse R, checked for every output: exists y with L(R(y)) != y.
ProofResult rightInverseWitness(Context& ctx, const LinearLayout& l, const LinearLayout& R,
                                const ProverOptions& o) {
  smt::Solver s(ctx, limitsOf(o));
  Values y = smt::variables(ctx, l.outDims(), "y!");
  Values x = smt::apply(ctx, R, y);
  CheckResult c = s.check(!smt::apply(ctx, l, x).equals(ctx, y));
  if (c.verdict == Verdict::Refuted)
    return contradiction("the algebra's right inverse (pseudoinvert) misses output " +
                         describeOutput(y.read(*c.model)));
  return c.verdict == Verdict::Proven ? proven() : notDecided(c);
}

/// The algebra's unreached output y0, proven unreached: exists x with L(x) = y0.
ProofResult unreachedWitness(Context& ctx, const LinearLayout& l, uint64_t y0,
                             const ProverOptions& o) {
  Point target = l.unpackOut(y0);
  smt::Solver s(ctx, limitsOf(o));
  Values x = smt::variables(ctx, l.inDims(), "x!");
  CheckResult c =
      s.check(smt::apply(ctx, l, x).equals(ctx, smt::constants(ctx, l.outDims(), target)));
  if (c.verdict == Verdict::Proven)
    return refuted({{"output", pointJson(target)}}, "no input maps to " + describeOutput(target));
  if (c.verdict == Verdict::Refuted) {
    Point in = x.read(*c.model);
    if (applyChecked(l, in) == target)
      return contradiction("the algebra says no input maps to " + describeOutput(target) +
                           ", but " + describePoint(in) + " does");
    return contradiction("z3's model " + describePoint(in) + " does not map to " +
                         describeOutput(target));
  }
  return notDecided(c);
}

/// exists y, forall x: L(x) != y. Only for few output bits: Z3 instantiates x once per output.
ProofResult directSurjective(Context& ctx, const LinearLayout& l, const XorBasis& basis,
                             const ProverOptions& o) {
  smt::Solver s(ctx, limitsOf(o), /*quantified=*/true);
  Values y = smt::variables(ctx, l.outDims(), "y!");
  Values x = smt::variables(ctx, l.inDims(), "x!");
  z3::expr_vector bound(ctx.z3());
  for (const Values::Entry& e : x.dims)
    if (e.expr)
      bound.push_back(*e.expr);
  z3::expr missed = !smt::apply(ctx, l, x).equals(ctx, y);
  CheckResult c = s.check(bound.empty() ? missed : z3::forall(bound, missed));
  if (c.verdict == Verdict::Refuted) {
    Point target = y.read(*c.model);
    confirm(!basis.solve(packOut(l, target)).has_value(),
            describeOutput(target) + " should not be reached");
    return refuted({{"output", pointJson(target)}}, "no input maps to " + describeOutput(target));
  }
  return c.verdict == Verdict::Proven ? proven() : notDecided(c);
}

ProofResult surjective(Context& ctx, const LinearLayout& l, const ProverOptions& o) {
  XorBasis basis;
  auto cols = l.columns();
  for (std::size_t j = 0; j < cols.size(); ++j)
    basis.insert(cols[j], uint64_t{1} << j);
  std::optional<uint64_t> missing = basis.smallestMissing(l.getTotalOutDimSizeLog2());
  ProofResult witness;
  if (!missing) {
    auto R = l.pseudoinvert();
    witness = R.ok() ? rightInverseWitness(ctx, l, *R, o)
                     : contradiction("the algebra finds L surjective but no right inverse: " +
                                     R.error().str());
  } else {
    witness = unreachedWitness(ctx, l, *missing, o);
  }
  witness.queries = 1;
  if (o.maxDirectSurjectiveOutBits < 0 || l.getTotalOutDimSizeLog2() > o.maxDirectSurjectiveOutBits)
    return witness;
  ProofResult direct = directSurjective(ctx, l, basis, o);
  direct.queries = 1;
  bool decided = [](Outcome a, Outcome b) {
    return (a == Outcome::Proven || a == Outcome::Refuted) &&
           (b == Outcome::Proven || b == Outcome::Refuted);
  }(witness.outcome, direct.outcome);
  if (decided && witness.outcome != direct.outcome) {
    ProofResult r =
        contradiction(std::string("the witness query says ") + outcomeName(witness.outcome) +
                      ", the direct quantified query says " + outcomeName(direct.outcome));
    r.queries = 2;
    return r;
  }
  // Both refuted: keep the witness's output, the smallest unreached one, as verify reports.
  if (decided && witness.outcome == Outcome::Refuted) {
    witness.queries = 2;
    return witness;
  }
  return both(std::move(witness), std::move(direct));
}

// ---- Legality (Def. 4.10, 4.14) ---------------------------------------------------------------

/// Which column a one-hot input is: (input dim, basis index, flat bit).
struct Column {
  DimName dim;
  int basis = 0;
  int flat = 0;
};

Column columnOf(const LinearLayout& l, const Point& oneHot) {
  for (int d = 0; d < l.getNumInDims(); ++d)
    for (const auto& [name, v] : oneHot)
      if (name == l.inDims()[static_cast<std::size_t>(d)].name && v != 0) {
        int b = std::countr_zero(v);
        return {name, b, l.inDimOffset(d) + b};
      }
  confirm(false, describePoint(oneHot) + " should be one-hot");
  return {};
}

std::string columnName(const Column& c) {
  return c.dim.str() + "=" + std::to_string(uint64_t{1} << c.basis);
}

/// A column counterexample in verify's shape, with the model's image checked against apply.
json columnJson(const LinearLayout& l, const Column& c, const Point& modelImage,
                const std::string& reason) {
  Point image = applyChecked(l, l.unpackIn(uint64_t{1} << c.flat));
  confirm(image == modelImage, columnName(c) + ": z3 computed " + describeOutput(modelImage) +
                                   ", apply gives " + describeOutput(image));
  json values = json::array();
  for (const auto& [name, v] : image)
    values.push_back(v);
  return {{"input_dim", c.dim.str()}, {"basis", c.basis}, {"value", values}, {"reason", reason}};
}

int popcountOf(const LinearLayout& l, const Point& y) {
  return std::popcount(packOut(l, y));
}

ProofResult distributedColumns(Context& ctx, const LinearLayout& l, const ProverOptions& o) {
  if (l.getTotalInDimSizeLog2() == 0 || l.getTotalOutDimSizeLog2() == 0) {
    ProofResult r = proven(); // no columns, or only zero ones: nothing to violate
    return r;
  }
  smt::Solver s(ctx, limitsOf(o));
  Values x = smt::variables(ctx, l.inDims(), "x!"), y = smt::variables(ctx, l.inDims(), "y!");
  Values lx = smt::apply(ctx, l, x), ly = smt::apply(ctx, l, y);
  s.add(smt::isOneHot(x));
  ProofResult r;
  CheckResult c = s.check(smt::hasTwoBits(lx.packed()));
  r.queries = 1;
  if (c.verdict == Verdict::Refuted) {
    Point in = x.read(*c.model), image = lx.read(*c.model);
    Column col = columnOf(l, in);
    int bits = popcountOf(l, applyChecked(l, in));
    confirm(bits > 1, columnName(col) + " should have more than one non-zero bit");
    std::string reason = "column has " + std::to_string(bits) +
                         " non-zero bits; a distributed layout allows at most one";
    r = refuted(columnJson(l, col, image, reason), columnName(col) + ": " + reason);
    r.queries = 1;
    return r;
  }
  if (c.verdict != Verdict::Proven) {
    r = notDecided(c);
    r.queries = 1;
    return r;
  }
  z3::expr zero = ctx.bvVal(0, lx.totalWidth());
  c = s.check(smt::isOneHot(y) && !x.equals(ctx, y) && lx.equals(ctx, ly) && lx.packed() != zero);
  if (c.verdict == Verdict::Refuted) {
    Column a = columnOf(l, x.read(*c.model)), b = columnOf(l, y.read(*c.model));
    if (a.flat < b.flat)
      std::swap(a, b); // report the later column, as the algebra does
    Point ia = applyChecked(l, l.unpackIn(uint64_t{1} << a.flat));
    Point ib = applyChecked(l, l.unpackIn(uint64_t{1} << b.flat));
    confirm(a.flat != b.flat && ia == ib && packOut(l, ia) != 0,
            columnName(a) + " and " + columnName(b) + " should be equal and non-zero");
    std::string reason = "repeats the non-zero column of " + columnName(b);
    Point image =
        a.flat == columnOf(l, x.read(*c.model)).flat ? lx.read(*c.model) : ly.read(*c.model);
    r = refuted(columnJson(l, a, image, reason), columnName(a) + ": " + reason);
  } else {
    r = c.verdict == Verdict::Proven ? proven() : notDecided(c);
  }
  r.queries = 2;
  return r;
}

ProofResult memoryColumns(Context& ctx, const LinearLayout& l, const ProverOptions& o) {
  if (l.getTotalInDimSizeLog2() == 0) {
    ProofResult r = proven();
    return r;
  }
  smt::Solver s(ctx, limitsOf(o));
  Values x = smt::variables(ctx, l.inDims(), "x!");
  Values lx = smt::apply(ctx, l, x);
  z3::expr bad = ctx.z3().bool_val(true); // with no output bits every column is zero
  if (l.getTotalOutDimSizeLog2() > 0) {
    z3::expr v = lx.packed();
    z3::expr zero = ctx.bvVal(0, lx.totalWidth());
    bad = v == zero || smt::hasTwoBits(v & (v - 1));
  }
  CheckResult c = s.check(smt::isOneHot(x) && bad);
  ProofResult r;
  if (c.verdict == Verdict::Refuted) {
    Point in = x.read(*c.model);
    Column col = columnOf(l, in);
    int bits = popcountOf(l, applyChecked(l, in));
    confirm(bits < 1 || bits > 2, columnName(col) + " should have 0 or more than 2 bits");
    std::string reason =
        "column has " + std::to_string(bits) + " non-zero bits; a memory layout needs 1 or 2";
    r = refuted(columnJson(l, col, lx.read(*c.model), reason), columnName(col) + ": " + reason);
  } else {
    r = c.verdict == Verdict::Proven ? proven() : notDecided(c);
  }
  r.queries = 1;
  return r;
}

// ---- Conversion correctness ------------------------------------------------------------------

ProofResult conversion(Context& ctx, const LinearLayout& src, const LinearLayout& dst,
                       const LinearLayout& c, const ProverOptions& o) {
  smt::Solver s(ctx, limitsOf(o));
  Values x = smt::variables(ctx, src.inDims(), "x!");
  // C reads the same x as src: the query relates the two layouts on one input.
  Values moved = smt::apply(ctx, c, x);
  CheckResult r = s.check(!smt::apply(ctx, src, x).equals(ctx, smt::apply(ctx, dst, moved)));
  ProofResult p;
  if (r.verdict == Verdict::Refuted) {
    Point in = x.read(*r.model);
    Point a = applyChecked(src, in), to = applyChecked(c, in);
    auto b = dst.apply(to);
    confirm(b.ok(), "conversion(" + describePoint(in) + ") = " + describePoint(to) +
                        " is not a location of dst");
    // Compare by name: dst may list the tensor dims in another order than src.
    bool same = a.size() == b->size();
    for (const auto& [name, v] : a) {
      DimName dim = name; // C++20 lambdas cannot capture structured bindings (clang)
      auto it = std::find_if(b->begin(), b->end(), [&](const auto& e) { return e.first == dim; });
      same = same && it != b->end() && it->second == v;
    }
    confirm(!same, describePoint(in) + " should land on a different element");
    p = refuted({{"input", pointJson(in)},
                 {"src_output", pointJson(a)},
                 {"moved_to", pointJson(to)},
                 {"dst_output", pointJson(*b)}},
                describePoint(in) + " holds " + describeOutput(a) + " but is moved to " +
                    describePoint(to) + ", which holds " + describeOutput(*b));
  } else {
    p = r.verdict == Verdict::Proven ? proven() : notDecided(r);
  }
  p.queries = 1;
  return p;
}

// ---- Shared-memory round trip ----------------------------------------------------------------

bool sameTensor(const LinearLayout& a, const LinearLayout& b) {
  auto dims = [](const LinearLayout& l) {
    std::vector<std::pair<std::string, int>> v;
    for (const Dim& d : l.outDims())
      v.emplace_back(d.name.str(), d.sizeLog2);
    std::sort(v.begin(), v.end());
    return v;
  };
  return dims(a) == dims(b);
}

/// The value of `p` in each of l's output dims, in l's order (p may list them in another order).
Point inOrderOf(const LinearLayout& l, const Point& p) {
  Point q;
  for (const Dim& d : l.outDims())
    for (const auto& [name, v] : p)
      if (name == d.name)
        q.emplace_back(name, v);
  return q;
}

/// The algebra's witness of a location of l whose element no offset of `shared` holds: a column
/// of l outside the span of shared's columns. Z3 then proves that no offset holds it.
ProofResult homeless(Context& ctx, smt::Solver& s, const LinearLayout& l,
                     const LinearLayout& shared, const char* side) {
  auto st = shared.transposeOuts(l.getOutDimNames());
  if (!st.ok())
    return failure(st.error().str());
  XorBasis basis;
  auto sc = st->columns();
  for (std::size_t j = 0; j < sc.size(); ++j)
    basis.insert(sc[j], uint64_t{1} << j);
  auto lc = l.columns();
  for (std::size_t j = 0; j < lc.size(); ++j) {
    if (basis.solve(lc[j]))
      continue;
    Point x = l.unpackIn(uint64_t{1} << j), e = applyChecked(l, x);
    Values off = smt::variables(ctx, shared.inDims(), "o!");
    CheckResult c =
        s.check(smt::apply(ctx, shared, off).equals(ctx, smt::constants(ctx, l.outDims(), e)));
    if (c.verdict == Verdict::Refuted)
      return contradiction("the algebra finds no offset for " + describeOutput(e) + ", z3 finds " +
                           describePoint(off.read(*c.model)));
    if (c.verdict != Verdict::Proven)
      return notDecided(c);
    return refuted({{side, pointJson(x)},
                    {"element", pointJson(e)},
                    {"reason", "no offset of the shared layout holds this element"}},
                   std::string(side) + " " + describePoint(x) + ": no offset holds its element " +
                       describeOutput(e));
  }
  return failure(std::string("the algebra cannot map the ") + side +
                 " side onto the shared layout, yet every element has an offset");
}

/// forall x: shared(m(x)) = l(x), for the algebra's map m = l.invertAndCompose(shared).
ProofResult landsRight(Context& ctx, smt::Solver& s, const LinearLayout& l,
                       const LinearLayout& shared, const char* side) {
  auto m = l.invertAndCompose(shared);
  if (!m.ok())
    return homeless(ctx, s, l, shared, side);
  Values x = smt::variables(ctx, l.inDims(), "x!");
  CheckResult c =
      s.check(!smt::apply(ctx, shared, smt::apply(ctx, *m, x)).equals(ctx, smt::apply(ctx, l, x)));
  if (c.verdict == Verdict::Refuted) {
    Point in = x.read(*c.model), e = applyChecked(l, in), off = applyChecked(*m, in);
    Point held = inOrderOf(l, applyChecked(shared, off));
    confirm(held != e, std::string(side) + " " + describePoint(in) + " should miss its element");
    return refuted(
        {{side, pointJson(in)},
         {"element", pointJson(e)},
         {"offset", pointJson(off)},
         {"offset_holds", pointJson(held)},
         {"reason", std::string("the ") + side + " goes to an offset of another element"}},
        std::string(side) + " " + describePoint(in) + " of " + describeOutput(e) + " goes to " +
            describePoint(off) + ", which holds " + describeOutput(held));
  }
  return c.verdict == Verdict::Proven ? proven() : notDecided(c);
}

ProofResult sharedRoundTrip(Context& ctx, const LinearLayout& src, const LinearLayout& shared,
                            const LinearLayout& dst, const ProverOptions& o) {
  if (!sameTensor(src, shared) || !sameTensor(dst, shared))
    return failure("src, shared and dst must lay out the same tensor (output dims and sizes)");
  smt::Solver s(ctx, limitsOf(o));
  int queries = 0;
  auto done = [&queries](ProofResult r) {
    r.queries = queries;
    return r;
  };
  // Nothing is stored twice: one offset per element.
  Values o1 = smt::variables(ctx, shared.inDims(), "o1!");
  Values o2 = smt::variables(ctx, shared.inDims(), "o2!");
  CheckResult c = s.check(!o1.equals(ctx, o2) &&
                          smt::apply(ctx, shared, o1).equals(ctx, smt::apply(ctx, shared, o2)));
  ++queries;
  if (c.verdict == Verdict::Refuted) {
    Point a = o1.read(*c.model), b = o2.read(*c.model);
    Point e = applyChecked(shared, a);
    confirm(a != b && e == applyChecked(shared, b),
            describePoint(a) + " and " + describePoint(b) + " should hold the same element");
    return done(
        refuted({{"offsets", {pointJson(a), pointJson(b)}},
                 {"element", pointJson(e)},
                 {"reason", "two offsets hold the same element, so it would be stored twice"}},
                describePoint(a) + " and " + describePoint(b) + " both hold " + describeOutput(e)));
  }
  if (c.verdict != Verdict::Proven)
    return done(notDecided(c));
  for (auto [l, side] : {std::pair{&src, "store"}, std::pair{&dst, "load"}}) {
    ProofResult r = landsRight(ctx, s, *l, shared, side);
    ++queries;
    if (r.outcome != Outcome::Proven)
      return done(r);
  }
  // Every offset loaded was stored: the algebra's writer R(dst(y)) stores exactly at Ld(y).
  auto R = src.pseudoinvert();
  auto St = src.invertAndCompose(shared), Ld = dst.invertAndCompose(shared);
  if (!St.ok() || !Ld.ok())
    return done(failure("the algebra's store or load map vanished"));
  Values y = smt::variables(ctx, dst.inDims(), "y!");
  if (!R.ok()) {
    // src does not hold every element; a dst location that needs a missing one reads an offset
    // nobody stored.
    XorBasis basis;
    auto cols = src.columns();
    for (std::size_t j = 0; j < cols.size(); ++j)
      basis.insert(cols[j], uint64_t{1} << j);
    auto missing = basis.smallestMissing(src.getTotalOutDimSizeLog2());
    if (!missing)
      return done(contradiction("src is surjective but has no right inverse"));
    Point e = src.unpackOut(*missing);
    CheckResult need =
        s.check(smt::apply(ctx, dst, y).equals(ctx, smt::constants(ctx, src.outDims(), e)));
    Values x = smt::variables(ctx, src.inDims(), "x!");
    CheckResult held =
        s.check(smt::apply(ctx, src, x).equals(ctx, smt::constants(ctx, src.outDims(), e)));
    queries += 2;
    if (need.verdict == Verdict::Refuted && held.verdict == Verdict::Proven) {
      Point reader = y.read(*need.model);
      confirm(inOrderOf(src, applyChecked(dst, reader)) == e,
              describePoint(reader) + " should need " + describeOutput(e));
      return done(refuted({{"load", pointJson(reader)},
                           {"element", pointJson(e)},
                           {"reason", "no src location holds this element, so the load reads "
                                      "an offset nobody stored"}},
                          "load " + describePoint(reader) + " needs " + describeOutput(e) +
                              ", which no src location holds"));
    }
    if (need.verdict != Verdict::Refuted && need.verdict != Verdict::Proven)
      return done(notDecided(need));
    if (held.verdict != Verdict::Proven && held.verdict != Verdict::Refuted)
      return done(notDecided(held));
    if (held.verdict == Verdict::Refuted)
      return done(contradiction("the algebra says src never holds " + describeOutput(e) +
                                ", z3 finds a location that does"));
    return done(failure("src does not hold " + describeOutput(e) +
                        " and dst does not need it: not a conversion between the same tensor"));
  }
  Values writer = smt::apply(ctx, *R, smt::apply(ctx, dst, y));
  c = s.check(!smt::apply(ctx, *St, writer).equals(ctx, smt::apply(ctx, *Ld, y)));
  ++queries;
  if (c.verdict == Verdict::Refuted)
    return done(contradiction("offsets are unique and both sides land right, yet load " +
                              describePoint(y.read(*c.model)) +
                              " reads an offset its writer does not store to"));
  return done(c.verdict == Verdict::Proven ? proven() : notDecided(c));
}

ProofResult invertible(const ProofResult& inj, const ProofResult& surj) {
  ProofResult a = inj, b = surj;
  if (a.outcome == Outcome::Refuted)
    a.detail = "not injective: " + a.detail;
  if (b.outcome == Outcome::Refuted)
    b.detail = "not surjective: " + b.detail;
  ProofResult r = both(std::move(a), std::move(b));
  r.ms = 0; // the callers time it
  return r;
}

ProofResult withReason(ProofResult r, const std::string& prefix, const std::string& reason) {
  r.counterexample["reason"] = reason;
  r.detail = prefix + r.detail;
  return r;
}

ProofResult distributed(Context& ctx, const LinearLayout& l, const ProofResult& surj,
                        const ProverOptions& o) {
  if (surj.outcome == Outcome::Refuted)
    return withReason(surj, "not surjective: ", "not surjective");
  return both(surj, distributedColumns(ctx, l, o));
}

ProofResult memory(Context& ctx, const LinearLayout& l, const ProofResult& inv,
                   const ProverOptions& o) {
  if (inv.outcome == Outcome::Refuted)
    return withReason(inv, "not invertible: ", "not invertible");
  return both(inv, memoryColumns(ctx, l, o));
}

} // namespace

ProofResult proveInjective(const LinearLayout& l, const ProverOptions& o) {
  return timed([&](Context& ctx) { return injective(ctx, l, o); });
}

ProofResult proveSurjective(const LinearLayout& l, const ProverOptions& o) {
  return timed([&](Context& ctx) { return surjective(ctx, l, o); });
}

ProofResult proveInvertible(const LinearLayout& l, const ProverOptions& o) {
  return timed(
      [&](Context& ctx) { return invertible(injective(ctx, l, o), surjective(ctx, l, o)); });
}

ProofResult proveDistributed(const LinearLayout& l, const ProverOptions& o) {
  return timed([&](Context& ctx) { return distributed(ctx, l, surjective(ctx, l, o), o); });
}

ProofResult proveMemory(const LinearLayout& l, const ProverOptions& o) {
  return timed([&](Context& ctx) {
    return memory(ctx, l, invertible(injective(ctx, l, o), surjective(ctx, l, o)), o);
  });
}

ProofResult proveConversion(const LinearLayout& src, const LinearLayout& dst, const LinearLayout& c,
                            const ProverOptions& o) {
  return timed([&](Context& ctx) { return conversion(ctx, src, dst, c, o); });
}

ProofResult proveSharedRoundTrip(const LinearLayout& src, const LinearLayout& shared,
                                 const LinearLayout& dst, const ProverOptions& o) {
  return timed([&](Context& ctx) { return sharedRoundTrip(ctx, src, shared, dst, o); });
}

MergedVerdict mergeWithZ3(const std::string& property, bool algebraHolds,
                          const std::string& algebraDetail, const ProofResult& z3) {
  using Status = MergedVerdict::Status;
  switch (z3.outcome) {
  case Outcome::Proven:
    if (algebraHolds)
      return {Status::Holds, true, ""};
    return {Status::Disagree, false,
            property + ": algebra says it is violated (" + algebraDetail + "), z3 proves it holds"};
  case Outcome::Refuted:
    if (!algebraHolds)
      return {Status::Fails, true, ""};
    return {Status::Disagree, false,
            property + ": algebra says it holds, z3 refutes it: " + z3.detail};
  case Outcome::Error:
    if (z3.contradictsAlgebra)
      return {Status::Disagree, false, property + ": z3 contradicts the algebra: " + z3.detail};
    break;
  case Outcome::Unknown:
    break;
  }
  return {algebraHolds ? Status::Unknown : Status::Fails, false,
          std::string("z3 ") + outcomeName(z3.outcome) + ": " + z3.detail};
}

void addProofs(VerifyReport& report, const ProverOptions& o) {
  const LinearLayout& l = report.layout;
  ProofResult inj = proveInjective(l, o), surj = proveSurjective(l, o);
  ProofResult inv = invertible(inj, surj);
  inv.ms = inj.ms + surj.ms;
  std::optional<ProofResult> dist, mem;
  if (report.kind == LayoutKind::Distributed) {
    dist = timed([&](Context& ctx) { return distributed(ctx, l, surj, o); });
    dist->ms += surj.ms;
  }
  if (report.kind == LayoutKind::Memory) {
    mem = timed([&](Context& ctx) { return memory(ctx, l, inv, o); });
    mem->ms += inv.ms;
  }
  auto record = [&report](Property property, const ProofResult& r) {
    std::string name = propertyName(property);
    auto it = std::find_if(report.properties.begin(), report.properties.end(),
                           [property](const PropertyResult& p) { return p.property == property; });
    if (it == report.properties.end())
      return;
    PropertyResult& p = *it;
    p.proof = r.toJson();
    MergedVerdict v = mergeWithZ3(name, p.holds, p.detail, r);
    switch (v.status) {
    case MergedVerdict::Status::Disagree:
      report.disagreements.push_back(v.note);
      break;
    case MergedVerdict::Status::Holds:
    case MergedVerdict::Status::Fails:
      if (v.z3Agrees) {
        auto pos = std::find(p.by.begin(), p.by.end(), "algebra");
        p.by.insert(pos == p.by.end() ? p.by.end() : pos + 1, "z3");
        break;
      }
      [[fallthrough]];
    case MergedVerdict::Status::Unknown:
      p.unknown = v.note;
      if (p.holds) {
        // Never "holds" on a timeout: the claim is withdrawn, the algebra's view kept as a note.
        p.holds = false;
        p.detail = p.unknown + "; the algebra alone says it holds";
      } else {
        p.detail += (p.detail.empty() ? "" : "; ") + p.unknown;
      }
      break;
    }
  };
  record(Property::Injective, inj);
  record(Property::Surjective, surj);
  record(Property::Invertible, inv);
  if (dist)
    record(Property::Distributed, *dist);
  if (mem)
    record(Property::Memory, *mem);
}

} // namespace llcheck::prover
