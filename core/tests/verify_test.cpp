// verify(): every property, by the algebra and by enumeration, with checked counterexamples.
#include "TestLayouts.h"

#include "llcheck/core/Properties.h"

#include <set>

namespace llcheck::test {
namespace {

using nlohmann::json;

/// An input point of `l` from a counterexample's JSON object (keys are dim names).
Point pointFromJson(const LinearLayout& l, const json& j) {
  Point p;
  for (DimName d : l.getInDimNames())
    p.emplace_back(d, j.at(d.str()).get<uint64_t>());
  EXPECT_EQ(j.size(), p.size());
  return p;
}

/// Definition 4.10's and 4.14's column conditions, on the columns of the table.
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

TEST(Verify, PropertiesAndCounterexamplesOnRandomLayouts) {
  Gen g(2901);
  int failures[5] = {};
  for (int t = 0; t < 2 * kTrials; ++t) {
    LinearLayout l = g.any();
    auto report = verify(l, {});
    LL_ASSERT_OK(report);
    EXPECT_TRUE(report->disagreements.empty()) << report->disagreements[0];
    EXPECT_TRUE(report->enumerationSkipped.empty());
    EXPECT_EQ(report->layout, l);
    Ref r(l);
    std::vector<uint64_t> table = r.table();
    std::set<uint64_t> reached(table.begin(), table.end());
    bool inj = reached.size() == table.size(), surj = reached.size() == r.numOutputs();
    Columns cols = columnsOf(r);
    LayoutKind kind = classify(l);
    EXPECT_EQ(report->kind, kind);
    std::map<std::string, bool> expected = {
        {"injective", inj},
        {"surjective", surj},
        {"invertible", inj && surj},
        {"distributed",
         kind == LayoutKind::Distributed && surj && cols.atMostOneBit && cols.noRepeat},
        {"memory", kind == LayoutKind::Memory && inj && surj && cols.oneOrTwoBits}};
    ASSERT_EQ(report->properties.size(), 5u);
    bool ok = true;
    for (std::size_t i = 0; i < 5; ++i) {
      const PropertyResult& p = report->properties[i];
      EXPECT_EQ(p.property, allProperties()[i]);
      ASSERT_EQ(p.holds, expected.at(p.name())) << p.name() << l.toString();
      EXPECT_EQ(p.required,
                (p.property == Property::Distributed && kind == LayoutKind::Distributed) ||
                    (p.property == Property::Memory && kind == LayoutKind::Memory));
      EXPECT_EQ(p.counterexample.is_null(), p.holds) << p.name();
      if (!p.holds) {
        ++failures[i];
        EXPECT_FALSE(p.detail.empty());
      }
      if (p.property == Property::Injective || p.property == Property::Surjective ||
          p.property == Property::Invertible) {
        EXPECT_EQ(p.by, (std::vector<std::string>{"algebra", "enumeration"}));
      }
      ok = ok && (!p.required || p.holds);
    }
    EXPECT_EQ(report->ok(), ok);
    // The injectivity counterexample: two different inputs that really collide.
    const PropertyResult& pi = *report->find(Property::Injective);
    if (!pi.holds) {
      Point a = pointFromJson(l, pi.counterexample["inputs"][0]);
      Point b = pointFromJson(l, pi.counterexample["inputs"][1]);
      EXPECT_NE(a, b);
      Point ya = l.apply(a).value();
      EXPECT_EQ(ya, l.apply(b).value());
      for (const auto& [name, v] : ya)
        EXPECT_EQ(pi.counterexample["output"].at(name.str()).get<uint64_t>(), v);
    }
    // The surjectivity counterexample: an output no input reaches.
    const PropertyResult& ps = *report->find(Property::Surjective);
    if (!ps.holds) {
      std::vector<uint64_t> y;
      for (const DimSize& o : l.getOutDims())
        y.push_back(ps.counterexample["output"].at(o.name.str()).get<uint64_t>());
      EXPECT_FALSE(reached.count(r.flattenOut(y)));
    }
    // A legality counterexample names a column that breaks the rule.
    for (Property property : {Property::Distributed, Property::Memory}) {
      const PropertyResult& p = *report->find(property);
      if (p.holds || !p.counterexample.contains("input_dim"))
        continue;
      const json& cx = p.counterexample;
      DimName d(cx["input_dim"].get<std::string>());
      int basis = cx["basis"].get<int>();
      std::vector<uint64_t> value = cx["value"].get<std::vector<uint64_t>>();
      EXPECT_EQ(value, l.getBasis(d, basis));
      uint64_t flat = 0, m = 1;
      for (std::size_t k = 0; k < value.size(); ++k) {
        flat += value[k] * m;
        m *= l.getOutDims()[k].size;
      }
      int bits = std::popcount(flat);
      if (property == Property::Memory) {
        EXPECT_TRUE(bits == 0 || bits > 2) << cx.dump();
      } else if (bits <= 1) { // a repeated non-zero column
        int repeats = 0;
        for (const DimBases& db : l.getBases())
          for (const auto& b : db.bases)
            repeats += b == value;
        EXPECT_GT(repeats, 1) << cx.dump();
        EXPECT_GT(bits, 0);
      }
    }
    // Free variables and contiguity agree with the algebra.
    EXPECT_EQ(report->freeVariables, l.getFreeVariableMasks());
    ASSERT_EQ(report->contiguity.size(), static_cast<std::size_t>(l.getNumOutDims()));
    if (l.getNumOutDims() > 0) {
      EXPECT_EQ(report->contiguity[0].second, l.getNumConsecutiveInOut());
    }
  }
  for (int f : failures)
    EXPECT_GT(f, 10); // every property fails sometimes
}

TEST(Verify, Classify) {
  auto kindOf = [](std::vector<const char*> names) {
    LinearLayout l = LinearLayout::empty();
    for (const char* n : names)
      l *= identity1D(2, S(n), S("dim0"));
    return classify(l);
  };
  EXPECT_EQ(kindOf({"register", "lane", "warp", "block"}), LayoutKind::Distributed);
  EXPECT_EQ(kindOf({"lane"}), LayoutKind::Distributed);
  EXPECT_EQ(kindOf({"warp", "block"}), LayoutKind::Distributed);
  EXPECT_EQ(kindOf({"block"}), LayoutKind::Generic);
  EXPECT_EQ(kindOf({"offset"}), LayoutKind::Memory);
  EXPECT_EQ(kindOf({"offset", "block"}), LayoutKind::Memory);
  EXPECT_EQ(kindOf({"offset", "register"}), LayoutKind::Generic);
  EXPECT_EQ(kindOf({"register", "x"}), LayoutKind::Generic);
  EXPECT_EQ(kindOf({"thread", "warp"}), LayoutKind::Generic);
  EXPECT_EQ(kindOf({}), LayoutKind::Generic);
  EXPECT_STREQ(kindName(LayoutKind::Distributed), "distributed");
  EXPECT_STREQ(kindName(LayoutKind::Memory), "memory");
  EXPECT_STREQ(kindName(LayoutKind::Generic), "generic");
}

TEST(Verify, RequiredProperties) {
  LinearLayout broadcast =
      identity1D(4, S("register"), S("dim0")) * zeros1D(2, S("lane"), S("dim0"));
  auto plain = verify(broadcast, {});
  LL_ASSERT_OK(plain);
  EXPECT_TRUE(plain->ok()); // distributed holds, injectivity is not required
  EXPECT_FALSE(plain->find(Property::Injective)->holds);
  VerifyOptions o;
  o.require = {Property::Injective};
  auto required = verify(broadcast, o);
  LL_ASSERT_OK(required);
  EXPECT_TRUE(required->find(Property::Injective)->required);
  EXPECT_FALSE(required->ok());
  o.require = {Property::Memory};
  EXPECT_FALSE(verify(broadcast, o)->ok());
  // Names are parsed by the front ends; an unknown one is an error naming the known ones.
  EXPECT_FALSE(parseProperty("fast").has_value());
  EXPECT_EQ(parseProperty("memory"), Property::Memory);
  for (Property p : allProperties())
    EXPECT_EQ(parseProperty(propertyName(p)), p);
  EXPECT_EQ(unknownPropertyError("fast", "--require").str(),
            "--require: unknown property 'fast' (known: injective, surjective, invertible, "
            "distributed, memory)");
  // A generic layout requires nothing.
  auto generic = verify(zeros1D(4, S("x"), S("dim0"), 4), {});
  LL_ASSERT_OK(generic);
  EXPECT_TRUE(generic->ok());
  for (const PropertyResult& p : generic->properties)
    EXPECT_FALSE(p.required);
}

TEST(Verify, WithoutEnumeration) {
  VerifyOptions o;
  o.maxEnumerationBits = 2;
  auto r = verify(identity1D(16, S("register"), S("dim0")), o);
  LL_ASSERT_OK(r);
  EXPECT_FALSE(r->enumerationSkipped.empty());
  EXPECT_EQ(r->find(Property::Injective)->by, std::vector<std::string>{"algebra"});
  EXPECT_TRUE(r->ok());
  // 64-bit layouts are checked by the algebra alone.
  LinearLayout big = identity1D(uint64_t{1} << 32, S("register"), S("dim0")) *
                     identity1D(uint64_t{1} << 32, S("lane"), S("dim1"));
  auto b = verify(big, {});
  LL_ASSERT_OK(b);
  EXPECT_TRUE(b->find(Property::Invertible)->holds);
  EXPECT_TRUE(b->find(Property::Distributed)->holds);
  EXPECT_FALSE(b->enumerationSkipped.empty());
}

TEST(Verify, ReportForms) {
  LinearLayout l =
      LinearLayout::create({{S("register"), {{1}, {1}}}}, {{S("dim0"), 4}}, false).value();
  auto r = verify(l, {});
  LL_ASSERT_OK(r);
  EXPECT_FALSE(r->ok());
  json j = toJson(*r);
  EXPECT_EQ(j["kind"], "distributed");
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["properties"]["injective"]["counterexample"]["inputs"],
            json::parse(R"([{"register": 1}, {"register": 2}])"));
  EXPECT_EQ(j["properties"]["surjective"]["counterexample"]["output"],
            json::parse(R"({"dim0": 2})"));
  EXPECT_EQ(j["free_variables"]["masks"]["register"], 2);
  std::string text = toText(*r, "t");
  EXPECT_NE(text.find("t: distributed layout"), std::string::npos) << text;
  EXPECT_NE(text.find("verdict: FAILED"), std::string::npos) << text;
  EXPECT_EQ(describePoint({{S("register"), 4}, {S("lane"), 0}}), "register 4, lane 0");
  EXPECT_EQ(describePoint({}), "(the only input)");
  EXPECT_EQ(describeOutput({{S("dim0"), 3}, {S("dim1"), 4}}), "(3, 4)");
}

} // namespace
} // namespace llcheck::test
