// The TTGIR module reader. MLIR's printer puts every alias definition, the module header and
// every op on a line of its own, so the reader works line by line after one structural pass
// over the whole file (brackets and strings balanced), which is what catches a file cut short.
#include "llcheck/core/Ttgir.h"

#include "llcheck/core/EncodingAttr.h"

#include "llcheck/core/Formats.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>

namespace llcheck {

namespace {

constexpr int kMaxAliasDepth = 16;
constexpr int kMaxLocDepth = 32;

bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

std::string where(const std::string& source, int line, int column) {
  return source + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// ---- Structure: balanced brackets and strings --------------------------------------------------

/// '<' opens a bracket only right after a name (tensor<, #ttg.blocked<, dense<, array<); a '>'
/// right after '-' is an arrow. A quoted string may not span lines.
Error checkStructure(std::string_view text, const std::string& source) {
  struct Open {
    char c;
    int line, column;
  };
  std::vector<Open> stack;
  int line = 1;
  std::size_t lineStart = 0;
  auto col = [&](std::size_t i) { return static_cast<int>(i - lineStart) + 1; };
  auto closer = [](char open) {
    return open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
      continue;
    }
    if (c == '\0')
      return makeError("unexpected NUL byte: a TTGIR file is text", where(source, line, col(i)));
    if (c == '"') {
      int startCol = col(i);
      ++i;
      while (i < text.size() && text[i] != '"' && text[i] != '\n') {
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
        ++i;
      }
      if (i >= text.size() || text[i] != '"')
        return makeError(i >= text.size() ? "the file ends inside a string: is it cut short?"
                                          : "unterminated string",
                         where(source, line, startCol));
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
      continue;
    }
    bool opensAngle = c == '<' && i > 0 && (identChar(text[i - 1]) || text[i - 1] == '!');
    if (c == '(' || c == '[' || c == '{' || opensAngle) {
      if (stack.size() >= 4096)
        return makeError("nested more than 4096 levels deep", where(source, line, col(i)));
      stack.push_back({c, line, col(i)});
      continue;
    }
    bool closesAngle =
        c == '>' && !(i > 0 && text[i - 1] == '-') && !stack.empty() && stack.back().c == '<';
    if (c == ')' || c == ']' || c == '}' || closesAngle) {
      if (stack.empty())
        return makeError(std::string("unexpected '") + c + "': nothing is open here",
                         where(source, line, col(i)));
      Open o = stack.back();
      if (closer(o.c) != c)
        return makeError(std::string("'") + o.c + "' is not closed before the '" + c +
                             "' at line " + std::to_string(line) + ", column " +
                             std::to_string(col(i)),
                         where(source, o.line, o.column));
      stack.pop_back();
    }
  }
  if (!stack.empty()) {
    const Open& o = stack.back();
    return makeError(std::string("the file ends inside the '") + o.c + "' opened at line " +
                         std::to_string(o.line) + ", column " + std::to_string(o.column) +
                         ": is it cut short?",
                     where(source, line, static_cast<int>(text.size() - lineStart) + 1));
  }
  return Error{};
}

// ---- Printing resolved attributes (the identity of an encoding) --------------------------------

std::string printAttr(const AttrValue& v) {
  switch (v.kind) {
  case AttrValue::Kind::Integer:
    return std::to_string(v.integer);
  case AttrValue::Kind::Identifier:
    return v.text;
  case AttrValue::Kind::String:
    return "\"" + v.text + "\"";
  case AttrValue::Kind::Alias:
    return "#" + v.text;
  case AttrValue::Kind::IntervalPad:
    return std::to_string(v.integer) + ":+" +
           (v.elements.empty() ? std::string("?") : std::to_string(v.elements[0].integer));
  case AttrValue::Kind::Array: {
    std::string s = "[";
    for (std::size_t i = 0; i < v.elements.size(); ++i)
      s += (i ? ", " : "") + printAttr(v.elements[i]);
    return s + "]";
  }
  case AttrValue::Kind::Dict:
  case AttrValue::Kind::Attribute: {
    std::string s;
    for (std::size_t i = 0; i < v.entries.size(); ++i) {
      const AttrEntry& e = v.entries[i];
      s += i ? ", " : "";
      bool unit = e.second.kind == AttrValue::Kind::Identifier && e.second.text == e.first;
      if (e.first.empty() || (unit && v.kind == AttrValue::Kind::Dict))
        s += printAttr(e.second);
      else
        s += e.first + " = " + printAttr(e.second);
    }
    if (v.kind == AttrValue::Kind::Dict)
      return "{" + s + "}";
    return "#" + v.text + (v.entries.empty() ? "" : "<" + s + ">");
  }
  }
  return "";
}

// ---- Locations -----------------------------------------------------------------------------

/// The text inside the parentheses of the last top-level `loc(...)` on a line, or empty. One
/// pass over the line: a line of many `loc(` costs no more than a short one.
std::string_view trailingLoc(std::string_view line) {
  std::size_t last = std::string_view::npos;
  int depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '(' || c == '[' || c == '{') {
      if (depth == 0 && c == '(' && i >= 3 && line.substr(i - 3, 4) == "loc(")
        last = i - 3;
      ++depth;
    } else if (c == ')' || c == ']' || c == '}')
      --depth;
  }
  if (last == std::string_view::npos)
    return {};
  std::size_t close = line.rfind(')');
  if (close != std::string_view::npos && close > last + 4)
    return line.substr(last + 4, close - last - 4);
  return {};
}

/// Splits a fused location's body on its top-level commas, or a call site's on " at ".
std::vector<std::string_view> locParts(std::string_view body) {
  std::vector<std::string_view> out;
  int d = 0;
  bool inString = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '"')
      inString = !inString;
    else if (inString)
      continue;
    else if (c == '(' || c == '[' || c == '<')
      ++d;
    else if (c == ')' || c == ']' || c == '>')
      --d;
    else if (d == 0 && (c == ',' || body.substr(i, 4) == " at ")) {
      out.push_back(body.substr(start, i - start));
      start = i + (c == ',' ? 1 : 4);
    }
  }
  out.push_back(body.substr(start));
  return out;
}

/// Follows a location to a file position: "file":L:C, a named location "x"(inner), a call site
/// (the callee first), a fused location (its first resolvable part), or an alias #locN.
///
/// Locations may refer to each other through aliases without limit (`#loc0 =
/// loc(fused[#loc0, #loc0])`, or chains of fused aliases ten wide), and following every
/// reference would take time exponential in the file. So each alias is resolved at most once
/// per module and remembered, and an alias met again while it is being resolved (a cycle)
/// resolves to nothing: the work is linear in the alias definitions' text (times the nesting
/// bound kMaxLocDepth within one location). A location that resolves to nothing is shown as
/// the op's file and line.
class LocResolver {
public:
  explicit LocResolver(const std::map<std::string, std::string>& aliases) : aliases_(aliases) {}

  std::optional<std::string> resolve(std::string_view loc, int depth = 0) {
    loc = trim(loc);
    if (depth > kMaxLocDepth || loc.empty())
      return std::nullopt;
    if (loc[0] == '#')
      return alias(std::string(loc.substr(1)), depth);
    if (startsWith(loc, "loc(") && loc.back() == ')')
      return resolve(loc.substr(4, loc.size() - 5), depth + 1);
    if (loc[0] == '"') {
      std::size_t close = loc.find('"', 1);
      if (close == std::string_view::npos)
        return std::nullopt;
      std::string_view rest = loc.substr(close + 1);
      if (startsWith(rest, ":"))
        return std::string(loc.substr(1, close - 1)) + std::string(rest);
      if (startsWith(rest, "(") && rest.back() == ')')
        return resolve(rest.substr(1, rest.size() - 2), depth + 1);
      return std::nullopt;
    }
    if (startsWith(loc, "callsite(") && loc.back() == ')')
      return firstOf(locParts(loc.substr(9, loc.size() - 10)), depth);
    if (startsWith(loc, "fused")) {
      std::size_t open = loc.find('[');
      if (open == std::string_view::npos || loc.back() != ']')
        return std::nullopt;
      return firstOf(locParts(loc.substr(open + 1, loc.size() - open - 2)), depth);
    }
    return std::nullopt;
  }

private:
  const std::map<std::string, std::string>& aliases_;
  std::map<std::string, std::optional<std::string>> resolved_;
  std::set<std::string> resolving_;

  std::optional<std::string> firstOf(const std::vector<std::string_view>& parts, int depth) {
    for (std::string_view p : parts)
      if (auto r = resolve(p, depth + 1))
        return r;
    return std::nullopt;
  }

  std::optional<std::string> alias(const std::string& name, int depth) {
    if (auto done = resolved_.find(name); done != resolved_.end())
      return done->second;
    auto it = aliases_.find(name);
    if (it == aliases_.end() || !resolving_.insert(name).second)
      return std::nullopt; // unknown, or a cycle
    std::optional<std::string> r = resolve(it->second, depth + 1);
    resolving_.erase(name);
    resolved_[name] = r;
    return r;
  }
};

// ---- The reader --------------------------------------------------------------------------------

struct LineRef {
  std::string_view text;
  std::size_t offset; // of text[0] in the file
  int number;
};

class Reader {
public:
  Reader(std::string_view text, const std::string& source, const TtgirOptions& options)
      : text_(text), source_(source), options_(options) {
    module_.source = source;
    module_.triton = options.triton;
  }

  Result<TtgirModule> read() {
    if (Error e = checkStructure(text_, source_); !e.message.empty())
      return e;
    std::vector<LineRef> lines;
    int number = 1;
    for (std::size_t start = 0; start <= text_.size();) {
      std::size_t end = text_.find('\n', start);
      if (end == std::string_view::npos)
        end = text_.size();
      lines.push_back({text_.substr(start, end - start), start, number++});
      start = end + 1;
    }
    // Aliases first: MLIR prints the location aliases after the module.
    for (const LineRef& l : lines) {
      std::string_view t = trim(l.text);
      if (startsWith(t, "#"))
        if (Error e = aliasLine(l); !e.message.empty())
          return e;
    }
    for (const LineRef& l : lines) {
      std::string_view t = trim(l.text);
      if (t.empty() || startsWith(t, "//") || startsWith(t, "#"))
        continue;
      if (startsWith(t, "module"))
        if (Error e = moduleLine(l); !e.message.empty())
          return e;
      if (Error e = opLine(l); !e.message.empty())
        return e;
    }
    if (Error e = checkOptions(); !e.message.empty())
      return e;
    if (Error e = computeLayouts(); !e.message.empty())
      return e;
    return std::move(module_);
  }

private:
  std::string_view text_;
  const std::string& source_;
  const TtgirOptions& options_;
  TtgirModule module_;
  std::map<std::string, AttrValue> aliases_;
  std::map<std::string, std::string> brokenAliases_; // name -> why it could not be read
  std::map<std::string, std::string> locAliases_;
  /// Made after every alias line is read; remembers each alias's resolution.
  std::optional<LocResolver> locResolver_;
  /// Type index -> the names of the ops whose line uses that type (TtgirLayout::users).
  std::map<int, std::set<std::string>> typeUsers_;
  std::map<std::string, int> typeIndex_;
  /// Types whose encoding still has to be resolved, with the parsed encoding.
  std::vector<std::optional<AttrValue>> typeEncodings_;

  static int column(std::size_t offsetInLine) { return static_cast<int>(offsetInLine) + 1; }

  void notUnderstood(std::string what, std::string text, std::string at, std::string reason,
                     bool unsupported = false) {
    module_.notUnderstood.push_back(
        {std::move(what), std::move(text), std::move(at), std::move(reason), unsupported});
  }

  // `#name = value`: an attribute alias or a location alias.
  Error aliasLine(const LineRef& l) {
    std::size_t i = l.text.find('#');
    std::size_t nameStart = i + 1, j = nameStart;
    while (j < l.text.size() && identChar(l.text[j]))
      ++j;
    std::string name(l.text.substr(nameStart, j - nameStart));
    std::size_t eq = l.text.find_first_not_of(" \t", j);
    if (name.empty() || eq == std::string_view::npos || l.text[eq] != '=')
      return makeError("expected an alias definition '#name = ...' on a line starting with '#'",
                       where(source_, l.number, column(i)));
    std::size_t v = l.text.find_first_not_of(" \t", eq + 1);
    if (v == std::string_view::npos)
      return makeError("alias #" + name + " has no value after '='",
                       where(source_, l.number, column(eq)));
    if (aliases_.count(name) || brokenAliases_.count(name) || locAliases_.count(name))
      return makeError("alias #" + name + " is defined twice", where(source_, l.number, 1));
    std::string_view value = trim(l.text.substr(v));
    if (startsWith(value, "loc(")) {
      locAliases_[name] = std::string(value);
      return Error{};
    }
    auto parsed = parseAttributeAt(text_, l.offset + v, l.number, source_);
    std::string_view rest =
        parsed.ok() ? trim(text_.substr(parsed->end, l.offset + l.text.size() - parsed->end))
                    : std::string_view{};
    module_.aliases.push_back({name, std::string(value), l.number});
    if (!parsed.ok() || !rest.empty()) {
      std::string why = parsed.ok()
                            ? "unexpected text after the attribute: '" + utf8Prefix(rest, 40) + "'"
                            : parsed.error().str();
      brokenAliases_[name] = why;
      notUnderstood("alias", "#" + name + " = " + std::string(value),
                    where(source_, l.number, column(v)), why);
      return Error{};
    }
    aliases_[name] = std::move(parsed->value);
    return Error{};
  }

  // module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", ...} {
  Error moduleLine(const LineRef& l) {
    std::size_t a = l.text.find("attributes");
    if (a == std::string_view::npos)
      return Error{};
    std::size_t open = l.text.find('{', a);
    if (open == std::string_view::npos)
      return Error{};
    // The dictionary's keys may be quoted ("ttg.num-warps"), which attribute syntax elsewhere
    // never needs, so it is split here rather than by the attribute parser.
    std::size_t i = open + 1;
    while (i < l.text.size()) {
      while (i < l.text.size() && (l.text[i] == ' ' || l.text[i] == ','))
        ++i;
      if (i >= l.text.size() || l.text[i] == '}')
        break;
      std::size_t keyStart = i;
      std::string key;
      if (l.text[i] == '"') {
        std::size_t close = l.text.find('"', i + 1);
        if (close == std::string_view::npos)
          break;
        key = std::string(l.text.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        while (i < l.text.size() && identChar(l.text[i]))
          key += l.text[i++];
      }
      std::size_t valueStart = i, valueEnd = i;
      int depth = 0;
      bool inString = false;
      for (; valueEnd < l.text.size(); ++valueEnd) {
        char c = l.text[valueEnd];
        if (c == '"')
          inString = !inString;
        else if (inString)
          continue;
        else if (c == '[' || c == '{' || c == '(' || c == '<')
          ++depth;
        else if ((c == ']' || c == ')' || c == '>') && depth > 0)
          --depth;
        else if (c == '}' && depth > 0)
          --depth;
        else if ((c == ',' || c == '}') && depth == 0)
          break;
      }
      std::string_view value = trim(l.text.substr(valueStart, valueEnd - valueStart));
      if (startsWith(value, "="))
        value = trim(value.substr(1));
      i = valueEnd;
      if (Error e = moduleAttribute(key, value, where(source_, l.number, column(keyStart)));
          !e.message.empty())
        return e;
    }
    return Error{};
  }

  Error moduleAttribute(const std::string& key, std::string_view value, const std::string& at) {
    if (key == "ttg.target") {
      if (value.size() < 2 || value.front() != '"' || value.back() != '"')
        return makeError(
            "ttg.target must be a string such as \"cuda:90\", got " + utf8Prefix(value, 40), at);
      module_.target = std::string(value.substr(1, value.size() - 2));
      return Error{};
    }
    std::optional<uint64_t>* slot = key == "ttg.num-warps"          ? &module_.numWarps
                                    : key == "ttg.threads-per-warp" ? &module_.threadsPerWarp
                                    : key == "ttg.num-ctas"         ? &module_.numCtas
                                                                    : nullptr;
    if (!slot)
      return Error{}; // other module attributes (ttng.two-ctas, ...) do not affect layouts
    std::string_view digits = value.substr(0, value.find(':'));
    digits = trim(digits);
    uint64_t n = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || p != digits.data() + digits.size() || n == 0 || (n & (n - 1)) != 0)
      return makeError(
          key + " must be a power of two such as 4 : i32, got " + utf8Prefix(value, 40), at);
    *slot = n;
    return Error{};
  }

  Error checkOptions() {
    auto merge = [&](std::optional<uint64_t>& fromModule, const std::optional<uint64_t>& given,
                     ContextItem item, const char* key) -> Error {
      if (!given)
        return Error{};
      if (fromModule && *fromModule != *given)
        return contextError(item,
                            contextName(item) + " " + std::to_string(*given) +
                                " disagrees with the module's " + key + " = " +
                                std::to_string(*fromModule),
                            source_);
      fromModule = given;
      return Error{};
    };
    if (Error e =
            merge(module_.numWarps, options_.numWarps, ContextItem::NumWarps, "ttg.num-warps");
        !e.message.empty())
      return e;
    return merge(module_.threadsPerWarp, options_.threadsPerWarp, ContextItem::ThreadsPerWarp,
                 "ttg.threads-per-warp");
  }

  // ---- Types -----------------------------------------------------------------------------------

  /// Reads "64x32xf16" up to the ',' or '>' that ends the element type; `i` is moved past it.
  Result<bool> shapeAndElement(std::string_view t, std::size_t& i, TtgirType& type,
                               const LineRef& l) {
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) {
      uint64_t d = 0;
      auto [p, ec] = std::from_chars(t.data() + i, t.data() + t.size(), d);
      std::size_t after = static_cast<std::size_t>(p - t.data());
      if (ec != std::errc() || after >= t.size() || t[after] != 'x')
        break; // an element type starting with a digit does not occur; let it fail below
      // A memdesc's sizes need not be powers of two: a pipelined buffer has one slot per stage
      // (3x64x32). A tensor's must (Triton's tensors have power-of-two shapes): a file that
      // says otherwise is malformed, not merely something llcheck does not understand.
      if (d == 0)
        return makeError("size 0 in a type", where(source_, l.number, column(i)));
      if (type.kind == TtgirType::Kind::Tensor && (d & (d - 1)) != 0)
        return makeError("tensor size " + std::to_string(d) +
                             " is not a power of two (Triton's tensors have power-of-two shapes)",
                         where(source_, l.number, column(i)));
      type.shape.push_back(d);
      i = after + 1;
    }
    std::size_t start = i;
    int depth = 0;
    for (; i < t.size(); ++i) {
      char c = t[i];
      if (c == '<')
        ++depth;
      else if (c == '>' && depth > 0)
        --depth;
      else if ((c == ',' || c == '>') && depth == 0)
        break;
    }
    type.elementType = std::string(trim(t.substr(start, i - start)));
    if (type.elementType.empty() || i >= t.size())
      return makeError("expected 'NxMx<element type>' in the type",
                       where(source_, l.number, column(start)));
    return true;
  }

  /// Skips blanks, then parses an attribute value at `i` in line `l`.
  Result<AttrValue> attrAt(const LineRef& l, std::size_t& i) {
    while (i < l.text.size() && l.text[i] == ' ')
      ++i;
    auto v = parseAttributeAt(text_, l.offset + i, l.number, source_);
    if (!v.ok())
      return v.error();
    i = v->end - l.offset;
    return std::move(v->value);
  }

  /// Parses `tensor<...>` (at "tensor") or `!ttg.memdesc<...>` / a bare memdesc body `<...>`
  /// (what async_copy_global_to_local prints for its result) at `at` in line `l`.
  /// Returns the index of the distinct type, or -1 after recording it as not understood.
  Result<int> typeAt(const LineRef& l, std::size_t at, std::size_t& end) {
    std::string_view t = l.text;
    TtgirType type;
    std::size_t i = at;
    if (startsWith(t.substr(i), "tensor<")) {
      type.kind = TtgirType::Kind::Tensor;
      i += 7;
    } else if (startsWith(t.substr(i), "!ttg.memdesc<")) {
      type.kind = TtgirType::Kind::MemDesc;
      i += 13;
    } else {
      type.kind = TtgirType::Kind::MemDesc;
      i += 1;
    }
    type.line = l.number;
    type.column = column(at);
    auto se = shapeAndElement(t, i, type, l);
    if (!se.ok()) {
      if (se.error().message.find("is not a power of two") != std::string::npos)
        return se.error();
      return typeProblem(l, at, se.error());
    }
    std::optional<AttrValue> encoding;
    int attrs = 0;
    while (i < t.size() && t[i] == ',') {
      ++i;
      while (i < t.size() && t[i] == ' ')
        ++i;
      if (i < t.size() && t[i] == '#') {
        std::size_t s = i;
        auto v = attrAt(l, i);
        if (!v.ok())
          return typeProblem(l, at, v.error());
        std::string written(trim(t.substr(s, i - s)));
        if (attrs == 0) {
          type.encoding = written;
          encoding = std::move(*v);
        } else if (type.kind == TtgirType::Kind::MemDesc && attrs == 1) {
          type.memorySpace = written;
        } else {
          return typeProblem(l, at,
                             makeError("unexpected attribute " + written + " in the type",
                                       where(source_, l.number, column(s))));
        }
        ++attrs;
      } else if (type.kind == TtgirType::Kind::MemDesc && startsWith(t.substr(i), "mutable")) {
        type.isMutable = true;
        i += 7;
      } else if (type.kind == TtgirType::Kind::MemDesc && i < t.size() &&
                 std::isdigit(static_cast<unsigned char>(t[i]))) {
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) {
          uint64_t d = 0;
          auto [p, ec] = std::from_chars(t.data() + i, t.data() + t.size(), d);
          if (ec != std::errc())
            break;
          type.allocShape.push_back(d);
          i = static_cast<std::size_t>(p - t.data());
          if (i < t.size() && t[i] == 'x')
            ++i;
        }
      } else {
        return typeProblem(
            l, at, makeError("unexpected text in the type", where(source_, l.number, column(i))));
      }
      while (i < t.size() && t[i] == ' ')
        ++i;
    }
    if (i >= t.size() || t[i] != '>')
      return makeError("unterminated type: expected '>' or ',' after " +
                           std::string(trim(t.substr(at, std::min<std::size_t>(i - at, 60)))),
                       where(source_, l.number, column(i)));
    end = i + 1;
    type.text = std::string(t.substr(at, end - at));
    if (type.kind == TtgirType::Kind::MemDesc && !startsWith(type.text, "!ttg.memdesc"))
      type.text = "!ttg.memdesc" + type.text;
    if (type.kind == TtgirType::Kind::MemDesc && (!encoding || type.memorySpace.empty())) {
      notUnderstood("type", type.text, where(source_, type.line, type.column),
                    "a memdesc needs an encoding and a memory space");
      return -1;
    }
    auto it = typeIndex_.find(type.text);
    if (it != typeIndex_.end()) {
      ++module_.types[static_cast<std::size_t>(it->second)].count;
      return it->second;
    }
    if (!encoding)
      notUnderstood("type", type.text, where(source_, type.line, type.column),
                    "the type has no encoding, so no layout");
    type.count = 1;
    int index = static_cast<int>(module_.types.size());
    typeIndex_[type.text] = index;
    module_.types.push_back(std::move(type));
    typeEncodings_.push_back(std::move(encoding));
    return index;
  }

  /// A type that parses as far as its structure but not its content: unless the text is cut
  /// short (an Error), it is recorded as not understood and reading goes on.
  Result<int> typeProblem(const LineRef& l, std::size_t at, const Error& e) {
    if (e.message.find("end of input") != std::string::npos)
      return e;
    std::size_t end = l.text.find('>', at);
    std::string text(l.text.substr(at, end == std::string_view::npos ? 60 : end - at + 1));
    notUnderstood("type", text, where(source_, l.number, column(at)), e.str());
    return -1;
  }

  struct TypeUse {
    int index;
    std::size_t begin, end;
  };

  /// Every tensor/memdesc type on the line, in order, outside strings.
  Result<std::vector<TypeUse>> typesOnLine(const LineRef& l, std::size_t sigArrow) {
    std::vector<TypeUse> uses;
    std::string_view t = l.text;
    bool inString = false;
    for (std::size_t i = 0; i < t.size(); ++i) {
      char c = t[i];
      if (c == '"') {
        inString = !inString;
        continue;
      }
      if (inString)
        continue;
      bool tensor = startsWith(t.substr(i), "tensor<") && (i == 0 || !identChar(t[i - 1]));
      bool memdesc = startsWith(t.substr(i), "!ttg.memdesc<");
      // async_copy_global_to_local prints its result type without "!ttg.memdesc".
      bool bare = c == '<' && sigArrow != std::string_view::npos && i > sigArrow &&
                  trim(t.substr(sigArrow + 2, i - sigArrow - 2)).empty();
      if (!tensor && !memdesc && !bare)
        continue;
      std::size_t end = i;
      auto index = typeAt(l, i, end);
      if (!index.ok())
        return index.error();
      if (*index < 0) {
        std::size_t close = t.find('>', i);
        i = close == std::string_view::npos ? t.size() : close;
        continue;
      }
      uses.push_back({*index, i, end});
      i = end - 1;
    }
    return uses;
  }

  // ---- Ops -------------------------------------------------------------------------------------

  static std::string opName(std::string_view t) {
    // "%a, %b:2 = dialect.op ..." or "dialect.op ..." or the generic form "\"dialect.op\"(...)".
    std::size_t eq = std::string_view::npos;
    if (startsWith(t, "%")) {
      eq = t.find(" = ");
      if (eq == std::string_view::npos)
        return {};
      t = t.substr(eq + 3);
    }
    if (startsWith(t, "\"")) {
      std::size_t close = t.find('"', 1);
      return close == std::string_view::npos ? std::string() : std::string(t.substr(1, close - 1));
    }
    std::size_t n = 0;
    while (n < t.size() && (identChar(t[n])))
      ++n;
    std::string name(t.substr(0, n));
    return name.find('.') == std::string::npos ? std::string() : name;
  }

  static bool looksDataMoving(const std::string& name) {
    static const char* kDialects[] = {"ttg.", "ttng.", "amdg.", "amdgpu.", "nvg.", "ttag."};
    bool dialect = false;
    for (const char* d : kDialects)
      dialect = dialect || startsWith(name, d);
    if (!dialect)
      return false;
    // Ops of these dialects that touch memory descriptors but move no tensor data.
    static const std::set<std::string> kNotMoving = {
        "ttg.local_dealloc", "ttg.async_commit_group", "ttg.async_wait", "ttng.init_barrier",
        "ttng.inval_barrier", "ttng.wait_barrier", "ttng.barrier_expect", "ttng.arrive_barrier",
        "ttng.fence_async_shared", "ttng.tc_gen5_mma", "ttng.tc_gen5_commit", "ttng.warp_group_dot",
        "ttng.warp_group_dot_wait",
        // Global memory <-> registers in one layout, like tt.load / tt.store.
        "amdg.buffer_load", "amdg.buffer_store", "amdg.buffer_atomic_rmw",
        "amdg.buffer_atomic_cas"};
    if (kNotMoving.count(name))
      return false;
    static const char* kWords[] = {"local_",   "async_copy", "tma",     "tmem_",  "convert",
                                   "memdesc_", "load",       "store",   "alloc",  "transpose",
                                   "copy",     "gather",     "scatter", "shuffle"};
    for (const char* w : kWords)
      if (name.find(w) != std::string::npos)
        return true;
    return false;
  }

  Error opLine(const LineRef& l) {
    std::string_view t = l.text;
    std::size_t lead = t.find_first_not_of(" \t");
    std::string name = opName(t.substr(lead));
    const auto& handled = ttgirDataMovingOps();
    bool isHandled = std::find(handled.begin(), handled.end(), name) != handled.end();
    // The signature is after the last top-level " : " before the trailing loc(...).
    std::size_t locAt = t.rfind(" loc(");
    std::size_t sigEnd = locAt == std::string_view::npos ? t.size() : locAt;
    std::size_t colon = std::string_view::npos, arrow = std::string_view::npos;
    {
      int depth = 0;
      bool inString = false;
      for (std::size_t i = 0; i < sigEnd; ++i) {
        char c = t[i];
        if (c == '"')
          inString = !inString;
        else if (inString)
          continue;
        else if (c == '(' || c == '[' || c == '{' || (c == '<' && i > 0 && t[i - 1] != '-'))
          ++depth;
        else if (c == ')' || c == ']' || c == '}' || (c == '>' && (i == 0 || t[i - 1] != '-')))
          --depth;
        else if (depth == 0 && c == ':' && i > 0 && t[i - 1] == ' ' && i + 1 < t.size() &&
                 t[i + 1] == ' ') {
          colon = i;
          arrow = std::string_view::npos;
        } else if (depth == 0 && c == '-' && i + 1 < t.size() && t[i + 1] == '>' &&
                   colon != std::string_view::npos)
          arrow = i;
      }
    }
    auto uses = typesOnLine(l, isHandled ? arrow : std::string_view::npos);
    if (!uses.ok())
      return uses.error();
    if (!name.empty())
      for (const TypeUse& u : *uses)
        if (u.index >= 0)
          typeUsers_[u.index].insert(name);
    if (name == "tt.func")
      pointerArguments(t);
    if (name == "tt.load" || name == "tt.store")
      return globalAccessLine(l, name, *uses, colon, sigEnd, lead);
    if (!isHandled) {
      if (!name.empty() && looksDataMoving(name))
        notUnderstood("op", utf8Prefix(trim(t.substr(0, sigEnd)), 160),
                      where(source_, l.number, column(lead)),
                      name + " looks like it moves data between layouts, but llcheck does not "
                             "read it");
      return Error{};
    }
    TtgirOp op;
    op.name = name;
    op.line = l.number;
    op.location = locationOf(l);
    const TypeUse* src = nullptr;
    const TypeUse* dst = nullptr;
    for (const TypeUse& u : *uses) {
      if (colon == std::string_view::npos || u.begin < colon || arrow == std::string_view::npos)
        continue;
      if (u.begin < arrow && !src)
        src = &u;
      if (u.begin > arrow && !dst)
        dst = &u;
    }
    bool allocWithoutValue = (name == "ttg.local_alloc" || name == "ttng.tmem_alloc") && !src;
    if (!dst || (!src && !allocWithoutValue)) {
      notUnderstood("op", utf8Prefix(trim(t.substr(0, sigEnd)), 160),
                    where(source_, l.number, column(lead)),
                    "cannot read the source and destination types of " + name +
                        " (expected ': SOURCE -> DESTINATION')");
      return Error{};
    }
    const TtgirType& d = module_.types[static_cast<std::size_t>(dst->index)];
    op.dst = {d.text, -1};
    op.shape = d.shape;
    op.elementType = d.elementType;
    if (src) {
      const TtgirType& s = module_.types[static_cast<std::size_t>(src->index)];
      op.src = TtgirOperand{s.text, -1};
      if (startsWith(op.elementType, "!tt.ptr"))
        op.elementType = s.elementType;
    }
    opTypes_.push_back({src ? src->index : -1, dst->index});
    module_.ops.push_back(std::move(op));
    return Error{};
  }

  std::vector<std::pair<int, int>> opTypes_;

  /// "file.py:40:12" from the line's loc(...), or "FILE.ttgir:LINE" when it has none.
  std::string locationOf(const LineRef& l) {
    std::string_view loc = trailingLoc(l.text);
    if (!locResolver_)
      locResolver_.emplace(locAliases_);
    auto resolved = loc.empty() ? std::nullopt : locResolver_->resolve(loc);
    return resolved ? *resolved : source_ + ":" + std::to_string(l.number);
  }

  /// tt.load / tt.store: the signature after " : " is the pointer tensor's type
  /// (`tensor<64x32x!tt.ptr<f16>, #blocked>`); a scalar pointer has no layout and is skipped, a
  /// block pointer (`!tt.ptr<tensor<...>>`) is listed as not understood.
  Error globalAccessLine(const LineRef& l, const std::string& name,
                         const std::vector<TypeUse>& uses, std::size_t colon, std::size_t sigEnd,
                         std::size_t lead) {
    if (colon == std::string_view::npos)
      return Error{};
    std::string_view t = l.text;
    for (const TypeUse& u : uses) {
      if (u.begin < colon)
        continue;
      const TtgirType& type = module_.types[static_cast<std::size_t>(u.index)];
      if (type.kind != TtgirType::Kind::Tensor)
        continue;
      if (!startsWith(type.elementType, "!tt.ptr<") || type.elementType.back() != '>') {
        notUnderstood("op", utf8Prefix(trim(t.substr(0, sigEnd)), 160),
                      where(source_, l.number, column(lead)),
                      name + " of a block pointer: llcheck reads tensors of pointers only");
        return Error{};
      }
      TtgirGlobalAccess access;
      access.op = name;
      access.pointers = {type.text, -1};
      access.shape = type.shape;
      access.elementType = type.elementType.substr(8, type.elementType.size() - 9);
      access.line = l.number;
      access.location = locationOf(l);
      globalTypes_.push_back(u.index);
      module_.globalAccesses.push_back(std::move(access));
      return Error{};
    }
    return Error{};
  }

  std::vector<int> globalTypes_;

  /// `%a: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc(...)`, for each pointer argument (a
  /// scan, not a regex: a hostile line may be megabytes long).
  void pointerArguments(std::string_view t) {
    static constexpr std::string_view kPointer = ": !tt.ptr<", kDivisibility = "tt.divisibility = ";
    for (std::size_t at = t.find(kPointer); at != std::string_view::npos;
         at = t.find(kPointer, at + 1)) {
      std::size_t nameEnd = at, nameBegin = at;
      while (nameBegin > 0 && t[nameBegin - 1] != '%' && t[nameBegin - 1] != ' ' &&
             t[nameBegin - 1] != '(')
        --nameBegin;
      if (nameBegin == 0 || t[nameBegin - 1] != '%' || nameBegin == nameEnd)
        continue;
      TtgirPointerArgument a;
      a.name = std::string(t.substr(nameBegin, nameEnd - nameBegin));
      std::size_t i = at + kPointer.size();
      for (int depth = 1; i < t.size() && depth > 0; ++i)
        depth += t[i] == '<' ? 1 : t[i] == '>' ? -1 : 0;
      if (i + 1 < t.size() && t[i] == ' ' && t[i + 1] == '{') {
        std::size_t close = t.find('}', i);
        std::string_view attributes = t.substr(i, close == std::string_view::npos ? 0 : close - i);
        std::size_t d = attributes.find(kDivisibility);
        if (d != std::string_view::npos) {
          std::string_view digits = attributes.substr(d + kDivisibility.size());
          uint64_t v = 0;
          auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
          if (ec == std::errc())
            a.divisibility = v;
        }
      }
      module_.pointerArguments.push_back(std::move(a));
    }
  }

  // ---- Encodings and layouts -------------------------------------------------------------------

  /// Replaces every alias in `v` by its definition; an alias used but never defined is an Error
  /// (MLIR refuses such a file), one whose definition could not be read is `broken`.
  Error substitute(AttrValue& v, int depth, std::string& broken) {
    if (depth > kMaxAliasDepth)
      return makeError("aliases nested more than " + std::to_string(kMaxAliasDepth) +
                           " levels deep (a cycle?)",
                       attrLocation(source_, v));
    if (v.kind == AttrValue::Kind::Alias) {
      auto bad = brokenAliases_.find(v.text);
      if (bad != brokenAliases_.end()) {
        broken = "alias #" + v.text + " could not be read: " + bad->second;
        return Error{};
      }
      auto it = aliases_.find(v.text);
      if (it == aliases_.end())
        return makeError("#" + v.text + " is used but never defined (no line '#" + v.text +
                             " = ...')",
                         attrLocation(source_, v));
      v = it->second;
      return substitute(v, depth + 1, broken);
    }
    for (AttrValue& e : v.elements)
      if (Error err = substitute(e, depth, broken); !err.message.empty())
        return err;
    for (AttrEntry& e : v.entries)
      if (Error err = substitute(e.second, depth, broken); !err.message.empty())
        return err;
    return Error{};
  }

  /// The shape an encoding is laid over: the type's, except that the leading dims of a
  /// memdesc up to its last non-power-of-two one count the buffers of a pipelined allocation
  /// (3x64x32 for 3 stages), and each buffer has the layout of the trailing dims.
  static std::vector<uint64_t> layoutShape(const TtgirType& type) {
    if (type.kind != TtgirType::Kind::MemDesc)
      return type.shape;
    std::size_t first = 0;
    for (std::size_t d = 0; d < type.shape.size(); ++d)
      if ((type.shape[d] & (type.shape[d] - 1)) != 0)
        first = d + 1;
    if (first == type.shape.size())
      return type.shape;
    return std::vector<uint64_t>(type.shape.begin() + static_cast<std::ptrdiff_t>(first),
                                 type.shape.end());
  }

  Error computeLayouts() {
    std::map<std::pair<std::string, std::vector<uint64_t>>, int> index;
    for (std::size_t ti = 0; ti < module_.types.size(); ++ti) {
      TtgirType& type = module_.types[ti];
      if (type.kind == TtgirType::Kind::MemDesc && !type.memorySpace.empty()) {
        // The memory space must be a defined alias or attribute, like any other.
        auto space = parseAttributeAt(type.memorySpace, 0, 1, source_);
        if (space.ok()) {
          AttrValue sv = space->value;
          sv.line = type.line;
          sv.column = type.column;
          std::string broken;
          if (Error e = substitute(sv, 0, broken); !e.message.empty())
            return e;
        }
      }
      if (!typeEncodings_[ti])
        continue;
      AttrValue enc = *typeEncodings_[ti];
      std::string broken;
      if (Error e = substitute(enc, 0, broken); !e.message.empty())
        return e;
      std::string attribute = broken.empty() ? printAttr(enc) : type.encoding;
      std::vector<uint64_t> shape = layoutShape(type);
      auto key = std::make_pair(attribute, shape);
      auto it = index.find(key);
      if (it != index.end()) {
        type.layout = it->second;
        continue;
      }
      TtgirLayout layout;
      layout.encoding = type.encoding;
      layout.attribute = attribute;
      layout.shape = shape;
      layout.kind = type.kind == TtgirType::Kind::Tensor ? "tensor" : "memdesc";
      if (shape != type.shape)
        layout.kind += " (one buffer of " + shapeText(type.shape) + ")";
      layout.line = type.line;
      layout.column = type.column;
      std::string at = where(source_, type.line, type.column);
      std::string what = type.encoding + " over " + shapeText(shape);
      if (!broken.empty()) {
        layout.error = broken;
        notUnderstood("encoding", what, at, broken);
      } else {
        LayoutContext opts;
        opts.shape = shape;
        opts.numWarps = module_.numWarps;
        opts.threadsPerWarp = module_.threadsPerWarp;
        opts.triton = options_.triton;
        auto l = attributeToLayout(enc, opts, source_);
        // A memdesc may hold several buffers of an encoding of lower rank (2x64x32 with a
        // rank-2 #shared, 2x1 barriers with a rank-1 one): each buffer has the encoding's
        // layout over the trailing dims, as ttg.memdesc_index shows.
        for (std::size_t keep = shape.size() < 2 ? 0 : shape.size() - 1;
             !l.ok() && type.kind == TtgirType::Kind::MemDesc && keep >= 1; --keep) {
          std::vector<uint64_t> trailing(shape.end() - static_cast<std::ptrdiff_t>(keep),
                                         shape.end());
          opts.shape = trailing;
          auto buffer = attributeToLayout(enc, opts, source_);
          if (buffer.ok()) {
            l = std::move(buffer);
            layout.shape = trailing;
            layout.kind = "memdesc (one buffer of " + shapeText(type.shape) + ")";
          }
        }
        if (l.ok()) {
          layout.layout = *l;
        } else {
          layout.error = l.error().str();
          bool unsupported = l.error().message.find("is not supported yet") != std::string::npos;
          notUnderstood("encoding", what, at, layout.error, unsupported);
        }
      }
      type.layout = static_cast<int>(module_.layouts.size());
      index[key] = type.layout;
      module_.layouts.push_back(std::move(layout));
    }
    for (std::size_t i = 0; i < module_.ops.size(); ++i) {
      auto [src, dst] = opTypes_[i];
      if (src >= 0 && module_.ops[i].src)
        module_.ops[i].src->layout = module_.types[static_cast<std::size_t>(src)].layout;
      module_.ops[i].dst.layout = module_.types[static_cast<std::size_t>(dst)].layout;
    }
    for (std::size_t i = 0; i < module_.globalAccesses.size(); ++i)
      module_.globalAccesses[i].pointers.layout =
          module_.types[static_cast<std::size_t>(globalTypes_[i])].layout;
    for (const auto& [ti, names] : typeUsers_) {
      int li = module_.types[static_cast<std::size_t>(ti)].layout;
      if (li < 0)
        continue;
      std::vector<std::string>& users = module_.layouts[static_cast<std::size_t>(li)].users;
      users.insert(users.end(), names.begin(), names.end());
      std::sort(users.begin(), users.end());
      users.erase(std::unique(users.begin(), users.end()), users.end());
    }
    return Error{};
  }
};

} // namespace

const std::vector<std::string>& ttgirDataMovingOps() {
  // Each is printed as `OP operands : SOURCE -> DESTINATION` (local_alloc: `() -> DESTINATION`
  // when it allocates without a value).
  static const std::vector<std::string> kOps = {"ttg.convert_layout",
                                                "ttg.local_alloc",
                                                "ttg.local_load",
                                                "ttg.local_store",
                                                "ttg.async_copy_global_to_local",
                                                "ttg.memdesc_index",
                                                "ttg.memdesc_subslice",
                                                "ttg.memdesc_trans",
                                                "ttg.memdesc_reshape",
                                                "ttng.tmem_alloc",
                                                "ttng.tmem_load",
                                                "ttng.tmem_store",
                                                "amdg.in_thread_transpose"};
  return kOps;
}

bool looksLikeTtgir(std::string_view text) {
  if (startsWith(text, "\xEF\xBB\xBF"))
    text.remove_prefix(3);
  std::string_view t = trim(text);
  std::string_view first = t.substr(0, t.find('\n'));
  if (startsWith(first, "module") &&
      (first.size() == 6 || first[6] == ' ' || first[6] == '{' || first[6] == '@'))
    return true;
  if (!startsWith(first, "#"))
    return false;
  std::size_t i = 1;
  while (i < first.size() && identChar(first[i]))
    ++i;
  while (i < first.size() && first[i] == ' ')
    ++i;
  return i > 1 && i < first.size() && first[i] == '=';
}

Result<TtgirModule> readTtgir(std::string_view text, const std::string& source,
                              const TtgirOptions& options) {
  if (startsWith(text, "\xEF\xBB\xBF"))
    text.remove_prefix(3); // a UTF-8 byte order mark, as some editors write
  Reader r(text, source, options);
  return r.read();
}

} // namespace llcheck
