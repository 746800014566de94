// The laws of compose and product against their definitions, evaluated point by point.
// Each law is one function; Laws.cpp registers them in one table (Catalog.h).
#include "Catalog.h"
#include "Support.h"

namespace llcheck::fuzz::laws {

// ---- compose -------------------------------------------------------------------------------

// A : in -> dim*, B : dim* (at least A's sizes) -> out*, C : out* -> z*.
rc::Gen<Case> composable(int count) {
  return fromDraws([count]() {
    Case c;
    LinearLayout a = drawLayout(Kind::Any, Names::Arbitrary, 6);
    c.layouts.push_back(a);
    for (int k = 1; k < count; ++k) {
      DimBits ins = bitsOf(c.layouts.back().getOutDims());
      for (auto& d : ins)
        d.second += pick(0, 1);
      DimBits outs;
      for (int i = 0, n = pick(0, 2); i < n; ++i)
        outs.emplace_back(DimName((k % 2 ? "out" : "dim") + std::to_string(i)), pick(0, 3));
      c.layouts.push_back(drawLayoutOn(ins, outs));
    }
    return c;
  });
}

Verdict composeDefinition(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(ba, a.compose(b), "A.compose(B)");
  if (auto v = composesTo(b, a, *ba, "B(A(x)) vs (B ∘ A)(x)"))
    return *v + "\nB ∘ A =" + str(*ba);
  return {};
}

Verdict composeAssociative(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1), &cc = c.layouts.at(2);
  LAW_TRY(ba, a.compose(b), "A.compose(B)");
  LAW_TRY(left, ba->compose(cc), "(B ∘ A).compose(C)");
  LAW_TRY(cb, b.compose(cc), "B.compose(C)");
  LAW_TRY(right, a.compose(*cb), "A.compose(C ∘ B)");
  LAW_REQUIRE(*left == *right, "(C ∘ B) ∘ A =" + str(*left) + "\nC ∘ (B ∘ A) =" + str(*right));
  return {};
}

Verdict composeIdentity(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(left, l.compose(identityOn(l.getOutDims())), "L.compose(id)");
  LAW_REQUIRE(*left == l, "id ∘ L =" + str(*left));
  LAW_TRY(right, identityOn(l.getInDims()).compose(l), "id.compose(L)");
  LAW_REQUIRE(*right == l, "L ∘ id =" + str(*right));
  return {};
}

// ---- product -------------------------------------------------------------------------------

Verdict productDefinition(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(p, product(a, b), "A * B");
  RefLayout ra(a), rb(b), rp(*p);
  for (const DimSize& d : rp.ins())
    LAW_REQUIRE(d.size == (a.hasInDim(d.name) ? a.getInDimSize(d.name) : 1) *
                              (b.hasInDim(d.name) ? b.getInDimSize(d.name) : 1),
                "input dim " + d.name.str() + " has the wrong size");
  for (uint64_t f = 0; f < rp.numInputs(); ++f) {
    std::vector<uint64_t> x = rp.unflattenIn(f), xa, xb;
    for (const DimSize& d : ra.ins()) {
      uint64_t v = RefLayout::valueOf(rp.ins(), x, d.name);
      xa.push_back(v % d.size);
    }
    for (const DimSize& d : rb.ins()) {
      uint64_t v = RefLayout::valueOf(rp.ins(), x, d.name);
      xb.push_back(v / (a.hasInDim(d.name) ? a.getInDimSize(d.name) : 1));
    }
    std::vector<uint64_t> ya = ra.eval(xa), yb = rb.eval(xb), y = rp.eval(x);
    for (std::size_t o = 0; o < rp.outs().size(); ++o) {
      DimName n = rp.outs()[o].name;
      uint64_t lowSize = a.hasOutDim(n) ? a.getOutDimSize(n) : 1;
      uint64_t want =
          RefLayout::valueOf(ra.outs(), ya, n) + RefLayout::valueOf(rb.outs(), yb, n) * lowSize;
      LAW_REQUIRE(y[o] == want, "input " + vecStr(x) + ", output " + n.str() + ": " +
                                    std::to_string(y[o]) + ", expected " + std::to_string(want) +
                                    "\nA * B =" + str(*p));
    }
  }
  return {};
}

rc::Gen<Case> productAssociativeCases() {
  return rc::gen::map(rc::gen::tuple(smallAny(4), smallAny(4), smallAny(4)),
                      [](std::tuple<LinearLayout, LinearLayout, LinearLayout> t) {
                        Case c;
                        c.layouts = {std::get<0>(t), std::get<1>(t), std::get<2>(t)};
                        return c;
                      });
}

Verdict productAssociative(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1), &cc = c.layouts.at(2);
  LAW_TRY(ab, product(a, b), "A * B");
  LAW_TRY(left, product(*ab, cc), "(A * B) * C");
  LAW_TRY(bc, product(b, cc), "B * C");
  LAW_TRY(right0, product(a, *bc), "A * (B * C)");
  LAW_TRY(right1, right0->transposeIns(left->getInDimNames()), "transposeIns");
  LAW_TRY(right, right1->transposeOuts(left->getOutDimNames()), "transposeOuts");
  LAW_REQUIRE(*left == *right, "(A * B) * C =" + str(*left) + "\nA * (B * C) =" + str(*right));
  return {};
}

Verdict productIdentity(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(left, product(LinearLayout::empty(), l), "empty * L");
  LAW_TRY(right, product(l, LinearLayout::empty()), "L * empty");
  LAW_REQUIRE(*left == l && *right == l, "not L:" + str(*left) + "\n" + str(*right));
  return {};
}

rc::Gen<Case> productDimMergingCases() {
  return fromDraws([]() {
    Case c;
    c.params = {pick(0, 6), pick(0, 6), pick(0, 3)};
    return c;
  });
}

Verdict productDimMerging(const Case& c) {
  uint64_t a = uint64_t{1} << c.params.at(0), b = uint64_t{1} << c.params.at(1),
           s = uint64_t{1} << c.params.at(2);
  DimName in("in0"), out("dim0");
  LAW_TRY(ia, LinearLayout::identity1D(a, in, out), "identity1D");
  LAW_TRY(ib, LinearLayout::identity1D(b, in, out), "identity1D");
  LAW_TRY(iab, LinearLayout::identity1D(a * b, in, out), "identity1D");
  LAW_TRY(p, product(*ia, *ib), "product");
  LAW_REQUIRE(*p == *iab, "identity1D(a) * identity1D(b) =" + str(*p));
  LAW_TRY(za, LinearLayout::zeros1D(a, in, out), "zeros1D");
  LAW_TRY(zb, LinearLayout::zeros1D(b, in, out), "zeros1D");
  LAW_TRY(zab, LinearLayout::zeros1D(a * b, in, out), "zeros1D");
  LAW_TRY(pz, product(*za, *zb), "product");
  LAW_REQUIRE(*pz == *zab, "zeros1D(a) * zeros1D(b) =" + str(*pz));
  LAW_TRY(sa, LinearLayout::strided1D(a, s, in, out), "strided1D");
  LAW_TRY(ps, product(*sa, *ib), "product");
  LAW_REQUIRE(ps->getOutDimSize(out) == a * s * b,
              "strided1D(a, s) * identity1D(b) has dim0 of size " +
                  std::to_string(ps->getOutDimSize(out)));
  RefLayout r(*ps);
  for (uint64_t x = 0; x < a * b; ++x) {
    uint64_t want = (x % a) * s + (x / a) * a * s;
    LAW_REQUIRE(r.eval({x})[0] == want, "strided1D(a, s) * identity1D(b) at " + std::to_string(x) +
                                            ": " + std::to_string(r.eval({x})[0]));
  }
  return {};
}

} // namespace llcheck::fuzz::laws
