// Reading and writing layouts in the three forms users hand us: Triton's printed form
// (LinearLayout::toString), Layout JSON v1 (the design doc's contract) and the #ttg.linear
// attribute. Every parser reports malformed input as an Error naming what and where (line and
// column, or a JSON path); none of them crashes or hangs on any input.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LayoutUtils.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

/// Inputs larger than this are refused before parsing (no layout text comes close).
inline constexpr std::size_t kMaxInputBytes = 16 * 1024 * 1024;
/// JSON nesting deeper than this is refused (a layout needs 4 levels).
inline constexpr int kMaxJsonDepth = 16;

/// Dimension names in files: 1 to 64 characters from letters, digits, '_', '-' and '.'. One
/// rule for every format, so that whatever one parser accepts the others can print and read.
[[nodiscard]] std::optional<Error> checkDimName(std::string_view name);

// ---- Triton's printed form --------------------------------------------------------------------

/// Parses what LinearLayout::toString() prints:
///    - register=1 -> (0, 1)
///      register=2 -> (1, 0)
///    - block is a size 1 dimension
///   where out dims are: [dim0 (size 64), dim1 (size 16)]
/// and "(empty layout)". Leading "//" comment markers (as in Triton's tests) and blank lines
/// are ignored, and so is a last line "(Triton 3.9 semantics)" (what `llcheck layout` prints
/// after an attribute's layout). `source` names the input in errors.
[[nodiscard]] Result<LinearLayout> parseTritonString(std::string_view text,
                                                     const std::string& source);

// ---- Layout JSON v1 ---------------------------------------------------------------------------

/// {"ins": [{"name", "size", "bases"}...], "outs": [{"name", "size"}...]}, plus the optional
/// "version": 1 and "description": "...".
[[nodiscard]] nlohmann::json toJson(const LinearLayout& layout);
[[nodiscard]] Result<LinearLayout> layoutFromJson(const nlohmann::json& j);
/// The JSON text of `j` (compact, or indented by `indent`). Strings taken from input may hold
/// bytes that are not UTF-8 (a Latin-1 file name in a TTGIR location, a stray byte in
/// ttg.target); each such byte is written as U+FFFD, so one odd byte can never cost the whole
/// answer. Every JSON llcheck prints goes through here.
[[nodiscard]] std::string dumpJson(const nlohmann::json& j, int indent = -1);
/// Parses JSON text (depth- and size-limited) into a json value. A NUL byte is refused (the
/// JSON reader would stop there and ignore whatever follows).
[[nodiscard]] Result<nlohmann::json> parseJsonText(std::string_view text,
                                                   const std::string& source);

// ---- #ttg.linear ------------------------------------------------------------------------------

/// #ttg.linear<{register = [[..]], lane = [[..]], warp = [[..]], block = []}>, or
/// #ttg.generic_linear<{...}> for a layout only that attribute can hold (see
/// linearAttrViolation). Requires the input dims to be exactly register, lane, warp, block (in
/// that order) and outputs dim0, dim1, ...; an error says why no attribute fits.
/// With Triton 3.6 (no #ttg.generic_linear) only #ttg.linear, by 3.6's rule (below).
[[nodiscard]] Result<std::string> toLinearAttr(const LinearLayout& layout,
                                               TritonVersion triton = kNewestTriton);

/// Why Triton 3.9's verifier would refuse `layout` (register, lane, warp, block -> dim0..) as a
/// #ttg.linear (generic = false) or #ttg.generic_linear (generic = true); empty when it would
/// accept it. #ttg.linear needs a permutation matrix once its zero bases are removed: every
/// basis moves in one dim by a power of two, no two alike. #ttg.generic_linear lets warp bases
/// move in several dims and bases repeat, but register, lane and block bases must each move in
/// at most one dim. Both must reach every element of their inferred out sizes (surjective).
/// Triton 3.6's #ttg.linear is looser: every basis (warps too) moves in at most one dim, by any
/// amount (a swizzle within the dim: [0, 3]), bases may repeat, and it must be surjective; 3.6
/// has no #ttg.generic_linear.
[[nodiscard]] std::string linearAttrViolation(const LinearLayout& layout, bool generic,
                                              TritonVersion triton = kNewestTriton);

/// Accepts "64x16" or "64,16": every size a power of two (shapeText, in LayoutUtils.h, writes
/// the first form).
[[nodiscard]] Result<std::vector<uint64_t>> parseShape(std::string_view text);

} // namespace llcheck
