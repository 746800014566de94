// The AMD matrix-core encodings as linear layouts: #ttg.amd_mfma (CDNA, 64 lanes), #ttg.amd_wmma
// (RDNA and gfx1250, 32 lanes) and the #ttg.dot_op operands of both. These are the pure
// algorithms, after the attribute text has been read and checked (encodings/AmdAttr.cpp); each
// returns exactly the LinearLayout Triton 3.9's toLinearLayout(shape, attr) computes, with the
// in-dims register, lane, warp, block and the out-dims dim0, dim1, ... of `shape`. Parameter
// sets Triton aborts on (a non-transposed 64x4 MFMA, non-powers of two) are an Error here.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <cstdint>
#include <vector>

namespace llcheck {

/// #ttg.amd_mfma, one entry per tensor dim where a vector is per dim (rank 2, or 3 with a
/// leading batch dim). cgaBases: one basis per block bit, each with one value per tensor dim.
struct MfmaParams {
  uint64_t version = 0;
  std::vector<uint64_t> warpsPerCTA;
  uint64_t mDim = 0; ///< instrShape[0]
  uint64_t nDim = 0; ///< instrShape[1]
  bool isTransposed = false;
  std::vector<uint64_t> tilesPerWarp; ///< empty: one tile per warp in every dim
  uint64_t elementBitWidth = 32;
  std::vector<std::vector<uint64_t>> cgaBases;
};

/// #ttg.amd_wmma. Triton 3.9 gives the CTA layout as bases in units of one 16x16 instruction
/// tile: registerBases (repetitions held by one lane) and warpBases, each basis one value per
/// dim. Triton 3.6 gives warpsPerCTA and tilesPerWarp instead (warpsPerCTA non-empty), laid out
/// as #ttg.amd_mfma lays its own (docs/triton-versions.md).
struct WmmaParams {
  uint64_t version = 0;
  bool isTransposed = false;
  std::vector<std::vector<uint64_t>> registerBases;
  std::vector<std::vector<uint64_t>> warpBases;
  std::vector<uint64_t> warpsPerCTA;  ///< Triton 3.6's form; empty for 3.9's
  std::vector<uint64_t> tilesPerWarp; ///< Triton 3.6's form; empty: one tile per warp
  std::vector<uint64_t> instrShape{16, 16, 16};
  std::vector<std::vector<uint64_t>> cgaBases;
};

[[nodiscard]] Result<LinearLayout> mfmaToLinearLayout(const MfmaParams& params,
                                                      const std::vector<uint64_t>& shape);

/// #ttg.dot_op<{opIdx, parent = #ttg.amd_mfma<...>, kWidth}>: operand A (opIdx 0, [batch,] M x K)
/// or B (opIdx 1, [batch,] K x N), each lane holding kWidth consecutive elements along K.
[[nodiscard]] Result<LinearLayout> mfmaDotOperandToLinearLayout(const MfmaParams& parent, int opIdx,
                                                                uint64_t kWidth,
                                                                const std::vector<uint64_t>& shape);

[[nodiscard]] Result<LinearLayout> wmmaToLinearLayout(const WmmaParams& params,
                                                      const std::vector<uint64_t>& shape);

[[nodiscard]] Result<LinearLayout> wmmaDotOperandToLinearLayout(const WmmaParams& parent, int opIdx,
                                                                uint64_t kWidth,
                                                                const std::vector<uint64_t>& shape);

} // namespace llcheck
