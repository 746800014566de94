// Reading JSON that comes from outside llcheck: a GPU's results (hwlayout, oracle), sweep shards
// and checkpoints, the Triton helper's answers. Such a file may be cut, edited or forged, so no
// field is taken at its word: each is read through a FieldReader that checks its type and range
// and, for objects, that no field is missing and none is unknown. An error names the path of the
// bad field in the file ("cases[3].measured.wavefronts: expected an integer from 0 to 4294967296,
// got 128.5"); the caller adds the file name (Error::within).
//
// Numbers: an integer field takes only a JSON integer (128.5 and 1e3 are refused, and so is any
// value outside the field's range, never narrowed); a real field takes only finite values in its
// range. A value nlohmann could read only as a float (an integer past 2^64) is refused the same.
#pragma once

#include "llcheck/core/Error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace llcheck::json {

/// "cases[3]", "cases[3].measured": paths as errors print them.
[[nodiscard]] std::string fieldPath(const std::string& parent, std::string_view key);
[[nodiscard]] std::string elementPath(const std::string& parent, std::size_t index);

/// The value at `path` as the type asked for, or an Error naming `path`.
[[nodiscard]] Result<uint64_t> asUnsigned(const nlohmann::json& v, const std::string& path,
                                          uint64_t min = 0,
                                          uint64_t max = std::numeric_limits<uint64_t>::max());
[[nodiscard]] Result<int64_t> asSigned(const nlohmann::json& v, const std::string& path,
                                       int64_t min, int64_t max);
[[nodiscard]] Result<double> asReal(const nlohmann::json& v, const std::string& path, double min,
                                    double max);
[[nodiscard]] Result<bool> asBool(const nlohmann::json& v, const std::string& path);
[[nodiscard]] Result<std::string> asString(const nlohmann::json& v, const std::string& path,
                                           std::size_t maxBytes = 1 << 20);
/// `v` is an array (of at most `maxSize` elements); returns it.
[[nodiscard]] Result<const nlohmann::json*>
asArray(const nlohmann::json& v, const std::string& path, std::size_t maxSize = 1 << 24);

/// One JSON object's fields, read by name.
class FieldReader {
public:
  /// `v` must be an object; `path` is its own path ("" for the top of the file).
  [[nodiscard]] static Result<FieldReader> of(const nlohmann::json& v, std::string path);

  [[nodiscard]] bool has(std::string_view key) const;
  [[nodiscard]] std::string path(std::string_view key) const { return fieldPath(path_, key); }
  /// The field's value; an Error ("missing") when it is absent.
  [[nodiscard]] Result<const nlohmann::json*> field(std::string_view key) const;

  [[nodiscard]] Result<uint64_t>
  unsignedField(std::string_view key, uint64_t min = 0,
                uint64_t max = std::numeric_limits<uint64_t>::max()) const;
  [[nodiscard]] Result<int64_t> signedField(std::string_view key, int64_t min, int64_t max) const;
  [[nodiscard]] Result<double> realField(std::string_view key, double min, double max) const;
  [[nodiscard]] Result<bool> boolField(std::string_view key) const;
  [[nodiscard]] Result<std::string> stringField(std::string_view key,
                                                std::size_t maxBytes = 1 << 20) const;
  [[nodiscard]] Result<const nlohmann::json*> arrayField(std::string_view key,
                                                         std::size_t maxSize = 1 << 24) const;
  [[nodiscard]] Result<FieldReader> objectField(std::string_view key) const;

  /// An Error naming the first field of the object that is not in `known` (a misspelt or forged
  /// field is not silently ignored).
  [[nodiscard]] Result<bool> onlyFields(std::initializer_list<std::string_view> known) const;

  [[nodiscard]] const nlohmann::json& value() const { return *v_; }
  [[nodiscard]] const std::string& objectPath() const { return path_; }

private:
  FieldReader(const nlohmann::json& v, std::string path) : v_(&v), path_(std::move(path)) {}
  const nlohmann::json* v_;
  std::string path_;
};

/// Checked sums and products of counts read from outside: an overflow is an Error naming `what`,
/// never a wrapped total.
[[nodiscard]] Result<uint64_t> checkedAdd(uint64_t a, uint64_t b, const std::string& what);
[[nodiscard]] Result<uint64_t> checkedMul(uint64_t a, uint64_t b, const std::string& what);

} // namespace llcheck::json
