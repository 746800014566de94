// The second opinion: decide layout properties by computing L(x) for every input x and looking
// at the values, with no rank, echelon form or solving. It reads only the raw bases (values per
// output dimension) and the output sizes, so a bug in the algebra's bit packing or elimination
// cannot hide in it. Limited to 2^maxInputBits inputs (default 2^24, at most 2^28 from the
// command line).
//
// Memory is bounded, whatever the layout: the table of L is never materialized. L(x) is the XOR
// of the columns of x's set bits; it is computed on the fly as lo[x mod 2^k] ^ hi[x >> k] from
// two tables of 2^(n/2) partial XORs each (n input bits). The queries stream over the inputs and
// keep at most kEnumerationMemoryBytes of bitmaps or hash sets of outputs (see firstCollision).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llcheck {

inline constexpr int kDefaultMaxEnumerationBits = 24;
/// The most memory the queries of one EnumeratedLayout keep at a time (bitmaps of outputs, hash
/// sets of outputs), beyond its two 2^(n/2)-entry tables.
inline constexpr uint64_t kEnumerationMemoryBytes = uint64_t{256} << 20;

/// Called now and then (every 2^20 inputs) during a long pass over the inputs: `done` of `total`
/// steps of the query `what` ("injectivity", "surjectivity", ...). For progress lines.
using EnumerationProgress =
    std::function<void(std::string_view what, uint64_t done, uint64_t total)>;

class EnumeratedLayout {
public:
  /// An Error when the layout has more than 2^maxInputBits inputs.
  [[nodiscard]] static Result<EnumeratedLayout>
  build(const std::vector<DimBases>& bases, const std::vector<DimSize>& outDims,
        int maxInputBits = kDefaultMaxEnumerationBits);
  [[nodiscard]] static Result<EnumeratedLayout>
  build(const LinearLayout& layout, int maxInputBits = kDefaultMaxEnumerationBits) {
    return build(layout.getBases(), layout.getOutDims(), maxInputBits);
  }

  /// Inputs and outputs are flattened minor to major: x = Σ x_d · Π_{e<d} size_e.
  [[nodiscard]] uint64_t numInputs() const { return uint64_t{1} << inBits_; }
  /// L(x), for x < numInputs().
  [[nodiscard]] uint64_t valueAt(uint64_t flatInput) const {
    return lo_[flatInput & loMask_] ^ hi_[flatInput >> loBits_];
  }

  /// The first collision in input order: (x1, x2) with x1 < x2, L(x1) = L(x2), x2 minimal.
  /// A bitmap indexed by the values squeezed to the output bits that some column sets, where
  /// there are at most 8 * memoryBudget() such values (a layout whose columns are single bits:
  /// 2^n); otherwise hash sets of the values, one slice of the hash values per pass over the
  /// inputs, as many passes as keep each set within memoryBudget().
  [[nodiscard]] std::optional<std::pair<uint64_t, uint64_t>> firstCollision() const;
  /// The smallest flattened output no input reaches (it is at most numInputs(): a bitmap of
  /// min(outputs, inputs + 1) bits).
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

  /// Progress of the long passes (none by default).
  void setProgress(EnumerationProgress progress) { progress_ = std::move(progress); }
  /// The memory the queries may keep (kEnumerationMemoryBytes by default; the tests lower it to
  /// exercise the multi-pass collision search on small layouts).
  void setMemoryBudget(uint64_t bytes) { budget_ = bytes; }
  [[nodiscard]] uint64_t memoryBudget() const { return budget_; }

private:
  /// Reports progress every 2^20 steps (cheap otherwise).
  void tick(std::string_view what, uint64_t done, uint64_t total) const {
    if (progress_ && (done & ((uint64_t{1} << 20) - 1)) == 0)
      progress_(what, done, total);
  }

  std::vector<DimSize> ins_;
  std::vector<DimSize> outs_;
  uint64_t totalOut_ = 1; // saturates: 0 means "2^64 or more"
  int inBits_ = 0;
  int loBits_ = 0;
  uint64_t loMask_ = 0;
  /// lo_[i]: XOR of the columns of i's set bits (input bits 0 .. loBits_-1); hi_[j]: the same
  /// for the input bits from loBits_ up.
  std::vector<uint64_t> lo_, hi_;
  uint64_t budget_ = kEnumerationMemoryBytes;
  EnumerationProgress progress_;
};

} // namespace llcheck
