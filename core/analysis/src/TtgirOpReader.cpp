// Reading a TTGIR module's lines into ops (TtgirOpReader.h).
#include "TtgirOpReader.h"

#include "llcheck/core/Ttgir.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <unordered_map>

namespace llcheck::detail {

namespace {

bool nameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-' || c == '#';
}

/// The line without its loc(...) groups (the trailing one, and those of block and function
/// arguments), outside strings.
std::string withoutLocations(std::string_view t) {
  std::string out;
  out.reserve(t.size());
  bool inString = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '"' && (i == 0 || t[i - 1] != '\\'))
      inString = !inString;
    if (!inString && t.compare(i, 4, "loc(") == 0 &&
        (i == 0 || t[i - 1] == ' ' || t[i - 1] == '(' || t[i - 1] == ',')) {
      int depth = 0;
      bool str = false;
      std::size_t j = i + 3;
      for (; j < t.size(); ++j) {
        if (t[j] == '"' && t[j - 1] != '\\')
          str = !str;
        else if (!str && t[j] == '(')
          ++depth;
        else if (!str && t[j] == ')' && --depth == 0)
          break;
      }
      while (!out.empty() && out.back() == ' ')
        out.pop_back();
      i = j;
      continue;
    }
    out += c;
  }
  return out;
}

std::string key(int function, std::string_view name) {
  return std::to_string(function) + ":" + std::string(name);
}

/// Every %name token of `t` outside attribute dictionaries.
std::vector<std::string_view> valueNames(std::string_view t) {
  std::vector<std::string_view> names;
  int braces = 0;
  bool inString = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '"')
      inString = !inString;
    if (inString)
      continue;
    if (c == '{')
      ++braces;
    else if (c == '}')
      braces = std::max(0, braces - 1);
    else if (c == '%' && braces == 0) {
      std::size_t j = i + 1;
      while (j < t.size() && nameChar(t[j]))
        ++j;
      names.push_back(t.substr(i, j - i));
      i = j - 1;
    }
  }
  return names;
}

class OpReader {
public:
  OpReader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  std::vector<ParsedOp> read(std::vector<std::string>& problems) {
    std::size_t start = 0;
    int number = 0;
    while (start <= text_.size()) {
      std::size_t end = text_.find('\n', start);
      if (end == std::string_view::npos)
        end = text_.size();
      ++number;
      line(trimmed(text_.substr(start, end - start)), number, problems);
      start = end + 1;
    }
    return std::move(ops_);
  }

private:
  std::string_view text_;
  const std::string& source_;
  std::vector<ParsedOp> ops_;
  /// The ops whose regions are open, innermost last (-1: a region of an op not recorded).
  std::vector<int> regions_;
  int function_ = 0;
  static constexpr int64_t kMaxResults = int64_t{1} << 20;
  int64_t results_ = 0;
  /// MLIR names a value uniquely only among the values visible at its definition: sibling
  /// regions (two scf.for bodies) reuse names. A value is keyed by its name and how many values
  /// of that name came before it; a use reads the latest, the one in scope in valid SSA.
  std::unordered_map<std::string, int> definitions_;

  static std::string versioned(const std::string& k, int n) {
    return n == 0 ? k : k + "~" + std::to_string(n);
  }

  std::string define(std::string_view name) {
    std::string k = key(function_, name);
    return versioned(k, definitions_[k]++);
  }

  std::string use(std::string_view name) {
    std::string k = key(function_, name);
    auto it = definitions_.find(k);
    return it == definitions_.end() ? k : versioned(k, it->second - 1);
  }

  void line(std::string_view raw, int number, std::vector<std::string>& problems) {
    if (raw.empty() || raw.front() == '#' || raw.rfind("//", 0) == 0)
      return;
    if (raw.rfind("module", 0) == 0) {
      if (raw.back() == '{')
        regions_.push_back(-1);
      return;
    }
    std::string s = withoutLocations(raw);
    std::string_view t = trimmed(s);
    if (t.empty())
      return;
    if (t.front() == '}') {
      int owner = -1;
      if (!regions_.empty()) {
        owner = regions_.back();
        regions_.pop_back();
      }
      if (owner >= 0)
        ops_[static_cast<std::size_t>(owner)].regionEnds.push_back(static_cast<int>(ops_.size()));
      std::string_view rest = trimmed(t.substr(1));
      if (!rest.empty() && rest.back() == '{' && rest.front() != ')') // } else {, } do {
        regions_.push_back(owner);
      return;
    }
    if (t.rfind("^bb", 0) == 0) {
      ParsedOp op;
      op.name = "^bb";
      op.line = number;
      op.function = function_;
      op.body = std::string(t.substr(0, t.find_first_of("(: ")));
      std::size_t open = t.find('('), close = t.rfind(')');
      if (open != std::string_view::npos && close != std::string_view::npos && close > open)
        arguments(t.substr(open + 1, close - open - 1), op);
      ops_.push_back(std::move(op));
      return;
    }
    ParsedOp op;
    op.line = number;
    std::string_view rest = t;
    if (t.front() == '%') {
      auto eq = topLevel(t, " = ");
      if (eq.empty()) {
        problems.push_back(source_ + ":" + std::to_string(number) + ": cannot read the results");
        return;
      }
      std::string_view results = t.substr(0, eq.front());
      rest = trimmed(t.substr(eq.front() + 3));
      for (std::string_view r : splitTop(results)) {
        std::size_t colon = r.find(':');
        if (colon == std::string_view::npos) {
          op.results.push_back(std::string(r));
          continue;
        }
        auto n = leadingInteger(r.substr(colon + 1));
        // `%r:N` names N results. A module holds few; a hostile one could ask for billions,
        // so the names are bounded in all (past the bound, the rest are unknown values).
        int64_t count = n ? std::clamp<int64_t>(*n, 0, kMaxResults - results_) : 0;
        if (n && count < *n)
          problems.push_back(source_ + ":" + std::to_string(number) + ": more than " +
                             std::to_string(kMaxResults) + " results in the module");
        results_ += count;
        for (int64_t k = 0; k < count; ++k)
          op.results.push_back(std::string(r.substr(0, colon)) + "#" + std::to_string(k));
      }
    }
    std::size_t nameEnd = 0;
    if (!rest.empty() && rest.front() == '"') {
      std::size_t close = rest.find('"', 1);
      op.name = std::string(rest.substr(1, close == std::string_view::npos ? 0 : close - 1));
      nameEnd = close == std::string_view::npos ? rest.size() : close + 1;
    } else {
      while (nameEnd < rest.size() && nameChar(rest[nameEnd]))
        ++nameEnd;
      op.name = std::string(rest.substr(0, nameEnd));
    }
    op.body = std::string(trimmed(rest.substr(nameEnd)));
    if (op.name == "tt.func")
      ++function_;
    op.function = function_;
    for (std::string& r : op.results)
      r = define(r);
    std::string_view body = op.body;
    bool opensRegion = !body.empty() && body.back() == '{';
    if (op.name == "tt.func") {
      std::size_t open = body.find('(');
      if (open != std::string_view::npos)
        arguments(body.substr(open + 1, matchingParen(body, open) - open - 1), op);
    } else if (op.name == "scf.for") {
      forHeader(body, op);
    } else {
      // Operands: up to the signature's " : " (or, for ops with a region, the region's "(").
      auto colons = topLevel(body, " : ");
      std::string_view operands = colons.empty() ? body : body.substr(0, colons.front());
      if (opensRegion && op.name == "scf.if")
        operands = operands.substr(0, operands.find("->"));
      for (std::string_view n : valueNames(operands))
        op.operands.push_back(use(n));
      if (!colons.empty())
        signature(body.substr(colons.front() + 3), op);
    }
    int index = static_cast<int>(ops_.size());
    if (op.name == "scf.yield" && !regions_.empty() && regions_.back() >= 0) {
      int owner = regions_.back();
      const std::string& ownerName = ops_[static_cast<std::size_t>(owner)].name;
      if (ownerName == "scf.for" || ownerName == "scf.if") {
        op.yieldsTo = owner;
        ops_[static_cast<std::size_t>(owner)].yields.push_back(index);
      }
    }
    ops_.push_back(std::move(op));
    if (opensRegion)
      regions_.push_back(index);
  }

  static std::size_t matchingParen(std::string_view t, std::size_t open) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = open; i < t.size(); ++i) {
      if (t[i] == '"')
        inString = !inString;
      else if (!inString && t[i] == '(')
        ++depth;
      else if (!inString && t[i] == ')' && --depth == 0)
        return i;
    }
    return t.size();
  }

  /// `%a: T {attrs}, %b: T` (tt.func, ^bb).
  void arguments(std::string_view list, ParsedOp& op) {
    for (std::string_view a : splitTop(list)) {
      std::size_t colon = a.find(':');
      if (a.empty() || a.front() != '%' || colon == std::string_view::npos)
        continue;
      std::string_view name = trimmed(a.substr(0, colon));
      std::string_view rest = trimmed(a.substr(colon + 1));
      auto brace = topLevel(rest, "{");
      std::string_view type = brace.empty() ? rest : trimmed(rest.substr(0, brace.front()));
      std::string_view attrs = brace.empty() ? std::string_view{} : rest.substr(brace.front());
      op.arguments.emplace_back(define(name), parseType(type), std::string(attrs));
    }
  }

  /// `%iv = %lb to %ub step %st iter_args(%a = %x, ...) -> (T, ...) : i32 {`
  void forHeader(std::string_view body, ParsedOp& op) {
    auto names = valueNames(body.substr(0, body.find("iter_args")));
    if (names.size() >= 4) {
      op.lowerBound = use(names[1]);
      op.upperBound = use(names[2]);
      op.step = use(names[3]);
      op.inductionVariable = define(names[0]);
    }
    std::size_t iter = body.find("iter_args(");
    if (iter != std::string_view::npos) {
      std::size_t open = iter + 9;
      std::string_view list = body.substr(open + 1, matchingParen(body, open) - open - 1);
      for (std::string_view pair : splitTop(list)) {
        auto n = valueNames(pair);
        if (n.size() == 2) {
          std::string initial = use(n[1]);
          op.iterArgs.emplace_back(define(n[0]), std::move(initial));
        }
      }
    }
  }

  /// The types after " : ": the result's (after "->" or " to " where there is one; a select's
  /// last; otherwise the first) and the first operand's.
  static void signature(std::string_view sig, ParsedOp& op) {
    std::string_view s = trimmed(sig);
    if (!s.empty() && s.back() == '{')
      s = trimmed(s.substr(0, s.size() - 1));
    auto arrows = topLevel(s, "->");
    auto tos = topLevel(s, " to ");
    std::string_view operandsPart = s, resultPart;
    if (!arrows.empty()) {
      operandsPart = s.substr(0, arrows.back());
      resultPart = trimmed(s.substr(arrows.back() + 2));
    } else if (!tos.empty()) {
      operandsPart = s.substr(0, tos.back());
      resultPart = trimmed(s.substr(tos.back() + 4));
    }
    operandsPart = trimmed(operandsPart);
    if (!operandsPart.empty() && operandsPart.front() == '(' && operandsPart.back() == ')')
      operandsPart = operandsPart.substr(1, operandsPart.size() - 2);
    for (std::string_view part : splitTop(operandsPart))
      op.operandTypes.push_back(parseType(part));
    op.operandType = op.operandTypes.empty() ? ValueType{} : op.operandTypes.front();
    if (!resultPart.empty()) {
      if (resultPart.front() == '(' && resultPart.back() == ')')
        resultPart = splitTop(resultPart.substr(1, resultPart.size() - 2)).front();
      op.resultType = parseType(resultPart);
    } else if (op.name == "arith.select") {
      op.resultType = op.operandTypes.back();
    } else {
      op.resultType = op.operandType;
    }
  }
};

} // namespace

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

std::vector<std::size_t> topLevel(std::string_view t, std::string_view needle) {
  std::vector<std::size_t> at;
  int depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '"')
      inString = !inString;
    if (inString)
      continue;
    if (depth == 0 && t.compare(i, needle.size(), needle) == 0)
      at.push_back(i);
    if (c == '(' || c == '[' || c == '{' || (c == '<' && (i == 0 || t[i - 1] != '-')))
      ++depth;
    else if (c == ')' || c == ']' || c == '}' || (c == '>' && (i == 0 || t[i - 1] != '-')))
      depth = std::max(0, depth - 1);
  }
  return at;
}

std::vector<std::string_view> splitTop(std::string_view t) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t at : topLevel(t, ",")) {
    parts.push_back(trimmed(t.substr(start, at - start)));
    start = at + 1;
  }
  parts.push_back(trimmed(t.substr(start)));
  return parts;
}

ValueType parseType(std::string_view t) {
  t = trimmed(t);
  ValueType v;
  if (t.rfind("tensor<", 0) == 0 && t.back() == '>') {
    std::string_view body = t.substr(7, t.size() - 8);
    std::size_t i = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) {
      uint64_t d = 0;
      auto [p, ec] = std::from_chars(body.data() + i, body.data() + body.size(), d);
      std::size_t after = static_cast<std::size_t>(p - body.data());
      if (ec != std::errc() || after >= body.size() || body[after] != 'x')
        break;
      v.shape.push_back(d);
      i = after + 1;
    }
    if (v.shape.empty())
      return v;
    auto parts = splitTop(body.substr(i));
    v.element = std::string(parts.front());
    return v;
  }
  if (t.find_first_of("<{( ") == std::string_view::npos || t.rfind("!tt.ptr<", 0) == 0) {
    v.element = std::string(t);
  }
  return v;
}

std::optional<int64_t> leadingInteger(std::string_view s) {
  s = trimmed(s);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data())
    return std::nullopt;
  return v;
}

bool integerAttribute(std::string_view t, std::string_view key, int64_t& out) {
  auto v = ttgirOpAttribute(t, key);
  if (!v)
    return false;
  std::string_view s = trimmed(*v);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p != s.data();
}

std::optional<std::vector<int64_t>> hintVector(std::string_view value) {
  value = trimmed(value);
  if (value.rfind("dense<", 0) == 0) {
    std::size_t close = value.find('>');
    if (close == std::string_view::npos)
      return std::nullopt;
    std::string_view inner = trimmed(value.substr(6, close - 6));
    if (!inner.empty() && inner.front() == '[') {
      std::vector<int64_t> out;
      std::string_view list = inner.substr(1, inner.size() >= 2 ? inner.size() - 2 : 0);
      for (std::string_view part : splitTop(list)) {
        auto v = leadingInteger(part);
        if (!v)
          return std::nullopt;
        out.push_back(*v);
      }
      return out;
    }
    // A splat dense<16> : tensor<Nxi32>: N copies.
    auto v = leadingInteger(inner);
    if (!v)
      return std::nullopt;
    std::size_t tensor = value.find("tensor<", close);
    std::size_t n = 1;
    if (tensor != std::string_view::npos) {
      auto count = leadingInteger(value.substr(tensor + 7));
      if (count && *count > 0 && *count <= 16)
        n = static_cast<std::size_t>(*count);
    }
    return std::vector<int64_t>(n, *v);
  }
  auto v = leadingInteger(value);
  if (!v)
    return std::nullopt;
  return std::vector<int64_t>{*v};
}

std::string displayName(const std::string& k) {
  std::string name = k.substr(k.find(':') + 1);
  return name.substr(0, name.find('~'));
}

std::vector<ParsedOp> readTtgirOps(std::string_view text, const std::string& source,
                                   std::vector<std::string>& problems) {
  OpReader reader(text, source);
  return reader.read(problems);
}

} // namespace llcheck::detail
