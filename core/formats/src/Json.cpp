// Layout JSON v1: the design doc's stable contract, read strictly.
#include "llcheck/core/Formats.h"

#include <algorithm>
#include <bit>
#include <cctype>

namespace llcheck {

using nlohmann::json;

std::optional<Error> checkDimName(std::string_view name) {
  if (name.empty())
    return makeError("dimension name is empty");
  if (name.size() > 64)
    return makeError("dimension name is " + std::to_string(name.size()) +
                     " characters long (at most 64)");
  for (unsigned char ch : name)
    if (!(std::isalnum(ch) || ch == '_' || ch == '-' || ch == '.'))
      return makeError("dimension name \"" + utf8Prefix(name, 64) +
                       "\" has characters other than letters, digits, '_', '-' and '.'");
  return std::nullopt;
}

json toJson(const LinearLayout& layout) {
  json ins = json::array();
  for (const DimBases& d : layout.getBases())
    ins.push_back(
        {{"name", d.name.str()}, {"size", uint64_t{1} << d.bases.size()}, {"bases", d.bases}});
  json outs = json::array();
  for (const DimSize& o : layout.getOutDims())
    outs.push_back({{"name", o.name.str()}, {"size", o.size}});
  return {{"ins", ins}, {"outs", outs}};
}

namespace {

/// "an array", "an object", "a string", ...
std::string typeName(const json& j) {
  std::string t = j.type_name();
  return (t[0] == 'a' || t[0] == 'o' ? "an " : "a ") + t;
}

/// A size field: a positive power-of-two integer.
Result<uint64_t> readSize(const json& j, const std::string& path) {
  if (j.is_number_float() && j.get<double>() >= 9.2e18)
    return makeError("size " + j.dump() + " is too large (at most 2^63)", path);
  if (!j.is_number_integer())
    return makeError("size must be an integer, got " + (j.is_number() ? j.dump() : typeName(j)),
                     path);
  if (j.is_number_unsigned() ? false : j.get<int64_t>() <= 0)
    return makeError("size must be positive, got " + j.dump(), path);
  uint64_t v = j.get<uint64_t>();
  if (!std::has_single_bit(v))
    return makeError("size " + std::to_string(v) + " is not a power of two", path);
  if (v > (uint64_t{1} << 63))
    return makeError("size " + std::to_string(v) + " is too large", path);
  return v;
}

Result<std::string> readName(const json& j, const std::string& path) {
  if (!j.is_string())
    return makeError("name must be a string, got " + typeName(j), path);
  std::string s = j.get<std::string>();
  if (auto e = checkDimName(s))
    return e->within(path);
  return s;
}

Error checkKeys(const json& obj, std::initializer_list<const char*> allowed,
                std::initializer_list<const char*> required, const std::string& path) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const char* a : allowed)
      ok = ok || it.key() == a;
    if (!ok) {
      std::string list;
      for (const char* a : allowed)
        list += std::string(list.empty() ? "" : ", ") + a;
      return makeError("unknown key \"" + utf8Prefix(it.key(), 64) + "\" (allowed: " + list + ")",
                       path);
    }
  }
  for (const char* r : required)
    if (!obj.contains(r))
      return makeError(std::string("missing key \"") + r + "\"", path);
  return Error{};
}

} // namespace

Result<LinearLayout> layoutFromJson(const json& j) {
  if (!j.is_object())
    return makeError("a layout must be a JSON object with \"ins\" and \"outs\", got " +
                     typeName(j));
  if (Error e = checkKeys(j, {"ins", "outs", "version", "description"}, {"ins", "outs"}, "");
      !e.message.empty())
    return e;
  if (j.contains("version") && !(j["version"].is_number_integer() && j["version"] == 1))
    return makeError("unsupported version " + j["version"].dump() + " (this is version 1)",
                     "version");
  if (j.contains("description") && !j["description"].is_string())
    return makeError("description must be a string", "description");
  const json& jouts = j["outs"];
  const json& jins = j["ins"];
  if (!jouts.is_array())
    return makeError("must be an array, got " + typeName(jouts), "outs");
  if (!jins.is_array())
    return makeError("must be an array, got " + typeName(jins), "ins");
  if (jouts.size() > kMaxDims || jins.size() > kMaxDims)
    return makeError("at most " + std::to_string(kMaxDims) +
                     " input and output dimensions are supported");

  std::vector<DimSize> outs;
  for (std::size_t k = 0; k < jouts.size(); ++k) {
    std::string path = "outs[" + std::to_string(k) + "]";
    const json& o = jouts[k];
    if (!o.is_object())
      return makeError("must be an object {\"name\", \"size\"}, got " + typeName(o), path);
    if (Error e = checkKeys(o, {"name", "size"}, {"name", "size"}, path); !e.message.empty())
      return e;
    auto name = readName(o["name"], path + ".name");
    if (!name.ok())
      return name.error();
    auto size = readSize(o["size"], path + ".size");
    if (!size.ok())
      return size.error();
    for (const DimSize& prev : outs)
      if (prev.name.str() == *name)
        return makeError("output dimension \"" + *name + "\" appears twice", path);
    outs.push_back({DimName(*name), *size});
  }

  std::vector<DimBases> ins;
  for (std::size_t i = 0; i < jins.size(); ++i) {
    std::string path = "ins[" + std::to_string(i) + "]";
    const json& d = jins[i];
    if (!d.is_object())
      return makeError("must be an object {\"name\", \"size\", \"bases\"}, got " + typeName(d),
                       path);
    if (Error e = checkKeys(d, {"name", "size", "bases"}, {"name", "size", "bases"}, path);
        !e.message.empty())
      return e;
    auto name = readName(d["name"], path + ".name");
    if (!name.ok())
      return name.error();
    path += " (" + *name + ")";
    for (const DimBases& prev : ins)
      if (prev.name.str() == *name)
        return makeError("input dimension \"" + *name + "\" appears twice", path);
    auto size = readSize(d["size"], path + ".size");
    if (!size.ok())
      return size.error();
    const json& jb = d["bases"];
    if (!jb.is_array())
      return makeError("must be an array of bases, got " + typeName(jb), path + ".bases");
    int log2 = std::countr_zero(*size);
    if (static_cast<int>(jb.size()) != log2)
      return makeError("size " + std::to_string(*size) + " needs " + std::to_string(log2) +
                           " bases (one per bit), got " + std::to_string(jb.size()),
                       path + ".bases");
    DimBases db{DimName(*name), {}};
    for (std::size_t b = 0; b < jb.size(); ++b) {
      std::string bpath = path + ".bases[" + std::to_string(b) + "]";
      const json& basis = jb[b];
      if (!basis.is_array())
        return makeError("must be an array of " + std::to_string(outs.size()) +
                             " integers (one per output dimension), got " + typeName(basis),
                         bpath);
      if (basis.size() != outs.size())
        return makeError("has " + std::to_string(basis.size()) + " values but there are " +
                             std::to_string(outs.size()) + " output dimensions",
                         bpath);
      std::vector<uint64_t> values;
      for (std::size_t k = 0; k < basis.size(); ++k) {
        const json& v = basis[k];
        std::string vpath = bpath + "[" + std::to_string(k) + "]";
        if (!v.is_number_integer())
          return makeError("must be an integer, got " + (v.is_number() ? v.dump() : typeName(v)),
                           vpath);
        if (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0)
          return makeError("negative value " + v.dump(), vpath);
        uint64_t value = v.get<uint64_t>();
        if (value >= outs[k].size)
          return makeError("value " + std::to_string(value) + " is not below the size " +
                               std::to_string(outs[k].size) + " of output dimension \"" +
                               outs[k].name.str() + "\"",
                           vpath);
        values.push_back(value);
      }
      db.bases.push_back(std::move(values));
    }
    ins.push_back(std::move(db));
  }
  return LinearLayout::create(ins, outs, /*requireSurjective=*/false);
}

std::string dumpJson(const json& j, int indent) {
  return j.dump(indent, ' ', /*ensure_ascii=*/false, json::error_handler_t::replace);
}

namespace {
Result<json> parseJsonUpToNul(std::string_view text, const std::string& source);
} // namespace

Result<json> parseJsonText(std::string_view text, const std::string& source) {
  if (text.size() > kMaxInputBytes)
    return makeError("input is " + std::to_string(text.size()) + " bytes; the limit is " +
                         std::to_string(kMaxInputBytes),
                     source);
  // The JSON reader takes a NUL byte for the end of the input and would ignore whatever
  // follows: read up to it, then refuse the NUL if what came before was valid JSON.
  std::size_t nul = text.find('\0');
  auto parsed = parseJsonUpToNul(text.substr(0, nul), source);
  if (!parsed.ok() || nul == std::string_view::npos)
    return parsed;
  int line =
      1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(nul), '\n'));
  std::size_t lineStart = text.rfind('\n', nul);
  std::size_t column = nul - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + 1;
  return makeError("invalid JSON: a NUL byte (JSON text holds none)",
                   source + ":" + std::to_string(line) + ":" + std::to_string(column));
}

namespace {
Result<json> parseJsonUpToNul(std::string_view text, const std::string& source) {
  if (text.size() > kMaxInputBytes)
    return makeError("input is " + std::to_string(text.size()) + " bytes; the limit is " +
                         std::to_string(kMaxInputBytes),
                     source);
  struct TooDeep {};
  struct DuplicateKey {
    std::string key;
  };
  // JSON leaves repeated keys to the reader, and nlohmann keeps the last one: a layout file with
  // "ins" twice would silently lose one. Track the keys of each open object and refuse.
  std::vector<std::vector<std::string>> openObjects;
  try {
    return json::parse(
        text.begin(), text.end(),
        [&openObjects](int depth, json::parse_event_t event, json& parsed) {
          if (depth > kMaxJsonDepth)
            throw TooDeep{};
          if (event == json::parse_event_t::object_start) {
            openObjects.emplace_back();
          } else if (event == json::parse_event_t::object_end) {
            if (!openObjects.empty())
              openObjects.pop_back();
          } else if (event == json::parse_event_t::key && !openObjects.empty()) {
            std::string key = parsed.get<std::string>();
            auto& keys = openObjects.back();
            if (std::find(keys.begin(), keys.end(), key) != keys.end())
              throw DuplicateKey{key};
            keys.push_back(std::move(key));
          }
          return true;
        },
        /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const TooDeep&) {
    return makeError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                         " levels; a layout needs 4",
                     source);
  } catch (const DuplicateKey& d) {
    return makeError(
        "invalid JSON: key \"" + utf8Prefix(d.key, 64) + "\" appears twice in one object", source);
  } catch (const json::parse_error& e) {
    // Turn nlohmann's byte offset into line:column.
    std::size_t byte = e.byte == 0 ? 0 : e.byte - 1;
    if (byte > text.size())
      byte = text.size();
    int line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < byte; ++i)
      if (text[i] == '\n') {
        ++line;
        lineStart = i + 1;
      }
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error while
    // parsing value - invalid literal; last read: 'x'" -> keep the part after the location.
    auto colon = what.find(": ", what.find("parse error"));
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    if (detail.size() > 160)
      detail = utf8Prefix(detail, 160) + "...";
    for (char& ch : detail)
      if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f)
        ch = '?';
    return makeError("invalid JSON: " + detail, source + ":" + std::to_string(line) + ":" +
                                                    std::to_string(byte - lineStart + 1));
  } catch (const json::exception& e) {
    // e.g. out_of_range.406, a number too large for any JSON number type; it carries no
    // position, so name the problem.
    std::string what = e.what();
    auto end = what.find("] ");
    return makeError("invalid JSON: " + (end == std::string::npos ? what : what.substr(end + 2)),
                     source);
  }
}

} // namespace

} // namespace llcheck
