// The readers of the AMD encodings: #ttg.amd_mfma, #ttg.amd_wmma and #ttg.dot_op of either (the
// algorithms are in Amd.cpp).
//
// What is accepted, against Triton 3.9's own parser and printer:
// - amd_mfma: version (0..4, as Triton's verifier), warpsPerCTA, instrShape ([M, N, K]; Triton
//   also parses [M, N]), isTransposed, and optionally CGALayout, tilesPerWarp (default all 1) and
//   elementBitWidth (32 or 64, default 32), exactly the keys Triton prints. Triton leaves
//   isTransposed uninitialised when it is missing, so we require it.
// - amd_wmma: version (1..3), ctaLayout = {register = [...], warp = [...]} (tile units),
//   and optionally isTranspose (default false), CGALayout, instrShape (default [16, 16, 16];
//   v1 [16, 16, 16], v2 also [16, 16, 32], v3 [16, 16, K] with K 4, 32, 64 or 128) and rank.
//   Triton 3.9 prints two forms its own parser rejects, both unambiguous, so we accept them:
//   `ctaLayout = {}` or a ctaLayout without `warp` (one warp: the printer drops empty bases,
//   the parser then says "Expected basis of 'warp' not found"), and rank-3 layouts without
//   `rank = 3` (the printer never writes rank; the parser assumes 2 and says "Serialized rank
//   and rank deduced from LL need to match"). The rank comes from the shape, and must agree with
//   the bases and with `rank` when given.
// Triton's parsers ignore unknown keys (e.g. `isTransposed` in amd_wmma, whose key is
// `isTranspose`); we reject them, naming the key.
#include "AttrReading.h"

#include "llcheck/core/encodings/Amd.h"

#include <bit>

namespace llcheck::encodings {

namespace {

/// Where `key` is in `dict` (the dict's position without it), for attrLocation: only the
/// position is kept, copying the whole dictionary would cost more than the conversion.
AttrValue keyPosition(const AttrValue& dict, const std::string& key) {
  AttrValue at;
  at.line = dict.line;
  at.column = dict.column;
  for (const AttrEntry& e : dict.entries)
    if (e.first == key) {
      at.line = e.keyLine;
      at.column = e.keyColumn;
    }
  return at;
}

Result<bool> readBool(const AttrValue& v, const std::string& key, const std::string& source) {
  if (v.kind == AttrValue::Kind::Identifier && (v.text == "true" || v.text == "false"))
    return v.text == "true";
  return makeError(key + " must be true or false", attrLocation(source, v));
}

Result<uint64_t> readUInt(const AttrValue& v, const std::string& key, const std::string& source) {
  if (v.kind != AttrValue::Kind::Integer || v.integer < 0 || v.integer > (int64_t{1} << 32))
    return makeError(key + " must be a non-negative integer", attrLocation(source, v));
  return static_cast<uint64_t>(v.integer);
}

uint64_t product(const std::vector<uint64_t>& v) {
  uint64_t n = 1;
  for (uint64_t x : v)
    n *= x;
  return n;
}

/// The keys alone, checked before anything that needs the shape.
Result<const AttrValue*> mfmaDict(const AttrValue& attr, const std::string& source) {
  return encodingDict(attr, "ttg.amd_mfma",
                      {"version", "warpsPerCTA", "instrShape", "isTransposed", "CGALayout",
                       "tilesPerWarp", "elementBitWidth"},
                      {"version", "warpsPerCTA", "instrShape", "isTransposed"}, source);
}

/// Triton 3.9's form has ctaLayout = {register, warp}; Triton 3.6's warpsPerCTA and
/// tilesPerWarp.
Result<const AttrValue*> wmmaDict(const AttrValue& attr, const std::string& source,
                                  TritonVersion triton) {
  if (triton == TritonVersion::v3_6)
    return encodingDict(
        attr, "ttg.amd_wmma",
        {"version", "isTranspose", "warpsPerCTA", "tilesPerWarp", "instrShape", "CGALayout"},
        {"version", "warpsPerCTA"}, source);
  auto dict =
      encodingDict(attr, "ttg.amd_wmma",
                   {"version", "isTranspose", "ctaLayout", "CGALayout", "instrShape", "rank"},
                   {"version", "ctaLayout"}, source);
  if (!dict.ok())
    return dict;
  const AttrValue& cta = *(*dict)->find("ctaLayout");
  if (cta.kind != AttrValue::Kind::Dict)
    return makeError("ctaLayout must be a dictionary like {register = [[0, 1]], warp = [[1, 0]]}",
                     attrLocation(source, cta));
  for (const AttrEntry& e : cta.entries)
    if (e.first != "register" && e.first != "warp")
      return makeError("unknown key '" + utf8Prefix(e.first, 64) +
                           "' in ctaLayout (expected register, warp)",
                       attrLocation(source, keyPosition(cta, e.first)));
  return dict;
}

Result<MfmaParams> readMfma(const AttrValue& attr, std::size_t rank, const std::string& source) {
  auto dict = mfmaDict(attr, source);
  if (!dict.ok())
    return dict.error();
  const AttrValue& d = **dict;
  MfmaParams p;
  auto version = readUInt(*d.find("version"), "version", source);
  if (!version.ok())
    return version.error();
  if (*version > 4)
    return makeError("version must be in the [0, 4] range",
                     attrLocation(source, *d.find("version")));
  p.version = *version;
  auto warps = readIntArray(*d.find("warpsPerCTA"), "warpsPerCTA", rank, true, source);
  if (!warps.ok())
    return warps.error();
  p.warpsPerCTA = *warps;
  const AttrValue& instrValue = *d.find("instrShape");
  std::size_t instrLen = instrValue.kind == AttrValue::Kind::Array ? instrValue.elements.size() : 0;
  auto instr = readIntArray(instrValue, "instrShape", instrLen == 2 ? 2 : 3, false, source);
  if (!instr.ok())
    return instr.error();
  p.mDim = (*instr)[0];
  p.nDim = (*instr)[1];
  bool validTile = (p.mDim == 32 && p.nDim == 32) || (p.mDim == 16 && p.nDim == 16) ||
                   (p.mDim == 64 && p.nDim == 4) || (p.mDim == 4 && p.nDim == 64);
  if (!validTile)
    return makeError("invalid (mDim, nDim) combination: (" + std::to_string(p.mDim) + ", " +
                         std::to_string(p.nDim) +
                         "); expected (32, 32), (16, 16), (64, 4) or (4, 64)",
                     attrLocation(source, instrValue));
  auto transposed = readBool(*d.find("isTransposed"), "isTransposed", source);
  if (!transposed.ok())
    return transposed.error();
  p.isTransposed = *transposed;
  if (p.mDim == 64 && p.nDim == 4 && !p.isTransposed)
    return makeError("a 64x4 MFMA layout must have isTransposed = true (Triton asserts it)",
                     attrLocation(source, *d.find("isTransposed")));
  if (const AttrValue* t = d.find("tilesPerWarp")) {
    auto tiles = readIntArray(*t, "tilesPerWarp", rank, true, source);
    if (!tiles.ok())
      return tiles.error();
    p.tilesPerWarp = *tiles;
  }
  if (const AttrValue* e = d.find("elementBitWidth")) {
    auto bits = readUInt(*e, "elementBitWidth", source);
    if (!bits.ok())
      return bits.error();
    if (*bits != 32 && *bits != 64)
      return makeError("elementBitWidth must be 32 or 64", attrLocation(source, *e));
    p.elementBitWidth = *bits;
  }
  auto cga = readCgaBases(d.find("CGALayout"), rank, source);
  if (!cga.ok())
    return cga.error();
  p.cgaBases = *cga;
  return p;
}

Result<std::vector<std::vector<uint64_t>>> readTileBases(const AttrValue& ctaLayout,
                                                         const char* key, std::size_t rank,
                                                         const std::string& source) {
  const AttrValue* v = ctaLayout.find(key);
  if (!v)
    return std::vector<std::vector<uint64_t>>{};
  std::optional<std::size_t> r = rank;
  auto bases = readBasesArray(*v, std::string("ctaLayout.") + key, r, source);
  if (!bases.ok())
    return bases.error();
  if (bases->size() > 16)
    return makeError(std::string("ctaLayout.") + key + " has too many bases",
                     attrLocation(source, *v));
  for (std::size_t i = 0; i < bases->size(); ++i)
    for (uint64_t x : (*bases)[i])
      if (x >= (uint64_t{1} << 16))
        return makeError(std::string("ctaLayout.") + key + "[" + std::to_string(i) +
                             "] has the out-of-range value " + std::to_string(x),
                         attrLocation(source, v->elements[i]));
  return bases;
}

Result<WmmaParams> readWmma(const AttrValue& attr, std::size_t rank, const std::string& source,
                            TritonVersion triton) {
  auto dict = wmmaDict(attr, source, triton);
  if (!dict.ok())
    return dict.error();
  const AttrValue& d = **dict;
  WmmaParams p;
  auto version = readUInt(*d.find("version"), "version", source);
  if (!version.ok())
    return version.error();
  if (*version < 1 || *version > 3)
    return makeError("WMMA version must be in the [1, 3] range",
                     attrLocation(source, *d.find("version")));
  p.version = *version;
  if (const AttrValue* t = d.find("isTranspose")) {
    auto b = readBool(*t, "isTranspose", source);
    if (!b.ok())
      return b.error();
    p.isTransposed = *b;
  }
  if (const AttrValue* r = d.find("rank")) {
    auto given = readUInt(*r, "rank", source);
    if (!given.ok())
      return given.error();
    if (*given != rank)
      return contextError(ContextItem::Shape,
                          "rank = " + std::to_string(*given) + " but " +
                              contextName(ContextItem::Shape) + " has rank " + std::to_string(rank),
                          attrLocation(source, *r));
  }
  if (const AttrValue* i = d.find("instrShape")) {
    auto instr = readIntArray(*i, "instrShape", 3, false, source);
    if (!instr.ok())
      return instr.error();
    p.instrShape = *instr;
    const auto& s = p.instrShape;
    bool mn16 = s[0] == 16 && s[1] == 16;
    bool valid =
        mn16 && (s[2] == 16   ? p.version <= 2
                 : s[2] == 32 ? p.version >= 2
                              : p.version == 3 && (s[2] == 4 || s[2] == 64 || s[2] == 128));
    if (!valid)
      return makeError(
          "invalid WMMA v" + std::to_string(p.version) +
              " instruction shape (v1: [16, 16, 16]; v2: [16, 16, 16] or [16, 16, 32]; "
              "v3: [16, 16, K] with K 4, 32, 64 or 128)",
          attrLocation(source, *i));
  }
  if (triton == TritonVersion::v3_6) {
    auto warps = readIntArray(*d.find("warpsPerCTA"), "warpsPerCTA", rank, true, source);
    if (!warps.ok())
      return warps.error();
    p.warpsPerCTA = *warps;
    if (const AttrValue* t = d.find("tilesPerWarp")) {
      auto tiles = readIntArray(*t, "tilesPerWarp", rank, true, source);
      if (!tiles.ok())
        return tiles.error();
      p.tilesPerWarp = *tiles;
    }
    auto cga = readCgaBases(d.find("CGALayout"), rank, source);
    if (!cga.ok())
      return cga.error();
    p.cgaBases = *cga;
    return p;
  }
  const AttrValue& cta = *d.find("ctaLayout");
  auto regs = readTileBases(cta, "register", rank, source);
  if (!regs.ok())
    return regs.error();
  auto warps = readTileBases(cta, "warp", rank, source);
  if (!warps.ok())
    return warps.error();
  p.registerBases = *regs;
  p.warpBases = *warps;
  auto cga = readCgaBases(d.find("CGALayout"), rank, source);
  if (!cga.ok())
    return cga.error();
  p.cgaBases = *cga;
  return p;
}

Result<std::vector<uint64_t>> amdShape(const AttrValue& attr, const std::string& name,
                                       const LayoutContext& options, const std::string& source) {
  auto shape = requireShape(attr, name, options, source);
  if (!shape.ok())
    return shape.error();
  if (shape->size() != 2 && shape->size() != 3)
    return makeError("#" + name + " needs a shape of rank 2 or 3 (a leading batch dim), got " +
                         shapeText(*shape),
                     attrLocation(source, attr));
  return shape;
}

Error checkWarps(uint64_t warps, uint64_t lanes, const LayoutContext& options,
                 const AttrValue& attr, const std::string& source) {
  if (options.numWarps && *options.numWarps != warps)
    return contextError(
        ContextItem::NumWarps,
        contextName(ContextItem::NumWarps) + " " + std::to_string(*options.numWarps) +
            " disagrees with the attribute, which has " + std::to_string(warps) + " warps",
        attrLocation(source, attr));
  if (options.threadsPerWarp && *options.threadsPerWarp != lanes)
    return contextError(ContextItem::ThreadsPerWarp,
                        contextName(ContextItem::ThreadsPerWarp) + " " +
                            std::to_string(*options.threadsPerWarp) +
                            " disagrees with the attribute: " + attr.text + " has " +
                            std::to_string(lanes) + " lanes",
                        attrLocation(source, attr));
  return Error{};
}

} // namespace

Result<LinearLayout> amdMfmaEncoding(const AttrValue& attr, const LayoutContext& options,
                                     const std::string& source) {
  if (auto dict = mfmaDict(attr, source); !dict.ok())
    return dict.error();
  auto shape = amdShape(attr, "ttg.amd_mfma", options, source);
  if (!shape.ok())
    return shape.error();
  auto p = readMfma(attr, shape->size(), source);
  if (!p.ok())
    return p.error();
  if (Error e = checkWarps(product(p->warpsPerCTA), 64, options, attr, source); !e.message.empty())
    return e;
  auto l = mfmaToLinearLayout(*p, *shape);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

Result<LinearLayout> amdWmmaEncoding(const AttrValue& attr, const LayoutContext& options,
                                     const std::string& source) {
  if (auto dict = wmmaDict(attr, source, options.triton); !dict.ok())
    return dict.error();
  auto shape = amdShape(attr, "ttg.amd_wmma", options, source);
  if (!shape.ok())
    return shape.error();
  auto p = readWmma(attr, shape->size(), source, options.triton);
  if (!p.ok())
    return p.error();
  auto l = wmmaToLinearLayout(*p, *shape);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  if (Error e = checkWarps(l->getInDimSize(dims::kWarp), 32, options, attr, source);
      !e.message.empty())
    return e;
  return l;
}

Result<LinearLayout> amdDotOperandEncoding(const AttrValue& attr, const AttrValue& parent,
                                           int64_t opIdx, int64_t kWidth,
                                           const LayoutContext& options,
                                           const std::string& source) {
  std::string parentName = parent.text;
  if (parentName.rfind("triton_gpu.", 0) == 0)
    parentName = "ttg." + parentName.substr(11);
  bool isMfma = parentName == "ttg.amd_mfma";
  if (auto dict = isMfma ? mfmaDict(parent, source) : wmmaDict(parent, source, options.triton);
      !dict.ok())
    return dict.error();
  auto shape = amdShape(attr, "ttg.dot_op", options, source);
  if (!shape.ok())
    return shape.error();
  AttrValue kAt; // kWidth's position, for an error about it
  kAt.line = attr.line;
  kAt.column = attr.column;
  if (attr.entries.size() == 1)
    kAt = keyPosition(attr.entries[0].second, "kWidth");
  Result<LinearLayout> l = makeError("unreachable");
  if (isMfma) {
    auto p = readMfma(parent, shape->size(), source);
    if (!p.ok())
      return p.error();
    if (kWidth == 0)
      return makeError("kWidth is mandatory for an MFMA parent", attrLocation(source, attr));
    if (Error e = checkWarps(product(p->warpsPerCTA), 64, options, attr, source);
        !e.message.empty())
      return e;
    l = mfmaDotOperandToLinearLayout(*p, static_cast<int>(opIdx), static_cast<uint64_t>(kWidth),
                                     *shape);
  } else {
    auto p = readWmma(parent, shape->size(), source, options.triton);
    if (!p.ok())
      return p.error();
    if (options.triton == TritonVersion::v3_6)
      return makeError("the #ttg.dot_op operand of a Triton 3.6 #ttg.amd_wmma is not supported "
                       "(no Triton 3.6 reference has been checked for it)",
                       attrLocation(source, attr));
    // Triton's verifier: the kWidth each WMMA generation's operands come in.
    bool ok = p->version == 1   ? (kWidth == 8 || kWidth == 16)
              : p->version == 2 ? (kWidth == 4 || kWidth == 8 || kWidth == 16)
                                : kWidth != 0;
    if (!ok)
      return makeError("kWidth " + std::to_string(kWidth) + " is not allowed for a WMMA v" +
                           std::to_string(p->version) +
                           " parent (v1: 8 or 16; v2: 4, 8 or 16; v3: any, but it is mandatory)",
                       attrLocation(source, kAt));
    l = wmmaDotOperandToLinearLayout(*p, static_cast<int>(opIdx), static_cast<uint64_t>(kWidth),
                                     *shape);
    if (l.ok())
      if (Error e = checkWarps(l->getInDimSize(dims::kWarp), 32, options, attr, source);
          !e.message.empty())
        return e;
  }
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

} // namespace llcheck::encodings
