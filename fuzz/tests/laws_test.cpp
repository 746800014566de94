// The law suite as a ctest: every law on a bounded number of cases for a fixed seed (each law
// its own test, so a failure names it), and the driver itself: a deliberately false law is
// found, shrunk to a small readable case, saved and caught again on replay; runs are
// reproducible from their seed; shards partition the laws.
#include "laws/Driver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include <unistd.h>

namespace llcheck::fuzz {
namespace {

#ifdef LLCHECK_SANITIZED_BUILD
constexpr uint64_t kCasesPerLaw = 20; // the sanitizers make the enumerations ~30x slower
#else
constexpr uint64_t kCasesPerLaw = 150;
#endif
constexpr uint64_t kSeed = 20261122;

std::string sourceDir() {
  return LLCHECK_SOURCE_DIR;
}

TEST(Laws, atLeastFortyWithDistinctNames) {
  std::set<std::string> names;
  for (const Law& l : allLaws()) {
    EXPECT_TRUE(names.insert(l.name).second) << l.name;
    EXPECT_FALSE(l.statement.empty()) << l.name;
  }
  EXPECT_GE(names.size(), 40u);
}

class EveryLaw : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryLaw, holdsOnAFixedSeed) {
  FuzzOptions o;
  o.seed = kSeed;
  o.seconds = 0;
  o.maxCases = kCasesPerLaw;
  o.only = {GetParam()};
  auto laws = selectLaws(allLaws(), o);
  ASSERT_TRUE(laws.ok());
  FuzzReport r = runLaws(*laws, o);
  ASSERT_EQ(r.laws.size(), 1u);
  for (const Failure& f : r.failures)
    ADD_FAILURE() << describeFailure(f, findLaw(f.law));
  EXPECT_EQ(r.laws[0].cases, kCasesPerLaw);
}

std::vector<std::string> lawNames() {
  std::vector<std::string> names;
  for (const Law& l : allLaws())
    names.push_back(l.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Laws, EveryLaw, ::testing::ValuesIn(lawNames()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return n;
                         });

/// A law that is false: not every layout is injective. The smallest counterexample has one
/// input bit whose basis is zero.
std::vector<Law> falseRegistry() {
  return {{"planted.every_layout_is_injective", "false on purpose",
           rc::gen::map(genLayout(Kind::Any),
                        [](LinearLayout l) {
                          Case c;
                          c.layouts.push_back(l);
                          return c;
                        }),
           [](const Case& c) -> Verdict {
             if (!c.layouts.at(0).isInjective())
               return std::string("not injective");
             return {};
           }}};
}

TEST(Driver, shrinksSavesAndReplaysAFailure) {
  std::vector<Law> registry = falseRegistry();
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("llcheck-fuzz-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  FuzzOptions o;
  o.seed = 7;
  o.seconds = 0;
  o.maxCases = 1000;
  o.regressionsDir = dir.string();
  auto laws = selectLaws(registry, o);
  ASSERT_TRUE(laws.ok());
  FuzzReport r = runLaws(*laws, o);
  ASSERT_EQ(r.failures.size(), 1u);
  const Failure& f = r.failures[0];
  // Shrunk to the smallest non-injective layout: one input bit, mapped to zero.
  ASSERT_EQ(f.shrunk.layouts.size(), 1u);
  const LinearLayout& l = f.shrunk.layouts[0];
  EXPECT_EQ(l.getTotalInDimSizeLog2(), 1) << l.toString();
  EXPECT_EQ(l.getTotalOutDimSizeLog2(), 0) << l.toString();
  EXPECT_GT(f.shrinkSteps, 0);
  std::string text = describeFailure(f, &registry[0]);
  EXPECT_NE(text.find("replay: llcheck fuzz --replay " + f.savedTo), std::string::npos) << text;
  EXPECT_NE(text.find("rerun: llcheck fuzz --seed 7 --law planted.every_layout_is_injective"),
            std::string::npos)
      << text;
  // Saved, and the saved case fails again on replay.
  ASSERT_FALSE(f.savedTo.empty());
  auto replayed = replay(dir.string(), registry);
  ASSERT_TRUE(replayed.ok()) << replayed.error().str();
  ASSERT_EQ(replayed->size(), 1u);
  EXPECT_TRUE((*replayed)[0].verdict.has_value());
  std::filesystem::remove_all(dir);
}

TEST(Driver, aRunIsReproducibleFromItsSeed) {
  std::vector<Law> registry = falseRegistry();
  FuzzOptions o;
  o.seed = 12345;
  o.seconds = 0;
  o.maxCases = 1000;
  auto laws = selectLaws(registry, o);
  ASSERT_TRUE(laws.ok());
  FuzzReport a = runLaws(*laws, o), b = runLaws(*laws, o);
  ASSERT_EQ(a.failures.size(), 1u);
  ASSERT_EQ(b.failures.size(), 1u);
  EXPECT_EQ(a.failures[0].caseIndex, b.failures[0].caseIndex);
  EXPECT_EQ(a.failures[0].shrunk.layouts, b.failures[0].shrunk.layouts);
  o.seed = 12346;
  FuzzReport c = runLaws(*laws, o);
  ASSERT_EQ(c.failures.size(), 1u);
}

TEST(Driver, shardsPartitionTheLaws) {
  std::multiset<std::string> seen;
  for (int i = 0; i < 3; ++i) {
    FuzzOptions o;
    o.shardIndex = i;
    o.shardCount = 3;
    auto laws = selectLaws(allLaws(), o);
    ASSERT_TRUE(laws.ok());
    for (const Law* l : *laws)
      seen.insert(l->name);
  }
  std::vector<std::string> all = lawNames();
  EXPECT_EQ(seen, std::multiset<std::string>(all.begin(), all.end()));
}

TEST(Driver, anUnknownLawIsAnError) {
  FuzzOptions o;
  o.only = {"no.such_law"};
  auto laws = selectLaws(allLaws(), o);
  ASSERT_FALSE(laws.ok());
  EXPECT_NE(laws.error().str().find("no law named 'no.such_law'"), std::string::npos);
}

TEST(Replay, theCorpusRegressionsPass) {
  auto r = replay(sourceDir() + "/corpus/regressions", allLaws());
  ASSERT_TRUE(r.ok()) << r.error().str();
  for (const ReplayResult& x : *r)
    EXPECT_FALSE(x.verdict.has_value()) << x.file << ": " << *x.verdict;
}

TEST(Replay, aMissingPathIsAnError) {
  // Not "nothing to replay": a mistyped path would otherwise pass silently.
  auto r = replay(sourceDir() + "/corpus/no-such-directory", allLaws());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("no such file or directory"), std::string::npos);
}

TEST(Replay, catchesThePlantedFailingCase) {
  auto r = replay(sourceDir() + "/fuzz/tests/planted", allLaws());
  ASSERT_TRUE(r.ok()) << r.error().str();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].law, "invert.left_inverse");
  ASSERT_TRUE((*r)[0].verdict.has_value());
  EXPECT_NE((*r)[0].verdict->find("invert failed"), std::string::npos) << *(*r)[0].verdict;
}

TEST(Replay, aFileThatIsNoCaseIsAnError) {
  auto r = replay(sourceDir() + "/corpus/layouts/02-seed003-blocked-64x16.json", allLaws());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("not a regression case"), std::string::npos) << r.error().str();
}

} // namespace
} // namespace llcheck::fuzz
