// The second opinion: decide layout properties by computing the whole table of a layout and
// looking at it, with no rank, echelon form or solving. It reads only the raw bases (values
// per output dimension) and the output sizes, so a bug in the algebra's bit packing or
// elimination cannot hide in it. Limited to 2^maxInputBits inputs (default 2^24).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llcheck {

inline constexpr int kDefaultMaxEnumerationBits = 24;

class EnumeratedLayout {
public:
  /// Computes L(x) for every input x. An Error when the layout has more than 2^maxInputBits
  /// inputs.
  [[nodiscard]] static Result<EnumeratedLayout>
  build(const std::vector<DimBases>& bases, const std::vector<DimSize>& outDims,
        int maxInputBits = kDefaultMaxEnumerationBits);
  [[nodiscard]] static Result<EnumeratedLayout>
  build(const LinearLayout& layout, int maxInputBits = kDefaultMaxEnumerationBits) {
    return build(layout.getBases(), layout.getOutDims(), maxInputBits);
  }

  /// Inputs and outputs are flattened minor to major: x = Σ x_d · Π_{e<d} size_e.
  [[nodiscard]] uint64_t numInputs() const { return table_.size(); }
  [[nodiscard]] uint64_t valueAt(uint64_t flatInput) const { return table_[flatInput]; }

  /// The first collision in input order: (x1, x2) with x1 < x2, L(x1) = L(x2), x2 minimal.
  [[nodiscard]] std::optional<std::pair<uint64_t, uint64_t>> firstCollision() const;
  /// The smallest flattened output no input reaches.
  [[nodiscard]] std::optional<uint64_t> smallestMissingOutput() const;
  /// Input bit c (flattened) is free when some input whose highest set bit is c maps to 0: then
  /// L(2^c) is a combination of lower columns.
  [[nodiscard]] std::vector<uint64_t> freeVariableMasks() const;
  /// The largest V meeting the definition of getNumConsecutiveInOut, tested on every input,
  /// with output dimension `outDim` in the role of the first output dimension.
  [[nodiscard]] uint64_t numConsecutiveInOut(std::size_t outDim = 0) const;

  [[nodiscard]] const std::vector<DimSize>& inDims() const { return ins_; }
  [[nodiscard]] const std::vector<DimSize>& outDims() const { return outs_; }
  [[nodiscard]] uint64_t totalOutputs() const { return totalOut_; }

private:
  std::vector<DimSize> ins_;
  std::vector<DimSize> outs_;
  uint64_t totalOut_ = 1; // saturates: 0 means "2^64 or more" (then nothing is missing-checked)
  std::vector<uint64_t> table_;
};

} // namespace llcheck
