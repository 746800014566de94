// The TTGIR reader's passes over the raw text (TtgirReader.h): the structure check that runs
// before anything is read (brackets and strings balanced, which is what catches a file cut short),
// and the source locations of ops (`loc(...)`, followed through location aliases).
#include "TtgirReader.h"

namespace llcheck::ttgir {

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

namespace {

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

} // namespace

std::optional<std::string> LocResolver::resolve(std::string_view loc, int depth) {
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

std::optional<std::string> LocResolver::firstOf(const std::vector<std::string_view>& parts,
                                                int depth) {
  for (std::string_view p : parts)
    if (auto r = resolve(p, depth + 1))
      return r;
  return std::nullopt;
}

std::optional<std::string> LocResolver::alias(const std::string& name, int depth) {
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

} // namespace llcheck::ttgir
