// The prover's only window on Z3, in the style of Alive2's smt/ layer: a context, a solver that
// always runs under a limit, and a result that keeps "unknown" apart from "proven" so that a
// timeout can never be read as a proof. Nothing outside prover/ includes z3++.h.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <optional>
#include <string>

namespace llcheck::smt {

/// Bounds on one solver call. A timeout depends on the machine's speed; the resource limit is
/// Z3's deterministic step counter, so tests can force "unknown" reproducibly.
struct Limits {
  unsigned timeoutMs = 10000;
  unsigned rlimit = 0; ///< 0: no resource limit
  [[nodiscard]] std::string describe() const;
};

enum class Verdict {
  Proven,  ///< the query is unsat: no counterexample exists
  Refuted, ///< the query is sat: the model is a counterexample
  Unknown, ///< Z3 gave up (timeout, resource limit, incomplete theory); nothing is claimed
  Error,   ///< Z3 threw; nothing is claimed
};
[[nodiscard]] const char* verdictName(Verdict v);

/// A satisfying assignment of a refuted query.
class Model {
public:
  explicit Model(z3::model m) : model_(std::move(m)) {}
  /// The value of a bit-vector expression of at most 64 bits (unconstrained bits read as 0).
  [[nodiscard]] uint64_t value(const z3::expr& bv) const;

private:
  z3::model model_;
};

struct CheckResult {
  Verdict verdict = Verdict::Error;
  std::optional<Model> model; ///< Refuted only
  std::string reason;         ///< Unknown and Error: Z3's reason, with the limit for Unknown
  double ms = 0;
};

/// One Z3 context; encodings of several layouts in one query must share it.
class Context {
public:
  Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  z3::context& z3() { return ctx_; }
  /// A fresh bit-vector variable; width >= 1.
  [[nodiscard]] z3::expr bv(const std::string& name, unsigned width);
  [[nodiscard]] z3::expr bvVal(uint64_t value, unsigned width);

private:
  z3::context ctx_;
};

/// A solver under fixed limits. check() asks whether a counterexample exists; the caller phrases
/// each claim as "this query is unsat". push()/pop() let several queries share assertions.
class Solver {
public:
  /// quantified = false picks Z3's quantifier-free bit-vector solver (it bit-blasts).
  Solver(Context& ctx, Limits limits, bool quantified = false);
  void add(const z3::expr& e) { solver_.add(e); }
  void push() { solver_.push(); }
  void pop() { solver_.pop(); }
  /// The assertions plus `query`: unsat = Proven, sat = Refuted with a model.
  [[nodiscard]] CheckResult check(const z3::expr& query);
  [[nodiscard]] const Limits& limits() const { return limits_; }

private:
  Limits limits_;
  z3::solver solver_;
};

} // namespace llcheck::smt
