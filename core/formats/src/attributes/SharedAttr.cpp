// The readers of the shared-memory and tensor-memory encodings (the algorithms are in
// Shared.cpp). Each checks every field with its position in the text, as Triton 3.9 prints and
// verifies them, before the layout is built.
#include "AttrReading.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/encodings/Shared.h"

#include <algorithm>
#include <bit>

namespace llcheck::encodings {

namespace {

AttrValue keyPosition(const AttrEntry& entry) {
  AttrValue at;
  at.line = entry.keyLine;
  at.column = entry.keyColumn;
  return at;
}

/// The `key = value` parameters written directly inside `#NAME<...>` (the struct syntax of
/// #ttng.tensor_memory_encoding), checked like encodingDict checks a dictionary.
Result<const AttrValue*> structParams(const AttrValue& attr, const std::string& name,
                                      const std::vector<std::string>& known,
                                      const std::vector<std::string>& required,
                                      const std::string& source) {
  std::string keyList;
  for (const std::string& k : known)
    keyList += (keyList.empty() ? "" : ", ") + k;
  for (const AttrEntry& entry : attr.entries) {
    if (entry.first.empty())
      return makeError("#" + name + " takes 'key = value' parameters (" + keyList + ")",
                       attrLocation(source, entry.second));
    if (std::find(known.begin(), known.end(), entry.first) == known.end())
      return makeError("unknown key '" + utf8Prefix(entry.first, 64) + "' in #" + name +
                           " (expected " + keyList + ")",
                       attrLocation(source, keyPosition(entry)));
    for (const AttrEntry& other : attr.entries) {
      if (&other == &entry)
        break;
      if (other.first == entry.first)
        return makeError("key '" + entry.first + "' appears twice",
                         attrLocation(source, keyPosition(entry)));
    }
  }
  for (const std::string& k : required)
    if (!attr.find(k))
      return makeError("#" + name + " is missing '" + k + "'", attrLocation(source, attr));
  return &attr;
}

/// A non-negative integer field, below `limit`.
Result<uint64_t> readUInt(const AttrValue& v, const std::string& key, const std::string& source,
                          uint64_t limit = uint64_t{1} << 32) {
  if (v.kind != AttrValue::Kind::Integer)
    return makeError(key + " must be an integer, got a " + std::string(v.kindName()),
                     attrLocation(source, v));
  if (v.integer < 0 || static_cast<uint64_t>(v.integer) > limit)
    return makeError(key + " has the out-of-range value " + std::to_string(v.integer),
                     attrLocation(source, v));
  return static_cast<uint64_t>(v.integer);
}

Result<bool> readBool(const AttrValue& v, const std::string& key, const std::string& source) {
  if (v.kind == AttrValue::Kind::Identifier && (v.text == "true" || v.text == "false"))
    return v.text == "true";
  return makeError(key + " must be true or false, got " +
                       (v.kind == AttrValue::Kind::Identifier ? "'" + utf8Prefix(v.text, 32) + "'"
                                                              : std::string("a ") + v.kindName()),
                   attrLocation(source, v));
}

/// order = [...]: a permutation of 0..rank-1.
Result<std::vector<uint64_t>> readOrder(const AttrValue& v, std::size_t rank,
                                        const std::string& source) {
  auto order = readIntArray(v, "order", rank, /*powerOfTwo=*/false, source);
  if (!order.ok())
    return order.error();
  std::vector<bool> seen(rank, false);
  for (std::size_t i = 0; i < rank; ++i) {
    uint64_t d = (*order)[i];
    if (d >= rank || seen[d])
      return makeError("order must be a permutation of 0.." + std::to_string(rank - 1) +
                           "; entry " + std::to_string(i) + " is " + std::to_string(d),
                       attrLocation(source, v.elements[i]));
    seen[d] = true;
  }
  return order;
}

Result<LinearLayout> within(Result<LinearLayout> l, const AttrValue& attr,
                            const std::string& source) {
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

/// #ttg.swizzled_shared and #ttg.amd_rotating_shared share their fields.
Result<LinearLayout> swizzledFamily(const AttrValue& attr, const LayoutContext& options,
                                    const std::string& source, const std::string& name,
                                    bool rotating) {
  auto dict = encodingDict(attr, name, {"vec", "perPhase", "maxPhase", "order", "CGALayout"},
                           {"vec", "perPhase", "maxPhase", "order"}, source);
  if (!dict.ok())
    return dict.error();
  auto shape = requireShape(attr, name, options, source);
  if (!shape.ok())
    return shape.error();
  SwizzledSharedParams params;
  for (auto [key, into] : {std::pair{"vec", &params.vec}, std::pair{"perPhase", &params.perPhase},
                           std::pair{"maxPhase", &params.maxPhase}}) {
    const AttrValue* v = (*dict)->find(key);
    auto x = readUInt(*v, key, source);
    if (!x.ok())
      return x.error();
    // Triton divides by perPhase and maxPhase (and aborts on 0); vec = 0 it accepts.
    if (*x == 0 && std::string(key) != "vec")
      return makeError(std::string(key) + " must be at least 1", attrLocation(source, *v));
    *into = *x;
  }
  auto order = readOrder(*(*dict)->find("order"), shape->size(), source);
  if (!order.ok())
    return order.error();
  params.order = std::move(*order);
  auto cga = readCgaBases((*dict)->find("CGALayout"), shape->size(), source);
  if (!cga.ok())
    return cga.error();
  params.cgaBases = std::move(*cga);
  return within(rotating ? amdRotatingSharedToLinearLayout(params, *shape)
                         : swizzledSharedToLinearLayout(params, *shape),
                attr, source);
}

/// offset = [[...]], block = [[...]] of shared_linear and padded_shared: the rank comes from
/// the bases, or from the shape when there are none.
struct SharedBases {
  std::vector<std::vector<uint64_t>> offset;
  std::vector<std::vector<uint64_t>> block;
  std::size_t rank = 0;
};

Result<SharedBases> readSharedBases(const AttrValue& dict, const AttrValue& attr,
                                    const LayoutContext& options, const std::string& source) {
  SharedBases ret;
  std::optional<std::size_t> rank;
  auto offset = readBasesArray(*dict.find("offset"), "offset", rank, source);
  if (!offset.ok())
    return offset.error();
  std::vector<std::vector<uint64_t>> block;
  if (const AttrValue* b = dict.find("block")) {
    auto read = readBasesArray(*b, "block", rank, source);
    if (!read.ok())
      return read.error();
    block = std::move(*read);
  }
  if (!rank || *rank == 0) {
    if (!options.shape || options.shape->empty())
      return contextError(ContextItem::Shape,
                          "the bases are empty, so they do not tell the tensor rank; pass " +
                              contextName(ContextItem::Shape),
                          attrLocation(source, attr));
    rank = options.shape->size();
  }
  if (options.shape && options.shape->size() != *rank)
    return contextError(ContextItem::Shape,
                        "the bases have rank " + std::to_string(*rank) + " but " +
                            contextName(ContextItem::Shape) + " has rank " +
                            std::to_string(options.shape->size()),
                        attrLocation(source, attr));
  ret.offset = std::move(*offset);
  ret.block = std::move(block);
  ret.rank = *rank;
  return ret;
}

/// The shape the bases cover (next power of two above each dim's largest value).
std::vector<uint64_t> coveredShape(const SharedBases& b) {
  std::vector<uint64_t> shape(b.rank, 1);
  for (const auto* bases : {&b.offset, &b.block})
    for (const auto& basis : *bases)
      for (std::size_t d = 0; d < b.rank; ++d)
        shape[d] = std::max(shape[d], std::bit_ceil(std::min(basis[d], uint64_t{1} << 62) + 1));
  return shape;
}

} // namespace

Result<LinearLayout> swizzledSharedEncoding(const AttrValue& attr, const LayoutContext& options,
                                            const std::string& source) {
  return swizzledFamily(attr, options, source, "ttg.swizzled_shared", /*rotating=*/false);
}

Result<LinearLayout> amdRotatingSharedEncoding(const AttrValue& attr, const LayoutContext& options,
                                               const std::string& source) {
  return swizzledFamily(attr, options, source, "ttg.amd_rotating_shared", /*rotating=*/true);
}

Result<LinearLayout> nvmmaSharedEncoding(const AttrValue& attr, const LayoutContext& options,
                                         const std::string& source) {
  const std::string name = "ttg.nvmma_shared";
  auto dict = encodingDict(
      attr, name,
      {"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank", "CGALayout"},
      {"swizzlingByteWidth", "transposed", "elementBitWidth"}, source);
  if (!dict.ok())
    return dict.error();
  auto shape = requireShape(attr, name, options, source);
  if (!shape.ok())
    return shape.error();
  NvmmaSharedParams params;
  const AttrValue* swizzle = (*dict)->find("swizzlingByteWidth");
  auto s = readUInt(*swizzle, "swizzlingByteWidth", source);
  if (!s.ok())
    return s.error();
  if (*s != 0 && *s != 32 && *s != 64 && *s != 128)
    return makeError("swizzlingByteWidth must be 0, 32, 64 or 128, got " + std::to_string(*s),
                     attrLocation(source, *swizzle));
  params.swizzlingByteWidth = *s;
  const AttrValue* bits = (*dict)->find("elementBitWidth");
  auto e = readUInt(*bits, "elementBitWidth", source);
  if (!e.ok())
    return e.error();
  if (*e != 8 && *e != 16 && *e != 32 && *e != 64)
    return makeError("elementBitWidth must be 8, 16, 32 or 64, got " + std::to_string(*e),
                     attrLocation(source, *bits));
  params.elementBitWidth = *e;
  auto t = readBool(*(*dict)->find("transposed"), "transposed", source);
  if (!t.ok())
    return t.error();
  params.transposed = *t;
  if (const AttrValue* fp4 = (*dict)->find("fp4Padded")) {
    auto f = readBool(*fp4, "fp4Padded", source);
    if (!f.ok())
      return f.error();
    params.fp4Padded = *f;
    // Triton 3.9's Gluon refuses fp4Padded with another swizzle; Triton 3.6 compiles it.
    if (params.fp4Padded && params.swizzlingByteWidth != 128 &&
        options.triton != TritonVersion::v3_6)
      return makeError("fp4Padded requires swizzlingByteWidth = 128", attrLocation(source, *fp4));
  }
  if (const AttrValue* rank = (*dict)->find("rank")) {
    auto r = readUInt(*rank, "rank", source);
    if (!r.ok())
      return r.error();
    if (*r != shape->size())
      return contextError(ContextItem::Shape,
                          "rank = " + std::to_string(*r) + " but " +
                              contextName(ContextItem::Shape) + " has rank " +
                              std::to_string(shape->size()),
                          attrLocation(source, *rank));
  }
  auto cga = readCgaBases((*dict)->find("CGALayout"), shape->size(), source);
  if (!cga.ok())
    return cga.error();
  params.cgaBases = std::move(*cga);
  return within(nvmmaSharedToLinearLayout(params, *shape, options.triton), attr, source);
}

Result<LinearLayout> sharedLinearEncoding(const AttrValue& attr, const LayoutContext& options,
                                          const std::string& source) {
  const std::string name = "ttg.shared_linear";
  // #ttg.shared_linear<{offset = ..., block = ...}, alignment = N>: the dictionary, then the
  // alignment as a parameter of its own.
  if (attr.entries.empty() || !attr.entries[0].first.empty() ||
      attr.entries[0].second.kind != AttrValue::Kind::Dict)
    return makeError("#" + name + " takes a dictionary and an alignment: #" + name +
                         "<{offset = [...], block = [...]}, alignment = 16>",
                     attrLocation(source, attr));
  // The dictionary is checked in place, and only the small rest of the attribute is copied:
  // copying the bases was a tenth of a conversion.
  auto dict = checkedDict(attr.entries[0].second, name, {"offset", "block"}, {"offset"}, source);
  if (!dict.ok())
    return dict.error();
  AttrValue rest;
  rest.kind = attr.kind;
  rest.integer = attr.integer;
  rest.text = attr.text;
  rest.elements = attr.elements;
  rest.line = attr.line;
  rest.column = attr.column;
  rest.entries.assign(attr.entries.begin() + 1, attr.entries.end());
  auto params = structParams(rest, name, {"alignment"}, {"alignment"}, source);
  if (!params.ok())
    return params.error();
  const AttrValue* alignment = rest.find("alignment");
  auto a = readUInt(*alignment, "alignment", source);
  if (!a.ok())
    return a.error();
  if (!std::has_single_bit(*a))
    return makeError("alignment must be a power of two, got " + std::to_string(*a),
                     attrLocation(source, *alignment));
  auto bases = readSharedBases(**dict, attr, options, source);
  if (!bases.ok())
    return bases.error();
  std::vector<uint64_t> shape = options.shape ? *options.shape : coveredShape(*bases);
  return within(sharedLinearToLinearLayout(bases->offset, bases->block, shape), attr, source);
}

namespace {

/// The two parts of #ttg.padded_shared<[interval:+pad, ...] {linear component}>.
struct PaddedParts {
  std::vector<IntervalPad> padding;
  LinearLayout linear;
};

Result<PaddedParts> readPadded(const AttrValue& attr, const LayoutContext& options,
                               const std::string& source) {
  const std::string name = "ttg.padded_shared";
  const std::string usage = "#" + name +
                            "<[interval:+pad, ...] {offset = [...], block = [...]}> or #" + name +
                            "<[interval:+pad, ...] {order = [...], shape = [...]}>";
  if (attr.entries.size() != 2 || !attr.entries[0].first.empty() ||
      !attr.entries[1].first.empty() || attr.entries[0].second.kind != AttrValue::Kind::Array ||
      attr.entries[1].second.kind != AttrValue::Kind::Dict)
    return makeError("#" + name + " takes a list of padding pairs and a dictionary: " + usage,
                     attrLocation(source, attr));
  PaddedParts ret;
  const AttrValue& pairs = attr.entries[0].second;
  if (pairs.elements.empty())
    return makeError("#" + name + " needs at least one interval:+pad pair",
                     attrLocation(source, pairs));
  for (const AttrValue& p : pairs.elements) {
    if (p.kind != AttrValue::Kind::IntervalPad)
      return makeError("padding entries must be interval:+pad pairs like 32:+4, got an " +
                           std::string(p.kindName()) + " value",
                       attrLocation(source, p));
    uint64_t interval = static_cast<uint64_t>(p.integer);
    uint64_t pad = static_cast<uint64_t>(p.elements[0].integer);
    if (p.integer <= 0 || !std::has_single_bit(interval) || p.elements[0].integer <= 0 ||
        !std::has_single_bit(pad))
      return makeError("interval " + std::to_string(p.integer) + " and padding " +
                           std::to_string(p.elements[0].integer) +
                           " must both be powers of two (at least 1)",
                       attrLocation(source, p));
    for (const IntervalPad& seen : ret.padding)
      if (seen.interval == interval)
        return makeError("interval " + std::to_string(interval) + " appears twice",
                         attrLocation(source, p));
    ret.padding.push_back({interval, pad});
  }
  AttrValue dictAttr;
  dictAttr.kind = AttrValue::Kind::Attribute;
  dictAttr.line = attr.line;
  dictAttr.column = attr.column;
  dictAttr.entries.push_back(attr.entries[1]);
  const AttrValue& dict = attr.entries[1].second;
  Result<LinearLayout> linear = LinearLayout{};
  if (dict.find("order") || dict.find("shape")) {
    auto d = encodingDict(dictAttr, name, {"order", "shape"}, {"order", "shape"}, source);
    if (!d.ok())
      return d.error();
    const AttrValue* shapeValue = dict.find("shape");
    if (shapeValue->kind != AttrValue::Kind::Array)
      return makeError("shape must be an array of integers, got a " +
                           std::string(shapeValue->kindName()),
                       attrLocation(source, *shapeValue));
    auto shape = readIntArray(*shapeValue, "shape", shapeValue->elements.size(),
                              /*powerOfTwo=*/true, source);
    if (!shape.ok())
      return shape.error();
    if (shape->empty())
      return makeError("shape must have at least one dim", attrLocation(source, *shapeValue));
    auto order = readOrder(*dict.find("order"), shape->size(), source);
    if (!order.ok())
      return order.error();
    linear = paddedIdentityComponent(*order, *shape);
  } else {
    auto d = encodingDict(dictAttr, name, {"offset", "block"}, {"offset"}, source);
    if (!d.ok())
      return d.error();
    auto bases = readSharedBases(dict, attr, options, source);
    if (!bases.ok())
      return bases.error();
    // Triton 3.9 builds the component as LL(offset) * LL(block), each of which must be
    // surjective onto the dims it reaches: block bases that need offsets to fill them are
    // rejected. Triton 3.6 takes the block bases as they are.
    auto offsetOnly = sharedLinearToLinearLayout(bases->offset, {},
                                                 coveredShape({bases->offset, {}, bases->rank}));
    if (!offsetOnly.ok())
      return offsetOnly.error().within(attrLocation(source, attr));
    if (!offsetOnly->isSurjective())
      return makeError("the offset bases must reach every element of the shape they cover",
                       attrLocation(source, attr));
    if (!bases->block.empty() && options.triton != TritonVersion::v3_6) {
      auto blockOnly = LinearLayout::create({DimBases{dims::kBlock, bases->block}},
                                            dims::standardOuts(bases->rank));
      if (!blockOnly.ok())
        return makeError("the block bases alone must reach every element of the shape they "
                         "cover, as Triton requires (" +
                             blockOnly.error().message + ")",
                         attrLocation(source, attr));
    }
    linear = sharedLinearToLinearLayout(bases->offset, bases->block, coveredShape(*bases));
  }
  if (!linear.ok())
    return linear.error().within(attrLocation(source, attr));
  if (options.shape) {
    bool same = options.shape->size() == static_cast<std::size_t>(linear->getNumOutDims());
    for (std::size_t d = 0; same && d < options.shape->size(); ++d)
      same = linear->getOutDimSize(dims::standardOut(static_cast<int>(d))) == (*options.shape)[d];
    if (!same)
      return contextError(ContextItem::Shape,
                          "the linear component covers a different shape than " +
                              contextName(ContextItem::Shape) + " " + shapeText(*options.shape),
                          attrLocation(source, attr));
  }
  ret.linear = *linear;
  return ret;
}

} // namespace

Result<LinearLayout> paddedSharedEncoding(const AttrValue& attr, const LayoutContext& options,
                                          const std::string& source) {
  auto parts = readPadded(attr, options, source);
  if (!parts.ok())
    return parts.error();
  return parts->linear;
}

Result<std::vector<IntervalPad>> paddedSharedPadding(const AttrValue& attr,
                                                     const LayoutContext& options,
                                                     const std::string& source) {
  auto parts = readPadded(attr, options, source);
  if (!parts.ok())
    return parts.error();
  return parts->padding;
}

Result<LinearLayout> tensorMemoryEncoding(const AttrValue& attr, const LayoutContext& options,
                                          const std::string& source) {
  const std::string name = "ttng.tensor_memory_encoding";
  // Triton 3.6 gives the CTA split as CTASplitM / CTASplitN (and has no fp4Padded), 3.9 as a
  // CGALayout.
  const bool v36 = options.triton == TritonVersion::v3_6;
  auto params =
      v36 ? structParams(attr, name,
                         {"blockM", "blockN", "colStride", "CTASplitM", "CTASplitN", "twoCTAs"},
                         {"blockM", "blockN", "colStride"}, source)
          : structParams(attr, name,
                         {"blockM", "blockN", "colStride", "CGALayout", "twoCTAs", "fp4Padded"},
                         {"blockM", "blockN", "colStride"}, source);
  if (!params.ok())
    return params.error();
  auto shape = requireShape(attr, name, options, source);
  if (!shape.ok())
    return shape.error();
  if (shape->size() != 2)
    return contextError(ContextItem::Shape,
                        "#" + name + " lays out rank-2 tensors; " +
                            contextName(ContextItem::Shape) + " has rank " +
                            std::to_string(shape->size()),
                        attrLocation(source, attr));
  TensorMemoryParams p;
  for (auto [key, into] : {std::pair{"blockM", &p.blockM}, std::pair{"blockN", &p.blockN},
                           std::pair{"colStride", &p.colStride}}) {
    const AttrValue* v = attr.find(key);
    auto x = readUInt(*v, key, source);
    if (!x.ok())
      return x.error();
    if (std::string(key) == "blockM" && *x != 64 && *x != 128)
      return makeError("blockM must be 64 or 128, got " + std::to_string(*x),
                       attrLocation(source, *v));
    // Wider strides than 4 never fit: bitwidth * colStride <= 32 with 8-bit elements at least.
    if (!std::has_single_bit(*x) || (std::string(key) == "colStride" && *x > 4))
      return makeError(
          std::string(key) + " has " + std::to_string(*x) +
              (std::string(key) == "colStride" ? ", not 1, 2 or 4" : ", not a power of two"),
          attrLocation(source, *v));
    *into = *x;
  }
  for (auto [key, into] : {std::pair{"twoCTAs", &p.twoCTAs}, std::pair{"fp4Padded", &p.fp4Padded}})
    if (const AttrValue* v = attr.find(key)) {
      auto b = readBool(*v, key, source);
      if (!b.ok())
        return b.error();
      *into = *b;
    }
  if (v36) {
    // CTASplitM = 2^k splits M over k block bits (the CGALayout bases [1, 0], [2, 0], ...), then
    // CTASplitN along N.
    std::size_t d = 0;
    for (const char* key : {"CTASplitM", "CTASplitN"}) {
      if (const AttrValue* v = attr.find(key)) {
        auto x = readUInt(*v, key, source);
        if (!x.ok())
          return x.error();
        if (!std::has_single_bit(*x) || *x > 256)
          return makeError(std::string(key) + " has " + std::to_string(*x) +
                               ", not a power of two up to 256",
                           attrLocation(source, *v));
        for (uint64_t step = 1; step < *x; step *= 2)
          p.cgaBases.push_back(d == 0 ? std::vector<uint64_t>{step, 0}
                                      : std::vector<uint64_t>{0, step});
      }
      ++d;
    }
    return within(tensorMemoryToLinearLayout(p, *shape), attr, source);
  }
  auto cga = readCgaBases(attr.find("CGALayout"), 2, source);
  if (!cga.ok())
    return cga.error();
  p.cgaBases = std::move(*cga);
  return within(tensorMemoryToLinearLayout(p, *shape), attr, source);
}

} // namespace llcheck::encodings
