// The Z3 wrapper: every call runs under the solver's limits, and every way Z3 can fail to
// answer (unknown, an exception) becomes a verdict that claims nothing.
#include "Smt.h"

#include <chrono>

namespace llcheck::smt {

std::string Limits::describe() const {
  std::string s = "timeout " + std::to_string(timeoutMs) + " ms";
  if (rlimit != 0)
    s += ", rlimit " + std::to_string(rlimit);
  return s;
}

const char* verdictName(Verdict v) {
  switch (v) {
  case Verdict::Proven:
    return "proven";
  case Verdict::Refuted:
    return "refuted";
  case Verdict::Unknown:
    return "unknown";
  case Verdict::Error:
    return "error";
  }
  return "error";
}

uint64_t Model::value(const z3::expr& bv) const {
  z3::expr v = model_.eval(bv, /*model_completion=*/true);
  uint64_t out = 0;
  if (!v.is_numeral_u64(out))
    throw z3::exception("model value is not a 64-bit numeral");
  return out;
}

Context::Context() : watchdog_([this] { watch(); }) {
  // Z3 parameters are per context; the model must be available after every sat answer.
  ctx_.set("model", true);
}

Context::~Context() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  cv_.notify_all();
  watchdog_.join();
}

void Context::arm(unsigned timeoutMs) {
  std::lock_guard<std::mutex> lock(mutex_);
  armed_ = true;
  fired_ = false;
  deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  cv_.notify_all();
}

bool Context::disarm() {
  std::lock_guard<std::mutex> lock(mutex_);
  armed_ = false;
  return fired_;
}

void Context::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!quit_) {
    if (!armed_) {
      cv_.wait(lock, [this] { return quit_ || armed_; });
      continue;
    }
    if (std::chrono::steady_clock::now() < deadline_) {
      cv_.wait_until(lock, deadline_, [this] { return quit_ || !armed_; });
      continue;
    }
    // Past the deadline and still armed: interrupt, and again every 5 ms until disarmed.
    fired_ = true;
    ctx_.interrupt();
    cv_.wait_for(lock, std::chrono::milliseconds(5), [this] { return quit_ || !armed_; });
  }
}

z3::expr Context::bv(const std::string& name, unsigned width) {
  return ctx_.bv_const(name.c_str(), width);
}

z3::expr Context::bvVal(uint64_t value, unsigned width) {
  return ctx_.bv_val(value, width);
}

namespace {
z3::solver makeSolver(z3::context& ctx, bool quantified) {
  // QF_BV selects Z3's bit-blasting solver, which suits XORs of gated constants; the quantified
  // query (direct surjectivity) needs the general solver.
  return quantified ? z3::solver(ctx, "BV") : z3::solver(ctx, "QF_BV");
}
} // namespace

Solver::Solver(Context& ctx, Limits limits, bool quantified)
    : ctx_(ctx), limits_(limits), solver_(makeSolver(ctx.z3(), quantified)) {
  z3::params p(ctx.z3());
  p.set("timeout", limits.timeoutMs);
  if (limits.rlimit != 0)
    p.set("rlimit", limits.rlimit);
  solver_.set(p);
}

CheckResult Solver::check(const z3::expr& query) {
  CheckResult r;
  auto start = std::chrono::steady_clock::now();
  bool pushed = false;
  try {
    solver_.push();
    pushed = true;
    solver_.add(query);
    ctx_.arm(limits_.timeoutMs);
    z3::check_result c = solver_.check();
    bool interrupted = ctx_.disarm();
    if (interrupted)
      ctx_.markInterrupted();
    if (c == z3::unsat) {
      r.verdict = Verdict::Proven;
    } else if (c == z3::sat) {
      r.verdict = Verdict::Refuted;
      r.model.emplace(solver_.get_model());
    } else {
      r.verdict = Verdict::Unknown;
      r.reason = (interrupted ? std::string("timeout") : solver_.reason_unknown()) + " (" +
                 limits_.describe() + ")";
    }
    pushed = false;
    solver_.pop();
  } catch (const z3::exception& e) {
    ctx_.disarm();
    r.verdict = Verdict::Error;
    r.model.reset();
    r.reason = std::string("z3: ") + e.msg();
    // Leave the solver as the caller built it, so the next query does not see this one.
    if (pushed) {
      try {
        solver_.pop();
      } catch (const z3::exception&) {
      }
    }
  }
  r.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

} // namespace llcheck::smt
