// The laws of invert, pseudoinvert, invertAndCompose and divide.
// Each law is one function; Laws.cpp registers them in one table (Catalog.h).
#include "Catalog.h"
#include "Support.h"

#include <algorithm>
#include <bit>

namespace llcheck::fuzz::laws {

// ---- invert, pseudoinvert ------------------------------------------------------------------

Verdict invertLeftInverse(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(inv, l.invert(), "invert");
  RefLayout r(l), ri(*inv);
  auto toInv = Reindex::between(r.outs(), ri.ins()), back = Reindex::between(ri.outs(), r.ins());
  LAW_REQUIRE(toInv && back, "L^-1 has other dims than L" + str(*inv));
  std::vector<uint64_t> t = r.table(), ti = ri.table();
  for (uint64_t f = 0; f < t.size(); ++f)
    LAW_REQUIRE((*back)(ti[(*toInv)(t[f])]) == f,
                "x = " + vecStr(r.unflattenIn(f)) +
                    ", L^-1(L(x)) = " + vecStr(ri.unflattenOut(ti[(*toInv)(t[f])])));
  LAW_TRY(id, l.compose(*inv), "L.compose(L^-1)");
  LAW_REQUIRE(*id == identityOn(l.getInDims()), "L^-1 ∘ L =" + str(*id));
  return {};
}

Verdict invertRightInverse(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(inv, l.invert(), "invert");
  LAW_TRY(id, inv->compose(l), "L^-1.compose(L)");
  return isIdentityMap(*id, "L ∘ L^-1 is not the identity");
}

Verdict invertInvolution(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(inv, l.invert(), "invert");
  LAW_TRY(back, inv->invert(), "invert of L^-1");
  LAW_REQUIRE(*back == l, "(L^-1)^-1 =" + str(*back));
  return {};
}

Verdict invertExactlyWhenBijective(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  RefLayout r(l);
  bool bijective = r.numInputs() == r.numOutputs() && imageOf(r).size() == r.numOutputs();
  LAW_REQUIRE(l.invert().ok() == bijective,
              std::string("invert() ") +
                  (bijective ? "refused a bijection" : "accepted a non-bijection"));
  return {};
}

Verdict pseudoinvertRightInverse(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(p, l.pseudoinvert(), "pseudoinvert");
  RefLayout r(l), rp(*p);
  auto toL = Reindex::between(rp.outs(), r.ins()), back = Reindex::between(r.outs(), rp.ins());
  LAW_REQUIRE(toL && back, "R has other dims than L^-1 would" + str(*p));
  std::vector<uint64_t> t = r.table(), tp = rp.table();
  for (uint64_t f = 0; f < tp.size(); ++f)
    LAW_REQUIRE((*back)(t[(*toL)(tp[f])]) == f,
                "y = " + vecStr(rp.unflattenIn(f)) + ", R(y) = " + vecStr(rp.unflattenOut(tp[f])) +
                    ", L(R(y)) = " + vecStr(r.unflattenOut(t[(*toL)(tp[f])])));
  return {};
}

Verdict pseudoinvertEqualsInvert(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  LAW_TRY(p, l.pseudoinvert(), "pseudoinvert");
  LAW_TRY(i, l.invert(), "invert");
  LAW_REQUIRE(*p == *i, "pseudoinvert =" + str(*p) + "\ninvert =" + str(*i));
  return {};
}

// ---- invertAndCompose ----------------------------------------------------------------------

// B : in* -> dim* of `kind`; A : register, lane (disjoint from B's inputs) -> B's outputs.
rc::Gen<Case> solvable(Kind kind, Names names) {
  return fromDraws([kind, names]() {
    LinearLayout b = drawLayout(kind, names, 8);
    DimBits outs = bitsOf(b.getOutDims());
    int n = pick(0, 6);
    int r = pick(0, n);
    LinearLayout a = drawLayoutOn({{DimName(names == Names::Arbitrary ? "register" : "a0"), r},
                                   {DimName(names == Names::Arbitrary ? "lane" : "a1"), n - r}},
                                  outs);
    Case c;
    c.layouts = {a, b};
    return c;
  });
}

Verdict invertAndComposeSolves(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(cc, a.invertAndCompose(b), "A.invertAndCompose(B)");
  if (auto v = composesTo(b, *cc, a, "A(x) vs B(C(x))"))
    return *v + "\nC =" + str(*cc);
  return {};
}

Verdict invertAndComposeMinimalWeight(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(cc, a.invertAndCompose(b), "A.invertAndCompose(B)");
  RefLayout ra(a), rb(b), rc(*cc);
  std::vector<uint64_t> tb = rb.table();
  for (uint64_t bit = 1; bit < ra.numInputs(); bit <<= 1) {
    std::vector<uint64_t> x = ra.unflattenIn(bit);
    uint64_t want = rb.flattenOut(outByName(rb, ra.outs(), ra.eval(x)));
    int least = 65;
    for (uint64_t y = 0; y < tb.size(); ++y)
      if (tb[y] == want)
        least = std::min(least, std::popcount(y));
    uint64_t got = rb.flattenIn(byName(rb, rc.outs(), rc.eval(byName(rc, ra.ins(), x))));
    LAW_REQUIRE(std::popcount(got) == least,
                "input bit " + std::to_string(bit) + " -> B input " + std::to_string(got) +
                    " of weight " + std::to_string(std::popcount(got)) + ", the least is " +
                    std::to_string(least) + "\nC =" + str(*cc));
  }
  return {};
}

rc::Gen<Case> invertAndComposeIdentityDimsCases() {
  return fromDraws([]() {
    LinearLayout b0 = drawLayout(Kind::Surjective, Names::Arbitrary, 6);
    DimBits outs = bitsOf(b0.getOutDims());
    LinearLayout w = drawLayoutOn({{dims::kWarp, pick(0, 2)}}, outs);
    LinearLayout a0 = drawLayoutOn({{dims::kRegister, pick(0, 4)}}, outs);
    Case c;
    c.layouts = {a0.concatIns(w).value(), b0.concatIns(w).value()};
    return c;
  });
}

Verdict invertAndComposeIdentityDims(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(cc, a.invertAndCompose(b, TritonVersion::v3_6), "A.invertAndCompose(B)");
  LAW_TRY(aw, a.sublayout({dims::kWarp}, a.getOutDimNames()), "sublayout");
  LAW_TRY(bw, b.sublayout({dims::kWarp}, b.getOutDimNames()), "sublayout");
  RefLayout ra(a), rb(b), rc(*cc);
  for (uint64_t f = 0; f < ra.numInputs(); ++f) {
    std::vector<uint64_t> x = ra.unflattenIn(f);
    std::vector<uint64_t> cx = rc.eval(byName(rc, ra.ins(), x));
    LAW_REQUIRE(outByName(rb, ra.outs(), ra.eval(x)) == rb.eval(byName(rb, rc.outs(), cx)),
                "x = " + vecStr(x) + ": B(C(x)) != A(x)");
    if (*aw == *bw && x == byName(ra, {{dims::kWarp, a.getInDimSize(dims::kWarp)}},
                                  {RefLayout::valueOf(ra.ins(), x, dims::kWarp)})) {
      // x is a pure warp: C must keep it, and move nothing else.
      for (const DimSize& o : rc.outs())
        LAW_REQUIRE(RefLayout::valueOf(rc.outs(), cx, o.name) ==
                        (o.name == dims::kWarp ? RefLayout::valueOf(ra.ins(), x, dims::kWarp) : 0),
                    "warp " + std::to_string(RefLayout::valueOf(ra.ins(), x, dims::kWarp)) +
                        " is not mapped to itself: C =" + str(*cc));
    }
  }
  return {};
}

Verdict invertAndComposeEqualsComposeWithInverse(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(cc, a.invertAndCompose(b), "A.invertAndCompose(B)");
  LAW_TRY(inv, b.invert(), "B.invert");
  LAW_TRY(d, a.compose(*inv), "A.compose(B^-1)");
  LAW_REQUIRE(*cc == *d, "invertAndCompose =" + str(*cc) + "\ncompose(B^-1) =" + str(*d));
  return {};
}

// ---- divide --------------------------------------------------------------------------------

Verdict divideLeftUndoesTheProduct(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(p, product(a, b), "A * B");
  std::optional<LinearLayout> q = divideLeft(*p, a);
  LAW_REQUIRE(q.has_value(), "divideLeft(A * B, A) found no quotient; A * B =" + str(*p));
  LAW_TRY(back, product(a, *q), "A * quotient");
  LAW_REQUIRE(*back == *p, "A * quotient =" + str(*back) + "\nA * B =" + str(*p));
  return {};
}

Verdict divideRightUndoesTheProduct(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(p, product(a, b), "A * B");
  std::optional<LinearLayout> q = divideRight(*p, b);
  LAW_REQUIRE(q.has_value(), "divideRight(A * B, B) found no quotient; A * B =" + str(*p));
  LAW_TRY(back, product(*q, b), "quotient * B");
  LAW_REQUIRE(*back == *p, "quotient * B =" + str(*back) + "\nA * B =" + str(*p));
  return {};
}

} // namespace llcheck::fuzz::laws
