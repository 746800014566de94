// Fuzz target: CuTe SPECs (cute:Sw<B,M,S> o smem_ptr[Nb] o shape:stride). Any input gives a
// layout or an Error; an accepted layout must equal CuTe's formula, evaluated here directly with
// integer arithmetic, on every input (up to 2^12), and its shared-memory form must invert it.
#include "llcheck/core/Cute.h"

#include <cstdlib>
#include <string_view>

namespace {

uint64_t cuteFormula(const llcheck::CuteLayout& l, const std::vector<uint64_t>& index) {
  uint64_t offset = 0;
  for (std::size_t k = 0; k < l.modes.size(); ++k) {
    uint64_t rest = index[k];
    for (const llcheck::CuteLeaf& leaf : l.modes[k]) {
      offset += (rest % leaf.shape) * leaf.stride;
      rest /= leaf.shape;
    }
  }
  if (!l.swizzle || l.swizzle->bits == 0)
    return offset;
  uint64_t bytes = l.elementBits ? static_cast<uint64_t>(l.elementBits / 8) : 1;
  uint64_t x = offset * bytes;
  const llcheck::CuteSwizzle& s = *l.swizzle;
  uint64_t y = x & (((uint64_t{1} << s.bits) - 1) << (s.base + (s.shift > 0 ? s.shift : 0)));
  return (x ^ (s.shift >= 0 ? y >> s.shift : y << -s.shift)) / bytes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = llcheck::parseCuteLayout(text);
  if (!parsed.ok())
    return 0;
  auto forward = llcheck::cuteForwardLayout(*parsed);
  auto shared = llcheck::cuteSharedLayout(*parsed);
  if (!forward.ok()) {
    if (shared.ok())
      std::abort(); // a shared form of a layout that has no linear form
    return 0;
  }
  if (shared.ok() != forward->isInvertible())
    std::abort();
  if (forward->getTotalInDimSizeLog2() > 12)
    return 0;
  for (uint64_t flat = 0; flat < forward->getTotalInDimSize(); ++flat) {
    llcheck::Point in = forward->unpackIn(flat);
    std::vector<uint64_t> index;
    for (const auto& [name, v] : in)
      index.push_back(v);
    uint64_t want = cuteFormula(*parsed, index);
    if (forward->apply(in).value()[0].second != want)
      std::abort(); // the linear layout differs from CuTe's formula
    if (shared.ok() &&
        shared->apply({{llcheck::dims::kOffset, want}, {llcheck::dims::kBlock, 0}}).value() != in)
      std::abort(); // the shared form does not invert it
  }
  return 0;
}
