// The warp-shuffle gather of the paper's section 5.5: tt.gather(src, index, axis) reads, for
// every position, the element of src at index(pos) along `axis`. When every element of an
// axis line (all positions that differ only along `axis`) lives in the warp that needs it, the
// gather is done with shuffles instead of shared memory: a thread reaches the lanes that hold
// its lines in n = 2^(number of lane columns with a non-zero `axis` component) rounds, and
// keeps, of each received value, the ones whose register matches index(pos).
//
// For a distributed layout (every column zero or one tensor bit) "within a warp" is the
// paper's test: no warp or block column has a non-zero `axis` component. We decide it, and the
// rounds, on spans so that they stay exact for any layout:
//   within a warp  <=>  every tensor vector along `axis` is in span(register ∪ lane columns)
//   rounds          =   2^(dim(span(lanes) ∩ span(registers ∪ axis)) - dim(span(lanes) ∩
//                       span(registers))): the lanes a thread must read, counting lanes that
//                       hold the same registers (broadcast) once.
// For distributed layouts both agree with the paper's counts (the tests check it).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace llcheck {

struct GatherPlan {
  /// The layout with the in-dims register, lane, warp, block (see withDistributedInDims).
  LinearLayout layout;
  int axis = 0;
  DimName axisDim;
  uint64_t axisSize = 1;
  /// Every element of an axis line is held by the warp (and block) that holds the line.
  bool withinWarp = false;
  /// The bits of each in-dim whose column has a non-zero `axis` component: which registers
  /// and lanes the axis runs through, and which warp/block bits prevent shuffles.
  std::vector<int> registerBits, laneBits, warpBits, blockBits;
  /// Shuffle rounds when withinWarp (2^|laneBits| for distributed layouts); 0 otherwise.
  uint64_t rounds = 0;
};

/// The gather along tensor dimension `axis` (out dim "dim<axis>") of a distributed layout.
/// An Error when the layout is not distributed (see withDistributedInDims) or has no such dim.
[[nodiscard]] Result<GatherPlan> planGather(const LinearLayout& layout, int axis);

/// {"axis", "axis_dim", "axis_size", "within_warp", "rounds", "register_bits", "lane_bits",
/// "warp_bits", "block_bits"}.
[[nodiscard]] nlohmann::json toJson(const GatherPlan& plan);

} // namespace llcheck
