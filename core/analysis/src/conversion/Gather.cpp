// planGather: is a gather along an axis warp-local, and how many shuffle rounds (see Gather.h).
#include "llcheck/core/conversion/Gather.h"
#include "Columns.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Subspace.h"

namespace llcheck {

using conversion::columnsOf;

using nlohmann::json;

namespace {

/// The positions of the columns that have a bit in `mask`.
std::vector<int> bitsTouching(const std::vector<uint64_t>& cols, uint64_t mask) {
  std::vector<int> bits;
  for (std::size_t j = 0; j < cols.size(); ++j)
    if (cols[j] & mask)
      bits.push_back(static_cast<int>(j));
  return bits;
}

std::vector<uint64_t> concat(std::vector<uint64_t> a, const std::vector<uint64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

} // namespace

Result<GatherPlan> planGather(const LinearLayout& layoutIn, int axis) {
  auto layout = withDistributedInDims(layoutIn);
  if (!layout.ok())
    return layout.error();
  if (axis < 0 || axis >= kMaxDims || !layout->hasOutDim(dims::standardOut(axis)))
    return makeError("gather axis " + std::to_string(axis) + " is not a dimension of the layout");
  GatherPlan plan;
  plan.layout = *layout;
  plan.axis = axis;
  plan.axisDim = dims::standardOut(axis);
  int outIndex = layout->outDimIndex(plan.axisDim);
  int offset = layout->outDimOffset(outIndex), bits = layout->getOutDimSizeLog2(plan.axisDim);
  plan.axisSize = uint64_t{1} << bits;
  uint64_t axisMask = bits == 0 ? 0 : (~uint64_t{0} >> (64 - bits)) << offset;

  std::vector<uint64_t> regs = columnsOf(*layout, dims::kRegister);
  std::vector<uint64_t> lanes = columnsOf(*layout, dims::kLane);
  plan.registerBits = bitsTouching(regs, axisMask);
  plan.laneBits = bitsTouching(lanes, axisMask);
  plan.warpBits = bitsTouching(columnsOf(*layout, dims::kWarp), axisMask);
  plan.blockBits = bitsTouching(columnsOf(*layout, dims::kBlock), axisMask);

  std::vector<uint64_t> axisUnits;
  for (int b = 0; b < bits; ++b)
    axisUnits.push_back(uint64_t{1} << (offset + b));
  Subspace inWarp(concat(regs, lanes));
  plan.withinWarp = true;
  for (uint64_t a : axisUnits)
    plan.withinWarp = plan.withinWarp && inWarp.contains(a);
  if (!plan.withinWarp)
    return plan;
  // Lanes whose data differs from a thread's own by registers and axis moves are the ones it
  // reads; those differing by registers alone hold the same registers and count once.
  int reached = static_cast<int>(intersectionBasis(lanes, concat(regs, axisUnits)).size());
  int same = static_cast<int>(intersectionBasis(lanes, regs).size());
  plan.rounds = uint64_t{1} << (reached - same);
  return plan;
}

json toJson(const GatherPlan& plan) {
  return {{"axis", plan.axis},           {"axis_dim", plan.axisDim.str()},
          {"axis_size", plan.axisSize},  {"within_warp", plan.withinWarp},
          {"rounds", plan.rounds},       {"register_bits", plan.registerBits},
          {"lane_bits", plan.laneBits},  {"warp_bits", plan.warpBits},
          {"block_bits", plan.blockBits}};
}

} // namespace llcheck
