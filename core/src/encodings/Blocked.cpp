// #ttg.blocked as a linear layout, and the shape helpers every distributed encoding shares
// (written from the description of Triton's LinearLayoutConversions.cpp).
#include "llcheck/core/Encodings.h"

#include <algorithm>
#include <bit>
#include <string>

namespace llcheck {

namespace {

std::string joinSizes(const std::vector<uint64_t>& v) {
  std::string s;
  for (uint64_t x : v)
    s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}

/// The layout with the in-dims register, lane, warp, block (missing ones of size 1), in that
/// order, as Triton's distributed layouts always have them.
Result<LinearLayout> withDistributedInDims(const LinearLayout& l) {
  std::vector<DimBases> bases;
  for (DimName name : {dims::kRegister, dims::kLane, dims::kWarp, dims::kBlock}) {
    DimBases db{name, {}};
    if (l.hasInDim(name))
      for (int i = 0; i < l.getInDimSizeLog2(name); ++i)
        db.bases.push_back(l.getBasis(name, i));
    bases.push_back(std::move(db));
  }
  for (DimName name : l.getInDimNames())
    if (name != dims::kRegister && name != dims::kLane && name != dims::kWarp &&
        name != dims::kBlock)
      return makeError("unexpected input dimension " + name.str() + " in a distributed layout");
  return LinearLayout::create(bases, l.getOutDims(), /*requireSurjective=*/false);
}

uint64_t desiredSize(const std::vector<DimSize>& shape, DimName d, uint64_t otherwise) {
  for (const DimSize& s : shape)
    if (s.name == d)
      return s.size;
  return otherwise;
}

/// Removes the register bases that map to 0: Triton drops registers that would only hold
/// copies of other registers' elements.
void dropZeroRegisterBases(std::vector<DimBases>& bases) {
  for (DimBases& db : bases)
    if (db.name == dims::kRegister)
      std::erase_if(db.bases, [](const std::vector<uint64_t>& b) {
        return std::all_of(b.begin(), b.end(), [](uint64_t v) { return v == 0; });
      });
}

} // namespace

Result<LinearLayout> identityND(DimName inDim, const std::vector<uint64_t>& sizes,
                                const std::vector<uint64_t>& order) {
  if (sizes.size() != order.size())
    return makeError(std::to_string(sizes.size()) + " sizes for an order of " +
                     std::to_string(order.size()) + " dims");
  LinearLayout ret;
  for (uint64_t d : order) {
    if (d >= sizes.size())
      return makeError("order entry " + std::to_string(d) + " is out of range");
    auto one = LinearLayout::identity1D(sizes[d], inDim, dims::standardOut(static_cast<int>(d)));
    if (!one.ok())
      return one.error();
    auto p = product(ret, *one);
    if (!p.ok())
      return p.error();
    ret = *p;
  }
  return ret;
}

Result<LinearLayout> makeCgaLayout(const std::vector<std::vector<uint64_t>>& bases,
                                   std::size_t rank) {
  std::vector<DimName> outs;
  for (std::size_t d = 0; d < rank; ++d)
    outs.push_back(dims::standardOut(static_cast<int>(d)));
  std::vector<DimSize> outDims;
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
    outDims.push_back({outs[d], std::bit_ceil(maxValue + 1)});
  }
  return LinearLayout::create({DimBases{dims::kBlock, bases}}, outDims,
                              /*requireSurjective=*/false);
}

Result<LinearLayout> ensureLayoutNotLargerThan(const LinearLayout& layout,
                                               const std::vector<DimSize>& shape,
                                               bool broadcastRegisters) {
  std::vector<DimBases> bases = layout.getBases();
  std::vector<DimSize> outDims = layout.getOutDims();
  for (std::size_t o = 0; o < outDims.size(); ++o) {
    uint64_t desired = desiredSize(shape, outDims[o].name, outDims[o].size);
    uint64_t actual = outDims[o].size;
    if (actual <= desired)
      continue;
    // (in dim, basis index, value), largest value first; ties keep in-dim then basis order.
    struct Entry {
      std::size_t in;
      std::size_t idx;
      uint64_t value;
    };
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < bases.size(); ++i)
      for (std::size_t b = 0; b < bases[i].bases.size(); ++b)
        if (bases[i].bases[b][o] != 0)
          entries.push_back({i, b, bases[i].bases[b][o]});
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.value > b.value; });
    for (const Entry& e : entries) {
      if (actual <= desired)
        break;
      bases[e.in].bases[e.idx][o] = 0;
      actual >>= 1;
    }
    outDims[o].size = desired;
  }
  if (!broadcastRegisters)
    dropZeroRegisterBases(bases);
  return LinearLayout::create(bases, outDims, /*requireSurjective=*/false);
}

Result<LinearLayout> ensureLayoutNotSmallerThan(const LinearLayout& layout,
                                                const std::vector<DimSize>& shape) {
  LinearLayout ret = layout;
  for (const DimSize& out : layout.getOutDims()) {
    uint64_t desired = desiredSize(shape, out.name, out.size);
    if (desired <= out.size)
      continue;
    auto grow = LinearLayout::identity1D(desired / out.size, dims::kRegister, out.name);
    if (!grow.ok())
      return grow.error();
    auto p = product(ret, *grow);
    if (!p.ok())
      return p.error();
    ret = *p;
  }
  return ret;
}

Result<LinearLayout> combineCtaCgaWithShape(const LinearLayout& cta, const LinearLayout& cga,
                                            const std::vector<uint64_t>& shape) {
  std::vector<DimSize> labeled;
  std::vector<DimName> outNames;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    labeled.push_back({dims::standardOut(static_cast<int>(d)), shape[d]});
    outNames.push_back(labeled.back().name);
  }
  auto sameNames = [&](std::vector<DimName> names) {
    std::vector<DimName> sorted = outNames;
    auto byId = [](DimName a, DimName b) { return a.id() < b.id(); };
    std::sort(names.begin(), names.end(), byId);
    std::sort(sorted.begin(), sorted.end(), byId);
    return names == sorted;
  };
  if (!sameNames(cta.getOutDimNames()) || !sameNames(cga.getOutDimNames()))
    return makeError("the CTA and CGA layouts must map onto dim0..dim" +
                     std::to_string(shape.size() - 1) + " (shape " + joinSizes(shape) + ")");
  auto cgaShrunk = ensureLayoutNotLargerThan(cga, labeled);
  if (!cgaShrunk.ok())
    return cgaShrunk.error();
  // The CGA layout takes the CTA layout's out-dim order, which is the order the CTA layout is
  // grown in (for blocked: the `order` parameter, fastest dim first).
  cgaShrunk = cgaShrunk->transposeOuts(cta.getOutDimNames());
  if (!cgaShrunk.ok())
    return cgaShrunk.error();
  std::vector<DimSize> ctaShape;
  for (DimName d : cta.getOutDimNames()) {
    uint64_t want = 1;
    for (const DimSize& l : labeled)
      if (l.name == d)
        want = l.size;
    ctaShape.push_back({d, std::max<uint64_t>(1, want / cgaShrunk->getOutDimSize(d))});
  }
  auto grown = ensureLayoutNotSmallerThan(cta, ctaShape);
  if (!grown.ok())
    return grown.error();
  auto shrunk = ensureLayoutNotLargerThan(*grown, ctaShape);
  if (!shrunk.ok())
    return shrunk.error();
  auto p = product(*shrunk, *cgaShrunk);
  if (!p.ok())
    return p.error();
  auto ret = p->transposeOuts(outNames);
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
                                           const std::vector<uint64_t>& shape) {
  std::size_t rank = shape.size();
  if (params.sizePerThread.size() != rank || params.threadsPerWarp.size() != rank ||
      params.warpsPerCTA.size() != rank || params.order.size() != rank)
    return makeError("#ttg.blocked parameters must have one entry per dim of shape " +
                     joinSizes(shape));
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
  // Triton 3.9 drops the registers that broadcast (zero register bases) from a blocked layout.
  std::vector<DimBases> bases = combined->getBases();
  dropZeroRegisterBases(bases);
  auto ret = LinearLayout::create(bases, combined->getOutDims(), /*requireSurjective=*/false);
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
  std::vector<DimBases> bases = parent.getBases();
  for (DimBases& db : bases)
    for (auto& b : db.bases)
      b.erase(b.begin() + dim);
  dropZeroRegisterBases(bases);
  std::vector<DimSize> outs;
  for (int d = 0, k = 0; d < rank; ++d)
    if (d != dim)
      outs.push_back({dims::standardOut(k++), parent.getOutDimSize(dims::standardOut(d))});
  return LinearLayout::create(bases, outs, /*requireSurjective=*/false);
}

Result<LinearLayout> linearToShape(const LinearLayout& layout, const std::vector<uint64_t>& shape) {
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
  if (layout.hasInDim(dims::kRegister)) {
    const auto bases = layout.getBases();
    for (const DimBases& in : bases) {
      if (in.name != dims::kRegister)
        continue;
      for (std::size_t i = 0; i < in.bases.size(); ++i) {
        const auto& basis = in.bases[i];
        std::size_t nonZero = 0;
        std::size_t first = rank;
        for (std::size_t d = 0; d < rank; ++d)
          if (basis[d] != 0) {
            ++nonZero;
            first = std::min(first, d);
          }
        if (nonZero > 1 || (nonZero == 1 && !std::has_single_bit(basis[first])))
          return makeError("register basis " + std::to_string(i) +
                           " moves in more than one dim or by a non-power of two (a swizzled "
                           "basis): Triton cannot order such a #ttg.linear to lay it over a "
                           "shape");
        if (nonZero == 1)
          note(first);
      }
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
  l = ensureLayoutNotLargerThan(*l, named, /*broadcastRegisters=*/false);
  if (!l.ok())
    return l.error();
  return l->transposeOuts(canonical);
}

} // namespace llcheck
