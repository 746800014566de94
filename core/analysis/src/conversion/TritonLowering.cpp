// Triton's lowering of local_alloc / local_store / local_load / async_copy on NVIDIA (see
// TritonLowering.h); convert_layout's scratch layout is in TritonSwizzling.cpp.
#include "llcheck/core/conversion/TritonLowering.h"

#include "TritonLoweringDetail.h"
#include "llcheck/core/Subspace.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

namespace llcheck {

namespace detail {

uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

CvtMap withoutCopies(const OffsetMap& m) {
  CvtMap c;
  for (uint64_t r : m.registers)
    if (r != 0)
      c.registers.push_back(r);
  c.droppedRegisters = static_cast<int>(m.registers.size() - c.registers.size());
  c.lanes = m.lanes;
  c.warps = m.warps;
  c.offsetBits = m.offsetBits;
  return c;
}

std::optional<std::vector<int>> registersEqualTo(const std::vector<uint64_t>& registers,
                                                 const std::vector<uint64_t>& wanted) {
  std::vector<int> picked;
  std::vector<bool> used(registers.size(), false);
  for (uint64_t w : wanted) {
    std::size_t j = 0;
    while (j < registers.size() && (used[j] || registers[j] != w))
      ++j;
    if (j == registers.size())
      return std::nullopt;
    used[j] = true;
    picked.push_back(static_cast<int>(j));
  }
  return picked;
}

namespace {

/// Every column of the map but the registers in `skip` keeps the low `bits` offset bits 0.
bool othersClear(const CvtMap& m, const std::vector<int>& skip, int bits) {
  uint64_t mask = lowMask(bits);
  for (std::size_t j = 0; j < m.registers.size(); ++j)
    if (std::find(skip.begin(), skip.end(), static_cast<int>(j)) == skip.end() &&
        (m.registers[j] & mask) != 0)
      return false;
  for (uint64_t c : m.lanes)
    if ((c & mask) != 0)
      return false;
  for (uint64_t c : m.warps)
    if ((c & mask) != 0)
      return false;
  return true;
}

/// Wavefronts of one matrix (one phase of 8 rows of 16 bytes): the most distinct rows on one
/// group of 4 banks, 2^(rank of the rows - rank of their bank-group bits).
uint64_t wavefrontsPerMatrix(const std::vector<uint64_t>& rowColumns, int elementBits) {
  int rowShift = 4 - std::countr_zero(static_cast<unsigned>(elementBits / 8));
  std::vector<uint64_t> units;
  for (uint64_t c : rowColumns)
    units.push_back(c >> rowShift);
  return uint64_t{1} << (Subspace(units).dim() - rankUnderMask(units, lowMask(3)));
}

} // namespace

std::optional<MatrixPlan> plainMatrix(const CvtMap& m, int elementBits) {
  if (elementBits > 32 || m.lanes.size() != 5)
    return std::nullopt;
  int k = std::countr_zero(static_cast<unsigned>(32 / elementBits)); // registers per word
  std::vector<uint64_t> wordOffsets;
  for (int b = 0; b < k; ++b)
    wordOffsets.push_back(uint64_t{1} << b);
  auto picked = registersEqualTo(m.registers, wordOffsets);
  if (!picked)
    return std::nullopt;
  if (m.lanes[0] != (uint64_t{1} << k) || m.lanes[1] != (uint64_t{1} << (k + 1)))
    return std::nullopt;
  // Nothing else inside the 16-byte row; lanes 4, 8, 16 are checked with the other columns.
  CvtMap rest = m;
  rest.lanes = {m.lanes[2], m.lanes[3], m.lanes[4]};
  if (!othersClear(rest, *picked, k + 2) || m.offsetBits < k + 2)
    return std::nullopt;
  MatrixPlan p;
  p.trans = false;
  int left = static_cast<int>(m.registers.size()) - k;
  p.matricesLog2 = std::min(2, left);
  p.instructionsPerWarp = uint64_t{1} << (left - p.matricesLog2);
  p.rowColumns = {m.lanes[2], m.lanes[3], m.lanes[4]};
  p.wavefrontsPerMatrix = wavefrontsPerMatrix(p.rowColumns, elementBits);
  return p;
}

std::optional<MatrixPlan> transMatrix(const CvtMap& m, int elementBits, TritonVersion version) {
  if (elementBits != 16 || m.lanes.size() != 5 || m.registers.empty())
    return std::nullopt;
  for (int b = 0; b < 3; ++b)
    if (m.lanes[2 + b] != (uint64_t{1} << b))
      return std::nullopt;
  CvtMap rest = m;
  rest.lanes = {m.lanes[0], m.lanes[1]};
  if (!othersClear(rest, {}, 3) || m.offsetBits < 3)
    return std::nullopt;
  MatrixPlan p;
  p.trans = true;
  int left = static_cast<int>(m.registers.size()) - 1; // one register picks a row
  p.matricesLog2 = std::min(2, left);
  p.instructionsPerWarp = uint64_t{1} << (left - p.matricesLog2);
  // The row register: 3.6 takes the first; 3.9 the one whose 8 rows (with lanes 1 and 2) hit
  // the fewest bank groups, the first of equals.
  p.rowRegister = 0;
  p.wavefrontsPerMatrix = wavefrontsPerMatrix({m.registers[0], m.lanes[0], m.lanes[1]}, 16);
  if (version != TritonVersion::v3_6)
    for (std::size_t j = 1; j < m.registers.size(); ++j) {
      uint64_t w = wavefrontsPerMatrix({m.registers[j], m.lanes[0], m.lanes[1]}, 16);
      if (w < p.wavefrontsPerMatrix) {
        p.wavefrontsPerMatrix = w;
        p.rowRegister = static_cast<int>(j);
      }
    }
  p.rowColumns = {m.registers[static_cast<std::size_t>(p.rowRegister)], m.lanes[0], m.lanes[1]};
  return p;
}

int vectorLog2(const CvtMap& m, int maxLog2, bool permute) {
  for (int v = maxLog2; v > 0; --v) {
    std::vector<uint64_t> wanted;
    for (int b = 0; b < v; ++b)
      wanted.push_back(uint64_t{1} << b);
    std::optional<std::vector<int>> picked;
    if (permute) {
      picked = registersEqualTo(m.registers, wanted);
    } else if (m.registers.size() >= static_cast<std::size_t>(v)) {
      picked = std::vector<int>();
      for (int b = 0; b < v && picked; ++b)
        if (m.registers[static_cast<std::size_t>(b)] == wanted[static_cast<std::size_t>(b)])
          picked->push_back(b);
        else
          picked.reset();
    }
    if (picked && othersClear(m, *picked, v) && m.offsetBits >= v)
      return v;
  }
  return 0;
}

bool llvmMergesAccesses(TritonVersion /*version*/, SharedAccessKind /*kind*/) {
  // Both releases emit ld/st.shared as plain LLVM loads and stores (with a constant true
  // predicate), so LLVM's load/store vectoriser sees them.
  return true;
}

std::string matrixName(SharedAccessKind kind, int matrices, bool trans) {
  return std::string(kind == SharedAccessKind::Store ? "stmatrix" : "ldmatrix") +
         ".sync.aligned.m8n8.x" + std::to_string(matrices) + (trans ? ".trans" : "") +
         ".shared.b16";
}

std::string vectorName(SharedAccessKind kind, int elements, int elementBits) {
  // Triton's storeDShared / loadDShared: more than 4 elements narrower than 32 bits travel as
  // 32-bit words; otherwise .v<n>.b<bits>. (LLVM may spell the same access another way, e.g.
  // ld.shared.b32 for 4 x i8 or ld.shared.s16 for a sign-extended f16: the width is what
  // counts.)
  int n = elements;
  int bits = elementBits;
  if (elements > 4 && elementBits < 32) {
    n = elements * elementBits / 32;
    bits = 32;
  }
  return std::string(kind == SharedAccessKind::Store ? "st" : "ld") + ".shared" +
         (n > 1 ? ".v" + std::to_string(n) : "") + ".b" + std::to_string(bits);
}

AccessCount matrixCount(const MatrixPlan& p, uint64_t warps) {
  AccessCount a;
  auto matrices = uint64_t{1} << p.matricesLog2;
  a.vectorBits = 32 * static_cast<int>(matrices);
  a.instructions = p.instructionsPerWarp * warps;
  a.phasesPerInstruction = static_cast<int>(matrices);
  a.wavefrontsPerPhase = p.wavefrontsPerMatrix;
  a.idealWavefronts = a.instructions * matrices;
  a.wavefronts = a.idealWavefronts * p.wavefrontsPerMatrix;
  a.bankConflicts = a.wavefronts - a.idealWavefronts;
  return a;
}

namespace {

/// Triton's vector registers (largestVectorisation's pick) for a vector of 2^v.
std::vector<int> vectorRegisters(const CvtMap& m, int v, bool permute) {
  std::vector<uint64_t> wanted;
  for (int b = 0; b < v; ++b)
    wanted.push_back(uint64_t{1} << b);
  if (permute)
    return registersEqualTo(m.registers, wanted).value_or(std::vector<int>());
  std::vector<int> first;
  for (int b = 0; b < v; ++b)
    first.push_back(b);
  return first;
}

uint64_t lowBit(uint64_t x) {
  return x == 0 ? uint64_t{1} << 62 : x & (~x + 1);
}

} // namespace

std::vector<Chunk> emittedAccesses(const CvtMap& m, const std::vector<IntervalPad>& padding, int v,
                                   bool permute, int elemBytes, bool merge) {
  std::vector<int> vec = vectorRegisters(m, v, permute);
  uint64_t threadBits = 0;
  for (uint64_t c : m.lanes)
    threadBits |= c;
  for (uint64_t c : m.warps)
    threadBits |= c;
  // Triton adds the registers that miss every lane and warp bit as constants to the thread's
  // base address (actionAdditiveStrides) and XORs the others into it.
  std::vector<uint64_t> additive, outer;
  for (std::size_t j = 0; j < m.registers.size(); ++j) {
    if (std::find(vec.begin(), vec.end(), static_cast<int>(j)) != vec.end())
      continue;
    ((m.registers[j] & threadBits) == 0 ? additive : outer).push_back(m.registers[j]);
  }
  auto padded = [&](uint64_t x) { return padding.empty() ? x : paddedOffset(padding, x); };
  auto eb = static_cast<uint64_t>(elemBytes);
  uint64_t access = eb << v;
  std::vector<Chunk> out;
  for (uint64_t oi = 0; oi < (uint64_t{1} << outer.size()); ++oi) {
    uint64_t o = xorOf(outer, oi);
    // What LLVM knows of the thread's base address: aligned to the lowest byte any lane, warp
    // or this group's XOR can set (16 bytes at most: the shared buffer's alignment).
    uint64_t align = 16;
    for (uint64_t bits = threadBits | o; bits != 0; bits &= bits - 1)
      align = std::min(align, lowBit(padded(lowBit(bits)) * eb));
    std::vector<std::pair<uint64_t, uint64_t>> inner; // (byte offset, linear offset)
    for (uint64_t ii = 0; ii < (uint64_t{1} << additive.size()); ++ii) {
      uint64_t lin = xorOf(additive, ii);
      inner.emplace_back(padded(lin) * eb, lin);
    }
    std::sort(inner.begin(), inner.end());
    std::vector<bool> used(inner.size(), false);
    for (std::size_t k = 0; k < inner.size(); ++k) {
      if (used[k])
        continue;
      uint64_t start = inner[k].first;
      uint64_t bytes = access;
      if (merge)
        // LLVM's load/store vectoriser: the widest run of neighbours, at most 16 bytes, that
        // starts aligned to its size.
        for (uint64_t want = 16; want > access; want /= 2) {
          if (std::min(align, lowBit(start)) < want)
            continue;
          bool whole = true;
          for (uint64_t off = access; off < want && whole; off += access) {
            std::size_t n = k + static_cast<std::size_t>(off / access);
            whole = n < inner.size() && inner[n].first == start + off && !used[n];
          }
          if (whole) {
            bytes = want;
            break;
          }
        }
      for (uint64_t off = 0; off < bytes; off += access)
        used[k + static_cast<std::size_t>(off / access)] = true;
      out.push_back({o ^ inner[k].second, static_cast<int>(bytes)});
    }
  }
  return out;
}

std::optional<Error> checkEnumerable(const CvtMap& m, int v, int elemBytes) {
  auto log2 = static_cast<int>(m.registers.size() + m.warps.size()) - v;
  if (log2 <= kMaxEnumeratedInstructionsLog2)
    return std::nullopt;
  return makeError("Triton's lowering is counted instruction by instruction, and these " +
                   std::to_string(elemBytes << v) + "-byte accesses take 2^" +
                   std::to_string(log2) + " instructions per CTA; the bound is 2^" +
                   std::to_string(kMaxEnumeratedInstructionsLog2) +
                   " (more than a CTA's shared memory holds: Triton would not compile it)");
}

WarpWavefronts warpWavefronts(const std::vector<std::optional<uint64_t>>& byteAddress, int bytes,
                              const Subspace& phase, const SharedMemoryModel& model) {
  uint64_t unit = std::max<uint64_t>(static_cast<uint64_t>(model.bankBytes), 1);
  std::map<std::pair<uint64_t, uint64_t>, std::set<uint64_t>> wordsOfBank;
  std::set<uint64_t> phases;
  for (std::size_t t = 0; t < byteAddress.size(); ++t) {
    if (!byteAddress[t])
      continue;
    uint64_t p = phase.reduce(t);
    phases.insert(p);
    uint64_t byte = *byteAddress[t];
    for (uint64_t word = byte / unit; word <= (byte + static_cast<uint64_t>(bytes) - 1) / unit;
         ++word)
      wordsOfBank[{p, word % static_cast<uint64_t>(model.banks)}].insert(word);
  }
  std::map<uint64_t, uint64_t> perPhase;
  for (const auto& [key, words] : wordsOfBank)
    perPhase[key.first] = std::max<uint64_t>(perPhase[key.first], words.size());
  WarpWavefronts c;
  for (const auto& [p, n] : perPhase) {
    c.wavefronts += n;
    c.maxPerPhase = std::max(c.maxPerPhase, n);
  }
  c.phases = phases.size();
  return c;
}

AccessCount chunkCount(const CvtMap& m, const std::vector<IntervalPad>& padding,
                       const std::vector<Chunk>& chunks, SharedAccessKind kind,
                       const SharedMemoryModel& model, int elemBytes, uint64_t* misaligned) {
  AccessCount a;
  auto eb = static_cast<uint64_t>(elemBytes);
  uint64_t maxPerPhase = 0;
  int widest = 0;
  std::vector<std::optional<uint64_t>> address(static_cast<std::size_t>(model.warpSize));
  for (uint64_t w = 0; w < (uint64_t{1} << m.warps.size()); ++w)
    for (const Chunk& c : chunks) {
      Subspace phase(model.phaseLanes(c.bytes, kind, m.lanes));
      for (uint64_t t = 0; t < static_cast<uint64_t>(model.warpSize); ++t) {
        uint64_t lin = xorOf(m.warps, w) ^ xorOf(m.lanes, t) ^ c.start;
        uint64_t byte = (padding.empty() ? lin : paddedOffset(padding, lin)) * eb;
        if (misaligned && byte % static_cast<uint64_t>(c.bytes) != 0)
          ++*misaligned;
        address[t] = byte;
      }
      WarpWavefronts n = warpWavefronts(address, c.bytes, phase, model);
      a.wavefronts += n.wavefronts;
      maxPerPhase = std::max(maxPerPhase, n.maxPerPhase);
      a.instructions += 1;
      a.idealWavefronts += static_cast<uint64_t>(model.warpSize >> phase.dim());
      widest = std::max(widest, c.bytes);
    }
  a.vectorBits = widest * 8;
  a.phasesPerInstruction = model.warpSize >> model.phaseLanes(widest, kind, m.lanes).size();
  a.wavefrontsPerPhase = maxPerPhase;
  a.bankConflicts = a.wavefronts - a.idealWavefronts;
  return a;
}

Result<TritonAccess> lowerSide(const CvtMap& m, const std::vector<IntervalPad>& padding,
                               SharedAccessKind kind, const SharedMemoryModel& model,
                               const TritonLoweringOptions& options, bool allowMatrix,
                               uint64_t rounds) {
  TritonAccess a;
  a.warps = uint64_t{1} << m.warps.size();
  if (m.droppedRegisters > 0)
    a.why.push_back(std::to_string(m.droppedRegisters) +
                    " register bases hold copies: not stored or loaded");
  bool hasMatrix = kind == SharedAccessKind::Store ? model.stmatrix : model.ldmatrix;
  if (allowMatrix && hasMatrix && padding.empty()) {
    std::optional<MatrixPlan> plan = plainMatrix(m, options.elementBits);
    if (!plan)
      plan = transMatrix(m, options.elementBits, options.version);
    if (plan) {
      a.instruction = plan->trans ? SharedInstruction::MatrixTrans : SharedInstruction::Matrix;
      a.matrices = 1 << plan->matricesLog2;
      a.name = matrixName(kind, a.matrices, plan->trans);
      a.instructionsPerWarp = plan->instructionsPerWarp * rounds;
      MatrixPlan scaled = *plan;
      scaled.instructionsPerWarp *= rounds;
      a.count = matrixCount(scaled, a.warps);
      a.why.push_back(std::string(plan->trans ? "lanes 4, 8, 16 hold a 16-byte row: "
                                              : "registers and lanes 1, 2 hold a 16-byte row: ") +
                      (kind == SharedAccessKind::Store ? "stmatrix" : "ldmatrix") +
                      (plan->trans ? ".trans" : "") + " .x" + std::to_string(a.matrices));
      return a;
    }
  }
  int elemBytesLog2 = std::countr_zero(static_cast<unsigned>(options.elementBits / 8));
  int maxLog2 = 4 - elemBytesLog2;
  bool permute = true;
  if (!padding.empty()) {
    uint64_t minInterval = padding.front().interval;
    for (const IntervalPad& p : padding)
      minInterval = std::min(minInterval, p.interval);
    maxLog2 = std::min(maxLog2, std::countr_zero(minInterval));
    permute = false;
  }
  int v = vectorLog2(m, maxLog2, permute);
  int eb = options.elementBits / 8;
  bool merge = llvmMergesAccesses(options.version, kind);
  if (auto tooMany = checkEnumerable(m, v, eb))
    return *tooMany;
  std::vector<Chunk> chunks = emittedAccesses(m, padding, v, permute, eb, merge);
  // ptxas splits a 2-byte load of two i1 held as i8 (ld.shared.v2.b8, each byte to a
  // predicate of its own) into two LDS.U8: the i1 converts of FlagGems' index_select and
  // Inductor's cross entropy, 2 LDS.U8 for each v2 load on the H200 and H100. Packed i8 data
  // stays one LDS.U16 (the lowering probe's int8 kernels, both releases).
  bool splitBytePairs = false;
  if (kind == SharedAccessKind::Load && eb == 1 && options.booleans) {
    std::vector<Chunk> split;
    for (const Chunk& c : chunks)
      if (c.bytes == 2) {
        split.push_back({c.start, 1});
        split.push_back({c.start ^ 1, 1});
        splitBytePairs = true;
      } else {
        split.push_back(c);
      }
    chunks = std::move(split);
  }
  std::map<int, uint64_t> perWidth; // bytes -> instructions per warp (one round)
  for (const Chunk& c : chunks)
    perWidth[c.bytes] += 1;
  // The width most instructions have (the widest of equals) names the access.
  int bytes = 0;
  uint64_t most = 0;
  for (const auto& [b, n] : perWidth)
    if (n >= most) {
      most = n;
      bytes = b;
    }
  a.instruction = SharedInstruction::Vector;
  a.vectorElements = bytes / eb;
  a.name = vectorName(kind, a.vectorElements, options.elementBits);
  a.instructionsPerWarp = chunks.size() * rounds;
  for (const auto& [b, n] : perWidth)
    a.widthsPerWarp[b * 8] = n * rounds;
  a.count = chunkCount(m, padding, chunks, kind, model, eb, &a.misalignedAccesses);
  a.misalignedAccesses *= rounds;
  if (a.misalignedAccesses > 0)
    a.why.push_back(std::to_string(a.misalignedAccesses) +
                    " lane accesses are not aligned to their width (the padding moves them): the "
                    "GPU faults (misaligned address)");
  a.count.instructions *= rounds;
  a.count.wavefronts *= rounds;
  a.count.idealWavefronts *= rounds;
  a.count.bankConflicts *= rounds;
  std::string widths;
  if (perWidth.size() > 1)
    for (const auto& [b, n] : perWidth)
      widths += (widths.empty() ? " (" : ", ") + std::to_string(n) + " x " + std::to_string(b * 8) +
                "-bit";
  a.why.push_back(
      std::string(padding.empty() ? "" : "padded: ") + "registers " +
      (permute ? "(permuted) " : "") + "hold " + std::to_string(1 << v) + " consecutive offsets" +
      (bytes > (eb << v) || perWidth.size() > 1
           ? "; LLVM merges neighbouring accesses" + widths + (widths.empty() ? "" : " per warp)")
           : std::string()) +
      ": " + a.name);
  if (splitBytePairs)
    a.why.push_back("ptxas splits each 2-byte load of two i1 (ld.shared.v2.b8) into two LDS.U8");
  return a;
}

std::optional<Error> checkModel(const SharedMemoryModel& model, int elementBits) {
  if (model.arch != "sm90" && model.arch != "sm80")
    return contextError(ContextItem::Arch,
                        "Triton's lowering is modelled for NVIDIA sm80 and sm90, not " + model.arch,
                        contextName(ContextItem::Arch));
  if (elementBits < 8 || elementBits > 64 ||
      !std::has_single_bit(static_cast<unsigned>(elementBits)))
    return makeError("element width " + std::to_string(elementBits) +
                     " bits is not one of 8, 16, 32, 64");
  return std::nullopt;
}

} // namespace detail

int tritonVectorLog2(const std::vector<uint64_t>& registers, const std::vector<uint64_t>& lanes,
                     const std::vector<uint64_t>& warps, int maxLog2, bool permute) {
  detail::CvtMap m;
  m.registers = registers;
  m.lanes = lanes;
  m.warps = warps;
  m.offsetBits = 64;
  return detail::vectorLog2(m, maxLog2, permute);
}

Result<TritonAccess> tritonLocalAccess(const LinearLayout& reg, const LinearLayout& shared,
                                       const std::vector<IntervalPad>& padding,
                                       SharedAccessKind kind, const SharedMemoryModel& model,
                                       const TritonLoweringOptions& options) {
  if (auto bad = detail::checkModel(model, options.elementBits))
    return *bad;
  auto map = offsetMap(reg, shared, padding, model);
  if (!map.ok())
    return map.error();
  return detail::lowerSide(detail::withoutCopies(*map), padding, kind, model, options,
                           /*allowMatrix=*/true, /*rounds=*/1);
}

namespace {

/// What Triton's lowering of an async copy decides before it emits: the offset map without
/// copies, the vector (2^v elements) and the chunks each warp copies.
struct AsyncCopyPlan {
  detail::CvtMap map;
  int v = 0;
  int elemBytes = 0;
  int maxVec = 0;
  std::vector<detail::Chunk> chunks;
};

Result<AsyncCopyPlan> asyncCopyPlan(const LinearLayout& src, const LinearLayout& shared,
                                    const std::vector<IntervalPad>& padding, int maxElements,
                                    const SharedMemoryModel& model,
                                    const TritonLoweringOptions& options) {
  if (auto bad = detail::checkModel(model, options.elementBits))
    return *bad;
  auto map = offsetMap(src, shared, padding, model);
  if (!map.ok())
    return map.error();
  AsyncCopyPlan p;
  p.map = detail::withoutCopies(*map);
  p.elemBytes = options.elementBits / 8;
  p.maxVec = std::min(std::max(maxElements, 1), 16 / p.elemBytes);
  if (p.maxVec * p.elemBytes < 4)
    return makeError("cp.async moves at least 4 bytes, but the pointers allow " +
                     std::to_string(p.maxVec * p.elemBytes) + " (Triton refuses this copy)");
  int maxLog2 = std::countr_zero(static_cast<unsigned>(p.maxVec));
  if (!padding.empty()) {
    uint64_t minInterval = padding.front().interval;
    for (const IntervalPad& pad : padding)
      minInterval = std::min(minInterval, pad.interval);
    maxLog2 = std::min(maxLog2, std::countr_zero(minInterval));
  }
  p.v = detail::vectorLog2(p.map, maxLog2, /*permute=*/false);
  if (auto tooMany = detail::checkEnumerable(p.map, p.v, p.elemBytes))
    return *tooMany;
  // Inline PTX: LLVM merges nothing.
  p.chunks = detail::emittedAccesses(p.map, padding, p.v, /*permute=*/false, p.elemBytes,
                                     /*merge=*/false);
  return p;
}

/// The plan's instructions, owner warps and lanes only (lanes and warps whose column is zero
/// hold copies and are predicated off): each lane's shared offset, back through SHARED to its
/// tensor coordinates.
Result<std::vector<AsyncCopyInstruction>> planInstructions(const AsyncCopyPlan& p,
                                                           const LinearLayout& shared,
                                                           const std::vector<IntervalPad>& padding,
                                                           const SharedMemoryModel& model) {
  const detail::CvtMap& m = p.map;
  bool block = shared.hasInDim(dims::kBlock);
  auto eb = static_cast<uint64_t>(p.elemBytes);
  auto active = [](const std::vector<uint64_t>& cols, uint64_t x) {
    for (std::size_t i = 0; i < cols.size(); ++i)
      if ((x >> i & 1) && cols[i] == 0)
        return false;
    return true;
  };
  std::vector<AsyncCopyInstruction> out;
  for (uint64_t w = 0; w < (uint64_t{1} << m.warps.size()); ++w) {
    if (!active(m.warps, w))
      continue;
    for (const detail::Chunk& c : p.chunks) {
      AsyncCopyInstruction ins;
      ins.warp = w;
      for (uint64_t t = 0; t < static_cast<uint64_t>(model.warpSize); ++t) {
        if (!active(m.lanes, t))
          continue;
        uint64_t lin = xorOf(m.warps, w) ^ xorOf(m.lanes, t) ^ c.start;
        Point in = {{dims::kOffset, lin}};
        if (block)
          in.push_back({dims::kBlock, 0});
        auto coords = shared.apply(in);
        if (!coords.ok())
          return coords.error();
        std::vector<uint64_t> at;
        for (const auto& [d, x] : *coords)
          at.push_back(x);
        ins.coordinates.push_back(std::move(at));
        ins.sharedBytes.push_back((padding.empty() ? lin : paddedOffset(padding, lin)) * eb);
      }
      out.push_back(std::move(ins));
    }
  }
  return out;
}

/// The LDGSTS wavefronts of every instruction of the copy, through the strides to each lane's
/// global byte.
Result<uint64_t> sourceWavefronts(const std::vector<AsyncCopyInstruction>& instructions,
                                  int copyBytes, int elemBytes, const AsyncCopySource& source,
                                  int rank) {
  if (static_cast<int>(source.strides.size()) != rank)
    return makeError("the source has " + std::to_string(source.strides.size()) +
                     " strides for a tensor of rank " + std::to_string(rank));
  auto eb = static_cast<uint64_t>(elemBytes);
  uint64_t total = 0;
  for (const AsyncCopyInstruction& ins : instructions) {
    std::vector<uint64_t> g, s;
    for (std::size_t t = 0; t < ins.coordinates.size(); ++t) {
      uint64_t offset = 0;
      for (int d = 0; d < rank; ++d)
        offset += static_cast<uint64_t>(source.strides[static_cast<std::size_t>(d)]) *
                  ins.coordinates[t][static_cast<std::size_t>(d)];
      g.push_back(source.globalOffset + offset * eb);
      s.push_back(source.sharedOffset + ins.sharedBytes[t]);
    }
    total += ldgstsWavefronts(g, s, copyBytes, copyBytes == 16);
  }
  return total;
}

} // namespace

Result<std::vector<AsyncCopyInstruction>>
tritonAsyncCopyInstructions(const LinearLayout& src, const LinearLayout& shared,
                            const std::vector<IntervalPad>& padding, int maxElements,
                            const SharedMemoryModel& model, const TritonLoweringOptions& options) {
  auto plan = asyncCopyPlan(src, shared, padding, maxElements, model, options);
  if (!plan.ok())
    return plan.error();
  return planInstructions(*plan, shared, padding, model);
}

uint64_t ldgstsWavefronts(const std::vector<uint64_t>& global, const std::vector<uint64_t>& shared,
                          int bytes, bool bypass) {
  std::size_t n = std::min(global.size(), shared.size());
  if (n == 0 || bytes <= 0)
    return 0;
  auto width = static_cast<uint64_t>(bytes);
  if (!bypass) {
    // cp.async.ca: per phase of 128 / bytes lanes (by position in the warp's active lanes).
    uint64_t units = 128 / width, total = 0;
    std::size_t phase = static_cast<std::size_t>(units);
    for (std::size_t p = 0; p < n; p += phase) {
      std::size_t end = std::min(n, p + phase);
      uint64_t most = 0;
      // A lane that copies nothing has no global side to conflict through.
      auto none = [&](std::size_t x) { return global[x] >= kLdgstsNoSource; };
      for (std::size_t t = p; t < end; ++t) {
        uint64_t g = global[t] / width % units, h = shared[t] / width % units, k = 0;
        for (std::size_t u = p; u < end; ++u)
          k += ((!none(t) && !none(u) && global[u] / width % units == g) ||
                shared[u] / width % units == h)
                   ? 1
                   : 0;
        most = std::max(most, k);
      }
      total += most;
    }
    return total;
  }
  // cp.async.cg: transfers of (line, row, global sector, shared sector), in lane order.
  struct Transfer {
    uint64_t line, row, gs, ss;
    std::vector<std::pair<uint64_t, uint64_t>> halves;
  };
  std::vector<Transfer> transfers;
  for (std::size_t t = 0; t < n; ++t) {
    uint64_t g = global[t], h = shared[t];
    Transfer key{g / 128, h / 128, g / 32, h / 32, {}};
    auto it = std::find_if(transfers.begin(), transfers.end(), [&](const Transfer& x) {
      return x.line == key.line && x.row == key.row && x.gs == key.gs && x.ss == key.ss;
    });
    if (it == transfers.end())
      it = transfers.insert(transfers.end(), key);
    it->halves.push_back({g % 32 / 16, h % 32 / 16});
  }
  // A class: 0 whole sector in place, 1 halves swapped, 2 + 2 * global half + shared half a
  // lone 16-byte lane. A map: a rotation (0..3) or a reflection (4..7) of the four sectors.
  struct Item {
    uint64_t line, row;
    int kind;
    uint8_t maps;
  };
  std::vector<Item> items;
  for (Transfer& x : transfers) {
    std::sort(x.halves.begin(), x.halves.end());
    uint64_t gs = x.gs % 4, ss = x.ss % 4;
    auto maps = static_cast<uint8_t>((1u << ((ss + 4 - gs) % 4)) | (1u << (4 + (ss + gs) % 4)));
    using H = std::vector<std::pair<uint64_t, uint64_t>>;
    if (x.halves == H{{0, 0}, {1, 1}})
      items.push_back({x.line, x.row, 0, maps});
    else if (x.halves == H{{0, 1}, {1, 0}})
      items.push_back({x.line, x.row, 1, maps});
    else
      for (const auto& [gh, sh] : x.halves)
        items.push_back({x.line, x.row, 2 + static_cast<int>(2 * gh + sh), maps});
  }
  std::vector<Item> waves;
  for (const Item& it : items) {
    auto w = std::find_if(waves.begin(), waves.end(), [&](const Item& x) {
      return x.line == it.line && x.row == it.row && x.kind == it.kind && (x.maps & it.maps);
    });
    if (w != waves.end())
      w->maps &= it.maps;
    else
      waves.push_back(it);
  }
  return waves.size();
}

Result<TritonAccess> tritonAsyncCopy(const LinearLayout& src, const LinearLayout& shared,
                                     const std::vector<IntervalPad>& padding, int maxElements,
                                     const SharedMemoryModel& model,
                                     const TritonLoweringOptions& options,
                                     const AsyncCopySource* source) {
  auto plan = asyncCopyPlan(src, shared, padding, maxElements, model, options);
  if (!plan.ok())
    return plan.error();
  const detail::CvtMap& m = plan->map;
  int v = plan->v, elemBytes = plan->elemBytes, maxVec = plan->maxVec;
  const std::vector<detail::Chunk>& chunks = plan->chunks;
  TritonAccess a;
  a.instruction = SharedInstruction::Vector;
  a.vectorElements = 1 << v;
  a.copyBytes = a.vectorElements * elemBytes;
  a.name = std::string("cp.async.") + (a.copyBytes == 16 ? "cg" : "ca") + ".shared.global";
  a.warps = uint64_t{1} << m.warps.size();
  a.instructionsPerWarp = uint64_t{1} << (static_cast<int>(m.registers.size()) - v);
  a.widthsPerWarp[a.copyBytes * 8] = a.instructionsPerWarp;
  a.count = detail::chunkCount(m, padding, chunks, SharedAccessKind::Store, model, elemBytes,
                               &a.misalignedAccesses);
  if (a.misalignedAccesses > 0)
    a.why.push_back(std::to_string(a.misalignedAccesses) +
                    " lane copies are not aligned to their width (the padding moves them): the "
                    "GPU faults (misaligned address)");
  // Lanes and warps that hold copies are predicated off: a copied lane writes the same words
  // as its original (no extra wavefront), a copied warp writes nothing.
  uint64_t owners = 0;
  for (uint64_t c : m.warps)
    owners += c != 0 ? 1 : 0;
  int idle = static_cast<int>(m.warps.size() - owners);
  a.count.wavefronts >>= idle;
  a.count.idealWavefronts >>= idle;
  if (source && model.arch == "sm90") {
    auto instructions = planInstructions(*plan, shared, padding, model);
    if (!instructions.ok())
      return instructions.error();
    auto wavefronts =
        sourceWavefronts(*instructions, a.copyBytes, elemBytes, *source, shared.getNumOutDims());
    if (!wavefronts.ok())
      return wavefronts.error();
    a.count.wavefronts = *wavefronts;
    a.count.idealWavefronts = std::min(a.count.idealWavefronts, a.count.wavefronts);
    a.why.push_back("wavefronts by the LDGSTS rule measured on an H200 (gpu_oracle/ldgsts_rule) "
                    "for the source's strides " +
                    [&] {
                      std::string t = "[";
                      for (std::size_t d = 0; d < source->strides.size(); ++d)
                        t += (d ? ", " : "") + std::to_string(source->strides[d]);
                      return t + "]";
                    }() +
                    ", its first byte " + std::to_string(source->globalOffset) + " past a line");
  }
  a.count.bankConflicts = a.count.wavefronts - a.count.idealWavefronts;
  a.why.push_back("registers hold " + std::to_string(a.vectorElements) +
                  " consecutive offsets (in order, pointers allow " + std::to_string(maxVec) +
                  "): " + std::to_string(a.copyBytes) +
                  "-byte cp.async; copies in lanes and "
                  "warps are predicated off");
  return a;
}

nlohmann::json toJson(const TritonAccess& a) {
  nlohmann::json j = toJson(a.count);
  j["instruction"] = a.name;
  j["instructions_per_warp"] = a.instructionsPerWarp;
  if (a.widthsPerWarp.size() > 1) {
    nlohmann::json w = nlohmann::json::object();
    for (const auto& [bits, n] : a.widthsPerWarp)
      w[std::to_string(bits)] = n;
    j["widths_per_warp"] = w; // bits per lane -> instructions per warp
  }
  if (a.matrices > 0)
    j["matrices"] = a.matrices;
  if (a.copyBytes > 0)
    j["copy_bytes"] = a.copyBytes;
  if (a.misalignedAccesses > 0)
    j["misaligned_accesses"] = a.misalignedAccesses;
  j["why"] = a.why;
  return j;
}

} // namespace llcheck
