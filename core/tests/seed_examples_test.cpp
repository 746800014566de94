// The worked examples of the seed documents, checked against the algebra.
#include "llcheck/core/LinearLayout.h"

#include <gtest/gtest.h>

namespace llcheck {
namespace {

DimName S(const char* s) { return DimName(s); }

// Seed 001: the 4x4 swizzle, L(t, w) = (t, w ^ t); apply(thread=3, warp=2) = (3, 1).
TEST(SeedExamples, Seed001Swizzle4x4) {
  auto l = LinearLayout::create({{S("thread"), {{1, 1}, {2, 2}}}, {S("warp"), {{0, 1}, {0, 2}}}},
                                {S("dim0"), S("dim1")})
               .value();
  auto y = l.apply({{S("thread"), 3}, {S("warp"), 2}}).value();
  EXPECT_EQ(y, (Point{{S("dim0"), 3}, {S("dim1"), 1}}));
  // The whole table of the seed: row t, column w holds (t, w ^ t).
  for (uint64_t t = 0; t < 4; ++t)
    for (uint64_t w = 0; w < 4; ++w)
      EXPECT_EQ(l.apply({{S("thread"), t}, {S("warp"), w}}).value(),
                (Point{{S("dim0"), t}, {S("dim1"), w ^ t}}));
}

} // namespace
} // namespace llcheck
