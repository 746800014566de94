// broadcast(): the three duplicate masks of Broadcast.h against their definitions, checked by
// enumerating every location of random layouts (Def. 4.10 layouts, whose duplicates are zero
// columns, and arbitrary bases, where columns also repeat combinations of other ones).
#include "TestLayouts.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/conversion/Broadcast.h"

#include <map>

namespace llcheck::test {
namespace {

/// The location as one index: register fastest, then lane, warp, block (the order the masks
/// are defined in), with its per-dim values.
struct Location {
  std::vector<uint64_t> values; // register, lane, warp, block
  uint64_t flat = 0;
  uint64_t element = 0;
};

std::vector<Location> enumerate(const LinearLayout& reg, std::vector<int>& bitsOf) {
  const DimName order[] = {dims::kRegister, dims::kLane, dims::kWarp, dims::kBlock};
  Ref ref(reg);
  bitsOf.assign(4, 0);
  std::vector<int> pos(4, -1);
  for (std::size_t i = 0; i < ref.ins().size(); ++i)
    for (int k = 0; k < 4; ++k)
      if (ref.ins()[i].name == order[k]) {
        pos[k] = static_cast<int>(i);
        bitsOf[k] = log2Of(ref.ins()[i].size);
      }
  std::vector<Location> locs(ref.numInputs());
  for (uint64_t f = 0; f < ref.numInputs(); ++f) {
    std::vector<uint64_t> x = ref.unflattenIn(f);
    Location loc;
    int shift = 0;
    for (int k = 0; k < 4; ++k) {
      uint64_t v = pos[k] >= 0 ? x[static_cast<std::size_t>(pos[k])] : 0;
      loc.values.push_back(v);
      loc.flat |= v << shift;
      shift += bitsOf[k];
    }
    loc.element = ref.flattenOut(ref.eval(x));
    locs[loc.flat] = loc;
  }
  return locs;
}

TEST(Broadcast, MasksMatchTheirDefinitionsByEnumeration) {
  Gen g(5150);
  int zeroSeen = 0, withinOnly = 0, crossOnly = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    LinearLayout reg = g.chance(0.5)
                           ? g.distributed(9)
                           : g.fill(g.shape(Scheme::Distributed, g.range(1, 9), g.range(0, 6)));
    SCOPED_TRACE(reg.toString());
    auto b = broadcast(reg);
    LL_ASSERT_OK(b);
    std::vector<int> bitsOf;
    std::vector<Location> locs = enumerate(reg, bitsOf);
    ASSERT_EQ(b->dims.size(), 4u);
    ASSERT_EQ(b->locations, locs.size());

    // free: x duplicates a lower location (any dims) iff x has a free bit.
    std::map<uint64_t, uint64_t> firstHolder;
    uint64_t freeFlat = 0;
    for (int k = 0, shift = 0; k < 4; shift += bitsOf[k], ++k)
      freeFlat |= b->dims[k].free << shift;
    for (const Location& loc : locs) { // in increasing flat order
      bool duplicate = firstHolder.count(loc.element) != 0;
      if (!duplicate)
        firstHolder[loc.element] = loc.flat;
      EXPECT_EQ(duplicate, (loc.flat & freeFlat) != 0) << "location " << loc.flat;
    }
    EXPECT_EQ(b->distinctElements, firstHolder.size());

    for (int k = 0; k < 4; ++k) {
      const DimBroadcast& d = b->dims[k];
      ASSERT_EQ(d.sizeLog2, bitsOf[k]);
      uint64_t size = uint64_t{1} << bitsOf[k];
      for (const Location& loc : locs) {
        // withinDim: a lower value of dim k, other dims kept, holds the same element.
        bool duplicate = false;
        for (uint64_t y = 0; y < loc.values[k] && !duplicate; ++y) {
          std::vector<uint64_t> other = loc.values;
          other[k] = y;
          uint64_t flat = 0;
          for (int m = 0, shift = 0; m < 4; shift += bitsOf[m], ++m)
            flat |= other[m] << shift;
          duplicate = locs[flat].element == loc.element;
        }
        EXPECT_EQ(duplicate, (loc.values[k] & d.withinDim) != 0);
      }
      // zero: flipping bit i never changes the element.
      for (int i = 0; i < bitsOf[k]; ++i) {
        bool invariant = true;
        int shift = 0;
        for (int m = 0; m < k; ++m)
          shift += bitsOf[m];
        for (const Location& loc : locs)
          invariant =
              invariant && locs[loc.flat ^ (uint64_t{1} << (shift + i))].element == loc.element;
        EXPECT_EQ(invariant, ((d.zero >> i) & 1) != 0) << "bit " << i;
      }
      // Distinct values of dim k with the others at 0.
      std::set<uint64_t> seen;
      for (uint64_t v = 0; v < size; ++v) {
        std::vector<uint64_t> at(4, 0);
        at[k] = v;
        uint64_t flat = 0;
        for (int m = 0, shift = 0; m < 4; shift += bitsOf[m], ++m)
          flat |= at[m] << shift;
        seen.insert(locs[flat].element);
      }
      EXPECT_EQ(d.distinct, seen.size());
      EXPECT_EQ(d.zero & ~d.withinDim, 0u);
      EXPECT_EQ(d.withinDim & ~d.free, 0u);
      zeroSeen += d.zero != 0;
      withinOnly += (d.withinDim & ~d.zero) != 0;
      crossOnly += (d.free & ~d.withinDim) != 0;
      // dependsOn names, for each free bit, locations whose XOR is that location's element.
      for (const auto& [bit, parts] : d.dependsOn) {
        uint64_t element = 0;
        for (const std::string& p : parts) {
          std::string dimName = p.substr(0, p.find(' '));
          uint64_t value = std::stoull(p.substr(p.find(' ') + 1));
          std::vector<uint64_t> at(4, 0);
          for (int m = 0; m < 4; ++m)
            if (b->dims[m].dim.str() == dimName)
              at[m] = value;
          uint64_t flat = 0;
          for (int m = 0, shift = 0; m < 4; shift += bitsOf[m], ++m)
            flat |= at[m] << shift;
          element ^= locs[flat].element;
        }
        std::vector<uint64_t> at(4, 0);
        at[k] = uint64_t{1} << bit;
        uint64_t flat = 0;
        for (int m = 0, shift = 0; m < 4; shift += bitsOf[m], ++m)
          flat |= at[m] << shift;
        // Elements are flattened by multiplication, but the layout is linear per output dim
        // and the sizes are powers of two, so XOR of flattened indices is the flattened XOR.
        EXPECT_EQ(element, locs[flat].element);
      }
    }
  }
  EXPECT_GT(zeroSeen, 20);
  EXPECT_GT(withinOnly, 5);
  EXPECT_GT(crossOnly, 5);
}

TEST(Broadcast, BlockedLayoutLargerThanTheTensor) {
  // [16, 16] under sizePerThread [1, 4], threadsPerWarp [8, 4], warpsPerCTA [4, 1]: the layout
  // covers 32 rows, so warps 2 and 3 repeat warps 0 and 1 (a zero warp column, bit 1).
  auto reg = blockedToLinearLayout({{1, 4}, {8, 4}, {4, 1}, {1, 0}, {}}, {16, 16});
  LL_ASSERT_OK(reg);
  auto b = broadcast(*reg);
  LL_ASSERT_OK(b);
  EXPECT_EQ(b->dims[2].dim, dims::kWarp);
  EXPECT_EQ(b->dims[2].zero, 2u);
  EXPECT_EQ(b->dims[2].free, 2u);
  EXPECT_EQ(b->dims[1].free, 0u);
  EXPECT_EQ(b->distinctElements, 256u);
  ASSERT_EQ(b->summary.size(), 1u);
  EXPECT_NE(b->summary[0].find("warp: 2 of 4 warps"), std::string::npos) << b->summary[0];
  nlohmann::json j = toJson(*b);
  EXPECT_EQ(j["dims"][2]["zero"], 2);
  EXPECT_EQ(j["distinctElements"], 256);
}

TEST(Broadcast, LaneRepeatingARegister) {
  // lane 1 holds what register 1 holds: not a zero column, not within its dim, but free.
  auto reg =
      LinearLayout::create({{S("register"), {{1}, {2}}}, {S("lane"), {{2}, {4}}}}, {S("dim0")});
  LL_ASSERT_OK(reg);
  auto b = broadcast(*reg);
  LL_ASSERT_OK(b);
  EXPECT_EQ(b->dims[1].zero, 0u);
  EXPECT_EQ(b->dims[1].withinDim, 0u);
  EXPECT_EQ(b->dims[1].free, 1u);
  ASSERT_EQ(b->dims[1].dependsOn.size(), 1u);
  EXPECT_EQ(b->dims[1].dependsOn[0].second, (std::vector<std::string>{"register 2"}));
  EXPECT_FALSE(broadcast(identity1D(4, S("offset"), S("dim0"))).ok());
}

} // namespace
} // namespace llcheck::test
