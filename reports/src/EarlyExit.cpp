// The early exit of redundant warps (EarlyExit.h).
#include "EarlyExit.h"

#include "llcheck/core/conversion/BankConflicts.h"

#include <algorithm>
#include <optional>
#include <string>

namespace llcheck::reports {

using json = nlohmann::json;

json earlyExitPrediction(const SassBeside& sass, const json& load, const LinearLayout& loaded,
                         const LinearLayout* shared, const std::vector<IntervalPad>& sharedPadding,
                         const SharedMemoryModel& model, int elementBits) {
  json x = {{"sass", sass.path}};
  auto note = [&](const std::string& why) {
    x["note"] = why;
    return x;
  };
  if (!sass.error.empty())
    return note("the SASS could not be read: " + sass.error);
  if (sass.functions.size() != 1)
    return note("the SASS has " + std::to_string(sass.functions.size()) +
                " functions: which one this module is, is not known");
  const SassFunction& f = sass.functions.front();
  if (!f.straightLine)
    return note("the SASS is not straight-line code (" + f.notStraightLine +
                "): loads after the EXIT cannot be counted by position");
  bool matrix = load.value("instruction", "").rfind("ldmatrix", 0) == 0;
  uint64_t after = matrix ? f.ldsmAfterExit : f.ldsAfterExit;
  const LinearLayout& l = loaded;
  DimName warp("warp");
  auto zeroBases = [&](DimName d) {
    uint64_t zeros = 0;
    for (int i = 0; l.hasInDim(d) && i < l.getInDimSizeLog2(d); ++i) {
      std::vector<uint64_t> b = l.getBasis(d, i);
      zeros += std::all_of(b.begin(), b.end(), [](uint64_t v) { return v == 0; });
    }
    return zeros;
  };
  uint64_t warps = l.hasInDim(warp) ? l.getInDimSize(warp) : 1;
  uint64_t zeros = zeroBases(warp);
  // Lanes that hold only copies are masked too, and exit with the warps: the loads after the
  // EXIT then run in the remaining warps with those lanes gone (their bits of the lane index).
  DimName lane("lane");
  uint64_t inactiveLanes = 0;
  for (int i = 0; l.hasInDim(lane) && i < l.getInDimSizeLog2(lane); ++i) {
    std::vector<uint64_t> b = l.getBasis(lane, i);
    if (std::all_of(b.begin(), b.end(), [](uint64_t v) { return v == 0; }))
      inactiveLanes |= uint64_t{1} << i;
  }
  bool lanesExit = !f.predicatedExit.empty() && after > 0 && inactiveLanes != 0;
  uint64_t exiting = f.predicatedExit.empty() ? 0 : warps - (warps >> zeros);
  uint64_t instructions = load.value("instructions", uint64_t{0});
  uint64_t wavefronts = load.value("wavefronts", uint64_t{0});
  x["predicated_exit"] = f.predicatedExit.empty() ? json(nullptr) : json(f.predicatedExit);
  x["loads_after_exit"] = after;
  x["sass_loads"] = matrix ? f.ldsm : f.lds;
  x["exiting_warps"] = exiting;
  if (exiting * after > instructions)
    return note("the SASS has more loads after the EXIT than the model issues in the exiting "
                "warps: this op is not the one behind the EXIT");
  x["instructions_executed"] = instructions - exiting * after;
  // Every instruction costs the same where the layout is linear (unpadded) and one width.
  bool uniform = sharedPadding.empty() && !load.contains("widths_per_warp") && instructions > 0 &&
                 wavefronts % instructions == 0;
  uint64_t bound = uniform ? wavefronts - exiting * after * (wavefronts / instructions) : 0;
  // Where the load is ld.shared through the compiler's (unpadded) shared layout, the loads
  // after the EXIT are counted again with only the remaining lanes.
  std::optional<uint64_t> remaining;
  if (uniform && lanesExit && shared && !matrix) {
    auto map = offsetMap(l, *shared, sharedPadding, model);
    int bytes = load.value("vector_bits", 0) / 8;
    if (map.ok()) {
      auto all = activeLaneWavefronts(*map, model, SharedAccessKind::Load, elementBits, bytes, 0);
      auto some = activeLaneWavefronts(*map, model, SharedAccessKind::Load, elementBits, bytes,
                                       inactiveLanes);
      // The lane-by-lane count must give the bank model's own cost per instruction first.
      if (all.ok() && some.ok() && *all == wavefronts / instructions && *some <= *all)
        remaining = *some;
    }
  }
  if (!remaining && uniform && lanesExit && wavefronts == instructions)
    remaining = 1; // one wavefront each with all lanes; a load some lane still makes takes one
  if (remaining) {
    x["wavefronts_executed"] =
        bound - (warps - exiting) * after * (wavefronts / instructions - *remaining);
    x["lanes_exit"] = "lanes holding only copies exit too: the " + std::to_string(after) +
                      " load(s) after the EXIT run in the remaining warps without them, " +
                      std::to_string(*remaining) + " wavefronts each instead of " +
                      std::to_string(wavefronts / instructions);
  } else {
    x["wavefronts_executed"] = uniform && !lanesExit ? json(bound) : json(nullptr);
  }
  if (uniform && lanesExit && !remaining) {
    x["wavefronts_executed_at_most"] = bound;
    x["lanes_exit"] = "lanes holding only copies exit too: the " + std::to_string(after) +
                      " load(s) after the EXIT run with fewer lanes in the remaining warps, "
                      "which can take fewer wavefronts (not modelled: at most " +
                      std::to_string(bound) + ")";
  }
  x["of"] = exiting == 0
                ? std::string(f.predicatedExit.empty()
                                  ? "no predicated EXIT in the SASS: every warp executes every "
                                    "load"
                                  : "no warp holds only copies of the loaded layout: none exits")
                : std::to_string(exiting) + " of " + std::to_string(warps) +
                      " warps hold only copies of the loaded layout (their stores are masked) "
                      "and exit at " +
                      f.predicatedExit + ", before " + std::to_string(after) +
                      " of the SASS's loads";
  return x;
}

} // namespace llcheck::reports
