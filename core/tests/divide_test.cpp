// divideLeft / divideRight: C with A = B * C (resp. A = C * B), if one exists.
#include "TestLayouts.h"

namespace llcheck::test {
namespace {

/// The quotient D of A by B agrees with the C that A was built from: D has A's dims (those C
/// lacks with size 1), D's output sizes are A's over B's, and D(x) = C(x) for every x of C.
void expectSameAsC(const LinearLayout& D, const LinearLayout& C, const LinearLayout& A,
                   const LinearLayout& B) {
  EXPECT_EQ(D.getInDimNames(), A.getInDimNames());
  EXPECT_EQ(D.getOutDimNames(), A.getOutDimNames());
  for (const DimSize& d : D.getInDims())
    EXPECT_EQ(d.size, C.hasInDim(d.name) ? C.getInDimSize(d.name) : 1u);
  for (const DimSize& d : D.getOutDims())
    EXPECT_EQ(d.size, A.getOutDimSize(d.name) >> B.getOutDimSizeLog2(d.name));
  Ref rc(C);
  for (uint64_t f = 0; f < rc.numInputs(); ++f) {
    Point x = rc.inPoint(f), y = rc.evalPoint(f);
    Point xd;
    for (const DimSize& d : D.getInDims())
      xd.emplace_back(d.name, valueOf(x, d.name));
    Point yd = D.apply(xd).value();
    for (const DimSize& d : D.getOutDims())
      ASSERT_EQ(valueOf(yd, d.name), valueOf(y, d.name));
  }
}

/// Whether a product of B and C keeps both operands' dim orders (a supremum exists). When it
/// does not, the product's order is Triton's merge, the quotient (which takes A's order) need
/// not give A back, and Triton's own divideLeft/divideRight assert.
bool ordersAgree(const LinearLayout& B, const LinearLayout& C) {
  return supremum(B.getInDimNames(), C.getInDimNames()) &&
         supremum(B.getOutDimNames(), C.getOutDimNames());
}

TEST(Divide, LeftUndoesProduct) {
  Gen g(901);
  int checked = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout B = g.any(5), C = g.any(5);
    auto A = product(B, C);
    if (!A.ok() || !ordersAgree(B, C))
      continue;
    ++checked;
    auto D = divideLeft(*A, B);
    ASSERT_TRUE(D.has_value()) << A->toString() << "\n/" << B.toString();
    EXPECT_EQ(product(B, *D).value(), *A);
    expectSameAsC(*D, C, *A, B);
  }
  EXPECT_GT(checked, kTrials / 2);
}

TEST(Divide, RightUndoesProduct) {
  Gen g(902);
  int checked = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout B = g.any(5), C = g.any(5);
    auto A = product(C, B);
    if (!A.ok() || !ordersAgree(C, B))
      continue;
    ++checked;
    auto D = divideRight(*A, B);
    ASSERT_TRUE(D.has_value()) << A->toString() << "\n/" << B.toString();
    EXPECT_EQ(product(*D, B).value(), *A);
    // D(x) = C(x): C's outputs sit in the low bits of A's.
    EXPECT_EQ(D->getInDimNames(), A->getInDimNames());
    for (const DimSize& d : D->getOutDims())
      EXPECT_EQ(d.size, A->getOutDimSize(d.name) >> B.getOutDimSizeLog2(d.name));
    Ref rc(C);
    for (uint64_t f = 0; f < rc.numInputs(); ++f) {
      Point x = rc.inPoint(f), y = rc.evalPoint(f), xd;
      for (const DimSize& d : D->getInDims())
        xd.emplace_back(d.name, valueOf(x, d.name));
      Point yd = D->apply(xd).value();
      for (const DimSize& d : D->getOutDims())
        ASSERT_EQ(valueOf(yd, d.name), valueOf(y, d.name));
    }
  }
  EXPECT_GT(checked, kTrials / 2);
}

TEST(Divide, AnyQuotientFoundIsCorrect) {
  // Random A and B, including B taken from A's own first bases: whenever a quotient is
  // returned, the product gives A back.
  Gen g(903);
  int left = 0, right = 0;
  for (int t = 0; t < 2 * kTrials; ++t) {
    LinearLayout A = g.any(7);
    LinearLayout B = g.any(3);
    if (t % 2 && A.getNumInDims() > 0) {
      // A prefix of A's first dim, the other dims of size 1, often with the dims reordered.
      DimName d = A.getInDimNames()[0];
      B = A.resizeInDim(d, uint64_t{1} << g.range(0, A.getInDimSizeLog2(d))).value();
      for (DimName other : A.getInDimNames())
        if (other != d)
          B = B.resizeInDim(other, 1).value();
      std::vector<DimName> ins = B.getInDimNames(), outs = B.getOutDimNames();
      g.shuffle(ins);
      g.shuffle(outs);
      B = B.transposeIns(ins).value().transposeOuts(outs).value();
    }
    if (auto D = divideLeft(A, B)) {
      ++left;
      EXPECT_EQ(product(B, *D).value(), A);
    }
    if (auto D = divideRight(A, B)) {
      ++right;
      EXPECT_EQ(product(*D, B).value(), A);
    }
  }
  EXPECT_GT(left, 10);
  EXPECT_GT(right, 10);
}

TEST(Divide, Examples) {
  DimName i = S("i"), o = S("o");
  EXPECT_EQ(divideLeft(identity1D(8, i, o), identity1D(4, i, o)), identity1D(2, i, o));
  EXPECT_EQ(divideRight(identity1D(8, i, o), identity1D(2, i, o)), identity1D(4, i, o));
  EXPECT_EQ(divideLeft(identity1D(8, i, o), identity1D(8, i, o)),
            LinearLayout::create({{i, {}}}, {{o, 1}}, true).value());
  // A tile: registers 0-3 hold a 4-element vector, the rest repeats it at stride 4.
  LinearLayout A = identity1D(4, S("register"), S("dim0")) * identity1D(32, S("lane"), S("dim0")) *
                   identity1D(2, S("register"), S("dim0"));
  auto D = divideLeft(A, identity1D(4, S("register"), S("dim0")));
  ASSERT_TRUE(D.has_value());
  EXPECT_EQ(D->getInDimSize(S("register")), 2u);
  EXPECT_EQ(D->getOutDimSize(S("dim0")), 64u);
}

TEST(Divide, NoQuotient) {
  DimName i = S("i"), o = S("o");
  LinearLayout A = identity1D(8, i, o);
  // B has an input or output dim A lacks.
  EXPECT_FALSE(divideLeft(A, identity1D(2, S("j"), o)).has_value());
  EXPECT_FALSE(divideLeft(A, identity1D(2, i, S("p"))).has_value());
  EXPECT_FALSE(divideRight(A, identity1D(2, S("j"), o)).has_value());
  // B larger than A.
  EXPECT_FALSE(divideLeft(A, identity1D(16, i, o)).has_value());
  EXPECT_FALSE(divideRight(A, identity1D(16, i, o)).has_value());
  // A's first bases are not B's.
  EXPECT_FALSE(divideLeft(A, zeros1D(2, i, o, 2)).has_value());
  EXPECT_FALSE(divideLeft(A, strided1D(2, 2, i, o)).has_value());
  // A's remaining bases are not multiples of B's output size.
  LinearLayout odd = LinearLayout::create({{i, {{1}, {3}}}}, {{o, 4}}, false).value();
  EXPECT_FALSE(divideLeft(odd, identity1D(2, i, o)).has_value());
  // A's last bases are not B's, shifted.
  EXPECT_FALSE(divideRight(A, zeros1D(2, i, o, 2)).has_value());
  LinearLayout swapped = LinearLayout::create({{i, {{2}, {1}}}}, {{o, 4}}, false).value();
  EXPECT_FALSE(divideRight(swapped, identity1D(2, i, o)).has_value());
  EXPECT_FALSE(divideLeft(swapped, identity1D(2, i, o)).has_value());
  // B orders the dims unlike A: B * C cannot be A (its order would be B's), so no quotient.
  LinearLayout ab = identity1D(2, S("a"), o) * identity1D(2, S("b"), S("p"));
  LinearLayout ba = zeros1D(1, S("b"), S("p")) * zeros1D(1, S("a"), o);
  EXPECT_FALSE(divideLeft(ab, ba).has_value());
  // C * B takes C's (= A's) order first, so divideRight succeeds.
  auto right = divideRight(ab, ba);
  ASSERT_TRUE(right.has_value());
  EXPECT_EQ(product(*right, ba).value(), ab);
  EXPECT_TRUE(divideLeft(ab, zeros1D(1, S("a"), o) * zeros1D(1, S("b"), S("p"))).has_value());
}

} // namespace
} // namespace llcheck::test
