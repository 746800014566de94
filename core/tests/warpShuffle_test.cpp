// planWarpShuffles: the schedule is executed. Every SRC (register, lane, warp) starts with the id
// of the element the Ref evaluator says it holds; each round every lane offers the registers it
// sends and every lane copies what its source lane offers into its DST registers; at the end
// every DST (register, lane, warp) must hold the element DST maps it to, written exactly once.
#include "TestLayouts.h"

#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/WarpShuffle.h"

#include <iostream>
#include <set>

namespace llcheck::test {
namespace {

constexpr uint64_t kNone = ~uint64_t{0};

/// The element ids of a layout with in-dims (register, lane, warp): ids[warp][lane][register].
std::vector<std::vector<std::vector<uint64_t>>> elementIds(const LinearLayout& l) {
  Ref r(l);
  std::vector<std::vector<std::vector<uint64_t>>> ids(
      l.getInDimSize(S("warp")),
      std::vector<std::vector<uint64_t>>(l.getInDimSize(S("lane")),
                                         std::vector<uint64_t>(l.getInDimSize(S("register")))));
  for (uint64_t w = 0; w < ids.size(); ++w)
    for (uint64_t t = 0; t < ids[w].size(); ++t)
      for (uint64_t reg = 0; reg < ids[w][t].size(); ++reg)
        ids[w][t][reg] = r.flattenOut(r.eval({reg, t, w}));
  return ids;
}

/// max(element vectors a DST lane needs, ceil(vectors the warp needs / SRC lanes that hold
/// any of them)), by enumeration of warp 0: no schedule sending and receiving one vector per
/// lane and round does better.
uint64_t optimalRounds(const LinearLayout& src, const LinearLayout& dst, uint64_t vec) {
  auto have = elementIds(src)[0], want = elementIds(dst)[0];
  std::set<uint64_t> warpNeeds, laneNeeds(want[0].begin(), want[0].end());
  for (const auto& lane : want)
    warpNeeds.insert(lane.begin(), lane.end());
  uint64_t useful = 0;
  for (const auto& lane : have)
    useful +=
        std::any_of(lane.begin(), lane.end(), [&](uint64_t e) { return warpNeeds.contains(e); });
  uint64_t vectors = warpNeeds.size() / vec;
  return std::max<uint64_t>(laneNeeds.size() / vec, (vectors + useful - 1) / useful);
}

/// Runs the plan's schedule on SRC's data and compares the result with DST's, checking on the
/// way that each round each lane sends and receives at most one vector.
testing::AssertionResult executes(const LinearLayout& src, const LinearLayout& dst,
                                  const WarpShufflePlan& plan) {
  auto have = elementIds(src), want = elementIds(dst);
  uint64_t warps = have.size(), lanes = have[0].size(), vec = plan.vectorElements;
  uint64_t srcRegs = have[0][0].size(), dstRegs = want[0][0].size();
  if (!plan.scheduled)
    return testing::AssertionFailure() << "no schedule";
  if (plan.rounds != (uint64_t{1} << plan.R.size()))
    return testing::AssertionFailure() << "rounds " << plan.rounds << " != 2^|R|";
  std::vector<int> groupOf(warps, -1);
  for (std::size_t g = 0; g < plan.schedules.size(); ++g)
    for (uint64_t w : plan.schedules[g].warps) {
      if (w >= warps || groupOf[w] != -1)
        return testing::AssertionFailure() << "warp " << w << " scheduled twice or unknown";
      groupOf[w] = static_cast<int>(g);
    }
  for (uint64_t w = 0; w < warps; ++w) {
    if (groupOf[w] < 0)
      return testing::AssertionFailure() << "warp " << w << " has no schedule";
    const std::vector<ShuffleRound>& rounds = plan.schedules[groupOf[w]].rounds;
    if (rounds.size() != plan.rounds)
      return testing::AssertionFailure()
             << rounds.size() << " rounds listed, " << plan.rounds << " planned";
    std::vector<std::vector<uint64_t>> got(lanes, std::vector<uint64_t>(dstRegs, kNone));
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      const ShuffleRound& r = rounds[i];
      if (r.send.size() != lanes || r.from.size() != lanes || r.recv.size() != lanes)
        return testing::AssertionFailure() << "round " << i << " is not one entry per lane";
      // What each lane puts on the wire: one vector (or nothing).
      std::vector<std::vector<uint64_t>> offered(lanes);
      for (uint64_t s = 0; s < lanes; ++s) {
        if (!r.send[s].empty() && r.send[s].size() != vec)
          return testing::AssertionFailure()
                 << "lane " << s << " sends " << r.send[s].size() << " registers, not one vector";
        for (int reg : r.send[s]) {
          if (reg < 0 || static_cast<uint64_t>(reg) >= srcRegs)
            return testing::AssertionFailure() << "SRC register " << reg << " out of range";
          offered[s].push_back(have[w][s][reg]);
        }
      }
      for (uint64_t t = 0; t < lanes; ++t) {
        int from = r.from[t];
        if (from == -1) {
          if (!r.recv[t].empty())
            return testing::AssertionFailure() << "lane " << t << " stores without reading";
          continue;
        }
        if (from < 0 || static_cast<uint64_t>(from) >= lanes || offered[from].size() != vec ||
            r.recv[t].size() != vec)
          return testing::AssertionFailure()
                 << "warp " << w << " round " << i << ": lane " << t << " reads lane " << from
                 << ", which offers "
                 << (from >= 0 && static_cast<uint64_t>(from) < lanes ? offered[from].size() : 0)
                 << " elements";
        for (uint64_t k = 0; k < vec; ++k)
          for (int reg : r.recv[t][k]) {
            if (reg < 0 || static_cast<uint64_t>(reg) >= dstRegs)
              return testing::AssertionFailure() << "DST register " << reg << " out of range";
            if (got[t][reg] != kNone)
              return testing::AssertionFailure()
                     << "warp " << w << " lane " << t << " register " << reg << " written twice";
            got[t][reg] = offered[from][k];
          }
      }
    }
    for (uint64_t t = 0; t < lanes; ++t)
      for (uint64_t reg = 0; reg < dstRegs; ++reg)
        if (got[t][reg] != want[w][t][reg])
          return testing::AssertionFailure()
                 << "warp " << w << " lane " << t << " register " << reg << " holds "
                 << (got[t][reg] == kNone ? std::string("nothing") : std::to_string(got[t][reg]))
                 << ", DST wants " << want[w][t][reg];
  }
  return testing::AssertionSuccess();
}

std::vector<uint64_t> registerColumns(const LinearLayout& l) {
  auto cols = l.columns().subspan(l.inDimOffset(l.inDimIndex(S("register"))),
                                  l.getInDimSizeLog2(S("register")));
  return {cols.begin(), cols.end()};
}

/// A layout (register, lane, warp) -> (dim0[, dim1]) from packed unit columns: tensor bit p is
/// bit p of dim0 below bits0, else bit p - bits0 of dim1.
LinearLayout fromUnits(const std::vector<uint64_t>& regs, const std::vector<uint64_t>& lanes,
                       const std::vector<uint64_t>& warps, int bits0, int bits1, bool twoDims) {
  auto split = [&](uint64_t c) {
    std::vector<uint64_t> v{c & ((uint64_t{1} << bits0) - 1)};
    if (twoDims)
      v.push_back(c >> bits0);
    return v;
  };
  std::vector<DimBases> bases;
  for (auto [name, cols] : {std::pair{"register", &regs}, {"lane", &lanes}, {"warp", &warps}}) {
    DimBases d{S(name), {}};
    for (uint64_t c : *cols)
      d.bases.push_back(split(c));
    bases.push_back(d);
  }
  std::vector<DimSize> outs{{S("dim0"), uint64_t{1} << bits0}};
  if (twoDims)
    outs.push_back({S("dim1"), uint64_t{1} << bits1});
  return LinearLayout::create(bases, outs, true).value();
}

struct RandomPair {
  LinearLayout src, dst;
  bool broadcast = false; // a zero column in either layout
  bool sameWarps = true;  // DST's warp columns are SRC's
};

/// SRC: registers, 32 lanes and 1-4 warps over distinct tensor bits, with zero (broadcast)
/// columns at times. DST: the same warp columns (or, where SRC broadcasts a warp, a bit SRC's
/// warp holds), the other bits spread at random over 0-4 register bits and the 32 lanes.
std::optional<RandomPair> randomPair(Gen& g) {
  int warpBits = g.range(0, 2), regBits = g.range(0, 4);
  int zeroLanes = g.chance(0.25) ? g.range(1, 2) : 0;
  int zeroRegs = regBits > 0 && g.chance(0.25) ? 1 : 0;
  int zeroWarps = warpBits > 0 && g.chance(0.3) ? g.range(1, warpBits) : 0;
  int d = regBits - zeroRegs + 5 - zeroLanes + warpBits - zeroWarps;
  std::vector<uint64_t> units;
  for (int p = 0; p < d; ++p)
    units.push_back(uint64_t{1} << p);
  g.shuffle(units);
  std::size_t next = 0;
  auto fill = [&](int n, int zeros) {
    std::vector<uint64_t> cols(static_cast<std::size_t>(n), 0);
    for (int i = zeros; i < n; ++i)
      cols[i] = units[next++];
    g.shuffle(cols);
    return cols;
  };
  std::vector<uint64_t> srcRegs = fill(regBits, zeroRegs), srcLanes = fill(5, zeroLanes),
                        srcWarps = fill(warpBits, zeroWarps);
  std::vector<uint64_t> inWarp; // what one SRC warp holds
  for (uint64_t c : srcRegs)
    if (c)
      inWarp.push_back(c);
  for (uint64_t c : srcLanes)
    if (c)
      inWarp.push_back(c);
  g.shuffle(inWarp);
  RandomPair p;
  std::vector<uint64_t> dstWarps = srcWarps;
  for (uint64_t& c : dstWarps)
    if (c == 0 && !inWarp.empty() && g.chance(0.5)) {
      c = inWarp.back();
      inWarp.pop_back();
      p.sameWarps = false;
    }
  int minRegs = std::max(0, static_cast<int>(inWarp.size()) - 5);
  if (minRegs > 4)
    return std::nullopt;
  int dstRegBits = g.range(minRegs, 4);
  std::vector<uint64_t> slots = inWarp;
  slots.resize(static_cast<std::size_t>(dstRegBits + 5), 0);
  g.shuffle(slots);
  std::vector<uint64_t> dstRegs(slots.begin(), slots.begin() + dstRegBits),
      dstLanes(slots.begin() + dstRegBits, slots.end());
  bool twoDims = d > 0 && g.chance(0.5);
  int bits0 = twoDims ? g.range(0, d) : d;
  p.src = fromUnits(srcRegs, srcLanes, srcWarps, bits0, d - bits0, twoDims);
  p.dst = fromUnits(dstRegs, dstLanes, dstWarps, bits0, d - bits0, twoDims);
  auto zero = [](const std::vector<uint64_t>& v) {
    return std::find(v.begin(), v.end(), 0) != v.end();
  };
  p.broadcast = zero(srcRegs) || zero(srcLanes) || zero(srcWarps) || zero(dstRegs) ||
                zero(dstLanes) || zero(dstWarps);
  return p;
}

TEST(WarpShuffle, randomConversionsExecute) {
  Gen g(5405);
  int cases = 0, lent = 0, broadcast = 0, warpDependent = 0, unevenEF = 0, vectorized = 0,
      multiRound = 0;
  for (int attempt = 0; attempt < 20000 && cases < 1200; ++attempt) {
    std::optional<RandomPair> p = randomPair(g);
    if (!p)
      continue;
    auto kind = planConversion(p->src, p->dst);
    ASSERT_TRUE(kind.ok()) << kind.error().str();
    if (kind->kind != ConversionKind::WarpShuffle)
      continue;
    int bits = 1 << g.range(3, 6);
    auto plan = planWarpShuffles(p->src, p->dst, bits);
    ASSERT_TRUE(plan.ok()) << plan.error().str();
    ASSERT_TRUE(executes(p->src, p->dst, *plan))
        << "SRC" << p->src.toString() << "\nDST" << p->dst.toString() << "\n"
        << toJson(*plan).dump();
    // V: as many common register bits as fit 32 bits.
    std::vector<uint64_t> srcRegs = registerColumns(plan->src),
                          dstRegs = registerColumns(plan->dst);
    int common = static_cast<int>(intersectionBasis(srcRegs, dstRegs).size());
    int fit = bits >= 32 ? 0 : std::countr_zero(static_cast<unsigned>(32 / bits));
    EXPECT_EQ(static_cast<int>(plan->V.size()), std::min(common, fit));
    EXPECT_LE(plan->vectorElements * static_cast<uint64_t>(std::min(bits, 32)), 32u);
    // The optimum, counted on the data of warp 0: a lane receives one vector per round, and
    // each round the lanes holding some of the warp's DST elements offer one vector each.
    EXPECT_EQ(plan->rounds, optimalRounds(p->src, p->dst, plan->vectorElements))
        << "SRC" << p->src.toString() << "\nDST" << p->dst.toString() << "\n"
        << toJson(*plan).dump();
    ++cases;
    lent += !plan->lent.empty();
    broadcast += p->broadcast;
    warpDependent += plan->schedules.size() > 1;
    unevenEF += plan->E.size() != plan->F.size();
    vectorized += !plan->V.empty();
    multiRound += plan->rounds > 1;
  }
  EXPECT_GE(cases, 1000);
  EXPECT_GE(broadcast, 200);
  EXPECT_GE(warpDependent, 20);
  EXPECT_GE(unevenEF, 50);
  EXPECT_GE(vectorized, 200);
  EXPECT_GE(multiRound, 200);
  EXPECT_GE(lent, 50);
  std::cout << cases << " conversions: " << broadcast << " with broadcast, " << warpDependent
            << " with warp-dependent schedules, " << unevenEF << " with |E| != |F|, " << vectorized
            << " vectorized, " << multiRound << " with several rounds, " << lent
            << " with lent lane bits\n";
}

/// T ∘ l for the invertible map T of F2^d given by its columns: the same layout seen through a
/// change of tensor coordinates (a swizzle), into one out dim. Its columns are no longer single
/// bits.
LinearLayout throughMap(const LinearLayout& l, const std::vector<uint64_t>& t) {
  std::vector<DimBases> bases;
  std::size_t j = 0;
  for (const DimSize& d : l.getInDims()) {
    DimBases db{d.name, {}};
    for (uint64_t b = 1; b < d.size; b <<= 1, ++j) {
      uint64_t c = 0;
      for (std::size_t k = 0; k < t.size(); ++k)
        if ((l.columns()[j] >> k) & 1)
          c ^= t[k];
      db.bases.push_back({c});
    }
    bases.push_back(db);
  }
  return LinearLayout::create(bases, {{S("dim0"), uint64_t{1} << t.size()}}, true).value();
}

// The algebra does not rely on single-bit columns: the random conversions seen through a random
// change of coordinates still execute, in as many rounds (the optimum is the same).
TEST(WarpShuffle, swizzledConversionsExecute) {
  Gen g(5406);
  int cases = 0;
  for (int attempt = 0; attempt < 5000 && cases < 300; ++attempt) {
    std::optional<RandomPair> p = randomPair(g);
    if (!p || planConversion(p->src, p->dst)->kind != ConversionKind::WarpShuffle)
      continue;
    std::vector<uint64_t> t = g.invertibleColumns(p->src.getTotalOutDimSizeLog2());
    LinearLayout src = throughMap(p->src, t), dst = throughMap(p->dst, t);
    auto plan = planWarpShuffles(src, dst, 16);
    ASSERT_TRUE(plan.ok()) << plan.error().str();
    ASSERT_TRUE(executes(src, dst, *plan)) << "SRC" << src.toString() << "\nDST" << dst.toString();
    EXPECT_EQ(plan->rounds, optimalRounds(src, dst, plan->vectorElements))
        << "SRC" << src.toString() << "\nDST" << dst.toString() << "\n"
        << toJson(*plan).dump();
    ++cases;
  }
  EXPECT_EQ(cases, 300);
}

// Figure 4 of the paper: four threads, two registers, eight elements. SRC keeps tensor bit 0 in
// its register and bits 1, 2 in the lanes; DST keeps bit 2 in its register and bits 1, 0 in the
// lanes. Bit 1 stays (I), lane bit 1 of SRC pairs with lane bit 1 of DST (G = {101}), and the
// paper's span(V ∪ I ∪ G) = {000, 101, 010, 111} is exchanged in 2 rounds, one element per
// thread each. (The paper's text says I is empty and R(1) = 010, which contradicts the span it
// lists; 010 in that span can only come from I.)
TEST(WarpShuffle, paperFigure4) {
  LinearLayout src = fromUnits({1}, {2, 4}, {}, 3, 0, false);
  LinearLayout dst = fromUnits({4}, {2, 1}, {}, 3, 0, false);
  auto plan = planWarpShuffles(src, dst, 32);
  LL_ASSERT_OK(plan);
  EXPECT_TRUE(plan->V.empty());
  EXPECT_EQ(plan->I, (std::vector<uint64_t>{0b010}));
  EXPECT_EQ(plan->E, (std::vector<uint64_t>{0b100}));
  EXPECT_EQ(plan->F, (std::vector<uint64_t>{0b001}));
  EXPECT_EQ(plan->G, (std::vector<uint64_t>{0b101}));
  std::set<uint64_t> span;
  for (uint64_t i : {uint64_t{0}, plan->I[0]})
    for (uint64_t g : {uint64_t{0}, plan->G[0]})
      span.insert(i ^ g);
  EXPECT_EQ(span, (std::set<uint64_t>{0b000, 0b101, 0b010, 0b111}));
  EXPECT_EQ(plan->rounds, 2u);
  EXPECT_TRUE(executes(src, dst, *plan));
  // Every thread sends and receives exactly one element per round.
  ASSERT_EQ(plan->schedules.size(), 1u);
  for (const ShuffleRound& r : plan->schedules[0].rounds)
    for (uint64_t t = 0; t < 4; ++t) {
      EXPECT_EQ(r.send[t].size(), 1u);
      EXPECT_NE(r.from[t], -1);
    }
  nlohmann::json j = toJson(*plan);
  EXPECT_EQ(j["rounds"], 2);
  EXPECT_EQ(j["G"], nlohmann::json::parse("[[5]]"));
  EXPECT_EQ(j["schedule"][0]["rounds"].size(), 2u);
}

// The executor is the oracle of the random test: it must reject a schedule that is off by
// one lane, one register, or a missing round.
TEST(WarpShuffle, executorRejectsWrongSchedules) {
  LinearLayout src = fromUnits({1, 2}, {4, 8, 16, 32, 64}, {128}, 8, 0, false);
  LinearLayout dst = fromUnits({32, 64}, {4, 8, 16, 1, 2}, {128}, 8, 0, false);
  auto plan = planWarpShuffles(src, dst, 32);
  LL_ASSERT_OK(plan);
  ASSERT_TRUE(executes(src, dst, *plan));
  EXPECT_EQ(plan->rounds, 4u);
  WarpShufflePlan lane = *plan;
  lane.schedules[0].rounds[1].from[3] ^= 1;
  EXPECT_FALSE(executes(src, dst, lane));
  WarpShufflePlan reg = *plan;
  reg.schedules[0].rounds[0].send[0][0] ^= 1;
  EXPECT_FALSE(executes(src, dst, reg));
  WarpShufflePlan round = *plan;
  round.schedules[0].rounds.pop_back();
  EXPECT_FALSE(executes(src, dst, round));
}

// 128 rounds: the plan keeps the schedule (and it executes), the JSON leaves it out and says so.
TEST(WarpShuffle, jsonOmitsLongSchedules) {
  LinearLayout src =
      fromUnits({1, 2, 4, 8, 16, 32, 64}, {128, 256, 512, 1024, 2048}, {}, 12, 0, false);
  LinearLayout dst =
      fromUnits({32, 64, 128, 256, 512, 1024, 2048}, {1, 2, 4, 8, 16}, {}, 12, 0, false);
  auto plan = planWarpShuffles(src, dst, 32);
  LL_ASSERT_OK(plan);
  EXPECT_EQ(plan->rounds, 128u);
  EXPECT_TRUE(executes(src, dst, *plan));
  nlohmann::json j = toJson(*plan);
  EXPECT_TRUE(j["schedule"].is_null());
  EXPECT_NE(j["schedule_omitted"].get<std::string>().find("128 rounds x 32 lanes"),
            std::string::npos);
  // 8-bit elements: four fit a shuffle, V = {32, 64}, 32 rounds, listed.
  auto packed = planWarpShuffles(src, dst, 8);
  LL_ASSERT_OK(packed);
  EXPECT_EQ(packed->V, (std::vector<uint64_t>{32, 64}));
  EXPECT_EQ(packed->rounds, 32u);
  EXPECT_TRUE(executes(src, dst, *packed));
  EXPECT_EQ(toJson(*packed)["schedule"][0]["rounds"].size(), 32u);
  // 2^16 registers swapped with the lanes: 65,536 rounds are counted but not scheduled.
  std::vector<uint64_t> low, high;
  for (int b = 0; b < 16; ++b)
    low.push_back(uint64_t{1} << b);
  for (int b = 5; b < 21; ++b)
    high.push_back(uint64_t{1} << b);
  std::vector<uint64_t> lanes{1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20};
  auto big = planWarpShuffles(fromUnits(low, lanes, {}, 21, 0, false),
                              fromUnits(high, {1, 2, 4, 8, 16}, {}, 21, 0, false), 32);
  LL_ASSERT_OK(big);
  EXPECT_EQ(big->rounds, uint64_t{1} << 16);
  EXPECT_FALSE(big->scheduled);
  EXPECT_TRUE(big->schedules.empty());
  EXPECT_NE(toJson(*big)["schedule_omitted"].get<std::string>().find("not scheduled"),
            std::string::npos);
}

TEST(WarpShuffle, rejectsOtherKinds) {
  LinearLayout src = fromUnits({}, {1, 2, 4, 8, 16}, {32}, 6, 0, false);
  LinearLayout viaShared = fromUnits({32}, {1, 2, 4, 8, 16}, {0}, 6, 0, false);
  auto shared = planWarpShuffles(src, viaShared, 32);
  ASSERT_FALSE(shared.ok());
  EXPECT_NE(shared.error().str().find("needs shared memory: warps exchange data"),
            std::string::npos);
  auto same = planWarpShuffles(src, src, 32);
  ASSERT_FALSE(same.ok());
  EXPECT_NE(same.error().str().find("no_op"), std::string::npos);
  auto bits = planWarpShuffles(src, src, 12);
  ASSERT_FALSE(bits.ok());
  EXPECT_NE(bits.error().str().find("power of two"), std::string::npos);
}

} // namespace
} // namespace llcheck::test
