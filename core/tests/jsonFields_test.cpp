// JsonFields.h: JSON from outside llcheck is never taken at its word. Each check below is a
// value that nlohmann's get<>() would have narrowed, wrapped or thrown on.
#include "llcheck/core/JsonFields.h"

#include <gtest/gtest.h>

#include <limits>

namespace llcheck::json {
namespace {

using nlohmann::json;

TEST(JsonFields, integersAreCheckedNotNarrowed) {
  // 2^32 read as uint32_t is 0: the forged "errors" count of issue 31.
  auto big = asUnsigned(json(uint64_t{1} << 32), "errors", 0, std::numeric_limits<uint32_t>::max());
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().str(), "errors: expected an integer from 0 to 4294967295, got 4294967296");
  EXPECT_FALSE(asUnsigned(json(128.5), "w").ok()); // a real, not cut to 128
  EXPECT_FALSE(asUnsigned(json(-1), "w").ok());    // not wrapped to 2^64 - 1
  EXPECT_FALSE(asUnsigned(json("7"), "w").ok());
  EXPECT_FALSE(asUnsigned(json(nullptr), "w").ok());
  EXPECT_EQ(*asUnsigned(json(std::numeric_limits<uint64_t>::max()), "w"),
            std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(*asSigned(json(-5), "s", -10, 10), -5);
  EXPECT_FALSE(asSigned(json(std::numeric_limits<uint64_t>::max()), "s", -10, 10).ok());
}

TEST(JsonFields, realsMustBeFiniteAndInRange) {
  EXPECT_FALSE(asReal(json(1e308), "seconds", 0, 1e10).ok());
  EXPECT_FALSE(asReal(json(-1.0), "seconds", 0, 1e10).ok());
  EXPECT_EQ(*asReal(json(3), "seconds", 0, 1e10), 3.0);
  EXPECT_FALSE(asReal(json(nullptr), "seconds", 0, 1e10).ok());
}

TEST(JsonFields, objectsNameMissingAndUnknownFieldsByPath) {
  json j = json::parse(R"({"cases": [{"ok": "yes", "wavefrnts": 1}]})");
  auto top = FieldReader::of(j, "");
  ASSERT_TRUE(top.ok());
  auto cases = top->arrayField("cases");
  ASSERT_TRUE(cases.ok());
  auto c = FieldReader::of((**cases)[0], elementPath("cases", 0));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->boolField("ok").error().str(), "cases[0].ok: expected true or false, got \"yes\"");
  EXPECT_EQ(c->unsignedField("wavefronts").error().str(),
            "cases[0].wavefronts: missing (a required field)");
  EXPECT_EQ(c->onlyFields({"ok", "wavefronts"}).error().where, "cases[0].wavefrnts");
  EXPECT_TRUE(c->onlyFields({"ok", "wavefrnts"}).ok());
  EXPECT_FALSE(FieldReader::of(json::array(), "x").ok());
}

TEST(JsonFields, sumsThatWouldWrapAreErrors) {
  uint64_t half = uint64_t{1} << 63;
  // 2^63 + 2^63 failures printed "0 failures" (issue 31).
  auto sum = checkedAdd(half, half, "verify_failures");
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.error().where, "verify_failures");
  EXPECT_EQ(*checkedAdd(half, half - 1, "x"), std::numeric_limits<uint64_t>::max());
  EXPECT_FALSE(checkedMul(uint64_t{1} << 32, uint64_t{1} << 32, "x").ok());
}

} // namespace
} // namespace llcheck::json
