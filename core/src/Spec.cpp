// Loading a SPEC: format detection, and reading the encoding attributes (#ttg.linear,
// #ttg.blocked, #ttg.slice; the layout algorithms are in encodings/).
#include "llcheck/core/Spec.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Formats.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace llcheck {

Result<std::string> readInputFile(const std::string& path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    return makeError("no such file", path);
  if (std::filesystem::is_directory(status))
    return makeError("is a directory, expected a layout file", path);
  if (!std::filesystem::is_regular_file(status))
    return makeError("is not a regular file", path);
  auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxInputBytes)
    return makeError("file is " + std::to_string(size) + " bytes; the limit for a layout is " +
                         std::to_string(kMaxInputBytes),
                     path);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return makeError("cannot open for reading", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result<std::vector<uint64_t>> parseShape(std::string_view text) {
  std::vector<uint64_t> shape;
  std::size_t start = 0;
  if (text.empty())
    return makeError("empty shape; expected e.g. 64x16", "--shape");
  while (start <= text.size()) {
    std::size_t end = text.find_first_of("x,", start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view part = text.substr(start, end - start);
    uint64_t v = 0;
    bool digits = !part.empty() && part.size() <= 19;
    for (char c : part)
      digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits)
      return makeError("'" + std::string(text) + "' is not a shape like 64x16", "--shape");
    for (char c : part)
      v = v * 10 + static_cast<uint64_t>(c - '0');
    if (!std::has_single_bit(v))
      return makeError("size " + std::to_string(v) + " in '" + std::string(text) +
                           "' is not a power of two (Triton requires power-of-two shapes)",
                       "--shape");
    shape.push_back(v);
    start = end + 1;
  }
  if (shape.size() > kMaxDims)
    return makeError("rank " + std::to_string(shape.size()) + " is too large", "--shape");
  return shape;
}

namespace {

/// [[a, b], [c, d], ...] -> bases, every inner array of the same length (the rank).
Result<std::vector<std::vector<uint64_t>>> readBasesArray(const AttrValue& v,
                                                          const std::string& key,
                                                          std::optional<std::size_t>& rank,
                                                          const std::string& source) {
  if (v.kind != AttrValue::Kind::Array)
    return makeError(key + " must be an array of bases like [[0, 1], [1, 0]], got a " +
                         std::string(v.kindName()),
                     attrLocation(source, v));
  if (v.elements.size() > 63)
    return makeError(key + " has " + std::to_string(v.elements.size()) +
                         " bases; at most 63 are supported",
                     attrLocation(source, v));
  std::vector<std::vector<uint64_t>> out;
  for (std::size_t i = 0; i < v.elements.size(); ++i) {
    const AttrValue& b = v.elements[i];
    if (b.kind != AttrValue::Kind::Array)
      return makeError(key + "[" + std::to_string(i) + "] must be an array of integers, got a " +
                           b.kindName(),
                       attrLocation(source, b));
    if (!rank)
      rank = b.elements.size();
    if (b.elements.size() != *rank)
      return makeError(key + "[" + std::to_string(i) + "] has " +
                           std::to_string(b.elements.size()) + " entries, the first basis has " +
                           std::to_string(*rank) + " (one per tensor dimension)",
                       attrLocation(source, b));
    std::vector<uint64_t> values;
    for (const AttrValue& e : b.elements) {
      if (e.kind != AttrValue::Kind::Integer)
        return makeError(key + " entries must be integers, got a " + std::string(e.kindName()),
                         attrLocation(source, e));
      if (e.integer < 0)
        return makeError(key + " has the negative value " + std::to_string(e.integer),
                         attrLocation(source, e));
      values.push_back(static_cast<uint64_t>(e.integer));
    }
    out.push_back(std::move(values));
  }
  return out;
}

Result<LinearLayout> linearEncoding(const AttrValue& attr, const SpecOptions& options,
                                    const std::string& source) {
  static const char* kKeys[] = {"register", "lane", "warp", "block"};
  if (attr.entries.size() != 1 || !attr.entries[0].first.empty() ||
      attr.entries[0].second.kind != AttrValue::Kind::Dict)
    return makeError("#ttg.linear takes one dictionary: #ttg.linear<{register = [...], lane = "
                     "[...], warp = [...], block = [...]}>",
                     attrLocation(source, attr));
  const AttrValue& dict = attr.entries[0].second;
  for (const AttrEntry& entry : dict.entries) {
    const std::string& key = entry.first;
    bool known = false;
    for (const char* k : kKeys)
      known = known || key == k;
    AttrValue at;
    at.line = entry.keyLine;
    at.column = entry.keyColumn;
    if (!known)
      return makeError("unknown key '" + key.substr(0, 64) +
                           "' in #ttg.linear (expected register, lane, warp, block)",
                       attrLocation(source, at));
    for (const AttrEntry& other : dict.entries)
      if (&other != &entry && other.first == key &&
          (other.keyLine < entry.keyLine ||
           (other.keyLine == entry.keyLine && other.keyColumn < entry.keyColumn)))
        return makeError("key '" + key + "' appears twice", attrLocation(source, at));
  }
  std::optional<std::size_t> rank;
  std::vector<DimBases> bases;
  for (const char* k : kKeys) {
    const AttrValue* v = dict.find(k);
    if (!v)
      return makeError(std::string("#ttg.linear is missing '") + k +
                           "' (all of register, lane, warp, block are required)",
                       attrLocation(source, dict));
    auto b = readBasesArray(*v, k, rank, source);
    if (!b.ok())
      return b.error();
    bases.push_back({DimName(k), std::move(*b)});
  }
  if (!rank || *rank == 0) {
    if (options.shape)
      rank = options.shape->size();
    else
      return makeError("#ttg.linear has no bases to tell the tensor rank; pass --shape",
                       attrLocation(source, attr));
  }
  // The extent the bases imply per tensor dim: the next power of two above the largest value.
  std::vector<DimSize> outs;
  for (std::size_t d = 0; d < *rank; ++d) {
    uint64_t maxValue = 0;
    for (const DimBases& db : bases)
      for (const auto& b : db.bases)
        maxValue = std::max(maxValue, b[d]);
    if (maxValue >= (uint64_t{1} << 62))
      return makeError("value " + std::to_string(maxValue) + " for dim" + std::to_string(d) +
                           " is too large",
                       attrLocation(source, attr));
    outs.push_back({dims::standardOut(static_cast<int>(d)), std::bit_ceil(maxValue + 1)});
  }
  if (options.shape) {
    const auto& shape = *options.shape;
    if (shape.size() != *rank)
      return makeError("the bases have " + std::to_string(*rank) + " entries (rank " +
                           std::to_string(*rank) + ") but --shape has rank " +
                           std::to_string(shape.size()),
                       attrLocation(source, attr));
    for (std::size_t d = 0; d < *rank; ++d) {
      if (shape[d] < outs[d].size)
        return makeError("the bases reach index " + std::to_string(outs[d].size - 1) + " of dim" +
                             std::to_string(d) + ", beyond --shape's size " +
                             std::to_string(shape[d]),
                         attrLocation(source, attr));
      if (shape[d] > outs[d].size)
        return makeError("--shape's dim" + std::to_string(d) + " is " + std::to_string(shape[d]) +
                             " but the bases cover only " + std::to_string(outs[d].size) +
                             "; tiling a #ttg.linear layout over a larger shape is not "
                             "supported yet",
                         attrLocation(source, attr));
    }
  }
  auto l = LinearLayout::create(bases, outs, /*requireSurjective=*/false);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  auto checkCount = [&](const std::optional<uint64_t>& given, DimName dim,
                        const char* flag) -> Error {
    if (given && *given != l->getInDimSize(dim))
      return makeError(std::string(flag) + " " + std::to_string(*given) + " disagrees with the " +
                           "attribute, which has " + std::to_string(l->getInDimSize(dim)) + " " +
                           dim.str() + "s",
                       attrLocation(source, attr));
    return Error{};
  };
  if (Error e = checkCount(options.numWarps, dims::kWarp, "--num-warps"); !e.message.empty())
    return e;
  if (Error e = checkCount(options.threadsPerWarp, dims::kLane, "--threads-per-warp");
      !e.message.empty())
    return e;
  return l;
}

/// The one dictionary of `#ttg.NAME<{...}>`, its keys checked against `known` (each at most
/// once) and `required` present.
Result<const AttrValue*> encodingDict(const AttrValue& attr, const std::string& name,
                                      const std::vector<std::string>& known,
                                      const std::vector<std::string>& required,
                                      const std::string& source) {
  std::string keyList;
  for (const std::string& k : known)
    keyList += (keyList.empty() ? "" : ", ") + k;
  if (attr.entries.size() != 1 || !attr.entries[0].first.empty() ||
      attr.entries[0].second.kind != AttrValue::Kind::Dict)
    return makeError("#" + name + " takes one dictionary: #" + name + "<{" + keyList + "}>",
                     attrLocation(source, attr));
  const AttrValue& dict = attr.entries[0].second;
  for (const AttrEntry& entry : dict.entries) {
    AttrValue at;
    at.line = entry.keyLine;
    at.column = entry.keyColumn;
    if (std::find(known.begin(), known.end(), entry.first) == known.end())
      return makeError("unknown key '" + entry.first.substr(0, 64) + "' in #" + name +
                           " (expected " + keyList + ")",
                       attrLocation(source, at));
    for (const AttrEntry& other : dict.entries)
      if (&other != &entry && other.first == entry.first &&
          (other.keyLine < entry.keyLine ||
           (other.keyLine == entry.keyLine && other.keyColumn < entry.keyColumn)))
        return makeError("key '" + entry.first + "' appears twice", attrLocation(source, at));
  }
  for (const std::string& k : required)
    if (!dict.find(k))
      return makeError("#" + name + " is missing '" + k + "'", attrLocation(source, dict));
  return &dict;
}

/// [a, b, ...] of non-negative integers, `rank` of them.
Result<std::vector<uint64_t>> readIntArray(const AttrValue& v, const std::string& key,
                                           std::size_t rank, bool powerOfTwo,
                                           const std::string& source) {
  if (v.kind != AttrValue::Kind::Array)
    return makeError(key + " must be an array of integers, got a " + std::string(v.kindName()),
                     attrLocation(source, v));
  if (v.elements.size() != rank)
    return makeError(key + " has " + std::to_string(v.elements.size()) +
                         " entries, --shape has rank " + std::to_string(rank),
                     attrLocation(source, v));
  std::vector<uint64_t> out;
  for (const AttrValue& e : v.elements) {
    if (e.kind != AttrValue::Kind::Integer)
      return makeError(key + " entries must be integers, got a " + std::string(e.kindName()),
                       attrLocation(source, e));
    if (e.integer < 0 || e.integer > (int64_t{1} << 32))
      return makeError(key + " has the out-of-range value " + std::to_string(e.integer),
                       attrLocation(source, e));
    if (powerOfTwo && !std::has_single_bit(static_cast<uint64_t>(e.integer)))
      return makeError(key + " has " + std::to_string(e.integer) + ", not a power of two",
                       attrLocation(source, e));
    out.push_back(static_cast<uint64_t>(e.integer));
  }
  return out;
}

std::string shapeText(const std::vector<uint64_t>& shape) {
  std::string s;
  for (uint64_t v : shape)
    s += (s.empty() ? "" : "x") + std::to_string(v);
  return s;
}

/// --shape is required by the encodings whose layout depends on it.
Result<std::vector<uint64_t>> requireShape(const AttrValue& attr, const std::string& name,
                                           const SpecOptions& options, const std::string& source) {
  if (!options.shape)
    return makeError("#" + name + " needs the tensor shape; pass --shape (e.g. --shape 64x16)",
                     attrLocation(source, attr));
  if (options.shape->empty())
    return makeError("#" + name + " needs a shape of rank at least 1", attrLocation(source, attr));
  for (uint64_t v : *options.shape)
    if (!std::has_single_bit(v))
      return makeError("shape " + shapeText(*options.shape) + " has " + std::to_string(v) +
                           ", not a power of two",
                       attrLocation(source, attr));
  return *options.shape;
}

Result<LinearLayout> blockedEncoding(const AttrValue& attr, const SpecOptions& options,
                                     const std::string& source) {
  const std::string name = "ttg.blocked";
  auto dict = encodingDict(attr, name,
                           {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CGALayout"},
                           {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"}, source);
  if (!dict.ok())
    return dict.error();
  auto shape = requireShape(attr, name, options, source);
  if (!shape.ok())
    return shape.error();
  std::size_t rank = shape->size();
  BlockedParams params;
  struct Field {
    const char* key;
    std::vector<uint64_t>* into;
    bool pow2;
  };
  for (Field f :
       {Field{"sizePerThread", &params.sizePerThread, true},
        Field{"threadsPerWarp", &params.threadsPerWarp, true},
        Field{"warpsPerCTA", &params.warpsPerCTA, true}, Field{"order", &params.order, false}}) {
    const AttrValue* v = (*dict)->find(f.key);
    auto values = readIntArray(*v, f.key, rank, f.pow2, source);
    if (!values.ok())
      return values.error();
    *f.into = std::move(*values);
  }
  {
    std::vector<bool> seen(rank, false);
    const AttrValue* v = (*dict)->find("order");
    for (std::size_t i = 0; i < rank; ++i) {
      uint64_t d = params.order[i];
      if (d >= rank || seen[d])
        return makeError("order must be a permutation of 0.." + std::to_string(rank - 1) +
                             "; entry " + std::to_string(i) + " is " + std::to_string(d),
                         attrLocation(source, v->elements[i]));
      seen[d] = true;
    }
  }
  if (const AttrValue* cga = (*dict)->find("CGALayout")) {
    std::optional<std::size_t> cgaRank = rank;
    auto bases = readBasesArray(*cga, "CGALayout", cgaRank, source);
    if (!bases.ok())
      return bases.error();
    for (std::size_t i = 0; i < bases->size(); ++i)
      for (uint64_t x : (*bases)[i])
        if (x != 0 && !std::has_single_bit(x))
          return makeError("CGALayout[" + std::to_string(i) + "] has " + std::to_string(x) +
                               ", not a power of two or 0",
                           attrLocation(source, cga->elements[i]));
    params.cgaBases = std::move(*bases);
  }
  auto count = [](const std::vector<uint64_t>& v) {
    uint64_t n = 1;
    for (uint64_t x : v)
      n *= x;
    return n;
  };
  if (options.numWarps && count(params.warpsPerCTA) != *options.numWarps)
    return makeError("--num-warps " + std::to_string(*options.numWarps) +
                         " disagrees with the attribute, whose warpsPerCTA multiply to " +
                         std::to_string(count(params.warpsPerCTA)),
                     attrLocation(source, attr));
  if (options.threadsPerWarp && count(params.threadsPerWarp) != *options.threadsPerWarp)
    return makeError("--threads-per-warp " + std::to_string(*options.threadsPerWarp) +
                         " disagrees with the attribute, whose threadsPerWarp multiply to " +
                         std::to_string(count(params.threadsPerWarp)),
                     attrLocation(source, attr));
  auto l = blockedToLinearLayout(params, *shape);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

Result<LinearLayout> sliceEncoding(const AttrValue& attr, const SpecOptions& options,
                                   const std::string& source) {
  const std::string name = "ttg.slice";
  auto dict = encodingDict(attr, name, {"dim", "parent"}, {"dim", "parent"}, source);
  if (!dict.ok())
    return dict.error();
  auto shape = requireShape(attr, name, options, source);
  if (!shape.ok())
    return shape.error();
  const AttrValue* dimValue = (*dict)->find("dim");
  if (dimValue->kind != AttrValue::Kind::Integer)
    return makeError("dim must be an integer, got a " + std::string(dimValue->kindName()),
                     attrLocation(source, *dimValue));
  if (dimValue->integer < 0 || static_cast<uint64_t>(dimValue->integer) > shape->size())
    return makeError("dim " + std::to_string(dimValue->integer) +
                         " is out of range: the parent of a rank-" + std::to_string(shape->size()) +
                         " slice has rank " + std::to_string(shape->size() + 1),
                     attrLocation(source, *dimValue));
  const AttrValue* parentValue = (*dict)->find("parent");
  if (parentValue->kind != AttrValue::Kind::Attribute &&
      parentValue->kind != AttrValue::Kind::Alias)
    return makeError("parent must be an encoding attribute, got a " +
                         std::string(parentValue->kindName()),
                     attrLocation(source, *parentValue));
  auto dim = static_cast<std::size_t>(dimValue->integer);
  SpecOptions parentOptions = options;
  std::vector<uint64_t> parentShape = *shape;
  parentShape.insert(parentShape.begin() + static_cast<std::ptrdiff_t>(dim), 1);
  parentOptions.shape = parentShape;
  auto parent = attributeToLayout(*parentValue, parentOptions, source);
  if (!parent.ok())
    return parent.error();
  auto l = sliceToLinearLayout(*parent, static_cast<int>(dim));
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

std::string_view trimLeft(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
    ++i;
  return s.substr(i);
}

Result<LoadedLayout> loadAttributeText(std::string_view text, const SpecOptions& options,
                                       const std::string& source) {
  auto attr = parseAttribute(text, source);
  if (!attr.ok())
    return attr.error();
  auto l = attributeToLayout(*attr, options, source);
  if (!l.ok())
    return l.error();
  return LoadedLayout{*l, source, attr->text, ""};
}

} // namespace

Result<LinearLayout> attributeToLayout(const AttrValue& attr, const SpecOptions& options,
                                       const std::string& source) {
  if (attr.kind == AttrValue::Kind::Alias)
    return makeError("#" + attr.text +
                         " is an alias; a standalone SPEC must spell the attribute out "
                         "(aliases are resolved inside TTGIR files)",
                     attrLocation(source, attr));
  std::string name = attr.text;
  if (startsWith(name, "triton_gpu."))
    name = "ttg." + name.substr(11);
  if (name == "ttg.linear")
    return linearEncoding(attr, options, source);
  if (name == "ttg.blocked")
    return blockedEncoding(attr, options, source);
  if (name == "ttg.slice")
    return sliceEncoding(attr, options, source);
  return makeError("encoding #" + attr.text +
                       " is not supported yet (supported: #ttg.linear, #ttg.blocked, #ttg.slice)",
                   attrLocation(source, attr));
}

namespace {

std::string describeOuts(const LinearLayout& l) {
  std::string s;
  for (const DimSize& o : l.getOutDims())
    s += (s.empty() ? "" : " x ") + o.name.str() + " (" + std::to_string(o.size) + ")";
  return s.empty() ? "none" : s;
}

/// --shape, --num-warps and --threads-per-warp must agree with any layout they are given with:
/// a file that fixes them is checked, never silently overridden.
Error checkAgainstOptions(const LinearLayout& l, const SpecOptions& options,
                          const std::string& source) {
  if (options.shape) {
    const auto& shape = *options.shape;
    bool same = shape.size() == static_cast<std::size_t>(l.getNumOutDims());
    for (std::size_t d = 0; same && d < shape.size(); ++d)
      same = l.outDims()[d].name == dims::standardOut(static_cast<int>(d)) &&
             l.getOutDimSize(l.outDims()[d].name) == shape[d];
    if (!same) {
      std::string given;
      for (uint64_t v : shape)
        given += (given.empty() ? "" : "x") + std::to_string(v);
      return makeError("--shape " + given + " disagrees with the layout, whose outputs are " +
                           describeOuts(l),
                       source);
    }
  }
  auto checkCount = [&](const std::optional<uint64_t>& given, DimName dim,
                        const char* flag) -> Error {
    if (!given)
      return Error{};
    if (!l.hasInDim(dim))
      return makeError(std::string(flag) + " is given but the layout has no " + dim.str() +
                           " dimension",
                       source);
    if (l.getInDimSize(dim) != *given)
      return makeError(std::string(flag) + " " + std::to_string(*given) +
                           " disagrees with the layout, which has " +
                           std::to_string(l.getInDimSize(dim)) + " " + dim.str() + "s",
                       source);
    return Error{};
  };
  if (Error e = checkCount(options.numWarps, dims::kWarp, "--num-warps"); !e.message.empty())
    return e;
  return checkCount(options.threadsPerWarp, dims::kLane, "--threads-per-warp");
}

Result<LoadedLayout> checked(Result<LoadedLayout> loaded, const SpecOptions& options) {
  if (!loaded.ok())
    return loaded;
  if (Error e = checkAgainstOptions(loaded->layout, options, loaded->source); !e.message.empty())
    return e;
  return loaded;
}

Result<LoadedLayout> loadFileSpec(const std::string& spec, const SpecOptions& options) {
  auto text = readInputFile(spec);
  if (!text.ok()) {
    if (text.error().message == "no such file")
      return makeError("no such file, and not an attribute (attributes start with '#')", spec);
    return text.error();
  }
  if (startsWith(*text, "\xEF\xBB\xBF")) // a UTF-8 byte order mark, as some editors write
    text->erase(0, 3);
  std::string_view body = trimLeft(*text);
  if (body.empty())
    return makeError("empty file: expected Layout JSON, Triton's printed form or an attribute",
                     spec);
  if (body[0] == '{' || body[0] == '[') {
    auto j = parseJsonText(*text, spec);
    if (!j.ok())
      return j.error();
    auto l = layoutFromJson(*j);
    if (!l.ok())
      return l.error().within(spec);
    std::string description;
    if (j->is_object() && j->contains("description") && (*j)["description"].is_string())
      description = (*j)["description"].get<std::string>();
    return LoadedLayout{*l, spec, "json", description};
  }
  if (body[0] == '#')
    return loadAttributeText(*text, options, spec);
  if (startsWith(body, "-") || startsWith(body, "//") || startsWith(body, "(empty layout") ||
      startsWith(body, "where out dims")) {
    auto l = parseTritonString(*text, spec);
    if (!l.ok())
      return l.error();
    return LoadedLayout{*l, spec, "triton", ""};
  }
  return makeError("unrecognised content: expected Layout JSON ('{'), an attribute ('#...') or "
                   "Triton's printed form (' - register=1 -> (...)')",
                   spec);
}

} // namespace

Result<LoadedLayout> loadSpec(const std::string& spec, const SpecOptions& options) {
  if (startsWith(trimLeft(spec), "#"))
    return checked(loadAttributeText(spec, options, "attribute"), options);
  return checked(loadFileSpec(spec, options), options);
}

Result<std::string> toLinearAttr(const LinearLayout& layout) {
  static const char* kKeys[] = {"register", "lane", "warp", "block"};
  auto names = layout.getInDimNames();
  std::string found;
  for (DimName n : names)
    found += (found.empty() ? "" : ", ") + n.str();
  bool ok = names.size() == 4;
  for (std::size_t i = 0; ok && i < 4; ++i)
    ok = names[i].str() == kKeys[i];
  if (!ok)
    return makeError("#ttg.linear needs the input dims register, lane, warp, block in that order; "
                     "this layout has " +
                     (found.empty() ? std::string("none") : found));
  auto outs = layout.getOutDimNames();
  for (std::size_t d = 0; d < outs.size(); ++d)
    if (outs[d] != dims::standardOut(static_cast<int>(d)))
      return makeError("#ttg.linear needs the output dims dim0, dim1, ...; this layout has " +
                       outs[d].str() + " in position " + std::to_string(d));
  std::string s = "#ttg.linear<{";
  auto bases = layout.getBases();
  for (std::size_t i = 0; i < bases.size(); ++i) {
    s += (i ? ", " : "") + bases[i].name.str() + " = [";
    for (std::size_t b = 0; b < bases[i].bases.size(); ++b) {
      s += b ? ", [" : "[";
      for (std::size_t k = 0; k < bases[i].bases[b].size(); ++k)
        s += (k ? ", " : "") + std::to_string(bases[i].bases[b][k]);
      s += "]";
    }
    s += "]";
  }
  return s + "}>";
}

} // namespace llcheck
