// Reading Triton's printed form of a linear layout (LinearLayout::toString, in algebra/,
// writes it).
#include "llcheck/core/Formats.h"
#include "llcheck/core/TritonVersion.h"

#include <cctype>
#include <charconv>
#include <optional>

namespace llcheck {

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
  bool outOfRange = false; // set when the last number() failed because it was too large
  std::optional<uint64_t> number() {
    skipSpaces();
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data() + pos, s.data() + s.size(), v);
    outOfRange = ec == std::errc::result_out_of_range;
    if (ec != std::errc() || p == s.data() + pos)
      return std::nullopt;
    pos = static_cast<std::size_t>(p - s.data());
    return v;
  }
  /// The error for a failed number(): out of range, or not a number at all.
  Error numberError(const std::string& expected) const {
    return error(outOfRange ? "integer out of range (at most 2^64 - 1)" : expected);
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

/// `llcheck layout` ends an attribute's layout with the line `(Triton 3.9 semantics)`, the
/// release whose semantics it followed; the layout read back means the same in every release.
bool isSemanticsLine(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t'))
    line.remove_suffix(1);
  for (TritonVersion v : supportedTritonVersions())
    if (line == "(Triton " + tritonVersionName(v) + " semantics)")
      return true;
  return false;
}

/// What parseTritonString has read so far: the input dims' bases, the out dims, and where each
/// basis and the out-dims list were, for errors found once the layout is complete.
struct TritonStringState {
  std::vector<DimBases> bases;
  std::vector<DimSize> outs;
  std::vector<std::vector<int>> basisLines;
  int outsLine = 0;
  bool sawOuts = false, sawEmpty = false;
};

/// Starts the list of input dimension `dim` (it must not have appeared before).
std::optional<Error> newInputDim(TritonStringState& st, const LineCursor& c,
                                 const std::string& dim) {
  for (const DimBases& prev : st.bases)
    if (prev.name == DimName(dim))
      return c.error("input dimension '" + dim + "' appears twice");
  st.bases.push_back({DimName(dim), {}});
  st.basisLines.emplace_back();
  return std::nullopt;
}

/// ` - <dim>=1 -> (...)`, `   <dim>=2 -> (...)` or ` - <dim> is a size 1 dimension`.
std::optional<Error> readBasisLine(TritonStringState& st, LineCursor& c) {
  bool newDim = c.eat("- ");
  if (!newDim && st.bases.empty())
    return c.error("expected ' - <dim>=1 -> (...)', ' - <dim> is a size 1 dimension' or "
                   "'(empty layout)'");
  std::string dim = c.name();
  if (dim.empty())
    return c.error("expected an input dimension name");
  if (auto e = checkDimName(dim))
    return c.error(e->message);
  if (c.eat("is a size 1 dimension")) {
    if (!newDim)
      return c.error("'is a size 1 dimension' must start a new ' - ' item");
    if (!c.atEnd())
      return c.error("unexpected text after 'is a size 1 dimension'");
    return newInputDim(st, c, dim);
  }
  if (newDim) {
    if (auto e = newInputDim(st, c, dim))
      return e;
  }
  DimBases& cur = st.bases.back();
  if (DimName(dim) != cur.name)
    return c.error("basis of '" + dim + "' inside the list of '" + cur.name.str() +
                   "' (each dimension starts with ' - ')");
  if (!c.eat("="))
    return c.error("expected '=' after '" + dim + "'");
  auto point = c.number();
  std::size_t i = cur.bases.size();
  if (!point || i >= 63 || *point != (uint64_t{1} << i))
    return c.error(
        "expected " + dim + "=" +
        (i < 63 ? std::to_string(uint64_t{1} << i) : std::string("2^") + std::to_string(i)) +
        " (bases are listed for 1, 2, 4, ... in order)");
  if (!c.eat("->") || !c.eat("("))
    return c.error("expected '-> ('");
  std::vector<uint64_t> values;
  if (!c.eat(")")) {
    while (true) {
      auto v = c.number();
      if (!v)
        return c.numberError("expected a non-negative integer");
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
  st.basisLines.back().push_back(c.line);
  return std::nullopt;
}

/// The out-dims list: [dim0 (size 64), dim1 (size 16)], closed by ')' after '(empty layout with
/// out-dims'.
std::optional<Error> readOutDims(TritonStringState& st, LineCursor& c) {
  st.outsLine = c.line;
  if (!c.eat("["))
    return c.error("expected '['");
  if (!c.eat("]")) {
    while (true) {
      std::string name = c.name();
      if (name.empty())
        return c.error("expected an output dimension name");
      if (auto e = checkDimName(name))
        return c.error(e->message);
      if (!c.eat("(size"))
        return c.error("expected '(size N)' after '" + name + "'");
      auto size = c.number();
      if (!size)
        return c.numberError("expected the size of '" + name + "'");
      if (!c.eat(")"))
        return c.error("expected ')'");
      for (const DimSize& prev : st.outs)
        if (prev.name == DimName(name))
          return c.error("output dimension '" + name + "' appears twice");
      if (*size == 0 || (*size & (*size - 1)) != 0)
        return c.error("size " + std::to_string(*size) + " of '" + name +
                       "' is not a power of two");
      st.outs.push_back({DimName(name), *size});
      if (c.eat("]"))
        break;
      if (!c.eat(","))
        return c.error("expected ',' or ']'");
    }
  }
  if (st.sawEmpty && !c.eat(")"))
    return c.error("expected ')' closing '(empty layout with out-dims'");
  if (!c.atEnd())
    return c.error("unexpected text after the out-dims list");
  if (st.sawEmpty)
    st.sawOuts = true;
  return std::nullopt;
}

/// One line of the printed form (blank lines and a leading `//` skipped).
std::optional<Error> readTritonLine(TritonStringState& st, LineCursor& c) {
  c.skipSpaces();
  if (c.s.substr(c.pos, 2) == "//")
    c.pos += 2;
  if (c.atEnd())
    return std::nullopt;
  if (auto nul = c.s.find('\0'); nul != std::string_view::npos) {
    c.pos = nul;
    return c.error("unexpected NUL byte");
  }
  if ((st.sawOuts || st.sawEmpty) && isSemanticsLine(c.s.substr(c.pos)))
    return std::nullopt;
  if (st.sawOuts || st.sawEmpty)
    return c.error("unexpected text after the end of the layout");
  if (c.eat("(empty layout")) {
    if (!st.bases.empty())
      return c.error("'(empty layout' after input dimensions");
    st.sawEmpty = true;
    if (c.eat(")")) {
      if (!c.atEnd())
        return c.error("unexpected text after '(empty layout)'");
      return std::nullopt;
    }
    if (!c.eat("with out-dims"))
      return c.error("expected ')' or 'with out-dims ['");
    // the out-dims list follows on this line
  } else if (c.eat("where out dims are:")) {
    st.sawOuts = true;
  } else {
    return readBasisLine(st, c);
  }
  return readOutDims(st, c);
}

/// Each basis against the out dims, reported on the basis's own line.
std::optional<Error> checkBasesAgainstOuts(const TritonStringState& st, const std::string& source) {
  for (std::size_t d = 0; d < st.bases.size(); ++d)
    for (std::size_t i = 0; i < st.bases[d].bases.size(); ++i) {
      const auto& b = st.bases[d].bases[i];
      std::string where = source + ":" + std::to_string(st.basisLines[d][i]);
      if (b.size() != st.outs.size())
        return makeError(st.bases[d].name.str() + "=" + std::to_string(uint64_t{1} << i) + " has " +
                             std::to_string(b.size()) + (b.size() == 1 ? " value" : " values") +
                             " but there are " + std::to_string(st.outs.size()) +
                             " output dimensions (line " + std::to_string(st.outsLine) + ")",
                         where);
      for (std::size_t k = 0; k < b.size(); ++k)
        if (b[k] >= st.outs[k].size)
          return makeError(st.bases[d].name.str() + "=" + std::to_string(uint64_t{1} << i) +
                               ": value " + std::to_string(b[k]) + " is not below the size " +
                               std::to_string(st.outs[k].size) + " of '" + st.outs[k].name.str() +
                               "'",
                           where);
    }
  return std::nullopt;
}

} // namespace

Result<LinearLayout> parseTritonString(std::string_view text, const std::string& source) {
  if (text.size() > kMaxInputBytes)
    return makeError("input is " + std::to_string(text.size()) + " bytes; the limit is " +
                         std::to_string(kMaxInputBytes),
                     source);
  TritonStringState st;
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
    if (auto e = readTritonLine(st, c))
      return *e;
  }
  if (!st.sawOuts && !st.sawEmpty)
    return makeError(st.bases.empty()
                         ? "empty input: no layout found"
                         : "truncated layout: missing the line 'where out dims are: [...]'",
                     source);
  if (auto e = checkBasesAgainstOuts(st, source))
    return *e;
  auto l = LinearLayout::create(st.bases, st.outs, /*requireSurjective=*/false);
  if (!l.ok())
    return l.error().within(source + (st.outsLine ? ":" + std::to_string(st.outsLine) : ""));
  return l;
}

} // namespace llcheck
