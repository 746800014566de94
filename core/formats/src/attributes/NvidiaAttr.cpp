// The readers of the NVIDIA encodings: #ttg.nvidia_mma and #ttg.dot_op of it or of #ttg.blocked
// (the algorithms are in Nvidia.cpp). Everything the attribute alone decides is checked before
// the shape is asked for, so a bad attribute is reported as such even without a shape.
#include "AttrReading.h"

#include "llcheck/core/encodings/Nvidia.h"

#include <bit>

namespace llcheck::encodings {

namespace {

Result<int64_t> readInteger(const AttrValue& v, const std::string& key, const std::string& source) {
  if (v.kind != AttrValue::Kind::Integer)
    return makeError(key + " must be an integer, got a " + std::string(v.kindName()),
                     attrLocation(source, v));
  return v.integer;
}

/// An integer array of any length (the rank is checked against the shape later).
Result<std::vector<uint64_t>> readAnyLengthArray(const AttrValue& v, const std::string& key,
                                                 bool powerOfTwo, const std::string& source) {
  if (v.kind != AttrValue::Kind::Array)
    return makeError(key + " must be an array of integers, got a " + std::string(v.kindName()),
                     attrLocation(source, v));
  return readIntArray(v, key, v.elements.size(), powerOfTwo, source);
}

/// An mma tile size must be 8 times a power of two (Triton asserts in nvidiaMmaTile).
Error checkTileSize(const AttrValue& instrShape, std::size_t i, uint64_t size, const char* what,
                    const std::string& source) {
  if (size < 8 || !std::has_single_bit(size))
    return makeError("instrShape's " + std::string(what) + " is " + std::to_string(size) +
                         "; it must be a power of two of at least 8",
                     attrLocation(source, instrShape.elements[i]));
  return Error{};
}

/// #ttg.nvidia_mma's fields, checked as far as the attribute alone allows.
Result<NvidiaMmaParams> readNvidiaMmaParams(const AttrValue& attr, const std::string& source) {
  const std::string name = "ttg.nvidia_mma";
  auto dict = encodingDict(
      attr, name, {"versionMajor", "versionMinor", "warpsPerCTA", "CGALayout", "instrShape"},
      {"versionMajor", "warpsPerCTA", "instrShape"}, source);
  if (!dict.ok())
    return dict.error();
  NvidiaMmaParams mma;
  const AttrValue* major = (*dict)->find("versionMajor");
  auto majorValue = readInteger(*major, "versionMajor", source);
  if (!majorValue.ok())
    return majorValue.error();
  mma.versionMajor = *majorValue;
  // Triton's verifier: Volta is gone, and toLinearLayout knows only Ampere and Hopper.
  if (mma.versionMajor == 1)
    return makeError("versionMajor = 1 (Volta) is deprecated and no longer supported by Triton",
                     attrLocation(source, *major));
  if (mma.versionMajor != 2 && mma.versionMajor != 3)
    return makeError("versionMajor must be 2 (Ampere) or 3 (Hopper), got " +
                         std::to_string(mma.versionMajor),
                     attrLocation(source, *major));
  if (const AttrValue* minor = (*dict)->find("versionMinor")) {
    auto minorValue = readInteger(*minor, "versionMinor", source);
    if (!minorValue.ok())
      return minorValue.error();
    if (*minorValue < 0)
      return makeError("versionMinor must not be negative", attrLocation(source, *minor));
    mma.versionMinor = *minorValue;
  }
  const AttrValue* warps = (*dict)->find("warpsPerCTA");
  auto warpsValue = readAnyLengthArray(*warps, "warpsPerCTA", /*powerOfTwo=*/true, source);
  if (!warpsValue.ok())
    return warpsValue.error();
  mma.warpsPerCTA = std::move(*warpsValue);
  std::size_t rank = mma.warpsPerCTA.size();
  if (rank < 2)
    return makeError("warpsPerCTA has " + std::to_string(rank) +
                         " entries; an mma layout has rank at least 2",
                     attrLocation(source, *warps));
  if (mma.versionMajor == 3 && rank != 2)
    return makeError("warpsPerCTA has " + std::to_string(rank) +
                         " entries; version 3 (Hopper) supports rank 2 only",
                     attrLocation(source, *warps));
  const AttrValue* instr = (*dict)->find("instrShape");
  auto instrValue = readAnyLengthArray(*instr, "instrShape", /*powerOfTwo=*/false, source);
  if (!instrValue.ok())
    return instrValue.error();
  mma.instrShape = std::move(*instrValue);
  if (mma.versionMajor == 2 && mma.instrShape.size() != rank)
    return makeError("instrShape has " + std::to_string(mma.instrShape.size()) +
                         " entries; version 2 needs one per dim of warpsPerCTA (" +
                         std::to_string(rank) + ")",
                     attrLocation(source, *instr));
  if (mma.versionMajor == 3 && mma.instrShape.size() < 2)
    return makeError("instrShape of version 3 must be [M, N, K]", attrLocation(source, *instr));
  // The tile's M and N: the last two entries for version 2, [M, N, K]'s first two for version 3.
  std::size_t mIndex = mma.versionMajor == 2 ? rank - 2 : 0;
  if (Error e = checkTileSize(*instr, mIndex, mma.instrShape[mIndex], "M", source);
      !e.message.empty())
    return e;
  if (Error e = checkTileSize(*instr, mIndex + 1, mma.instrShape[mIndex + 1], "N", source);
      !e.message.empty())
    return e;
  auto cga = readCgaBases((*dict)->find("CGALayout"), rank, source);
  if (!cga.ok())
    return cga.error();
  mma.cgaBases = std::move(*cga);
  return mma;
}

/// The shape, of the rank the attribute's warpsPerCTA (or order) fixes.
Result<std::vector<uint64_t>> shapeOfRank(const AttrValue& attr, const std::string& name,
                                          std::size_t rank, const LayoutContext& options,
                                          const std::string& source) {
  auto shape = requireShape(attr, name, options, source);
  if (!shape.ok())
    return shape.error();
  if (shape->size() != rank)
    return contextError(ContextItem::Shape,
                        "#" + name + " has rank " + std::to_string(rank) + " but " +
                            contextName(ContextItem::Shape) + " " + shapeText(*shape) +
                            " has rank " + std::to_string(shape->size()),
                        attrLocation(source, attr));
  return shape;
}

Error checkCounts(const NvidiaMmaParams& mma, const LayoutContext& options, const AttrValue& attr,
                  const std::string& source) {
  uint64_t warps = 1;
  for (uint64_t w : mma.warpsPerCTA)
    warps *= w;
  if (options.numWarps && *options.numWarps != warps)
    return contextError(
        ContextItem::NumWarps,
        contextName(ContextItem::NumWarps) + " " + std::to_string(*options.numWarps) +
            " disagrees with the attribute, whose warpsPerCTA multiply to " + std::to_string(warps),
        attrLocation(source, attr));
  if (options.threadsPerWarp && *options.threadsPerWarp != 32)
    return contextError(ContextItem::ThreadsPerWarp,
                        contextName(ContextItem::ThreadsPerWarp) + " " +
                            std::to_string(*options.threadsPerWarp) +
                            " disagrees with #ttg.nvidia_mma, whose warps have 32 lanes",
                        attrLocation(source, attr));
  return Error{};
}

bool isNamed(const AttrValue& attr, const std::string& ttgName) {
  return attr.text == "ttg." + ttgName || attr.text == "triton_gpu." + ttgName;
}

/// The parameters of a #ttg.blocked parent that blockedEncoding has already checked.
Result<BlockedParams> readCheckedBlocked(const AttrValue& parent, std::size_t rank,
                                         const std::string& source) {
  const AttrValue& dict = parent.entries[0].second;
  BlockedParams params;
  struct Field {
    const char* key;
    std::vector<uint64_t>* into;
  };
  for (Field f : {Field{"sizePerThread", &params.sizePerThread},
                  Field{"threadsPerWarp", &params.threadsPerWarp},
                  Field{"warpsPerCTA", &params.warpsPerCTA}, Field{"order", &params.order}}) {
    auto values = readIntArray(*dict.find(f.key), f.key, rank, /*powerOfTwo=*/false, source);
    if (!values.ok())
      return values.error();
    *f.into = std::move(*values);
  }
  auto cga = readCgaBases(dict.find("CGALayout"), rank, source);
  if (!cga.ok())
    return cga.error();
  params.cgaBases = std::move(*cga);
  return params;
}

Result<LinearLayout> mmaDotOperand(const AttrValue& attr, const AttrValue& parent, int64_t opIdx,
                                   int64_t kWidth, const LayoutContext& options,
                                   const std::string& source) {
  auto mma = readNvidiaMmaParams(parent, source);
  if (!mma.ok())
    return mma.error();
  const AttrValue& dict = attr.entries[0].second;
  // Triton's DotOperandEncodingAttr verifier.
  if (kWidth == 0)
    return makeError("#ttg.dot_op needs kWidth when the parent is #ttg.nvidia_mma (Ampere or "
                     "Hopper)",
                     attrLocation(source, dict));
  if (!std::has_single_bit(static_cast<uint64_t>(kWidth)))
    return makeError("kWidth " + std::to_string(kWidth) + " is not a power of two",
                     attrLocation(source, *dict.find("kWidth")));
  if (mma->versionMajor == 3 && opIdx != 0)
    return makeError("opIdx must be 0 when the parent is Hopper's #ttg.nvidia_mma (version 3): "
                     "wgmma reads only the first operand from registers",
                     attrLocation(source, *dict.find("opIdx")));
  auto shape = shapeOfRank(attr, "ttg.dot_op", mma->warpsPerCTA.size(), options, source);
  if (!shape.ok())
    return shape.error();
  if (Error e = checkCounts(*mma, options, attr, source); !e.message.empty())
    return e;
  auto l = nvidiaMmaDotOperandToLinearLayout(*mma, static_cast<int>(opIdx),
                                             static_cast<uint64_t>(kWidth), *shape);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

Result<LinearLayout> fmaDotOperand(const AttrValue& attr, const AttrValue& parent, int64_t opIdx,
                                   int64_t kWidth, const LayoutContext& options,
                                   const std::string& source) {
  const AttrValue& dict = attr.entries[0].second;
  if (kWidth != 0)
    return makeError("kWidth is not supported when the parent of #ttg.dot_op is #ttg.blocked",
                     attrLocation(source, *dict.find("kWidth")));
  auto shape = requireShape(attr, "ttg.dot_op", options, source);
  if (!shape.ok())
    return shape.error();
  if (shape->size() < 2)
    return makeError("#ttg.dot_op needs a shape of rank at least 2 ([M, K] or [K, N]), got " +
                         shapeText(*shape),
                     attrLocation(source, attr));
  // The parent's own reader checks every field (and the counts against the options) over the
  // operand's shape; only then are its fields read back.
  if (auto checked = blockedEncoding(parent, options, source); !checked.ok())
    return checked.error();
  auto params = readCheckedBlocked(parent, shape->size(), source);
  if (!params.ok())
    return params.error();
  auto l = fmaDotOperandToLinearLayout(*params, static_cast<int>(opIdx), *shape);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

} // namespace

Result<LinearLayout> nvidiaMmaEncoding(const AttrValue& attr, const LayoutContext& options,
                                       const std::string& source) {
  auto mma = readNvidiaMmaParams(attr, source);
  if (!mma.ok())
    return mma.error();
  auto shape = shapeOfRank(attr, "ttg.nvidia_mma", mma->warpsPerCTA.size(), options, source);
  if (!shape.ok())
    return shape.error();
  if (Error e = checkCounts(*mma, options, attr, source); !e.message.empty())
    return e;
  auto l = nvidiaMmaToLinearLayout(*mma, *shape);
  if (!l.ok())
    return l.error().within(attrLocation(source, attr));
  return l;
}

Result<LinearLayout> nvidiaDotOperandEncoding(const AttrValue& attr, const AttrValue& parent,
                                              int64_t opIdx, int64_t kWidth,
                                              const LayoutContext& options,
                                              const std::string& source) {
  if (isNamed(parent, "nvidia_mma"))
    return mmaDotOperand(attr, parent, opIdx, kWidth, options, source);
  if (isNamed(parent, "blocked"))
    return fmaDotOperand(attr, parent, opIdx, kWidth, options, source);
  return makeError("#ttg.dot_op with parent #" + parent.text + " is not an NVIDIA dot operand",
                   attrLocation(source, parent));
}

} // namespace llcheck::encodings
