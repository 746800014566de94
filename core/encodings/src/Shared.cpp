// The shared-memory and tensor-memory encodings as linear layouts (see encodings/Shared.h),
// written from the description of Triton 3.9's LinearLayoutConversions.cpp and checked against
// Triton's answers (tests/triton_reference/encodings/).
#include "llcheck/core/encodings/Shared.h"

#include "llcheck/core/Encodings.h"

#include <algorithm>
#include <bit>
#include <string>

namespace llcheck {

namespace {

/// a * b, as a Result (operator* throws).
Result<LinearLayout> times(const Result<LinearLayout>& a, const Result<LinearLayout>& b) {
  if (!a.ok())
    return a.error();
  if (!b.ok())
    return b.error();
  return product(*a, *b);
}

/// Grows each output dim of `layout` (in its out-dim order) to `desired` by multiplying with an
/// identity on `inDim`: Triton's ensureLayoutNotSmallerThan, which grows along the layout's first
/// input dim (offset for shared layouts, not register).
Result<LinearLayout> growAlong(const LinearLayout& layout, DimName inDim,
                               const std::vector<DimSize>& desired) {
  LinearLayout ret = layout;
  for (const DimSize& out : layout.getOutDims()) {
    uint64_t want = out.size;
    for (const DimSize& d : desired)
      if (d.name == out.name)
        want = d.size;
    if (want <= out.size)
      continue;
    auto grown = times(ret, LinearLayout::identity1D(want / out.size, inDim, out.name));
    if (!grown.ok())
      return grown.error();
    ret = *grown;
  }
  return ret;
}

std::vector<DimSize> labelled(const std::vector<uint64_t>& shape) {
  std::vector<DimSize> ret;
  for (std::size_t d = 0; d < shape.size(); ++d)
    ret.push_back({dims::standardOut(static_cast<int>(d)), shape[d]});
  return ret;
}

/// The CGA layout's extent per dim: how many CTAs split the tensor along it (CTASplitNum).
Result<std::vector<uint64_t>> ctaSplit(const std::vector<std::vector<uint64_t>>& cgaBases,
                                       std::size_t rank) {
  auto cga = makeCgaLayout(cgaBases, rank);
  if (!cga.ok())
    return cga.error();
  std::vector<uint64_t> split;
  for (const DimSize& d : cga->getOutDims())
    split.push_back(d.size);
  return split;
}

/// shape / CTASplitNum, at least 1 per dim: the part of the tensor one CTA holds.
Result<std::vector<uint64_t>> shapePerCta(const std::vector<std::vector<uint64_t>>& cgaBases,
                                          const std::vector<uint64_t>& shape) {
  auto split = ctaSplit(cgaBases, shape.size());
  if (!split.ok())
    return split.error();
  std::vector<uint64_t> ret;
  for (std::size_t d = 0; d < shape.size(); ++d)
    ret.push_back(std::max<uint64_t>(1, shape[d] / (*split)[d]));
  return ret;
}

/// combineCtaCgaWithShape for a CTA layout over `offset`: the CTA layout is first grown along
/// offset to the per-CTA shape, so that the shared helper never has to grow it (it would grow
/// along register, the distributed layouts' first input).
Result<LinearLayout> combineShared(const LinearLayout& cta,
                                   const std::vector<std::vector<uint64_t>>& cgaBases,
                                   const std::vector<uint64_t>& shape) {
  auto cga = makeCgaLayout(cgaBases, shape.size());
  if (!cga.ok())
    return cga.error();
  auto cgaShrunk = ensureLayoutNotLargerThan(*cga, labelled(shape));
  if (!cgaShrunk.ok())
    return cgaShrunk.error();
  std::vector<DimSize> ctaShape;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    DimName name = dims::standardOut(static_cast<int>(d));
    ctaShape.push_back({name, std::max<uint64_t>(1, shape[d] / cgaShrunk->getOutDimSize(name))});
  }
  auto grown = growAlong(cta, dims::kOffset, ctaShape);
  if (!grown.ok())
    return grown.error();
  auto ret = combineCtaCgaWithShape(*grown, *cga, shape);
  if (!ret.ok())
    return ret.error();
  if (ret->getNumInDims() != 2 || ret->inDims()[0].name != dims::kOffset ||
      ret->inDims()[1].name != dims::kBlock)
    return makeError("internal: a shared layout must have the input dims offset, block");
  return ret;
}

Error checkOrder(const std::vector<uint64_t>& order, std::size_t rank) {
  if (order.size() != rank)
    return makeError("order has " + std::to_string(order.size()) + " entries for a rank-" +
                     std::to_string(rank) + " shape");
  std::vector<bool> seen(rank, false);
  for (uint64_t d : order) {
    if (d >= rank || seen[d])
      return makeError("order must be a permutation of 0.." + std::to_string(rank - 1));
    seen[d] = true;
  }
  return Error{};
}

/// The column at which row `row` starts, for the two swizzled encodings.
using PhaseFn = uint64_t (*)(const SwizzledSharedParams&, uint64_t row);

uint64_t swizzledPhase(const SwizzledSharedParams& p, uint64_t row) {
  return (row / p.perPhase) % p.maxPhase;
}

/// AMD's rotation: each group of maxPhase * perPhase rows XORs its own number into the phase,
/// so that consecutive groups do not repeat the same bank pattern.
uint64_t rotatingPhase(const SwizzledSharedParams& p, uint64_t row) {
  uint64_t phase = (row / p.perPhase) % p.maxPhase;
  uint64_t group = row / p.maxPhase / p.perPhase % p.maxPhase;
  return phase ^ group;
}

/// The swizzled CTA tile over (order[1], order[0]) and the identity on the remaining dims, laid
/// over the shape with the CGA layout. `tileShape` is the extent the swizzle is computed over
/// (per CTA for swizzled_shared; Triton's AMD form uses the whole shape).
Result<LinearLayout> swizzledLayout(const SwizzledSharedParams& p,
                                    const std::vector<uint64_t>& shape, bool perCtaTile,
                                    PhaseFn phase) {
  std::size_t rank = shape.size();
  if (rank == 0)
    return makeError("a shared layout needs a shape of rank at least 1");
  if (Error e = checkOrder(p.order, rank); !e.message.empty())
    return e;
  if (p.perPhase == 0 || p.maxPhase == 0)
    return makeError("perPhase and maxPhase must be at least 1 (Triton divides by them)");
  auto perCta = shapePerCta(p.cgaBases, shape);
  if (!perCta.ok())
    return perCta.error();
  const std::vector<uint64_t>& extent = perCtaTile ? *perCta : shape;
  if (rank == 1)
    return combineShared(
        LinearLayout::identity1D((*perCta)[0], dims::kOffset, dims::standardOut(0)).value(),
        p.cgaBases, shape);
  auto outs = dims::standardOuts(rank);
  uint64_t colDim = p.order[0], rowDim = p.order[1];
  uint64_t numCols = extent[colDim], numRows = extent[rowDim];
  std::vector<std::vector<uint64_t>> bases;
  for (uint64_t col = 1; col < numCols; col *= 2)
    bases.push_back({0, col});
  for (uint64_t row = 1; row < numRows; row *= 2)
    bases.push_back({row, (p.vec * phase(p, row)) % numCols});
  auto tile = LinearLayout::create({DimBases{dims::kOffset, bases}}, {outs[rowDim], outs[colDim]});
  if (!tile.ok())
    return tile.error();
  Result<LinearLayout> cta = *tile;
  for (std::size_t i = 2; i < rank; ++i)
    cta = times(cta, LinearLayout::identity1D(extent[p.order[i]], dims::kOffset, outs[p.order[i]]));
  if (!cta.ok())
    return cta.error();
  return combineShared(*cta, p.cgaBases, shape);
}

} // namespace

Result<LinearLayout> swizzledSharedToLinearLayout(const SwizzledSharedParams& params,
                                                  const std::vector<uint64_t>& shape) {
  return swizzledLayout(params, shape, /*perCtaTile=*/true, swizzledPhase);
}

Result<LinearLayout> amdRotatingSharedToLinearLayout(const SwizzledSharedParams& params,
                                                     const std::vector<uint64_t>& shape) {
  return swizzledLayout(params, shape, /*perCtaTile=*/false, rotatingPhase);
}

// ---- #ttg.nvmma_shared ---------------------------------------------------------------------

namespace {

Error checkNvmma(const NvmmaSharedParams& p, TritonVersion triton) {
  uint64_t s = p.swizzlingByteWidth;
  if (s != 0 && s != 32 && s != 64 && s != 128)
    return makeError("swizzlingByteWidth must be 0, 32, 64 or 128, got " + std::to_string(s));
  uint64_t e = p.elementBitWidth;
  if (e != 8 && e != 16 && e != 32 && e != 64)
    return makeError("elementBitWidth must be 8, 16, 32 or 64, got " + std::to_string(e));
  if (p.fp4Padded && s != 128 && triton != TritonVersion::v3_6)
    return makeError("fp4Padded requires swizzlingByteWidth = 128");
  return Error{};
}

/// One 8-row core matrix: consecutive offsets fill a row of one swizzle width (16 bytes when
/// unswizzled), and row r starts at column vec * ((r / perPhase) % maxPhase). With fp4Padded
/// every 16 offsets hold 8 real elements and 8 of padding, which map onto the real ones.
Result<LinearLayout> coreMatrix(const NvmmaSharedParams& p) {
  uint64_t swizzle = p.swizzlingByteWidth;
  uint64_t vec = swizzle == 0 ? 1 : 128 / p.elementBitWidth;
  uint64_t perPhase = swizzle == 0 ? 1 : 128 / swizzle;
  uint64_t maxPhase = swizzle == 0 ? 1 : swizzle / 16;
  uint64_t tileRows = 8;
  uint64_t tileCols = 8 * std::max<uint64_t>(16, swizzle) / p.elementBitWidth;
  auto packed = [&](uint64_t col) { return p.fp4Padded ? col / 16 * 8 + col % 8 : col; };
  std::vector<std::vector<uint64_t>> bases;
  for (uint64_t col = 1; col < tileCols; col *= 2)
    bases.push_back({0, packed(col)});
  for (uint64_t row = 1; row < tileRows; row *= 2)
    bases.push_back({row, packed(vec * ((row / perPhase) % maxPhase))});
  return LinearLayout::create({DimBases{dims::kOffset, bases}}, dims::standardOuts(2));
}

/// Row-major reshape of the output dims to `shape` (the last dim fastest), as Triton's
/// reshapeLayout: the dims are reversed, flattened and split, and put back in standard order.
Result<LinearLayout> reshapeRowMajor(const LinearLayout& layout,
                                     const std::vector<uint64_t>& shape) {
  auto names = layout.getOutDimNames();
  std::reverse(names.begin(), names.end());
  auto reversed = layout.transposeOuts(names);
  if (!reversed.ok())
    return reversed.error();
  std::vector<DimSize> newOuts = labelled(shape);
  std::reverse(newOuts.begin(), newOuts.end());
  auto reshaped = reversed->reshapeOuts(newOuts);
  if (!reshaped.ok())
    return reshaped.error();
  return reshaped->transposeOuts(dims::standardOuts(shape.size()));
}

/// Output dim i of the result is output dim order[i] of `layout` (names stay dim0, dim1, ...).
Result<LinearLayout> permuteOuts(const LinearLayout& layout,
                                 const std::vector<std::size_t>& order) {
  std::vector<DimBases> bases = layout.getBases();
  for (DimBases& db : bases)
    for (auto& b : db.bases) {
      std::vector<uint64_t> nb;
      for (std::size_t i : order)
        nb.push_back(b[i]);
      b = std::move(nb);
    }
  std::vector<DimSize> outs;
  auto old = layout.getOutDims();
  for (std::size_t i = 0; i < order.size(); ++i)
    outs.push_back({dims::standardOut(static_cast<int>(i)), old[order[i]].size});
  return LinearLayout::create(bases, outs, /*requireSurjective=*/false);
}

} // namespace

Result<std::vector<uint64_t>> tmaBlockShape(const NvmmaSharedParams& params,
                                            const std::vector<uint64_t>& shapePerCTA) {
  std::vector<uint64_t> block = shapePerCTA;
  if (block.empty())
    return makeError("a shared layout needs a shape of rank at least 1");
  std::size_t contig = params.transposed ? 0 : block.size() - 1;
  if (params.fp4Padded)
    block[contig] *= 2;
  for (uint64_t& s : block)
    s = std::min<uint64_t>(s, 256);
  if (params.swizzlingByteWidth != 0) {
    uint64_t contigSize = 8 * params.swizzlingByteWidth / params.elementBitWidth;
    if (block[contig] < contigSize)
      return makeError("block shape along the contiguous dimension " + std::to_string(contig) +
                       " is too small for the swizzle byte size " +
                       std::to_string(params.swizzlingByteWidth) + ": got " +
                       std::to_string(block[contig]) + " elements per CTA, expected at least " +
                       std::to_string(contigSize) + " (Triton: getTMABlockShape failed)");
    block[contig] = contigSize;
  }
  if (params.fp4Padded)
    block[contig] /= 2;
  return block;
}

Result<LinearLayout> nvmmaSharedToLinearLayout(const NvmmaSharedParams& params,
                                               const std::vector<uint64_t>& shape,
                                               TritonVersion triton) {
  if (Error e = checkNvmma(params, triton); !e.message.empty())
    return e;
  std::size_t rank = shape.size();
  auto perCta = shapePerCta(params.cgaBases, shape);
  if (!perCta.ok())
    return perCta.error();
  auto tma = tmaBlockShape(params, *perCta);
  if (!tma.ok())
    return tma.error();
  auto outs = dims::standardOuts(rank);
  if (params.swizzlingByteWidth == 0) {
    // Unswizzled: one TMA box, an identity with the last dim fastest, repeated over the CTA's
    // part. Triton 3.9 builds it over the block as the swizzled layouts see it (rotated to
    // [dim1, .., dimN-1, dim0] when transposed) and with its out dims in reverse order
    // (dimN-1 .. dim0); the transpose then moves the last *position* to the front, and in that
    // reversed order positions are not dims. Rotated-block entry k therefore lands on dim k-1
    // (entry 0 on dimN-1). For rank 2 that is the intended dim0-fastest box. From rank 3 on
    // the sizes no longer match their dims (the contiguous run lands on dimN-2): a dim the box
    // covers too far is cut back (zero bases, not injective), one it covers too little is
    // grown, dimN-1 first, after the box.
    // Triton 3.6 lays the unswizzled box out the same way whether transposed or not.
    const bool transposed = params.transposed && triton != TritonVersion::v3_6;
    std::vector<uint64_t> block = *tma;
    if (transposed)
      std::rotate(block.begin(), block.begin() + 1, block.end());
    Result<LinearLayout> box = LinearLayout{};
    for (std::size_t k = rank; k-- > 0;) {
      std::size_t dim = transposed ? (k + rank - 1) % rank : k;
      box = times(box, LinearLayout::identity1D(block[k], dims::kOffset, outs[dim]));
    }
    if (!box.ok())
      return box.error();
    std::vector<DimName> reversed(outs.rbegin(), outs.rend());
    auto ordered = box->transposeOuts(reversed);
    if (!ordered.ok())
      return ordered.error();
    auto grown = growAlong(*ordered, dims::kOffset, labelled(*perCta));
    if (!grown.ok())
      return grown.error();
    return combineShared(*grown, params.cgaBases, shape);
  }
  if (rank < 2)
    return makeError("a swizzled #ttg.nvmma_shared needs a shape of rank at least 2");
  // The outer dims collapse into the rows of one 2-D box [rows, contiguous].
  std::vector<uint64_t> collapsed{1, tma->back()};
  for (std::size_t i = 0; i + 1 < rank; ++i)
    collapsed[0] *= (*tma)[i];
  if (params.transposed)
    std::swap(collapsed[0], collapsed[1]);
  auto tile = coreMatrix(params);
  if (!tile.ok())
    return tile.error();
  uint64_t tileRows = tile->getOutDimSize(outs[0]);
  uint64_t tileCols = tile->getOutDimSize(outs[1]);
  uint64_t packing = params.fp4Padded ? 2 : 1;
  if (collapsed[1] * packing < tileCols || collapsed[0] < tileRows)
    return makeError("the TMA box per CTA collapses to " + shapeText(collapsed) +
                     ", smaller than one " + std::to_string(tileRows) + "x" +
                     std::to_string(tileCols / packing) +
                     " core matrix (Triton: Illegal shared layout)");
  auto box = growAlong(*tile, dims::kOffset, labelled(collapsed));
  if (!box.ok())
    return box.error();
  // Transposed: the contiguous dim is dim0, so the box is reshaped as [dim1.., dim0] and the
  // last output moved to the front.
  std::vector<uint64_t> boxShape = *tma;
  if (params.transposed)
    std::rotate(boxShape.begin(), boxShape.begin() + 1, boxShape.end());
  auto reshaped = reshapeRowMajor(*box, boxShape);
  if (!reshaped.ok())
    return reshaped.error();
  if (params.transposed) {
    std::vector<std::size_t> order{rank - 1};
    for (std::size_t i = 0; i + 1 < rank; ++i)
      order.push_back(i);
    reshaped = permuteOuts(*reshaped, order);
    if (!reshaped.ok())
      return reshaped.error();
  }
  auto grown = growAlong(*reshaped, dims::kOffset, labelled(*perCta));
  if (!grown.ok())
    return grown.error();
  return combineShared(*grown, params.cgaBases, shape);
}

// ---- #ttg.shared_linear and #ttg.padded_shared ----------------------------------------------

Result<LinearLayout>
sharedLinearToLinearLayout(const std::vector<std::vector<uint64_t>>& offsetBases,
                           const std::vector<std::vector<uint64_t>>& blockBases,
                           const std::vector<uint64_t>& shape) {
  std::size_t rank = shape.size();
  std::vector<DimSize> outs;
  for (std::size_t d = 0; d < rank; ++d) {
    uint64_t maxValue = 0;
    for (const auto* bases : {&offsetBases, &blockBases})
      for (const auto& b : *bases) {
        if (b.size() != rank)
          return makeError("a basis has " + std::to_string(b.size()) +
                           " entries, the shape has rank " + std::to_string(rank));
        maxValue = std::max(maxValue, b[d]);
      }
    if (maxValue >= (uint64_t{1} << 62))
      return makeError("basis value " + std::to_string(maxValue) + " is too large");
    uint64_t size = std::bit_ceil(maxValue + 1);
    if (size != shape[d])
      return makeError("the bases cover " + std::to_string(size) + " along dim" +
                       std::to_string(d) + " but the shape asks for " + std::to_string(shape[d]) +
                       " (Triton requires the shape of the layout itself)");
    outs.push_back({dims::standardOut(static_cast<int>(d)), size});
  }
  return LinearLayout::create(
      {DimBases{dims::kOffset, offsetBases}, DimBases{dims::kBlock, blockBases}}, outs,
      /*requireSurjective=*/false);
}

uint64_t paddedOffset(const std::vector<IntervalPad>& padding, uint64_t offset) {
  uint64_t ret = offset;
  for (const IntervalPad& p : padding)
    ret += (offset / p.interval) * p.pad;
  return ret;
}

Result<LinearLayout> paddedIdentityComponent(const std::vector<uint64_t>& order,
                                             const std::vector<uint64_t>& shape) {
  if (Error e = checkOrder(order, shape.size()); !e.message.empty())
    return e;
  auto offset = identityND(dims::kOffset, shape, order);
  if (!offset.ok())
    return offset.error();
  auto ordered = offset->transposeOuts(dims::standardOuts(shape.size()));
  if (!ordered.ok())
    return ordered.error();
  return times(*ordered, LinearLayout::identity1D(1, dims::kBlock, dims::standardOut(0)));
}

// ---- #ttng.tensor_memory_encoding ---------------------------------------------------------

Result<LinearLayout> tensorMemoryToLinearLayout(const TensorMemoryParams& p,
                                                const std::vector<uint64_t>& shape) {
  if (shape.size() != 2)
    return makeError("tensor memory holds rank-2 tensors; the shape has rank " +
                     std::to_string(shape.size()));
  if (p.blockM != 64 && p.blockM != 128)
    return makeError("blockM must be 64 or 128, got " + std::to_string(p.blockM));
  for (auto [name, v] : {std::pair{"blockN", p.blockN}, std::pair{"colStride", p.colStride}})
    if (!std::has_single_bit(v))
      return makeError(std::string(name) + " must be a power of two, got " + std::to_string(v));
  auto split = ctaSplit(p.cgaBases, 2);
  if (!split.ok())
    return split.error();
  if (p.twoCTAs && (p.cgaBases.empty() || p.cgaBases[0] != std::vector<uint64_t>{1, 0}))
    return makeError("twoCTAs requires the first CGALayout basis to be [1, 0]");
  // Triton's memdesc verifier also wants shape >= (blockM, min(blockN, shape[1])) * split; its
  // toLinearLayout, which this reproduces, fails only where a block does not fit one CTA.
  std::vector<uint64_t> perCta{std::max<uint64_t>(1, shape[0] / (*split)[0]),
                               std::max<uint64_t>(1, shape[1] / (*split)[1])};
  uint64_t blockN = std::min(p.blockN, perCta[1]);
  DimName kRow("row"), kCol("col");
  auto outs = dims::standardOuts(2);
  // Columns between two elements of a row are skipped (colStride > 1, or fp4 padding).
  uint64_t stride = p.colStride * (p.fp4Padded ? 2 : 1);
  Result<LinearLayout> tile = LinearLayout::zeros1D(stride, kCol, outs[1]);
  if (p.blockM == 64 && !p.twoCTAs) {
    // M = 64: each warp's 32 lanes hold 16 rows; the other 16 lanes of a warp hold the next
    // block (along M or N), or nothing.
    tile = times(tile, times(LinearLayout::identity1D(16, kRow, outs[0]),
                             LinearLayout::identity1D(blockN, kCol, outs[1])));
    if (!tile.ok())
      return tile.error();
    std::vector<DimBases> bases = tile->getBases();
    for (DimBases& db : bases)
      if (db.name == kRow) {
        if (perCta[0] > p.blockM)
          db.bases.push_back({64, 0});
        else if (perCta[1] > blockN)
          db.bases.push_back({0, blockN});
        else
          db.bases.push_back({0, 0});
        db.bases.push_back({16, 0});
        db.bases.push_back({32, 0});
      }
    tile = LinearLayout::create(bases, outs);
  } else {
    tile = times(tile, times(LinearLayout::identity1D(p.blockM, kRow, outs[0]),
                             LinearLayout::identity1D(blockN, kCol, outs[1])));
    if (tile.ok() && p.blockM == 64) {
      // Two CTAs of M = 64: the last column bit becomes the top row bit.
      std::vector<DimBases> bases = tile->getBases();
      std::vector<uint64_t> moved;
      for (DimBases& db : bases)
        if (db.name == kCol && !db.bases.empty()) {
          moved = db.bases.back();
          db.bases.pop_back();
        }
      for (DimBases& db : bases)
        if (db.name == kRow && !moved.empty())
          db.bases.push_back(moved);
      tile = LinearLayout::create(bases, tile->getOutDims(), /*requireSurjective=*/false);
    }
  }
  if (!tile.ok())
    return tile.error();
  uint64_t repsM = perCta[0] / tile->getOutDimSize(outs[0]);
  uint64_t repsN = perCta[1] / tile->getOutDimSize(outs[1]);
  if (repsM < 1 || repsN < 1)
    return makeError(
        "the tensor shape " + shapeText(shape) + " is smaller than one TMEM block of " +
        std::to_string(tile->getOutDimSize(outs[0])) +
        " rows per CTA (Triton: " + "the tensor shape must be at least blockM x blockN)");
  tile = times(tile, LinearLayout::identity1D(repsM, kCol, outs[0]));
  tile = times(tile, LinearLayout::identity1D(repsN, kCol, outs[1]));
  return times(tile, makeCgaLayout(p.cgaBases, 2));
}

} // namespace llcheck
