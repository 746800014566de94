// What a user hands the command line as SPEC: a Layout JSON file, a file in Triton's printed
// form, a file holding an attribute, or an inline attribute string. One function turns any of
// them into a LinearLayout or one clear Error. An attribute alone is read by attributeToLayout
// (EncodingAttr.h), which TTGIR modules use too.
#pragma once

#include "llcheck/core/EncodingAttr.h"
#include "llcheck/core/Error.h"
#include "llcheck/core/LayoutContext.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/encodings/Shared.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace llcheck {

struct LoadedLayout {
  LinearLayout layout;
  /// The file name, or "attribute" for an inline attribute.
  std::string source;
  /// "json", "triton", or the attribute name ("ttg.linear").
  std::string format;
  /// The JSON "description", if any.
  std::string description;
  /// #ttg.padded_shared's interval:+pad pairs (empty for every other SPEC). The layout is then
  /// only the linear component: the element at offset o lies at paddedOffset(padding, o).
  std::vector<IntervalPad> padding;
};

[[nodiscard]] Result<LoadedLayout> loadSpec(const std::string& spec, const LayoutContext& options);

/// Reads a whole file (regular files only, at most kMaxInputBytes).
[[nodiscard]] Result<std::string> readInputFile(const std::string& path);

/// Reads a whole file (as readInputFile) and parses it as JSON (as parseJsonText); errors name
/// `path`.
[[nodiscard]] Result<nlohmann::json> readJsonFile(const std::string& path);

} // namespace llcheck
