// #ttg.amd_mfma, #ttg.amd_wmma and their dot operands as linear layouts (written from the
// description of Triton 3.9's LinearLayoutConversions.cpp and checked against its answers in
// tests/triton_reference/encodings/). Each layout is one instruction tile (register x lane),
// multiplied by the repetitions and warps, then laid over the shape by combineCtaCgaWithShape.
#include "llcheck/core/encodings/Amd.h"

#include "llcheck/core/Encodings.h"

#include <string>

namespace llcheck {

namespace {

DimName dimOut(std::size_t d) {
  return dims::standardOut(static_cast<int>(d));
}

/// identity1D, where Triton's identity1D(0, ...) is the empty layout: a repetition count that
/// rounds down to 0 adds nothing.
LinearLayout id(uint64_t size, DimName in, DimName out) {
  if (size == 0)
    return LinearLayout::empty();
  return LinearLayout::identity1D(size, in, out).value();
}

/// tile * id(size, in, out), or tile * zeros1D(size, in, out) with `zeros`, without building
/// the factor.
LinearLayout times(const LinearLayout& tile, uint64_t size, DimName in, DimName out,
                   bool zeros = false) {
  if (size == 0 && !zeros)
    return tile;
  return timesIdentity1D(tile, size, in, out, zeros).value();
}

LinearLayout transposed(const LinearLayout& l, const std::vector<DimName>& outs) {
  return l.transposeOuts(outs).value();
}

/// Triton's getMatrixOrder: the dims fastest first, [rank-1, rank-2, ..., 0] for row major,
/// with the two matrix dims swapped for column major.
std::vector<std::size_t> matrixOrder(std::size_t rank, bool rowMajor) {
  std::vector<std::size_t> order;
  for (std::size_t d = rank; d-- > 0;)
    order.push_back(d);
  if (!rowMajor)
    std::swap(order[0], order[1]);
  return order;
}

std::vector<DimName> permutedOuts(const std::vector<std::size_t>& order) {
  std::vector<DimName> names;
  for (std::size_t d : order)
    names.push_back(dimOut(d));
  return names;
}

/// The order of a dot operand with K fastest: A ([batch,] M, K) -> K, M; B ([batch,] K, N) -> K,
/// N; then the batch.
std::vector<std::size_t> kContigOrder(int opIdx, std::size_t rank) {
  return matrixOrder(rank, opIdx == 0);
}

/// Runs a layout construction whose products are known to be well formed (the readers check
/// the parameters); a LayoutError from operator* still becomes an Error.
template <class F> Result<LinearLayout> guarded(F&& build) {
  try {
    return build();
  } catch (const LayoutError& e) {
    return makeError(e.what());
  }
}

Error checkRank(std::size_t rank, std::size_t given, const char* what) {
  if (rank != 2 && rank != 3)
    return makeError(std::string(what) + " layouts have rank 2 or 3 (a leading batch dim), not " +
                     std::to_string(rank));
  if (given != rank)
    return makeError(std::string(what) + " parameters have rank " + std::to_string(given) +
                     ", the shape has rank " + std::to_string(rank));
  return Error{};
}

bool isPow2(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

Error checkMfma(const MfmaParams& p, std::size_t rank) {
  if (Error e = checkRank(rank, p.warpsPerCTA.size(), "#ttg.amd_mfma"); !e.message.empty())
    return e;
  if (!p.tilesPerWarp.empty() && p.tilesPerWarp.size() != rank)
    return makeError("tilesPerWarp has " + std::to_string(p.tilesPerWarp.size()) +
                     " entries, the shape has rank " + std::to_string(rank));
  bool validTile = (p.mDim == 32 && p.nDim == 32) || (p.mDim == 16 && p.nDim == 16) ||
                   (p.mDim == 64 && p.nDim == 4) || (p.mDim == 4 && p.nDim == 64);
  if (!validTile)
    return makeError("invalid MFMA instruction tile " + std::to_string(p.mDim) + "x" +
                     std::to_string(p.nDim) + " (expected 32x32, 16x16, 64x4 or 4x64)");
  // Triton asserts here: a 64x4 tile is always used transposed, as the 4x64 one.
  if (p.mDim == 64 && p.nDim == 4 && !p.isTransposed)
    return makeError("a 64x4 MFMA layout must have isTransposed = true (Triton asserts it)");
  if (p.elementBitWidth != 32 && p.elementBitWidth != 64)
    return makeError("elementBitWidth must be 32 or 64");
  for (uint64_t v : p.warpsPerCTA)
    if (!isPow2(v))
      return makeError("warpsPerCTA entries must be powers of two");
  for (uint64_t v : p.tilesPerWarp)
    if (!isPow2(v))
      return makeError("tilesPerWarp entries must be powers of two");
  return Error{};
}

uint64_t tilesAt(const MfmaParams& p, std::size_t d) {
  return p.tilesPerWarp.empty() ? 1 : p.tilesPerWarp[d];
}

} // namespace

Result<LinearLayout> mfmaToLinearLayout(const MfmaParams& p, const std::vector<uint64_t>& shape) {
  std::size_t rank = shape.size();
  if (Error e = checkMfma(p, rank); !e.message.empty())
    return e;
  return guarded([&]() -> Result<LinearLayout> {
    std::size_t mIndex = rank - 2, nIndex = rank - 1;
    DimName dimM = dimOut(mIndex), dimN = dimOut(nIndex);
    constexpr uint64_t kWarpSize = 64;
    // A lane holds 4 consecutive 32-bit results along M (N when transposed), or one 64-bit one;
    // the lanes cover N (M) first, then the rest of M (N); registers repeat to fill the tile.
    uint64_t height = p.elementBitWidth == 64 ? 1 : 4;
    uint64_t tiles = p.mDim * p.nDim / (kWarpSize * height);
    DimName along = p.isTransposed ? dimN : dimM;  // the dim of a lane's consecutive results
    DimName across = p.isTransposed ? dimM : dimN; // the dim the first lanes cover
    uint64_t acrossSize = p.isTransposed ? p.mDim : p.nDim;
    LinearLayout tile =
        id(height, dims::kRegister, along) *
        (id(acrossSize, dims::kLane, across) * id(kWarpSize / acrossSize, dims::kLane, along)) *
        id(tiles, dims::kRegister, along);
    tile = transposed(tile, {dimN, dimM});
    // Tiles are ordered N-contiguous over the whole tensor, across CTA-tile boundaries (the dot
    // lowering relies on it): a warp's N tiles, the warps along N, the rest of N (from the full
    // shape, before any CGA split), then a warp's M tiles and the warps along M.
    uint64_t ctaTileN = p.nDim * p.warpsPerCTA[nIndex] * tilesAt(p, nIndex);
    tile = times(tile, tilesAt(p, nIndex), dims::kRegister, dimN);
    tile = times(tile, p.warpsPerCTA[nIndex], dims::kWarp, dimN);
    tile = times(tile, shape[nIndex] / ctaTileN, dims::kRegister, dimN);
    tile = times(tile, tilesAt(p, mIndex), dims::kRegister, dimM);
    tile = times(tile, p.warpsPerCTA[mIndex], dims::kWarp, dimM);
    if (rank == 3) {
      tile = times(tile, 1, dims::kRegister, dimOut(0));
      tile = times(tile, 1, dims::kLane, dimOut(0));
      tile = times(tile, p.warpsPerCTA[0], dims::kWarp, dimOut(0));
    }
    return distributedOverShape(tile, makeCgaLayout(p.cgaBases, shape.size()), shape);
  });
}

Result<LinearLayout> mfmaDotOperandToLinearLayout(const MfmaParams& p, int opIdx, uint64_t kWidth,
                                                  const std::vector<uint64_t>& shape) {
  std::size_t rank = shape.size();
  if (Error e = checkMfma(p, rank); !e.message.empty())
    return e;
  if (!isPow2(kWidth))
    return makeError("kWidth must be a power of two");
  return guarded([&]() -> Result<LinearLayout> {
    constexpr uint64_t kWarpSize = 64;
    std::size_t kIndex = opIdx == 0 ? rank - 1 : rank - 2;
    std::size_t nonKIndex = opIdx == 0 ? rank - 2 : rank - 1;
    DimName dimK = dimOut(kIndex), dimNonK = dimOut(nonKIndex);
    uint64_t nonKDim = opIdx == 0 ? p.mDim : p.nDim;
    // kWidth consecutive K elements per lane; the lanes cover the non-K extent of the tile, the
    // remaining lanes continue along K.
    LinearLayout tile =
        id(kWidth, dims::kRegister, dimK) *
        (id(nonKDim, dims::kLane, dimNonK) * id(kWarpSize / nonKDim, dims::kLane, dimK));
    uint64_t kTileSize = kWarpSize / nonKDim * kWidth;
    // The 64-wide operand of a 64x4 / 4x64 instruction is 64x64: 16 tiles along K.
    if ((p.mDim == 64 && p.nDim == 4 && opIdx == 0) ||
        (p.mDim == 4 && p.nDim == 64 && opIdx == 1)) {
      tile = times(tile, 16, dims::kRegister, dimK);
      kTileSize *= 16;
    }
    if (shape[kIndex] > kTileSize)
      tile = times(tile, shape[kIndex] / kTileSize, dims::kRegister, dimK);
    tile = times(tile, tilesAt(p, nonKIndex), dims::kRegister, dimNonK);
    tile = transposed(tile, {dimK, dimNonK});
    if (rank == 3) {
      tile = times(tile, 1, dims::kRegister, dimOut(0));
      tile = times(tile, 1, dims::kLane, dimOut(0));
    }
    // Warps follow the parent's row-major order and are not broadcast along K here.
    LinearLayout warps;
    for (std::size_t d : matrixOrder(rank, /*rowMajor=*/true))
      warps = times(warps, p.warpsPerCTA[d], dims::kWarp, dimOut(d));
    auto l = distributedOverShape(tile * warps, makeCgaLayout(p.cgaBases, shape.size()), shape);
    if (!l.ok())
      return l;
    return l->transposeOuts(dims::standardOuts(rank));
  });
}

namespace {

Error checkWmma(const WmmaParams& p, std::size_t rank) {
  if (rank != 2 && rank != 3)
    return makeError("#ttg.amd_wmma layouts have rank 2 or 3 (a leading batch dim), not " +
                     std::to_string(rank));
  if (p.version < 1 || p.version > 3)
    return makeError("WMMA version must be 1, 2 or 3");
  for (const auto* list : {&p.registerBases, &p.warpBases, &p.cgaBases})
    for (const auto& b : *list)
      if (b.size() != rank)
        return makeError("a basis has " + std::to_string(b.size()) +
                         " entries, the shape has rank " + std::to_string(rank));
  if (p.instrShape.size() != 3 || p.instrShape[0] != 16 || p.instrShape[1] != 16)
    return makeError("WMMA instrShape must be [16, 16, K]");
  return Error{};
}

/// The 16x16 accumulator tile of one WMMA instruction (32 lanes, 8 results each), outputs in
/// standard order. Version 1 interleaves rows between the two half-warps; versions 2 and 3 give
/// each half-warp 8 consecutive rows.
LinearLayout wmmaTile(const WmmaParams& p, std::size_t rank) {
  // Along `fast` the 16 first lanes; along `slow` a lane's 8 results (bases as in the ISA).
  // Built from packed columns: the outputs in standard order, 4 bits for each of the two
  // matrix dims (the bases reach 8 in both), none for a batch dim.
  auto order = matrixOrder(rank, /*rowMajor=*/!p.isTransposed);
  std::size_t fast = order[0], slow = order[1];
  FixedVec<Dim, kMaxDims> outs;
  int fastOffset = 0, slowOffset = 0, offset = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    bool matrixDim = d == fast || d == slow;
    if (d == fast)
      fastOffset = offset;
    if (d == slow)
      slowOffset = offset;
    outs.push_back({dimOut(d), matrixDim ? 4 : 0});
    offset += matrixDim ? 4 : 0;
  }
  auto at = [&](uint64_t fastValue, uint64_t slowValue) {
    return (fastValue << fastOffset) | (slowValue << slowOffset);
  };
  // Version 1 interleaves rows between the two half-warps (the last lane basis is row 1),
  // versions 2 and 3 give each half-warp 8 consecutive rows (row 8).
  bool v1 = p.version == 1;
  const uint64_t columns[] = {at(0, v1 ? 2 : 1), at(0, v1 ? 4 : 2), at(0, v1 ? 8 : 4),
                              at(1, 0),          at(2, 0),          at(4, 0),
                              at(8, 0),          at(0, v1 ? 1 : 8)};
  const Dim ins[] = {{dims::kRegister, 3}, {dims::kLane, 5}};
  return LinearLayout::fromColumns(ins, {outs.begin(), outs.size()}, columns).value();
}

/// The CTA layout (register and warp bases, in tiles) with outputs dim0.. sized by the bases.
Result<LinearLayout> wmmaCtaLayout(const WmmaParams& p, std::size_t rank) {
  std::vector<DimSize> outs;
  for (std::size_t d = 0; d < rank; ++d) {
    uint64_t maxValue = 0;
    for (const auto* list : {&p.registerBases, &p.warpBases})
      for (const auto& b : *list)
        maxValue = std::max(maxValue, b[d]);
    if (maxValue >= (uint64_t{1} << 30))
      return makeError("a ctaLayout basis value is too large");
    uint64_t size = 1;
    while (size <= maxValue)
      size <<= 1;
    outs.push_back({dimOut(d), size});
  }
  return LinearLayout::create(
      {DimBases{dims::kRegister, p.registerBases}, DimBases{dims::kWarp, p.warpBases}}, outs,
      /*requireSurjective=*/true);
}

} // namespace

namespace {

/// Triton 3.6's #ttg.amd_wmma<{warpsPerCTA, tilesPerWarp}>: the instruction tile, then along N
/// a warp's tiles, the warps and the rest of N (from the full shape), then along M a warp's
/// tiles and the warps, then the batch's warps; the same order #ttg.amd_mfma uses.
Result<LinearLayout> wmma36ToLinearLayout(const WmmaParams& p, const std::vector<uint64_t>& shape) {
  std::size_t rank = shape.size();
  if (p.warpsPerCTA.size() != rank)
    return makeError("warpsPerCTA has " + std::to_string(p.warpsPerCTA.size()) +
                     " entries, the shape has rank " + std::to_string(rank));
  if (!p.tilesPerWarp.empty() && p.tilesPerWarp.size() != rank)
    return makeError("tilesPerWarp has " + std::to_string(p.tilesPerWarp.size()) +
                     " entries, the shape has rank " + std::to_string(rank));
  for (const auto* list : {&p.warpsPerCTA, &p.tilesPerWarp})
    for (uint64_t v : *list)
      if (!isPow2(v))
        return makeError("warpsPerCTA and tilesPerWarp entries must be powers of two");
  std::size_t mIndex = rank - 2, nIndex = rank - 1;
  for (std::size_t d : {mIndex, nIndex})
    if (shape[d] != 1 && shape[d] < 16)
      return makeError("dim" + std::to_string(d) + " of the shape is " + std::to_string(shape[d]) +
                       ", neither 1 nor at least the 16 of the WMMA tile (Triton 3.6 asserts: "
                       "unsupported tensor shape for given wmma layout)");
  auto tiles = [&](std::size_t d) { return p.tilesPerWarp.empty() ? 1 : p.tilesPerWarp[d]; };
  return guarded([&]() -> Result<LinearLayout> {
    DimName dimM = dimOut(mIndex), dimN = dimOut(nIndex);
    LinearLayout tile = transposed(wmmaTile(p, rank), permutedOuts(matrixOrder(rank, true)));
    uint64_t ctaTileN = 16 * p.warpsPerCTA[nIndex] * tiles(nIndex);
    tile = times(tile, tiles(nIndex), dims::kRegister, dimN);
    tile = times(tile, p.warpsPerCTA[nIndex], dims::kWarp, dimN);
    tile = times(tile, shape[nIndex] / ctaTileN, dims::kRegister, dimN);
    tile = times(tile, tiles(mIndex), dims::kRegister, dimM);
    tile = times(tile, p.warpsPerCTA[mIndex], dims::kWarp, dimM);
    if (rank == 3)
      tile = times(tile, p.warpsPerCTA[0], dims::kWarp, dimOut(0));
    return distributedOverShape(tile, makeCgaLayout(p.cgaBases, shape.size()), shape);
  });
}

} // namespace

Result<LinearLayout> wmmaToLinearLayout(const WmmaParams& p, const std::vector<uint64_t>& shape) {
  std::size_t rank = shape.size();
  if (Error e = checkWmma(p, rank); !e.message.empty())
    return e;
  if (!p.warpsPerCTA.empty())
    return wmma36ToLinearLayout(p, shape);
  auto cta = wmmaCtaLayout(p, rank);
  if (!cta.ok())
    return cta.error().within("the ctaLayout");
  return guarded([&]() -> Result<LinearLayout> {
    // Triton keeps the row-major repetition order only for compatibility with its tests; the
    // shape is grown in that order.
    LinearLayout l = transposed(wmmaTile(p, rank) * *cta, permutedOuts(matrixOrder(rank, true)));
    return distributedOverShape(l, makeCgaLayout(p.cgaBases, shape.size()), shape);
  });
}

Result<LinearLayout> wmmaDotOperandToLinearLayout(const WmmaParams& p, int opIdx, uint64_t kWidth,
                                                  const std::vector<uint64_t>& shape) {
  std::size_t rank = shape.size();
  if (Error e = checkWmma(p, rank); !e.message.empty())
    return e;
  if (!isPow2(kWidth))
    return makeError("kWidth must be a power of two");
  auto cta = wmmaCtaLayout(p, rank);
  if (!cta.ok())
    return cta.error().within("the ctaLayout");
  return guarded([&]() -> Result<LinearLayout> {
    auto order = kContigOrder(opIdx, rank);
    std::size_t kIndex = order[0];
    DimName dimK = dimOut(kIndex), dimNonK = dimOut(order[1]);
    constexpr uint64_t kWarpSize = 32, kTileDim = 16, kDepth = kWarpSize / kTileDim;
    // kWidth registers along K, 16 lanes along the non-K dim, the second half-warp along K
    // (version 1 duplicates the first half-warp's values instead), registers repeating along K
    // to fill the instruction's K.
    LinearLayout tile = id(kWidth, dims::kRegister, dimK) * id(kTileDim, dims::kLane, dimNonK);
    tile = times(tile, kDepth, dims::kLane, dimK, /*zeros=*/p.version == 1);
    tile = times(tile, p.instrShape[2] / (kDepth * kWidth), dims::kRegister, dimK);
    // The operand does not vary along K across the CTA layout: its K components are dropped,
    // and the register repetitions that become pure copies are removed.
    std::vector<DimBases> bases = cta->getBases();
    std::vector<DimSize> outs = cta->getOutDims();
    for (DimBases& db : bases) {
      for (auto& b : db.bases)
        b[kIndex] = 0;
      if (db.name == dims::kRegister)
        std::erase_if(db.bases, [](const std::vector<uint64_t>& b) {
          for (uint64_t v : b)
            if (v != 0)
              return false;
          return true;
        });
    }
    outs[kIndex].size = 1;
    auto ctaK = LinearLayout::create(bases, outs, /*requireSurjective=*/false);
    if (!ctaK.ok())
      return ctaK.error();
    LinearLayout l = transposed(tile * *ctaK, permutedOuts(order));
    // The operand's CGA layout is the parent's with the K split dropped: CTAs that split the
    // accumulator along K's dim hold the same operand (MFMA operands keep the parent's).
    std::vector<std::vector<uint64_t>> cga = p.cgaBases;
    for (auto& b : cga)
      b[kIndex] = 0;
    return distributedOverShape(l, makeCgaLayout(cga, shape.size()), shape);
  });
}

} // namespace llcheck
