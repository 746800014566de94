// LinearLayout::create: from bases, with inferred or explicit output sizes.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

/// Random bases with raw values (no generator-side packing) on random shapes.
struct RawLayout {
  std::vector<DimBases> bases;
  std::vector<DimSize> outs;
};

RawLayout randomRaw(Gen& g) {
  Gen::Shape sh = g.shape(g.anyScheme(), g.range(0, 9), g.range(0, 10), 0);
  RawLayout r;
  r.outs = Gen::outDims(sh);
  for (const auto& [name, bits] : sh.ins) {
    DimBases db{name, {}};
    for (int i = 0; i < bits; ++i) {
      std::vector<uint64_t> v;
      for (const auto& o : sh.outs)
        v.push_back(g.value(o.second));
      db.bases.push_back(std::move(v));
    }
    r.bases.push_back(std::move(db));
  }
  return r;
}

TEST(Create, ExplicitSizesKeepTheBasesAndApplyXorsThem) {
  Gen g(101);
  for (int t = 0; t < kTrials; ++t) {
    RawLayout raw = randomRaw(g);
    auto l = LinearLayout::create(raw.bases, raw.outs, /*requireSurjective=*/false);
    LL_ASSERT_OK(l);
    EXPECT_EQ(l->getBases(), raw.bases);
    EXPECT_EQ(l->getOutDims(), raw.outs);
    // The defining property: L(x) is the XOR of the given bases of x's set bits.
    Ref ref(raw.bases, raw.outs);
    for (uint64_t f = 0; f < ref.numInputs(); ++f)
      ASSERT_EQ(l->apply(ref.inPoint(f)).value(), ref.evalPoint(f)) << l->toString();
  }
}

TEST(Create, RequireSurjectiveAcceptsExactlyTheSurjectiveOnes) {
  Gen g(102);
  int surjective = 0;
  for (int t = 0; t < kTrials; ++t) {
    RawLayout raw = randomRaw(g);
    bool brute = bruteSurjective(Ref(raw.bases, raw.outs));
    surjective += brute;
    auto l = LinearLayout::create(raw.bases, raw.outs, /*requireSurjective=*/true);
    EXPECT_EQ(l.ok(), brute);
    if (!l.ok()) {
      EXPECT_NE(l.error().str().find("not surjective"), std::string::npos) << l.error().str();
    }
  }
  EXPECT_GT(surjective, 10); // both outcomes are exercised
  EXPECT_LT(surjective, kTrials - 10);
}

TEST(Create, InferredSizesAreTheNextPowerOfTwoAboveTheLargestValue) {
  Gen g(103);
  int accepted = 0;
  for (int t = 0; t < kTrials; ++t) {
    // Mostly surjective layouts, which the inferred form accepts, and some arbitrary ones.
    std::vector<DimBases> bases;
    std::vector<DimName> outNames;
    if (t % 3 == 0) {
      RawLayout raw = randomRaw(g);
      bases = raw.bases;
      outNames = namesOf(raw.outs);
    } else {
      LinearLayout src = t % 3 == 1 ? g.surjective(9) : g.distributed(9);
      bases = src.getBases();
      outNames = src.getOutDimNames();
    }
    auto l = LinearLayout::create(bases, outNames);
    // Brute force: the inferred size of out dim k is the smallest power of two above every
    // value dim k takes over all inputs.
    std::vector<DimSize> big;
    for (DimName n : outNames)
      big.push_back({n, uint64_t{1} << 20});
    Ref ref(bases, big);
    std::vector<uint64_t> maxValue(outNames.size(), 0);
    for (uint64_t f = 0; f < ref.numInputs(); ++f) {
      std::vector<uint64_t> y = ref.eval(ref.unflattenIn(f));
      for (std::size_t k = 0; k < y.size(); ++k)
        maxValue[k] = std::max(maxValue[k], y[k]);
    }
    std::vector<DimSize> expected;
    for (std::size_t k = 0; k < outNames.size(); ++k) {
      uint64_t size = 1;
      while (size <= maxValue[k])
        size *= 2;
      expected.push_back({outNames[k], size});
    }
    bool surjective = bruteSurjective(Ref(bases, expected));
    ASSERT_EQ(l.ok(), surjective);
    if (l.ok()) {
      ++accepted;
      EXPECT_EQ(l->getOutDims(), expected);
      EXPECT_EQ(l->getBases(), bases);
    }
  }
  EXPECT_GT(accepted, kTrials / 2);
}

TEST(Create, InferredFormRequiresSurjectivity) {
  // Values 0 and 2 only: dim0 inferred as size 4, but 1 and 3 are never reached.
  auto l = LinearLayout::create({{S("a"), {{2}}}}, {S("dim0")});
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().str().find("not surjective"), std::string::npos);
  // A dimension no basis reaches is inferred as size 1.
  auto z = LinearLayout::create({{S("a"), {{1, 0}}}}, {S("dim0"), S("dim1")});
  LL_ASSERT_OK(z);
  EXPECT_EQ(z->getOutDimSize(S("dim1")), 1u);
  // Seed 001's swizzle: sizes 4 and 4.
  auto s = LinearLayout::create({{S("thread"), {{1, 1}, {2, 2}}}, {S("warp"), {{0, 1}, {0, 2}}}},
                                {S("dim0"), S("dim1")});
  LL_ASSERT_OK(s);
  EXPECT_EQ(s->getOutDims(), (std::vector<DimSize>{{S("dim0"), 4}, {S("dim1"), 4}}));
}

TEST(Create, SizeOneInputDimsAndNoDims) {
  auto l = LinearLayout::create({{S("a"), {}}, {S("b"), {{1}}}}, {{S("o"), 2}}, true);
  LL_ASSERT_OK(l);
  EXPECT_EQ(l->getInDimNames(), (std::vector<DimName>{S("a"), S("b")}));
  EXPECT_EQ(l->getInDimSize(S("a")), 1u);
  EXPECT_EQ(l->apply({{S("a"), 0}, {S("b"), 1}}).value(), (Point{{S("o"), 1}}));
  auto e = LinearLayout::create(std::vector<DimBases>{}, std::vector<DimSize>{}, true);
  LL_ASSERT_OK(e);
  EXPECT_EQ(*e, LinearLayout::empty());
  // Output dims but no input dims: surjective only if every output dim has size 1.
  EXPECT_TRUE(LinearLayout::create({}, {{S("o"), 1}}, true).ok());
  EXPECT_FALSE(LinearLayout::create({}, {{S("o"), 2}}, true).ok());
  EXPECT_TRUE(LinearLayout::create({}, {{S("o"), 2}}, false).ok());
}

TEST(Create, ErrorCases) {
  auto expectError = [](const Result<LinearLayout>& r, const std::string& fragment) {
    ASSERT_FALSE(r.ok()) << r->toString();
    EXPECT_NE(r.error().str().find(fragment), std::string::npos)
        << "'" << r.error().str() << "' lacks '" << fragment << "'";
  };
  // Output sizes must be powers of two.
  for (uint64_t bad : {uint64_t{0}, uint64_t{3}, uint64_t{12}})
    expectError(LinearLayout::create({{S("a"), {{1}}}}, {{S("o"), bad}}, false), "power of two");
  // Every value below its output dim's size.
  expectError(LinearLayout::create({{S("a"), {{4}}}}, {{S("o"), 4}}, false), "not below");
  expectError(LinearLayout::create({{S("a"), {{1, 0}, {0, 8}}}}, {{S("o"), 4}, {S("p"), 8}}, false),
              "basis 1");
  // Wrong arity: one value per output dim.
  expectError(LinearLayout::create({{S("a"), {{1}}}}, {{S("o"), 4}, {S("p"), 4}}, false),
              "values but there are 2 output dimensions");
  expectError(LinearLayout::create({{S("a"), {{1, 0, 0}}}}, {{S("o"), 4}, {S("p"), 4}}, false),
              "3 values");
  expectError(LinearLayout::create({{S("a"), {{1, 0}}}}, {S("o")}), "values");
  // Duplicate names.
  expectError(LinearLayout::create({{S("a"), {{1}}}, {S("a"), {{2}}}}, {{S("o"), 4}}, false),
              "appears twice");
  expectError(LinearLayout::create({{S("a"), {{1, 0}}}}, {{S("o"), 2}, {S("o"), 2}}, false),
              "appears twice");
  // The empty name is never a dimension.
  expectError(LinearLayout::create({{DimName(), {{1}}}}, {{S("o"), 2}}, false), "empty name");
  // More than 64 input bits in total.
  {
    std::vector<std::vector<uint64_t>> zeros(33, std::vector<uint64_t>{0});
    expectError(LinearLayout::create({{S("a"), zeros}, {S("b"), zeros}}, {{S("o"), 1}}, false),
                "64");
    std::vector<std::vector<uint64_t>> z32(32, std::vector<uint64_t>{0});
    EXPECT_TRUE(LinearLayout::create({{S("a"), z32}, {S("b"), z32}}, {{S("o"), 1}}, false).ok());
  }
  // More than 63 bases in one dimension.
  {
    std::vector<std::vector<uint64_t>> zeros(64, std::vector<uint64_t>{0});
    expectError(LinearLayout::create({{S("a"), zeros}}, {{S("o"), 1}}, false), "63");
  }
  // More than 64 output bits in total.
  expectError(LinearLayout::create({{S("a"), {{0, 0}}}},
                                   {{S("o"), uint64_t{1} << 40}, {S("p"), uint64_t{1} << 30}},
                                   false),
              "64");
  // More than kMaxDims dimensions.
  {
    std::vector<DimBases> many;
    for (int i = 0; i <= kMaxDims; ++i)
      many.push_back({DimName("d" + std::to_string(i)), {}});
    expectError(LinearLayout::create(many, {{S("o"), 1}}, false), "at most");
  }
}

TEST(Create, FromColumnsUsesThePackedForm) {
  // Two output dims of 2 and 3 bits: packed bit 2 is dim1's bit 0.
  Dim ins[] = {{S("a"), 2}};
  Dim outs[] = {{S("o"), 2}, {S("p"), 3}};
  uint64_t cols[] = {0b00101, 0b10010};
  auto l = LinearLayout::fromColumns(ins, outs, cols);
  LL_ASSERT_OK(l);
  EXPECT_EQ(l->getBasis(S("a"), 0), (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(l->getBasis(S("a"), 1), (std::vector<uint64_t>{2, 4}));
  EXPECT_EQ(l->getBasis(S("a"), 1, S("p")), 4u);
  // A column with bits beyond the outputs, or the wrong number of columns, is refused.
  uint64_t tooWide[] = {0b100000, 0};
  EXPECT_FALSE(LinearLayout::fromColumns(ins, outs, tooWide).ok());
  EXPECT_FALSE(LinearLayout::fromColumns(ins, outs, std::span<const uint64_t>(cols, 1)).ok());
}

} // namespace
} // namespace llcheck::test
