// A limit is never a proof: Z3 giving up is Unknown, and verify then reports the property as
// unknown (not holding) and the report as not ok. Z3's resource limit makes this deterministic;
// a 1 ms timeout on a layout Z3 needs far longer for is the other way a user meets it.
#include "ProverTestUtil.h"

#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"

namespace llcheck::test {
namespace {

using prover::Outcome;

/// Columns of a dense random invertible matrix: injectivity is a hard SAT instance for Z3
/// (long XOR chains), so it runs into any small limit.
LinearLayout denseInvertible(int bits) {
  Gen g(static_cast<uint32_t>(bits));
  std::vector<uint64_t> cols = g.invertibleColumns(bits);
  std::vector<std::vector<uint64_t>> bases;
  for (uint64_t c : cols)
    bases.push_back({c});
  return LinearLayout::create({{S("in"), bases}}, {{S("out"), uint64_t{1} << bits}}, true).value();
}

TEST(Unknown, ResourceLimitGivesUnknownForEveryProperty) {
  prover::ProverOptions o;
  o.rlimit = 1;
  LinearLayout l = identity1D(1024, S("register"), S("dim0"));
  for (const auto& p :
       {prover::proveInjective(l, o), prover::proveSurjective(l, o), prover::proveInvertible(l, o),
        prover::proveDistributed(l, o), prover::proveMemory(l, o)}) {
    EXPECT_EQ(p.outcome, Outcome::Unknown) << p.detail;
    EXPECT_NE(p.detail.find("rlimit 1"), std::string::npos) << p.detail;
    EXPECT_TRUE(p.counterexample.is_null());
  }
  // The same layout with no limit is proven: the limit, not the layout, made it unknown.
  EXPECT_EQ(prover::proveInjective(l, {}).outcome, Outcome::Proven);
}

TEST(Unknown, TinyTimeoutOnADenseLayout) {
  LinearLayout l = denseInvertible(48);
  ASSERT_TRUE(l.isInvertible());
  prover::ProverOptions o;
  o.timeoutMs = 1;
  auto p = prover::proveInjective(l, o);
  EXPECT_EQ(p.outcome, Outcome::Unknown) << p.detail;
  EXPECT_NE(p.detail.find("timeout 1 ms"), std::string::npos) << p.detail;
  // The thread's Z3 context is reused: a cancelled query must leave it able to prove the next.
  EXPECT_EQ(prover::proveInjective(identity1D(64, S("lane"), S("dim0")), {}).outcome,
            Outcome::Proven);
  EXPECT_EQ(prover::proveSurjective(denseInvertible(12), {}).outcome, Outcome::Proven);
}

// Z3 4.8.12 sometimes loses its own timer's cancellation under load (a 1 ms query was seen still
// running after 10 minutes); the wrapper's watchdog must end every such query.
TEST(Unknown, EveryTinyTimeoutEnds) {
  LinearLayout l = denseInvertible(48);
  prover::ProverOptions o;
  o.timeoutMs = 1;
  for (int i = 0; i < 30; ++i) {
    auto p = prover::proveInjective(l, o);
    ASSERT_EQ(p.outcome, Outcome::Unknown) << p.detail;
    EXPECT_LT(p.ms, 5000.0) << "the timeout was not honoured";
  }
}

TEST(Unknown, VerifyNeverSaysHoldsOnAnUnknown) {
  LinearLayout l = identity1D(256, S("register"), S("dim0"));
  auto report = verify(l, {});
  LL_ASSERT_OK(report);
  ASSERT_TRUE(report->ok());
  prover::ProverOptions o;
  o.rlimit = 1;
  prover::addProofs(*report, o);
  EXPECT_FALSE(report->ok());
  EXPECT_TRUE(report->disagreements.empty());
  EXPECT_EQ(report->unknowns(),
            (std::vector<std::string>{"injective", "surjective", "invertible", "distributed"}));
  for (const std::string& name : report->unknowns()) {
    const PropertyResult* p = report->find(*parseProperty(name));
    EXPECT_FALSE(p->holds) << name;
    EXPECT_EQ(p->status(), "unknown") << name;
    EXPECT_EQ(p->by, (std::vector<std::string>{"algebra", "enumeration"})) << name;
    EXPECT_EQ(p->proof["result"], "unknown") << name;
  }
  EXPECT_EQ(verdictText(*report).rfind("unknown (not decided: injective", 0), 0u)
      << verdictText(*report);
  nlohmann::json j = toJson(*report);
  EXPECT_EQ(j["properties"]["injective"]["holds"], false);
  EXPECT_TRUE(j["properties"]["injective"].contains("unknown"));
  EXPECT_EQ(j["ok"], false);
}

} // namespace
} // namespace llcheck::test
