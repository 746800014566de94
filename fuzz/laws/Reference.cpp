// The paper's definitions of distributed (Def. 4.10) and memory (Def. 4.14) layouts, checked
// from the bases by enumeration.
#include "Reference.h"

#include <bit>
#include <set>

namespace llcheck::fuzz {

namespace {

/// The column of input bit i of dim d as one integer: output values side by side, each in as
/// many bits as its size needs (computed from the sizes, not from core's packing).
std::vector<uint64_t> columnsOf(const LinearLayout& l) {
  std::vector<uint64_t> cols;
  std::vector<DimSize> outs = l.getOutDims();
  for (const DimBases& d : l.getBases())
    for (const std::vector<uint64_t>& b : d.bases) {
      uint64_t c = 0, m = 1;
      for (std::size_t k = 0; k < outs.size(); ++k) {
        c += b[k] * m;
        m *= outs[k].size;
      }
      cols.push_back(c);
    }
  return cols;
}

} // namespace

std::string distributedViolation(const LinearLayout& l) {
  for (const DimBases& d : l.getBases())
    if (d.name != dims::kRegister && d.name != dims::kLane && d.name != dims::kWarp &&
        d.name != dims::kBlock)
      return "input dim " + d.name.str() + " is not register, lane, warp or block";
  RefLayout r(l);
  if (imageOf(r).size() != r.numOutputs())
    return "not surjective (enumerated)";
  std::set<uint64_t> seen;
  for (uint64_t c : columnsOf(l)) {
    if (std::popcount(c) > 1)
      return "a column has " + std::to_string(std::popcount(c)) + " bits";
    if (c != 0 && !seen.insert(c).second)
      return "a non-zero column repeats";
  }
  return "";
}

std::string memoryViolation(const LinearLayout& l) {
  for (const DimBases& d : l.getBases())
    if (d.name != dims::kOffset && d.name != dims::kBlock)
      return "input dim " + d.name.str() + " is not offset or block";
  RefLayout r(l);
  if (r.numInputs() != r.numOutputs() || imageOf(r).size() != r.numOutputs())
    return "not invertible (enumerated)";
  for (uint64_t c : columnsOf(l))
    if (std::popcount(c) < 1 || std::popcount(c) > 2)
      return "a column has " + std::to_string(std::popcount(c)) + " bits";
  return "";
}

} // namespace llcheck::fuzz
