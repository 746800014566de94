// The TTGIR reader's lines of types and ops (TtgirReader.h): every `tensor<...>` and
// `!ttg.memdesc<...>` type on a line, the data-moving ops with their source and destination
// types, tt.load / tt.store of tensors of pointers, and tt.func's pointer arguments.
#include "TtgirReader.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace llcheck::ttgir {

// ---- Types -----------------------------------------------------------------------------------

/// Reads "64x32xf16" up to the ',' or '>' that ends the element type; `i` is moved past it.
Result<bool> Reader::shapeAndElement(std::string_view t, std::size_t& i, TtgirType& type,
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
Result<AttrValue> Reader::attrAt(const LineRef& l, std::size_t& i) {
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
Result<int> Reader::typeAt(const LineRef& l, std::size_t at, std::size_t& end) {
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
Result<int> Reader::typeProblem(const LineRef& l, std::size_t at, const Error& e) {
  if (e.message.find("end of input") != std::string::npos)
    return e;
  std::size_t end = l.text.find('>', at);
  std::string text(l.text.substr(at, end == std::string_view::npos ? 60 : end - at + 1));
  notUnderstood("type", text, where(source_, l.number, column(at)), e.str());
  return -1;
}

/// Every tensor/memdesc type on the line, in order, outside strings.
Result<std::vector<Reader::TypeUse>> Reader::typesOnLine(const LineRef& l, std::size_t sigArrow) {
  std::vector<TypeUse> uses;
  std::string_view t = l.text;
  bool inString = false;
  // Braces outside types open an op's attribute dictionary: a tensor type there is an
  // attribute's (`{tt.divisibility = dense<128> : tensor<1xi32>}`), not a value's, and has no
  // encoding to read. (Braces inside a type, #ttg.blocked<{...}>, are skipped with the type.)
  int braces = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '"') {
      inString = !inString;
      continue;
    }
    if (inString)
      continue;
    if (c == '{' || c == '}') {
      braces = std::max(0, braces + (c == '{' ? 1 : -1));
      continue;
    }
    bool tensor = startsWith(t.substr(i), "tensor<") && (i == 0 || !identChar(t[i - 1]));
    if (tensor && braces > 0)
      continue;
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

namespace {

std::string opName(std::string_view t) {
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

/// The integer attribute `key` of the op's attribute dictionary (`{contiguity = 8 : i32}`);
/// nullopt when absent or not an integer.
std::optional<uint64_t> integerAttribute(std::string_view t, std::string_view key) {
  auto value = ttgirOpAttribute(t, key);
  if (!value)
    return std::nullopt;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(value->data(), value->data() + value->size(), v);
  if (ec != std::errc() || p == value->data())
    return std::nullopt;
  return v;
}

bool looksDataMoving(const std::string& name) {
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
      "ttng.warp_group_dot_wait", "ttng.async_tma_store_wait",
      // Global scratch for a device-side TMA descriptor (ttng.tensormap_create fills it).
      "ttg.global_scratch_alloc",
      // Global memory <-> registers in one layout, like tt.load / tt.store.
      "amdg.buffer_load", "amdg.buffer_store", "amdg.buffer_atomic_rmw", "amdg.buffer_atomic_cas"};
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

} // namespace

bool Reader::partitionLine(const LineRef& l, std::string_view trimmed, std::size_t lead) {
  if (startsWith(trimmed, "ttg.warp_specialize(")) {
    warpSpecialize_ = true;
    return false; // the op line itself is read as any other
  }
  if (!warpSpecialize_)
    return false;
  if (partition_ >= 0 && startsWith(trimmed, "}") && lead == partitionIndent_) {
    partition_ = -1;
    if (trimmed != "}")
      warpSpecialize_ = false; // `} : (...) -> ()` closes the warp_specialize
    return true;
  }
  bool isDefault = trimmed == "default {";
  bool isPartition = startsWith(trimmed, "partition") && trimmed.size() > 9 &&
                     std::isdigit(static_cast<unsigned char>(trimmed[9])) && trimmed.back() == '{';
  if (partition_ >= 0 || (!isDefault && !isPartition))
    return false;
  TtgirPartition p;
  p.name = std::string(trimmed.substr(0, isDefault ? 7 : trimmed.find('(')));
  p.line = l.number;
  if (std::size_t at = trimmed.rfind("num_warps("); isPartition && at != std::string_view::npos) {
    std::string_view digits = trimmed.substr(at + 10);
    uint64_t n = 0;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), n).ec == std::errc())
      p.numWarps = n;
  }
  partition_ = static_cast<int>(module_.partitions.size());
  partitionIndent_ = lead;
  module_.partitions.push_back(std::move(p));
  return true;
}

namespace {

/// A formula longer than this is not kept: a loop bound is a few operations of the kernel's
/// arguments, and an unbounded formula would grow with the kernel.
constexpr std::size_t kMaxFormula = 512;

bool isScalarInteger(std::string_view type) {
  for (std::string_view t : {"i32", "i64", "index"})
    if (startsWith(type, t) &&
        (type.size() == t.size() || type[t.size()] == ' ' || type[t.size()] == ')'))
      return true;
  return false;
}

} // namespace

void Reader::scalarLine(std::string_view trimmed) {
  // `%r = arith.addi %a, %b : i32`, `%pid = tt.get_program_id x : i32`
  std::size_t eq = trimmed.find(" = ");
  if (!startsWith(trimmed, "%") || eq == std::string_view::npos)
    return;
  std::string name(trimmed.substr(0, eq));
  if (name.find(':') != std::string::npos || name.find(' ') != std::string::npos)
    return;
  std::string_view rest = trimmed.substr(eq + 3);
  std::size_t space = rest.find(' ');
  if (space == std::string_view::npos)
    return;
  std::string_view op = rest.substr(0, space);
  std::size_t colon = rest.find(" : ");
  if (colon == std::string_view::npos || colon < space)
    return;
  std::string_view type = rest.substr(colon + 3);
  std::string_view args = trim(rest.substr(space + 1, colon - space - 1));
  if (!isScalarInteger(type))
    return;
  if (op == "tt.get_program_id" || op == "tt.get_num_programs") {
    if (args == "x" || args == "y" || args == "z")
      scalarFormulas_[name] =
          std::string(op == "tt.get_program_id" ? "pid_" : "num_programs_") + std::string(args);
    return;
  }
  std::vector<std::string> operands;
  for (std::string_view a = args; !a.empty();) {
    std::size_t comma = a.find(',');
    std::string operand(trim(a.substr(0, comma)));
    auto it = scalarFormulas_.find(operand);
    if (it == scalarFormulas_.end())
      return; // an operand with no formula (a loop-carried value, a tensor element, ...)
    operands.push_back(it->second);
    a = comma == std::string_view::npos ? std::string_view() : a.substr(comma + 1);
  }
  static const std::map<std::string_view, std::string_view> infix = {
      {"arith.addi", " + "}, {"arith.subi", " - "}, {"arith.muli", " * "}};
  static const std::map<std::string_view, std::string_view> calls = {
      {"arith.divsi", "div"},      {"arith.divui", "div"}, {"arith.ceildivsi", "cdiv"},
      {"arith.ceildivui", "cdiv"}, {"arith.remsi", "rem"}, {"arith.remui", "rem"},
      {"arith.maxsi", "max"},      {"arith.maxui", "max"}, {"arith.minsi", "min"},
      {"arith.minui", "min"}};
  std::string formula;
  if (auto i = infix.find(op); i != infix.end() && operands.size() == 2)
    formula = "(" + operands[0] + std::string(i->second) + operands[1] + ")";
  else if (auto c = calls.find(op); c != calls.end() && operands.size() == 2)
    formula = std::string(c->second) + "(" + operands[0] + ", " + operands[1] + ")";
  else if ((op == "arith.extsi" || op == "arith.extui" || op == "arith.trunci" ||
            op == "arith.index_cast" || op == "arith.index_castui") &&
           operands.size() == 1)
    formula = operands[0];
  if (!formula.empty() && formula.size() <= kMaxFormula)
    scalarFormulas_[name] = std::move(formula);
}

std::string Reader::currentTripsFormula() const {
  std::string out;
  for (const OpenLoop& l : loops_) {
    std::string one = l.trips ? std::to_string(*l.trips) : l.formula;
    if (one.empty())
      return "";
    out += (out.empty() ? "" : " * ") + one;
  }
  return out;
}

void Reader::loopLine(std::string_view trimmed, std::size_t lead) {
  // `tt.func public @k(%a: !tt.ptr<f16> {...} loc(...), %M: i32 loc("M"(#loc)), ...)`: the
  // integer arguments are the names a formula is written in.
  if (startsWith(trimmed, "tt.func ")) {
    scalarFormulas_.clear();
    for (std::size_t at = trimmed.find('%'); at != std::string_view::npos;
         at = trimmed.find('%', at + 1)) {
      std::size_t end = at + 1;
      while (end < trimmed.size() &&
             (std::isalnum(static_cast<unsigned char>(trimmed[end])) || trimmed[end] == '_'))
        ++end;
      if (end > at + 1 && trimmed.substr(end, 2) == ": " &&
          isScalarInteger(trimmed.substr(end + 2)))
        scalarFormulas_[std::string(trimmed.substr(at, end - at))] =
            std::string(trimmed.substr(at + 1, end - at - 1));
    }
    return;
  }
  // `%c128_i32 = arith.constant 128 : i32`
  if (std::size_t eq = trimmed.find(" = arith.constant ");
      eq != std::string_view::npos && startsWith(trimmed, "%")) {
    std::string_view value = trimmed.substr(eq + 18);
    int64_t v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    std::string_view rest(end, static_cast<std::size_t>(value.data() + value.size() - end));
    if (ec == std::errc() && (startsWith(rest, " : i32") || startsWith(rest, " : i64") ||
                              startsWith(rest, " : index"))) {
      constants_[std::string(trimmed.substr(0, eq))] = v;
      scalarFormulas_[std::string(trimmed.substr(0, eq))] = std::to_string(v);
    }
    return;
  }
  scalarLine(trimmed);
  if (!loops_.empty() && startsWith(trimmed, "}") && lead == loops_.back().indent) {
    if (!startsWith(trimmed, "} do {")) // an scf.while's second region is the same loop
      loops_.pop_back(); // the closing line (`} loc(...)`, `} {tt.num_stages = ...}`)
    return;
  }
  // `%r:2 = scf.while (%a = %x, ...) : (i32, i32) -> (i32, i32) {`: its regions run until a
  // run-time condition fails, so what is inside has no trip count (FlagGems' sort: a decoupled
  // look-back spinning on volatile loads inside the row loop).
  if (std::size_t w = trimmed.find("scf.while ");
      w != std::string_view::npos && !trimmed.empty() && trimmed.back() == '{' &&
      (w == 0 || trimmed.substr(0, w).find(" = ") != std::string_view::npos)) {
    loops_.push_back(OpenLoop{lead, std::nullopt, ""});
    return;
  }
  std::size_t at = trimmed.find("scf.for %");
  if (at == std::string_view::npos || trimmed.empty() || trimmed.back() != '{')
    return;
  // `scf.for %i = %lb to %ub step %st ...`
  auto word = [&](std::string_view key) -> std::string {
    std::size_t k = trimmed.find(key, at);
    if (k == std::string_view::npos)
      return "";
    std::string_view w = trimmed.substr(k + key.size());
    return std::string(w.substr(0, w.find_first_of(" ,")));
  };
  std::string lb = word(" = "), ub = word(" to "), st = word(" step ");
  OpenLoop loop{lead, std::nullopt, ""};
  auto formulaOf = [&](const std::string& n) {
    auto it = scalarFormulas_.find(n);
    return it == scalarFormulas_.end() ? std::string() : it->second;
  };
  if (std::string a = formulaOf(lb), b = formulaOf(ub), c = formulaOf(st);
      !a.empty() && !b.empty() && !c.empty())
    loop.formula = "trips(" + a + ", " + b + ", " + c + ")";
  auto value = [&](const std::string& n) -> std::optional<int64_t> {
    auto it = constants_.find(n);
    return it == constants_.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  // The trip count of lb to ub step st; int64 bounds, so the difference is taken unsigned.
  if (auto a = value(lb), b = value(ub), c = value(st); a && b && c && *c > 0)
    loop.trips = *b > *a ? (static_cast<uint64_t>(*b) - static_cast<uint64_t>(*a) - 1) /
                                   static_cast<uint64_t>(*c) +
                               1
                         : 0;
  loops_.push_back(loop); // the scf.for line itself is then read as any other
}

std::optional<uint64_t> Reader::currentTrips() const {
  uint64_t trips = 1;
  for (const OpenLoop& l : loops_)
    if (!l.trips || __builtin_mul_overflow(trips, *l.trips, &trips))
      return std::nullopt; // a bound not constant, or more runs than 2^64
  return trips;
}

void Reader::ifLine(const LineRef& l, std::string_view trimmed, std::size_t lead) {
  if (!ifs_.empty() && lead == ifs_.back().first && startsWith(trimmed, "}")) {
    if (startsWith(trimmed, "} else {"))
      ifs_.back().second.elseBranch = true;
    else
      ifs_.pop_back();
    return;
  }
  // `scf.if %c {`, `%r = scf.if %c -> (tensor<...>) {`
  std::size_t at = trimmed.find("scf.if %");
  if (at != std::string_view::npos && !trimmed.empty() && trimmed.back() == '{' &&
      (at == 0 || trimmed.substr(0, at).find(" = ") != std::string_view::npos))
    ifs_.push_back({lead, TtgirBranch{l.number, false}});
}

Error Reader::opLine(const LineRef& l) {
  std::string_view t = l.text;
  std::size_t lead = t.find_first_not_of(" \t");
  if (partitionLine(l, trim(t), lead))
    return Error{};
  loopLine(trim(t), lead);
  ifLine(l, trim(t), lead);
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
  static const std::set<std::string> kScratch = {"tt.reduce", "tt.scan",       "tt.histogram",
                                                 "tt.gather", "tt.atomic_rmw", "tt.atomic_cas"};
  if (kScratch.count(name)) {
    TtgirScratchOp op;
    op.name = name;
    op.line = l.number;
    // `%2:2 = "tt.reduce"(...)` or `%2 = tt.atomic_rmw ...`
    if (std::string_view head = t.substr(lead); startsWith(head, "%")) {
      std::size_t eq = head.find(" = ");
      std::string_view bound = head.substr(0, eq == std::string_view::npos ? 0 : eq);
      std::size_t colonAt = bound.find(':');
      op.resultName = std::string(bound.substr(0, colonAt));
      op.resultCount = 1;
      if (colonAt != std::string_view::npos) {
        std::string_view digits = bound.substr(colonAt + 1);
        int count = 0;
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
        op.resultCount = ec == std::errc() && count > 0 ? count : 1;
      }
      if (op.resultName.size() < 2) {
        op.resultName.clear();
        op.resultCount = 0;
      }
    }
    std::size_t at = t.find("axis = ");
    if (at != std::string_view::npos) {
      int axis = -1;
      std::string_view digits = t.substr(at + 7);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), axis);
      if (ec == std::errc() && axis >= 0)
        op.axis = axis;
    }
    op.reverse = t.find("reverse = true") != std::string_view::npos;
    std::string_view body = trim(t.substr(0, sigEnd));
    if (body.size() >= 2 && body.substr(body.size() - 2) == "({") {
      pendingScratch_ = std::move(op); // the types are on the line that closes the region
      return Error{};
    }
    scratchOp(l, std::move(op), *uses, colon);
    return Error{};
  }
  if (pendingScratch_ && startsWith(trim(t), "})")) {
    TtgirScratchOp op = std::move(*pendingScratch_);
    pendingScratch_.reset();
    scratchOp(l, std::move(op), *uses, colon);
    return Error{};
  }
  if (name == "tt.load" || name == "tt.store")
    return globalAccessLine(l, name, *uses, colon, sigEnd, lead);
  if (name == "ttng.async_tma_copy_global_to_local" ||
      name == "ttng.async_tma_copy_local_to_global") {
    tmaCopy(l, name, *uses, colon, arrow);
    return Error{};
  }
  if (name == "ttng.barrier_expect")
    barrierExpect(l);
  if (name == "ttng.warp_group_dot" || name == "ttng.tc_gen5_mma") {
    descriptorRead(l, name, *uses, colon);
    return Error{};
  }
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
  // The closing line of a region (`}) : (tensor<...>) -> ...`) starts below depth 0, where the
  // signature scan finds no colon.
  if (colon == std::string_view::npos)
    colon = l.text.find(" : ");
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
  op.contiguity = integerAttribute(t.substr(0, sigEnd), "contiguity");
  op.partition = partition_;
  op.loopDepth = static_cast<int>(loops_.size());
  op.trips = currentTrips();
  op.tripsFormula = op.trips ? "" : currentTripsFormula();
  op.branch = currentBranch();
  opTypes_.push_back({src ? src->index : -1, dst->index});
  module_.ops.push_back(std::move(op));
  return Error{};
}

namespace {

/// The operands written before the signature's colon, after the op's name: "%a_desc[%x, %y]
/// %buf, %bar, %pred" -> {"%a_desc[%x, %y]", "%buf", "%bar", "%pred"} (commas inside brackets
/// kept).
std::vector<std::string> operandList(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : text) {
    if (c == '[' || c == '(' || c == '{')
      ++depth;
    if (c == ']' || c == ')' || c == '}')
      --depth;
    if (c == ',' && depth == 0) {
      out.push_back(std::string(trim(cur)));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty())
    out.push_back(std::string(trim(cur)));
  return out;
}

/// The box, element and encoding of `!tt.tensordesc<tensor<128x64xf16, #shared>>` (3.6) or
/// `!tt.tensordesc<128x64xf16, #shared>` (3.9) starting at `at`; false when unreadable.
bool tensordescType(std::string_view t, std::size_t at, TtgirTmaCopy& c) {
  std::size_t open = t.find('<', at);
  if (open == std::string_view::npos)
    return false;
  int depth = 0;
  std::size_t close = std::string_view::npos;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i] == '<')
      ++depth;
    else if (t[i] == '>' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string_view::npos)
    return false;
  std::string_view inner = trim(t.substr(open + 1, close - open - 1));
  if (startsWith(inner, "tensor<") && inner.back() == '>')
    inner = trim(inner.substr(7, inner.size() - 8));
  std::size_t comma = inner.find(',');
  std::string_view shapeElem = trim(inner.substr(0, comma));
  c.encoding =
      comma == std::string_view::npos ? std::string() : std::string(trim(inner.substr(comma + 1)));
  std::size_t lastX = shapeElem.rfind('x');
  if (lastX == std::string_view::npos)
    return false;
  c.elementType = std::string(shapeElem.substr(lastX + 1));
  std::string_view dims = shapeElem.substr(0, lastX);
  while (!dims.empty()) {
    std::size_t x = dims.find('x');
    std::string_view d = dims.substr(0, x);
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
    if (ec != std::errc() || end != d.data() + d.size() || v == 0) {
      c.box.clear();
      return false;
    }
    c.box.push_back(v);
    dims = x == std::string_view::npos ? std::string_view() : dims.substr(x + 1);
  }
  return !c.box.empty();
}

} // namespace

void Reader::tmaCopy(const LineRef& l, const std::string& name, const std::vector<TypeUse>& uses,
                     std::size_t colon, std::size_t arrow) {
  TtgirTmaCopy c;
  c.name = name;
  c.line = l.number;
  c.location = locationOf(l);
  std::string_view t = l.text;
  std::size_t at = t.find(name);
  if (colon == std::string_view::npos)
    colon = t.find(" : ");
  std::size_t after = at == std::string_view::npos ? 0 : at + name.size();
  std::vector<std::string> ops = colon == std::string_view::npos || colon < after
                                     ? std::vector<std::string>{}
                                     : operandList(t.substr(after, colon - after));
  if (!ops.empty()) {
    std::string first = ops[0];
    std::size_t bracket = first.find('[');
    c.descriptor = first.substr(0, bracket);
    // "%desc[%x, %y] %buf": the buffer follows the indices in the first operand.
    std::size_t close = first.find(']');
    std::vector<std::string> rest;
    if (close != std::string::npos && close + 1 < first.size())
      rest.push_back(std::string(trim(std::string_view(first).substr(close + 1))));
    rest.insert(rest.end(), ops.begin() + 1, ops.end());
    if (name == "ttng.async_tma_copy_global_to_local" && rest.size() >= 2)
      c.barrier = rest[1];
  }
  bool readable = colon != std::string_view::npos;
  std::size_t desc = readable ? t.find("!tt.tensordesc<", colon) : std::string_view::npos;
  if (desc == std::string_view::npos || !tensordescType(t, desc, c))
    notUnderstood(
        "op",
        utf8Prefix(trim(t.substr(0, colon == std::string_view::npos ? t.size() : colon)), 160),
        where(source_, l.number, column(at == std::string_view::npos ? 0 : at)),
        "cannot read the tensor descriptor type of " + name +
            " (expected !tt.tensordesc<SHAPExELEMENT, ENCODING>)");
  // The buffer: the memdesc after the arrow (global_to_local), or the one after the colon.
  int buffer = -1;
  for (const TypeUse& u : uses) {
    if (u.index < 0 || colon == std::string_view::npos || u.begin < colon)
      continue;
    if (module_.types[static_cast<std::size_t>(u.index)].kind != TtgirType::Kind::MemDesc)
      continue;
    bool wanted = name == "ttng.async_tma_copy_global_to_local"
                      ? (arrow != std::string_view::npos && u.begin > arrow)
                      : true;
    if (wanted) {
      buffer = u.index;
      break;
    }
  }
  c.buffer = {buffer >= 0 ? module_.types[static_cast<std::size_t>(buffer)].text : std::string(),
              -1};
  tmaTypes_.push_back(buffer);
  c.partition = partition_;
  module_.tmaCopies.push_back(std::move(c));
}

void Reader::barrierExpect(const LineRef& l) {
  std::string_view t = l.text;
  std::size_t at = t.find("ttng.barrier_expect");
  std::size_t colon = t.find(" : ");
  if (at == std::string_view::npos || colon == std::string_view::npos || colon < at)
    return;
  std::size_t from = at + std::string_view("ttng.barrier_expect").size();
  std::vector<std::string> ops = operandList(t.substr(from, colon - from));
  if (ops.size() < 2)
    return;
  uint64_t bytes = 0;
  auto [end, ec] = std::from_chars(ops[1].data(), ops[1].data() + ops[1].size(), bytes);
  if (ec != std::errc() || end != ops[1].data() + ops[1].size())
    return;
  module_.barrierExpects.push_back({ops[0], bytes, l.number});
}

void Reader::descriptorRead(const LineRef& l, const std::string& name,
                            const std::vector<TypeUse>& uses, std::size_t colon) {
  TtgirDescriptorRead d;
  d.name = name;
  d.line = l.number;
  d.location = locationOf(l);
  if (colon == std::string_view::npos)
    colon = l.text.find(" : ");
  std::vector<int> types;
  for (const TypeUse& u : uses)
    if (u.index >= 0 && colon != std::string_view::npos && u.begin > colon &&
        module_.types[static_cast<std::size_t>(u.index)].kind == TtgirType::Kind::MemDesc) {
      d.sharedOperands.push_back({module_.types[static_cast<std::size_t>(u.index)].text, -1});
      types.push_back(u.index);
    }
  descriptorTypes_.push_back(std::move(types));
  module_.descriptorReads.push_back(std::move(d));
}

/// Records a scratch op once its types are known: the first tensor after the signature's colon
/// is the operand its lowering reads (for tt.gather, the source; for atomics, the pointers).
void Reader::scratchOp(const LineRef& l, TtgirScratchOp op, const std::vector<TypeUse>& uses,
                       std::size_t colon) {
  op.location = locationOf(l);
  // The closing line of a region (`}) : (tensor<...>) -> ...`) starts below depth 0, where the
  // signature scan finds no colon.
  if (colon == std::string_view::npos)
    colon = l.text.find(" : ");
  const TypeUse* src = nullptr;
  const TypeUse* resultUse = nullptr;
  std::size_t resultsAt = colon == std::string_view::npos ? colon : l.text.find("->", colon);
  for (const TypeUse& u : uses) {
    if (colon == std::string_view::npos || u.begin < colon || u.index < 0)
      continue;
    const TtgirType& type = module_.types[static_cast<std::size_t>(u.index)];
    if (type.kind != TtgirType::Kind::Tensor)
      continue;
    if (resultsAt != std::string_view::npos && u.begin > resultsAt) {
      if (!resultUse)
        resultUse = &u;
      continue;
    }
    if (!src)
      src = &u;
    op.operandElementTypes.push_back(type.elementType);
  }
  if (startsWith(op.name, "tt.atomic")) {
    // `-> f32` rather than `-> tensor<...>`: one value that every thread reads.
    std::string_view t = l.text;
    std::size_t arrow = t.rfind("->");
    std::size_t locAt = t.rfind(" loc(");
    if (arrow != std::string_view::npos) {
      std::string_view result = trim(t.substr(
          arrow + 2,
          (locAt == std::string_view::npos || locAt < arrow ? t.size() : locAt) - arrow - 2));
      op.scalarResult = !startsWith(result, "tensor<");
      if (op.scalarResult)
        op.operandElementTypes = {std::string(result)}; // the value every thread receives
    }
  }
  op.src = {src ? module_.types[static_cast<std::size_t>(src->index)].text : std::string(), -1};
  op.result = {resultUse ? module_.types[static_cast<std::size_t>(resultUse->index)].text
                         : std::string(),
               -1};
  scratchTypes_.push_back({src ? src->index : -1, resultUse ? resultUse->index : -1});
  op.partition = partition_;
  op.loopDepth = static_cast<int>(loops_.size());
  op.trips = currentTrips();
  op.tripsFormula = op.trips ? "" : currentTripsFormula();
  op.branch = currentBranch();
  module_.scratchOps.push_back(std::move(op));
}

/// "file.py:40:12" from the line's loc(...), or "FILE.ttgir:LINE" when it has none.
std::string Reader::locationOf(const LineRef& l) {
  std::string_view loc = trailingLoc(l.text);
  if (!locResolver_)
    locResolver_.emplace(locAliases_);
  auto resolved = loc.empty() ? std::nullopt : locResolver_->resolve(loc);
  return resolved ? *resolved : source_ + ":" + std::to_string(l.number);
}

/// tt.load / tt.store: the signature after " : " is the pointer tensor's type
/// (`tensor<64x32x!tt.ptr<f16>, #blocked>`); a scalar pointer has no layout and is skipped, a
/// block pointer (`!tt.ptr<tensor<...>>`) is listed as not understood.
Error Reader::globalAccessLine(const LineRef& l, const std::string& name,
                               const std::vector<TypeUse>& uses, std::size_t colon,
                               std::size_t sigEnd, std::size_t lead) {
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
    access.partition = partition_;
    access.loopDepth = static_cast<int>(loops_.size());
    access.trips = currentTrips();
    access.tripsFormula = access.trips ? "" : currentTripsFormula();
    access.branch = currentBranch();
    module_.globalAccesses.push_back(std::move(access));
    return Error{};
  }
  // `tt.store %p, %v : !tt.ptr<f32>`: one value through a scalar pointer.
  std::string_view sig = trim(t.substr(colon + 1, sigEnd - colon - 1));
  if (startsWith(sig, "!tt.ptr<") && sig.back() == '>' && sig.find(',') == std::string_view::npos &&
      sig.find("tensor<") == std::string_view::npos) { // not a block pointer
    TtgirGlobalAccess access;
    access.op = name;
    access.scalar = true;
    access.pointers = {std::string(sig), -1};
    access.elementType = std::string(sig.substr(8, sig.size() - 9));
    access.line = l.number;
    access.location = locationOf(l);
    access.partition = partition_;
    access.loopDepth = static_cast<int>(loops_.size());
    access.trips = currentTrips();
    access.tripsFormula = access.trips ? "" : currentTripsFormula();
    access.branch = currentBranch();
    globalTypes_.push_back(-1);
    module_.globalAccesses.push_back(std::move(access));
  }
  return Error{};
}

/// `%a: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc(...)`, for each pointer argument (a
/// scan, not a regex: a hostile line may be megabytes long).
void Reader::pointerArguments(std::string_view t) {
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

} // namespace llcheck::ttgir

namespace llcheck {

std::optional<std::string_view> ttgirOpAttribute(std::string_view t, std::string_view key) {
  using ttgir::trim;
  int braces = 0, angles = 0;
  bool inString = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '"') {
      inString = !inString;
      continue;
    }
    if (inString)
      continue;
    if (c == '{') {
      ++braces;
      continue;
    }
    if (c == '}') {
      braces = std::max(0, braces - 1);
      continue;
    }
    if (c == '<' && braces == 0 && i + 1 < t.size() && t[i + 1] == '{' &&
        (i == 0 || t[i - 1] == ' '))
      continue; // the properties' `<{`
    if (c == '<')
      ++angles;
    else if (c == '>' && angles > 0)
      --angles;
    if (braces != 1 || angles != 0 || t.compare(i, key.size(), key) != 0)
      continue;
    std::size_t before = i;
    while (before > 0 && t[before - 1] == ' ')
      --before;
    if (before == 0 || (t[before - 1] != '{' && t[before - 1] != ','))
      continue;
    std::string_view rest = trim(t.substr(i + key.size()));
    if (rest.empty() || rest.front() != '=')
      continue;
    rest = trim(rest.substr(1));
    // Up to the next ',' or '}' at this level.
    int depth = 0;
    std::size_t end = 0;
    for (; end < rest.size(); ++end) {
      char e = rest[end];
      if (e == '<' || e == '[' || e == '(')
        ++depth;
      else if ((e == '>' || e == ']' || e == ')') && depth > 0)
        --depth;
      else if (depth == 0 && (e == ',' || e == '}'))
        break;
    }
    return trim(rest.substr(0, end));
  }
  return std::nullopt;
}

} // namespace llcheck
