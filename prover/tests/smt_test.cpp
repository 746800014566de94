// The Z3 wrapper: unsat is Proven, sat is Refuted with a model, and a limit gives Unknown.
#include "Smt.h"

#include <gtest/gtest.h>

namespace llcheck::smt {
namespace {

TEST(Smt, UnsatIsProvenSatIsRefutedWithAModel) {
  Context ctx;
  Solver s(ctx, Limits{});
  z3::expr x = ctx.bv("x", 8);
  CheckResult none = s.check(x + 1 == x);
  EXPECT_EQ(none.verdict, Verdict::Proven);
  EXPECT_FALSE(none.model.has_value());
  CheckResult some = s.check(x * 3 == ctx.bvVal(21, 8));
  ASSERT_EQ(some.verdict, Verdict::Refuted);
  ASSERT_TRUE(some.model.has_value());
  EXPECT_EQ((some.model->value(x) * 3) & 0xff, 21u);
}

TEST(Smt, QueriesDoNotLeakIntoEachOther) {
  Context ctx;
  Solver s(ctx, Limits{});
  z3::expr x = ctx.bv("x", 4);
  EXPECT_EQ(s.check(x == ctx.bvVal(3, 4)).verdict, Verdict::Refuted);
  EXPECT_EQ(s.check(x == ctx.bvVal(5, 4)).verdict, Verdict::Refuted);
  s.add(x == ctx.bvVal(3, 4));
  EXPECT_EQ(s.check(x == ctx.bvVal(5, 4)).verdict, Verdict::Proven);
}

TEST(Smt, ResourceLimitGivesUnknownWithTheLimit) {
  // A 24-bit factoring-style query is far beyond 1 unit of Z3's deterministic resource limit.
  Context ctx;
  Solver s(ctx, Limits{10000, 1});
  z3::expr a = ctx.bv("a", 24), b = ctx.bv("b", 24);
  CheckResult r = s.check(a * b == ctx.bvVal(11316499, 24) && a != 1 && b != 1);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_NE(r.reason.find("rlimit 1"), std::string::npos) << r.reason;
  EXPECT_FALSE(r.model.has_value());
}

} // namespace
} // namespace llcheck::smt
