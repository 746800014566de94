// #ttg.blocked and #ttg.slice as linear layouts, and how every distributed encoding lays its
// CTA and CGA layouts over a shape (written from the description of Triton's
// LinearLayoutConversions.cpp; the shape helpers that are not tied to an encoding are in
// algebra/, LayoutUtils.h).
#include "llcheck/core/Encodings.h"
#include "llcheck/core/PackedLayout.h"

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

/// Removes the register bases that map to 0: Triton drops registers that would only hold
/// copies of other registers' elements.
Result<LinearLayout> dropZeroRegisterBases(const LinearLayout& l) {
  int r = l.inDimIndex(dims::kRegister);
  if (r < 0)
    return l;
  PackedLayout p = PackedLayout::of(l);
  p.dropColumns(static_cast<std::size_t>(r), [](uint64_t c) { return c == 0; });
  return p.build();
}

} // namespace

Result<LinearLayout> makeCgaLayout(const std::vector<std::vector<uint64_t>>& bases,
                                   std::size_t rank) {
  if (rank > kMaxDims)
    return makeError("rank " + std::to_string(rank) + " is too large");
  if (bases.size() > kMaxBits)
    return makeError(std::to_string(bases.size()) + " CGA bases are too many");
  PackedLayout p;
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
  PackedLayout p = PackedLayout::of(parent);
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
