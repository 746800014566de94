// Layouts as bit-vector functions. Output bits are built as XORs of single input bits rather
// than as XORs of gated constants: the two are equal, and this form bit-blasts to the smallest
// circuit (one XOR chain per output bit, as sparse as the matrix row).
#include "Encoding.h"

namespace llcheck::smt {

const Values::Entry* Values::find(DimName name) const {
  for (const Entry& e : dims)
    if (e.name == name)
      return &e;
  return nullptr;
}

unsigned Values::totalWidth() const {
  unsigned w = 0;
  for (const Entry& e : dims)
    w += e.width;
  return w;
}

z3::expr Values::packed() const {
  std::optional<z3::expr> acc;
  for (const Entry& e : dims)
    if (e.expr)
      acc = acc ? z3::concat(*e.expr, *acc) : *e.expr;
  if (!acc)
    throw z3::exception("packed() of a value with no bits");
  return *acc;
}

z3::expr Values::equals(Context& ctx, const Values& other) const {
  z3::expr all = ctx.z3().bool_val(true);
  auto same = [&ctx](const Entry* a, const Entry* b) {
    if (a && a->expr && b && b->expr)
      return *a->expr == *b->expr;
    const Entry* e = a && a->expr ? a : b && b->expr ? b : nullptr;
    return e ? *e->expr == ctx.bvVal(0, e->width) : ctx.z3().bool_val(true);
  };
  for (const Entry& e : dims)
    all = all && same(&e, other.find(e.name));
  for (const Entry& e : other.dims)
    if (!find(e.name))
      all = all && same(nullptr, &e);
  return all;
}

Point Values::read(const Model& m) const {
  Point p;
  for (const Entry& e : dims)
    p.emplace_back(e.name, e.expr ? m.value(*e.expr) : 0);
  return p;
}

Values variables(Context& ctx, std::span<const Dim> dims, const std::string& prefix) {
  Values v;
  for (const Dim& d : dims) {
    unsigned w = static_cast<unsigned>(d.sizeLog2);
    v.dims.push_back(
        {d.name, w, w ? std::optional(ctx.bv(prefix + d.name.str(), w)) : std::nullopt});
  }
  return v;
}

Values constants(Context& ctx, std::span<const Dim> dims, const Point& p) {
  Values v;
  for (const Dim& d : dims) {
    uint64_t value = 0;
    for (const auto& [name, x] : p)
      if (name == d.name)
        value = x;
    unsigned w = static_cast<unsigned>(d.sizeLog2);
    v.dims.push_back({d.name, w, w ? std::optional(ctx.bvVal(value, w)) : std::nullopt});
  }
  return v;
}

Values apply(Context& ctx, const LinearLayout& l, const Values& x) {
  // The input bit of each column, in packed order.
  std::vector<std::optional<z3::expr>> inBits;
  for (const Dim& d : l.inDims()) {
    const Values::Entry* e = x.find(d.name);
    if (!e || e->width != static_cast<unsigned>(d.sizeLog2))
      throw z3::exception(("input " + d.name.str() + " missing or of the wrong width").c_str());
    for (unsigned i = 0; i < e->width; ++i)
      inBits.push_back(e->expr->extract(i, i));
  }
  auto cols = l.columns();
  Values out;
  for (int k = 0; k < l.getNumOutDims(); ++k) {
    const Dim& o = l.outDims()[static_cast<std::size_t>(k)];
    unsigned w = static_cast<unsigned>(o.sizeLog2);
    if (w == 0) {
      out.dims.push_back({o.name, 0, std::nullopt});
      continue;
    }
    int base = l.outDimOffset(k);
    std::optional<z3::expr> value;
    for (unsigned b = 0; b < w; ++b) {
      std::optional<z3::expr> bit;
      for (std::size_t j = 0; j < cols.size(); ++j)
        if ((cols[j] >> (base + static_cast<int>(b))) & 1)
          bit = bit ? *bit ^ *inBits[j] : *inBits[j];
      z3::expr bv = bit ? *bit : ctx.bvVal(0, 1);
      value = value ? z3::concat(bv, *value) : bv;
    }
    out.dims.push_back({o.name, w, value});
  }
  return out;
}

z3::expr isOneHot(const Values& x) {
  z3::expr v = x.packed();
  z3::expr zero = v.ctx().bv_val(0, v.get_sort().bv_size());
  return v != zero && (v & (v - 1)) == zero;
}

z3::expr hasTwoBits(const z3::expr& v) {
  z3::expr zero = v.ctx().bv_val(0, v.get_sort().bv_size());
  return (v & (v - 1)) != zero;
}

} // namespace llcheck::smt
