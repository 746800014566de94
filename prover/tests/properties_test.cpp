// Each property Z3 proves: proven on layouts where it holds, refuted with a counterexample that
// the reference evaluator confirms where it fails. The truth comes from brute force over the
// whole table (Ref), never from the algebra the prover's witnesses are taken from.
#include "ProverTestUtil.h"

#include <bit>
#include <functional>

namespace llcheck::test {
namespace {

using prover::Outcome;
using prover::ProofResult;
using prover::ProverOptions;

/// Definition 4.10's and 4.14's column conditions, from the table.
struct Columns {
  bool atMostOneBit = true, noRepeat = true, oneOrTwoBits = true;
};
Columns columnsOf(const Ref& r) {
  Columns c;
  std::vector<uint64_t> cols;
  for (uint64_t j = 1; j < r.numInputs(); j *= 2)
    cols.push_back(r.evalFlat(j));
  for (std::size_t j = 0; j < cols.size(); ++j) {
    int bits = std::popcount(cols[j]);
    c.atMostOneBit = c.atMostOneBit && bits <= 1;
    c.oneOrTwoBits = c.oneOrTwoBits && (bits == 1 || bits == 2);
    for (std::size_t i = 0; i < j; ++i)
      c.noRepeat = c.noRepeat && (cols[j] == 0 || cols[i] != cols[j]);
  }
  return c;
}

struct Truth {
  bool injective, surjective, invertible, distributed, memory;
};
Truth truthOf(const LinearLayout& l) {
  Ref r(l);
  bool inj = bruteInjective(r), surj = bruteSurjective(r);
  Columns c = columnsOf(r);
  return {inj, surj, inj && surj, surj && c.atMostOneBit && c.noRepeat,
          inj && surj && c.oneOrTwoBits};
}

/// The proof must decide exactly as brute force does, and a refutation must show its claim.
void expectDecides(const LinearLayout& l, const ProofResult& p, bool holds, const char* what) {
  SCOPED_TRACE(std::string(what) + " of " + l.toString());
  ASSERT_TRUE(p.outcome == Outcome::Proven || p.outcome == Outcome::Refuted)
      << prover::outcomeName(p.outcome) << ": " << p.detail;
  EXPECT_EQ(p.outcome == Outcome::Proven, holds) << p.detail;
  if (p.outcome == Outcome::Refuted) {
    EXPECT_TRUE(counterexampleHolds(l, p.counterexample));
    EXPECT_FALSE(p.detail.empty());
  } else {
    EXPECT_TRUE(p.counterexample.is_null());
  }
  EXPECT_GE(p.queries, 1);
}

void expectAllDecided(const LinearLayout& l, const ProverOptions& o = {}) {
  Truth t = truthOf(l);
  expectDecides(l, prover::proveInjective(l, o), t.injective, "injective");
  expectDecides(l, prover::proveSurjective(l, o), t.surjective, "surjective");
  expectDecides(l, prover::proveInvertible(l, o), t.invertible, "invertible");
  expectDecides(l, prover::proveDistributed(l, o), t.distributed, "distributed");
  expectDecides(l, prover::proveMemory(l, o), t.memory, "memory");
}

// Each generator aims at one property; the others hold or fail as they happen to, and every
// case is checked against brute force either way, so both outcomes of every property occur.
TEST(Prover, RandomLayoutsOfEveryKind) {
  Gen g(5150);
  int seen[5][2] = {};
  // kTrials / 8 rounds of six layouts, five properties each: ~750 proofs, a few seconds. Not
  // divided under the sanitizers: the time is spent in Z3, which is not instrumented.
  for (int t = 0; t < kTrials / 8; ++t) {
    std::vector<LinearLayout> ls = {g.any(8),        g.distributed(8), g.memory(8),
                                    g.invertible(8), g.surjective(8),  g.injective(8, 9)};
    for (const LinearLayout& l : ls) {
      expectAllDecided(l);
      Truth tr = truthOf(l);
      bool v[5] = {tr.injective, tr.surjective, tr.invertible, tr.distributed, tr.memory};
      for (int k = 0; k < 5; ++k)
        ++seen[k][v[k] ? 1 : 0];
    }
  }
  for (int k = 0; k < 5; ++k) {
    EXPECT_GT(seen[k][0], 2) << "property " << k << " never failed: the test proves nothing";
    EXPECT_GT(seen[k][1], 2) << "property " << k << " never held: the test proves nothing";
  }
}

// Large enough that the direct quantified surjectivity query is skipped, so only the witness
// queries decide; small enough for brute force.
TEST(Prover, WitnessQueriesAloneOnLargerLayouts) {
  Gen g(77);
  ProverOptions o;
  o.maxDirectSurjectiveOutBits = -1;
  for (int t = 0; t < kTrials / 16; ++t) {
    expectAllDecided(g.any(14), o);
    expectAllDecided(g.distributed(14), o);
    expectAllDecided(g.memory(14), o);
  }
}

TEST(Prover, HandPickedCounterexamples) {
  // register bases [1], [1]: registers 1 and 2 collide, output 2 is never reached, and the
  // second column repeats the first.
  auto l = LinearLayout::create({{S("register"), {{1}, {1}}}}, {{S("dim0"), 4}}, false);
  LL_ASSERT_OK(l);
  ProofResult inj = prover::proveInjective(*l, {});
  ASSERT_EQ(inj.outcome, Outcome::Refuted);
  EXPECT_TRUE(counterexampleHolds(*l, inj.counterexample));
  ProofResult surj = prover::proveSurjective(*l, {});
  ASSERT_EQ(surj.outcome, Outcome::Refuted);
  EXPECT_EQ(surj.counterexample, (nlohmann::json{{"output", {{"dim0", 2}}}}));
  EXPECT_EQ(surj.detail, "no input maps to (2)");
  ProofResult dist = prover::proveDistributed(*l, {});
  ASSERT_EQ(dist.outcome, Outcome::Refuted);
  EXPECT_EQ(dist.counterexample["reason"], "not surjective");

  // A surjective 2x2 swizzle: lane=1 -> (1, 1) breaks Def. 4.10 (two bits in one column).
  auto swz = LinearLayout::create({{S("lane"), {{1, 1}, {0, 1}}}}, {{S("dim0"), 2}, {S("dim1"), 2}},
                                  false);
  LL_ASSERT_OK(swz);
  ProofResult d = prover::proveDistributed(*swz, {});
  ASSERT_EQ(d.outcome, Outcome::Refuted);
  EXPECT_EQ(d.counterexample["input_dim"], "lane");
  EXPECT_EQ(d.counterexample["basis"], 0);
  EXPECT_EQ(d.counterexample["value"], (nlohmann::json{1, 1}));
  EXPECT_EQ(d.detail,
            "lane=1: column has 2 non-zero bits; a distributed layout allows at most one");
  EXPECT_EQ(prover::proveMemory(*swz, {}).outcome, Outcome::Proven);

  // A repeated non-zero column in a surjective layout: lane=1 and lane=4 both -> 1.
  auto rep = LinearLayout::create({{S("lane"), {{1}, {2}, {1}}}}, {{S("dim0"), 4}}, false);
  LL_ASSERT_OK(rep);
  ProofResult r = prover::proveDistributed(*rep, {});
  ASSERT_EQ(r.outcome, Outcome::Refuted);
  EXPECT_EQ(r.detail, "lane=4: repeats the non-zero column of lane=1");
  EXPECT_TRUE(counterexampleHolds(*rep, r.counterexample));

  // Def. 4.14: an offset column of three bits.
  auto mask = LinearLayout::create({{S("offset"), {{7}, {2}, {4}}}}, {{S("dim0"), 8}}, false);
  LL_ASSERT_OK(mask);
  ProofResult m = prover::proveMemory(*mask, {});
  ASSERT_EQ(m.outcome, Outcome::Refuted);
  EXPECT_EQ(m.detail, "offset=1: column has 3 non-zero bits; a memory layout needs 1 or 2");
  // A zero column (a broadcast offset) is not a memory layout either, even before invertibility.
  auto zero = LinearLayout::create({{S("offset"), {{1}, {0}}}}, {{S("dim0"), 2}}, false);
  LL_ASSERT_OK(zero);
  EXPECT_EQ(prover::proveMemory(*zero, {}).outcome, Outcome::Refuted);
}

TEST(Prover, DegenerateLayouts) {
  // No input bits, no output bits, size-1 dims on either side.
  std::vector<LinearLayout> ls;
  ls.push_back(LinearLayout::empty());
  ls.push_back(zeros1D(1, S("register"), S("dim0")));
  ls.push_back(zeros1D(4, S("register"), S("dim0")));
  ls.push_back(zeros1D(1, S("register"), S("dim0"), 4));
  ls.push_back(identity1D(8, S("lane"), S("dim0")) * identity1D(1, S("warp"), S("dim1")));
  for (const LinearLayout& l : ls)
    expectAllDecided(l);
}

} // namespace
} // namespace llcheck::test
