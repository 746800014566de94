// planGather against brute force: for every element a thread holds, every element of its axis
// line is looked up among the locations of the same warp ("within a warp"), and the lanes
// holding them, counted once per distinct register contents, are the rounds a thread needs.
#include "TestLayouts.h"

#include "llcheck/core/conversion/Gather.h"

#include <iostream>
#include <map>
#include <set>

namespace llcheck::test {
namespace {

struct Brute {
  bool withinWarp = true;
  uint64_t minRounds = ~uint64_t{0}, maxRounds = 0;
};

/// Layout with in-dims (register, lane, warp, block), in that order.
Brute bruteGather(const LinearLayout& l, int axisIndex) {
  Ref r(l);
  uint64_t regs = r.ins()[0].size, lanes = r.ins()[1].size, warps = r.ins()[2].size,
           blocks = r.ins()[3].size, axisSize = r.outs()[axisIndex].size;
  Brute b;
  for (uint64_t blk = 0; blk < blocks; ++blk)
    for (uint64_t w = 0; w < warps; ++w) {
      // What each lane of this warp holds, and which lanes hold each element.
      std::vector<std::set<std::vector<uint64_t>>> held(lanes);
      std::map<std::vector<uint64_t>, std::vector<uint64_t>> holders;
      for (uint64_t t = 0; t < lanes; ++t)
        for (uint64_t reg = 0; reg < regs; ++reg) {
          std::vector<uint64_t> y = r.eval({reg, t, w, blk});
          held[t].insert(y);
          holders[y].push_back(t);
        }
      for (uint64_t t = 0; t < lanes; ++t) {
        std::set<uint64_t> sources;
        for (const std::vector<uint64_t>& y : held[t])
          for (uint64_t a = 0; a < axisSize; ++a) {
            std::vector<uint64_t> other = y;
            other[axisIndex] = a;
            auto it = holders.find(other);
            if (it == holders.end()) {
              b.withinWarp = false;
              continue;
            }
            sources.insert(it->second.begin(), it->second.end());
          }
        // Lanes with the same contents (broadcast) are one source.
        std::set<std::set<std::vector<uint64_t>>> distinct;
        for (uint64_t s : sources)
          distinct.insert(held[s]);
        b.minRounds = std::min<uint64_t>(b.minRounds, distinct.size());
        b.maxRounds = std::max<uint64_t>(b.maxRounds, distinct.size());
      }
    }
  return b;
}

/// Random (register, lane, warp, block) -> dim0.. layout: each tensor bit in one column, the
/// other columns zero (broadcast); with `mixed`, some columns get another column added (still
/// surjective, but a column may then span two tensor bits, even two dims).
LinearLayout randomLayout(Gen& g, bool mixed, int& numDims) {
  int regBits = g.range(0, 3), laneBits = g.range(0, 5), warpBits = g.range(0, 2),
      blockBits = g.range(0, 1);
  int total = regBits + laneBits + warpBits + blockBits;
  int d = g.range(std::max(0, total - 3), total);
  numDims = g.range(1, 3);
  std::vector<int> dimBits = g.split(d, static_cast<std::size_t>(numDims));
  std::vector<uint64_t> cols(static_cast<std::size_t>(total), 0);
  for (int p = 0; p < d; ++p)
    cols[p] = uint64_t{1} << p;
  g.shuffle(cols);
  if (mixed)
    for (int step = 0; step < 2 && total > 1; ++step) {
      std::size_t i = g.below(total), j = g.below(total);
      if (i != j)
        cols[j] ^= cols[i];
    }
  std::vector<DimSize> outs;
  for (int k = 0; k < numDims; ++k)
    outs.push_back({dims::standardOut(k), uint64_t{1} << dimBits[k]});
  std::vector<DimBases> bases;
  int j = 0;
  for (auto [name, n] : std::vector<std::pair<const char*, int>>{
           {"register", regBits}, {"lane", laneBits}, {"warp", warpBits}, {"block", blockBits}}) {
    DimBases db{S(name), {}};
    for (int i = 0; i < n; ++i, ++j) {
      std::vector<uint64_t> v;
      int off = 0;
      for (int k = 0; k < numDims; ++k) {
        v.push_back((cols[j] >> off) & ((uint64_t{1} << dimBits[k]) - 1));
        off += dimBits[k];
      }
      db.bases.push_back(v);
    }
    bases.push_back(db);
  }
  return LinearLayout::create(bases, outs, true).value();
}

TEST(Gather, matchesBruteForce) {
  Gen g(5505);
  int within = 0, across = 0, multiRound = 0, broadcastLanes = 0;
  for (int i = 0; i < 400; ++i) {
    bool mixed = i % 4 == 3;
    int numDims = 1;
    LinearLayout l = randomLayout(g, mixed, numDims);
    int axis = g.range(0, numDims - 1);
    auto plan = planGather(l, axis);
    ASSERT_TRUE(plan.ok()) << plan.error().str();
    int axisIndex = l.outDimIndex(dims::standardOut(axis));
    Brute b = bruteGather(l, axisIndex);
    ASSERT_EQ(plan->withinWarp, b.withinWarp) << l.toString() << "\naxis " << axis;
    if (!mixed) {
      // The paper's tests, exact for distributed layouts.
      EXPECT_EQ(plan->withinWarp, plan->warpBits.empty() && plan->blockBits.empty())
          << l.toString();
      if (plan->withinWarp) {
        EXPECT_EQ(plan->rounds, uint64_t{1} << plan->laneBits.size()) << l.toString();
      }
    }
    if (b.withinWarp) {
      ASSERT_EQ(b.minRounds, b.maxRounds) << l.toString();
      ASSERT_EQ(plan->rounds, b.maxRounds) << l.toString() << "\naxis " << axis;
      ++within;
      multiRound += plan->rounds > 1;
    } else {
      EXPECT_EQ(plan->rounds, 0u);
      ++across;
    }
    for (int lb = 0; lb < l.getInDimSizeLog2(S("lane")); ++lb)
      if (l.getBasis(S("lane"), lb) == std::vector<uint64_t>(numDims, 0)) {
        ++broadcastLanes;
        break;
      }
  }
  EXPECT_GE(within, 100);
  EXPECT_GE(across, 60);
  EXPECT_GE(multiRound, 60);
  EXPECT_GE(broadcastLanes, 60);
  std::cout << "400 layouts: " << within << " within a warp (" << multiRound
            << " with several rounds), " << across << " across warps, " << broadcastLanes
            << " broadcasting lanes\n";
}

// Section 5.5's example shape: 32 lanes along the axis in two 16-lane halves, 4 registers.
TEST(Gather, laneAndRegisterBitsAlongTheAxis) {
  // register -> dim0 bits 0, 1; lanes 0..3 -> dim0 bits 2..5; lane 4 -> dim1; warp -> dim1.
  LinearLayout l = LinearLayout::create({{S("register"), {{1, 0}, {2, 0}}},
                                         {S("lane"), {{4, 0}, {8, 0}, {16, 0}, {32, 0}, {0, 1}}},
                                         {S("warp"), {{0, 2}}}},
                                        {{S("dim0"), 64}, {S("dim1"), 4}}, true)
                       .value();
  auto along0 = planGather(l, 0);
  LL_ASSERT_OK(along0);
  EXPECT_TRUE(along0->withinWarp);
  EXPECT_EQ(along0->rounds, 16u);
  EXPECT_EQ(along0->registerBits, (std::vector<int>{0, 1}));
  EXPECT_EQ(along0->laneBits, (std::vector<int>{0, 1, 2, 3}));
  auto along1 = planGather(l, 1);
  LL_ASSERT_OK(along1);
  EXPECT_FALSE(along1->withinWarp);
  EXPECT_EQ(along1->warpBits, (std::vector<int>{0}));
  EXPECT_EQ(toJson(*along1)["within_warp"], false);
  EXPECT_EQ(toJson(*along0)["rounds"], 16);
  EXPECT_FALSE(planGather(l, 2).ok());
  EXPECT_FALSE(planGather(identity1D(8, S("offset"), S("dim0")), 0).ok());
}

} // namespace
} // namespace llcheck::test
