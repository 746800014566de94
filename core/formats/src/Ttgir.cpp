// The TTGIR module reader (Ttgir.h). MLIR's printer puts every alias definition, the module header
// and every op on a line of its own, so the reader works line by line after one structural pass
// over the whole file (TtgirText.cpp). This file drives the reading (the alias lines first, then
// the module header and every op line, whose types and ops TtgirOps.cpp reads) and turns each
// distinct (encoding, shape) into its linear layout.
#include "llcheck/core/Ttgir.h"

#include "TtgirReader.h"
#include "llcheck/core/EncodingAttr.h"
#include "llcheck/core/Formats.h"

#include <algorithm>
#include <charconv>

namespace llcheck {

namespace ttgir {

Result<TtgirModule> Reader::read() {
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

// ---- The module header and aliases -------------------------------------------------------------

// `#name = value`: an attribute alias or a location alias.
Error Reader::aliasLine(const LineRef& l) {
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
Error Reader::moduleLine(const LineRef& l) {
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

Error Reader::moduleAttribute(const std::string& key, std::string_view value,
                              const std::string& at) {
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
    return makeError(key + " must be a power of two such as 4 : i32, got " + utf8Prefix(value, 40),
                     at);
  *slot = n;
  return Error{};
}

Error Reader::checkOptions() {
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
  if (Error e = merge(module_.numWarps, options_.numWarps, ContextItem::NumWarps, "ttg.num-warps");
      !e.message.empty())
    return e;
  return merge(module_.threadsPerWarp, options_.threadsPerWarp, ContextItem::ThreadsPerWarp,
               "ttg.threads-per-warp");
}

// ---- Encodings and layouts -------------------------------------------------------------------

namespace {

// Printing resolved attributes (the identity of an encoding).
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

/// The shape an encoding is laid over: the type's, except that the leading dims of a
/// memdesc up to its last non-power-of-two one count the buffers of a pipelined allocation
/// (3x64x32 for 3 stages), and each buffer has the layout of the trailing dims.
std::vector<uint64_t> layoutShape(const TtgirType& type) {
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

} // namespace

/// Replaces every alias in `v` by its definition; an alias used but never defined is an Error
/// (MLIR refuses such a file), one whose definition could not be read is `broken`.
Error Reader::substitute(AttrValue& v, int depth, std::string& broken) {
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

Error Reader::computeLayouts() {
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
    if (globalTypes_[i] >= 0) // a scalar pointer has no layout
      module_.globalAccesses[i].pointers.layout =
          module_.types[static_cast<std::size_t>(globalTypes_[i])].layout;
  for (std::size_t i = 0; i < module_.scratchOps.size(); ++i) {
    auto [src, result] = scratchTypes_[i];
    if (src >= 0)
      module_.scratchOps[i].src.layout = module_.types[static_cast<std::size_t>(src)].layout;
    if (result >= 0)
      module_.scratchOps[i].result.layout = module_.types[static_cast<std::size_t>(result)].layout;
  }
  auto layoutOf = [&](int type) {
    return type >= 0 ? module_.types[static_cast<std::size_t>(type)].layout : -1;
  };
  for (std::size_t i = 0; i < module_.tmaCopies.size(); ++i)
    module_.tmaCopies[i].buffer.layout = layoutOf(tmaTypes_[i]);
  for (std::size_t i = 0; i < module_.descriptorReads.size(); ++i)
    for (std::size_t j = 0; j < descriptorTypes_[i].size(); ++j)
      module_.descriptorReads[i].sharedOperands[j].layout = layoutOf(descriptorTypes_[i][j]);
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

} // namespace ttgir

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
  if (ttgir::startsWith(text, "\xEF\xBB\xBF"))
    text.remove_prefix(3);
  std::string_view t = ttgir::trim(text);
  std::string_view first = t.substr(0, t.find('\n'));
  if (ttgir::startsWith(first, "module") &&
      (first.size() == 6 || first[6] == ' ' || first[6] == '{' || first[6] == '@'))
    return true;
  if (!ttgir::startsWith(first, "#"))
    return false;
  std::size_t i = 1;
  while (i < first.size() && ttgir::identChar(first[i]))
    ++i;
  while (i < first.size() && first[i] == ' ')
    ++i;
  return i > 1 && i < first.size() && first[i] == '=';
}

Result<TtgirModule> readTtgir(std::string_view text, const std::string& source,
                              const TtgirOptions& options) {
  if (ttgir::startsWith(text, "\xEF\xBB\xBF"))
    text.remove_prefix(3); // a UTF-8 byte order mark, as some editors write
  ttgir::Reader r(text, source, options);
  return r.read();
}

} // namespace llcheck
