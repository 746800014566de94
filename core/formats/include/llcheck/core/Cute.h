// CuTe's text form, the SPEC `cute:Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)` (as CuTe prints a
// ComposedLayout), read into a CuteLayout; llcheck/core/encodings/Cute.h turns that into linear
// layouts.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/encodings/Cute.h"

#include <string_view>

namespace llcheck {

/// Parses a CuTe SPEC (with or without its "cute:" prefix). Errors say where ("CuTe layout at
/// column 12").
[[nodiscard]] Result<CuteLayout> parseCuteLayout(std::string_view text);

} // namespace llcheck
