// Triton's lowering of tt.scan across warps on NVIDIA, per release (see TritonScan.h).
#include "llcheck/core/conversion/TritonScan.h"

#include "TritonScratchDetail.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>

namespace llcheck {

namespace {

using namespace detail; // the layout pieces shared with the reduce (TritonScratchDetail.h)

/// LinearEncodingAttr::getContigPerThread: per dim, the registers that step 1, 2, 4, ... along
/// it, taken from the first register bases, dims in `order`.
std::vector<uint64_t> contigPerThread(const Bases& regs, const std::vector<std::size_t>& order,
                                      std::size_t rank) {
  std::vector<uint64_t> contig(rank, 1);
  std::size_t next = 0;
  for (std::size_t d : order) {
    while (next < regs.size()) {
      Basis unit(rank, 0);
      unit[d] = contig[d];
      if (regs[next] != unit)
        break;
      contig[d] *= 2;
      ++next;
    }
  }
  return contig;
}

uint64_t product(const std::vector<uint64_t>& v) {
  uint64_t p = 1;
  for (uint64_t x : v)
    p *= x;
  return p;
}

struct Piece {
  uint64_t first = 0; ///< its first element
  uint64_t elements = 0;
};

/// The loads LLVM makes of `count` neighbouring elements of `bytes` each, the first at element
/// `first` of a 16-byte aligned scratch: aligned vectors of at most 16 bytes, largest first;
/// `fillGaps` (Triton 3.9's LLVM) loads a tail of 3, 5, 6 or 7 elements as the next power of
/// two when that fits in 16 bytes.
void llvmLoads(uint64_t first, uint64_t count, uint64_t bytes, bool fillGaps,
               std::vector<Piece>& pieces) {
  uint64_t maxElems = 16 / bytes;
  uint64_t pos = 0;
  while (pos < count) {
    uint64_t left = count - pos;
    uint64_t at = first + pos;
    if (fillGaps && left >= 2 && !std::has_single_bit(left) && std::bit_ceil(left) <= maxElems &&
        at % std::bit_ceil(left) == 0) {
      pieces.push_back({at, std::bit_ceil(left)});
      return;
    }
    uint64_t p = std::min(maxElems, std::bit_floor(left));
    while (p > 1 && at % p != 0)
      p /= 2;
    pieces.push_back({at, p});
    pos += p;
  }
}

/// What ptxas makes of those loads when every lane reads the same address (measured on the
/// H200, both releases: gpu_oracle/reduce_scratch/): in each aligned 16-byte block, two or
/// more loads of at least 32 bits per lane become one, as wide as the power of two that covers
/// them; narrower loads stay as they are.
std::vector<Piece> ptxasLoads(const std::vector<Piece>& llvm, uint64_t bytes) {
  std::vector<Piece> out;
  uint64_t perBlock = 16 / bytes;
  for (std::size_t i = 0; i < llvm.size();) {
    uint64_t block = llvm[i].first / perBlock;
    std::size_t j = i;
    std::vector<Piece> wide;
    for (; j < llvm.size() && llvm[j].first / perBlock == block; ++j) {
      if (llvm[j].elements * bytes >= 4)
        wide.push_back(llvm[j]);
      else
        out.push_back(llvm[j]);
    }
    if (wide.size() >= 2) {
      uint64_t from = wide.front().first;
      uint64_t span = std::bit_ceil(wide.back().first + wide.back().elements - from);
      out.push_back({from - from % span, span});
    } else {
      out.insert(out.end(), wide.begin(), wide.end());
    }
    i = j;
  }
  return out;
}

} // namespace

Result<TritonScratch> tritonScan(const LinearLayout& src, int axisIndex, bool reverse,
                                 const std::vector<int>& operandBits,
                                 const SharedMemoryModel& model, TritonVersion version) {
  auto parsed = scratchOperand(src, axisIndex, operandBits, model, "tt.scan");
  if (!parsed.ok())
    return parsed.error();
  const Named& n = *parsed;
  auto axis = static_cast<std::size_t>(axisIndex);
  std::size_t rank = n.outs.size();
  const Bases& regs = n.of(dims::kRegister);
  const Bases& warps = n.of(dims::kWarp);
  ThreadIds ids(n);
  const std::vector<std::size_t>& order = ids.order;
  const std::vector<uint64_t>&laneShape = ids.laneShape, &warpShape = ids.warpShape;
  uint64_t axisWarps = warpShape[axis], axisLanes = laneShape[axis];

  TritonScratch out;
  if (axisWarps == 1) {
    out.why.push_back("dim" + std::to_string(axis) +
                      " lies within each warp: registers and shuffles, no shared memory");
    return out;
  }
  out.sharedMemory = true;
  if (regs.size() + warps.size() > kMaxEnumeratedInstructionsLog2)
    return tooManyInstructions("scan");

  std::vector<uint64_t> contig = contigPerThread(regs, order, rank);
  uint64_t perChunk = contig[axis];
  uint64_t elementStride = 1;
  for (std::size_t d : order) {
    if (d == axis)
      break;
    elementStride *= contig[d];
  }
  uint64_t laneParallelThreads = product(laneShape) / axisLanes;
  uint64_t parallel = product(warpShape) / axisWarps * laneParallelThreads; // P
  auto nLanes = static_cast<uint64_t>(model.warpSize);
  uint64_t nWarps = uint64_t{1} << warps.size();

  // Each thread's parallel index p, its lane's index along the axis and whether it is no copy.
  struct Thread {
    uint64_t parallel = 0, laneAxis = 0, warpAxis = 0;
    bool representative = false;
  };
  auto thread = [&](uint64_t l, uint64_t w) {
    Thread t;
    std::vector<uint64_t> lane = ids.lane(l), warp = ids.warp(w);
    t.laneAxis = lane[axis];
    t.warpAxis = reverse ? axisWarps - 1 - warp[axis] : warp[axis];
    lane[axis] = warp[axis] = 0;
    std::vector<uint64_t> laneDims = laneShape, warpDims = warpShape;
    laneDims[axis] = warpDims[axis] = 1;
    t.parallel =
        linearize(lane, laneDims, order) + linearize(warp, warpDims, order) * laneParallelThreads;
    t.representative = ids.representative(l, w);
    return t;
  };
  std::vector<Thread> threads;
  for (uint64_t w = 0; w < nWarps; ++w)
    for (uint64_t l = 0; l < nLanes; ++l)
      threads.push_back(thread(l, w));

  // The chunks in the order Triton visits the registers (reversed for a reverse scan), and
  // for each the position of the other dims that names its accumulator.
  uint64_t registers = uint64_t{1} << regs.size();
  std::vector<Basis> chunkKey;
  for (uint64_t i = 0; i < registers; ++i) {
    if ((i / elementStride) % perChunk != perChunk - 1)
      continue;
    Basis key = coordinates(n, reverse ? registers - 1 - i : i, 0, 0);
    key[axis] = 0;
    chunkKey.push_back(key);
  }
  std::map<Basis, std::size_t> lastChunkOf;
  for (std::size_t c = 0; c < chunkKey.size(); ++c)
    lastChunkOf[chunkKey[c]] = c;

  out.why.push_back("dim" + std::to_string(axis) + " spans " + std::to_string(axisWarps) +
                    " warps: each warp stores its running total per chunk (" +
                    std::to_string(chunkKey.size()) + ") to scratch, and every thread loads the " +
                    "totals of its position (" + std::to_string(parallel) +
                    " parallel positions per CTA)");
  bool fillGaps = version != TritonVersion::v3_6;
  for (std::size_t op = 0; op < operandBits.size(); ++op) {
    int bits = std::max(8, operandBits[op]);
    auto bytes = static_cast<uint64_t>(bits / 8);
    std::vector<std::optional<uint64_t>> address(nLanes);
    StepCounter stored(SharedAccessKind::Store, bits, nWarps);
    std::map<int, StepCounter, std::greater<>> loaded; // by elements per lane, widest first
    auto loads = [&](int elements) -> StepCounter& {
      return loaded.try_emplace(elements, SharedAccessKind::Load, bits, nWarps).first->second;
    };
    uint64_t deleted = 0;
    std::vector<Piece> llvm; // P = 1: the loads LLVM emits, every warp the same
    for (std::size_t c = 0; c < chunkKey.size(); ++c) {
      uint64_t kept = axisWarps - (lastChunkOf[chunkKey[c]] == c ? 1 : 0);
      deleted += axisWarps - kept;
      for (uint64_t w = 0; w < nWarps; ++w) {
        for (uint64_t l = 0; l < nLanes; ++l) {
          const Thread& t = threads[w * nLanes + l];
          address[l].reset();
          if (t.representative && t.laneAxis == axisLanes - 1)
            address[l] = (t.parallel + t.warpAxis * parallel + c * parallel * axisWarps) * bytes;
        }
        stored.add(address, 1, model);
        if (parallel != 1)
          for (uint64_t i = 0; i < kept; ++i) {
            for (uint64_t l = 0; l < nLanes; ++l)
              address[l] =
                  (threads[w * nLanes + l].parallel + parallel * (i + c * axisWarps)) * bytes;
            loads(1).add(address, 1, model);
          }
      }
      if (parallel == 1)
        llvmLoads(c * axisWarps, kept, bytes, fillGaps, llvm);
    }
    std::map<int, uint64_t>& ptx = out.ptxLoadWidthsPerWarp.emplace_back();
    if (parallel == 1) {
      // Every lane reads the same totals, the same in every warp.
      for (const Piece& p : llvm)
        ptx[static_cast<int>(p.elements * bytes * 8)] += 1;
      for (const Piece& p : ptxasLoads(llvm, bytes))
        for (uint64_t w = 0; w < nWarps; ++w) {
          std::vector<std::optional<uint64_t>> all(nLanes, p.first * bytes);
          loads(static_cast<int>(p.elements)).add(all, static_cast<int>(p.elements), model);
        }
    } else {
      ptx[bits] = chunkKey.size() * axisWarps - deleted;
    }
    out.steps.push_back(
        {"totals stored", static_cast<int>(op),
         stored.done("one predicated " + vectorName(SharedAccessKind::Store, 1, bits) +
                     " per chunk (" + std::to_string(chunkKey.size()) +
                     "): the lanes last along the axis store their warp's total")});
    std::string rule =
        "every thread loads the " + std::to_string(axisWarps) + " warps' totals per chunk, " +
        std::to_string(deleted) +
        " deleted by LLVM (the last warp's, in each accumulator's last chunk)" +
        (parallel == 1 ? std::string(", neighbours merged into vectors by "
                                     "LLVM") +
                             (fillGaps ? " (gaps filled)" : "") + " and ptxas (16-byte blocks)"
                       : std::string());
    for (auto& [elements, counter] : loaded)
      out.steps.push_back({"totals loaded", static_cast<int>(op), counter.done(rule)});
  }
  return out;
}

} // namespace llcheck
