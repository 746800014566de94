// The counts of a kernel's global accesses in given launches (issue 32): `llcheck report
// --launches FILE` runs each launch's address arithmetic (LaunchEvaluation.h) and counts, for
// each tt.load / tt.store the report predicted, the sectors its instructions touch with the
// lanes its mask lets through, over every program of the launch.
#pragma once

#include "llcheck/reports/Report.h"

#include "llcheck/core/Ttgir.h"

namespace llcheck::reports::detail {

/// Adds `launches` to each entry of k.globalAccesses with a prediction, and to k.launches one
/// entry per launch, for the launches of options.launches that name this module (its file's
/// stem or its kernel function). Each access's launch entry holds either
/// {"launch", "runs", "instructions", "sectors", "instructions_with_active_lanes"} or
/// {"launch", "not_evaluated": why}.
/// `sass`: the kernel's SASS function, when it was read (the STGs after a predicated EXIT).
void reportLaunches(const TtgirModule& module, const ReportOptions& options, KernelReport& k,
                    const SassFunction* sass);

/// The launches of options.launches that are this module's: by the file's stem, else by the
/// name of its `tt.func public`.
[[nodiscard]] const std::vector<ReportLaunch>* launchesOf(const TtgirModule& module,
                                                          const ReportOptions& options);

} // namespace llcheck::reports::detail
