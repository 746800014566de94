// Shared pieces of TritonReduce.cpp and TritonScan.cpp: a distributed layout's bases by
// hardware dim, Triton's delinearization of lane and warp ids (LinearEncodingAttr's
// basesPerDim / orderPerDim), and a counter of one step's warp-wide scratch accesses.
#pragma once

#include "TritonLoweringDetail.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/TritonLowering.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llcheck::detail {

using Basis = std::vector<uint64_t>; // one value per out dim
using Bases = std::vector<Basis>;

/// A layout's bases by in dim: register, lane, warp, block (withDistributedInDims).
struct Named {
  std::vector<DimBases> bases;
  std::vector<DimSize> outs;
  Bases& of(const DimName& d);
  [[nodiscard]] const Bases& of(const DimName& d) const;
};

[[nodiscard]] Result<Named> named(const LinearLayout& l);
[[nodiscard]] Result<LinearLayout> build(const Named& n);
[[nodiscard]] bool isZero(const Basis& b);
/// Coordinates of register r, lane l, warp w: the XOR of their bases.
[[nodiscard]] Basis coordinates(const Named& n, uint64_t r, uint64_t l, uint64_t w);
/// The in-dim bits whose bases are zero (broadcast copies).
[[nodiscard]] uint64_t freeMask(const Bases& bases);
/// LinearEncodingAttr::basesPerDim(dim, skipBroadcast): per out dim, 2^(the bases moving it
/// first).
[[nodiscard]] std::vector<uint64_t> basesPerDim(const Bases& bases, std::size_t rank);
/// LinearEncodingAttr::orderPerDim: the dims in the order the bases first move them, then the
/// rest in `fallback`'s order.
[[nodiscard]] std::vector<std::size_t> orderPerDim(const Bases& bases,
                                                   const std::vector<std::size_t>& fallback);
/// The order of the layout's registers (getOrder), the last dim first where they do not say.
[[nodiscard]] std::vector<std::size_t> registerOrder(const Named& n);
/// Triton's delinearize of a lane or warp id into per-dim indices: the id without its free
/// (broadcast) bits, as an integer, in mixed radix over `shape` in `order` (the last dim takes
/// what is left).
[[nodiscard]] std::vector<uint64_t> delinearize(uint64_t id, uint64_t free,
                                                const std::vector<uint64_t>& shape,
                                                const std::vector<std::size_t>& order);
[[nodiscard]] uint64_t linearize(const Basis& idx, const std::vector<uint64_t>& shape,
                                 const std::vector<std::size_t>& order);

/// A thread as Triton's reduce and scan lowerings see it: the layout's register order, and for
/// lanes and warps the per-dim shape their bases cover (basesPerDim), the order they move the
/// dims in (orderPerDim) and their broadcast bits; `lane` and `warp` delinearize an id.
struct ThreadIds {
  explicit ThreadIds(const Named& n);
  std::vector<std::size_t> order;
  std::vector<uint64_t> laneShape, warpShape;
  std::vector<std::size_t> laneOrder, warpOrder;
  uint64_t laneFree = 0, warpFree = 0;
  [[nodiscard]] std::vector<uint64_t> lane(uint64_t l) const {
    return delinearize(l, laneFree, laneShape, laneOrder);
  }
  [[nodiscard]] std::vector<uint64_t> warp(uint64_t w) const {
    return delinearize(w, warpFree, warpShape, warpOrder);
  }
  /// Whether lane l of warp w is no broadcast copy of another thread.
  [[nodiscard]] bool representative(uint64_t l, uint64_t w) const {
    return (l & laneFree) == 0 && (w & warpFree) == 0;
  }
};

/// The refusal of an op (OP: "reduce", "scan", ...) that would take more shared-memory
/// instructions per CTA than kMaxEnumeratedInstructionsLog2 allows counting one by one.
[[nodiscard]] Error tooManyInstructions(const std::string& op);

/// SRC of a reduce or scan (OP names it) as Triton's NVIDIA lowering takes it: one CTA, 32
/// lanes, `axis` one of its dims, each operand 1, 8, 16, 32 or 64 bits wide.
[[nodiscard]] Result<Named> scratchOperand(const LinearLayout& src, int axis,
                                           const std::vector<int>& operandBits,
                                           const SharedMemoryModel& model, const std::string& op);

/// Accumulates one step's warp-wide instructions, warp by warp, with the bank model's
/// wavefronts at the lanes' byte addresses (nullopt: the lane takes no part).
class StepCounter {
public:
  StepCounter(SharedAccessKind kind, int elementBits, uint64_t warps);
  /// One instruction moving `elements` elements per lane.
  void add(const std::vector<std::optional<uint64_t>>& address, int elements,
           const SharedMemoryModel& model);
  /// The warp instructions so far in which at least one lane takes part.
  [[nodiscard]] uint64_t takingPart() const { return takingPart_; }
  /// The step's access, its widest instruction named (or `name`: an atom.shared); `why` its
  /// rule.
  [[nodiscard]] TritonAccess done(std::string why, std::string name = "");

private:
  TritonAccess a_;
  SharedAccessKind kind_;
  int elementBits_;
  uint64_t maxPerPhase_ = 0;
  uint64_t takingPart_ = 0;
  std::map<int, uint64_t> perWidth_; // bits per lane -> instructions, all warps
};

} // namespace llcheck::detail
