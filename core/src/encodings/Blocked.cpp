// #ttg.blocked as a linear layout, and the shape helpers every distributed encoding shares
// (written from the description of Triton's LinearLayoutConversions.cpp).
#include "llcheck/core/Encodings.h"
#include "llcheck/core/Formats.h"

#include <algorithm>
#include <bit>
#include <span>
#include <string>

namespace llcheck {

std::string blockedAttributeText(const BlockedParams& params) {
  auto list = [](const std::vector<uint64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  };
  return "#ttg.blocked<{sizePerThread = " + list(params.sizePerThread) +
         ", threadsPerWarp = " + list(params.threadsPerWarp) +
         ", warpsPerCTA = " + list(params.warpsPerCTA) + ", order = " + list(params.order) + "}>";
}

namespace {

/// A layout taken apart for editing column by column (see LinearLayout.h, "Representation"):
/// the encodings reshape layouts often, and the packed form needs no heap allocation.
struct Packed {
  FixedVec<Dim, kMaxDims> ins;
  FixedVec<Dim, kMaxDims> outs;
  FixedVec<uint64_t, kMaxBits> columns;

  static Packed of(const LinearLayout& l) {
    Packed p;
    for (const Dim& d : l.inDims())
      p.ins.push_back(d);
    for (const Dim& d : l.outDims())
      p.outs.push_back(d);
    for (uint64_t c : l.columns())
      p.columns.push_back(c);
    return p;
  }
  [[nodiscard]] Result<LinearLayout> build() const {
    return LinearLayout::fromColumns({ins.begin(), ins.size()}, {outs.begin(), outs.size()},
                                     {columns.begin(), columns.size()});
  }
  [[nodiscard]] int inOffset(std::size_t i) const {
    int off = 0;
    for (std::size_t k = 0; k < i; ++k)
      off += ins[k].sizeLog2;
    return off;
  }
  [[nodiscard]] int outOffset(std::size_t o) const {
    int off = 0;
    for (std::size_t k = 0; k < o; ++k)
      off += outs[k].sizeLog2;
    return off;
  }
  /// Removes the columns of in dim `i` for which `drop(column)` holds.
  template <class Pred> void dropColumns(std::size_t i, Pred drop) {
    int begin = inOffset(i);
    int end = begin + ins[i].sizeLog2;
    FixedVec<uint64_t, kMaxBits> kept;
    for (int j = 0; j < static_cast<int>(columns.size()); ++j) {
      if (j >= begin && j < end && drop(columns[static_cast<std::size_t>(j)])) {
        --ins[i].sizeLog2;
        continue;
      }
      kept.push_back(columns[static_cast<std::size_t>(j)]);
    }
    columns = kept;
  }
  /// Removes bit field [offset, offset + width) from every column (the bits above move down).
  void removeOutField(int offset, int width) {
    uint64_t low = offset == 0 ? 0 : (~uint64_t{0} >> (64 - offset));
    for (uint64_t& c : columns) {
      uint64_t high = offset + width >= 64 ? 0 : (c >> (offset + width)) << offset;
      c = (c & low) | high;
    }
  }
};

uint64_t fieldMask(int width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

/// Removes the register bases that map to 0: Triton drops registers that would only hold
/// copies of other registers' elements.
Result<LinearLayout> dropZeroRegisterBases(const LinearLayout& l) {
  int r = l.inDimIndex(dims::kRegister);
  if (r < 0)
    return l;
  Packed p = Packed::of(l);
  p.dropColumns(static_cast<std::size_t>(r), [](uint64_t c) { return c == 0; });
  return p.build();
}

uint64_t desiredSize(std::span<const DimSize> shape, DimName d, uint64_t otherwise) {
  for (const DimSize& s : shape)
    if (s.name == d)
      return s.size;
  return otherwise;
}

} // namespace

Result<LinearLayout> withDistributedInDims(const LinearLayout& l) {
  Packed in = Packed::of(l);
  Packed out;
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
  Packed p;
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

Result<LinearLayout> makeCgaLayout(const std::vector<std::vector<uint64_t>>& bases,
                                   std::size_t rank) {
  if (rank > kMaxDims)
    return makeError("rank " + std::to_string(rank) + " is too large");
  if (bases.size() > kMaxBits)
    return makeError(std::to_string(bases.size()) + " CGA bases are too many");
  Packed p;
  for (std::size_t d = 0; d < rank; ++d) {
    uint64_t maxValue = 0;
    for (const auto& b : bases) {
      if (b.size() != rank)
        return makeError("a CGA basis has " + std::to_string(b.size()) +
                         " entries, the tensor has rank " + std::to_string(rank));
      maxValue = std::max(maxValue, b[d]);
    }
    if (maxValue >= (uint64_t{1} << 62))
      return makeError("CGA basis value " + std::to_string(maxValue) + " is too large");
    p.outs.push_back(
        {dims::standardOut(static_cast<int>(d)), std::countr_zero(std::bit_ceil(maxValue + 1))});
  }
  p.ins.push_back({dims::kBlock, static_cast<int>(bases.size())});
  int total = 0;
  for (const Dim& o : p.outs)
    total += o.sizeLog2;
  if (total > kMaxBits)
    return makeError("the CGA layout's outputs need more than " + std::to_string(kMaxBits) +
                     " bits");
  for (const auto& b : bases) {
    uint64_t column = 0;
    int offset = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      column |= b[d] << offset;
      offset += p.outs[d].sizeLog2;
    }
    p.columns.push_back(column);
  }
  return p.build();
}

Result<LinearLayout> ensureLayoutNotLargerThan(const LinearLayout& layout,
                                               std::span<const DimSize> shape,
                                               bool broadcastRegisters) {
  Packed p = Packed::of(layout);
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
  Packed p = Packed::of(l);
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
  if (widen > 0)
    for (uint64_t& c : p.columns)
      c = (c & fieldMask(top)) | ((c >> top) << (top + widen));
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

Result<LinearLayout> combineCtaCgaWithShape(const LinearLayout& cta, const LinearLayout& cga,
                                            const std::vector<uint64_t>& shape) {
  // Fixed-size lists rather than vectors: this runs once per distributed conversion. A layout
  // has at most kMaxDims out dims, so a larger rank fails the name check below.
  std::size_t rank = std::min<std::size_t>(shape.size(), kMaxDims);
  FixedVec<DimSize, kMaxDims> labeled;
  FixedVec<DimName, kMaxDims> outNames;
  for (std::size_t d = 0; d < rank; ++d) {
    labeled.push_back({dims::standardOut(static_cast<int>(d)), shape[d]});
    outNames.push_back(labeled[d].name);
  }
  // The same set of out dims: as many, and each of dim0..dim<rank-1> among them.
  auto sameNames = [&](const LinearLayout& l) {
    if (static_cast<std::size_t>(l.getNumOutDims()) != shape.size())
      return false;
    for (DimName n : outNames)
      if (!l.hasOutDim(n))
        return false;
    return true;
  };
  if (!sameNames(cta) || !sameNames(cga))
    return makeError("the CTA and CGA layouts must map onto dim0..dim" +
                     std::to_string(shape.size() - 1) + " (shape " + shapeText(shape) + ")");
  std::span<const DimSize> labeledSpan{labeled.begin(), labeled.size()};
  auto cgaShrunk = ensureLayoutNotLargerThan(cga, labeledSpan);
  if (!cgaShrunk.ok())
    return cgaShrunk.error();
  // The CGA layout takes the CTA layout's out-dim order, which is the order the CTA layout is
  // grown in (for blocked: the `order` parameter, fastest dim first).
  FixedVec<DimName, kMaxDims> ctaOrder;
  for (const Dim& d : cta.outDims())
    ctaOrder.push_back(d.name);
  cgaShrunk = cgaShrunk->transposeOuts(std::span<const DimName>{ctaOrder.begin(), ctaOrder.size()});
  if (!cgaShrunk.ok())
    return cgaShrunk.error();
  FixedVec<DimSize, kMaxDims> ctaShape;
  for (DimName d : ctaOrder) {
    uint64_t want = 1;
    for (const DimSize& l : labeled)
      if (l.name == d)
        want = l.size;
    ctaShape.push_back({d, std::max<uint64_t>(1, want / cgaShrunk->getOutDimSize(d))});
  }
  std::span<const DimSize> ctaShapeSpan{ctaShape.begin(), ctaShape.size()};
  auto grown = ensureLayoutNotSmallerThan(cta, ctaShapeSpan);
  if (!grown.ok())
    return grown.error();
  auto shrunk = ensureLayoutNotLargerThan(*grown, ctaShapeSpan);
  if (!shrunk.ok())
    return shrunk.error();
  auto p = product(*shrunk, *cgaShrunk);
  if (!p.ok())
    return p.error();
  auto ret = p->transposeOuts(std::span<const DimName>{outNames.begin(), outNames.size()});
  if (!ret.ok())
    return ret.error();
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (ret->getOutDimSize(outNames[d]) != shape[d])
      return makeError("the layout covers " + std::to_string(ret->getOutDimSize(outNames[d])) +
                       " along dim" + std::to_string(d) + ", the shape asks for " +
                       std::to_string(shape[d]));
  return ret;
}

Result<LinearLayout> blockedToLinearLayout(const BlockedParams& params,
                                           const std::vector<uint64_t>& shape,
                                           TritonVersion triton) {
  std::size_t rank = shape.size();
  if (params.sizePerThread.size() != rank || params.threadsPerWarp.size() != rank ||
      params.warpsPerCTA.size() != rank || params.order.size() != rank)
    return makeError("#ttg.blocked parameters must have one entry per dim of shape " +
                     shapeText(shape));
  auto reg = identityND(dims::kRegister, params.sizePerThread, params.order);
  if (!reg.ok())
    return reg.error();
  auto lane = identityND(dims::kLane, params.threadsPerWarp, params.order);
  if (!lane.ok())
    return lane.error();
  auto warp = identityND(dims::kWarp, params.warpsPerCTA, params.order);
  if (!warp.ok())
    return warp.error();
  auto cta = product(*reg, *lane);
  if (!cta.ok())
    return cta.error();
  cta = product(*cta, *warp);
  if (!cta.ok())
    return cta.error();
  auto cga = makeCgaLayout(params.cgaBases, rank);
  if (!cga.ok())
    return cga.error();
  auto combined = combineCtaCgaWithShape(*cta, *cga, shape);
  if (!combined.ok())
    return combined.error();
  // Triton 3.9 drops the registers that broadcast (zero register bases) from a blocked layout;
  // 3.6 keeps them (docs/triton-versions.md).
  if (triton == TritonVersion::v3_6)
    return withDistributedInDims(*combined);
  auto ret = dropZeroRegisterBases(*combined);
  if (!ret.ok())
    return ret.error();
  return withDistributedInDims(*ret);
}

Result<LinearLayout> sliceToLinearLayout(const LinearLayout& parent, int dim) {
  int rank = parent.getNumOutDims();
  if (dim < 0 || dim >= rank)
    return makeError("slice dim " + std::to_string(dim) + " is out of range for a parent of rank " +
                     std::to_string(rank));
  for (int d = 0; d < rank; ++d)
    if (parent.outDims()[d].name != dims::standardOut(d))
      return makeError("the parent layout's outputs must be dim0, dim1, ...");
  Packed p = Packed::of(parent);
  p.removeOutField(p.outOffset(static_cast<std::size_t>(dim)),
                   p.outs[static_cast<std::size_t>(dim)].sizeLog2);
  FixedVec<Dim, kMaxDims> outs;
  for (int d = 0, k = 0; d < rank; ++d)
    if (d != dim)
      outs.push_back({dims::standardOut(k++), p.outs[static_cast<std::size_t>(d)].sizeLog2});
  p.outs = outs;
  if (int r = parent.inDimIndex(dims::kRegister); r >= 0)
    p.dropColumns(static_cast<std::size_t>(r), [](uint64_t c) { return c == 0; });
  return p.build();
}

Result<LinearLayout> linearToShape(const LinearLayout& layout, const std::vector<uint64_t>& shape,
                                   TritonVersion triton) {
  const std::size_t rank = shape.size();
  if (static_cast<std::size_t>(layout.getNumOutDims()) != rank)
    return makeError("the layout has " + std::to_string(layout.getNumOutDims()) +
                     " output dims but the shape has rank " + std::to_string(rank));
  std::vector<DimName> canonical;
  for (const DimSize& o : layout.getOutDims())
    canonical.push_back(o.name);
  std::vector<std::size_t> order;
  auto note = [&](std::size_t d) {
    if (std::find(order.begin(), order.end(), d) == order.end())
      order.push_back(d);
  };
  if (int r = layout.inDimIndex(dims::kRegister); r >= 0) {
    int first = layout.inDimOffset(r);
    for (int i = 0; i < layout.inDims()[static_cast<std::size_t>(r)].sizeLog2; ++i) {
      uint64_t column = layout.columns()[static_cast<std::size_t>(first + i)];
      std::size_t nonZero = 0;
      std::size_t dim = rank;
      bool powerOfTwo = true;
      for (std::size_t d = 0; d < rank; ++d) {
        int width = layout.outDims()[d].sizeLog2;
        uint64_t v = width == 0 ? 0
                                : (column >> layout.outDimOffset(static_cast<int>(d))) &
                                      (~uint64_t{0} >> (64 - width));
        if (v != 0) {
          ++nonZero;
          dim = std::min(dim, d);
          powerOfTwo = powerOfTwo && std::has_single_bit(v);
        }
      }
      if (nonZero > 1 || (!powerOfTwo && triton != TritonVersion::v3_6))
        return makeError("register basis " + std::to_string(i) +
                         " moves in more than one dim or by a non-power of two (a swizzled "
                         "basis): Triton cannot order such a #ttg.linear to lay it over a "
                         "shape");
      if (nonZero == 1)
        note(dim);
    }
  }
  for (std::size_t d = rank; d-- > 0;)
    note(d);
  std::vector<DimName> permuted;
  std::vector<DimSize> named;
  for (std::size_t d : order) {
    permuted.push_back(canonical[d]);
    named.push_back({canonical[d], shape[d]});
  }
  auto l = layout.transposeOuts(permuted);
  if (!l.ok())
    return l.error();
  l = ensureLayoutNotSmallerThan(*l, named);
  if (!l.ok())
    return l.error();
  if (triton == TritonVersion::v3_6) {
    // Triton 3.6's ensureLayoutNotLargerThan asserts that every value of a dim it cuts is a
    // power of two.
    for (const auto& [in, bases] : l->getBases())
      for (const auto& b : bases)
        for (std::size_t k = 0; k < order.size(); ++k) {
          uint64_t v = b[k];
          if (v != 0 && !std::has_single_bit(v) && l->getOutDimSize(permuted[k]) > named[k].size)
            return makeError(in.str() + " basis moves " + permuted[k].str() + " by " +
                             std::to_string(v) +
                             ", not a power of two, and that dim must be cut to " +
                             std::to_string(named[k].size) + " (Triton 3.6 aborts)");
        }
  }
  l = ensureLayoutNotLargerThan(*l, named, /*broadcastRegisters=*/false);
  if (!l.ok())
    return l.error();
  return l->transposeOuts(canonical);
}

Result<LinearLayout> distributedOverShape(const LinearLayout& cta, const Result<LinearLayout>& cga,
                                          const std::vector<uint64_t>& shape) {
  if (!cga.ok())
    return cga.error();
  auto combined = combineCtaCgaWithShape(cta, *cga, shape);
  if (!combined.ok())
    return combined.error();
  return withDistributedInDims(*combined);
}

} // namespace llcheck
