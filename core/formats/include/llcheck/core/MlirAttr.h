// A small reader for MLIR attribute syntax as Triton prints layout encodings:
//   #ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], order = [1, 0]}>
//   #ttg.shared_linear<{offset = [[0, 1], [0, 2]]}, alignment = 16>
//   #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 64]}>
// It builds a generic value tree with positions; the encodings turn trees into layouts.
#pragma once

#include "llcheck/core/Error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llcheck {

struct AttrEntry;

struct AttrValue {
  /// IntervalPad is #ttg.padded_shared's `interval:+pad`: `integer` is the interval and the one
  /// element the pad.
  enum class Kind { Integer, Identifier, String, Array, Dict, Attribute, Alias, IntervalPad };
  Kind kind = Kind::Integer;
  int64_t integer = 0;
  /// Identifier/String text; "ttg.blocked" for an Attribute; "blocked1" for the alias #blocked1.
  std::string text;
  /// Array elements.
  std::vector<AttrValue> elements;
  /// Dict entries, and an Attribute's parameters (positional ones have an empty key).
  std::vector<AttrEntry> entries;
  /// Where the value starts in the text (1-based line and column).
  int line = 1;
  int column = 1;

  [[nodiscard]] const char* kindName() const;
  /// The entry named `key` in a Dict or Attribute, or nullptr.
  [[nodiscard]] const AttrValue* find(std::string_view key) const;
};

/// One `key = value` of a dictionary or attribute (key empty for a positional parameter).
struct AttrEntry {
  std::string first;
  AttrValue second;
  /// Where the key starts (the value's own position is in `second`).
  int keyLine = 1;
  int keyColumn = 1;
};

/// Parses one attribute starting with '#'. `source` prefixes locations in errors ("attribute"
/// for an inline string, the file name otherwise), giving "attribute at column 31" or
/// "file.mlir:3:31". Nesting and size are bounded; any input yields a value or an Error.
[[nodiscard]] Result<AttrValue> parseAttribute(std::string_view text, const std::string& source);

/// A value parsed from the middle of a larger text (a TTGIR file), and the offset just past it.
struct AttrAt {
  AttrValue value;
  std::size_t end = 0;
};

/// Parses one value (an attribute, alias, array, dictionary, ...) that starts at `offset` in
/// `text`, a whole file whose line `line` holds `offset`; positions in the value and in errors
/// are the file's lines and columns ("file.ttgir:3:31"). Text after the value is left alone.
[[nodiscard]] Result<AttrAt> parseAttributeAt(std::string_view text, std::size_t offset, int line,
                                              const std::string& source);

/// "attribute at column 31" / "file.mlir:3:31" for a value parsed from `source`.
[[nodiscard]] std::string attrLocation(const std::string& source, const AttrValue& v);

} // namespace llcheck
