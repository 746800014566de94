// The bit-vector encoding of a layout computes L: with the inputs fixed to constants, Z3's
// simplifier must reduce every output to the value the reference evaluator computes.
#include "ProverTestUtil.h"

#include "Encoding.h"

namespace llcheck::test {
namespace {

TEST(Encoding, ApplyMatchesTheReferenceEvaluator) {
  Gen g(4242);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any(12);
    Ref r(l);
    smt::Context ctx;
    for (int k = 0; k < 8; ++k) {
      uint64_t f = g.below(r.numInputs());
      Point in = r.inPoint(f);
      smt::Values out = smt::apply(ctx, l, smt::constants(ctx, l.inDims(), in));
      std::vector<uint64_t> expected = r.eval(r.unflattenIn(f));
      ASSERT_EQ(out.dims.size(), expected.size());
      for (std::size_t d = 0; d < expected.size(); ++d) {
        uint64_t got = 0;
        if (out.dims[d].expr) {
          ASSERT_TRUE(out.dims[d].expr->simplify().is_numeral_u64(got));
        }
        EXPECT_EQ(got, expected[d]) << l.toString() << " at " << describePoint(in);
      }
    }
  }
}

TEST(Encoding, VariablesAreOnePerDimAndSharedByName) {
  smt::Context ctx;
  LinearLayout a = identity1D(8, S("lane"), S("dim0")) * identity1D(1, S("warp"), S("dim0"));
  smt::Values x = smt::variables(ctx, a.inDims(), "x!");
  ASSERT_EQ(x.dims.size(), 2u);
  EXPECT_EQ(x.dims[0].width, 3u);
  EXPECT_EQ(x.dims[1].width, 0u); // size 1: no variable, always 0
  EXPECT_FALSE(x.dims[1].expr.has_value());
  // Two layouts applied to the same Values relate the same inputs: id(x) = id(x) is valid.
  smt::Solver s(ctx, {});
  EXPECT_EQ(s.check(!smt::apply(ctx, a, x).equals(ctx, smt::apply(ctx, a, x))).verdict,
            smt::Verdict::Proven);
}

} // namespace
} // namespace llcheck::test
