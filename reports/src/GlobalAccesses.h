// The tt.load / tt.store entries of a kernel's report (issue 23): the global access Triton emits
// for the pointers' layout next to the coalesced layout's, and the finding "global_above_ideal"
// with the layout that reaches the ideal.
#pragma once

#include "llcheck/reports/Report.h"

#include "llcheck/core/AxisInfo.h"
#include "llcheck/core/Ttgir.h"

namespace llcheck::reports::detail {

/// Appends one entry per tt.load / tt.store of `module` to k.globalAccesses, and its finding,
/// if any, to k.findings. k.arch picks the global-memory model (NVIDIA sm80 / sm90 only).
/// `axis` is Triton's AxisInfo of the module (null: the analysis failed; every entry then says
/// so and makes no prediction).
void reportGlobalAccesses(const TtgirModule& module, const ReportOptions& options, KernelReport& k,
                          const TtgirAxisAnalysis* axis);

} // namespace llcheck::reports::detail
