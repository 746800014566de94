// The bank-conflict count of BankConflicts.h: ranks for linear layouts, enumeration of the
// addresses only where #ttg.padded_shared makes the map non-linear.
#include "llcheck/core/conversion/BankConflicts.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Subspace.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

namespace llcheck {

namespace {

int log2Of(uint64_t pow2) {
  return std::countr_zero(pow2);
}

uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

std::string dimList(const LinearLayout& l) {
  std::string s;
  for (const Dim& d : l.outDims())
    s += (s.empty() ? "" : ", ") + d.name.str() + ":" + std::to_string(uint64_t{1} << d.sizeLog2);
  return "[" + s + "]";
}

/// The starting offsets of a warp's instructions: the register columns with the vector's
/// offset bits cleared (the vector registers become 0, duplicates coincide).
std::vector<uint64_t> instructionBases(const std::vector<uint64_t>& registers, int v) {
  Subspace starts;
  for (uint64_t c : registers)
    starts.insert(c & ~lowMask(v));
  return starts.basis();
}

/// Padding is not F2-linear, so a padded layout's instructions are counted by their byte
/// addresses, lane by lane. Not every instruction needs counting, though. The padded offset is
/// a sum over the offset's set bits, p(o) = sum of w_k over bits k of o, with w_k = 2^k +
/// sum over pads of [2^k >= interval] * (2^k / interval) * pad (intervals are powers of two).
/// An offset bit that no lane moves is the same in all 32 lanes of an instruction, so it shifts
/// every lane's address by the same w_k elements; when that shift is a whole number of access
/// units, banks only rotate and each phase keeps its wavefront count. Those bits are dropped
/// from the instructions' starting offsets, and each distinct remainder is counted once, times
/// how many instructions share it. What is left is a few low bits per pad, whatever the tensor
/// size; past kMaxPaddedInstructionsLog2 distinct instructions the count is refused.
Result<std::pair<uint64_t, uint64_t>>
paddedWavefronts(const OffsetMap& map, const SharedMemoryModel& model,
                 const std::vector<uint64_t>& starts, const std::vector<uint64_t>& phase,
                 int elemBytesLog2, int unitBytes, int bankGroupBits) {
  uint64_t laneBits = 0;
  for (uint64_t c : map.lanes)
    laneBits |= c;
  uint64_t keep = 0; // offset bits that change some instruction's count
  for (int k = 0; k < map.offsetBits; ++k) {
    uint64_t weight = uint64_t{1} << k;
    for (const IntervalPad& p : map.padding)
      if (weight >= p.interval)
        weight += (weight / p.interval) * p.pad;
    bool uniformShift = ((laneBits >> k) & 1) == 0 &&
                        ((weight << elemBytesLog2) % static_cast<uint64_t>(unitBytes)) == 0;
    if (!uniformShift)
      keep |= uint64_t{1} << k;
  }
  std::vector<uint64_t> bases = map.warps;
  bases.insert(bases.end(), starts.begin(), starts.end());
  Subspace distinct;
  for (uint64_t b : bases)
    distinct.insert(b & keep);
  if (distinct.dim() > kMaxPaddedInstructionsLog2)
    return makeError("the padded layout has 2^" + std::to_string(distinct.dim()) +
                     " instructions of distinct bank patterns to count one by one; the bound is "
                     "2^" +
                     std::to_string(kMaxPaddedInstructionsLog2) + " (docs/bank-conflicts.md)");
  uint64_t sharing = uint64_t{1} << (bases.size() - static_cast<std::size_t>(distinct.dim()));
  Subspace phaseSpace(phase);
  uint64_t total = 0, maxPerPhase = 0;
  std::vector<std::pair<uint64_t, uint64_t>> keyed; // ((phase, bank), unit) of each lane
  for (uint64_t s = 0; s < distinct.size(); ++s) {
    uint64_t base = xorOf(distinct.basis(), s);
    keyed.clear();
    for (uint64_t t = 0; t < static_cast<uint64_t>(model.warpSize); ++t) {
      uint64_t offset = base ^ xorOf(map.lanes, t);
      uint64_t unit =
          (paddedOffset(map.padding, offset) << elemBytesLog2) / static_cast<uint64_t>(unitBytes);
      keyed.push_back({(phaseSpace.reduce(t) << 32) | (unit & lowMask(bankGroupBits)), unit});
    }
    std::sort(keyed.begin(), keyed.end());
    keyed.erase(std::unique(keyed.begin(), keyed.end()), keyed.end());
    // Per phase, the most words one bank serves.
    std::map<uint64_t, uint64_t> perPhase;
    for (std::size_t i = 0; i < keyed.size();) {
      std::size_t j = i;
      while (j < keyed.size() && keyed[j].first == keyed[i].first)
        ++j;
      uint64_t& n = perPhase[keyed[i].first >> 32];
      n = std::max<uint64_t>(n, j - i);
      i = j;
    }
    for (const auto& [p, n] : perPhase) {
      total += n * sharing;
      maxPerPhase = std::max(maxPerPhase, n);
    }
  }
  return std::make_pair(total, maxPerPhase);
}

} // namespace

Result<OffsetMap> offsetMap(const LinearLayout& regIn, const LinearLayout& sharedIn,
                            const std::vector<IntervalPad>& padding,
                            const SharedMemoryModel& model) {
  auto reg = withDistributedInDims(regIn);
  if (!reg.ok())
    return reg.error().within("REG");
  for (const Dim& d : sharedIn.inDims())
    if (d.name != dims::kOffset && d.name != dims::kBlock)
      return makeError("input dimension '" + d.name.str() +
                           "' is not a shared-memory dimension (expected offset and block)",
                       "SHARED");
  if (!sharedIn.hasInDim(dims::kOffset))
    return makeError("a shared layout needs an 'offset' input dimension", "SHARED");
  if (reg->getInDimSize(dims::kLane) != static_cast<uint64_t>(model.warpSize))
    return contextError(ContextItem::Arch,
                        "the layout has " + std::to_string(reg->getInDimSize(dims::kLane)) +
                            " lanes per warp, but " + model.arch + " runs " +
                            std::to_string(model.warpSize) + "-lane warps (use " +
                            contextName(ContextItem::Arch) + ")",
                        "REG");
  // Same tensor on both sides: same dims (any order) and sizes.
  bool sameDims = reg->getNumOutDims() == sharedIn.getNumOutDims();
  for (const Dim& d : reg->outDims())
    sameDims =
        sameDims && sharedIn.hasOutDim(d.name) && sharedIn.getOutDimSizeLog2(d.name) == d.sizeLog2;
  if (!sameDims)
    return makeError("REG is laid over " + dimList(*reg) + " but SHARED over " + dimList(sharedIn) +
                     ": they must describe the same tensor");
  if (!sharedIn.isInvertible())
    return makeError("SHARED is not invertible (rank " + std::to_string(sharedIn.rank()) + " of " +
                         std::to_string(sharedIn.getTotalInDimSizeLog2()) +
                         " input bits): a shared layout must give each element exactly one offset",
                     "SHARED");
  auto toShared = reg->invertAndCompose(sharedIn);
  if (!toShared.ok())
    return toShared.error();
  const LinearLayout& c = *toShared;
  int offIdx = c.outDimIndex(dims::kOffset);
  int offShift = c.outDimOffset(offIdx);
  OffsetMap m;
  m.offsetBits = c.getOutDimSizeLog2(dims::kOffset);
  m.padding = padding;
  uint64_t offMask = lowMask(m.offsetBits) << offShift;
  for (int i = 0; i < c.getNumInDims(); ++i) {
    const Dim& in = c.inDims()[i];
    std::vector<uint64_t>* target = in.name == dims::kRegister ? &m.registers
                                    : in.name == dims::kLane   ? &m.lanes
                                    : in.name == dims::kWarp   ? &m.warps
                                                               : nullptr;
    if (target == nullptr)
      continue; // block: CTA 0 only
    for (int b = 0; b < in.sizeLog2; ++b) {
      uint64_t col = c.columns()[c.inDimOffset(i) + b];
      if ((col & ~offMask) != 0)
        return makeError("REG's " + in.name.str() + " " + std::to_string(uint64_t{1} << b) +
                         " holds an element that SHARED keeps in another CTA's shared memory: "
                         "REG and SHARED must split the tensor between CTAs alike");
      target->push_back((col & offMask) >> offShift);
    }
  }
  return m;
}

int vectorLog2(const OffsetMap& map, const SharedMemoryModel& model,
               const SharedAccessOptions& options) {
  int elemBytes = std::max(options.elementBits / 8, 1);
  int cap = log2Of(static_cast<uint64_t>(model.maxAccessBytes)) - log2Of(elemBytes);
  if (options.maxVectorLog2 >= 0)
    cap = std::min(cap, options.maxVectorLog2);
  uint64_t threadBits = 0;
  for (uint64_t c : map.lanes)
    threadBits |= c;
  for (uint64_t c : map.warps)
    threadBits |= c;
  // Offset bit v joins the vector when some combination of registers (a renumbering of the
  // registers) is exactly that bit and no lane or warp moves it.
  Subspace registers(map.registers);
  int v = 0;
  while (v < cap && v < map.offsetBits && ((threadBits >> v) & 1) == 0 &&
         registers.contains(uint64_t{1} << v))
    ++v;
  // Padding must neither split a vector nor misalign one.
  for (const IntervalPad& p : map.padding)
    while (v > 0 && (p.interval < (uint64_t{1} << v) || p.pad % (uint64_t{1} << v) != 0))
      --v;
  return v;
}

Result<AccessCount> predictSharedAccess(const OffsetMap& map, const SharedMemoryModel& model,
                                        SharedAccessKind kind, const SharedAccessOptions& options) {
  if (options.elementBits < 8 || options.elementBits > 64 ||
      !std::has_single_bit(static_cast<unsigned>(options.elementBits)))
    return makeError("element width " + std::to_string(options.elementBits) +
                     " bits is not one of 8, 16, 32, 64");
  int elemBytesLog2 = log2Of(static_cast<uint64_t>(options.elementBits / 8));
  int v = vectorLog2(map, model, options);
  int accessBytes = (1 << v) << elemBytesLog2;
  int unitBytes = std::max(accessBytes, model.bankBytes);
  // Offsets in elements; >> shift gives the unit (vector, or word for narrower accesses).
  int shift = log2Of(static_cast<uint64_t>(unitBytes)) - elemBytesLog2;
  int bankGroupBits = log2Of(static_cast<uint64_t>(model.rowBytes() / unitBytes));
  std::vector<uint64_t> phase = model.phaseLanes(accessBytes, kind, map.lanes);

  AccessCount r;
  r.vectorBits = accessBytes * 8;
  std::vector<uint64_t> starts = instructionBases(map.registers, v);
  r.phasesPerInstruction = model.warpSize >> phase.size();
  r.instructions = (uint64_t{1} << starts.size()) << map.warps.size();
  r.idealWavefronts = r.instructions * static_cast<uint64_t>(r.phasesPerInstruction);

  if (map.padding.empty()) {
    std::vector<uint64_t> units;
    for (uint64_t lane : phase)
      units.push_back(xorOf(map.lanes, lane) >> shift);
    int c = Subspace(units).dim() - rankUnderMask(units, lowMask(bankGroupBits));
    r.wavefrontsPerPhase = uint64_t{1} << c;
    r.wavefronts = r.idealWavefronts << c;
  } else {
    auto padded =
        paddedWavefronts(map, model, starts, phase, elemBytesLog2, unitBytes, bankGroupBits);
    if (!padded.ok())
      return padded.error();
    r.wavefronts = padded->first;
    r.wavefrontsPerPhase = padded->second;
  }
  r.bankConflicts = r.wavefronts - r.idealWavefronts;
  return r;
}

Result<uint64_t> activeLaneWavefronts(const OffsetMap& map, const SharedMemoryModel& model,
                                      SharedAccessKind kind, int elementBits, int accessBytes,
                                      uint64_t inactiveLanes) {
  if (!map.padding.empty())
    return makeError("a padded layout's instructions differ in cost: not counted per instruction");
  if (elementBits < 8 || elementBits > 64 ||
      !std::has_single_bit(static_cast<unsigned>(elementBits)))
    return makeError("element width " + std::to_string(elementBits) +
                     " bits is not one of 8, 16, 32, 64");
  if (accessBytes < elementBits / 8 || accessBytes > model.maxAccessBytes ||
      !std::has_single_bit(static_cast<unsigned>(accessBytes)))
    return makeError("an access of " + std::to_string(accessBytes) + " bytes per lane");
  int elemBytesLog2 = log2Of(static_cast<uint64_t>(elementBits / 8));
  int unitBytes = std::max(accessBytes, model.bankBytes);
  int shift = log2Of(static_cast<uint64_t>(unitBytes)) - elemBytesLog2;
  int bankGroupBits = log2Of(static_cast<uint64_t>(model.rowBytes() / unitBytes));
  Subspace phase(model.phaseLanes(accessBytes, kind, map.lanes));
  // (phase, bank) -> the distinct units the remaining lanes of that phase ask the bank for.
  std::map<uint64_t, std::set<uint64_t>> words;
  for (uint64_t t = 0; t < static_cast<uint64_t>(model.warpSize); ++t) {
    if (t & inactiveLanes)
      continue;
    uint64_t unit = xorOf(map.lanes, t) >> shift;
    words[(phase.reduce(t) << 32) | (unit & lowMask(bankGroupBits))].insert(unit);
  }
  std::map<uint64_t, uint64_t> perPhase;
  for (const auto& [key, units] : words) {
    uint64_t& n = perPhase[key >> 32];
    n = std::max<uint64_t>(n, units.size());
  }
  uint64_t total = 0;
  for (const auto& [p, n] : perPhase)
    total += n;
  return total;
}

nlohmann::json toJson(const AccessCount& a) {
  return {{"vector_bits", a.vectorBits},
          {"instructions", a.instructions},
          {"wavefronts", a.wavefronts},
          {"ideal_wavefronts", a.idealWavefronts},
          {"bank_conflicts", a.bankConflicts}};
}

Result<BankConflictReport> bankConflicts(const LinearLayout& reg, const LinearLayout& shared,
                                         const std::vector<IntervalPad>& padding, int elementBits,
                                         const SharedMemoryModel& model) {
  auto map = offsetMap(reg, shared, padding, model);
  if (!map.ok())
    return map.error();
  SharedAccessOptions options{elementBits, -1};
  auto store = predictSharedAccess(*map, model, SharedAccessKind::Store, options);
  if (!store.ok())
    return store.error();
  auto load = predictSharedAccess(*map, model, SharedAccessKind::Load, options);
  if (!load.ok())
    return load.error();
  return BankConflictReport{*store, *load};
}

} // namespace llcheck
