// The independent side of every law: a layout evaluated from its raw bases with nothing but
// loops (no packing, rank or elimination), whole tables of it, and the brute-force
// shared-memory address simulator (copied from core/tests/BankSimulator.h, which core's tests
// keep: core must not depend on fuzz/, nor fuzz/ on core's tests). Inputs and outputs are
// flattened by multiplication (mixed radix, first dimension fastest), never by the algebra's
// bit packing, so a packing bug in core cannot cancel out here.
#pragma once

#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/encodings/Shared.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llcheck::fuzz {

class RefLayout {
public:
  explicit RefLayout(const LinearLayout& l);

  [[nodiscard]] const std::vector<DimSize>& ins() const { return ins_; }
  [[nodiscard]] const std::vector<DimSize>& outs() const { return outs_; }
  [[nodiscard]] uint64_t numInputs() const { return numInputs_; }
  [[nodiscard]] uint64_t numOutputs() const { return numOutputs_; }

  /// One value per input dim (in order) -> one value per output dim (in order).
  [[nodiscard]] std::vector<uint64_t> eval(const std::vector<uint64_t>& x) const;
  [[nodiscard]] std::vector<uint64_t> unflattenIn(uint64_t f) const { return split(f, ins_); }
  [[nodiscard]] uint64_t flattenOut(const std::vector<uint64_t>& y) const { return join(y, outs_); }
  [[nodiscard]] uint64_t flattenIn(const std::vector<uint64_t>& x) const { return join(x, ins_); }
  [[nodiscard]] std::vector<uint64_t> unflattenOut(uint64_t f) const { return split(f, outs_); }
  /// Entry f: the flattened output of the flattened input f.
  [[nodiscard]] std::vector<uint64_t> table() const;
  /// The value of input dim `d` in x (0 when the layout has no such dim).
  [[nodiscard]] static uint64_t valueOf(const std::vector<DimSize>& dims,
                                        const std::vector<uint64_t>& x, DimName d);

  static std::vector<uint64_t> split(uint64_t f, const std::vector<DimSize>& dims);
  static uint64_t join(const std::vector<uint64_t>& v, const std::vector<DimSize>& dims);

private:
  std::vector<DimBases> bases_;
  std::vector<DimSize> ins_, outs_;
  uint64_t numInputs_ = 1, numOutputs_ = 1;
};

/// Sorted distinct flattened outputs.
[[nodiscard]] std::vector<uint64_t> imageOf(const RefLayout& r);
/// log2 of the number of distinct outputs: the rank, counted.
[[nodiscard]] int enumeratedRank(const RefLayout& r);

/// Paper Def. 4.10 from the bases: surjective (by enumeration), every column zero or one bit,
/// no two equal non-zero columns. Empty when it holds, else why not.
[[nodiscard]] std::string distributedViolation(const LinearLayout& l);
/// Paper Def. 4.14 from the bases: invertible (by enumeration), every column one or two bits.
[[nodiscard]] std::string memoryViolation(const LinearLayout& l);

/// What the simulator counts for one direction of a shared-memory access.
struct SimulatedAccess {
  bool vectorValid = false;
  uint64_t instructions = 0, wavefronts = 0, ideal = 0;
};

/// Every (warp, register, lane) of CTA 0 through REG and the inverse table of SHARED, then
/// instructions = groups of registers touching the same aligned 2^v-element blocks in every
/// lane (equal groups merged: duplicated data), then distinct words per bank per phase, with
/// the phases written out as lane lists.
[[nodiscard]] SimulatedAccess simulateSharedAccess(const LinearLayout& reg,
                                                   const LinearLayout& shared,
                                                   const std::vector<IntervalPad>& padding,
                                                   const std::string& arch, int elementBits,
                                                   int vectorLog2, bool load);

} // namespace llcheck::fuzz
