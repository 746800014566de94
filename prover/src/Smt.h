// The prover's only window on Z3, in the style of Alive2's smt/ layer: a context, a solver that
// always runs under a limit, and a result that keeps "unknown" apart from "proven" so that a
// timeout can never be read as a proof. Nothing outside prover/ includes z3++.h.
#pragma once

#include <z3++.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

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

/// One Z3 context; encodings of several layouts in one query must share it. It owns a
/// watchdog thread: besides Z3's own timeout, a running query is interrupted at its deadline and
/// every few milliseconds after it until it returns, because Z3 4.8.12 sometimes loses its
/// timer's cancellation (seen under load: a 1 ms query still running after 10 minutes).
class Context {
public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  /// Brackets one query: interrupts follow only between arm() and disarm(), never after.
  void arm(unsigned timeoutMs);
  /// Whether the watchdog had to interrupt the query armed last.
  bool disarm();
  z3::context& z3() { return ctx_; }
  /// Set when a query in this context had to be interrupted from outside; such a context is not
  /// reused (Z3's cancellation state after an interrupt is not something to build on).
  void markInterrupted() { interrupted_ = true; }
  [[nodiscard]] bool interrupted() const { return interrupted_; }
  /// A fresh bit-vector variable; width >= 1.
  [[nodiscard]] z3::expr bv(const std::string& name, unsigned width);
  [[nodiscard]] z3::expr bvVal(uint64_t value, unsigned width);

private:
  void watch();

  z3::context ctx_;
  bool interrupted_ = false;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool armed_ = false, fired_ = false, quit_ = false;
  std::chrono::steady_clock::time_point deadline_;
  std::thread watchdog_; // last: it starts once the members above exist
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
  Context& ctx_;
  Limits limits_;
  z3::solver solver_;
};

} // namespace llcheck::smt
