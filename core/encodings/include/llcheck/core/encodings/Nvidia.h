// The NVIDIA distributed encodings as linear layouts: #ttg.nvidia_mma (Ampere mma.sync, version
// 2, and Hopper wgmma, version 3) and #ttg.dot_op of such a parent or of #ttg.blocked (the FMA
// dot operand). These are the pure algorithms, after the attribute text has been read and
// checked (NvidiaAttr.cpp); each returns exactly the LinearLayout Triton 3.9's
// toLinearLayout(shape, attr) computes. Every one of them is built from one register/lane tile
// of the mma instruction (nvidiaMmaTile), a warp layout, and the CGA layout of the blocks, laid
// over the shape by combineCtaCgaWithShape (llcheck/core/Encodings.h).
#pragma once

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <cstdint>
#include <vector>

namespace llcheck {

/// The parameters of #ttg.nvidia_mma. instrShape has one entry per tensor dim for version 2
/// ([.., M, N]); for version 3 it is [M, N, K] (Triton uses only M and N, and K may be left
/// out). cgaBases: one basis per block bit, each with one value per tensor dim.
struct NvidiaMmaParams {
  int64_t versionMajor = 2;
  int64_t versionMinor = 0;
  std::vector<uint64_t> warpsPerCTA;
  std::vector<uint64_t> instrShape;
  std::vector<std::vector<uint64_t>> cgaBases;
};

/// Triton's getMatrixOrder: the dims of [batch.., M, N] fastest first, [rank-1, rank-2, ..., 0]
/// when row-major; column-major swaps the first two.
[[nodiscard]] std::vector<uint64_t> matrixOrder(std::size_t rank, bool rowMajor);

/// One mma tile of a warp: kWidth consecutive registers along the inner dim (order[0]), 4 lanes
/// along it, 8 lanes along the outer dim (order[1]), then registers repeating the 8-row block
/// to tileShape's outer size and the kWidth * 4 columns to its inner size. The out dims are in
/// repOrder (the order Triton grows the layout in). The outer tile size must be a multiple of
/// 8, the inner one of kWidth * 4, and the quotients powers of two.
[[nodiscard]] Result<LinearLayout> nvidiaMmaTile(const std::vector<uint64_t>& tileShape,
                                                 uint64_t kWidth,
                                                 const std::vector<uint64_t>& order,
                                                 const std::vector<uint64_t>& repOrder);

/// #ttg.nvidia_mma (the accumulator of the mma) over `shape`.
[[nodiscard]] Result<LinearLayout> nvidiaMmaToLinearLayout(const NvidiaMmaParams& mma,
                                                           const std::vector<uint64_t>& shape);

/// #ttg.dot_op<{opIdx, parent = #ttg.nvidia_mma, kWidth}> over `shape` ([.., M, K] for operand
/// A, opIdx 0; [.., K, N] for operand B, opIdx 1). Warps that differ only along K hold the same
/// data (their bases are zero), and so do the blocks.
[[nodiscard]] Result<LinearLayout>
nvidiaMmaDotOperandToLinearLayout(const NvidiaMmaParams& mma, int opIdx, uint64_t kWidth,
                                  const std::vector<uint64_t>& shape);

/// #ttg.dot_op<{opIdx, parent = #ttg.blocked}> (the operand of an FMA dot) over `shape`: each
/// thread holds the whole K extent in registers; lanes, warps and blocks broadcast along K.
[[nodiscard]] Result<LinearLayout> fmaDotOperandToLinearLayout(const BlockedParams& blocked,
                                                               int opIdx,
                                                               const std::vector<uint64_t>& shape);

} // namespace llcheck
