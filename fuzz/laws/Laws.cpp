#include "Laws.h"

#include "Differential.h"
#include "Reference.h"

#include "llcheck/core/Enumeration.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <sstream>

namespace llcheck::fuzz {

// A law returns early with the first thing that does not hold. Macros, because a Verdict must
// leave the law's lambda.
#define LAW_REQUIRE(cond, msg)                                                                     \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      return Verdict{std::string(msg)};                                                            \
  } while (0)
#define LAW_TRY(var, expr, what)                                                                   \
  auto var = (expr);                                                                               \
  if (!var.ok())                                                                                   \
    return Verdict {                                                                               \
      std::string(what) + " failed: " + var.error().str()                                          \
    }

namespace {

using DimBits = std::vector<std::pair<DimName, int>>;

std::string str(const LinearLayout& l) {
  std::string s = l.toString();
  return s.empty() ? "(empty layout)" : s;
}

std::string vecStr(const std::vector<uint64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

DimBits bitsOf(const std::vector<DimSize>& dims) {
  DimBits out;
  for (const DimSize& d : dims)
    out.emplace_back(d.name, std::countr_zero(d.size));
  return out;
}

/// The identity on these dims (each in -> out of the same name and size), in their order.
LinearLayout identityOn(const std::vector<DimSize>& dims) {
  LinearLayout id;
  for (const DimSize& d : dims)
    id = id * LinearLayout::identity1D(d.size, d.name, d.name).value();
  return id;
}

rc::Gen<Case> one(rc::Gen<LinearLayout> g) {
  return rc::gen::map(std::move(g), [](LinearLayout l) {
    Case c;
    c.layouts.push_back(std::move(l));
    return c;
  });
}

/// The inputs of r as values per dim of r, taken by name from (dims, x); missing ones are 0.
std::vector<uint64_t> byName(const RefLayout& r, const std::vector<DimSize>& dims,
                             const std::vector<uint64_t>& x) {
  std::vector<uint64_t> v;
  for (const DimSize& d : r.ins())
    v.push_back(RefLayout::valueOf(dims, x, d.name));
  return v;
}
/// The same for outputs of r taken from a point over `dims`.
std::vector<uint64_t> outByName(const RefLayout& r, const std::vector<DimSize>& dims,
                                const std::vector<uint64_t>& y) {
  std::vector<uint64_t> v;
  for (const DimSize& d : r.outs())
    v.push_back(RefLayout::valueOf(dims, y, d.name));
  return v;
}

/// Both layouts, evaluated from their bases, give the same flattened output for every
/// flattened input (what reshape and flatten must keep).
Verdict sameFlatTable(const LinearLayout& a, const LinearLayout& b, const std::string& what) {
  RefLayout ra(a), rb(b);
  LAW_REQUIRE(ra.numInputs() == rb.numInputs() && ra.numOutputs() == rb.numOutputs(),
              what + ": sizes differ:" + str(a) + "\nvs" + str(b));
  std::vector<uint64_t> ta = ra.table(), tb = rb.table();
  for (uint64_t f = 0; f < ta.size(); ++f)
    LAW_REQUIRE(ta[f] == tb[f], what + ": flat input " + std::to_string(f) + " -> " +
                                    std::to_string(ta[f]) + " before, " + std::to_string(tb[f]) +
                                    " after:" + str(a) + "\nvs" + str(b));
  return {};
}

/// Moves a flat index over `from` to the flat index of the same named point over `to` (the same
/// names in another order, each at least as large in `to`; dims of size 1 may be missing).
class Reindex {
public:
  static std::optional<Reindex> between(const std::vector<DimSize>& from,
                                        const std::vector<DimSize>& to) {
    Reindex r;
    for (const DimSize& d : from) {
      uint64_t stride = 1, found = 0;
      for (const DimSize& e : to) {
        if (e.name == d.name)
          found = e.size;
        else if (found == 0)
          stride *= e.size;
      }
      // A value below d's size keeps its place in a larger dim of `to` (compose allows it).
      if (found == 0 ? d.size > 1 : found < d.size)
        return std::nullopt;
      r.parts_.emplace_back(d.size, found ? stride : 0);
    }
    return r;
  }
  uint64_t operator()(uint64_t f) const {
    uint64_t g = 0;
    for (auto [size, stride] : parts_) {
      g += (f % size) * stride;
      f /= size;
    }
    return g;
  }

private:
  std::vector<std::pair<uint64_t, uint64_t>> parts_; // per `from` dim: size, stride in `to`
};

/// Both layouts map every named input point to the same named output point (dims in any
/// order, the same names and sizes).
Verdict sameByName(const LinearLayout& a, const LinearLayout& b, const std::string& what) {
  RefLayout ra(a), rb(b);
  auto in = Reindex::between(ra.ins(), rb.ins());
  auto out = Reindex::between(rb.outs(), ra.outs());
  LAW_REQUIRE(in && out && ra.numInputs() == rb.numInputs(), what + ": the dims differ");
  std::vector<uint64_t> ta = ra.table(), tb = rb.table();
  for (uint64_t f = 0; f < ta.size(); ++f)
    LAW_REQUIRE((*out)(tb[(*in)(f)]) == ta[f], what + ": input " + vecStr(ra.unflattenIn(f)) +
                                                   " -> " + vecStr(ra.unflattenOut(ta[f])) +
                                                   " vs " + vecStr(rb.unflattenOut(tb[(*in)(f)])));
  return {};
}

/// Every input maps to the output point of the same names and values.
Verdict isIdentityMap(const LinearLayout& l, const std::string& what) {
  RefLayout r(l);
  auto same = Reindex::between(r.outs(), r.ins());
  LAW_REQUIRE(same && r.numInputs() == r.numOutputs(), what + ": the dims differ" + str(l));
  std::vector<uint64_t> t = r.table();
  for (uint64_t f = 0; f < t.size(); ++f)
    LAW_REQUIRE((*same)(t[f]) == f, what + ": input " + vecStr(r.unflattenIn(f)) + " -> " +
                                        vecStr(r.unflattenOut(t[f])) + " in" + str(l));
  return {};
}

/// b(c(x)) = a(x) for every x: a and c have the same input dims, c's outputs are b's inputs and
/// b's outputs are a's (names and sizes; any order).
Verdict composesTo(const LinearLayout& b, const LinearLayout& c, const LinearLayout& a,
                   const std::string& what) {
  RefLayout ra(a), rb(b), rc(c);
  auto aToC = Reindex::between(ra.ins(), rc.ins()), cToB = Reindex::between(rc.outs(), rb.ins()),
       bToA = Reindex::between(rb.outs(), ra.outs());
  LAW_REQUIRE(aToC && cToB && bToA && ra.numInputs() == rc.numInputs(),
              what + ": the dims do not line up");
  std::vector<uint64_t> ta = ra.table(), tb = rb.table(), tc = rc.table();
  for (uint64_t f = 0; f < ta.size(); ++f) {
    uint64_t got = (*bToA)(tb[(*cToB)(tc[(*aToC)(f)])]);
    LAW_REQUIRE(got == ta[f], what + ": x = " + vecStr(ra.unflattenIn(f)) + ": " +
                                  vecStr(ra.unflattenOut(ta[f])) + " vs " +
                                  vecStr(ra.unflattenOut(got)));
  }
  return {};
}

const std::vector<std::string> kArchs = {"sm90", "gfx942", "gfx950"};

// ---- The laws ---------------------------------------------------------------------------------

std::vector<Law> makeLaws() {
  std::vector<Law> laws;
  auto add = [&](std::string name, std::string statement, rc::Gen<Case> gen,
                 std::function<Verdict(const Case&)> check) {
    laws.push_back({std::move(name), std::move(statement), std::move(gen), std::move(check)});
  };
  // Any names: arbitrary, distributed or memory.
  auto drawAnyNames = [](Kind k) { return drawLayout(k, static_cast<Names>(pick(0, 2))); };
  auto anyNames = [drawAnyNames](Kind k) {
    return fromDraws([drawAnyNames, k]() { return drawAnyNames(k); });
  };

  // ---- Evaluation and properties ----

  add("apply.matches_the_bases", "L(x), applyFlat and apply, is the XOR of the bases of x's bits",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        RefLayout r(l);
        std::vector<uint64_t> t = r.table();
        for (uint64_t f = 0; f < t.size(); ++f) {
          LAW_REQUIRE(l.applyFlat(f) == t[f], "applyFlat(" + std::to_string(f) +
                                                  ") = " + std::to_string(l.applyFlat(f)) +
                                                  ", the bases give " + std::to_string(t[f]));
          std::vector<uint64_t> x = r.unflattenIn(f);
          Point p;
          for (std::size_t d = 0; d < x.size(); ++d)
            p.emplace_back(r.ins()[d].name, x[d]);
          LAW_TRY(y, l.apply(p), "apply");
          std::vector<uint64_t> yv;
          for (const auto& [name, v] : *y)
            yv.push_back(v);
          LAW_REQUIRE(yv == r.eval(x), "apply" + vecStr(x) + " = " + vecStr(yv) +
                                           ", the bases give " + vecStr(r.eval(x)));
        }
        return {};
      });

  add("rank.enumerated",
      "rank, isInjective, isSurjective and isInvertible equal the counts of the whole table",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        RefLayout r(l);
        uint64_t distinct = imageOf(r).size();
        int rank = std::countr_zero(distinct);
        LAW_REQUIRE(l.rank() == rank, "rank() = " + std::to_string(l.rank()) + ", " +
                                          std::to_string(distinct) + " distinct outputs");
        LAW_REQUIRE(l.isInjective() == (distinct == r.numInputs()), "isInjective disagrees");
        LAW_REQUIRE(l.isSurjective() == (distinct == r.numOutputs()), "isSurjective disagrees");
        LAW_REQUIRE(l.isInvertible() == (distinct == r.numOutputs() && distinct == r.numInputs()),
                    "isInvertible disagrees");
        return {};
      });

  add("generators.make_what_they_promise",
      "the targeted generators' layouts are surjective, injective, invertible, distributed "
      "(Def. 4.10), memory (Def. 4.14) by enumeration",
      fromDraws([]() {
        int k = pick(0, 4);
        Case c;
        c.layouts.push_back(drawLayout(static_cast<Kind>(k + 1)));
        c.params.push_back(k);
        return c;
      }),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        RefLayout r(l);
        uint64_t distinct = imageOf(r).size();
        switch (c.params.at(0)) {
        case 0:
          LAW_REQUIRE(distinct == r.numOutputs(), "the surjective generator missed an output");
          break;
        case 1:
          LAW_REQUIRE(distinct == r.numInputs(), "the injective generator made a collision");
          break;
        case 2:
          LAW_REQUIRE(distinct == r.numInputs() && distinct == r.numOutputs(),
                      "the invertible generator made a non-bijection");
          break;
        case 3:
          if (auto v = distributedViolation(l); !v.empty())
            return "the distributed generator: " + v;
          break;
        default:
          if (auto v = memoryViolation(l); !v.empty())
            return "the memory generator: " + v;
        }
        return {};
      });

  add("free_variable_masks.enumerated",
      "getFreeVariableMasks equals the enumeration engine's masks, and every zero basis is free",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(e, EnumeratedLayout::build(l), "enumeration");
        std::vector<uint64_t> enumerated = e->freeVariableMasks();
        auto masks = l.getFreeVariableMasks();
        LAW_REQUIRE(masks.size() == enumerated.size(), "one mask per input dim");
        std::vector<DimBases> bases = l.getBases();
        for (std::size_t d = 0; d < masks.size(); ++d) {
          LAW_REQUIRE(masks[d].second == enumerated[d],
                      masks[d].first.str() + ": algebra mask " + std::to_string(masks[d].second) +
                          ", enumerated " + std::to_string(enumerated[d]));
          for (std::size_t i = 0; i < bases[d].bases.size(); ++i)
            if (std::all_of(bases[d].bases[i].begin(), bases[d].bases[i].end(),
                            [](uint64_t v) { return v == 0; }))
              LAW_REQUIRE((masks[d].second >> i) & 1, bases[d].name.str() + " basis " +
                                                          std::to_string(i) +
                                                          " is zero but not free");
        }
        return {};
      });

  add("num_consecutive.enumerated",
      "getNumConsecutiveInOut equals the largest V meeting its definition on every input",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(e, EnumeratedLayout::build(l), "enumeration");
        uint64_t algebra = l.getNumConsecutiveInOut(), enumerated = e->numConsecutiveInOut(0);
        LAW_REQUIRE(algebra == enumerated, "getNumConsecutiveInOut() = " + std::to_string(algebra) +
                                               ", enumerated " + std::to_string(enumerated));
        return {};
      });

  add("verify.algebra_agrees_with_enumeration",
      "verify() reports no disagreement between the algebra and the enumeration",
      one(rc::gen::oneOf(anyNames(Kind::Any), genLayout(Kind::Distributed),
                         genLayout(Kind::Memory))),
      [](const Case& c) -> Verdict {
        LAW_TRY(report, verify(c.layouts.at(0), VerifyOptions{}), "verify");
        LAW_REQUIRE(report->disagreements.empty(), "disagreement: " + report->disagreements[0]);
        LAW_REQUIRE(report->enumerationSkipped.empty(), "enumeration skipped");
        return {};
      });

  // ---- Wide layouts: the packing at 64 bits, checked at sample points ----

  // Layouts of up to 60 input and output bits (no dim may exceed 2^63), and sample inputs from
  // params[0]; the whole table is out of reach, so these check the points the samples reach.
  auto wide = [](Kind kind) {
    return fromDraws([kind]() {
      Case c;
      c.layouts.push_back(drawLayout(kind, static_cast<Names>(pick(0, 2)), 60));
      c.params.push_back(pick(0, 4095));
      return c;
    });
  };
  auto samples = [](const RefLayout& r, int64_t seed) {
    std::vector<uint64_t> xs = {0, r.numInputs() - 1};
    uint64_t z = static_cast<uint64_t>(seed);
    for (int k = 0; k < 30; ++k) {
      z += 0x9e3779b97f4a7c15ull;
      uint64_t v = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
      xs.push_back((v ^ (v >> 31)) % r.numInputs());
    }
    return xs;
  };

  add("apply.wide_layouts",
      "applyFlat and apply equal the XOR of the bases on layouts of up to 60 bits (sample points)",
      wide(Kind::Any), [samples](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        RefLayout r(l);
        for (uint64_t f : samples(r, c.params.at(0))) {
          std::vector<uint64_t> x = r.unflattenIn(f), y = r.eval(x);
          LAW_REQUIRE(l.applyFlat(f) == r.flattenOut(y),
                      "applyFlat(" + std::to_string(f) + ") = " + std::to_string(l.applyFlat(f)) +
                          ", the bases give " + vecStr(y));
          Point p;
          for (std::size_t d = 0; d < x.size(); ++d)
            p.emplace_back(r.ins()[d].name, x[d]);
          LAW_TRY(got, l.apply(p), "apply");
          std::vector<uint64_t> yv;
          for (const auto& [name, v] : *got)
            yv.push_back(v);
          LAW_REQUIRE(yv == y,
                      "apply" + vecStr(x) + " = " + vecStr(yv) + ", the bases give " + vecStr(y));
        }
        return {};
      });

  add("invert.wide_layouts",
      "L^-1(L(x)) = x and L(L^-1(y)) = y on invertible layouts of up to 60 bits (sample points)",
      wide(Kind::Invertible), [samples](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(inv, l.invert(), "invert");
        RefLayout r(l), ri(*inv);
        auto toInv = Reindex::between(r.outs(), ri.ins());
        auto back = Reindex::between(ri.outs(), r.ins());
        LAW_REQUIRE(toInv && back, "L^-1 has other dims than L" + str(*inv));
        for (uint64_t f : samples(r, c.params.at(0))) {
          uint64_t y = r.flattenOut(r.eval(r.unflattenIn(f)));
          uint64_t x = (*back)(ri.flattenOut(ri.eval(ri.unflattenIn((*toInv)(y)))));
          LAW_REQUIRE(x == f, "x = " + vecStr(r.unflattenIn(f)) +
                                  ", L^-1(L(x)) = " + vecStr(r.unflattenIn(x)));
          uint64_t g = (*toInv)(f % r.numOutputs()); // an output of L, as an input of L^-1
          uint64_t z = (*back)(ri.flattenOut(ri.eval(ri.unflattenIn(g))));
          uint64_t again = (*toInv)(r.flattenOut(r.eval(r.unflattenIn(z))));
          LAW_REQUIRE(again == g, "L(L^-1(y)) != y for y = " + vecStr(ri.unflattenIn(g)));
        }
        return {};
      });

  // ---- compose ----

  // A : in -> dim*, B : dim* (at least A's sizes) -> out*, C : out* -> z*.
  auto composable = [](int count) {
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
  };

  add("compose.definition", "(B ∘ A)(x) = B(A(x)) for every x", composable(2),
      [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
        LAW_TRY(ba, a.compose(b), "A.compose(B)");
        if (auto v = composesTo(b, a, *ba, "B(A(x)) vs (B ∘ A)(x)"))
          return *v + "\nB ∘ A =" + str(*ba);
        return {};
      });

  add("compose.associative", "(C ∘ B) ∘ A = C ∘ (B ∘ A)", composable(3),
      [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1), &cc = c.layouts.at(2);
        LAW_TRY(ba, a.compose(b), "A.compose(B)");
        LAW_TRY(left, ba->compose(cc), "(B ∘ A).compose(C)");
        LAW_TRY(cb, b.compose(cc), "B.compose(C)");
        LAW_TRY(right, a.compose(*cb), "A.compose(C ∘ B)");
        LAW_REQUIRE(*left == *right,
                    "(C ∘ B) ∘ A =" + str(*left) + "\nC ∘ (B ∘ A) =" + str(*right));
        return {};
      });

  add("compose.identity", "id ∘ L = L = L ∘ id", one(anyNames(Kind::Any)),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(left, l.compose(identityOn(l.getOutDims())), "L.compose(id)");
        LAW_REQUIRE(*left == l, "id ∘ L =" + str(*left));
        LAW_TRY(right, identityOn(l.getInDims()).compose(l), "id.compose(L)");
        LAW_REQUIRE(*right == l, "L ∘ id =" + str(*right));
        return {};
      });

  // ---- product ----

  auto smallAny = [](int bits) {
    return rc::gen::oneOf(genLayout(Kind::Any, Names::Arbitrary, bits),
                          genLayout(Kind::Distributed, Names::Distributed, bits),
                          genLayout(Kind::Surjective, Names::Arbitrary, bits));
  };
  auto pairOf = [](rc::Gen<LinearLayout> g) {
    return rc::gen::map(rc::gen::pair(g, g), [](std::pair<LinearLayout, LinearLayout> p) {
      Case c;
      c.layouts = {p.first, p.second};
      return c;
    });
  };

  add("product.definition",
      "(A * B)(x) = A(x's low bits) + B(x's high bits) shifted above A's outputs, dim by dim",
      pairOf(smallAny(5)), [](const Case& c) -> Verdict {
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
            uint64_t want = RefLayout::valueOf(ra.outs(), ya, n) +
                            RefLayout::valueOf(rb.outs(), yb, n) * lowSize;
            LAW_REQUIRE(y[o] == want, "input " + vecStr(x) + ", output " + n.str() + ": " +
                                          std::to_string(y[o]) + ", expected " +
                                          std::to_string(want) + "\nA * B =" + str(*p));
          }
        }
        return {};
      });

  add("product.associative",
      "(A * B) * C = A * (B * C), once both have the same dim order (Triton's merge of dim orders "
      "is not associative: [in0] * ([register] * [in0]) puts in0 last)",
      rc::gen::map(rc::gen::tuple(smallAny(4), smallAny(4), smallAny(4)),
                   [](std::tuple<LinearLayout, LinearLayout, LinearLayout> t) {
                     Case c;
                     c.layouts = {std::get<0>(t), std::get<1>(t), std::get<2>(t)};
                     return c;
                   }),
      [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1), &cc = c.layouts.at(2);
        LAW_TRY(ab, product(a, b), "A * B");
        LAW_TRY(left, product(*ab, cc), "(A * B) * C");
        LAW_TRY(bc, product(b, cc), "B * C");
        LAW_TRY(right0, product(a, *bc), "A * (B * C)");
        LAW_TRY(right1, right0->transposeIns(left->getInDimNames()), "transposeIns");
        LAW_TRY(right, right1->transposeOuts(left->getOutDimNames()), "transposeOuts");
        LAW_REQUIRE(*left == *right,
                    "(A * B) * C =" + str(*left) + "\nA * (B * C) =" + str(*right));
        return {};
      });

  add("product.identity", "empty * L = L = L * empty", one(anyNames(Kind::Any)),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(left, product(LinearLayout::empty(), l), "empty * L");
        LAW_TRY(right, product(l, LinearLayout::empty()), "L * empty");
        LAW_REQUIRE(*left == l && *right == l, "not L:" + str(*left) + "\n" + str(*right));
        return {};
      });

  add("product.dim_merging",
      "identity1D(a) * identity1D(b) = identity1D(a * b); zeros1D likewise; strided1D(a, s) * "
      "identity1D(b) reaches a * s * b",
      fromDraws([]() {
        Case c;
        c.params = {pick(0, 6), pick(0, 6), pick(0, 3)};
        return c;
      }),
      [](const Case& c) -> Verdict {
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
          LAW_REQUIRE(r.eval({x})[0] == want, "strided1D(a, s) * identity1D(b) at " +
                                                  std::to_string(x) + ": " +
                                                  std::to_string(r.eval({x})[0]));
        }
        return {};
      });

  // ---- invert, pseudoinvert ----

  add("invert.left_inverse", "L^-1(L(x)) = x for invertible L, and L^-1 ∘ L = id",
      one(anyNames(Kind::Invertible)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(inv, l.invert(), "invert");
        RefLayout r(l), ri(*inv);
        auto toInv = Reindex::between(r.outs(), ri.ins()),
             back = Reindex::between(ri.outs(), r.ins());
        LAW_REQUIRE(toInv && back, "L^-1 has other dims than L" + str(*inv));
        std::vector<uint64_t> t = r.table(), ti = ri.table();
        for (uint64_t f = 0; f < t.size(); ++f)
          LAW_REQUIRE((*back)(ti[(*toInv)(t[f])]) == f,
                      "x = " + vecStr(r.unflattenIn(f)) +
                          ", L^-1(L(x)) = " + vecStr(ri.unflattenOut(ti[(*toInv)(t[f])])));
        LAW_TRY(id, l.compose(*inv), "L.compose(L^-1)");
        LAW_REQUIRE(*id == identityOn(l.getInDims()), "L^-1 ∘ L =" + str(*id));
        return {};
      });

  add("invert.right_inverse", "L(L^-1(y)) = y for invertible L", one(anyNames(Kind::Invertible)),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(inv, l.invert(), "invert");
        LAW_TRY(id, inv->compose(l), "L^-1.compose(L)");
        return isIdentityMap(*id, "L ∘ L^-1 is not the identity");
      });

  add("invert.involution", "(L^-1)^-1 = L", one(anyNames(Kind::Invertible)),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(inv, l.invert(), "invert");
        LAW_TRY(back, inv->invert(), "invert of L^-1");
        LAW_REQUIRE(*back == l, "(L^-1)^-1 =" + str(*back));
        return {};
      });

  add("invert.exactly_when_bijective", "invert() succeeds iff the whole table is a bijection",
      one(rc::gen::oneOf(anyNames(Kind::Any), anyNames(Kind::Invertible),
                         anyNames(Kind::Surjective))),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        RefLayout r(l);
        bool bijective = r.numInputs() == r.numOutputs() && imageOf(r).size() == r.numOutputs();
        LAW_REQUIRE(l.invert().ok() == bijective,
                    std::string("invert() ") +
                        (bijective ? "refused a bijection" : "accepted a non-bijection"));
        return {};
      });

  add("pseudoinvert.right_inverse", "L(R(y)) = y for every y, R = pseudoinvert(L), L surjective",
      one(anyNames(Kind::Surjective)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(p, l.pseudoinvert(), "pseudoinvert");
        RefLayout r(l), rp(*p);
        auto toL = Reindex::between(rp.outs(), r.ins()),
             back = Reindex::between(r.outs(), rp.ins());
        LAW_REQUIRE(toL && back, "R has other dims than L^-1 would" + str(*p));
        std::vector<uint64_t> t = r.table(), tp = rp.table();
        for (uint64_t f = 0; f < tp.size(); ++f)
          LAW_REQUIRE((*back)(t[(*toL)(tp[f])]) == f,
                      "y = " + vecStr(rp.unflattenIn(f)) +
                          ", R(y) = " + vecStr(rp.unflattenOut(tp[f])) +
                          ", L(R(y)) = " + vecStr(r.unflattenOut(t[(*toL)(tp[f])])));
        return {};
      });

  add("pseudoinvert.equals_invert", "pseudoinvert(L) = invert(L) for invertible L",
      one(anyNames(Kind::Invertible)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(p, l.pseudoinvert(), "pseudoinvert");
        LAW_TRY(i, l.invert(), "invert");
        LAW_REQUIRE(*p == *i, "pseudoinvert =" + str(*p) + "\ninvert =" + str(*i));
        return {};
      });

  // ---- invertAndCompose ----

  // B : in* -> dim* of `kind`; A : register, lane (disjoint from B's inputs) -> B's outputs.
  auto solvable = [](Kind kind, Names names) {
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
  };

  add("invertAndCompose.solves", "C = A.invertAndCompose(B) has B(C(x)) = A(x) for surjective B",
      rc::gen::oneOf(solvable(Kind::Surjective, Names::Arbitrary),
                     solvable(Kind::Distributed, Names::Distributed),
                     solvable(Kind::Memory, Names::Memory)),
      [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
        LAW_TRY(cc, a.invertAndCompose(b), "A.invertAndCompose(B)");
        if (auto v = composesTo(b, *cc, a, "A(x) vs B(C(x))"))
          return *v + "\nC =" + str(*cc);
        return {};
      });

  add("invertAndCompose.minimal_weight",
      "for distributed or memory B, C maps each input bit to a preimage of least Hamming weight",
      rc::gen::oneOf(solvable(Kind::Distributed, Names::Distributed),
                     solvable(Kind::Memory, Names::Memory)),
      [](const Case& c) -> Verdict {
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
      });

  add("invertAndCompose.identity_dims",
      "an input dim with the same sublayout in A and B is mapped by the identity (Triton 3.6's "
      "rule), and B(C(x)) = A(x)",
      fromDraws([]() {
        LinearLayout b0 = drawLayout(Kind::Surjective, Names::Arbitrary, 6);
        DimBits outs = bitsOf(b0.getOutDims());
        LinearLayout w = drawLayoutOn({{dims::kWarp, pick(0, 2)}}, outs);
        LinearLayout a0 = drawLayoutOn({{dims::kRegister, pick(0, 4)}}, outs);
        Case c;
        c.layouts = {a0.concatIns(w).value(), b0.concatIns(w).value()};
        return c;
      }),
      [](const Case& c) -> Verdict {
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
              LAW_REQUIRE(
                  RefLayout::valueOf(rc.outs(), cx, o.name) ==
                      (o.name == dims::kWarp ? RefLayout::valueOf(ra.ins(), x, dims::kWarp) : 0),
                  "warp " + std::to_string(RefLayout::valueOf(ra.ins(), x, dims::kWarp)) +
                      " is not mapped to itself: C =" + str(*cc));
          }
        }
        return {};
      });

  add("invertAndCompose.equals_compose_with_inverse",
      "A.invertAndCompose(B) = A.compose(B^-1) for invertible B",
      solvable(Kind::Invertible, Names::Arbitrary), [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
        LAW_TRY(cc, a.invertAndCompose(b), "A.invertAndCompose(B)");
        LAW_TRY(inv, b.invert(), "B.invert");
        LAW_TRY(d, a.compose(*inv), "A.compose(B^-1)");
        LAW_REQUIRE(*cc == *d, "invertAndCompose =" + str(*cc) + "\ncompose(B^-1) =" + str(*d));
        return {};
      });

  // ---- divide ----

  add("divideLeft.undoes_the_product", "A * divideLeft(A * B, A) = A * B", pairOf(smallAny(5)),
      [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
        LAW_TRY(p, product(a, b), "A * B");
        std::optional<LinearLayout> q = divideLeft(*p, a);
        LAW_REQUIRE(q.has_value(), "divideLeft(A * B, A) found no quotient; A * B =" + str(*p));
        LAW_TRY(back, product(a, *q), "A * quotient");
        LAW_REQUIRE(*back == *p, "A * quotient =" + str(*back) + "\nA * B =" + str(*p));
        return {};
      });

  add("divideRight.undoes_the_product", "divideRight(A * B, B) * B = A * B", pairOf(smallAny(5)),
      [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
        LAW_TRY(p, product(a, b), "A * B");
        std::optional<LinearLayout> q = divideRight(*p, b);
        LAW_REQUIRE(q.has_value(), "divideRight(A * B, B) found no quotient; A * B =" + str(*p));
        LAW_TRY(back, product(*q, b), "quotient * B");
        LAW_REQUIRE(*back == *p, "quotient * B =" + str(*back) + "\nA * B =" + str(*p));
        return {};
      });

  // ---- reshape, flatten, transpose, squeeze, rename, resize ----

  // A random split of `bits` into 1 to 3 dims named prefix0, prefix1, ...
  auto withSplit = [drawAnyNames](Kind k) {
    return fromDraws([drawAnyNames, k]() {
      Case c;
      c.layouts.push_back(drawAnyNames(k));
      for (int i = 0, n = pick(1, 3); i < n; ++i)
        c.params.push_back(pick(0, 10));
      return c;
    });
  };
  auto splitOf = [](int bits, const std::vector<int64_t>& parts, const std::string& prefix) {
    std::vector<DimSize> dims;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      int b = i + 1 == parts.size() ? bits : std::min<int>(bits, static_cast<int>(parts[i]));
      dims.push_back({DimName(prefix + std::to_string(i)), uint64_t{1} << b});
      bits -= b;
    }
    return dims;
  };

  add("reshapeIns.keeps_the_flat_map",
      "reshapeIns keeps the map on flattened inputs, and reshaping back gives L",
      withSplit(Kind::Any), [splitOf](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(r, l.reshapeIns(splitOf(l.getTotalInDimSizeLog2(), c.params, "r")), "reshapeIns");
        if (auto v = sameFlatTable(l, *r, "reshapeIns"))
          return v;
        LAW_TRY(back, r->reshapeIns(l.getInDims()), "reshapeIns back");
        LAW_REQUIRE(*back == l, "reshaped back:" + str(*back));
        return {};
      });

  add("reshapeOuts.keeps_the_flat_map",
      "reshapeOuts keeps the map onto flattened outputs, and reshaping back gives L",
      withSplit(Kind::Any), [splitOf](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(r, l.reshapeOuts(splitOf(l.getTotalOutDimSizeLog2(), c.params, "s")),
                "reshapeOuts");
        if (auto v = sameFlatTable(l, *r, "reshapeOuts"))
          return v;
        LAW_TRY(back, r->reshapeOuts(l.getOutDims()), "reshapeOuts back");
        LAW_REQUIRE(*back == l, "reshaped back:" + str(*back));
        return {};
      });

  add("flatten.keeps_the_flat_map",
      "flattenIns and flattenOuts keep the flattened map and leave at most one dim each",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LinearLayout f = l.flattenIns().flattenOuts();
        LAW_REQUIRE(f.getNumInDims() <= 1 && f.getNumOutDims() <= 1,
                    "more than one dim left:" + str(f));
        return sameFlatTable(l, f, "flatten");
      });

  // A permutation of L's dims, as swaps in params (shrinks to the identity).
  auto withPermutation = [drawAnyNames](Kind k) {
    return fromDraws([drawAnyNames, k]() {
      Case c;
      c.layouts.push_back(drawAnyNames(k));
      for (int i = 0, n = pick(0, 4); i < n; ++i)
        c.params.push_back(pick(0, 15));
      return c;
    });
  };
  auto permuted = [](std::vector<DimName> names, const std::vector<int64_t>& swaps) {
    for (std::size_t i = 0; i + 1 < swaps.size() && !names.empty(); i += 2)
      std::swap(names[static_cast<std::size_t>(swaps[i]) % names.size()],
                names[static_cast<std::size_t>(swaps[i + 1]) % names.size()]);
    if (swaps.size() % 2 == 1 && names.size() > 1)
      std::reverse(names.begin(), names.end());
    return names;
  };

  add("transposeIns.round_trip",
      "transposeIns keeps the map on named points, and transposing back gives L",
      withPermutation(Kind::Any), [permuted](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(t, l.transposeIns(permuted(l.getInDimNames(), c.params)), "transposeIns");
        if (auto v = sameByName(l, *t, "transposeIns"))
          return v;
        LAW_TRY(back, t->transposeIns(l.getInDimNames()), "transposeIns back");
        LAW_REQUIRE(*back == l, "transposed back:" + str(*back));
        return {};
      });

  add("transposeOuts.round_trip",
      "transposeOuts keeps the map on named points, and transposing back gives L",
      withPermutation(Kind::Any), [permuted](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LAW_TRY(t, l.transposeOuts(permuted(l.getOutDimNames(), c.params)), "transposeOuts");
        if (auto v = sameByName(l, *t, "transposeOuts"))
          return v;
        LAW_TRY(back, t->transposeOuts(l.getOutDimNames()), "transposeOuts back");
        LAW_REQUIRE(*back == l, "transposed back:" + str(*back));
        return {};
      });

  add("squeeze.drops_size_one_dims",
      "squeezeIns and squeezeOuts remove every size-1 dim and keep the map",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LinearLayout s = l.squeezeIns().squeezeOuts();
        for (const DimSize& d : s.getInDims())
          LAW_REQUIRE(d.size > 1, "input dim " + d.name.str() + " of size 1 left");
        for (const DimSize& d : s.getOutDims())
          LAW_REQUIRE(d.size > 1, "output dim " + d.name.str() + " of size 1 left");
        return sameFlatTable(l, s, "squeeze");
      });

  add("rename.round_trip", "renaming an input and an output dim there and back gives L",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        LinearLayout r = l;
        if (l.getNumInDims() > 0) {
          DimName d = l.getInDimNames()[0];
          LAW_TRY(t, r.renameInDim(d, DimName("renamed")), "renameInDim");
          LAW_REQUIRE(t->getBases()[0].bases == l.getBases()[0].bases, "bases changed");
          LAW_TRY(back, t->renameInDim(DimName("renamed"), d), "renameInDim back");
          r = *back;
        }
        if (l.getNumOutDims() > 0) {
          DimName d = l.getOutDimNames()[0];
          LAW_TRY(t, r.renameOutDim(d, DimName("renamed")), "renameOutDim");
          LAW_TRY(back, t->renameOutDim(DimName("renamed"), d), "renameOutDim back");
          r = *back;
        }
        LAW_REQUIRE(r == l, "renamed there and back:" + str(r));
        return {};
      });

  add("resizeInDim.restriction", "resizeInDim(d, s) is L on the inputs with d below s",
      fromDraws([]() {
        Case c;
        c.layouts.push_back(drawLayout(Kind::Any, Names::Arbitrary));
        c.params = {pick(0, 2), pick(0, 10)};
        return c;
      }),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        if (l.getNumInDims() == 0)
          return {};
        DimName d = l.getInDimNames()[static_cast<std::size_t>(c.params.at(0)) %
                                      static_cast<std::size_t>(l.getNumInDims())];
        uint64_t size = uint64_t{1} << std::min<int64_t>(c.params.at(1), l.getInDimSizeLog2(d));
        LAW_TRY(r, l.resizeInDim(d, size), "resizeInDim");
        RefLayout rl(l), rr(*r);
        LAW_REQUIRE(rr.numInputs() * (l.getInDimSize(d) / size) == rl.numInputs(),
                    "wrong number of inputs");
        for (uint64_t f = 0; f < rr.numInputs(); ++f) {
          std::vector<uint64_t> x = rr.unflattenIn(f);
          LAW_REQUIRE(rl.eval(byName(rl, rr.ins(), x)) == rr.eval(x),
                      "input " + vecStr(x) + " maps elsewhere after resizeInDim");
        }
        return {};
      });

  add("removeZeroBasesAlongDim.same_image",
      "removeZeroBasesAlongDim keeps the image and leaves no zero basis in the dim",
      one(rc::gen::oneOf(genLayout(Kind::Distributed), anyNames(Kind::Any))),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        for (DimName d : l.getInDimNames()) {
          LAW_TRY(r, l.removeZeroBasesAlongDim(d), "removeZeroBasesAlongDim");
          LAW_REQUIRE(imageOf(RefLayout(*r)) == imageOf(RefLayout(l)),
                      "the image changed on dim " + d.str() + ":" + str(*r));
          for (const DimBases& db : r->getBases())
            if (db.name == d)
              for (const auto& b : db.bases)
                LAW_REQUIRE(std::any_of(b.begin(), b.end(), [](uint64_t v) { return v != 0; }),
                            "a zero basis of " + d.str() + " is left:" + str(*r));
        }
        return {};
      });

  // ---- sublayout, concat, quotient ----

  add("sublayout.restriction",
      "sublayout(ins, outs)(x) is L(x, the other inputs 0) on the kept outputs", fromDraws([]() {
        Case c;
        c.layouts.push_back(drawLayout(Kind::Any, Names::Arbitrary));
        c.params = {pick(0, 7), pick(0, 7)};
        return c;
      }),
      [](const Case& c) -> Verdict {
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
                      "input " + vecStr(x) + ": sublayout gives " + vecStr(rs.eval(x)) +
                          ", L gives " + vecStr(y));
        }
        bool zero = true;
        for (uint64_t v : rs.table())
          zero = zero && v == 0;
        LAW_TRY(isZero, l.sublayoutIsZero(ins, outs), "sublayoutIsZero");
        LAW_REQUIRE(*isZero == zero, "sublayoutIsZero disagrees with the table");
        return {};
      });

  add("concatIns.sum", "(A concatIns B)(x, y) = A(x) xor B(y), and sublayout recovers A",
      fromDraws([]() {
        LinearLayout a = drawLayout(Kind::Any, Names::Arbitrary, 5);
        DimBits outs = bitsOf(a.getOutDims());
        LinearLayout b =
            drawLayoutOn({{DimName("b0"), pick(0, 3)}, {DimName("b1"), pick(0, 2)}}, outs);
        Case c;
        c.layouts = {a, b};
        return c;
      }),
      [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
        LAW_TRY(ab, a.concatIns(b), "concatIns");
        RefLayout ra(a), rb(b), rab(*ab);
        for (uint64_t f = 0; f < rab.numInputs(); ++f) {
          std::vector<uint64_t> x = rab.unflattenIn(f);
          std::vector<uint64_t> ya = ra.eval(byName(ra, rab.ins(), x)),
                                yb = rb.eval(byName(rb, rab.ins(), x)), y = rab.eval(x);
          for (std::size_t o = 0; o < y.size(); ++o)
            LAW_REQUIRE(y[o] == (ya[o] ^ yb[o]), "input " + vecStr(x) + ": " + vecStr(y) +
                                                     " is not " + vecStr(ya) + " xor " +
                                                     vecStr(yb));
        }
        LAW_TRY(back, ab->sublayout(a.getInDimNames(), a.getOutDimNames()), "sublayout");
        LAW_REQUIRE(*back == a, "sublayout of the concatenation is not A:" + str(*back));
        return {};
      });

  add("concatOuts.pair", "(A concatOuts B)(x) = (A(x), B(x)), and sublayout recovers B",
      fromDraws([]() {
        LinearLayout a = drawLayout(Kind::Any, Names::Arbitrary, 5);
        DimBits ins = bitsOf(a.getInDims());
        LinearLayout b = drawLayoutOn(ins, {{DimName("z0"), pick(0, 3)}});
        Case c;
        c.layouts = {a, b};
        return c;
      }),
      [](const Case& c) -> Verdict {
        const LinearLayout &a = c.layouts.at(0), &b = c.layouts.at(1);
        LAW_TRY(ab, a.concatOuts(b), "concatOuts");
        RefLayout ra(a), rb(b), rab(*ab);
        for (uint64_t f = 0; f < rab.numInputs(); ++f) {
          std::vector<uint64_t> x = rab.unflattenIn(f);
          std::vector<uint64_t> want = ra.eval(x), yb = rb.eval(x);
          want.insert(want.end(), yb.begin(), yb.end());
          LAW_REQUIRE(rab.eval(x) == want, "input " + vecStr(x) + ": " + vecStr(rab.eval(x)) +
                                               ", expected " + vecStr(want));
        }
        LAW_TRY(back, ab->sublayout(b.getInDimNames(), b.getOutDimNames()), "sublayout");
        LAW_REQUIRE(*back == b, "sublayout of the concatenation is not B:" + str(*back));
        return {};
      });

  // M : in0, t -> dim0, t; trivial over t when it is M' * identity(t) (params[0] = 1).
  add("quotient.definition",
      "isTrivialOver({t}) holds exactly when L is the identity on t and t meets nothing else, "
      "and then quotient({t}) is the rest",
      fromDraws([]() {
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
      }),
      [](const Case& c) -> Verdict {
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
      });

  // ---- Formats ----

  add("json.round_trip", "Layout JSON: parse(print(L)) = L, through the text too",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        std::string text = toJson(l).dump();
        LAW_TRY(j, parseJsonText(text, "law"), "parseJsonText");
        LAW_TRY(back, layoutFromJson(*j), "layoutFromJson");
        LAW_REQUIRE(*back == l, "read back:" + str(*back) + "\nfrom " + text);
        return {};
      });

  add("triton_text.round_trip", "Triton's printed form: parseTritonString(toString(L)) = L",
      one(anyNames(Kind::Any)), [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        std::string text = l.toString();
        LAW_TRY(back, parseTritonString(text, "law"), "parseTritonString");
        LAW_REQUIRE(*back == l, "read back:" + str(*back) + "\nfrom:" + text);
        return {};
      });

  add("linear_attr.round_trip",
      "#ttg.linear / #ttg.generic_linear: reading toLinearAttr(L) over L's shape gives L",
      one(fromDraws([]() {
        // Distributed layouts onto dim0.. (what the attribute holds), registers unit-stride
        // first so Triton's register order is well defined.
        int lane = pick(0, 3), warp = pick(0, 2), reg = pick(0, 3);
        std::vector<int> outBits;
        int left = lane + warp + reg;
        for (int i = 0, n = pick(1, 2); i < n; ++i) {
          int b = i + 1 == n ? left : pick(0, left);
          outBits.push_back(b);
          left -= b;
        }
        return drawDistributedOn(reg, lane, warp, outBits);
      })),
      [](const Case& c) -> Verdict {
        const LinearLayout& l = c.layouts.at(0);
        auto attr = toLinearAttr(l);
        if (!attr.ok())
          return {}; // no attribute holds it (the error says why); nothing to read back
        SpecOptions opts;
        std::vector<uint64_t> shape;
        for (const DimSize& d : l.getOutDims())
          shape.push_back(d.size);
        opts.shape = shape;
        LAW_TRY(back, loadSpec(*attr, opts), "reading " + *attr);
        LAW_REQUIRE(back->layout == l, "read back:" + str(back->layout) + "\nfrom " + *attr);
        return {};
      });

  add("shape.round_trip",
      "parseShape(shapeText(s)) = s for power-of-two shapes; any other size is refused",
      fromDraws([]() {
        Case c;
        for (int i = 0, n = pick(1, 4); i < n; ++i)
          c.params.push_back(pick(0, 1) ? (int64_t{1} << pick(0, 20)) : pick(0, 100));
        return c;
      }),
      [](const Case& c) -> Verdict {
        std::vector<uint64_t> shape;
        bool pow2 = true;
        for (int64_t v : c.params) {
          shape.push_back(static_cast<uint64_t>(v));
          pow2 = pow2 && v > 0 && std::has_single_bit(static_cast<uint64_t>(v));
        }
        std::string text = shapeText(shape);
        auto back = parseShape(text);
        LAW_REQUIRE(back.ok() == pow2,
                    "parseShape('" + text + "') " + (back.ok() ? "accepted" : "refused") + " it");
        if (back.ok())
          LAW_REQUIRE(*back == shape, "parseShape('" + text + "') = " + vecStr(*back));
        return {};
      });

  // ---- Encodings ----

  add("blocked.is_distributed",
      "#ttg.blocked over any shape is a distributed layout (Def. 4.10) with exactly that shape",
      genBlockedParams(), [](const Case& c) -> Verdict {
        LAW_TRY(b, blockedFromParams(c.params), "parameters");
        LAW_TRY(l, blockedToLinearLayout(b->params, b->shape), "blockedToLinearLayout");
        for (std::size_t i = 0; i < b->shape.size(); ++i)
          LAW_REQUIRE(l->getOutDimSize(dims::standardOut(static_cast<int>(i))) == b->shape[i],
                      "dim" + std::to_string(i) + " has the wrong size:" + str(*l));
        if (auto v = distributedViolation(*l); !v.empty())
          return v + ":" + str(*l);
        return {};
      });

  add("blocked.holds_its_elements",
      "#ttg.blocked: thread t, register r holds the element its sizePerThread, threadsPerWarp, "
      "warpsPerCTA and order put there (wrapping around the shape)",
      genBlockedParams(), [](const Case& c) -> Verdict {
        LAW_TRY(b, blockedFromParams(c.params), "parameters");
        LAW_TRY(l, blockedToLinearLayout(b->params, b->shape), "blockedToLinearLayout");
        const BlockedParams& p = b->params;
        std::size_t rank = b->shape.size();
        // Triton's definition: the CTA tile is spt * tpw * wpc per dim; lane and warp indices
        // are split over dims in `order` (fastest first); registers cover spt per dim, then the
        // tile repeats over the shape, also in `order`; a tile larger than the shape wraps
        // (broadcast).
        RefLayout r(*l);
        auto splitIdx = [&](uint64_t v, const std::vector<uint64_t>& sizes) {
          std::vector<uint64_t> out(rank, 0);
          for (uint64_t d : p.order) {
            out[d] = v % sizes[d];
            v /= sizes[d];
          }
          return out;
        };
        std::vector<uint64_t> tile(rank), reps(rank);
        for (std::size_t d = 0; d < rank; ++d) {
          tile[d] = p.sizePerThread[d] * p.threadsPerWarp[d] * p.warpsPerCTA[d];
          reps[d] = std::max<uint64_t>(1, b->shape[d] / tile[d]);
        }
        uint64_t sptTotal = 1;
        for (std::size_t d = 0; d < rank; ++d) {
          // Not covered: a thread's block larger than the shape, where Triton drops the
          // registers that fall outside rather than wrapping them.
          if (p.sizePerThread[d] > b->shape[d])
            return {};
          sptTotal *= p.sizePerThread[d];
        }
        for (uint64_t f = 0; f < r.numInputs(); ++f) {
          std::vector<uint64_t> x = r.unflattenIn(f);
          // Registers: first the elements of one thread's sizePerThread block, then the
          // repetitions of the CTA tile over the shape, each split over dims in `order`.
          uint64_t reg = RefLayout::valueOf(r.ins(), x, dims::kRegister);
          std::vector<uint64_t> within = splitIdx(reg % sptTotal, p.sizePerThread),
                                rep = splitIdx(reg / sptTotal, reps),
                                li = splitIdx(RefLayout::valueOf(r.ins(), x, dims::kLane),
                                              p.threadsPerWarp),
                                wi = splitIdx(RefLayout::valueOf(r.ins(), x, dims::kWarp),
                                              p.warpsPerCTA);
          std::vector<uint64_t> y = r.eval(x);
          for (std::size_t d = 0; d < rank; ++d) {
            uint64_t want = (within[d] + p.sizePerThread[d] * li[d] +
                             p.sizePerThread[d] * p.threadsPerWarp[d] * wi[d] + tile[d] * rep[d]) %
                            b->shape[d];
            LAW_REQUIRE(y[d] == want, "register " + std::to_string(reg) + ", input " + vecStr(x) +
                                          ": dim" + std::to_string(d) + " is " +
                                          std::to_string(y[d]) + ", expected " +
                                          std::to_string(want) + str(*l));
          }
        }
        return {};
      });

  add("swizzled_shared.is_memory",
      "#ttg.swizzled_shared over a 2-D shape is a memory layout (Def. 4.14) with that shape",
      genSwizzledParams(), [](const Case& c) -> Verdict {
        LAW_TRY(s, swizzledFromParams(c.params), "parameters");
        LAW_TRY(l, swizzledSharedToLinearLayout(s->params, s->shape), "swizzled_shared");
        LAW_REQUIRE(l->getOutDimSize(dims::standardOut(0)) == s->shape[0] &&
                        l->getOutDimSize(dims::standardOut(1)) == s->shape[1],
                    "wrong shape:" + str(*l));
        if (auto v = memoryViolation(*l); !v.empty())
          return v + ":" + str(*l);
        return {};
      });

  add("swizzled_shared.places_elements",
      "#ttg.swizzled_shared: offset o holds row o / C, column (o % C) xor (vec * ((row / "
      "perPhase) % maxPhase)) % C",
      genSwizzledParams(), [](const Case& c) -> Verdict {
        LAW_TRY(s, swizzledFromParams(c.params), "parameters");
        LAW_TRY(l, swizzledSharedToLinearLayout(s->params, s->shape), "swizzled_shared");
        std::size_t fast = s->params.order[0], slow = 1 - fast;
        uint64_t cols = s->shape[fast];
        RefLayout r(*l);
        for (uint64_t o = 0; o < r.numInputs(); ++o) {
          std::vector<uint64_t> y = r.eval(r.unflattenIn(o));
          uint64_t row = o / cols;
          uint64_t phase = (row / s->params.perPhase) % s->params.maxPhase;
          uint64_t col = (o % cols) ^ ((s->params.vec * phase) % cols);
          LAW_REQUIRE(y[slow] == row && y[fast] == col,
                      "offset " + std::to_string(o) + " holds " + vecStr(y) + ", expected row " +
                          std::to_string(row) + " column " + std::to_string(col) + str(*l));
        }
        return {};
      });

  add("slice.is_linear",
      "Prop. 4.8: #ttg.slice of a blocked parent holds, in every thread, exactly the parent's "
      "elements with the sliced dim dropped",
      fromDraws([]() {
        Case c = drawBlockedParams();
        c.params.push_back(pick(0, 2));
        return c;
      }),
      [](const Case& c) -> Verdict {
        std::vector<int64_t> params(c.params.begin(), c.params.end() - 1);
        LAW_TRY(b, blockedFromParams(params), "parameters");
        std::size_t rank = b->shape.size();
        auto dim = static_cast<std::size_t>(c.params.back()) % rank;
        std::vector<uint64_t> shape = b->shape;
        shape[dim] = 1; // the parent is laid over the shape with the sliced dim of size 1
        LAW_TRY(parent, blockedToLinearLayout(b->params, shape), "parent");
        LAW_TRY(slice, sliceToLinearLayout(*parent, static_cast<int>(dim)), "slice");
        // Per (lane, warp, block): the set of elements held.
        auto held = [](const LinearLayout& l, std::size_t dropped) {
          RefLayout r(l);
          std::map<std::vector<uint64_t>, std::set<std::vector<uint64_t>>> m;
          for (uint64_t f = 0; f < r.numInputs(); ++f) {
            std::vector<uint64_t> x = r.unflattenIn(f);
            std::vector<uint64_t> y = r.eval(x), key;
            for (DimName d : {dims::kLane, dims::kWarp, dims::kBlock})
              key.push_back(RefLayout::valueOf(r.ins(), x, d));
            if (dropped < y.size())
              y.erase(y.begin() + static_cast<std::ptrdiff_t>(dropped));
            m[key].insert(y);
          }
          return m;
        };
        LAW_REQUIRE(held(*parent, dim) == held(*slice, rank),
                    "the slice holds other elements than its parent:" + str(*slice) +
                        "\nparent:" + str(*parent));
        return {};
      });

  // ---- Conversions ----

  add("convert.plan_is_correct",
      "planConversion: DST(C(x)) = SRC(x) for every x, and no_op exactly when SRC = DST",
      genConversionPair(), [](const Case& c) -> Verdict {
        const LinearLayout &src = c.layouts.at(0), &dst = c.layouts.at(1);
        LAW_TRY(plan, planConversion(src, dst), "planConversion");
        if (auto v = composesTo(plan->dst, plan->conversion, plan->src, "SRC(x) vs DST(C(x))"))
          return v;
        LAW_REQUIRE((plan->kind == ConversionKind::NoOp) == (src == dst),
                    std::string("kind ") + conversionKindName(plan->kind) +
                        (src == dst ? " for equal layouts" : " for different layouts"));
        return {};
      });

  add("convert.kind_is_the_cheapest",
      "the kind is the least movement with which every DST location finds its element in SRC, "
      "found by searching every location",
      genConversionPair(), [](const Case& c) -> Verdict {
        const LinearLayout &src = c.layouts.at(0), &dst = c.layouts.at(1);
        LAW_TRY(plan, planConversion(src, dst), "planConversion");
        // element -> (lane, warp, block) of every SRC location holding it.
        RefLayout rs(src), rd(dst);
        std::map<std::vector<uint64_t>, std::vector<std::vector<uint64_t>>> holders;
        auto where = [](const RefLayout& r, const std::vector<uint64_t>& x) {
          return std::vector<uint64_t>{RefLayout::valueOf(r.ins(), x, dims::kBlock),
                                       RefLayout::valueOf(r.ins(), x, dims::kWarp),
                                       RefLayout::valueOf(r.ins(), x, dims::kLane)};
        };
        for (uint64_t f = 0; f < rs.numInputs(); ++f) {
          std::vector<uint64_t> x = rs.unflattenIn(f);
          holders[rs.eval(x)].push_back(where(rs, x));
        }
        int needed = 0; // 0 own thread, 1 own warp, 2 own CTA, 3 another CTA
        for (uint64_t f = 0; f < rd.numInputs(); ++f) {
          std::vector<uint64_t> y = rd.unflattenIn(f);
          std::vector<uint64_t> w = where(rd, y);
          int best = 3;
          for (const auto& h : holders[outByName(rs, rd.outs(), rd.eval(y))]) {
            int level = h[0] != w[0] ? 3 : h[1] != w[1] ? 2 : h[2] != w[2] ? 1 : 0;
            best = std::min(best, level);
          }
          needed = std::max(needed, best);
        }
        ConversionKind want = needed == 3   ? ConversionKind::InterCta
                              : needed == 2 ? ConversionKind::SharedMemory
                              : needed == 1 ? ConversionKind::WarpShuffle
                              : src == dst  ? ConversionKind::NoOp
                                            : ConversionKind::RegisterPermutation;
        LAW_REQUIRE(plan->kind == want, std::string("kind ") + conversionKindName(plan->kind) +
                                            ", the search says " + conversionKindName(want));
        return {};
      });

  auto swizzleCase = [](const Case& c, const LinearLayout*& src, const LinearLayout*& dst,
                        std::string& arch, int& bits) {
    src = &c.layouts.at(0);
    dst = &c.layouts.at(1);
    arch = kArchs.at(static_cast<std::size_t>(c.params.at(0)) % kArchs.size());
    bits = 8 << (c.params.at(1) & 3);
  };

  add("optimal_swizzle.is_a_bijection",
      "optimalSwizzle's shared layout maps offsets one-to-one onto the tensor", genConversionPair(),
      [swizzleCase](const Case& c) -> Verdict {
        const LinearLayout *src, *dst;
        std::string arch;
        int bits;
        swizzleCase(c, src, dst, arch, bits);
        LAW_TRY(model, sharedMemoryModel(arch), "model");
        LAW_TRY(s, optimalSwizzle(*src, *dst, bits, *model), "optimalSwizzle");
        RefLayout r(s->shared);
        LAW_REQUIRE(r.numInputs() == r.numOutputs() && imageOf(r).size() == r.numOutputs(),
                    "not a bijection:" + str(s->shared));
        LAW_REQUIRE(s->shared.hasInDim(dims::kOffset), "no offset dim");
        return {};
      });

  add("optimal_swizzle.attains_the_bound",
      "the paper's construction attains Lemma 9.5's bound with no bank conflict, recounted by "
      "the address simulator",
      genConversionPair(), [swizzleCase](const Case& c) -> Verdict {
        const LinearLayout *src, *dst;
        std::string arch;
        int bits;
        swizzleCase(c, src, dst, arch, bits);
        LAW_TRY(model, sharedMemoryModel(arch), "model");
        LAW_TRY(s, optimalSwizzle(*src, *dst, bits, *model, {false, false}), "optimalSwizzle");
        LAW_REQUIRE(s->bound.attainedBy(s->store.count, s->load.count),
                    "store " + std::to_string(s->store.count.wavefronts) + " / load " +
                        std::to_string(s->load.count.wavefronts) + " wavefronts, bound " +
                        std::to_string(s->bound.storeWavefronts) + " / " +
                        std::to_string(s->bound.loadWavefronts));
        for (bool load : {false, true}) {
          const AccessCount& a = load ? s->load.count : s->store.count;
          SimulatedAccess sim = simulateSharedAccess(
              load ? *dst : *src, s->shared, {}, arch, bits,
              std::countr_zero(static_cast<uint64_t>(a.vectorBits / bits)), load);
          LAW_REQUIRE(
              sim.vectorValid && sim.wavefronts == a.wavefronts && sim.ideal == sim.wavefronts,
              std::string(load ? "load" : "store") + ": model " + std::to_string(a.wavefronts) +
                  " wavefronts, simulator " + std::to_string(sim.wavefronts) + " (ideal " +
                  std::to_string(sim.ideal) + ")\nSHARED" + str(s->shared));
        }
        return {};
      });

  add("bank_model.equals_the_simulator",
      "bankConflicts' instructions, wavefronts and ideal wavefronts equal the address "
      "simulator's, and its vector is valid and maximal",
      fromDraws([]() {
        Case c = drawConversionPair();
        // SHARED: an invertible offset -> the tensor, from the identity by column operations.
        const LinearLayout& reg = c.layouts[0];
        DimBits outs = bitsOf(reg.getOutDims());
        int m = reg.getTotalOutDimSizeLog2();
        std::vector<uint64_t> cols;
        for (int i = 0; i < m; ++i)
          cols.push_back(uint64_t{1} << i);
        for (int k = 0, n = m < 2 ? 0 : pick(0, m); k < n; ++k) {
          int a = pick(0, m - 1), b = pick(0, m - 1);
          if (a != b)
            cols[static_cast<std::size_t>(a)] ^= cols[static_cast<std::size_t>(b)];
        }
        for (int k = 0, n = m < 2 ? 0 : pick(0, m); k < n; ++k)
          std::swap(cols[static_cast<std::size_t>(pick(0, m - 1))],
                    cols[static_cast<std::size_t>(pick(0, m - 1))]);
        c.layouts[1] = layoutFromColumns({{dims::kOffset, m}}, outs, cols);
        return c;
      }),
      [swizzleCase](const Case& c) -> Verdict {
        const LinearLayout *reg, *shared;
        std::string arch;
        int bits;
        swizzleCase(c, reg, shared, arch, bits);
        LAW_TRY(model, sharedMemoryModel(arch), "model");
        LAW_TRY(report, bankConflicts(*reg, *shared, {}, bits, *model), "bankConflicts");
        for (bool load : {false, true}) {
          const AccessCount& a = load ? report->load : report->store;
          int v = std::countr_zero(static_cast<uint64_t>(a.vectorBits / bits));
          SimulatedAccess sim = simulateSharedAccess(*reg, *shared, {}, arch, bits, v, load);
          std::string side = load ? "load" : "store";
          LAW_REQUIRE(sim.vectorValid, side + ": the model's vector of " + std::to_string(v) +
                                           " bits is not valid in the simulator");
          LAW_REQUIRE(a.instructions == sim.instructions && a.wavefronts == sim.wavefronts &&
                          a.idealWavefronts == sim.ideal,
                      side + ": model " + std::to_string(a.instructions) + " instructions, " +
                          std::to_string(a.wavefronts) + " wavefronts (ideal " +
                          std::to_string(a.idealWavefronts) + "); simulator " +
                          std::to_string(sim.instructions) + ", " + std::to_string(sim.wavefronts) +
                          " (ideal " + std::to_string(sim.ideal) + ")");
          if ((a.vectorBits * 2) / 8 <= model->maxAccessBytes &&
              (uint64_t{2} << v) <= shared->getTotalInDimSize())
            LAW_REQUIRE(
                !simulateSharedAccess(*reg, *shared, {}, arch, bits, v + 1, load).vectorValid,
                side + ": a vector one element wider is also valid");
        }
        return {};
      });

  for (Law& l : differentialLaws())
    laws.push_back(std::move(l));
  return laws;
}

} // namespace

const std::vector<Law>& allLaws() {
  static const std::vector<Law> laws = makeLaws();
  return laws;
}

const Law* findLaw(std::string_view name) {
  for (const Law& l : allLaws())
    if (l.name == name)
      return &l;
  return nullptr;
}

Verdict checkLaw(const Law& law, const Case& c) {
  try {
    return law.check(c);
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
}

} // namespace llcheck::fuzz
