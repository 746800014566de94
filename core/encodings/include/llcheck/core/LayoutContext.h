// The context an encoding needs, besides its own parameters, to become a linear layout: the
// tensor shape it is laid over, the numbers of warps and of threads per warp to check against
// what it fixes, and whose semantics (the Triton release). Front ends fill it from their own
// options (the command line's flags, the Python module's keyword arguments).
#pragma once

#include "llcheck/core/TritonVersion.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace llcheck {

struct LayoutContext {
  /// The tensor shape an encoding attribute is laid over.
  std::optional<std::vector<uint64_t>> shape;
  /// The numbers of warps and of threads per warp: checked against what the attribute fixes.
  std::optional<uint64_t> numWarps;
  std::optional<uint64_t> threadsPerWarp;
  /// Whose semantics an encoding attribute has: the layout that Triton release computes for it
  /// (docs/triton-versions.md lists where they differ).
  TritonVersion triton = kNewestTriton;
};

} // namespace llcheck
