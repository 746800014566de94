// The analysis of one TTGIR module for `llcheck report` (ModuleReporter.cpp).
#pragma once

#include "llcheck/reports/Report.h"

namespace llcheck::reports::detail {

/// The report of one module; each op's entry goes to `sink` when given, else into the result.
[[nodiscard]] KernelReport reportOneModule(const TtgirModule& module, const ReportOptions& options,
                                           const OpSink& sink);

} // namespace llcheck::reports::detail
