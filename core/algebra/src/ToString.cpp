// LinearLayout::toString: Triton's printed form of a layout (formats/ reads it back,
// parseTritonString).
#include "llcheck/core/LinearLayout.h"

#include <string>

namespace llcheck {

std::string LinearLayout::toString() const {
  std::string outDimsStr = "[";
  for (std::size_t k = 0; k < outs_.size(); ++k)
    outDimsStr += (k ? ", " : "") + outs_[k].name.str() + " (size " +
                  std::to_string(pow2(outs_[k].sizeLog2)) + ")";
  outDimsStr += "]";
  if (ins_.empty())
    return outs_.empty() ? "\n(empty layout)" : "\n(empty layout with out-dims " + outDimsStr + ")";
  std::string ret = "\n";
  std::size_t j = 0;
  for (const Dim& d : ins_) {
    if (d.sizeLog2 == 0) {
      ret += " - " + d.name.str() + " is a size 1 dimension\n";
      continue;
    }
    for (int i = 0; i < d.sizeLog2; ++i, ++j) {
      ret += i == 0 ? " - " : "   ";
      ret += d.name.str() + "=" + std::to_string(uint64_t{1} << i) + " -> (";
      Point values = unpackOut(columns_[j]);
      for (std::size_t k = 0; k < values.size(); ++k)
        ret += (k ? ", " : "") + std::to_string(values[k].second);
      ret += ")\n";
    }
  }
  return ret + "where out dims are: " + outDimsStr;
}

} // namespace llcheck
