// The helpers every topic of laws shares (Support.h).
#include "Support.h"

#include <bit>

namespace llcheck::fuzz::laws {

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

std::vector<uint64_t> byName(const RefLayout& r, const std::vector<DimSize>& dims,
                             const std::vector<uint64_t>& x) {
  std::vector<uint64_t> v;
  for (const DimSize& d : r.ins())
    v.push_back(RefLayout::valueOf(dims, x, d.name));
  return v;
}
std::vector<uint64_t> outByName(const RefLayout& r, const std::vector<DimSize>& dims,
                                const std::vector<uint64_t>& y) {
  std::vector<uint64_t> v;
  for (const DimSize& d : r.outs())
    v.push_back(RefLayout::valueOf(dims, y, d.name));
  return v;
}

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

LinearLayout drawAnyNames(Kind k) {
  return drawLayout(k, static_cast<Names>(pick(0, 2)));
}

rc::Gen<LinearLayout> anyNames(Kind k) {
  return fromDraws([k]() { return drawAnyNames(k); });
}

rc::Gen<LinearLayout> smallAny(int bits) {
  return rc::gen::oneOf(genLayout(Kind::Any, Names::Arbitrary, bits),
                        genLayout(Kind::Distributed, Names::Distributed, bits),
                        genLayout(Kind::Surjective, Names::Arbitrary, bits));
}

rc::Gen<Case> pairOf(rc::Gen<LinearLayout> g) {
  return rc::gen::map(rc::gen::pair(g, g), [](std::pair<LinearLayout, LinearLayout> p) {
    Case c;
    c.layouts = {p.first, p.second};
    return c;
  });
}

} // namespace llcheck::fuzz::laws
