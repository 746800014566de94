// The whole built-in corpus (corpus/layouts and corpus/illegal): Z3 agrees with the algebra and
// with enumeration on every property, through addProofs as `llcheck verify` uses it.
#include "ProverTestUtil.h"

#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"

#include <filesystem>

namespace llcheck::test {
namespace {

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  for (const char* dir : {"/corpus/layouts", "/corpus/illegal"})
    for (const auto& e : std::filesystem::directory_iterator(std::string(LLCHECK_SOURCE_DIR) + dir))
      if (e.path().extension() == ".json")
        files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Corpus, Z3AgreesWithTheAlgebraAndEnumerationOnEveryLayout) {
  auto files = corpusFiles();
  ASSERT_GE(files.size(), 29u);
  int proven = 0, refuted = 0;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    auto loaded = loadSpec(f, {});
    LL_ASSERT_OK(loaded);
    auto report = verify(loaded->layout, {});
    LL_ASSERT_OK(report);
    ASSERT_TRUE(report->enumerationSkipped.empty()) << "the corpus is small: enumerate it all";
    prover::addProofs(*report, {});
    EXPECT_TRUE(report->disagreements.empty()) << report->disagreements.front();
    EXPECT_TRUE(report->unknowns().empty());
    for (const PropertyResult& p : report->properties) {
      bool legality = p.property == Property::Distributed || p.property == Property::Memory;
      bool applies = !legality || ((p.property == Property::Distributed) ==
                                       (report->kind == LayoutKind::Distributed) &&
                                   report->kind != LayoutKind::Generic);
      bool byZ3 = std::find(p.by.begin(), p.by.end(), "z3") != p.by.end();
      EXPECT_EQ(byZ3, applies) << p.name();
      if (!applies)
        continue;
      EXPECT_EQ(p.by, (std::vector<std::string>{"algebra", "z3", "enumeration"})) << p.name();
      ASSERT_TRUE(p.proof.is_object()) << p.name();
      EXPECT_EQ(p.proof["result"], p.holds ? "proven" : "refuted") << p.name();
      if (!p.holds) {
        EXPECT_TRUE(counterexampleHolds(loaded->layout, p.proof["counterexample"])) << p.name();
      }
      (p.holds ? proven : refuted)++;
    }
  }
  // Both outcomes occur, so the agreement is not vacuous.
  EXPECT_GT(proven, 50);
  EXPECT_GT(refuted, 8);
}

// The direct quantified query is an independent route to surjectivity; on the corpus layouts
// small enough for it, it must decide as the witness does.
TEST(Corpus, DirectAndWitnessSurjectivityAgree) {
  prover::ProverOptions witnessOnly, direct;
  witnessOnly.maxDirectSurjectiveOutBits = -1;
  direct.maxDirectSurjectiveOutBits = 9;
  int asked = 0;
  for (const std::string& f : corpusFiles()) {
    SCOPED_TRACE(f);
    auto loaded = loadSpec(f, {});
    LL_ASSERT_OK(loaded);
    const LinearLayout& l = loaded->layout;
    if (l.getTotalOutDimSizeLog2() > 9)
      continue;
    ++asked;
    auto a = prover::proveSurjective(l, witnessOnly), b = prover::proveSurjective(l, direct);
    EXPECT_EQ(a.outcome, b.outcome) << a.detail << " / " << b.detail;
    EXPECT_EQ(b.queries, 2);
    EXPECT_EQ(a.outcome == prover::Outcome::Proven, l.isSurjective());
  }
  EXPECT_GE(asked, 6);
}

} // namespace
} // namespace llcheck::test
