// The three-way comparison behind the differential laws: agreeing answers pass, any one that
// differs fails with all three named, a Z3 unknown passes but is counted as undecided, and a Z3
// error fails. And the laws' own sides agree on layouts whose properties are known by hand.
#include "laws/Differential.h"

#include "llcheck/core/Spec.h"

#include <gtest/gtest.h>

namespace llcheck::fuzz {
namespace {

LinearLayout anyLayout() {
  return LinearLayout::identity1D(4, dims::kRegister, dims::standardOut(0)).value();
}

TEST(Differential, agreementPassesAndAnyDisagreementNamesAllThree) {
  DifferentialAnswer yes{true, true, "", false}, no{false, true, "output 3 is missed", false};
  EXPECT_FALSE(compareAnswers(Property::Surjective, yes, yes, yes, anyLayout()));
  EXPECT_FALSE(compareAnswers(Property::Surjective, no, no, no, anyLayout()));
  for (int odd = 0; odd < 3; ++odd) {
    DifferentialAnswer a = odd == 0 ? no : yes, e = odd == 1 ? no : yes, z = odd == 2 ? no : yes;
    auto v = compareAnswers(Property::Surjective, a, e, z, anyLayout());
    ASSERT_TRUE(v) << odd;
    EXPECT_EQ(v->rfind("surjective: algebra " + a.text() + ", enumeration ", 0), 0u) << *v;
    EXPECT_NE(v->find("algebra " + a.text()), std::string::npos) << *v;
    EXPECT_NE(v->find("enumeration " + e.text()), std::string::npos) << *v;
    EXPECT_NE(v->find("z3 " + z.text()), std::string::npos) << *v;
    EXPECT_NE(v->find("fails (output 3 is missed)"), std::string::npos) << *v;
  }
}

TEST(Differential, aZ3UnknownIsUndecidedAndAZ3ErrorFails) {
  DifferentialAnswer yes{true, true, "", false};
  DifferentialAnswer unknown{false, false, "timeout after 2000 ms", false};
  uint64_t before = undecidedCount();
  EXPECT_FALSE(compareAnswers(Property::Injective, yes, yes, unknown, anyLayout()));
  EXPECT_EQ(undecidedCount(), before + 1);
  DifferentialAnswer error{false, true, "contradicts the algebra", true};
  auto v = compareAnswers(Property::Injective, yes, yes, error, anyLayout());
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("z3 error (contradicts the algebra)"), std::string::npos) << *v;
}

TEST(Differential, theLawsHoldOnCorpusLayoutsOfKnownProperties) {
  // 07 (lane 4, register 8 -> 32 elements): distributed; 06 (offset -> 16x16): memory. Both
  // fit the laws' 12 bits.
  for (const char* file :
       {"07-seed003-lane4-register8-1d.json", "06-seed003-manual-swizzle-16x16.json"}) {
    auto l = loadSpec(std::string(LLCHECK_SOURCE_DIR "/corpus/layouts/") + file, {});
    ASSERT_TRUE(l.ok()) << l.error().str();
    Case c;
    c.layouts.push_back(l->layout);
    for (const Law& law : differentialLaws())
      EXPECT_FALSE(checkLaw(law, c)) << law.name << " on " << file << ": " << *checkLaw(law, c);
  }
}

} // namespace
} // namespace llcheck::fuzz
