// Is a conversion plan correct? Decided by the enumeration engine alone (core's
// EnumeratedLayout: whole tables from the raw bases), never by the algebra that planned it: for
// every location x of SRC, DST(C(x)) must be SRC(x). Dims are matched by name, so the plan's
// layouts may list them in any order. Used by the mutation check and by `llcheck sweep`.
#pragma once

#include "llcheck/core/LinearLayout.h"

#include <optional>
#include <string>

namespace llcheck::fuzz {

/// Inputs past this many bits are not enumerated (an Error text is returned instead).
inline constexpr int kMaxPlanCheckBits = 22;

/// nullopt when DST(C(x)) = SRC(x) for every x; otherwise the first x that breaks it, or why
/// the three layouts do not line up (C's inputs must be SRC's, its outputs DST's inputs, DST's
/// outputs SRC's, by name; a C output may be smaller than DST's input of that name).
[[nodiscard]] std::optional<std::string>
planViolation(const LinearLayout& src, const LinearLayout& dst, const LinearLayout& conversion);

} // namespace llcheck::fuzz
