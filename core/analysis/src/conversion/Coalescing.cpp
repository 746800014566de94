// The coalescing count of Coalescing.h: the layout's columns as element offsets, the vector
// from the lowest offsets, then sectors and lines by rank (F2-linear addresses on an aligned
// base) or by enumerating each request's lanes.
#include "llcheck/core/conversion/Coalescing.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Subspace.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>

namespace llcheck {

namespace {

uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

bool isPow2(uint64_t v) {
  return std::has_single_bit(v);
}

__extension__ typedef unsigned __int128 U128;

/// Strides larger than this are refused. A stride within it can still carry an address past
/// 2^64 (2^40 x a 2^22-row index x 8 bytes): lastByte() bounds the whole tensor's reach.
constexpr int64_t kMaxStride = int64_t{1} << 40;

/// The last byte any element of the tensor can lie at, base + bytes * sum_k stride_k x
/// (size_k - 1), in 128 bits: every address llcheck computes (the model's, the enumeration's,
/// the prover's 64-bit bit-vectors) is at most this, so one check here keeps them all from
/// wrapping at 2^64 (a wrapped address once made "at most 16 sectors" a proof where 32 was
/// true).
U128 lastByte(const LinearLayout& reg, const std::vector<int64_t>& strides, uint64_t baseOffset,
              int elementBytes) {
  U128 elements = 0;
  for (std::size_t k = 0; k < strides.size(); ++k)
    elements += U128{static_cast<uint64_t>(strides[k])} *
                (reg.getOutDimSize(dims::standardOut(static_cast<int>(k))) - 1);
  return baseOffset + elements * static_cast<unsigned>(elementBytes) + (elementBytes - 1);
}

std::string dimName(int k) {
  return "dim" + std::to_string(k);
}

} // namespace

Result<GlobalMemoryModel> globalMemoryModel(std::string_view arch) {
  // Ampere and Hopper share the L1TEX sector and line sizes and the 16-byte vector limit.
  if (arch == "sm90" || arch == "sm80")
    return GlobalMemoryModel{std::string(arch), 32, 128, 32, 16};
  return makeError("unknown architecture '" + utf8Prefix(arch, 32) + "' (expected sm90, sm80)");
}

const char* vectorLimitName(VectorLimit l) {
  switch (l) {
  case VectorLimit::Contiguity:
    return "contiguity";
  case VectorLimit::Strides:
    return "strides";
  case VectorLimit::BaseAlignment:
    return "base_alignment";
  case VectorLimit::Hardware:
    return "hardware";
  case VectorLimit::Requested:
    return "requested";
  case VectorLimit::Compiler:
    return "compiler";
  }
  return "contiguity";
}

std::string GlobalAccess::ptxSuffix() const {
  // Triton's lowering: accesses up to 32 bits are one scalar, wider ones vectors of b32.
  if (vectorBits <= 32)
    return "b" + std::to_string(vectorBits);
  return "v" + std::to_string(vectorBits / 32) + ".b32";
}

std::string GlobalAccess::ptx(bool load) const {
  return (load ? "ld.global." : "st.global.") + ptxSuffix();
}

std::vector<int64_t> effectiveStrides(const LinearLayout& reg, const CoalescingOptions& options) {
  if (!options.strides.empty())
    return options.strides;
  int rank = reg.getNumOutDims();
  std::vector<int64_t> strides(static_cast<std::size_t>(rank), 0);
  // Unsigned, saturating past 2^62: a tensor of 2^64 elements must not overflow here (strides
  // past 2^40 are refused by globalAddressMap, saturated or not).
  uint64_t s = 1;
  for (int k = rank - 1; k >= 0; --k) {
    strides[k] = static_cast<int64_t>(std::min(s, uint64_t{1} << 62));
    uint64_t size = reg.getOutDimSize(dims::standardOut(k));
    s = s > (uint64_t{1} << 62) / size ? (uint64_t{1} << 62) + 1 : s * size;
  }
  return strides;
}

Result<GlobalAddressMap> globalAddressMap(const LinearLayout& regIn,
                                          const CoalescingOptions& options,
                                          const GlobalMemoryModel& model) {
  auto reg = withDistributedInDims(regIn);
  if (!reg.ok())
    return reg.error();
  if (options.elementBits < 8 || options.elementBits > 64 ||
      !isPow2(static_cast<uint64_t>(options.elementBits)))
    return makeError("element width " + std::to_string(options.elementBits) +
                     " bits is not one of 8, 16, 32, 64");
  GlobalAddressMap m;
  m.elementBytes = options.elementBits / 8;
  if (!isPow2(options.baseAlignment) ||
      options.baseAlignment < static_cast<uint64_t>(m.elementBytes))
    return makeError("base alignment " + std::to_string(options.baseAlignment) +
                     " bytes is not a power of two of at least one element (" +
                     std::to_string(m.elementBytes) + " bytes)");
  m.baseOffset =
      options.baseAlignment < static_cast<uint64_t>(model.lineBytes) ? options.baseAlignment : 0;
  if (reg->getInDimSize(dims::kLane) != static_cast<uint64_t>(model.warpSize))
    return makeError("the layout has " + std::to_string(reg->getInDimSize(dims::kLane)) +
                     " lanes per warp, but " + model.arch + " runs " +
                     std::to_string(model.warpSize) + "-lane warps");
  int rank = reg->getNumOutDims();
  std::vector<int> outIndex; // outIndex[k]: the position of dim k among REG's out dims
  for (int k = 0; k < rank; ++k) {
    if (!reg->hasOutDim(dims::standardOut(k)))
      return makeError("the layout's output dimensions are not dim0 .. dim" +
                       std::to_string(rank - 1) + ": strides need the tensor's dims");
    outIndex.push_back(reg->outDimIndex(dims::standardOut(k)));
  }
  std::vector<int64_t> strides = effectiveStrides(*reg, options);
  if (static_cast<int>(strides.size()) != rank)
    return makeError(std::to_string(strides.size()) + " strides for a tensor of rank " +
                     std::to_string(rank) + " (one stride per dim, dim0 first)");
  for (int k = 0; k < rank; ++k)
    if (strides[k] < 0 || strides[k] > kMaxStride)
      return makeError("the stride of " + dimName(k) + " is " + std::to_string(strides[k]) +
                       " (expected 0 .. 2^40 elements)");
  if (U128 last = lastByte(*reg, strides, m.baseOffset, m.elementBytes);
      last > std::numeric_limits<uint64_t>::max()) {
    int log2 = 63 + static_cast<int>(std::bit_width(static_cast<uint64_t>(last >> 64)));
    return makeError("the tensor reaches past byte 2^" + std::to_string(log2) +
                     " (base + element bytes x the sum of stride x (size - 1) over its dims), "
                     "beyond a 64-bit address space: no GPU tensor does (smaller strides or "
                     "shape)");
  }

  // F2-linear when each dim's index bits land on address bits of their own: power-of-two
  // strides whose bit ranges [log2 s, log2 s + bits) do not overlap.
  uint64_t taken = 0;
  m.linear = true;
  for (int k = 0; k < rank && m.linear; ++k) {
    int bits = reg->getOutDimSizeLog2(dims::standardOut(k));
    if (bits == 0)
      continue;
    if (!isPow2(static_cast<uint64_t>(strides[k]))) {
      m.linear = false;
      break;
    }
    int shift = std::countr_zero(static_cast<uint64_t>(strides[k]));
    uint64_t range = lowMask(bits) << shift;
    if (shift + bits > 63 || (range & taken) != 0)
      m.linear = false;
    taken |= range;
  }

  // Each input bit's column as a tensor point, then as an element offset.
  struct Seen {
    int dim, bit;
    std::string what;
  };
  std::vector<Seen> seen;
  for (int i = 0; i < reg->getNumInDims(); ++i) {
    const Dim& in = reg->inDims()[i];
    std::vector<uint64_t>* target = in.name == dims::kRegister ? &m.registers
                                    : in.name == dims::kLane   ? &m.lanes
                                    : in.name == dims::kWarp   ? &m.warps
                                                               : nullptr;
    if (target == nullptr)
      continue; // block: CTA 0 only, every CTA repeats its pattern
    for (int b = 0; b < in.sizeLog2; ++b) {
      uint64_t col = reg->columns()[reg->inDimOffset(i) + b];
      uint64_t offset = 0;
      int setBits = 0, setDim = 0, setBit = 0;
      for (int k = 0; k < rank; ++k) {
        int o = outIndex[k];
        uint64_t coord =
            (col >> reg->outDimOffset(o)) & lowMask(reg->getOutDimSizeLog2(dims::standardOut(k)));
        if (coord == 0)
          continue;
        setBits += std::popcount(coord);
        setDim = k;
        setBit = std::countr_zero(coord);
        if (m.linear)
          offset |= coord << std::countr_zero(static_cast<uint64_t>(strides[k]));
        else
          offset += coord * static_cast<uint64_t>(strides[k]);
      }
      std::string what = in.name.str() + " " + std::to_string(uint64_t{1} << b);
      if (!m.linear && setBits > 1)
        return makeError(what + " maps to more than one tensor bit: with strides that are not "
                                "distinct powers of two the addresses are integer sums, which "
                                "needs a layout whose columns are single tensor bits (Def. 4.10)");
      if (!m.linear && setBits == 1) {
        for (const Seen& s : seen)
          if (s.dim == setDim && s.bit == setBit)
            return makeError(what + " and " + s.what + " hold the same tensor bit (" +
                             dimName(setDim) + " " + std::to_string(uint64_t{1} << setBit) +
                             "): with strides that are not distinct powers of two the "
                             "addresses are integer sums, which needs distinct columns");
        seen.push_back({setDim, setBit, what});
      }
      target->push_back(offset);
      if (in.name == dims::kRegister)
        m.registerHoldsData.push_back(setBits > 0);
    }
  }
  return m;
}

namespace {

/// The widest run of consecutive, aligned elements a thread holds, before the caps; on the
/// integer path also the register bits chosen for it, in order 2^0, 2^1, ...
struct ContiguousRun {
  int contiguous = 0;
  std::vector<std::size_t> chosen;
};

ContiguousRun contiguousRun(const GlobalAddressMap& map) {
  uint64_t threadBits = 0; // offsets lanes and warps move: a vector must not see them
  for (uint64_t c : map.lanes)
    threadBits |= c;
  for (uint64_t c : map.warps)
    threadBits |= c;
  ContiguousRun run;
  if (map.linear) {
    // Offset bit v joins the vector when a combination of registers (a renumbering of the
    // registers) is exactly that bit and no lane or warp moves it: as vectorLog2 of the bank
    // model does for shared offsets.
    Subspace registers(map.registers);
    while (run.contiguous < 63 && ((threadBits >> run.contiguous) & 1) == 0 &&
           registers.contains(uint64_t{1} << run.contiguous))
      ++run.contiguous;
    return run;
  }
  // Integer offsets: the register holding offset 2^k for k = 0, 1, ..., cut where another
  // column (a lane, a warp, a further register) is not a multiple of the run: that column
  // would start some thread's vector off its alignment.
  std::vector<bool> used(map.registers.size(), false);
  for (int k = 0; k < 63; ++k) {
    std::size_t found = map.registers.size();
    for (std::size_t j = 0; j < map.registers.size() && found == map.registers.size(); ++j)
      if (!used[j] && map.registerHoldsData[j] && map.registers[j] == (uint64_t{1} << k))
        found = j;
    if (found == map.registers.size())
      break;
    used[found] = true;
    run.chosen.push_back(found);
  }
  uint64_t others = threadBits;
  for (std::size_t j = 0; j < map.registers.size(); ++j)
    if (!used[j])
      others |= map.registers[j];
  run.contiguous = static_cast<int>(run.chosen.size());
  if (others != 0)
    run.contiguous = std::min(run.contiguous, std::countr_zero(others));
  return run;
}

/// The vector (log2 elements) after the caps, and which one binds in `a.vectorLimit` (ties name
/// the hardware, then the base, then the request).
int cappedVector(const LinearLayout& reg, const CoalescingOptions& options,
                 const GlobalMemoryModel& model, int contiguous, int elemBytesLog2,
                 GlobalAccess& a) {
  int hardwareCap = std::countr_zero(static_cast<unsigned>(model.maxAccessBytes)) - elemBytesLog2;
  int alignmentCap = std::countr_zero(options.baseAlignment) - elemBytesLog2;
  int v = contiguous;
  a.vectorLimit = VectorLimit::Contiguity;
  if (!options.strides.empty()) {
    // Would the contiguous, row-major tensor have allowed more?
    CoalescingOptions rowMajor = options;
    rowMajor.strides.clear();
    rowMajor.maxVectorLog2 = -1;
    rowMajor.baseAlignment = static_cast<uint64_t>(model.lineBytes);
    auto dense = predictGlobalAccess(reg, rowMajor, model);
    if (dense.ok() &&
        static_cast<uint64_t>(contiguous) <
            static_cast<uint64_t>(std::countr_zero(dense->vectorElements)) &&
        contiguous < hardwareCap)
      a.vectorLimit = VectorLimit::Strides;
  }
  if (options.maxVectorLog2 >= 0 && options.maxVectorLog2 <= v) {
    v = options.maxVectorLog2;
    a.vectorLimit = VectorLimit::Requested;
  }
  if (alignmentCap <= v) {
    v = alignmentCap;
    a.vectorLimit = VectorLimit::BaseAlignment;
  }
  if (hardwareCap <= v) {
    v = hardwareCap;
    a.vectorLimit = VectorLimit::Hardware;
  }
  return v;
}

/// The instructions' starting offsets: the register columns outside the 2^v-element vector.
std::vector<uint64_t> instructionColumns(const GlobalAddressMap& map, int v,
                                         const std::vector<std::size_t>& chosen) {
  std::vector<uint64_t> columns;
  if (map.linear) {
    Subspace starts;
    for (uint64_t c : map.registers)
      starts.insert(c & ~lowMask(v));
    return starts.basis();
  }
  for (std::size_t j = 0; j < map.registers.size(); ++j) {
    bool inVector = std::find(chosen.begin(), chosen.begin() + v, j) != chosen.begin() + v;
    if (map.registerHoldsData[j] && !inVector)
      columns.push_back(map.registers[j]);
  }
  return columns;
}

uint64_t sectorsFor(const GlobalMemoryModel& model, uint64_t bytes) {
  uint64_t s = static_cast<uint64_t>(model.sectorBytes);
  return (bytes + s - 1) / s;
}

/// F2-linear addresses on a line-aligned base: every request is a coset of the lanes' span (XOR
/// with its start), shifted by the aligned base: its sectors are the coset's distinct values
/// >> 5, 2^rank of them.
void countByRank(const GlobalAddressMap& map, const GlobalMemoryModel& model, int elemBytesLog2,
                 uint64_t vectorBytes, GlobalAccess& a) {
  int sectorLog2 = std::countr_zero(static_cast<unsigned>(model.sectorBytes));
  int lineLog2 = std::countr_zero(static_cast<unsigned>(model.lineBytes));
  a.byRank = true;
  std::vector<uint64_t> sectorCols, lineCols;
  for (uint64_t c : map.lanes) {
    sectorCols.push_back((c << elemBytesLog2) >> sectorLog2);
    lineCols.push_back((c << elemBytesLog2) >> lineLog2);
  }
  a.maxSectorsPerRequest = Subspace(sectorCols).size();
  a.maxLinesPerRequest = Subspace(lineCols).size();
  a.bytesPerRequest = Subspace(map.lanes).size() * vectorBytes;
  a.sectors = a.requests * a.maxSectorsPerRequest;
  a.lines = a.requests * a.maxLinesPerRequest;
  a.idealSectors = a.requests * sectorsFor(model, a.bytesPerRequest);
}

/// Any other addresses: each warp's each instruction, each lane's address, counted one by one
/// (an Error past kMaxEnumeratedRequestsLog2 requests).
std::optional<Error> countByEnumeration(const GlobalAddressMap& map, const GlobalMemoryModel& model,
                                        const std::vector<uint64_t>& starts, int elemBytesLog2,
                                        uint64_t vectorBytes, GlobalAccess& a) {
  int sectorLog2 = std::countr_zero(static_cast<unsigned>(model.sectorBytes));
  int lineLog2 = std::countr_zero(static_cast<unsigned>(model.lineBytes));
  int requestBits = static_cast<int>(map.warps.size() + starts.size());
  if (requestBits > kMaxEnumeratedRequestsLog2)
    return makeError("the access has 2^" + std::to_string(requestBits) +
                     " requests to count one by one (strides that are not F2-linear or a "
                     "misaligned base); the bound is 2^" +
                     std::to_string(kMaxEnumeratedRequestsLog2));
  auto combine = [&](const std::vector<uint64_t>& cols, uint64_t sel) {
    if (map.linear)
      return xorOf(cols, sel);
    uint64_t s = 0;
    for (std::size_t j = 0; j < cols.size(); ++j)
      if ((sel >> j) & 1)
        s += cols[j];
    return s;
  };
  std::vector<uint64_t> laneOffsets;
  for (uint64_t t = 0; t < static_cast<uint64_t>(model.warpSize); ++t)
    laneOffsets.push_back(combine(map.lanes, t));
  std::vector<uint64_t> sectors, lines, addrs;
  for (uint64_t w = 0; w < a.warps; ++w)
    for (uint64_t s = 0; s < a.instructionsPerWarp; ++s) {
      uint64_t start = map.linear ? combine(map.warps, w) ^ combine(starts, s)
                                  : combine(map.warps, w) + combine(starts, s);
      sectors.clear();
      lines.clear();
      addrs.clear();
      for (uint64_t lane : laneOffsets) {
        uint64_t elem = map.linear ? start ^ lane : start + lane;
        uint64_t byte = map.baseOffset + (elem << elemBytesLog2);
        addrs.push_back(byte);
        sectors.push_back(byte >> sectorLog2);
        lines.push_back(byte >> lineLog2);
      }
      for (auto* v2 : {&sectors, &lines, &addrs}) {
        std::sort(v2->begin(), v2->end());
        v2->erase(std::unique(v2->begin(), v2->end()), v2->end());
      }
      a.sectors += sectors.size();
      a.lines += lines.size();
      a.maxSectorsPerRequest = std::max<uint64_t>(a.maxSectorsPerRequest, sectors.size());
      a.maxLinesPerRequest = std::max<uint64_t>(a.maxLinesPerRequest, lines.size());
      // Vectors are aligned to their size, so two lanes' ranges are equal or disjoint.
      uint64_t bytes = addrs.size() * vectorBytes;
      a.bytesPerRequest = std::max(a.bytesPerRequest, bytes);
      a.idealSectors += sectorsFor(model, bytes);
    }
  return std::nullopt;
}

} // namespace

Result<GlobalAccess> predictGlobalAccess(const LinearLayout& reg, const CoalescingOptions& options,
                                         const GlobalMemoryModel& model) {
  auto mapOr = globalAddressMap(reg, options, model);
  if (!mapOr.ok())
    return mapOr.error();
  const GlobalAddressMap& map = *mapOr;
  int elemBytesLog2 = std::countr_zero(static_cast<unsigned>(map.elementBytes));
  ContiguousRun run = contiguousRun(map);
  GlobalAccess a;
  a.elementBits = options.elementBits;
  int v = cappedVector(reg, options, model, run.contiguous, elemBytesLog2, a);
  std::vector<uint64_t> starts = instructionColumns(map, v, run.chosen);

  a.vectorElements = uint64_t{1} << v;
  uint64_t vectorBytes = a.vectorElements << elemBytesLog2;
  a.vectorBits = static_cast<int>(vectorBytes * 8);
  a.instructionsPerWarp = uint64_t{1} << starts.size();
  a.warps = uint64_t{1} << map.warps.size();
  a.requests = a.instructionsPerWarp * a.warps;
  if (map.linear && map.baseOffset % static_cast<uint64_t>(model.lineBytes) == 0) {
    countByRank(map, model, elemBytesLog2, vectorBytes, a);
    return a;
  }
  if (auto e = countByEnumeration(map, model, starts, elemBytesLog2, vectorBytes, a))
    return *e;
  return a;
}

int tritonFastestDim(const LinearLayout& regIn) {
  auto reg = withDistributedInDims(regIn);
  if (!reg.ok())
    return -1;
  int rank = reg->getNumOutDims();
  // getOrder's first dim: that of the first nonzero register basis (none: the last dim).
  for (int i = 0; i < std::countr_zero(reg->getInDimSize(dims::kRegister)); ++i)
    for (int k = 0; k < rank; ++k)
      if (reg->getBasis(dims::kRegister, i, dims::standardOut(k)) != 0)
        return k;
  return rank - 1;
}

Result<TritonGlobalAccess> predictTritonGlobalAccess(const LinearLayout& regIn,
                                                     const CoalescingOptions& options,
                                                     const GlobalMemoryModel& model,
                                                     TritonVersion version) {
  if (options.baseAlignment < 16)
    return contextError(ContextItem::TritonLowering,
                        "Triton assumes its pointer arguments 16-byte aligned (tt.divisibility = "
                        "16): a base " +
                            std::to_string(options.baseAlignment) +
                            " bytes past a line cannot be given with " +
                            contextName(ContextItem::TritonLowering));
  auto reg = withDistributedInDims(regIn);
  if (!reg.ok())
    return reg.error();
  int rank = reg->getNumOutDims();
  auto bases = [&](DimName in) {
    std::vector<std::vector<uint64_t>> out;
    for (int i = 0; i < std::countr_zero(reg->getInDimSize(in)); ++i) {
      std::vector<uint64_t> b;
      for (int k = 0; k < rank; ++k)
        b.push_back(reg->getBasis(in, i, dims::standardOut(k)));
      out.push_back(std::move(b));
    }
    return out;
  };
  auto isZero = [](const std::vector<uint64_t>& b) {
    return std::all_of(b.begin(), b.end(), [](uint64_t x) { return x == 0; });
  };
  std::vector<std::vector<uint64_t>> registers = bases(dims::kRegister);
  int d = tritonFastestDim(*reg);
  uint64_t run = 1;
  for (const auto& b : registers) {
    std::vector<uint64_t> want(static_cast<std::size_t>(rank), 0);
    want[static_cast<std::size_t>(d)] = run;
    if (b != want)
      break;
    run *= 2;
  }
  auto elemBytes = std::max<uint64_t>(static_cast<uint64_t>(options.elementBits / 8), 1);
  uint64_t cap = static_cast<uint64_t>(model.maxAccessBytes) / elemBytes;
  uint64_t alignment = 1;
  if (options.tritonAlignment) {
    alignment = std::max<uint64_t>(*options.tritonAlignment, 1);
  } else {
    // AxisInfo of base + sum_k index_k * stride_k (base 16-byte aligned): contiguous along d
    // only where stride_d is 1, and aligned to what divides 16 bytes and every other stride.
    std::vector<int64_t> strides = effectiveStrides(*reg, options);
    if (strides[static_cast<std::size_t>(d)] == 1) {
      uint64_t divisibility = 16;
      for (int k = 0; k < rank; ++k) {
        auto s = static_cast<uint64_t>(strides[static_cast<std::size_t>(k)]);
        if (k != d && s != 0)
          divisibility = std::min<uint64_t>(divisibility, (s & (~s + 1)) * elemBytes);
      }
      alignment = std::min<uint64_t>(std::max<uint64_t>(divisibility / elemBytes, 1),
                                     reg->getOutDimSize(dims::standardOut(d)));
    }
  }
  cap = std::min(cap, alignment);
  uint64_t vector = std::min(run, cap);
  // A power of two: the vector is a run of register bits.
  vector = std::bit_floor(vector);
  // A pointer Triton cannot prove aligned (no tt.divisibility) moves narrower vectors, down to
  // one element: the caller says how wide.
  if (options.maxVectorLog2 >= 0)
    vector = std::min(vector, uint64_t{1} << std::min(options.maxVectorLog2, 20));
  CoalescingOptions o = options;
  o.maxVectorLog2 = std::countr_zero(vector);
  auto load = predictGlobalAccess(*reg, o, model);
  if (!load.ok())
    return load.error();
  if (load->vectorElements != vector)
    return makeError("internal error: Triton's vector of " + std::to_string(vector) +
                     " elements is not contiguous by llcheck's count (" +
                     std::to_string(load->vectorElements) + ")");
  if (vector < run || load->vectorLimit == VectorLimit::Requested)
    load->vectorLimit = VectorLimit::Compiler;
  TritonGlobalAccess t{*load, *load};
  int copyWarps = 0, copyRegisters = 0;
  for (const auto& b : bases(dims::kWarp))
    copyWarps += isZero(b) ? 1 : 0;
  for (const auto& b : registers)
    copyRegisters += isZero(b) ? 1 : 0;
  // Every warp that holds a copy repeats another's requests exactly, and every register copy
  // (3.6) repeats its instruction: the store's totals scale.
  int up = version == TritonVersion::v3_6 ? copyRegisters : 0;
  GlobalAccess& st = t.store;
  st.warps >>= copyWarps;
  st.instructionsPerWarp <<= up;
  for (uint64_t* x : {&st.requests, &st.sectors, &st.lines, &st.idealSectors})
    *x = (*x << up) >> copyWarps;
  return t;
}

nlohmann::json toJson(const GlobalAccess& a) {
  return {{"vector_bits", a.vectorBits},
          {"vector_elements", a.vectorElements},
          {"vector_limit", vectorLimitName(a.vectorLimit)},
          {"ptx", a.ptxSuffix()},
          {"instructions_per_warp", a.instructionsPerWarp},
          {"warps", a.warps},
          {"instructions", a.requests},
          {"requests", a.requests},
          {"sectors", a.sectors},
          {"ideal_sectors", a.idealSectors},
          {"excess_sectors", a.sectors - a.idealSectors},
          {"lines", a.lines},
          {"max_sectors_per_request", a.maxSectorsPerRequest},
          {"max_lines_per_request", a.maxLinesPerRequest},
          {"bytes_per_request", a.bytesPerRequest},
          {"counted_by", a.byRank ? "rank" : "enumeration"}};
}

nlohmann::json coalescingJson(const GlobalAccess& a, const LinearLayout& reg,
                              const CoalescingOptions& options, const GlobalMemoryModel& model) {
  std::vector<uint64_t> shape;
  for (int k = 0; k < reg.getNumOutDims(); ++k)
    shape.push_back(reg.hasOutDim(dims::standardOut(k)) ? reg.getOutDimSize(dims::standardOut(k))
                                                        : 1);
  nlohmann::json j = toJson(a);
  j["arch"] = model.arch;
  j["shape"] = shape;
  j["strides"] = effectiveStrides(reg, options);
  j["base_alignment"] = options.baseAlignment;
  j["load"] = a.ptx(true);
  j["store"] = a.ptx(false);
  return j;
}

Result<BlockedParams> coalescedBlocked(const std::vector<uint64_t>& shape, int elementBits,
                                       uint64_t numWarps, const GlobalMemoryModel& model,
                                       const std::vector<uint64_t>& orderIn) {
  auto power = [](uint64_t v) { return v > 0 && std::has_single_bit(v); };
  if (shape.empty() || !std::all_of(shape.begin(), shape.end(), power) || !power(numWarps) ||
      elementBits < 8 || !power(static_cast<uint64_t>(elementBits)))
    return makeError("coalescedBlocked: the shape, warps and element bits must be powers of two");
  std::size_t rank = shape.size();
  std::vector<uint64_t> order = orderIn;
  if (order.empty())
    for (std::size_t k = 0; k < rank; ++k)
      order.push_back(rank - 1 - k);
  {
    std::vector<uint64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < rank; ++k)
      if (sorted.size() != rank || sorted[k] != k)
        return makeError("coalescedBlocked: the order must be a permutation of the dims");
  }
  // Fill the dims in `order` as a row-major fill fills them from the last one.
  auto nth = [&](std::size_t k) { return static_cast<std::size_t>(order[k]); };
  std::size_t last = nth(0);
  uint64_t elements = 1;
  for (uint64_t s : shape)
    elements *= s;
  uint64_t threads = numWarps * static_cast<uint64_t>(model.warpSize);
  uint64_t perThread = std::min<uint64_t>(
      {static_cast<uint64_t>(model.maxAccessBytes) * 8 / static_cast<uint64_t>(elementBits),
       std::max<uint64_t>(1, elements / threads), shape[last]});
  BlockedParams p;
  p.sizePerThread.assign(rank, 1);
  p.sizePerThread[last] = perThread;
  p.threadsPerWarp.assign(rank, 1);
  p.warpsPerCTA.assign(rank, 1);
  uint64_t lanes = static_cast<uint64_t>(model.warpSize), warps = numWarps;
  for (std::size_t k = 0; k < rank; ++k) {
    std::size_t d = nth(k);
    uint64_t room = std::max<uint64_t>(1, shape[d] / p.sizePerThread[d]);
    p.threadsPerWarp[d] = std::min(lanes, room);
    lanes /= p.threadsPerWarp[d];
  }
  p.threadsPerWarp[nth(rank - 1)] *= lanes;
  for (std::size_t k = 0; k < rank; ++k) {
    std::size_t d = nth(k);
    uint64_t room = std::max<uint64_t>(1, shape[d] / (p.sizePerThread[d] * p.threadsPerWarp[d]));
    p.warpsPerCTA[d] = std::min(warps, room);
    warps /= p.warpsPerCTA[d];
  }
  p.warpsPerCTA[nth(rank - 1)] *= warps;
  p.order = order;
  return p;
}

} // namespace llcheck
