// The layout helpers of LayoutUtils.h (written from the description of Triton's
// LinearLayoutConversions.cpp, where the encodings use them).
#include "llcheck/core/LayoutUtils.h"
#include "llcheck/core/PackedLayout.h"

#include <algorithm>
#include <array>
#include <bit>
#include <span>
#include <string>

namespace llcheck {

namespace {

uint64_t fieldMask(int width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

uint64_t desiredSize(std::span<const DimSize> shape, DimName d, uint64_t otherwise) {
  for (const DimSize& s : shape)
    if (s.name == d)
      return s.size;
  return otherwise;
}

} // namespace

Result<LinearLayout> withDistributedInDims(const LinearLayout& l) {
  PackedLayout in = PackedLayout::of(l);
  PackedLayout out;
  out.outs = in.outs;
  for (const Dim& d : in.ins)
    if (d.name != dims::kRegister && d.name != dims::kLane && d.name != dims::kWarp &&
        d.name != dims::kBlock)
      return makeError("unexpected input dimension " + d.name.str() + " in a distributed layout");
  for (DimName name : {dims::kRegister, dims::kLane, dims::kWarp, dims::kBlock}) {
    int i = l.inDimIndex(name);
    out.ins.push_back({name, i < 0 ? 0 : in.ins[static_cast<std::size_t>(i)].sizeLog2});
    if (i >= 0)
      for (int b = 0; b < in.ins[static_cast<std::size_t>(i)].sizeLog2; ++b)
        out.columns.push_back(in.columns[static_cast<std::size_t>(in.inOffset(i) + b)]);
  }
  return out.build();
}

Result<LinearLayout> identityND(DimName inDim, const std::vector<uint64_t>& sizes,
                                const std::vector<uint64_t>& order) {
  if (sizes.size() != order.size())
    return makeError(std::to_string(sizes.size()) + " sizes for an order of " +
                     std::to_string(order.size()) + " dims");
  if (order.size() > kMaxDims)
    return makeError("rank " + std::to_string(order.size()) + " is too large");
  // The product of identity1D(sizes[d], inDim, dim<d>) over `order`: the out dims in that order,
  // and input bit k mapped to packed output bit k.
  PackedLayout p;
  int total = 0;
  for (uint64_t d : order) {
    if (d >= sizes.size())
      return makeError("order entry " + std::to_string(d) + " is out of range");
    if (!std::has_single_bit(sizes[d]))
      return makeError("size " + std::to_string(sizes[d]) + " is not a power of two");
    int bits = std::countr_zero(sizes[d]);
    p.outs.push_back({dims::standardOut(static_cast<int>(d)), bits});
    total += bits;
    if (total > kMaxBits)
      return makeError("the layout would have more than " + std::to_string(kMaxBits) + " bits");
  }
  p.ins.push_back({inDim, total});
  for (int k = 0; k < total; ++k)
    p.columns.push_back(uint64_t{1} << k);
  return p.build();
}

Result<LinearLayout> ensureLayoutNotLargerThan(const LinearLayout& layout,
                                               std::span<const DimSize> shape,
                                               bool broadcastRegisters) {
  PackedLayout p = PackedLayout::of(layout);
  const int r = layout.inDimIndex(dims::kRegister);
  const std::size_t regBegin =
      r >= 0 ? static_cast<std::size_t>(p.inOffset(static_cast<std::size_t>(r))) : 0;
  const std::size_t regEnd =
      r >= 0 ? regBegin + static_cast<std::size_t>(p.ins[static_cast<std::size_t>(r)].sizeLog2) : 0;
  std::array<bool, kMaxBits> cut{};
  for (std::size_t o = 0; o < p.outs.size(); ++o) {
    uint64_t desired = desiredSize(shape, p.outs[o].name, uint64_t{1} << p.outs[o].sizeLog2);
    if (!std::has_single_bit(desired))
      return makeError("size " + std::to_string(desired) + " for " + p.outs[o].name.str() +
                       " is not a power of two");
    int want = std::countr_zero(desired);
    int width = p.outs[o].sizeLog2;
    if (width <= want)
      continue;
    // Zero the largest values of this dim (over all in dims) until it fits; equal values keep
    // their order (in dim, then basis), as Triton's stable sort does.
    int offset = p.outOffset(o);
    std::array<std::pair<uint64_t, int>, kMaxBits> entries{};
    std::size_t n = 0;
    for (std::size_t j = 0; j < p.columns.size(); ++j)
      if (uint64_t v = (p.columns[j] >> offset) & fieldMask(width); v != 0)
        entries[n++] = {v, static_cast<int>(j)};
    std::stable_sort(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(n),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    int excess = width - want;
    for (std::size_t e = 0; e < n && excess > 0; ++e, --excess) {
      auto j = static_cast<std::size_t>(entries[e].second);
      if (!broadcastRegisters && j >= regBegin && j < regEnd)
        cut[j] = true; // removed below, whole, as Triton removes the basis it would broadcast
      else
        p.columns[j] &= ~(fieldMask(width) << offset);
    }
    for (std::size_t j = 0; j < p.columns.size(); ++j)
      if (uint64_t c = p.columns[j]; !cut[j] && ((c >> offset) & fieldMask(width)) >= desired)
        return makeError(
            "a basis still reaches " + std::to_string((c >> offset) & fieldMask(width)) + " in " +
            p.outs[o].name.str() + " after shrinking it to " + std::to_string(desired));
    p.removeOutField(offset + want, width - want);
    p.outs[o].sizeLog2 = want;
  }
  if (r >= 0) {
    // dropColumns visits the register columns in order: the k-th call is column regBegin + k.
    std::size_t k = regBegin;
    p.dropColumns(static_cast<std::size_t>(r), [&](uint64_t) { return cut[k++]; });
  }
  return p.build();
}

Result<LinearLayout> timesIdentity1D(const LinearLayout& l, uint64_t size, DimName in, DimName out,
                                     bool zeros) {
  // product(l, identity1D(size, in, out)) on the packed columns: `in` and `out` are appended
  // when l lacks them (as the product's merge of dim orders does with one new name), `out`
  // widens by log2(size) bits (the fields above it move up), and `in` gains as many columns at
  // its end, the new bits of `out` (zero columns, and no widening, for zeros1D). What the
  // packed form does not take (a size that is not a power of two, too many bits or dims) goes
  // through the product, which reports it.
  auto byProduct = [&]() -> Result<LinearLayout> {
    auto factor =
        zeros ? LinearLayout::zeros1D(size, in, out) : LinearLayout::identity1D(size, in, out);
    if (!factor.ok())
      return factor.error();
    return product(l, *factor);
  };
  if (!std::has_single_bit(size) || in.empty() || out.empty())
    return byProduct();
  int k = std::countr_zero(size);
  int widen = zeros ? 0 : k;
  PackedLayout p = PackedLayout::of(l);
  std::size_t i = 0, o = 0;
  while (i < p.ins.size() && p.ins[i].name != in)
    ++i;
  while (o < p.outs.size() && p.outs[o].name != out)
    ++o;
  if ((i == p.ins.size() && i == kMaxDims) || (o == p.outs.size() && o == kMaxDims) ||
      static_cast<int>(p.columns.size()) + k > kMaxBits ||
      p.outOffset(p.outs.size()) + widen > kMaxBits || k > 63 ||
      (o < p.outs.size() && p.outs[o].sizeLog2 + widen > 63))
    return byProduct();
  if (i == p.ins.size())
    p.ins.push_back({in, 0});
  if (o == p.outs.size())
    p.outs.push_back({out, 0});
  int top = p.outOffset(o) + p.outs[o].sizeLog2; // the first bit above out's field
  // The fields above out's move up by `widen`. When out's field then ends at bit 64 there is
  // nothing above it (the check above keeps every field within 64 bits), and a shift by 64
  // would be undefined (UBSan found it on a 2^32 x 2^32 tensor).
  if (widen > 0)
    for (uint64_t& c : p.columns)
      c = (c & fieldMask(top)) | (top + widen < 64 ? (c >> top) << (top + widen) : 0);
  int at = p.inOffset(i) + p.ins[i].sizeLog2;
  FixedVec<uint64_t, kMaxBits> cols;
  for (int j = 0; j < at; ++j)
    cols.push_back(p.columns[static_cast<std::size_t>(j)]);
  for (int b = 0; b < k; ++b)
    cols.push_back(zeros ? 0 : uint64_t{1} << (top + b));
  for (std::size_t j = static_cast<std::size_t>(at); j < p.columns.size(); ++j)
    cols.push_back(p.columns[j]);
  p.columns = cols;
  p.ins[i].sizeLog2 += k;
  p.outs[o].sizeLog2 += widen;
  return p.build();
}

Result<LinearLayout> ensureLayoutNotSmallerThan(const LinearLayout& layout,
                                                std::span<const DimSize> shape) {
  LinearLayout ret = layout;
  for (const Dim& out : layout.outDims()) {
    uint64_t size = uint64_t{1} << out.sizeLog2;
    uint64_t desired = desiredSize(shape, out.name, size);
    if (desired <= size)
      continue;
    auto p = timesIdentity1D(ret, desired / size, dims::kRegister, out.name);
    if (!p.ok())
      return p.error();
    ret = *p;
  }
  return ret;
}

std::string shapeText(const std::vector<uint64_t>& shape) {
  std::string s;
  for (uint64_t v : shape)
    s += (s.empty() ? "" : "x") + std::to_string(v);
  return s;
}

} // namespace llcheck
