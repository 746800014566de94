// Shared pieces of Triton's reduce and scan lowerings (see TritonScratchDetail.h).
#include "TritonScratchDetail.h"

#include "llcheck/core/conversion/TritonScratch.h"

#include "llcheck/core/LayoutUtils.h"
#include "llcheck/core/Subspace.h"

#include <algorithm>
#include <bit>

namespace llcheck::detail {

Bases& Named::of(const DimName& d) {
  for (DimBases& b : bases)
    if (b.name == d)
      return b.bases;
  throw LayoutError(makeError("internal: no in-dim " + d.str()));
}

const Bases& Named::of(const DimName& d) const {
  return const_cast<Named*>(this)->of(d);
}

Result<Named> named(const LinearLayout& l) {
  auto d = withDistributedInDims(l);
  if (!d.ok())
    return d.error();
  return Named{d->getBases(), d->getOutDims()};
}

Result<LinearLayout> build(const Named& n) {
  return LinearLayout::create(n.bases, n.outs, /*requireSurjective=*/false);
}

bool isZero(const Basis& b) {
  return std::all_of(b.begin(), b.end(), [](uint64_t v) { return v == 0; });
}

Basis coordinates(const Named& n, uint64_t r, uint64_t l, uint64_t w) {
  Basis c(n.outs.size(), 0);
  auto add = [&](const Bases& bases, uint64_t x) {
    for (std::size_t i = 0; i < bases.size(); ++i)
      if ((x >> i) & 1)
        for (std::size_t d = 0; d < c.size(); ++d)
          c[d] ^= bases[i][d];
  };
  add(n.of(dims::kRegister), r);
  add(n.of(dims::kLane), l);
  add(n.of(dims::kWarp), w);
  return c;
}

uint64_t freeMask(const Bases& bases) {
  uint64_t m = 0;
  for (std::size_t i = 0; i < bases.size(); ++i)
    if (isZero(bases[i]))
      m |= uint64_t{1} << i;
  return m;
}

namespace {

/// The first out dim a basis moves, or -1 (Triton's basesPerDim and orderPerDim look no
/// further).
int firstDim(const Basis& b) {
  for (std::size_t d = 0; d < b.size(); ++d)
    if (b[d] != 0)
      return static_cast<int>(d);
  return -1;
}

} // namespace

std::vector<uint64_t> basesPerDim(const Bases& bases, std::size_t rank) {
  std::vector<uint64_t> r(rank, 1);
  for (const Basis& b : bases)
    if (int d = firstDim(b); d >= 0)
      r[static_cast<std::size_t>(d)] *= 2;
  return r;
}

std::vector<std::size_t> orderPerDim(const Bases& bases, const std::vector<std::size_t>& fallback) {
  std::vector<std::size_t> order;
  auto add = [&](std::size_t d) {
    if (std::find(order.begin(), order.end(), d) == order.end())
      order.push_back(d);
  };
  for (const Basis& b : bases)
    if (int d = firstDim(b); d >= 0)
      add(static_cast<std::size_t>(d));
  for (std::size_t d : fallback)
    add(d);
  return order;
}

std::vector<std::size_t> registerOrder(const Named& n) {
  std::vector<std::size_t> fallback;
  for (std::size_t d = n.outs.size(); d-- > 0;)
    fallback.push_back(d);
  return orderPerDim(n.of(dims::kRegister), fallback);
}

std::vector<uint64_t> delinearize(uint64_t id, uint64_t free, const std::vector<uint64_t>& shape,
                                  const std::vector<std::size_t>& order) {
  std::vector<uint64_t> md(shape.size(), 0);
  uint64_t lin = id & ~free;
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    md[order[i]] = lin % shape[order[i]];
    lin /= shape[order[i]];
  }
  if (!order.empty())
    md[order.back()] = lin;
  return md;
}

uint64_t linearize(const Basis& idx, const std::vector<uint64_t>& shape,
                   const std::vector<std::size_t>& order) {
  uint64_t lin = 0;
  for (std::size_t i = order.size(); i-- > 0;)
    lin = lin * shape[order[i]] + idx[order[i]];
  return lin;
}

ThreadIds::ThreadIds(const Named& n)
    : order(registerOrder(n)), laneShape(basesPerDim(n.of(dims::kLane), n.outs.size())),
      warpShape(basesPerDim(n.of(dims::kWarp), n.outs.size())),
      laneOrder(orderPerDim(n.of(dims::kLane), order)),
      warpOrder(orderPerDim(n.of(dims::kWarp), order)), laneFree(freeMask(n.of(dims::kLane))),
      warpFree(freeMask(n.of(dims::kWarp))) {}

Error tooManyInstructions(const std::string& op) {
  return makeError("the " + op + " would take more than 2^" +
                   std::to_string(kMaxEnumeratedInstructionsLog2) +
                   " shared-memory instructions per CTA: too many to count one by one");
}

Result<Named> scratchOperand(const LinearLayout& src, int axis, const std::vector<int>& operandBits,
                             const SharedMemoryModel& model, const std::string& op) {
  if (auto bad = checkModel(model, 32))
    return *bad;
  auto n = named(src);
  if (!n.ok())
    return n.error().within(op + "'s operand layout");
  if (axis < 0 || static_cast<std::size_t>(axis) >= n->outs.size())
    return makeError("axis " + std::to_string(axis) + " is not a dim of a rank-" +
                     std::to_string(n->outs.size()) + " operand");
  if (n->of(dims::kBlock).size() != 0)
    return makeError("Triton's " + op + " lowering is modelled for one CTA (block size 1)");
  if (n->of(dims::kLane).size() != 5 || model.warpSize != 32)
    return makeError("Triton's NVIDIA lowering needs 32 lanes per warp");
  if (operandBits.empty())
    return makeError(op + " needs at least one operand");
  for (int b : operandBits)
    if (b < 1 || b > 64 || (b > 8 && !std::has_single_bit(static_cast<unsigned>(b))))
      return makeError("operand element width " + std::to_string(b) +
                       " bits is not one of 1, 8, 16, 32, 64");
  return n;
}

StepCounter::StepCounter(SharedAccessKind kind, int elementBits, uint64_t warps)
    : kind_(kind), elementBits_(elementBits) {
  a_.instruction = SharedInstruction::Vector;
  a_.warps = warps;
}

void StepCounter::add(const std::vector<std::optional<uint64_t>>& address, int elements,
                      const SharedMemoryModel& model) {
  int bytes = elements * elementBits_ / 8;
  // The phases SharedMemoryModel::phaseLanes gives for the lanes that move the address.
  std::vector<uint64_t> laneColumns;
  for (std::size_t bit = 1; bit < address.size(); bit <<= 1)
    laneColumns.push_back(address[0] && address[bit] ? (*address[0] ^ *address[bit]) : 1);
  WarpWavefronts c =
      warpWavefronts(address, bytes, Subspace(model.phaseLanes(bytes, kind_, laneColumns)), model);
  a_.count.instructions += 1;
  a_.count.wavefronts += c.wavefronts;
  a_.count.idealWavefronts += c.phases;
  maxPerPhase_ = std::max(maxPerPhase_, c.maxPerPhase);
  perWidth_[elements * elementBits_] += 1;
  takingPart_ += std::any_of(address.begin(), address.end(),
                             [](const std::optional<uint64_t>& a) { return a.has_value(); });
}

TritonAccess StepCounter::done(std::string why, std::string name) {
  int widest = perWidth_.empty() ? elementBits_ : perWidth_.rbegin()->first;
  a_.vectorElements = widest / elementBits_;
  a_.name = name.empty() ? vectorName(kind_, a_.vectorElements, elementBits_) : std::move(name);
  a_.count.vectorBits = widest;
  a_.instructionsPerWarp = a_.warps == 0 ? 0 : a_.count.instructions / a_.warps;
  for (const auto& [bits, n] : perWidth_)
    a_.widthsPerWarp[bits] = a_.warps == 0 ? 0 : n / a_.warps;
  if (perWidth_.empty())
    a_.widthsPerWarp[widest] = 0;
  a_.count.bankConflicts = a_.count.wavefronts - a_.count.idealWavefronts;
  a_.count.wavefrontsPerPhase = maxPerPhase_;
  a_.count.phasesPerInstruction = 1;
  a_.why.push_back(std::move(why));
  return a_;
}

} // namespace llcheck::detail

namespace llcheck {

nlohmann::json toJson(const TritonScratchStep& s) {
  nlohmann::json j = toJson(s.access);
  j["phase"] = s.phase;
  j["operand"] = s.operand;
  if (s.instructionsTakingPart != 0)
    j["instructions_taking_part"] = s.instructionsTakingPart;
  if (!s.dataDependent.empty()) {
    j["data_dependent"] = s.dataDependent;
    j["wavefronts_min"] = s.wavefrontsMin;
  }
  return j;
}

} // namespace llcheck
