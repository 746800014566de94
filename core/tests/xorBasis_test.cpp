// XorBasis: insert / solve / contains / rank / smallestMissing against brute force.
#include "TestLayouts.h"

#include "llcheck/core/XorBasis.h"

#include <set>

namespace llcheck::test {
namespace {

/// Every XOR of a subset of `v`.
std::set<uint64_t> span(const std::vector<uint64_t>& v) {
  std::set<uint64_t> s = {0};
  for (uint64_t x : v) {
    std::set<uint64_t> next = s;
    for (uint64_t y : s)
      next.insert(x ^ y);
    s = next;
  }
  return s;
}

TEST(XorBasis, MatchesBruteForce) {
  Gen g(2401);
  for (int t = 0; t < kTrials; ++t) {
    int bits = g.range(0, 8);
    std::vector<uint64_t> inserted;
    XorBasis basis;
    int n = g.range(0, 10);
    for (int i = 0; i < n; ++i) {
      uint64_t v = g.chance(0.3) && !inserted.empty()
                       ? inserted[g.below(inserted.size())] ^ inserted[g.below(inserted.size())]
                       : g.below(uint64_t{1} << bits);
      bool grew = !span(inserted).count(v);
      EXPECT_EQ(basis.insert(v, uint64_t{1} << i), grew);
      inserted.push_back(v);
    }
    std::set<uint64_t> s = span(inserted);
    EXPECT_EQ(basis.rank(), log2Of(s.size()));
    for (uint64_t v = 0; v < (uint64_t{1} << bits); ++v) {
      auto combo = basis.solve(v);
      ASSERT_EQ(combo.has_value(), s.count(v) == 1);
      EXPECT_EQ(basis.contains(v), s.count(v) == 1);
      if (combo) { // the combination of inserted vectors really XORs to v
        uint64_t x = 0;
        for (int i = 0; i < n; ++i)
          if ((*combo >> i) & 1)
            x ^= inserted[static_cast<std::size_t>(i)];
        ASSERT_EQ(x, v);
      }
    }
    for (int nb = 0; nb <= bits; ++nb) {
      std::optional<uint64_t> missing;
      for (uint64_t v = 0; v < (uint64_t{1} << nb) && !missing; ++v)
        if (!s.count(v))
          missing = v;
      EXPECT_EQ(basis.smallestMissing(nb), missing);
    }
  }
}

TEST(XorBasis, Examples) {
  XorBasis b;
  EXPECT_EQ(b.rank(), 0);
  EXPECT_TRUE(b.contains(0));
  EXPECT_EQ(b.smallestMissing(3), 1u);
  EXPECT_EQ(b.smallestMissing(0), std::nullopt);
  EXPECT_TRUE(b.insert(0b011, 0b01));
  EXPECT_TRUE(b.insert(0b110, 0b10));
  EXPECT_FALSE(b.insert(0b101, 0b100)); // 011 ^ 110
  EXPECT_EQ(b.solve(0b101), 0b11u);
  EXPECT_EQ(b.solve(0b001), std::nullopt);
  EXPECT_EQ(b.smallestMissing(3), 1u);
  EXPECT_TRUE(b.insert(0b001, 0b1000));
  EXPECT_EQ(b.smallestMissing(3), std::nullopt);
  EXPECT_EQ(b.smallestMissing(4), 8u);
  XorBasis full;
  for (int i = 0; i < 64; ++i)
    full.insert(uint64_t{1} << i, 0);
  EXPECT_EQ(full.rank(), 64);
  EXPECT_EQ(full.smallestMissing(64), std::nullopt);
}

} // namespace
} // namespace llcheck::test
