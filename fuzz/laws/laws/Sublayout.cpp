// The laws of sublayout, concatIns, concatOuts and quotient against their definitions.
// Each law is one function; Laws.cpp registers them in one table (Catalog.h).
#include "Catalog.h"
#include "Support.h"

namespace llcheck::fuzz::laws {

// ---- sublayout, concat, quotient -----------------------------------------------------------

rc::Gen<Case> sublayoutRestrictionCases() {
  return fromDraws([]() {
    Case c;
    c.layouts.push_back(drawLayout(Kind::Any, Names::Arbitrary));
    c.params = {pick(0, 7), pick(0, 7)};
    return c;
  });
}

Verdict sublayoutRestriction(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  std::vector<DimName> ins, outs;
  for (int i = 0; i < l.getNumInDims(); ++i)
    if ((c.params.at(0) >> i) & 1)
      ins.push_back(l.getInDimNames()[static_cast<std::size_t>(i)]);
  for (int i = 0; i < l.getNumOutDims(); ++i)
    if ((c.params.at(1) >> i) & 1)
      outs.push_back(l.getOutDimNames()[static_cast<std::size_t>(i)]);
  LAW_TRY(s, l.sublayout(ins, outs), "sublayout");
  RefLayout rl(l), rs(*s);
  for (uint64_t f = 0; f < rs.numInputs(); ++f) {
    std::vector<uint64_t> x = rs.unflattenIn(f);
    std::vector<uint64_t> y = rl.eval(byName(rl, rs.ins(), x));
    LAW_REQUIRE(outByName(rs, rl.outs(), y) == rs.eval(x),
                "input " + vecStr(x) + ": sublayout gives " + vecStr(rs.eval(x)) + ", L gives " +
                    vecStr(y));
  }
  bool zero = true;
  for (uint64_t v : rs.table())
    zero = zero && v == 0;
  LAW_TRY(isZero, l.sublayoutIsZero(ins, outs), "sublayoutIsZero");
  LAW_REQUIRE(*isZero == zero, "sublayoutIsZero disagrees with the table");
  return {};
}

rc::Gen<Case> concatInsSumCases() {
  return fromDraws([]() {
    LinearLayout a = drawLayout(Kind::Any, Names::Arbitrary, 5);
    DimBits outs = bitsOf(a.getOutDims());
    LinearLayout b = drawLayoutOn({{DimName("b0"), pick(0, 3)}, {DimName("b1"), pick(0, 2)}}, outs);
    Case c;
    c.layouts = {a, b};
    return c;
  });
}

Verdict concatInsSum(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(ab, a.concatIns(b), "concatIns");
  RefLayout ra(a), rb(b), rab(*ab);
  for (uint64_t f = 0; f < rab.numInputs(); ++f) {
    std::vector<uint64_t> x = rab.unflattenIn(f);
    std::vector<uint64_t> ya = ra.eval(byName(ra, rab.ins(), x)),
                          yb = rb.eval(byName(rb, rab.ins(), x)), y = rab.eval(x);
    for (std::size_t o = 0; o < y.size(); ++o)
      LAW_REQUIRE(y[o] == (ya[o] ^ yb[o]), "input " + vecStr(x) + ": " + vecStr(y) + " is not " +
                                               vecStr(ya) + " xor " + vecStr(yb));
  }
  LAW_TRY(back, ab->sublayout(a.getInDimNames(), a.getOutDimNames()), "sublayout");
  LAW_REQUIRE(*back == a, "sublayout of the concatenation is not A:" + str(*back));
  return {};
}

rc::Gen<Case> concatOutsPairCases() {
  return fromDraws([]() {
    LinearLayout a = drawLayout(Kind::Any, Names::Arbitrary, 5);
    DimBits ins = bitsOf(a.getInDims());
    LinearLayout b = drawLayoutOn(ins, {{DimName("z0"), pick(0, 3)}});
    Case c;
    c.layouts = {a, b};
    return c;
  });
}

Verdict concatOutsPair(const Case& c) {
  const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
  LAW_TRY(ab, a.concatOuts(b), "concatOuts");
  RefLayout ra(a), rb(b), rab(*ab);
  for (uint64_t f = 0; f < rab.numInputs(); ++f) {
    std::vector<uint64_t> x = rab.unflattenIn(f);
    std::vector<uint64_t> want = ra.eval(x), yb = rb.eval(x);
    want.insert(want.end(), yb.begin(), yb.end());
    LAW_REQUIRE(rab.eval(x) == want,
                "input " + vecStr(x) + ": " + vecStr(rab.eval(x)) + ", expected " + vecStr(want));
  }
  LAW_TRY(back, ab->sublayout(b.getInDimNames(), b.getOutDimNames()), "sublayout");
  LAW_REQUIRE(*back == b, "sublayout of the concatenation is not B:" + str(*back));
  return {};
}

rc::Gen<Case> quotientDefinitionCases() {
  return fromDraws([]() {
    Case c;
    int tb = pick(0, 3);
    LinearLayout m = drawLayout(Kind::Any, Names::Arbitrary, 5);
    if (pick(0, 1) == 0) {
      c.layouts.push_back(
          m * LinearLayout::identity1D(uint64_t{1} << tb, DimName("t"), DimName("t")).value());
      c.layouts.push_back(m);
    } else {
      DimBits ins = bitsOf(m.getInDims()), outs = bitsOf(m.getOutDims());
      ins.emplace_back(DimName("t"), tb);
      outs.emplace_back(DimName("t"), pick(0, 3));
      c.layouts.push_back(drawLayoutOn(ins, outs));
    }
    return c;
  });
}

// M : in0, t -> dim0, t; trivial over t when it is M' * identity(t) (params[0] = 1).
Verdict quotientDefinition(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  DimName t("t");
  // The definition, from the bases and sizes.
  bool trivial = l.hasInDim(t) && l.hasOutDim(t) && l.getInDimSize(t) == l.getOutDimSize(t);
  std::vector<DimSize> outs = l.getOutDims();
  for (const DimBases& db : l.getBases())
    for (std::size_t i = 0; trivial && i < db.bases.size(); ++i)
      for (std::size_t o = 0; o < outs.size(); ++o) {
        uint64_t want = db.name == t && outs[o].name == t ? uint64_t{1} << i : 0;
        if ((db.name == t || outs[o].name == t) && db.bases[i][o] != want)
          trivial = false;
      }
  LAW_REQUIRE(l.isTrivialOver({t}) == trivial,
              std::string("isTrivialOver({t}) = ") + (trivial ? "false" : "true") +
                  ", the definition says " + (trivial ? "true" : "false"));
  std::optional<LinearLayout> q = l.quotient({t});
  LAW_REQUIRE(q.has_value() == trivial, "quotient exists iff trivial");
  if (q && c.layouts.size() > 1)
    LAW_REQUIRE(*q == c.layouts[1], "quotient({t}) of M * id(t) is not M:" + str(*q));
  return {};
}

} // namespace llcheck::fuzz::laws
