// The check of a conversion plan against enumeration (PlanCheck.h): SRC, DST and C tabulated from
// their bases, matched by dim name, and DST(C(x)) compared with SRC(x) at every location.
#include "PlanCheck.h"

#include "llcheck/core/Enumeration.h"

#include <vector>

namespace llcheck::fuzz {

namespace {

/// Flat index over `from` -> flat index of the same named point over `to` (first dim fastest,
/// as EnumeratedLayout flattens). Empty when a dim of `from` larger than 1 is missing in `to` or
/// larger there.
std::optional<std::vector<std::pair<uint64_t, uint64_t>>> reindex(const std::vector<DimSize>& from,
                                                                  const std::vector<DimSize>& to) {
  std::vector<std::pair<uint64_t, uint64_t>> parts; // per `from` dim: size, stride in `to`
  for (const DimSize& d : from) {
    uint64_t stride = 1, found = 0;
    for (const DimSize& e : to) {
      if (e.name == d.name) {
        found = e.size;
        break;
      }
      stride *= e.size;
    }
    if (found == 0 ? d.size > 1 : found < d.size)
      return std::nullopt;
    parts.emplace_back(d.size, found ? stride : 0);
  }
  return parts;
}

uint64_t moveIndex(const std::vector<std::pair<uint64_t, uint64_t>>& parts, uint64_t f) {
  uint64_t g = 0;
  for (auto [size, stride] : parts) {
    g += (f % size) * stride;
    f /= size;
  }
  return g;
}

std::string dimsText(const std::vector<DimSize>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + dims[i].name.str() + " " + std::to_string(dims[i].size);
  return s + "]";
}

} // namespace

std::optional<std::string> planViolation(const LinearLayout& src, const LinearLayout& dst,
                                         const LinearLayout& conversion) {
  auto ts = EnumeratedLayout::build(src, kMaxPlanCheckBits);
  auto td = EnumeratedLayout::build(dst, kMaxPlanCheckBits);
  auto tc = EnumeratedLayout::build(conversion, kMaxPlanCheckBits);
  if (!ts.ok() || !td.ok() || !tc.ok())
    return "too large to enumerate: " + (!ts.ok()   ? ts.error().str()
                                         : !td.ok() ? td.error().str()
                                                    : tc.error().str());
  auto srcToC = reindex(src.getInDims(), conversion.getInDims());
  auto cToDst = reindex(conversion.getOutDims(), dst.getInDims());
  auto dstToSrc = reindex(dst.getOutDims(), src.getOutDims());
  if (!srcToC || ts->numInputs() != tc->numInputs())
    return "C's inputs " + dimsText(conversion.getInDims()) + " are not SRC's " +
           dimsText(src.getInDims());
  if (!cToDst)
    return "C's outputs " + dimsText(conversion.getOutDims()) + " are not DST's inputs " +
           dimsText(dst.getInDims());
  if (!dstToSrc || dst.getTotalOutDimSize() != src.getTotalOutDimSize())
    return "DST's outputs " + dimsText(dst.getOutDims()) + " are not SRC's " +
           dimsText(src.getOutDims());
  for (uint64_t x = 0; x < ts->numInputs(); ++x) {
    uint64_t moved = moveIndex(*cToDst, tc->valueAt(moveIndex(*srcToC, x)));
    uint64_t got = moveIndex(*dstToSrc, td->valueAt(moved));
    if (got != ts->valueAt(x))
      return "SRC input " + std::to_string(x) + " holds element " + std::to_string(ts->valueAt(x)) +
             " but C moves it to DST input " + std::to_string(moved) + ", which holds " +
             std::to_string(got) + " (flat indices, first dim fastest)";
  }
  return std::nullopt;
}

} // namespace llcheck::fuzz
