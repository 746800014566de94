// Triton's encoding attributes as linear layouts: the pure algorithms, after the attribute text
// has been read (see Spec.cpp for the parsing). Each function returns exactly the LinearLayout
// Triton 3.9's toLinearLayout(shape, attr) computes, or where a TritonVersion is taken, that
// release's (docs/triton-versions.md).
#pragma once

#include "llcheck/core/Error.h"
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

/// identity1D(n[order[0]], inDim, dim<order[0]>) * identity1D(n[order[1]], ...) * ...; the
/// outputs stay in `order` (Triton transposes them to dim0, dim1, ... only after the CTA layout
/// has been fitted to the shape, which grows the layout in this order: the data shows it).
[[nodiscard]] Result<LinearLayout> identityND(DimName inDim, const std::vector<uint64_t>& sizes,
                                              const std::vector<uint64_t>& order);

/// The CGA layout block -> dim0.. from its bases; out sizes inferred from the bases.
[[nodiscard]] Result<LinearLayout> makeCgaLayout(const std::vector<std::vector<uint64_t>>& bases,
                                                 std::size_t rank);

/// Shrinks each output dim larger than its desired size: the non-zero basis values of that dim
/// (over all input dims) are zeroed from the largest down until the dim fits. With
/// broadcastRegisters false, the register bases cut so are removed instead (register bases that
/// were zero before stay, as in Triton).
[[nodiscard]] Result<LinearLayout> ensureLayoutNotLargerThan(const LinearLayout& layout,
                                                             std::span<const DimSize> shape,
                                                             bool broadcastRegisters = true);

/// product(l, identity1D(size, in, out)), or product(l, zeros1D(size, in, out)) with `zeros`,
/// the same layout or error, computed without building the factor.
[[nodiscard]] Result<LinearLayout> timesIdentity1D(const LinearLayout& l, uint64_t size, DimName in,
                                                   DimName out, bool zeros = false);

/// Grows each output dim smaller than its desired size by multiplying with
/// identity1D(desired / actual, register, dim), in the layout's out-dim order.
[[nodiscard]] Result<LinearLayout> ensureLayoutNotSmallerThan(const LinearLayout& layout,
                                                              std::span<const DimSize> shape);

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

/// The layout with the in-dims register, lane, warp, block (missing ones of size 1), in that
/// order, as Triton's distributed layouts always have them; any other in-dim is an error.
[[nodiscard]] Result<LinearLayout> withDistributedInDims(const LinearLayout& l);

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
