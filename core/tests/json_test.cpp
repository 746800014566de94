// Layout JSON v1: toJson / layoutFromJson round trip, and the errors of a strict reader.
#include "TestLayouts.h"

#include "llcheck/core/Formats.h"

namespace llcheck::test {
namespace {

using nlohmann::json;

TEST(Json, RoundTrips) {
  Gen g(2601);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    json j = toJson(l);
    auto back = layoutFromJson(j);
    LL_ASSERT_OK(back);
    EXPECT_EQ(*back, l);
    // Through text too.
    auto parsed = parseJsonText(j.dump(), "mem");
    LL_ASSERT_OK(parsed);
    EXPECT_EQ(layoutFromJson(*parsed).value(), l);
  }
}

TEST(Json, Shape) {
  LinearLayout l = LinearLayout::create({{S("register"), {{0, 1}, {1, 0}}}, {S("block"), {}}},
                                        {{S("dim0"), 2}, {S("dim1"), 4}}, false)
                       .value();
  EXPECT_EQ(toJson(l), json::parse(R"({
    "ins": [{"name": "register", "size": 4, "bases": [[0, 1], [1, 0]]},
            {"name": "block", "size": 1, "bases": []}],
    "outs": [{"name": "dim0", "size": 2}, {"name": "dim1", "size": 4}]})"));
  // version and description are accepted.
  json j = toJson(l);
  j["version"] = 1;
  j["description"] = "a layout";
  EXPECT_EQ(layoutFromJson(j).value(), l);
}

TEST(Json, ErrorCases) {
  const json good = json::parse(R"({"ins": [{"name": "r", "size": 2, "bases": [[1]]}],
                                    "outs": [{"name": "o", "size": 2}]})");
  ASSERT_TRUE(layoutFromJson(good).ok());
  auto expectError = [](const json& j, const std::string& fragment) {
    auto r = layoutFromJson(j);
    ASSERT_FALSE(r.ok()) << j.dump();
    EXPECT_NE(r.error().str().find(fragment), std::string::npos)
        << "'" << r.error().str() << "' lacks '" << fragment << "'";
  };
  auto with = [&](const std::string& pointer, const json& v) {
    json j = good;
    j[json::json_pointer(pointer)] = v;
    return j;
  };
  expectError(json::array(), "must be a JSON object");
  expectError(json::parse(R"({"ins": []})"), "missing key \"outs\"");
  expectError(with("/extra", 1), "unknown key \"extra\"");
  expectError(with("/version", 2), "unsupported version");
  expectError(with("/description", 3), "description must be a string");
  expectError(with("/outs", json::object()), "outs: must be an array");
  expectError(with("/ins", 1), "ins: must be an array");
  expectError(with("/outs/0/size", 3), "not a power of two");
  expectError(with("/outs/0/size", 0), "positive");
  expectError(with("/outs/0/size", -2), "positive");
  expectError(with("/outs/0/size", 2.0), "must be an integer");
  expectError(with("/outs/0/size", "2"), "must be an integer");
  expectError(with("/outs/0/name", ""), "empty");
  expectError(with("/outs/0/name", "a b"), "characters");
  expectError(with("/outs/0/name", 7), "name must be a string");
  expectError(with("/outs/0/extra", 7), "unknown key");
  expectError(with("/ins/0/size", 4), "needs 2 bases");
  expectError(with("/ins/0/bases/0", json::array({1, 0})), "2 values but there are 1");
  expectError(with("/ins/0/bases/0/0", 2), "not below the size 2");
  expectError(with("/ins/0/bases/0/0", -1), "negative");
  expectError(with("/ins/0/bases/0/0", 0.5), "must be an integer");
  expectError(with("/ins/0/bases/0", 1), "must be an array");
  expectError(with("/ins/0/bases", 1), "must be an array of bases");
  EXPECT_TRUE(layoutFromJson(with("/ins/0/name", "o.k-_9")).ok());
  {
    json j = good;
    j["ins"].push_back(j["ins"][0]);
    expectError(j, "appears twice");
    json k = good;
    k["outs"].push_back(k["outs"][0]);
    expectError(k, "appears twice");
  }
  {
    json j = good;
    for (int i = 0; i <= kMaxDims; ++i)
      j["outs"].push_back({{"name", "o" + std::to_string(i)}, {"size", 1}});
    expectError(j, "at most");
  }
  // The error names the place: ins[0] (r).bases[0][0].
  auto r = layoutFromJson(with("/ins/0/bases/0/0", 2));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().where.find("ins[0]"), std::string::npos) << r.error().str();
}

TEST(Json, TextErrors) {
  auto bad = parseJsonText("{\"ins\": [,]}", "f.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().str().find("f.json:1:"), std::string::npos) << bad.error().str();
  auto lines = parseJsonText("{\n\n  \"ins\": x}", "f.json");
  ASSERT_FALSE(lines.ok());
  EXPECT_NE(lines.error().str().find("f.json:3:"), std::string::npos) << lines.error().str();
  std::string deep(kMaxJsonDepth + 2, '[');
  deep += std::string(kMaxJsonDepth + 2, ']');
  auto d = parseJsonText(deep, "deep.json");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().str().find("nested deeper"), std::string::npos) << d.error().str();
  EXPECT_FALSE(parseJsonText("", "empty.json").ok());
  EXPECT_TRUE(parseJsonText("{\"a\": [1, 2]}", "ok.json").ok());
}

} // namespace
} // namespace llcheck::test
