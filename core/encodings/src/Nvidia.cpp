// #ttg.nvidia_mma and #ttg.dot_op of it or of #ttg.blocked as linear layouts (written from the
// description of Triton's LinearLayoutConversions.cpp and checked against Triton 3.9's answers
// in tests/triton_reference/encodings/).
#include "llcheck/core/encodings/Nvidia.h"

#include <bit>
#include <string>

namespace llcheck {

namespace {

Result<LinearLayout> chain(const LinearLayout& inner, const Result<LinearLayout>& outer) {
  if (!outer.ok())
    return outer.error();
  return product(inner, *outer);
}

/// identity1D along every dim in `order`, except zeros1D along `broadcastDim`: the inputs that
/// differ only along that dim hold the same data (a dot operand is shared by the warps that
/// split the other operand's dim).
Result<LinearLayout> broadcastedDotOperandLayout(const std::vector<uint64_t>& sizes,
                                                 const std::vector<uint64_t>& order,
                                                 uint64_t broadcastDim, DimName inDim) {
  LinearLayout ret;
  for (uint64_t d : order) {
    if (d >= sizes.size())
      return makeError("order entry " + std::to_string(d) + " is out of range");
    DimName out = dims::standardOut(static_cast<int>(d));
    auto p = timesIdentity1D(ret, sizes[d], inDim, out, /*zeros=*/d == broadcastDim);
    if (!p.ok())
      return p.error();
    ret = *p;
  }
  return ret;
}

/// Triton builds the CGA layout from bases that are 0 or one power of two each and must cover
/// every block position they reach (its CGA attribute verifier aborts otherwise).
Result<LinearLayout> checkedCgaLayout(const std::vector<std::vector<uint64_t>>& bases,
                                      std::size_t rank) {
  for (std::size_t i = 0; i < bases.size(); ++i) {
    int nonZero = 0;
    for (uint64_t v : bases[i])
      if (v != 0) {
        ++nonZero;
        if (!std::has_single_bit(v))
          return makeError("CGALayout[" + std::to_string(i) + "] has " + std::to_string(v) +
                           ", not a power of two or 0");
      }
    if (nonZero > 1)
      return makeError("CGALayout[" + std::to_string(i) +
                       "] moves along more than one dim (Triton's CGA layout verifier rejects it)");
  }
  auto cga = makeCgaLayout(bases, rank);
  if (!cga.ok())
    return cga.error();
  if (!cga->isSurjective())
    return makeError("the CGALayout bases do not reach every block position they span (Triton "
                     "requires the CGA layout to be surjective)");
  // Zero bases are blocks that broadcast; the others must be a permutation of the block bits.
  auto distinct = cga->removeZeroBasesAlongDim(dims::kBlock);
  if (!distinct.ok())
    return distinct.error();
  if (!distinct->isInjective())
    return makeError("the non-zero CGALayout bases repeat a block position (Triton requires "
                     "them to form a permutation matrix)");
  return cga;
}

/// The CGA layout of a dot operand: the parent's, with the blocks that differ only along K
/// holding the same data.
Result<LinearLayout> dotOperandCgaLayout(const std::vector<std::vector<uint64_t>>& parentBases,
                                         std::size_t rank, std::size_t kDim) {
  auto parent = checkedCgaLayout(parentBases, rank);
  if (!parent.ok())
    return parent.error();
  std::vector<std::vector<uint64_t>> bases = parentBases;
  for (auto& b : bases)
    b[kDim] = 0;
  return makeCgaLayout(bases, rank);
}

/// `warpLayout` with its outputs in the tile's order, multiplied onto the tile.
Result<LinearLayout> withWarps(const LinearLayout& tile, const Result<LinearLayout>& warpLayout) {
  if (!warpLayout.ok())
    return warpLayout.error();
  FixedVec<DimName, kMaxDims> order;
  for (const Dim& d : tile.outDims())
    order.push_back(d.name);
  auto warps = warpLayout->transposeOuts(std::span<const DimName>{order.begin(), order.size()});
  if (!warps.ok())
    return warps.error();
  return product(tile, *warps);
}

std::string rankText(std::size_t n) {
  return std::to_string(n);
}

Error checkRank(const char* what, std::size_t got, std::size_t rank) {
  if (got != rank)
    return makeError(std::string(what) + " has " + rankText(got) +
                     " entries but the shape has rank " + rankText(rank));
  return Error{};
}

/// The tile of the mma accumulator: Triton's instrShape read as the tile's [.., M, N].
Result<std::vector<uint64_t>> accumulatorTileShape(const NvidiaMmaParams& mma, std::size_t rank) {
  if (mma.versionMajor == 2) {
    if (Error e = checkRank("instrShape", mma.instrShape.size(), rank); !e.message.empty())
      return e;
    return mma.instrShape;
  }
  if (mma.versionMajor == 3) {
    if (rank != 2)
      return makeError("#ttg.nvidia_mma version 3 (Hopper) supports rank 2 only, the shape has "
                       "rank " +
                       rankText(rank));
    if (mma.instrShape.size() < 2)
      return makeError("instrShape of version 3 must be [M, N, K]");
    return std::vector<uint64_t>{mma.instrShape[0], mma.instrShape[1]};
  }
  return makeError("versionMajor must be 2 (Ampere) or 3 (Hopper), got " +
                   std::to_string(mma.versionMajor));
}

Error checkMmaRank(const NvidiaMmaParams& mma, const std::vector<uint64_t>& shape) {
  if (shape.size() < 2)
    return makeError("#ttg.nvidia_mma needs a shape of rank at least 2, got rank " +
                     rankText(shape.size()));
  return checkRank("warpsPerCTA", mma.warpsPerCTA.size(), shape.size());
}

/// Ampere keeps warps row-major (N fastest), Hopper's warp groups go down M first.
std::vector<uint64_t> mmaWarpOrder(const NvidiaMmaParams& mma, std::size_t rank) {
  return matrixOrder(rank, /*rowMajor=*/mma.versionMajor != 3);
}

} // namespace

std::vector<uint64_t> matrixOrder(std::size_t rank, bool rowMajor) {
  std::vector<uint64_t> order;
  for (std::size_t i = rank; i-- > 0;)
    order.push_back(i);
  if (!rowMajor && rank >= 2)
    std::swap(order[0], order[1]);
  return order;
}

Result<LinearLayout> nvidiaMmaTile(const std::vector<uint64_t>& tileShape, uint64_t kWidth,
                                   const std::vector<uint64_t>& order,
                                   const std::vector<uint64_t>& repOrder) {
  std::size_t rank = repOrder.size();
  if (rank < 2 || tileShape.size() != rank || order.size() != rank)
    return makeError("an mma tile needs rank >= 2 and one tile size per dim");
  uint64_t inner = order[0];
  uint64_t outer = order[1];
  if (inner >= rank || outer >= rank)
    return makeError("mma tile order is out of range");
  uint64_t m = tileShape[outer];
  uint64_t n = tileShape[inner];
  if (!std::has_single_bit(kWidth))
    return makeError("kWidth " + std::to_string(kWidth) + " is not a power of two");
  if (m % 8 != 0 || !std::has_single_bit(m / 8))
    return makeError("the mma tile's M (" + std::to_string(m) + ") must be 8 times a power of two");
  if (n % (kWidth * 4) != 0 || !std::has_single_bit(n / (kWidth * 4)))
    return makeError("the mma tile's N (" + std::to_string(n) + ") must be kWidth * 4 = " +
                     std::to_string(kWidth * 4) + " times a power of two");
  auto tile = identityND(dims::kRegister, std::vector<uint64_t>(rank, 1), repOrder);
  if (!tile.ok())
    return tile.error();
  DimName innerDim = dims::standardOut(static_cast<int>(inner));
  DimName outerDim = dims::standardOut(static_cast<int>(outer));
  // mma.sync's fragment: a thread's kWidth values sit side by side along the inner dim, a quad
  // of 4 lanes spans kWidth * 4 columns and the 8 quads of a warp go down 8 rows.
  const struct {
    uint64_t size;
    DimName in;
    DimName out;
  } steps[] = {{kWidth, dims::kRegister, innerDim},
               {4, dims::kLane, innerDim},
               {8, dims::kLane, outerDim},
               {m / 8, dims::kRegister, outerDim},
               {n / (kWidth * 4), dims::kRegister, innerDim}};
  LinearLayout ret = *tile;
  for (const auto& s : steps) {
    auto p = timesIdentity1D(ret, s.size, s.in, s.out);
    if (!p.ok())
      return p.error();
    ret = *p;
  }
  return ret;
}

Result<LinearLayout> nvidiaMmaToLinearLayout(const NvidiaMmaParams& mma,
                                             const std::vector<uint64_t>& shape) {
  if (Error e = checkMmaRank(mma, shape); !e.message.empty())
    return e;
  std::size_t rank = shape.size();
  auto tileShape = accumulatorTileShape(mma, rank);
  if (!tileShape.ok())
    return tileShape.error();
  // The accumulator is the mma tile with kWidth 2 (two 32-bit values per thread side by side).
  std::vector<uint64_t> rowMajor = matrixOrder(rank, /*rowMajor=*/true);
  auto tile = nvidiaMmaTile(*tileShape, 2, rowMajor, rowMajor);
  if (!tile.ok())
    return tile.error();
  auto cta = withWarps(*tile, identityND(dims::kWarp, mma.warpsPerCTA, mmaWarpOrder(mma, rank)));
  if (!cta.ok())
    return cta.error();
  return distributedOverShape(*cta, checkedCgaLayout(mma.cgaBases, rank), shape);
}

Result<LinearLayout> nvidiaMmaDotOperandToLinearLayout(const NvidiaMmaParams& mma, int opIdx,
                                                       uint64_t kWidth,
                                                       const std::vector<uint64_t>& shape) {
  if (Error e = checkMmaRank(mma, shape); !e.message.empty())
    return e;
  std::size_t rank = shape.size();
  // The parent must be a valid accumulator layout of this rank (it fixes the version's rules).
  auto parentTile = accumulatorTileShape(mma, rank);
  if (!parentTile.ok())
    return parentTile.error();
  if (opIdx != 0 && opIdx != 1)
    return makeError("opIdx must be 0 or 1");
  if (mma.versionMajor == 3 && opIdx != 0)
    return makeError("opIdx must be 0 for a Hopper (version 3) parent: wgmma reads only "
                     "operand A from registers");
  bool isA = opIdx == 0;
  // Operand A covers the parent's M rows and kWidth * 8 of K; operand B kWidth * 8 of K and the
  // 8 columns of one mma.sync n8 tile, whatever the parent's N.
  std::vector<uint64_t> tileShape(rank, 1);
  tileShape[rank - 2] = isA ? (*parentTile)[rank - 2] : kWidth * 8;
  tileShape[rank - 1] = isA ? kWidth * 8 : 8;
  // Registers run along K first in both operands.
  std::vector<uint64_t> order = matrixOrder(rank, /*rowMajor=*/isA);
  auto tile = nvidiaMmaTile(tileShape, kWidth, order, order);
  if (!tile.ok())
    return tile.error();
  std::size_t kDim = isA ? rank - 1 : rank - 2;
  auto cta = withWarps(*tile, broadcastedDotOperandLayout(mma.warpsPerCTA, mmaWarpOrder(mma, rank),
                                                          kDim, dims::kWarp));
  if (!cta.ok())
    return cta.error();
  return distributedOverShape(*cta, dotOperandCgaLayout(mma.cgaBases, rank, kDim), shape);
}

Result<LinearLayout> fmaDotOperandToLinearLayout(const BlockedParams& blocked, int opIdx,
                                                 const std::vector<uint64_t>& shape) {
  std::size_t rank = shape.size();
  if (rank < 2)
    return makeError("a dot operand needs a shape of rank at least 2, got rank " + rankText(rank));
  for (const auto* v :
       {&blocked.sizePerThread, &blocked.threadsPerWarp, &blocked.warpsPerCTA, &blocked.order})
    if (v->size() != rank)
      return makeError("#ttg.blocked parameters must have one entry per dim of the shape");
  if (opIdx != 0 && opIdx != 1)
    return makeError("opIdx must be 0 or 1");
  std::size_t kDim = opIdx == 0 ? rank - 1 : rank - 2;
  // Each thread computes its outputs from the whole K extent, so it holds all of K itself.
  std::vector<uint64_t> threadSize = blocked.sizePerThread;
  threadSize[kDim] = shape[kDim];
  auto regs = identityND(dims::kRegister, threadSize, blocked.order);
  if (!regs.ok())
    return regs.error();
  auto cta = chain(
      *regs, broadcastedDotOperandLayout(blocked.threadsPerWarp, blocked.order, kDim, dims::kLane));
  if (!cta.ok())
    return cta.error();
  cta = chain(*cta,
              broadcastedDotOperandLayout(blocked.warpsPerCTA, blocked.order, kDim, dims::kWarp));
  if (!cta.ok())
    return cta.error();
  return distributedOverShape(*cta, dotOperandCgaLayout(blocked.cgaBases, rank, kDim), shape);
}

} // namespace llcheck
