// The readers of #ttg.linear, #ttg.blocked and #ttg.slice (the algorithms are in Blocked.cpp).
#include "AttrReading.h"

#include "llcheck/core/EncodingAttr.h"
#include "llcheck/core/Encodings.h"
#include "llcheck/core/Formats.h"

#include <algorithm>
#include <bit>

namespace llcheck::encodings {

namespace {

/// #ttg.linear and #ttg.generic_linear: the same syntax, different rules (linearAttrViolation).
Result<LinearLayout> anyLinearEncoding(const AttrValue& attr, const LayoutContext& options,
                                       const std::string& source, bool generic) {
  static const char* kKeys[] = {"register", "lane", "warp", "block"};
  const std::string name = generic ? "#ttg.generic_linear" : "#ttg.linear";
  if (attr.entries.size() != 1 || !attr.entries[0].first.empty() ||
      attr.entries[0].second.kind != AttrValue::Kind::Dict)
    return makeError(name + " takes one dictionary: " + name +
                         "<{register = [...], lane = [...], warp = [...], block = [...]}>",
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
      return makeError("unknown key '" + utf8Prefix(key, 64) + "' in " + name +
                           " (expected register, lane, warp, block)",
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
      return makeError(name + " is missing '" + k +
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
      return contextError(ContextItem::Shape,
                          name + " has no bases to tell the tensor rank; pass " +
                              contextName(ContextItem::Shape),
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
  auto l = LinearLayout::create(bases, outs, /*requireSurjective=*/false);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  if (std::string why = linearAttrViolation(*l, generic, options.triton); !why.empty())
    return makeError(why + (generic || options.triton == TritonVersion::v3_6
                                ? ""
                                : " (a layout Triton holds as #ttg.generic_linear, or any "
                                  "layout as Layout JSON, can be given that way)"),
                     attrLocation(source, attr));
  if (options.shape) {
    const auto& shape = *options.shape;
    if (shape.size() != *rank)
      return contextError(ContextItem::Shape,
                          "the bases have " + std::to_string(*rank) + " entries (rank " +
                              std::to_string(*rank) + ") but " + contextName(ContextItem::Shape) +
                              " has rank " + std::to_string(shape.size()),
                          attrLocation(source, attr));
    auto tiled = linearToShape(*l, shape, options.triton);
    bool sameShape = true;
    for (std::size_t d = 0; d < *rank; ++d)
      sameShape = sameShape && outs[d].size == shape[d];
    // Triton aborts on swizzled register bases even when the shape needs no tiling; the layout
    // is then exactly what the attribute says, so llcheck gives it (docs/results.md, "Where llcheck
    // and Triton differ").
    if (!tiled.ok() && !sameShape)
      return tiled.error().within(attrLocation(source, attr));
    // Triton 3.9's Python cannot compute a #ttg.generic_linear laid over another shape (it
    // aborts), so there is no answer to check ours against: refuse rather than guess.
    if (generic && !sameShape)
      return makeError("laying #ttg.generic_linear over a shape other than its own (" +
                           shapeText([&] {
                             std::vector<uint64_t> own;
                             for (const DimSize& o : outs)
                               own.push_back(o.size);
                             return own;
                           }()) +
                           ") is not supported: Triton 3.9 gives no reference for it",
                       attrLocation(source, attr));
    if (tiled.ok())
      l = std::move(tiled);
  }
  auto checkCount = [&](const std::optional<uint64_t>& given, DimName dim,
                        ContextItem item) -> Error {
    if (given && *given != l->getInDimSize(dim))
      return contextError(item,
                          contextName(item) + " " + std::to_string(*given) +
                              " disagrees with the " + "attribute, which has " +
                              std::to_string(l->getInDimSize(dim)) + " " + dim.str() + "s",
                          attrLocation(source, attr));
    return Error{};
  };
  if (Error e = checkCount(options.numWarps, dims::kWarp, ContextItem::NumWarps);
      !e.message.empty())
    return e;
  if (Error e = checkCount(options.threadsPerWarp, dims::kLane, ContextItem::ThreadsPerWarp);
      !e.message.empty())
    return e;
  return l;
}

} // namespace

Result<LinearLayout> linearEncoding(const AttrValue& attr, const LayoutContext& options,
                                    const std::string& source) {
  return anyLinearEncoding(attr, options, source, /*generic=*/false);
}

Result<LinearLayout> genericLinearEncoding(const AttrValue& attr, const LayoutContext& options,
                                           const std::string& source) {
  return anyLinearEncoding(attr, options, source, /*generic=*/true);
}

Result<LinearLayout> blockedEncoding(const AttrValue& attr, const LayoutContext& options,
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
  auto cga = readCgaBases((*dict)->find("CGALayout"), rank, source);
  if (!cga.ok())
    return cga.error();
  params.cgaBases = std::move(*cga);
  auto count = [](const std::vector<uint64_t>& v) {
    uint64_t n = 1;
    for (uint64_t x : v)
      n *= x;
    return n;
  };
  if (options.numWarps && count(params.warpsPerCTA) != *options.numWarps)
    return contextError(ContextItem::NumWarps,
                        contextName(ContextItem::NumWarps) + " " +
                            std::to_string(*options.numWarps) +
                            " disagrees with the attribute, whose warpsPerCTA multiply to " +
                            std::to_string(count(params.warpsPerCTA)),
                        attrLocation(source, attr));
  if (options.threadsPerWarp && count(params.threadsPerWarp) != *options.threadsPerWarp)
    return contextError(ContextItem::ThreadsPerWarp,
                        contextName(ContextItem::ThreadsPerWarp) + " " +
                            std::to_string(*options.threadsPerWarp) +
                            " disagrees with the attribute, whose threadsPerWarp multiply to " +
                            std::to_string(count(params.threadsPerWarp)),
                        attrLocation(source, attr));
  auto l = blockedToLinearLayout(params, *shape, options.triton);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

Result<LinearLayout> sliceEncoding(const AttrValue& attr, const LayoutContext& options,
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
  LayoutContext parentOptions = options;
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
} // namespace llcheck::encodings
