// Which registers, lanes, warps and blocks of a distributed layout hold duplicated data (paper,
// section 5.1, "Broadcasting"): what a reduction, a scan or a store must skip so that each
// element is counted or written once.
//
// # Three masks per input dim, from the strictest to the most general
//
// Bit i of input dim d (the location d = 2^i) is
//
// - zero: its column is 0. Flipping the bit never changes the element: registers r and
//   r ^ 2^i (lanes, warps, blocks alike) hold the same data. This is the paper's "zero column"
//   and what Triton's broadcast masks hold for legacy layouts.
// - withinDim: its column lies in the span of the earlier bits of the same dim (zero columns
//   included). Then a location is a copy of a lower location in the same dim, other dims kept:
//   a location x holds an element that some y with y_d < x_d, y equal to x elsewhere, also
//   holds  iff  x_d & withinDim_d != 0.
// - free: its column lies in the span of all earlier bits, in the order register, lane, warp,
//   block, low bits first (LinearLayout::getFreeVariableMasks). Then x holds an element some y
//   lower in that flattened order also holds  iff  (x & free) != 0: a lane can be redundant
//   because registers of lane 0 already hold its data. Visiting only the locations with no free
//   bit set visits every element exactly once.
//
// zero ⊆ withinDim ⊆ free. Both "iff"s hold because the smallest index of each class of
// locations holding the same element is the one with no free (withinDim) bit set: each
// dependent bit j pairs with a kernel vector whose highest bit is j.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace llcheck {

struct DimBroadcast {
  DimName dim;
  int sizeLog2 = 0;
  uint64_t zero = 0, withinDim = 0, free = 0;
  /// Distinct data among the dim's 2^sizeLog2 values with the other dims fixed (2^(bits not in
  /// withinDim)).
  uint64_t distinct = 1;
  /// For each bit of `free`, the earlier input bits whose XOR its column is, as "register 2",
  /// "lane 1"... (empty for a zero column).
  std::vector<std::pair<int, std::vector<std::string>>> dependsOn;
};

struct Broadcast {
  /// register, lane, warp, block, in that order (missing ones with size 0 bits).
  std::vector<DimBroadcast> dims;
  /// Locations that hold distinct elements: 2^rank.
  uint64_t distinctElements = 1;
  uint64_t locations = 1;
  /// One line per dim with duplicates, e.g. "lane: 8 of 32 hold distinct data; lane bits
  /// 3, 4 (lanes 8, 16) are zero columns (copies of lanes 0-7)".
  std::vector<std::string> summary;
};

/// REG must be distributed (in-dims among register, lane, warp, block).
[[nodiscard]] Result<Broadcast> broadcast(const LinearLayout& reg);

/// {"distinctElements", "locations", "dims": [{"dim", "size", "zero", "withinDim", "free",
///  "distinct", "dependsOn": {"<bit>": ["register 2", ...]}}], "summary": [...]}
[[nodiscard]] nlohmann::json toJson(const Broadcast& b);

} // namespace llcheck
