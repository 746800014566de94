// Printing a TTGIR module read by core's readTtgir for `llcheck layout FILE.ttgir`: the text
// listing and the JSON document (schema in docs/layout.md). Kept apart from llcheck.cpp so the
// command-line wiring stays small.
#pragma once

#include "llcheck/core/Ttgir.h"

#include <nlohmann/json.hpp>

#include <string>

namespace llcheck::cli {

/// The listing `llcheck layout FILE.ttgir` prints: module attributes, every distinct (encoding,
/// shape) with its layout (Triton's printed form, or #ttg.linear when `asAttr`), the
/// data-moving ops when `withOps`, and the not-understood items.
[[nodiscard]] std::string ttgirText(const TtgirModule& m, bool withOps, bool asAttr);

/// The same as one JSON object; "ops" only when `withOps`.
[[nodiscard]] nlohmann::json ttgirJson(const TtgirModule& m, bool withOps);

} // namespace llcheck::cli
