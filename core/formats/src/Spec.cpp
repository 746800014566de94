// Loading a SPEC: format detection; an attribute goes to attributeToLayout (EncodingAttr.h).
#include "llcheck/core/Spec.h"

#include "attributes/AttrReading.h"
#include "llcheck/core/Cute.h"
#include "llcheck/core/EncodingAttr.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/Ttgir.h"

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
    return makeError("file is " + std::to_string(size) + " bytes; the limit for an input file is " +
                         std::to_string(kMaxInputBytes) + " (16 MiB, docs/limits.md)",
                     path);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return makeError("cannot open for reading", path);
  // Read in chunks into a string that grows by plain allocation: `ss << in.rdbuf()` turns an
  // allocation failure into a silently short read (the stream only sets its failbit), and the
  // file would then look cut short. The size check above bounds the loop.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes)
      return makeError("file is over " + std::to_string(kMaxInputBytes) +
                           " bytes; the limit for an input file is " +
                           std::to_string(kMaxInputBytes) + " (16 MiB, docs/limits.md)",
                       path);
  }
  if (in.bad())
    return makeError("read error", path);
  return text;
}

Result<nlohmann::json> readJsonFile(const std::string& path) {
  auto text = readInputFile(path);
  if (!text.ok())
    return text.error();
  return parseJsonText(*text, path);
}

Result<std::vector<uint64_t>> parseShape(std::string_view text) {
  std::vector<uint64_t> shape;
  std::size_t start = 0;
  if (text.empty())
    return contextError(ContextItem::Shape, "empty shape; expected e.g. 64x16",
                        contextName(ContextItem::Shape));
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
      return contextError(ContextItem::Shape,
                          "'" + std::string(text) + "' is not a shape like 64x16",
                          contextName(ContextItem::Shape));
    for (char c : part)
      v = v * 10 + static_cast<uint64_t>(c - '0');
    if (!std::has_single_bit(v))
      return contextError(ContextItem::Shape,
                          "size " + std::to_string(v) + " in '" + std::string(text) +
                              "' is not a power of two (Triton requires power-of-two shapes)",
                          contextName(ContextItem::Shape));
    shape.push_back(v);
    start = end + 1;
  }
  if (shape.size() > kMaxDims)
    return contextError(ContextItem::Shape,
                        "rank " + std::to_string(shape.size()) + " is too large",
                        contextName(ContextItem::Shape));
  return shape;
}

namespace {

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

std::string_view trimLeft(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
    ++i;
  return s.substr(i);
}

Result<LoadedLayout> loadAttributeText(std::string_view text, const LayoutContext& options,
                                       const std::string& source) {
  auto attr = parseAttribute(text, source);
  if (!attr.ok())
    return attr.error();
  auto l = attributeToLayout(*attr, options, source);
  if (!l.ok())
    return l.error();
  LoadedLayout loaded{*l, source, attr->text, "", {}};
  if (attr->kind == AttrValue::Kind::Attribute &&
      (attr->text == "ttg.padded_shared" || attr->text == "triton_gpu.padded_shared")) {
    auto padding = encodings::paddedSharedPadding(*attr, options, source);
    if (!padding.ok())
      return padding.error();
    loaded.padding = std::move(*padding);
  }
  return loaded;
}

std::string describeOuts(const LinearLayout& l) {
  std::string s;
  for (const DimSize& o : l.getOutDims())
    s += (s.empty() ? "" : " x ") + o.name.str() + " (" + std::to_string(o.size) + ")";
  return s.empty() ? "none" : s;
}

/// The shape and the numbers of warps and threads per warp must agree with any layout they are
/// given with: a file that fixes them is checked, never silently overridden.
Error checkAgainstOptions(const LinearLayout& l, const LayoutContext& options,
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
      return contextError(ContextItem::Shape,
                          contextName(ContextItem::Shape) + " " + given +
                              " disagrees with the layout, whose outputs are " + describeOuts(l),
                          source);
    }
  }
  auto checkCount = [&](const std::optional<uint64_t>& given, DimName dim,
                        ContextItem item) -> Error {
    if (!given)
      return Error{};
    if (!l.hasInDim(dim))
      return contextError(
          item, contextName(item) + " is given but the layout has no " + dim.str() + " dimension",
          source);
    if (l.getInDimSize(dim) != *given)
      return contextError(item,
                          contextName(item) + " " + std::to_string(*given) +
                              " disagrees with the layout, which has " +
                              std::to_string(l.getInDimSize(dim)) + " " + dim.str() + "s",
                          source);
    return Error{};
  };
  if (Error e = checkCount(options.numWarps, dims::kWarp, ContextItem::NumWarps);
      !e.message.empty())
    return e;
  return checkCount(options.threadsPerWarp, dims::kLane, ContextItem::ThreadsPerWarp);
}

Result<LoadedLayout> checked(Result<LoadedLayout> loaded, const LayoutContext& options) {
  if (!loaded.ok())
    return loaded;
  if (Error e = checkAgainstOptions(loaded->layout, options, loaded->source); !e.message.empty())
    return e;
  return loaded;
}

Result<LoadedLayout> loadFileSpec(const std::string& spec, const LayoutContext& options) {
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
  if (looksLikeTtgir(body)) {
    // A module holds many layouts; only `llcheck layout FILE` lists them. A malformed module
    // is reported as such first.
    auto m = readTtgir(*text, spec);
    if (!m.ok())
      return m.error();
    return makeError("is a TTGIR module with " + std::to_string(m->layouts.size()) +
                         " layouts; 'llcheck layout FILE' lists them (a SPEC is one layout)",
                     spec);
  }
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
    return LoadedLayout{*l, spec, "json", description, {}};
  }
  if (body[0] == '#')
    return loadAttributeText(*text, options, spec);
  if (startsWith(body, "-") || startsWith(body, "//") || startsWith(body, "(empty layout") ||
      startsWith(body, "where out dims")) {
    auto l = parseTritonString(*text, spec);
    if (!l.ok())
      return l.error();
    return LoadedLayout{*l, spec, "triton", "", {}};
  }
  return makeError("unrecognised content: expected Layout JSON ('{'), an attribute ('#...') or "
                   "Triton's printed form (' - register=1 -> (...)')",
                   spec);
}

} // namespace

Result<LoadedLayout> loadSpec(const std::string& spec, const LayoutContext& options) {
  if (startsWith(trimLeft(spec), "#"))
    return checked(loadAttributeText(spec, options, "attribute"), options);
  if (startsWith(trimLeft(spec), "cute:")) {
    auto cute = parseCuteLayout(spec);
    if (!cute.ok())
      return cute.error();
    auto l = cuteSharedLayout(*cute);
    if (!l.ok())
      return l.error().within("CuTe layout");
    return checked(LoadedLayout{*l, "CuTe layout", "cute", "", {}}, options);
  }
  return checked(loadFileSpec(spec, options), options);
}

std::string linearAttrViolation(const LinearLayout& layout, bool generic, TritonVersion triton) {
  if (generic && triton == TritonVersion::v3_6)
    return "#ttg.generic_linear does not exist in Triton 3.6 (it holds every distributed linear "
           "layout as #ttg.linear)";
  if (!generic && triton == TritonVersion::v3_9) {
    // The common case, on the packed columns: a basis that moves in one dim by a power of two
    // is a column with one bit set; a permutation uses each bit once; and it is surjective onto
    // the sizes its bases imply when each dim's used bits are the low ones, 0..k-1.
    uint64_t used = 0;
    bool permutation = true;
    for (uint64_t c : layout.columns()) {
      if (c == 0)
        continue;
      permutation = permutation && std::has_single_bit(c) && (used & c) == 0;
      used |= c;
    }
    for (int o = 0; permutation && o < layout.getNumOutDims(); ++o) {
      int width = layout.outDims()[static_cast<std::size_t>(o)].sizeLog2;
      uint64_t field =
          width == 0 ? 0 : (used >> layout.outDimOffset(o)) & (~uint64_t{0} >> (64 - width));
      permutation = (field & (field + 1)) == 0;
    }
    if (permutation)
      return "";
  }
  // Otherwise find the rule broken, basis by basis, to name it.
  const std::string name = generic ? "#ttg.generic_linear" : "#ttg.linear";
  auto bases = layout.getBases();
  auto show = [](const std::vector<uint64_t>& b) {
    std::string s = "[";
    for (std::size_t k = 0; k < b.size(); ++k)
      s += (k ? ", " : "") + std::to_string(b[k]);
    return s + "]";
  };
  std::vector<std::pair<std::string, std::vector<uint64_t>>> seen;
  const bool loose = triton == TritonVersion::v3_6;
  for (const DimBases& db : bases) {
    bool oneDimOnly = !generic || db.name != dims::kWarp;
    for (std::size_t i = 0; i < db.bases.size(); ++i) {
      const auto& b = db.bases[i];
      auto nonZero = std::count_if(b.begin(), b.end(), [](uint64_t v) { return v != 0; });
      if (nonZero == 0)
        continue;
      std::string at = db.name.str() + "[" + std::to_string(i) + "] = " + show(b);
      if (oneDimOnly && nonZero > 1)
        return name + " needs every " +
               (generic ? db.name.str() + " basis" : std::string("basis")) + " to move in one dim" +
               (loose ? " (Triton 3.6)" : "") + "; " + at + " moves in " + std::to_string(nonZero);
      if (generic || loose)
        continue;
      auto it = std::find_if(b.begin(), b.end(), [](uint64_t v) { return v != 0; });
      if (!std::has_single_bit(*it))
        return name + " needs a permutation matrix (each basis a power of two in one dim); " + at +
               " is not";
      for (const auto& [other, ob] : seen)
        if (ob == b)
          return name + " needs a permutation matrix (no two bases alike); " + at + " repeats " +
                 other;
      seen.push_back({at.substr(0, at.find(' ')), b});
    }
  }
  std::vector<DimName> outNames = layout.getOutDimNames();
  auto surjective = LinearLayout::create(bases, outNames);
  if (!surjective.ok())
    return name +
           " must reach every element of the out sizes its bases imply (Triton requires "
           "it to be surjective): " +
           surjective.error().message;
  return "";
}

Result<std::string> toLinearAttr(const LinearLayout& layout, TritonVersion triton) {
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
  std::string attrName = "#ttg.linear";
  if (std::string why = linearAttrViolation(layout, false, triton); !why.empty()) {
    if (triton == TritonVersion::v3_6)
      return makeError("no Triton 3.6 attribute holds this layout: " + why +
                       " (Layout JSON holds any layout)");
    if (std::string whyGeneric = linearAttrViolation(layout, true); !whyGeneric.empty())
      return makeError("no Triton attribute holds this layout: " + why + "; and " + whyGeneric +
                       " (Layout JSON holds any layout)");
    attrName = "#ttg.generic_linear";
  }
  std::string s = attrName + "<{";
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
