// The contiguity of Contiguity.h: the layout's columns read as flat memory indices, then the
// identity (or a permutation of registers) looked for in the lowest bits.
#include "llcheck/core/conversion/Contiguity.h"

#include "llcheck/core/Encodings.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <string>

namespace llcheck {

namespace {

uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

} // namespace

Result<Contiguity> contiguity(const LinearLayout& regIn, const ContiguityOptions& options) {
  auto reg = withDistributedInDims(regIn);
  if (!reg.ok())
    return reg.error();
  int rank = reg->getNumOutDims();
  for (const Dim& d : reg->outDims()) {
    bool standard = false;
    for (int k = 0; k < rank; ++k)
      standard = standard || d.name == dims::standardOut(k);
    if (!standard)
      return makeError("output dimension '" + d.name.str() + "' is not one of dim0 .. dim" +
                       std::to_string(rank - 1) + ": a memory order needs the tensor's dims");
  }
  if (options.elementBits < 1 || options.elementBits > 64 ||
      !std::has_single_bit(static_cast<unsigned>(options.elementBits)))
    return makeError("element width " + std::to_string(options.elementBits) +
                     " bits is not a power of two from 1 to 64");
  if (options.maxAccessBits < options.elementBits ||
      !std::has_single_bit(static_cast<unsigned>(options.maxAccessBits)))
    return makeError("the access cap " + std::to_string(options.maxAccessBits) +
                     " bits is not a power of two of at least one element");
  Contiguity c;
  c.elementBits = options.elementBits;
  c.maxAccessBits = options.maxAccessBits;
  c.order = options.order;
  if (c.order.empty())
    for (int k = rank - 1; k >= 0; --k)
      c.order.push_back(k);
  std::vector<int> sorted = c.order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> expected(static_cast<std::size_t>(rank));
  std::iota(expected.begin(), expected.end(), 0);
  if (sorted != expected)
    return makeError("the order must be a permutation of 0 .. " + std::to_string(rank - 1) +
                     " (fastest dim first)");

  // Each column as a flat index: the packed output fields moved to their memory-order place.
  struct Field {
    int from, to, bits;
  };
  std::vector<Field> fields;
  int flatBit = 0;
  for (int k : c.order) {
    int i = reg->outDimIndex(dims::standardOut(k));
    int bits = reg->outDims()[i].sizeLog2;
    fields.push_back({reg->outDimOffset(i), flatBit, bits});
    flatBit += bits;
  }
  std::vector<uint64_t> flat;
  for (uint64_t col : reg->columns()) {
    uint64_t f = 0;
    for (const Field& fd : fields)
      f |= ((col >> fd.from) & lowMask(fd.bits)) << fd.to;
    flat.push_back(f);
  }
  int numRegs = reg->getInDimSizeLog2(dims::kRegister); // register bits come first

  // The paper's rule, bases in their own order: register bit v holds flat bit v ...
  int v = 0;
  while (v < numRegs && flat[v] == (uint64_t{1} << v))
    ++v;
  // ... and nothing else moves the bits below v.
  uint64_t others = 0;
  for (std::size_t j = static_cast<std::size_t>(v); j < flat.size(); ++j)
    others |= flat[j];
  if (others != 0)
    v = std::min(v, std::countr_zero(others));

  // With a permutation: flat bits 0, 1, ... each taken by some register basis, greedily. The
  // condition is monotone in v (a smaller v needs a subset of the same units and fewer clear
  // bits), so the greedy prefix, cut at the lowest bit another column touches, is the largest.
  std::vector<int> chosen;
  std::vector<bool> used(static_cast<std::size_t>(numRegs), false);
  for (int bit = 0;; ++bit) {
    int found = -1;
    for (int j = 0; j < numRegs && found < 0; ++j)
      if (!used[j] && flat[j] == (uint64_t{1} << bit))
        found = j;
    if (found < 0)
      break;
    used[found] = true;
    chosen.push_back(found);
  }
  int vp = static_cast<int>(chosen.size());
  uint64_t rest = 0;
  for (std::size_t j = 0; j < flat.size(); ++j)
    if (j >= static_cast<std::size_t>(numRegs) || !used[j])
      rest |= flat[j];
  if (rest != 0)
    vp = std::min(vp, std::countr_zero(rest));
  chosen.resize(static_cast<std::size_t>(vp));
  c.registerPermutation = chosen;
  for (int j = 0; j < numRegs; ++j)
    if (std::find(chosen.begin(), chosen.end(), j) == chosen.end())
      c.registerPermutation.push_back(j);

  auto cappedBits = [&](uint64_t elements) {
    uint64_t bits = elements * static_cast<uint64_t>(c.elementBits);
    return static_cast<int>(std::min<uint64_t>(bits, static_cast<uint64_t>(c.maxAccessBits)));
  };
  c.elements = uint64_t{1} << v;
  c.bits = cappedBits(c.elements);
  c.elementsWithPermutation = uint64_t{1} << vp;
  c.bitsWithPermutation = cappedBits(c.elementsWithPermutation);
  return c;
}

nlohmann::json toJson(const Contiguity& c) {
  return {{"order", c.order},
          {"elementBits", c.elementBits},
          {"maxAccessBits", c.maxAccessBits},
          {"elements", c.elements},
          {"bits", c.bits},
          {"withRegisterPermutation",
           {{"elements", c.elementsWithPermutation},
            {"bits", c.bitsWithPermutation},
            {"registerPermutation", c.registerPermutation}}}};
}

} // namespace llcheck
