// Triton's encoding attributes as linear layouts: the pure algorithms, after the attribute text
// has been read (core/formats/src/attributes/ reads the attributes). Each function returns exactly
// the LinearLayout Triton 3.9's toLinearLayout(shape, attr) computes, or where a TritonVersion is
// taken, that release's (docs/triton-versions.md).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LayoutUtils.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace llcheck {

/// The parameters of #ttg.blocked, one entry per tensor dim (cgaBases: one basis per block bit,
/// each with one value per tensor dim; empty for a single CTA).
struct BlockedParams {
  std::vector<uint64_t> sizePerThread;
  std::vector<uint64_t> threadsPerWarp;
  std::vector<uint64_t> warpsPerCTA;
  std::vector<uint64_t> order;
  std::vector<std::vector<uint64_t>> cgaBases;
};

/// The #ttg.blocked attribute as Triton prints it, for one CTA (cgaBases are not printed).
[[nodiscard]] std::string blockedAttributeText(const BlockedParams& params);

/// The CGA layout block -> dim0.. from its bases; out sizes inferred from the bases.
[[nodiscard]] Result<LinearLayout> makeCgaLayout(const std::vector<std::vector<uint64_t>>& bases,
                                                 std::size_t rank);

/// Lays a CTA layout (register, lane, warp -> dims, in any order of dim0..) and a CGA layout
/// (block -> dims) over `shape`: the result has exactly `shape` as its out sizes, outputs dim0,
/// dim1, ...
[[nodiscard]] Result<LinearLayout> combineCtaCgaWithShape(const LinearLayout& cta,
                                                          const LinearLayout& cga,
                                                          const std::vector<uint64_t>& shape);

/// combineCtaCgaWithShape, then withDistributedInDims: how every distributed encoding lays its
/// CTA layout over `shape` with its CGA layout (an Error in `cga` is passed through).
[[nodiscard]] Result<LinearLayout> distributedOverShape(const LinearLayout& cta,
                                                        const Result<LinearLayout>& cga,
                                                        const std::vector<uint64_t>& shape);

/// #ttg.blocked over `shape`. Parameters must be validated by the caller (equal lengths, powers
/// of two, order a permutation); violations still give an Error, not a crash. Triton 3.9 drops
/// the registers that broadcast (sizePerThread larger than the shape: zero register bases),
/// Triton 3.6 keeps them.
[[nodiscard]] Result<LinearLayout> blockedToLinearLayout(const BlockedParams& params,
                                                         const std::vector<uint64_t>& shape,
                                                         TritonVersion triton = kNewestTriton);

/// #ttg.slice: the parent's layout (computed over the shape with a size-1 dim inserted at
/// `dim`) with output `dim` removed, the later dims renumbered, and the register bases that
/// became zero dropped.
[[nodiscard]] Result<LinearLayout> sliceToLinearLayout(const LinearLayout& parent, int dim);

/// #ttg.linear laid over `shape` (Triton's LinearEncodingAttr::toLinearLayout): the out dims are
/// put in the layout's order (the dims the register bases move in, first-seen first, then the
/// rest from the last dim down), grown with ensureLayoutNotSmallerThan, cut with
/// ensureLayoutNotLargerThan (register bases cut are dropped) and put back in dim0, dim1, ...
/// order. Triton 3.9: each register basis must move in at most one dim by a power of two (it
/// cannot order swizzled register bases and aborts on them). Triton 3.6 orders a basis that
/// moves in one dim by any amount ([0, 3]) by that dim, and aborts only where a dim holding such
/// a value must be cut.
[[nodiscard]] Result<LinearLayout> linearToShape(const LinearLayout& layout,
                                                 const std::vector<uint64_t>& shape,
                                                 TritonVersion triton = kNewestTriton);

} // namespace llcheck
