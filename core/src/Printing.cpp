// Triton's printed form of a linear layout, both ways.
#include "llcheck/core/Formats.h"

#include <cctype>
#include <charconv>

namespace llcheck {

std::string LinearLayout::toString() const {
  std::string outDimsStr = "[";
  for (std::size_t k = 0; k < outs_.size(); ++k)
    outDimsStr += (k ? ", " : "") + outs_[k].name.str() + " (size " +
                  std::to_string(pow2(outs_[k].sizeLog2)) + ")";
  outDimsStr += "]";
  if (ins_.empty())
    return outs_.empty() ? "\n(empty layout)" : "\n(empty layout with out-dims " + outDimsStr + ")";
  std::string ret = "\n";
  std::size_t j = 0;
  for (const Dim& d : ins_) {
    if (d.sizeLog2 == 0) {
      ret += " - " + d.name.str() + " is a size 1 dimension\n";
      continue;
    }
    for (int i = 0; i < d.sizeLog2; ++i, ++j) {
      ret += i == 0 ? " - " : "   ";
      ret += d.name.str() + "=" + std::to_string(uint64_t{1} << i) + " -> (";
      Point values = unpackOut(columns_[j]);
      for (std::size_t k = 0; k < values.size(); ++k)
        ret += (k ? ", " : "") + std::to_string(values[k].second);
      ret += ")\n";
    }
  }
  return ret + "where out dims are: " + outDimsStr;
}

namespace {

/// A cursor over one line, for error messages with line and column.
struct LineCursor {
  std::string_view s;
  std::size_t pos = 0;
  int line = 0;
  const std::string* source;

  Error error(const std::string& message) const {
    return makeError(message, *source + ":" + std::to_string(line) + ":" + std::to_string(pos + 1));
  }
  void skipSpaces() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t'))
      ++pos;
  }
  bool eat(std::string_view lit) {
    skipSpaces();
    if (s.substr(pos, lit.size()) != lit)
      return false;
    pos += lit.size();
    return true;
  }
  bool atEnd() {
    skipSpaces();
    return pos >= s.size();
  }
  std::optional<uint64_t> number() {
    skipSpaces();
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data() + pos, s.data() + s.size(), v);
    if (ec != std::errc() || p == s.data() + pos)
      return std::nullopt;
    pos = static_cast<std::size_t>(p - s.data());
    return v;
  }
  std::string name() {
    skipSpaces();
    std::size_t start = pos;
    while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' ||
                              s[pos] == '.' || s[pos] == '-'))
      ++pos;
    return std::string(s.substr(start, pos - start));
  }
};

} // namespace

Result<LinearLayout> parseTritonString(std::string_view text, const std::string& source) {
  if (text.size() > kMaxInputBytes)
    return makeError("input is " + std::to_string(text.size()) + " bytes; the limit is " +
                         std::to_string(kMaxInputBytes),
                     source);
  std::vector<DimBases> bases;
  std::vector<DimSize> outs;
  bool sawOuts = false, sawEmpty = false;
  std::vector<std::vector<uint64_t>> pendingValues; // per basis line, before outs are known
  int lineNo = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++lineNo;
    if (!raw.empty() && raw.back() == '\r')
      raw.remove_suffix(1);
    LineCursor c{raw, 0, lineNo, &source};
    c.skipSpaces();
    if (c.s.substr(c.pos, 2) == "//")
      c.pos += 2;
    if (c.atEnd())
      continue;
    if (raw.find('\0') != std::string_view::npos)
      return c.error("unexpected NUL byte");
    if (sawOuts || sawEmpty)
      return c.error("unexpected text after the end of the layout");
    if (c.eat("(empty layout")) {
      if (!bases.empty())
        return c.error("'(empty layout' after input dimensions");
      sawEmpty = true;
      if (c.eat(")"))
        continue;
      if (!c.eat("with out-dims"))
        return c.error("expected ')' or 'with out-dims ['");
      // falls through to the out-dims list below
    } else if (c.eat("where out dims are:")) {
      sawOuts = true;
    } else {
      bool newDim = c.eat("- ");
      if (!newDim && bases.empty())
        return c.error("expected ' - <dim>=1 -> (...)', ' - <dim> is a size 1 dimension' or "
                       "'(empty layout)'");
      std::string dim = c.name();
      if (dim.empty())
        return c.error("expected an input dimension name");
      if (c.eat("is a size 1 dimension")) {
        if (!newDim)
          return c.error("'is a size 1 dimension' must start a new ' - ' item");
        if (!c.atEnd())
          return c.error("unexpected text after 'is a size 1 dimension'");
        bases.push_back({DimName(dim), {}});
        continue;
      }
      if (newDim)
        bases.push_back({DimName(dim), {}});
      DimBases& cur = bases.back();
      if (DimName(dim) != cur.name)
        return c.error("basis of '" + dim + "' inside the list of '" + cur.name.str() +
                       "' (each dimension starts with ' - ')");
      if (!c.eat("="))
        return c.error("expected '=' after '" + dim + "'");
      auto point = c.number();
      std::size_t i = cur.bases.size();
      if (!point || i >= 63 || *point != (uint64_t{1} << i))
        return c.error("expected " + dim + "=" +
                       (i < 63 ? std::to_string(uint64_t{1} << i) : std::string("2^") +
                                                                       std::to_string(i)) +
                       " (bases are listed for 1, 2, 4, ... in order)");
      if (!c.eat("->") || !c.eat("("))
        return c.error("expected '-> ('");
      std::vector<uint64_t> values;
      if (!c.eat(")")) {
        while (true) {
          auto v = c.number();
          if (!v)
            return c.error("expected a non-negative integer");
          values.push_back(*v);
          if (c.eat(")"))
            break;
          if (!c.eat(","))
            return c.error("expected ',' or ')'");
        }
      }
      if (!c.atEnd())
        return c.error("unexpected text after ')'");
      cur.bases.push_back(std::move(values));
      continue;
    }
    // The out-dims list: [dim0 (size 64), dim1 (size 16)]
    if (!c.eat("["))
      return c.error("expected '['");
    if (!c.eat("]")) {
      while (true) {
        std::string name = c.name();
        if (name.empty())
          return c.error("expected an output dimension name");
        if (!c.eat("(size"))
          return c.error("expected '(size N)' after '" + name + "'");
        auto size = c.number();
        if (!size)
          return c.error("expected the size of '" + name + "'");
        if (!c.eat(")"))
          return c.error("expected ')'");
        outs.push_back({DimName(name), *size});
        if (c.eat("]"))
          break;
        if (!c.eat(","))
          return c.error("expected ',' or ']'");
      }
    }
    if (sawEmpty && !c.eat(")"))
      return c.error("expected ')' closing '(empty layout with out-dims'");
    if (!c.atEnd())
      return c.error("unexpected text after the out-dims list");
    if (sawEmpty)
      sawOuts = true;
  }
  if (!sawOuts && !sawEmpty)
    return makeError(bases.empty() ? "empty input: no layout found"
                                   : "truncated layout: missing the line 'where out dims are: [...]'",
                     source);
  auto l = LinearLayout::create(bases, outs, /*requireSurjective=*/false);
  if (!l.ok())
    return l.error().within(source);
  return l;
}

} // namespace llcheck
