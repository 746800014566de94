// Column access shared by the conversion algorithms (internal to core/analysis/src/conversion).
#pragma once

#include "llcheck/core/LinearLayout.h"

#include <cstdint>
#include <vector>

namespace llcheck::conversion {

/// The packed columns of input dim d, in bit order (empty when the layout has no such dim).
inline std::vector<uint64_t> columnsOf(const LinearLayout& l, DimName d) {
  auto cols = l.inDimColumns(d);
  return {cols.begin(), cols.end()};
}

/// The same without the zero columns (a broadcast bit moves no data).
inline std::vector<uint64_t> nonZeroColumnsOf(const LinearLayout& l, DimName d) {
  std::vector<uint64_t> out;
  for (uint64_t c : l.inDimColumns(d))
    if (c != 0)
      out.push_back(c);
  return out;
}

} // namespace llcheck::conversion
