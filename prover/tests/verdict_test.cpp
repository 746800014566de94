// The one rule that joins the algebra's answer with Z3's (mergeWithZ3), on every combination
// of the two: agreement confirms, a contrary answer is a disagreement (a bug in llcheck, never a
// verdict), and an undecided Z3 withdraws "holds" and leaves "fails" standing.
#include "ProverTestUtil.h"

namespace llcheck::test {
namespace {

using prover::MergedVerdict;
using prover::Outcome;
using prover::ProofResult;
using Status = MergedVerdict::Status;

ProofResult z3(Outcome o, bool contradicts = false) {
  ProofResult r;
  r.outcome = o;
  r.detail = "the detail";
  r.contradictsAlgebra = contradicts;
  return r;
}

TEST(Verdict, AgreementConfirms) {
  MergedVerdict holds = prover::mergeWithZ3("p", true, "", z3(Outcome::Proven));
  EXPECT_EQ(holds.status, Status::Holds);
  EXPECT_TRUE(holds.z3Agrees);
  MergedVerdict fails = prover::mergeWithZ3("p", false, "why", z3(Outcome::Refuted));
  EXPECT_EQ(fails.status, Status::Fails);
  EXPECT_TRUE(fails.z3Agrees);
}

TEST(Verdict, ContraryAnswersAreADisagreementNotAVerdict) {
  MergedVerdict a = prover::mergeWithZ3("p", false, "why", z3(Outcome::Proven));
  EXPECT_EQ(a.status, Status::Disagree);
  EXPECT_EQ(a.note, "p: algebra says it is violated (why), z3 proves it holds");
  MergedVerdict b = prover::mergeWithZ3("p", true, "", z3(Outcome::Refuted));
  EXPECT_EQ(b.status, Status::Disagree);
  EXPECT_EQ(b.note, "p: algebra says it holds, z3 refutes it: the detail");
  for (bool algebra : {true, false}) {
    MergedVerdict c = prover::mergeWithZ3("p", algebra, "", z3(Outcome::Error, true));
    EXPECT_EQ(c.status, Status::Disagree);
    EXPECT_FALSE(c.z3Agrees);
  }
}

TEST(Verdict, AnUndecidedZ3WithdrawsHoldsAndLeavesFails) {
  for (Outcome o : {Outcome::Unknown, Outcome::Error}) {
    MergedVerdict held = prover::mergeWithZ3("p", true, "", z3(o));
    EXPECT_EQ(held.status, Status::Unknown);
    EXPECT_FALSE(held.z3Agrees);
    EXPECT_EQ(held.note, std::string("z3 ") + prover::outcomeName(o) + ": the detail");
    MergedVerdict failed = prover::mergeWithZ3("p", false, "why", z3(o));
    EXPECT_EQ(failed.status, Status::Fails);
    EXPECT_FALSE(failed.z3Agrees);
  }
}

} // namespace
} // namespace llcheck::test
