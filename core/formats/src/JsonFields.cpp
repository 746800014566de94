// Checked reading of JSON from outside llcheck (JsonFields.h).
#include "llcheck/core/JsonFields.h"

#include <cmath>
#include <sstream>

namespace llcheck::json {
namespace {

const char* kindOf(const nlohmann::json& v) {
  switch (v.type()) {
  case nlohmann::json::value_t::null:
    return "null";
  case nlohmann::json::value_t::boolean:
    return "a boolean";
  case nlohmann::json::value_t::string:
    return "a string";
  case nlohmann::json::value_t::array:
    return "an array";
  case nlohmann::json::value_t::object:
    return "an object";
  case nlohmann::json::value_t::number_float:
    return "a real number";
  default:
    return "an integer";
  }
}

/// The value as the message quotes it: numbers and short strings whole, containers by kind.
std::string shown(const nlohmann::json& v) {
  if (v.is_number()) {
    std::ostringstream s;
    if (v.is_number_float())
      s << v.get<double>();
    else
      s << v.dump();
    return s.str();
  }
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    return "\"" + utf8Prefix(s, 40) + (s.size() > 40 ? "...\"" : "\"");
  }
  if (v.is_boolean() || v.is_null())
    return v.dump();
  return kindOf(v);
}

Error wrong(const std::string& path, const std::string& expected, const nlohmann::json& v) {
  return makeError("expected " + expected + ", got " + shown(v), path.empty() ? "(top)" : path);
}

std::string range(const std::string& min, const std::string& max) {
  return "from " + min + " to " + max;
}

} // namespace

std::string fieldPath(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string elementPath(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

Result<uint64_t> asUnsigned(const nlohmann::json& v, const std::string& path, uint64_t min,
                            uint64_t max) {
  std::string expected = "an integer " + range(std::to_string(min), std::to_string(max));
  if (v.is_number_unsigned()) {
    uint64_t x = v.get<uint64_t>();
    if (x >= min && x <= max)
      return x;
  } else if (v.is_number_integer()) {
    int64_t x = v.get<int64_t>();
    if (x >= 0 && static_cast<uint64_t>(x) >= min && static_cast<uint64_t>(x) <= max)
      return static_cast<uint64_t>(x);
  }
  return wrong(path, expected, v);
}

Result<int64_t> asSigned(const nlohmann::json& v, const std::string& path, int64_t min,
                         int64_t max) {
  std::string expected = "an integer " + range(std::to_string(min), std::to_string(max));
  if (v.is_number_unsigned()) {
    uint64_t x = v.get<uint64_t>();
    if (max >= 0 && x <= static_cast<uint64_t>(max) && static_cast<int64_t>(x) >= min)
      return static_cast<int64_t>(x);
  } else if (v.is_number_integer()) {
    int64_t x = v.get<int64_t>();
    if (x >= min && x <= max)
      return x;
  }
  return wrong(path, expected, v);
}

Result<double> asReal(const nlohmann::json& v, const std::string& path, double min, double max) {
  std::ostringstream lo, hi;
  lo << min;
  hi << max;
  std::string expected = "a number " + range(lo.str(), hi.str());
  if (v.is_number()) {
    double x = v.get<double>();
    if (std::isfinite(x) && x >= min && x <= max)
      return x;
  }
  return wrong(path, expected, v);
}

Result<bool> asBool(const nlohmann::json& v, const std::string& path) {
  if (v.is_boolean())
    return v.get<bool>();
  return wrong(path, "true or false", v);
}

Result<std::string> asString(const nlohmann::json& v, const std::string& path,
                             std::size_t maxBytes) {
  if (v.is_string() && v.get_ref<const std::string&>().size() <= maxBytes)
    return v.get<std::string>();
  return wrong(path, "a string of at most " + std::to_string(maxBytes) + " bytes", v);
}

Result<const nlohmann::json*> asArray(const nlohmann::json& v, const std::string& path,
                                      std::size_t maxSize) {
  if (v.is_array() && v.size() <= maxSize)
    return &v;
  if (v.is_array())
    return makeError("expected at most " + std::to_string(maxSize) + " elements, got " +
                         std::to_string(v.size()),
                     path);
  return wrong(path, "an array", v);
}

Result<FieldReader> FieldReader::of(const nlohmann::json& v, std::string path) {
  if (!v.is_object())
    return wrong(path, "an object", v);
  return FieldReader(v, std::move(path));
}

bool FieldReader::has(std::string_view key) const {
  return v_->find(key) != v_->end();
}

Result<const nlohmann::json*> FieldReader::field(std::string_view key) const {
  auto it = v_->find(key);
  if (it == v_->end())
    return makeError("missing (a required field)", path(key));
  return &*it;
}

Result<uint64_t> FieldReader::unsignedField(std::string_view key, uint64_t min,
                                            uint64_t max) const {
  auto f = field(key);
  if (!f.ok())
    return f.error();
  return asUnsigned(**f, path(key), min, max);
}

Result<int64_t> FieldReader::signedField(std::string_view key, int64_t min, int64_t max) const {
  auto f = field(key);
  if (!f.ok())
    return f.error();
  return asSigned(**f, path(key), min, max);
}

Result<double> FieldReader::realField(std::string_view key, double min, double max) const {
  auto f = field(key);
  if (!f.ok())
    return f.error();
  return asReal(**f, path(key), min, max);
}

Result<bool> FieldReader::boolField(std::string_view key) const {
  auto f = field(key);
  if (!f.ok())
    return f.error();
  return asBool(**f, path(key));
}

Result<std::string> FieldReader::stringField(std::string_view key, std::size_t maxBytes) const {
  auto f = field(key);
  if (!f.ok())
    return f.error();
  return asString(**f, path(key), maxBytes);
}

Result<const nlohmann::json*> FieldReader::arrayField(std::string_view key,
                                                      std::size_t maxSize) const {
  auto f = field(key);
  if (!f.ok())
    return f.error();
  return asArray(**f, path(key), maxSize);
}

Result<FieldReader> FieldReader::objectField(std::string_view key) const {
  auto f = field(key);
  if (!f.ok())
    return f.error();
  return of(**f, path(key));
}

Result<bool> FieldReader::onlyFields(std::initializer_list<std::string_view> known) const {
  for (auto it = v_->begin(); it != v_->end(); ++it) {
    bool isKnown = false;
    for (std::string_view k : known)
      isKnown = isKnown || it.key() == k;
    if (!isKnown)
      return makeError("unknown field (not one this file has; misspelt or forged?)",
                       path(utf8Prefix(it.key(), 60)));
  }
  return true;
}

Result<uint64_t> checkedAdd(uint64_t a, uint64_t b, const std::string& what) {
  uint64_t s = 0;
  if (__builtin_add_overflow(a, b, &s))
    return makeError("the total overflows 2^64 (" + std::to_string(a) + " + " + std::to_string(b) +
                         "): a count no real run reaches",
                     what);
  return s;
}

Result<uint64_t> checkedMul(uint64_t a, uint64_t b, const std::string& what) {
  uint64_t p = 0;
  if (__builtin_mul_overflow(a, b, &p))
    return makeError(
        "the product overflows 2^64 (" + std::to_string(a) + " x " + std::to_string(b) + ")", what);
  return p;
}

} // namespace llcheck::json
