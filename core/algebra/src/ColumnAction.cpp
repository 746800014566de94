// ColumnAction: permuting or selecting the bases of one input dimension.
#include "llcheck/core/LinearLayout.h"

#include <algorithm>
#include <numeric>

namespace llcheck {

Result<ColumnAction> ColumnAction::create(std::vector<int> action, DimName inDim, int inSizeLog2) {
  if (inSizeLog2 < 0 || inSizeLog2 > 63)
    return makeError("input size 2^" + std::to_string(inSizeLog2) + " is out of range",
                     "ColumnAction");
  for (std::size_t i = 0; i < action.size(); ++i)
    if (action[i] < 0 || action[i] >= inSizeLog2)
      return makeError("action[" + std::to_string(i) + "] = " + std::to_string(action[i]) +
                           " is not a basis of '" + inDim.str() + "' (which has " +
                           std::to_string(inSizeLog2) + ")",
                       "ColumnAction");
  ColumnAction a;
  a.action_ = std::move(action);
  a.inDim_ = inDim;
  a.inSizeLog2_ = inSizeLog2;
  return a;
}

ColumnAction ColumnAction::identity(DimName inDim, int inSizeLog2) {
  std::vector<int> action(static_cast<std::size_t>(inSizeLog2));
  std::iota(action.begin(), action.end(), 0);
  return create(std::move(action), inDim, inSizeLog2).value();
}

Result<LinearLayout> ColumnAction::apply(const LinearLayout& layout) const {
  int i = layout.inDimIndex(inDim_);
  if (i < 0)
    return makeError("'" + inDim_.str() + "' is not an input dimension of the layout",
                     "ColumnAction");
  if (layout.getInDimSizeLog2(inDim_) != inSizeLog2_)
    return makeError("'" + inDim_.str() + "' has " +
                         std::to_string(layout.getInDimSizeLog2(inDim_)) +
                         " bases, the action expects " + std::to_string(inSizeLog2_),
                     "ColumnAction");
  if (isIdentity())
    return layout;
  std::vector<Dim> ins(layout.inDims().begin(), layout.inDims().end());
  ins[i].sizeLog2 = static_cast<int>(action_.size());
  std::vector<uint64_t> cols;
  auto old = layout.columns();
  for (std::size_t k = 0, j = 0; k < layout.inDims().size(); ++k) {
    int n = layout.inDims()[k].sizeLog2;
    if (static_cast<int>(k) == i)
      for (int a : action_)
        cols.push_back(old[j + static_cast<std::size_t>(a)]);
    else
      cols.insert(cols.end(), old.begin() + static_cast<std::ptrdiff_t>(j),
                  old.begin() + static_cast<std::ptrdiff_t>(j) + n);
    j += static_cast<std::size_t>(n);
  }
  return LinearLayout::fromColumns(ins, layout.outDims(), cols);
}

Result<ColumnAction> ColumnAction::inverse() const {
  std::vector<int> sorted = action_;
  std::sort(sorted.begin(), sorted.end());
  bool permutation = sorted.size() == static_cast<std::size_t>(inSizeLog2_);
  for (std::size_t i = 0; i < sorted.size(); ++i)
    permutation = permutation && sorted[i] == static_cast<int>(i);
  if (!permutation)
    return makeError(toString() + " is not a permutation, so it has no inverse", "ColumnAction");
  std::vector<int> inv(action_.size());
  for (std::size_t i = 0; i < action_.size(); ++i)
    inv[static_cast<std::size_t>(action_[i])] = static_cast<int>(i);
  return create(std::move(inv), inDim_, inSizeLog2_);
}

Result<ColumnAction> ColumnAction::leftCompose(const ColumnAction& other) const {
  if (other.inDim_ != inDim_ || other.inSizeLog2_ != inSizeLog2_)
    return makeError("composing actions on different dimensions", "ColumnAction");
  std::vector<int> composed(other.action_.size());
  for (std::size_t i = 0; i < other.action_.size(); ++i) {
    auto a = static_cast<std::size_t>(other.action_[i]);
    if (a >= action_.size())
      return makeError(other.toString() + " selects a basis that " + toString() +
                           " does not produce",
                       "ColumnAction");
    composed[i] = action_[a];
  }
  return create(std::move(composed), inDim_, inSizeLog2_);
}

bool ColumnAction::isIdentity() const {
  if (static_cast<int>(action_.size()) != inSizeLog2_)
    return false;
  for (std::size_t i = 0; i < action_.size(); ++i)
    if (action_[i] != static_cast<int>(i))
      return false;
  return true;
}

std::string ColumnAction::toString() const {
  std::string s = "ColumnAction([";
  for (std::size_t i = 0; i < action_.size(); ++i)
    s += (i ? ", " : "") + std::to_string(action_[i]);
  return s + "], " + inDim_.str() + ", " + std::to_string(inSizeLog2_) + ")";
}

} // namespace llcheck
