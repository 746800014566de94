// The checked readers of attribute fields that every encoding uses (see AttrReading.h).
#include "AttrReading.h"

#include <algorithm>
#include <bit>

namespace llcheck::encodings {

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
/// The one dictionary of `#ttg.NAME<{...}>`, its keys checked against `known` (each at most
/// once) and `required` present.
namespace {

std::string keyList(std::initializer_list<std::string_view> known) {
  std::string list;
  for (std::string_view k : known)
    list += (list.empty() ? "" : ", ") + std::string(k);
  return list;
}

} // namespace

Result<const AttrValue*> encodingDict(const AttrValue& attr, const std::string& name,
                                      std::initializer_list<std::string_view> known,
                                      std::initializer_list<std::string_view> required,
                                      const std::string& source) {
  if (attr.entries.size() != 1 || !attr.entries[0].first.empty() ||
      attr.entries[0].second.kind != AttrValue::Kind::Dict)
    return makeError("#" + name + " takes one dictionary: #" + name + "<{" + keyList(known) + "}>",
                     attrLocation(source, attr));
  return checkedDict(attr.entries[0].second, name, known, required, source);
}

Result<const AttrValue*> checkedDict(const AttrValue& dict, const std::string& name,
                                     std::initializer_list<std::string_view> known,
                                     std::initializer_list<std::string_view> required,
                                     const std::string& source) {
  for (const AttrEntry& entry : dict.entries) {
    AttrValue at;
    at.line = entry.keyLine;
    at.column = entry.keyColumn;
    if (std::find(known.begin(), known.end(), entry.first) == known.end())
      return makeError("unknown key '" + utf8Prefix(entry.first, 64) + "' in #" + name +
                           " (expected " + keyList(known) + ")",
                       attrLocation(source, at));
    for (const AttrEntry& other : dict.entries)
      if (&other != &entry && other.first == entry.first &&
          (other.keyLine < entry.keyLine ||
           (other.keyLine == entry.keyLine && other.keyColumn < entry.keyColumn)))
        return makeError("key '" + entry.first + "' appears twice", attrLocation(source, at));
  }
  for (std::string_view k : required)
    if (!dict.find(k))
      return makeError("#" + name + " is missing '" + std::string(k) + "'",
                       attrLocation(source, dict));
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
    return contextError(ContextItem::Shape,
                        key + " has " + std::to_string(v.elements.size()) + " entries, " +
                            contextName(ContextItem::Shape) + " has rank " + std::to_string(rank),
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

/// The shape is required by the encodings whose layout depends on it.
Result<std::vector<uint64_t>> requireShape(const AttrValue& attr, const std::string& name,
                                           const LayoutContext& options,
                                           const std::string& source) {
  if (!options.shape)
    return contextError(ContextItem::Shape,
                        "#" + name + " needs the tensor shape; pass " +
                            contextName(ContextItem::Shape) + " (e.g. " +
                            contextName(ContextItem::Shape) + " 64x16)",
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
/// CGALayout = [[...], ...]: one basis per block bit, each entry 0 or a power of two (the
/// block -> dims bases Triton prints).
Result<std::vector<std::vector<uint64_t>>> readCgaBases(const AttrValue* v, std::size_t rank,
                                                        const std::string& source) {
  if (!v)
    return std::vector<std::vector<uint64_t>>{};
  std::optional<std::size_t> cgaRank = rank;
  auto bases = readBasesArray(*v, "CGALayout", cgaRank, source);
  if (!bases.ok())
    return bases.error();
  for (std::size_t i = 0; i < bases->size(); ++i)
    for (uint64_t x : (*bases)[i])
      if (x != 0 && !std::has_single_bit(x))
        return makeError("CGALayout[" + std::to_string(i) + "] has " + std::to_string(x) +
                             ", not a power of two or 0",
                         attrLocation(source, v->elements[i]));
  return bases;
}

} // namespace llcheck::encodings
