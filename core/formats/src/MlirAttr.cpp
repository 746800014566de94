// Recursive-descent reader for MLIR attribute syntax, with a depth bound so that no input can
// exhaust the stack.
#include "llcheck/core/MlirAttr.h"

#include "llcheck/core/Formats.h"

#include <cctype>
#include <charconv>

namespace llcheck {

const char* AttrValue::kindName() const {
  switch (kind) {
  case Kind::Integer:
    return "integer";
  case Kind::Identifier:
    return "identifier";
  case Kind::String:
    return "string";
  case Kind::Array:
    return "array";
  case Kind::Dict:
    return "dictionary";
  case Kind::Attribute:
    return "attribute";
  case Kind::Alias:
    return "attribute alias";
  case Kind::IntervalPad:
    return "interval:+pad pair";
  }
  return "value";
}

const AttrValue* AttrValue::find(std::string_view key) const {
  for (const AttrEntry& e : entries)
    if (e.first == key)
      return &e.second;
  return nullptr;
}

std::string attrLocation(const std::string& source, const AttrValue& v) {
  if (source == "attribute")
    return "attribute at column " + std::to_string(v.column);
  return source + ":" + std::to_string(v.line) + ":" + std::to_string(v.column);
}

namespace {

constexpr int kMaxDepth = 32;

class Parser {
public:
  Parser(std::string_view text, const std::string& source) : s_(text), source_(source) {}

  Result<AttrValue> attribute() {
    skip();
    AttrValue v;
    if (!value(0, v))
      return std::move(error_);
    if (v.kind != AttrValue::Kind::Attribute && v.kind != AttrValue::Kind::Alias)
      return error("expected an attribute starting with '#', e.g. #ttg.linear<{...}>", v.line,
                   v.column);
    skip();
    if (pos_ < s_.size())
      return error("unexpected '" + utf8CharAt(s_, pos_) + "' after the attribute");
    return v;
  }

  /// One value at `offset`, on file line `line`; `end` is set to just past it.
  Result<AttrValue> valueAt(std::size_t offset, int line, std::size_t& end) {
    pos_ = offset;
    line_ = line;
    std::size_t nl = s_.rfind('\n', offset == 0 ? 0 : offset - 1);
    lineStart_ = nl == std::string_view::npos || offset == 0 ? 0 : nl + 1;
    AttrValue v;
    bool ok = value(0, v);
    end = pos_;
    if (!ok)
      return std::move(error_);
    return v;
  }

private:
  std::string_view s_;
  const std::string& source_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::size_t lineStart_ = 0;
  /// The first error met; value() and entries() return false once it is set.
  Error error_;

  int column() const { return static_cast<int>(pos_ - lineStart_) + 1; }

  Error error(const std::string& message) const { return error(message, line_, column()); }
  Error error(const std::string& message, int line, int col) const {
    AttrValue at;
    at.line = line;
    at.column = col;
    return makeError(message, attrLocation(source_, at));
  }
  bool fail(const std::string& message) { return fail(message, line_, column()); }
  bool fail(const std::string& message, int line, int col) {
    error_ = error(message, line, col);
    return false;
  }

  // The "C" locale's classes, written out: <cctype>'s functions are calls per character, and
  // llcheck never changes the locale.
  static bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
  static bool isDigit(char c) { return c >= '0' && c <= '9'; }
  static bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

  void skip() {
    while (pos_ < s_.size() && isSpace(s_[pos_])) {
      if (s_[pos_] == '\n') {
        ++line_;
        lineStart_ = pos_ + 1;
      }
      ++pos_;
    }
  }
  bool peek(char c) {
    skip();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool eat(char c) {
    if (!peek(c))
      return false;
    ++pos_;
    return true;
  }
  static bool identChar(char c) {
    return isAlpha(c) || isDigit(c) || c == '_' || c == '.' || c == '$' || c == '-';
  }
  std::string found() const {
    if (pos_ >= s_.size())
      return "end of input";
    char c = s_[pos_];
    if (std::isprint(static_cast<unsigned char>(c)))
      return std::string("'") + c + "'";
    return "byte 0x" + std::string(1, "0123456789abcdef"[(c >> 4) & 15]) +
           std::string(1, "0123456789abcdef"[c & 15]);
  }

  /// Parses one value into `v` (a fresh AttrValue), in place: nodes are built where they end
  /// up in the tree rather than returned and moved, which was most of the parser's cost.
  bool value(int depth, AttrValue& v) {
    if (depth > kMaxDepth)
      return fail("nested more than " + std::to_string(kMaxDepth) + " levels deep");
    skip();
    v.line = line_;
    v.column = column();
    if (pos_ >= s_.size())
      return fail("unexpected end of input: expected a value");
    char c = s_[pos_];
    if (c == '[') {
      ++pos_;
      v.kind = AttrValue::Kind::Array;
      if (eat(']'))
        return true;
      v.elements.reserve(4); // most arrays are short: one allocation instead of three
      while (true) {
        if (!value(depth + 1, v.elements.emplace_back()))
          return false;
        if (eat(']'))
          return true;
        if (!eat(','))
          return fail("expected ',' or ']' in the array, found " + found());
      }
    }
    if (c == '{') {
      ++pos_;
      v.kind = AttrValue::Kind::Dict;
      if (eat('}'))
        return true;
      return entries(v, '}', depth);
    }
    if (c == '#') {
      ++pos_;
      std::size_t start = pos_;
      while (pos_ < s_.size() && identChar(s_[pos_]))
        ++pos_;
      v.text.assign(s_.substr(start, pos_ - start));
      if (v.text.empty())
        return fail("expected an attribute name after '#'");
      if (pos_ < s_.size() && s_[pos_] == '<') {
        ++pos_;
        v.kind = AttrValue::Kind::Attribute;
        if (eat('>'))
          return true;
        return entries(v, '>', depth);
      }
      v.kind = v.text.find('.') == std::string::npos ? AttrValue::Kind::Alias
                                                     : AttrValue::Kind::Attribute;
      return true;
    }
    if (c == '"') {
      ++pos_;
      v.kind = AttrValue::Kind::String;
      while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\n') {
        if (s_[pos_] == '\\' && pos_ + 1 < s_.size())
          ++pos_;
        v.text += s_[pos_++];
      }
      if (pos_ >= s_.size() || s_[pos_] != '"')
        return fail("unterminated string", v.line, v.column);
      ++pos_;
      return true;
    }
    if (c == '-' || isDigit(c)) {
      v.kind = AttrValue::Kind::Integer;
      auto [p, ec] = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), v.integer);
      if (ec == std::errc::result_out_of_range)
        return fail("integer out of range");
      if (ec != std::errc() || p == s_.data() + pos_)
        return fail("expected a number, found " + found());
      pos_ = static_cast<std::size_t>(p - s_.data());
      if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
        return fail("expected an integer, found a fraction or exponent");
      skip();
      // padded_shared's "32:+4": an interval and the padding after it.
      if (pos_ + 1 < s_.size() && s_[pos_] == ':' && s_[pos_ + 1] == '+') {
        pos_ += 2;
        AttrValue pad;
        pad.line = line_;
        pad.column = column();
        auto [q, padEc] = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), pad.integer);
        if (padEc == std::errc::result_out_of_range)
          return fail("integer out of range");
        if (padEc != std::errc() || q == s_.data() + pos_)
          return fail("expected the padding after ':+', found " + found());
        pos_ = static_cast<std::size_t>(q - s_.data());
        v.kind = AttrValue::Kind::IntervalPad;
        v.elements.push_back(pad);
        return true;
      }
      // An MLIR type suffix such as "4 : i32" is accepted and ignored.
      if (pos_ < s_.size() && s_[pos_] == ':' && pos_ + 1 < s_.size() && s_[pos_ + 1] != ':') {
        ++pos_;
        skip();
        while (pos_ < s_.size() && identChar(s_[pos_]))
          ++pos_;
      }
      return true;
    }
    if (isAlpha(c) || c == '_') {
      v.kind = AttrValue::Kind::Identifier;
      std::size_t start = pos_;
      while (pos_ < s_.size() && identChar(s_[pos_]))
        ++pos_;
      v.text.assign(s_.substr(start, pos_ - start));
      return true;
    }
    return fail("expected a value, found " + found());
  }

  /// "key = value, value, ..." up to `close`, into v.entries.
  bool entries(AttrValue& v, char close, int depth) {
    v.entries.reserve(6);
    while (true) {
      skip();
      std::size_t save = pos_;
      int saveLine = line_;
      std::size_t saveLineStart = lineStart_;
      int keyColumn = column();
      while (pos_ < s_.size() && identChar(s_[pos_]))
        ++pos_;
      std::string_view key = s_.substr(save, pos_ - save);
      if (!key.empty() && eat('=')) {
        AttrEntry& e = v.entries.emplace_back();
        e.first.assign(key);
        e.keyLine = saveLine;
        e.keyColumn = keyColumn;
        if (!value(depth + 1, e.second))
          return false;
      } else {
        pos_ = save;
        line_ = saveLine;
        lineStart_ = saveLineStart;
        AttrEntry& e = v.entries.emplace_back();
        if (!value(depth + 1, e.second))
          return false;
        if (v.kind == AttrValue::Kind::Dict && e.second.kind != AttrValue::Kind::Identifier)
          return fail("expected 'key = value' in the dictionary", e.second.line, e.second.column);
        // A bare identifier in a dictionary is a unit attribute (key present, no value).
        if (v.kind == AttrValue::Kind::Dict)
          e.first = e.second.text;
        e.keyLine = e.second.line;
        e.keyColumn = e.second.column;
      }
      if (eat(close))
        return true;
      // padded_shared writes its linear component right after the padding list: "[...] {...}".
      if (v.kind == AttrValue::Kind::Attribute &&
          v.entries.back().second.kind == AttrValue::Kind::Array && peek('{'))
        continue;
      if (!eat(','))
        return fail(std::string("expected ',' or '") + close + "', found " + found());
    }
  }
};

} // namespace

Result<AttrAt> parseAttributeAt(std::string_view text, std::size_t offset, int line,
                                const std::string& source) {
  if (offset > text.size())
    return makeError("offset " + std::to_string(offset) + " is past the end of the text", source);
  Parser p(text, source);
  std::size_t end = 0;
  auto v = p.valueAt(offset, line, end);
  if (!v.ok())
    return v.error();
  return AttrAt{std::move(*v), end};
}

Result<AttrValue> parseAttribute(std::string_view text, const std::string& source) {
  if (text.size() > kMaxInputBytes)
    return makeError("input is " + std::to_string(text.size()) + " bytes; the limit is " +
                         std::to_string(kMaxInputBytes),
                     source);
  Parser p(text, source);
  return p.attribute();
}

} // namespace llcheck
