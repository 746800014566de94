// `predicted.early_exit` of a report (Report.h, "Redundant warps that exit early"): what the GPU
// executes of a kernel's last shared-memory load when ptxas exits the threads whose stores are
// all masked before the loads it placed after a predicated EXIT (read from the SASS, Sass.h).
#pragma once

#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/core/encodings/Shared.h"
#include "llcheck/reports/Sass.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace llcheck::reports {

/// `load` is the op's predicted load side (Triton's access: "instruction", "instructions",
/// "wavefronts", "vector_bits", ...); `loaded` the op's result layout (taken as the stored one);
/// `shared` the shared layout it loads from (null for convert_layout's scratch: then the loads
/// after the EXIT are bounded where lanes exit too, not counted). A {"sass", "note"} object where
/// the SASS cannot be used.
[[nodiscard]] nlohmann::json earlyExitPrediction(const SassBeside& sass, const nlohmann::json& load,
                                                 const LinearLayout& loaded,
                                                 const LinearLayout* shared,
                                                 const std::vector<IntervalPad>& sharedPadding,
                                                 const SharedMemoryModel& model, int elementBits);

} // namespace llcheck::reports
