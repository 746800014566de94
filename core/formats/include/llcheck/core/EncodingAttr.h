// The layout of one encoding attribute (#ttg.blocked<{...}>, #ttg.nvidia_mma<{...}>, ...): the
// dispatch from the attribute's name to its reader (src/attributes/, which reads a slice's or a
// dot operand's parent through here too). A SPEC (Spec.h) and the
// types of a TTGIR module (Ttgir.h) are both read through here, so neither needs the other.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LayoutContext.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/MlirAttr.h"

#include <string>

namespace llcheck {

/// The layout of an encoding attribute (#ttg.linear, #ttg.blocked, #ttg.slice) over
/// context.shape (required for #ttg.blocked and #ttg.slice).
[[nodiscard]] Result<LinearLayout>
attributeToLayout(const AttrValue& attr, const LayoutContext& context, const std::string& source);

} // namespace llcheck
