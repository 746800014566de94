// invertAndCompose: C with this(x) = outer(C(x)) for every x, picking Triton's solution:
// identity dims map by the identity, everything else to the numerically smallest preimage
// (which is the preimage of minimal Hamming weight when outer's non-zero columns are
// independent). Which dims are identity dims changed between releases: most tests below check
// Triton 3.6's rule (equal sublayouts, equal output sizes; their columns left out of the solve),
// Follows39Rule checks 3.9's (LinearLayout.h).
#include "TestLayouts.h"

#include "llcheck/core/XorBasis.h"

#include <map>

namespace llcheck::test {
namespace {

constexpr TritonVersion k36 = TritonVersion::v3_6;

/// A random `this` for `outer`: the same output names (random order), sizes no larger than
/// outer's, and input dims that sometimes copy one of outer's (an identity dim), sometimes
/// reuse a name of outer's with other bases, and sometimes are new.
LinearLayout randomThis(Gen& g, const LinearLayout& outer) {
  bool sameSizes = g.chance(0.7);
  std::vector<DimSize> outs;
  for (const DimSize& d : outer.getOutDims())
    outs.push_back({d.name, sameSizes ? d.size : uint64_t{1} << g.range(0, log2Of(d.size))});
  if (g.chance(0.5))
    g.shuffle(outs);
  auto randomBases = [&](int bits) {
    std::vector<std::vector<uint64_t>> b;
    for (int i = 0; i < bits; ++i) {
      std::vector<uint64_t> v;
      for (const DimSize& o : outs)
        v.push_back(g.value(log2Of(o.size)));
      b.push_back(std::move(v));
    }
    return b;
  };
  std::vector<DimBases> bases;
  for (const DimSize& d : outer.getInDims()) {
    if (sameSizes && g.chance(0.35)) {
      DimBases db{d.name, {}};
      for (int i = 0; i < log2Of(d.size); ++i) {
        std::vector<uint64_t> v;
        for (const DimSize& o : outs)
          v.push_back(outer.getBasis(d.name, i, o.name));
        db.bases.push_back(std::move(v));
      }
      bases.push_back(std::move(db));
    } else if (g.chance(0.3)) {
      bases.push_back({d.name, randomBases(g.range(0, 3))});
    }
  }
  if (bases.empty() || g.chance(0.5))
    bases.push_back({S("extra"), randomBases(g.range(0, 3))});
  if (g.chance(0.2))
    g.shuffle(bases);
  return LinearLayout::create(bases, outs, /*requireSurjective=*/false).value();
}

/// Outer's input dims that Triton 3.6's rule maps by the identity: in both, equal sublayouts.
std::vector<DimName> identityDims(const LinearLayout& B, const LinearLayout& A) {
  std::vector<DimName> dims;
  for (const DimSize& o : B.getOutDims())
    if (A.getOutDimSize(o.name) != o.size)
      return dims;
  for (const DimSize& d : A.getInDims()) {
    if (!B.hasInDim(d.name) || B.getInDimSize(d.name) != d.size)
      continue;
    bool equal = true;
    for (int i = 0; i < log2Of(d.size); ++i)
      for (const DimSize& o : A.getOutDims())
        equal = equal && A.getBasis(d.name, i, o.name) == B.getBasis(d.name, i, o.name);
    if (equal)
      dims.push_back(d.name);
  }
  return dims;
}

/// outer's flattened output of a point of this's outputs (matched by name).
uint64_t flatOut(const Ref& outer, const Point& y) {
  std::vector<uint64_t> v;
  for (const DimSize& o : outer.outs())
    v.push_back(valueOf(y, o.name));
  return outer.flattenOut(v);
}
/// outer's flattened input of a point of outer's inputs (C's outputs).
uint64_t flatIn(const Ref& outer, const Point& x) {
  std::vector<uint64_t> v;
  for (const DimSize& d : outer.ins())
    v.push_back(valueOf(x, d.name));
  return outer.flattenIn(v);
}

struct Preimages {
  std::map<uint64_t, uint64_t> smallest; // output -> numerically smallest input
  std::map<uint64_t, int> lightest;      // output -> smallest Hamming weight of an input
};

/// All preimages of `outer`, optionally only inputs that are zero on `zeroDims`.
Preimages preimages(const Ref& outer, const std::vector<DimName>& zeroDims) {
  Preimages p;
  for (uint64_t f = 0; f < outer.numInputs(); ++f) {
    Point x = outer.inPoint(f);
    bool allowed = true;
    for (DimName d : zeroDims)
      allowed = allowed && valueOf(x, d) == 0;
    if (!allowed)
      continue;
    uint64_t y = outer.evalFlat(f);
    p.smallest.emplace(y, f); // f increases: the first one is the smallest
    int w = std::popcount(f); // sizes are powers of two: the flat index is the bit string
    auto it = p.lightest.find(y);
    if (it == p.lightest.end() || w < it->second)
      p.lightest[y] = w;
  }
  return p;
}

bool nonZeroColumnsIndependent(const LinearLayout& A) {
  std::vector<uint64_t> nonZero;
  for (uint64_t c : A.columns())
    if (c != 0)
      nonZero.push_back(c);
  // Brute force: no non-empty subset XORs to zero.
  for (uint64_t s = 1; s < (uint64_t{1} << nonZero.size()); ++s) {
    uint64_t x = 0;
    for (std::size_t j = 0; j < nonZero.size(); ++j)
      if ((s >> j) & 1)
        x ^= nonZero[j];
    if (x == 0)
      return false;
  }
  return true;
}

/// Why Triton's rule has no answer (empty if it has one), by brute force: once the identity
/// dims are set aside, an image of this's other dims is not reached by outer's other dims.
std::string tritonRejects(const LinearLayout& B, const LinearLayout& A) {
  std::vector<DimName> ids = identityDims(B, A);
  Ref ra(A), rb(B);
  Preimages p = preimages(ra, ids);
  for (uint64_t f = 0; f < rb.numInputs(); ++f) {
    Point x = rb.inPoint(f);
    bool onOtherDims = true;
    for (DimName d : ids)
      onOtherDims = onOtherDims && valueOf(x, d) == 0;
    if (onOtherDims && !p.smallest.count(flatOut(ra, B.apply(x).value())))
      return "does not cover";
  }
  return "";
}

LinearLayout randomOuter(Gen& g, int t) {
  switch (t % 6) {
  case 0:
    return g.surjective(7);
  case 1:
    return g.distributed(7);
  case 2:
    return g.invertible(7);
  case 3:
    return g.memory(7);
  case 4:
    return g.injective(7, 7); // rarely surjective: outer need not be
  default:
    return g.random(7, 7);
  }
}

TEST(InvertAndCompose, SolvesThisEqualsOuterOfC) {
  Gen g(601);
  int solved = 0, withIdentityDims = 0, unsolvable = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout A = randomOuter(g, t);
    LinearLayout B = randomThis(g, A);
    auto C = B.invertAndCompose(A, k36);
    std::vector<DimName> ids = identityDims(B, A);
    withIdentityDims += !ids.empty();
    Ref ra(A), rb(B);
    // An error exactly when Triton's rule has no answer.
    std::string why = tritonRejects(B, A);
    ASSERT_EQ(C.ok(), why.empty()) << (C.ok() ? why : C.error().str()) << B.toString() << "\n"
                                   << A.toString();
    if (!C.ok()) {
      EXPECT_NE(C.error().str().find(why), std::string::npos) << C.error().str();
      ++unsolvable;
      continue;
    }
    ++solved;
    EXPECT_EQ(C->getInDims(), B.getInDims());
    EXPECT_EQ(C->getOutDims(), A.getInDims());
    for (uint64_t f = 0; f < rb.numInputs(); ++f) {
      Point x = rb.inPoint(f);
      Point y = B.apply(x).value();
      Point yy = A.apply(C->apply(x).value()).value();
      for (const auto& [name, v] : y)
        ASSERT_EQ(valueOf(yy, name), v) << B.toString() << "\n" << A.toString();
    }
  }
  EXPECT_GT(solved, kTrials / 2);
  EXPECT_GT(withIdentityDims, 10);
  EXPECT_GT(unsolvable, 10);
}

TEST(InvertAndCompose, IsOuterInverseAfterThisWhenOuterIsInvertible) {
  Gen g(602);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout A = t % 2 ? g.invertible(8) : g.memory(8);
    LinearLayout B = randomThis(g, A);
    auto C = B.invertAndCompose(A, k36);
    if (!C.ok()) { // even with an invertible outer (see IdentityDimsCanLeaveTheRestUnsolvable)
      EXPECT_NE(tritonRejects(B, A), "") << C.error().str();
      continue;
    }
    // The unique solution: C(x) = A^-1(B(x)), A^-1 from A's whole table.
    Ref ra(A), rb(B);
    std::map<uint64_t, uint64_t> inverse;
    for (uint64_t f = 0; f < ra.numInputs(); ++f)
      inverse[ra.evalFlat(f)] = f;
    for (uint64_t f = 0; f < rb.numInputs(); ++f) {
      Point x = rb.inPoint(f);
      ASSERT_EQ(flatIn(ra, C->apply(x).value()), inverse.at(flatOut(ra, B.apply(x).value())));
    }
    // The same as composing with the inverse (when Triton can invert A).
    if (auto inv = A.invert(k36); inv.ok()) {
      EXPECT_EQ(*C, B.compose(*inv).value());
    }
  }
}

TEST(InvertAndCompose, PicksTheSmallestPreimageWithoutIdentityDims) {
  Gen g(603);
  int checked = 0, hamming = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout A = t % 2 ? g.surjective(8) : g.distributed(8);
    LinearLayout B = randomThis(g, A);
    if (!identityDims(B, A).empty() || !tritonRejects(B, A).empty())
      continue;
    auto C = B.invertAndCompose(A, k36);
    LL_ASSERT_OK(C);
    ++checked;
    Ref ra(A), rb(B);
    Preimages p = preimages(ra, {});
    bool independent = nonZeroColumnsIndependent(A);
    hamming += independent;
    for (uint64_t f = 0; f < rb.numInputs(); ++f) {
      Point x = rb.inPoint(f);
      uint64_t y = flatOut(ra, B.apply(x).value());
      uint64_t c = flatIn(ra, C->apply(x).value());
      ASSERT_EQ(c, p.smallest.at(y)) << B.toString() << "\n" << A.toString();
      if (independent) {
        ASSERT_EQ(std::popcount(c), p.lightest.at(y));
      }
    }
  }
  EXPECT_GT(checked, kTrials / 3);
  EXPECT_GT(hamming, 10);
}

TEST(InvertAndCompose, IdentityDimsMapByTheIdentity) {
  Gen g(604);
  int checked = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout A = randomOuter(g, t);
    LinearLayout B = randomThis(g, A);
    std::vector<DimName> ids = identityDims(B, A);
    auto C = B.invertAndCompose(A, k36);
    if (ids.empty() || !C.ok())
      continue;
    ++checked;
    Ref rb(B), ra(A);
    Preimages restricted = preimages(ra, ids);
    for (uint64_t f = 0; f < rb.numInputs(); ++f) {
      Point x = rb.inPoint(f);
      Point cx = C->apply(x).value();
      bool onlyIdentity = true, noIdentity = true;
      for (const auto& [name, v] : x) {
        bool isId = hasName(ids, name);
        onlyIdentity = onlyIdentity && (isId || v == 0);
        noIdentity = noIdentity && (!isId || v == 0);
      }
      if (onlyIdentity) { // C(d = v) = (d = v) on identity dims, 0 elsewhere
        for (const DimSize& d : A.getInDims())
          ASSERT_EQ(valueOf(cx, d.name), hasName(ids, d.name) ? valueOf(x, d.name) : 0);
      }
      if (noIdentity) { // the rest: the smallest preimage among outer's non-identity dims
        ASSERT_EQ(flatIn(ra, cx), restricted.smallest.at(flatOut(ra, B.apply(x).value())));
      }
    }
  }
  EXPECT_GT(checked, 10);
}

TEST(InvertAndCompose, BroadcastWarpsMapToThemselves) {
  // Both layouts broadcast over warps (zero bases): the identity rule maps warp w to warp w,
  // where the smallest preimage alone would send every warp to warp 0.
  LinearLayout A = identity1D(4, S("lane"), S("dim0")) * zeros1D(4, S("warp"), S("dim0"));
  LinearLayout B = LinearLayout::create({{S("lane"), {{2}, {1}}}, {S("warp"), {{0}, {0}}}},
                                        {{S("dim0"), 4}}, false)
                       .value();
  LinearLayout C = B.invertAndCompose(A).value();
  for (uint64_t w = 0; w < 4; ++w)
    for (uint64_t l = 0; l < 4; ++l) {
      uint64_t swapped = ((l & 1) << 1) | (l >> 1);
      EXPECT_EQ(C.apply({{S("lane"), l}, {S("warp"), w}}).value(),
                (Point{{S("lane"), swapped}, {S("warp"), w}}));
    }
  // Without the shared warp dim the smallest preimage is warp 0.
  LinearLayout B2 = B.renameInDim(S("warp"), S("w2")).value();
  LinearLayout C2 = B2.invertAndCompose(A).value();
  for (uint64_t w = 0; w < 4; ++w)
    EXPECT_EQ(C2.apply({{S("lane"), 1}, {S("w2"), w}}).value(),
              (Point{{S("lane"), 2}, {S("warp"), 0}}));
}

TEST(InvertAndCompose, SmallestPreimageSmallExample) {
  // outer: registers 1 and 2 both hold element 1. this: lane 1 holds element 1.
  LinearLayout A =
      LinearLayout::create({{S("register"), {{1}, {1}}}}, {{S("dim0"), 2}}, false).value();
  LinearLayout B = identity1D(2, S("lane"), S("dim0"));
  LinearLayout C = B.invertAndCompose(A).value();
  EXPECT_EQ(C.apply({{S("lane"), 1}}).value(), (Point{{S("register"), 1}}));
}

TEST(InvertAndCompose, IdentityDimsCanLeaveTheRestUnsolvable) {
  // Triton 3.6's rule takes x as an identity dim; then z's image (1) is reachable only through
  // x, and the system has no solution of that form. Triton asserts; llcheck reports an error.
  // (Triton 3.9 solves z with x's column.)
  LinearLayout A =
      LinearLayout::create({{S("x"), {{1}}}, {S("y"), {{0}}}}, {{S("o"), 2}}, true).value();
  LinearLayout B =
      LinearLayout::create({{S("x"), {{1}}}, {S("z"), {{1}}}}, {{S("o"), 2}}, true).value();
  EXPECT_FALSE(B.invertAndCompose(A, k36).ok());
  // The same with an invertible outer: A = identity on (x, y) -> (o bit 0, o bit 1).
  LinearLayout A2 =
      LinearLayout::create({{S("x"), {{1}}}, {S("y"), {{2}}}}, {{S("o"), 4}}, true).value();
  LinearLayout B2 =
      LinearLayout::create({{S("x"), {{1}}}, {S("z"), {{1}, {2}}}}, {{S("o"), 4}}, true).value();
  ASSERT_TRUE(A2.isInvertible());
  EXPECT_FALSE(B2.invertAndCompose(A2, k36).ok());
  // Without the shared name there is no identity dim, and A2^-1 ∘ B2 is the answer.
  LinearLayout B3 = B2.renameInDim(S("x"), S("w")).value();
  EXPECT_EQ(B3.invertAndCompose(A2, k36).value(), B3.compose(A2.invert().value()).value());
}

TEST(InvertAndCompose, OuterNeedNotBeSurjective) {
  // outer reaches dim0 0..3 of 8: enough for this, whose dim0 has size 4.
  LinearLayout A = LinearLayout::create({{S("lane"), {{1}, {2}}}}, {{S("dim0"), 8}}, false).value();
  LinearLayout B = identity1D(4, S("register"), S("dim0"));
  LinearLayout C = B.invertAndCompose(A).value();
  for (uint64_t r = 0; r < 4; ++r)
    EXPECT_EQ(C.apply({{S("register"), r}}).value(), (Point{{S("lane"), r}}));
}

TEST(InvertAndCompose, ErrorCases) {
  LinearLayout A = identity1D(4, S("lane"), S("dim0")) * identity1D(4, S("warp"), S("dim1"));
  // Different output dims.
  auto r = identity1D(4, S("lane"), S("dim0")).invertAndCompose(A);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("differ"), std::string::npos) << r.error().str();
  // this's output larger than outer's.
  LinearLayout big = identity1D(8, S("lane"), S("dim0")) * identity1D(4, S("warp"), S("dim1"));
  auto b = big.invertAndCompose(A);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().str().find("larger than"), std::string::npos) << b.error().str();
  // outer does not cover this layout's image.
  LinearLayout notSurj =
      strided1D(4, 2, S("lane"), S("dim0")) * identity1D(4, S("warp"), S("dim1"));
  LinearLayout small = identity1D(4, S("lane"), S("dim0")) * identity1D(4, S("warp"), S("dim1"));
  auto n = small.invertAndCompose(notSurj);
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.error().str().find("does not cover"), std::string::npos) << n.error().str();
}

/// Outer's input dims that Triton 3.9's rule maps by the identity: the dims equal in both (same
/// size, same bases) when every dim of this is one, the output sizes agree and each one's span
/// in outer meets the span of outer's other dims only in 0; otherwise the equal dims whose
/// bases are all zero.
std::vector<DimName> identityDims39(const LinearLayout& B, const LinearLayout& A) {
  bool sameSizes = true;
  for (const DimSize& o : B.getOutDims())
    sameSizes = sameSizes && A.getOutDimSize(o.name) == o.size;
  std::vector<DimName> equal, zero;
  for (const DimSize& d : A.getInDims()) {
    if (!B.hasInDim(d.name) || B.getInDimSize(d.name) != d.size)
      continue;
    bool same = true, allZero = true;
    for (int i = 0; i < log2Of(d.size); ++i)
      for (const DimSize& o : A.getOutDims()) {
        uint64_t a = A.getBasis(d.name, i, o.name);
        uint64_t b = B.hasOutDim(o.name) ? B.getBasis(d.name, i, o.name) : 0;
        same = same && a == b;
        allZero = allZero && a == 0;
      }
    if (same)
      equal.push_back(d.name);
    if (same && allZero)
      zero.push_back(d.name);
  }
  bool all = sameSizes;
  for (const DimSize& d : B.getInDims())
    all = all && hasName(equal, d.name);
  auto rankOf = [&](auto keep) {
    XorBasis basis;
    for (const DimSize& d : A.getInDims())
      if (keep(d.name))
        for (int i = 0; i < log2Of(d.size); ++i) {
          uint64_t flat = 0;
          int shift = 0;
          for (const DimSize& o : A.getOutDims()) {
            flat |= A.getBasis(d.name, i, o.name) << shift;
            shift += log2Of(o.size);
          }
          basis.insert(flat, 0);
        }
    return basis.rank();
  };
  for (DimName e : equal)
    all = all &&
          rankOf([&](DimName n) { return n == e; }) + rankOf([&](DimName n) { return n != e; }) ==
              rankOf([](DimName) { return true; });
  return all ? equal : zero;
}

TEST(InvertAndCompose, Follows39Rule) {
  // Triton 3.9: identity dims by identityDims39, every other input of this to the smallest
  // preimage among all of outer's inputs; an error exactly when one has none.
  Gen g(605);
  int solved = 0, withIdentityDims = 0, unsolvable = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout A = randomOuter(g, t);
    LinearLayout B = randomThis(g, A);
    std::vector<DimName> ids = identityDims39(B, A);
    Ref ra(A), rb(B);
    Preimages all = preimages(ra, {});
    bool reachable = true;
    for (uint64_t f = 0; f < rb.numInputs(); ++f) {
      Point x = rb.inPoint(f);
      bool onOtherDims = true;
      for (DimName d : ids)
        onOtherDims = onOtherDims && valueOf(x, d) == 0;
      reachable =
          reachable && (!onOtherDims || all.smallest.count(flatOut(ra, B.apply(x).value())));
    }
    auto C = B.invertAndCompose(A, TritonVersion::v3_9);
    ASSERT_EQ(C.ok(), reachable) << (C.ok() ? "" : C.error().str()) << B.toString() << "\n"
                                 << A.toString();
    if (!C.ok()) {
      ++unsolvable;
      continue;
    }
    ++solved;
    withIdentityDims += !ids.empty();
    for (uint64_t f = 0; f < rb.numInputs(); ++f) {
      Point x = rb.inPoint(f), rest = x, identity;
      for (auto& [name, v] : rest)
        if (hasName(ids, name)) {
          identity.emplace_back(name, v);
          v = 0;
        }
      uint64_t expected =
          all.smallest.at(flatOut(ra, B.apply(rest).value())) ^ flatIn(ra, identity);
      ASSERT_EQ(flatIn(ra, C->apply(x).value()), expected) << B.toString() << "\n" << A.toString();
    }
  }
  EXPECT_GT(solved, kTrials / 2);
  EXPECT_GT(withIdentityDims, 10);
  EXPECT_GT(unsolvable, 10);
}

TEST(InvertAndCompose, InputDimsLeftOnOneSideOnly) {
  // this = [warp], outer = [register, warp] with equal warps: Triton 3.6 aborts once the warps
  // are set aside (only outer has dims left); llcheck returns the solution.
  LinearLayout outer =
      identity1D(2, S("register"), S("dim0")) * identity1D(2, S("warp"), S("dim0"));
  LinearLayout thisWarp =
      LinearLayout::create({{S("warp"), {{2}}}}, {{S("dim0"), 4}}, false).value();
  LinearLayout C = thisWarp.invertAndCompose(outer).value();
  EXPECT_EQ(C.apply({{S("warp"), 1}}).value(), (Point{{S("register"), 0}, {S("warp"), 1}}));
  // No input dims at all on one side.
  LinearLayout none = LinearLayout::create({}, {{S("dim0"), 4}}, false).value();
  LinearLayout C2 = none.invertAndCompose(outer).value();
  EXPECT_EQ(C2.getNumInDims(), 0);
  EXPECT_EQ(C2.getOutDimNames(), outer.getInDimNames());
}

} // namespace
} // namespace llcheck::test
