// The memory encodings of Triton 3.9 as linear layouts: the shared-memory ones (#ttg.
// swizzled_shared, #ttg.amd_rotating_shared, #ttg.nvmma_shared, #ttg.shared_linear and the linear
// component of #ttg.padded_shared), whose layouts map (offset, block) to dim0, dim1, ..., and
// Blackwell's tensor memory (#ttng.tensor_memory_encoding), which maps the TMEM (row, col) of a
// CTA, and the block, to dim0, dim1. These are the pure algorithms, after the attribute has been
// read and checked (encodings/SharedAttr.cpp); each returns exactly what Triton 3.9's
// toLinearLayout(shape, attr) returns, or an Error where Triton rejects the parameters.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace llcheck {

/// #ttg.swizzled_shared and #ttg.amd_rotating_shared: the row r of the two most minor dims
/// (order[1], order[0]) starts at column vec * phase(r) where phase(r) = (r / perPhase) %
/// maxPhase (the AMD form XORs in the block of maxPhase rows, too). Triton accepts any vec >= 0
/// and perPhase, maxPhase >= 1 (not only powers of two); cgaBases are the CGALayout bases.
struct SwizzledSharedParams {
  uint64_t vec = 1;
  uint64_t perPhase = 1;
  uint64_t maxPhase = 1;
  std::vector<uint64_t> order;
  std::vector<std::vector<uint64_t>> cgaBases;
};

[[nodiscard]] Result<LinearLayout> swizzledSharedToLinearLayout(const SwizzledSharedParams& params,
                                                                const std::vector<uint64_t>& shape);
[[nodiscard]] Result<LinearLayout>
amdRotatingSharedToLinearLayout(const SwizzledSharedParams& params,
                                const std::vector<uint64_t>& shape);

/// #ttg.nvmma_shared: the wgmma/tcgen05 shared-memory layout, tiles of 8 rows by one swizzle
/// width (swizzlingByteWidth 0, 32, 64 or 128 bytes) of elementBitWidth-bit elements.
struct NvmmaSharedParams {
  uint64_t swizzlingByteWidth = 128;
  bool transposed = false;
  uint64_t elementBitWidth = 16;
  bool fp4Padded = false;
  std::vector<std::vector<uint64_t>> cgaBases;
};

/// The TMA box of one CTA (Triton's getTMABlockShape with packedSize): every dim at most 256,
/// the contiguous dim exactly one swizzle width; an Error where the tensor is narrower than
/// that.
[[nodiscard]] Result<std::vector<uint64_t>> tmaBlockShape(const NvmmaSharedParams& params,
                                                          const std::vector<uint64_t>& shapePerCTA);

/// Unswizzled (swizzlingByteWidth 0) and transposed, Triton 3.9 makes dim0 the contiguous dim
/// of the box; Triton 3.6 ignores `transposed` there (the last dim is contiguous).
[[nodiscard]] Result<LinearLayout> nvmmaSharedToLinearLayout(const NvmmaSharedParams& params,
                                                             const std::vector<uint64_t>& shape,
                                                             TritonVersion triton = kNewestTriton);

/// #ttg.shared_linear: the layout of the bases themselves; Triton requires the shape to be
/// exactly the one the bases cover.
[[nodiscard]] Result<LinearLayout>
sharedLinearToLinearLayout(const std::vector<std::vector<uint64_t>>& offsetBases,
                           const std::vector<std::vector<uint64_t>>& blockBases,
                           const std::vector<uint64_t>& shape);

/// One `interval:+pad` of #ttg.padded_shared: `pad` elements follow every `interval` elements.
struct IntervalPad {
  uint64_t interval = 1;
  uint64_t pad = 0;
  friend bool operator==(const IntervalPad&, const IntervalPad&) = default;
};

/// Where the element at linear `offset` really lies once the padding is inserted: offset +
/// sum over pairs of (offset / interval) * pad (the definition in Triton's
/// PaddedSharedEncodingAttr). Padding is not F2-linear, so it stays outside the LinearLayout.
[[nodiscard]] uint64_t paddedOffset(const std::vector<IntervalPad>& padding, uint64_t offset);

/// The short form {order, shape} of #ttg.padded_shared's linear component: the identity
/// offset -> dims, filling order[0] first.
[[nodiscard]] Result<LinearLayout> paddedIdentityComponent(const std::vector<uint64_t>& order,
                                                           const std::vector<uint64_t>& shape);

/// #ttng.tensor_memory_encoding<blockM, blockN, colStride, CGALayout, twoCTAs, fp4Padded>.
struct TensorMemoryParams {
  uint64_t blockM = 128;
  uint64_t blockN = 128;
  uint64_t colStride = 1;
  std::vector<std::vector<uint64_t>> cgaBases;
  bool twoCTAs = false;
  bool fp4Padded = false;
};

/// In dims row, col, block (the order Triton's products give); out dims dim0 (the M rows), dim1
/// (the N columns). A zero row or col basis inside one warp's 32 rows marks TMEM
/// that holds no element; a zero at rows 32/64 marks a copy.
[[nodiscard]] Result<LinearLayout> tensorMemoryToLinearLayout(const TensorMemoryParams& params,
                                                              const std::vector<uint64_t>& shape);

} // namespace llcheck
