// Layout helpers that every distributed encoding and the conversion planning share, tied to no
// one encoding: the identity over several dims, growing and cutting a layout to a shape, the
// in-dims of a distributed layout (named as in Triton's LayoutUtils.h and
// LinearLayoutConversions.cpp), and a shape as messages print it.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace llcheck {

/// identity1D(n[order[0]], inDim, dim<order[0]>) * identity1D(n[order[1]], ...) * ...; the
/// outputs stay in `order` (Triton transposes them to dim0, dim1, ... only after the CTA layout
/// has been fitted to the shape, which grows the layout in this order: the data shows it).
[[nodiscard]] Result<LinearLayout> identityND(DimName inDim, const std::vector<uint64_t>& sizes,
                                              const std::vector<uint64_t>& order);

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

/// The layout with the in-dims register, lane, warp, block (missing ones of size 1), in that
/// order, as Triton's distributed layouts always have them; any other in-dim is an error.
[[nodiscard]] Result<LinearLayout> withDistributedInDims(const LinearLayout& l);

/// "64x16" (empty for rank 0), as messages print shapes (parseShape in Formats.h reads it).
[[nodiscard]] std::string shapeText(const std::vector<uint64_t>& shape);

} // namespace llcheck
