// Helpers every proof in prover/src shares: the result constructors, the algebra's re-check of
// a counterexample (a failed one throws: it is a bug, never a result), and the timed runner that
// owns the thread's Z3 context. Internal to prover/ (not installed).
#pragma once

#include "Smt.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/prover/Prover.h"

#include <chrono>
#include <memory>
#include <string>

namespace llcheck::prover::detail {

using nlohmann::json;
using smt::CheckResult;
using smt::Context;
using smt::Verdict;

/// A Z3 counterexample the algebra does not confirm means the encoding is wrong: never report it.
inline void confirm(bool ok, const std::string& what) {
  if (!ok)
    throw LayoutError(
        makeError("internal error: z3 counterexample not confirmed by the algebra: " + what));
}

/// A result that is neither proof nor refutation: the property could not be posed (the layouts
/// do not fit the question), with the reason.
inline ProofResult failure(std::string what) {
  ProofResult r;
  r.outcome = Outcome::Error;
  r.detail = std::move(what);
  return r;
}

inline json pointJson(const Point& p) {
  json j = json::object();
  for (const auto& [name, v] : p)
    j[name.str()] = v;
  return j;
}

/// The point without its size-1 dims, as verify's text does.
inline Point withoutUnitDims(const LinearLayout& l, Point p) {
  std::erase_if(p, [&l](const auto& e) { return l.getInDimSizeLog2(e.first) == 0; });
  return p;
}

inline uint64_t packOut(const LinearLayout& l, const Point& y) {
  uint64_t packed = 0;
  for (int k = 0; k < l.getNumOutDims(); ++k)
    for (const auto& [name, v] : y)
      if (name == l.outDims()[static_cast<std::size_t>(k)].name)
        packed |= v << l.outDimOffset(k);
  return packed;
}

inline Point applyChecked(const LinearLayout& l, const Point& x) {
  auto y = l.apply(x);
  confirm(y.ok(), "the model's input " + describePoint(x) + " is not a valid input");
  return *y;
}

class Timer {
public:
  [[nodiscard]] double ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }

private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

inline smt::Limits limitsOf(const ProverOptions& o) {
  return {o.timeoutMs, o.rlimit};
}

inline ProofResult notDecided(const CheckResult& c) {
  ProofResult r;
  r.outcome = c.verdict == Verdict::Unknown ? Outcome::Unknown : Outcome::Error;
  r.detail = c.reason;
  return r;
}

inline ProofResult contradiction(const std::string& what) {
  ProofResult r;
  r.outcome = Outcome::Error;
  r.contradictsAlgebra = true;
  r.detail = what;
  return r;
}

inline ProofResult proven() {
  ProofResult r;
  r.outcome = Outcome::Proven;
  return r;
}

inline ProofResult refuted(json counterexample, std::string detail) {
  ProofResult r;
  r.outcome = Outcome::Refuted;
  r.counterexample = std::move(counterexample);
  r.detail = std::move(detail);
  return r;
}

/// The conjunction of two claims: an error beats a counterexample (it must be seen), a
/// counterexample beats an unknown (it is conclusive), an unknown beats a proof.
inline ProofResult both(ProofResult a, ProofResult b) {
  auto rank = [](Outcome o) {
    switch (o) {
    case Outcome::Error:
      return 3;
    case Outcome::Refuted:
      return 2;
    case Outcome::Unknown:
      return 1;
    case Outcome::Proven:
      return 0;
    }
    return 3;
  };
  ProofResult r = rank(b.outcome) > rank(a.outcome) ? std::move(b) : std::move(a);
  r.ms = a.ms + b.ms;
  r.queries = a.queries + b.queries;
  return r;
}

/// Runs f and times it; a Z3 exception escaping the wrapper is an Error. The context is one
/// per thread and reused, as Alive2 keeps one: creating and destroying a Z3 context costs
/// about as much as proving a 10-bit property (~1 ms and ~2-3 ms), and each query builds its own
/// solver, so nothing but interned terms carries over between proofs. A context a query had to
/// be interrupted in is replaced.
template <class F> ProofResult timed(F&& f) {
  Timer t;
  ProofResult r;
  thread_local std::unique_ptr<Context> ctx;
  try {
    if (!ctx)
      ctx = std::make_unique<Context>();
    r = f(*ctx);
  } catch (const z3::exception& e) {
    r = ProofResult{};
    r.outcome = Outcome::Error;
    r.detail = std::string("z3: ") + e.msg();
  }
  if (ctx && ctx->interrupted())
    ctx.reset();
  r.ms = t.ms();
  return r;
}

} // namespace llcheck::prover::detail
