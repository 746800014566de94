// EnumeratedLayout: the brute-force second opinion, on hand-computed cases and against the
// definitions of its queries.
#include "TestLayouts.h"

#include "llcheck/core/Enumeration.h"

#include <bit>
#include <random>
#include <set>

namespace llcheck::test {
namespace {

TEST(Enumeration, HandComputedRepeatedColumn) {
  // register 1 and register 2 both hold element 1: table 0, 1, 1, 0.
  auto e = EnumeratedLayout::build({{S("register"), {{1}, {1}}}}, {{S("dim0"), 4}});
  LL_ASSERT_OK(e);
  EXPECT_EQ(e->numInputs(), 4u);
  EXPECT_EQ(e->totalOutputs(), 4u);
  std::vector<uint64_t> table;
  for (uint64_t x = 0; x < 4; ++x)
    table.push_back(e->valueAt(x));
  EXPECT_EQ(table, (std::vector<uint64_t>{0, 1, 1, 0}));
  EXPECT_EQ(e->firstCollision(), (std::pair<uint64_t, uint64_t>{1, 2}));
  EXPECT_EQ(e->smallestMissingOutput(), 2u);
  EXPECT_EQ(e->freeVariableMasks(), std::vector<uint64_t>{0b10});
  EXPECT_EQ(e->numConsecutiveInOut(), 1u);
  EXPECT_EQ(e->inDims(), (std::vector<DimSize>{{S("register"), 4}}));
}

TEST(Enumeration, HandComputedTwoOutputDims) {
  // (register, lane) -> (dim0 of 2, dim1 of 4): flat output = dim0 + 2 * dim1.
  auto e = EnumeratedLayout::build({{S("register"), {{1, 0}, {0, 1}}}, {S("lane"), {{0, 2}}}},
                                   {{S("dim0"), 2}, {S("dim1"), 4}});
  LL_ASSERT_OK(e);
  for (uint64_t x = 0; x < 8; ++x)
    EXPECT_EQ(e->valueAt(x), x);
  EXPECT_EQ(e->firstCollision(), std::nullopt);
  EXPECT_EQ(e->smallestMissingOutput(), std::nullopt);
  EXPECT_EQ(e->freeVariableMasks(), (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(e->numConsecutiveInOut(0), 2u); // registers 0, 1 are dim0 0, 1
  EXPECT_EQ(e->numConsecutiveInOut(1), 1u); // register 1 does not move along dim1
}

TEST(Enumeration, HandComputedMisc) {
  // Strided: every other output is missed.
  auto s = EnumeratedLayout::build(strided1D(4, 2, S("i"), S("o")));
  LL_ASSERT_OK(s);
  EXPECT_EQ(s->smallestMissingOutput(), 1u);
  EXPECT_EQ(s->firstCollision(), std::nullopt);
  // No output dims: everything collides with input 0, nothing is missed.
  auto z = EnumeratedLayout::build({{S("i"), {{}, {}}}}, {});
  LL_ASSERT_OK(z);
  EXPECT_EQ(z->totalOutputs(), 1u);
  EXPECT_EQ(z->firstCollision(), (std::pair<uint64_t, uint64_t>{0, 1}));
  EXPECT_EQ(z->smallestMissingOutput(), std::nullopt);
  EXPECT_EQ(z->freeVariableMasks(), std::vector<uint64_t>{0b11});
  EXPECT_EQ(z->numConsecutiveInOut(), 1u);
  // A vector of 4 registers.
  auto v = EnumeratedLayout::build(identity1D(4, S("register"), S("dim0")) *
                                   identity1D(8, S("lane"), S("dim0")));
  LL_ASSERT_OK(v);
  EXPECT_EQ(v->numConsecutiveInOut(), 4u);
  // The empty layout: one input, one output.
  auto e = EnumeratedLayout::build(LinearLayout::empty());
  LL_ASSERT_OK(e);
  EXPECT_EQ(e->numInputs(), 1u);
  EXPECT_EQ(e->firstCollision(), std::nullopt);
  EXPECT_EQ(e->smallestMissingOutput(), std::nullopt);
}

TEST(Enumeration, RefusesLayoutsAboveTheLimit) {
  LinearLayout l = identity1D(16, S("i"), S("o"));
  EXPECT_TRUE(EnumeratedLayout::build(l, 4).ok());
  auto r = EnumeratedLayout::build(l, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("enumeration limit"), std::string::npos) << r.error().str();
}

TEST(Enumeration, QueriesMatchTheirDefinitions) {
  Gen g(2801);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any(8);
    auto e = EnumeratedLayout::build(l);
    LL_ASSERT_OK(e);
    Ref r(l);
    std::vector<uint64_t> table = r.table();
    ASSERT_EQ(e->numInputs(), table.size());
    for (uint64_t x = 0; x < table.size(); ++x)
      ASSERT_EQ(e->valueAt(x), table[x]);
    // firstCollision: x1 < x2 with equal values, x2 as small as possible.
    std::optional<std::pair<uint64_t, uint64_t>> collision;
    for (uint64_t x2 = 0; x2 < table.size() && !collision; ++x2)
      for (uint64_t x1 = 0; x1 < x2 && !collision; ++x1)
        if (table[x1] == table[x2])
          collision = std::make_pair(x1, x2);
    EXPECT_EQ(e->firstCollision(), collision);
    // smallestMissingOutput: the smallest flat output nobody reaches.
    std::set<uint64_t> reached(table.begin(), table.end());
    std::optional<uint64_t> missing;
    for (uint64_t y = 0; y < r.numOutputs() && !missing; ++y)
      if (!reached.count(y))
        missing = y;
    EXPECT_EQ(e->smallestMissingOutput(), missing);
    EXPECT_EQ(e->totalOutputs(), r.numOutputs());
    // freeVariableMasks and numConsecutiveInOut against the algebra, which their own tests
    // check against the definitions.
    std::vector<uint64_t> masks;
    for (const auto& [d, m] : l.getFreeVariableMasks())
      masks.push_back(m);
    EXPECT_EQ(e->freeVariableMasks(), masks);
    std::vector<DimName> outs = l.getOutDimNames();
    for (std::size_t k = 0; k < outs.size(); ++k) {
      std::vector<DimName> order = {outs[k]};
      for (std::size_t m = 0; m < outs.size(); ++m)
        if (m != k)
          order.push_back(outs[m]);
      EXPECT_EQ(e->numConsecutiveInOut(k), l.transposeOuts(order).value().getNumConsecutiveInOut());
    }
  }
}

TEST(Enumeration, WideOutputSpacesGiveTheSameAnswers) {
  // More than 2^30 outputs: the queries cannot keep a bitmap of the outputs and sort instead.
  Gen g(2802);
  for (int t = 0; t < kTrials / 2; ++t) {
    LinearLayout l = g.any(8) * zeros1D(1, S("pad"), S("wide"), uint64_t{1} << 40);
    auto e = EnumeratedLayout::build(l);
    LL_ASSERT_OK(e);
    Ref r(l);
    std::vector<uint64_t> table = r.table();
    std::optional<std::pair<uint64_t, uint64_t>> collision;
    for (uint64_t x2 = 0; x2 < table.size() && !collision; ++x2)
      for (uint64_t x1 = 0; x1 < x2 && !collision; ++x1)
        if (table[x1] == table[x2])
          collision = std::make_pair(x1, x2);
    EXPECT_EQ(e->firstCollision(), collision) << l.toString();
    std::set<uint64_t> reached(table.begin(), table.end());
    uint64_t missing = 0;
    while (reached.count(missing))
      ++missing;
    EXPECT_EQ(e->smallestMissingOutput(), missing);
  }
  // Outputs of 2^64 and more: nothing can be missing beyond what the inputs cover.
  LinearLayout huge = identity1D(4, S("i"), S("o")) *
                      zeros1D(1, S("pad"), S("w1"), uint64_t{1} << 40) *
                      zeros1D(1, S("pad2"), S("w2"), uint64_t{1} << 22);
  auto h = EnumeratedLayout::build(huge);
  LL_ASSERT_OK(h);
  EXPECT_EQ(h->totalOutputs(), 0u); // 2^64: saturated
  EXPECT_EQ(h->smallestMissingOutput(), 4u);
  EXPECT_EQ(h->firstCollision(), std::nullopt);
}

TEST(Enumeration, DenseWideValuesWithinAnyMemoryBudget) {
  // Columns with many bits set in 64 output bits: no bitmap can hold the values, so collisions
  // are found with sets of values, group by group, split further when a group is too big. Small
  // budgets force many groups and splits; the answers must not change.
  std::mt19937_64 rng(2803);
  for (int t = 0; t < kTrials; ++t) {
    int bits = 1 + static_cast<int>(rng() % 10);
    std::vector<std::vector<uint64_t>> cols;
    std::vector<uint64_t> flat;
    for (int i = 0; i < bits; ++i) {
      uint64_t v = rng();
      if (rng() % 5 == 0) // a repeated column or a combination: collisions
        v = flat.empty() ? 0 : flat[rng() % flat.size()] ^ (rng() % 2 ? flat[0] : 0);
      flat.push_back(v);
      cols.push_back({v & 0xffffffffu, v >> 32});
    }
    std::vector<DimSize> outs = {{S("dim0"), uint64_t{1} << 32}, {S("dim1"), uint64_t{1} << 32}};
    std::vector<uint64_t> table(uint64_t{1} << bits, 0);
    for (uint64_t x = 1; x < table.size(); ++x)
      table[x] = table[x & (x - 1)] ^ flat[static_cast<std::size_t>(std::countr_zero(x))];
    std::optional<std::pair<uint64_t, uint64_t>> collision;
    for (uint64_t x2 = 0; x2 < table.size() && !collision; ++x2)
      for (uint64_t x1 = 0; x1 < x2 && !collision; ++x1)
        if (table[x1] == table[x2])
          collision = std::make_pair(x1, x2);
    std::set<uint64_t> reached(table.begin(), table.end());
    uint64_t missing = 0;
    while (reached.count(missing))
      ++missing;
    for (uint64_t budget : {uint64_t{16}, uint64_t{64}, uint64_t{1024}, kEnumerationMemoryBytes}) {
      auto e = EnumeratedLayout::build({{S("register"), cols}}, outs);
      LL_ASSERT_OK(e);
      e->setMemoryBudget(budget);
      EXPECT_EQ(e->totalOutputs(), 0u);
      for (uint64_t x = 0; x < table.size(); ++x)
        ASSERT_EQ(e->valueAt(x), table[x]);
      EXPECT_EQ(e->firstCollision(), collision) << "budget " << budget << ", trial " << t;
      EXPECT_EQ(e->smallestMissingOutput(), missing) << "budget " << budget;
    }
  }
}

TEST(Enumeration, ReportsProgress) {
  // 2^21 inputs: progress every 2^20 steps of each pass.
  auto e = EnumeratedLayout::build(identity1D(uint64_t{1} << 21, S("register"), S("dim0")), 21);
  LL_ASSERT_OK(e);
  std::set<std::string> phases;
  uint64_t calls = 0;
  e->setProgress([&](std::string_view what, uint64_t done, uint64_t total) {
    phases.insert(std::string(what));
    EXPECT_LE(done, total);
    ++calls;
  });
  EXPECT_EQ(e->firstCollision(), std::nullopt);
  EXPECT_EQ(e->smallestMissingOutput(), std::nullopt);
  EXPECT_GE(calls, 4u);
  EXPECT_EQ(phases, (std::set<std::string>{"injectivity", "surjectivity"}));
}

} // namespace
} // namespace llcheck::test
