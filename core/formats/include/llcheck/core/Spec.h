// What a user hands the command line as SPEC: a Layout JSON file, a file in Triton's printed
// form, a file holding an attribute, or an inline attribute string. One function turns any of
// them into a LinearLayout or one clear Error.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/TritonVersion.h"
#include "llcheck/core/encodings/Shared.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace llcheck {

struct SpecOptions {
  /// --shape: the tensor shape an encoding attribute is laid over.
  std::optional<std::vector<uint64_t>> shape;
  /// --num-warps / --threads-per-warp: checked against what the attribute fixes.
  std::optional<uint64_t> numWarps;
  std::optional<uint64_t> threadsPerWarp;
  /// Whose semantics an encoding attribute has: the layout that Triton release computes for it
  /// (docs/triton-versions.md lists where they differ).
  TritonVersion triton = kNewestTriton;
};

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

[[nodiscard]] Result<LoadedLayout> loadSpec(const std::string& spec, const SpecOptions& options);

/// Reads a whole file (regular files only, at most kMaxInputBytes).
[[nodiscard]] Result<std::string> readInputFile(const std::string& path);

/// Reads a whole file (as readInputFile) and parses it as JSON (as parseJsonText); errors name
/// `path`.
[[nodiscard]] Result<nlohmann::json> readJsonFile(const std::string& path);

/// The layout of an encoding attribute (#ttg.linear, #ttg.blocked, #ttg.slice) over
/// options.shape (required for #ttg.blocked and #ttg.slice).
[[nodiscard]] Result<LinearLayout>
attributeToLayout(const AttrValue& attr, const SpecOptions& options, const std::string& source);

} // namespace llcheck
