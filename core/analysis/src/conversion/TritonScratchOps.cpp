// Triton's scratch for scalar atomics, histograms and gathers on NVIDIA (see
// TritonScratchOps.h).
#include "llcheck/core/conversion/TritonScratchOps.h"

#include "TritonScratchDetail.h"

#include <algorithm>
#include <bit>

namespace llcheck {

namespace {

using namespace detail; // the layout pieces shared with the reduce (TritonScratchDetail.h)

using Addresses = std::vector<std::optional<uint64_t>>;

/// Row-major index of coordinates (the last dim fastest: LLVM::linearize over the shape).
uint64_t rowMajor(const Basis& c, const std::vector<DimSize>& outs) {
  uint64_t lin = 0;
  for (std::size_t d = 0; d < outs.size(); ++d)
    lin = lin * outs[d].size + c[d];
  return lin;
}

/// How many neighbouring registers LLVM merges into one st/ld.shared (log2) where register r
/// sits at offset(r) elements: the register bases at offsets 1, 2, 4, ..., up to 16 bytes.
int mergedLog2(const Bases& registers, const std::vector<DimSize>& outs, int bytes) {
  int v = 0;
  auto has = [&](uint64_t offset) {
    return std::any_of(registers.begin(), registers.end(),
                       [&](const Basis& b) { return rowMajor(b, outs) == offset; });
  };
  while ((bytes << (v + 1)) <= 16 && has(uint64_t{1} << v))
    ++v;
  return v;
}

/// The registers that start a merged access (those with none of the merged bases set).
std::vector<uint64_t> groupStarts(const Bases& registers, const std::vector<DimSize>& outs, int v) {
  uint64_t mergedMask = 0;
  for (int k = 0; k < v; ++k)
    for (std::size_t i = 0; i < registers.size(); ++i)
      if (rowMajor(registers[i], outs) == (uint64_t{1} << k))
        mergedMask |= uint64_t{1} << i;
  std::vector<uint64_t> starts;
  for (uint64_t r = 0; r < (uint64_t{1} << registers.size()); ++r)
    if ((r & mergedMask) == 0)
      starts.push_back(r);
  return starts;
}

/// One warp-wide access per (warp, start register): each lane at the row-major offset of its
/// element, `1 << v` elements of `bytes`.
void rowMajorAccesses(StepCounter& counter, const Named& n, int bytes, int v,
                      const SharedMemoryModel& model) {
  const Bases& regs = n.of(dims::kRegister);
  uint64_t nWarps = uint64_t{1} << n.of(dims::kWarp).size();
  auto nLanes = static_cast<uint64_t>(model.warpSize);
  Addresses address(nLanes);
  std::vector<uint64_t> starts = groupStarts(regs, n.outs, v); // the same in every warp
  for (uint64_t w = 0; w < nWarps; ++w)
    for (uint64_t r : starts) {
      for (uint64_t l = 0; l < nLanes; ++l)
        address[l] = rowMajor(coordinates(n, r, l, w), n.outs) * static_cast<uint64_t>(bytes);
      counter.add(address, 1 << v, model);
    }
}

/// A step whose addresses the data decide: `instructions` per warp, each between one wavefront
/// per phase and one per lane.
TritonScratchStep dataDependentStep(std::string phase, SharedAccessKind kind, int bits,
                                    uint64_t warps, uint64_t instructionsPerWarp,
                                    const SharedMemoryModel& model, std::string name,
                                    std::string why, std::string dataDependent) {
  StepCounter counter(kind, bits, warps);
  TritonScratchStep s{std::move(phase), 0, counter.done(std::move(why), std::move(name))};
  auto lanes = static_cast<uint64_t>(model.warpSize);
  uint64_t phasesPerInstruction = std::max<uint64_t>(
      1, lanes * static_cast<uint64_t>(bits / 8) / static_cast<uint64_t>(model.rowBytes()));
  s.access.instructionsPerWarp = instructionsPerWarp;
  s.access.widthsPerWarp = {{bits, instructionsPerWarp}};
  s.access.count.instructions = instructionsPerWarp * warps;
  s.access.count.idealWavefronts = s.access.count.instructions * phasesPerInstruction;
  s.access.count.wavefronts = s.access.count.instructions * lanes;
  s.access.count.bankConflicts = s.access.count.wavefronts - s.access.count.idealWavefronts;
  s.access.count.wavefrontsPerPhase = lanes;
  s.dataDependent = std::move(dataDependent);
  s.wavefrontsMin = s.access.count.idealWavefronts;
  return s;
}

Result<Named> oneCta(const LinearLayout& l, const std::string& what,
                     const SharedMemoryModel& model) {
  if (auto bad = checkModel(model, 32))
    return *bad;
  auto n = named(l);
  if (!n.ok())
    return n.error().within(what);
  if (n->of(dims::kBlock).size() != 0)
    return makeError(what + ": Triton's lowering is modelled for one CTA (block size 1)");
  if (n->of(dims::kLane).size() != 5 || model.warpSize != 32)
    return makeError(what + ": Triton's NVIDIA lowering needs 32 lanes per warp");
  return n;
}

std::optional<Error> checkBits(int bits) {
  if (bits < 8 || bits > 64 || !std::has_single_bit(static_cast<unsigned>(bits)))
    return makeError("element width " + std::to_string(bits) + " bits is not one of 8, 16, 32, 64");
  return std::nullopt;
}

} // namespace

Result<TritonScratch> tritonScalarAtomic(int bits, uint64_t warps, const SharedMemoryModel& model) {
  if (auto bad = checkModel(model, 32))
    return *bad;
  if (auto bad = checkBits(bits))
    return *bad;
  if (warps == 0 || !std::has_single_bit(warps) || warps > 64)
    return makeError("a CTA of " + std::to_string(warps) + " warps: not a power of two up to 64");
  auto nLanes = static_cast<uint64_t>(model.warpSize);
  TritonScratch out;
  out.sharedMemory = true;
  out.why.push_back("a scalar result: thread 0 makes the atomic and stores its value to "
                    "scratch, and every thread loads it after a barrier");
  StepCounter stored(SharedAccessKind::Store, bits, warps);
  StepCounter loaded(SharedAccessKind::Load, bits, warps);
  for (uint64_t w = 0; w < warps; ++w) {
    Addresses one(nLanes);
    if (w == 0)
      one[0] = 0;
    stored.add(one, 1, model);
    loaded.add(Addresses(nLanes, uint64_t{0}), 1, model);
  }
  out.steps.push_back(
      {"result stored", 0, stored.done("thread 0 stores it (predicated, executed by every warp)")});
  out.steps.push_back(
      {"result loaded", 0, loaded.done("every thread loads it: a broadcast per warp")});
  return out;
}

Result<TritonScratch> tritonHistogram(const LinearLayout& src, const LinearLayout& result,
                                      const SharedMemoryModel& model, TritonVersion version) {
  auto s = oneCta(src, "the histogram's operand layout", model);
  if (!s.ok())
    return s.error();
  auto r = oneCta(result, "the histogram's result layout", model);
  if (!r.ok())
    return r.error();
  if (r->outs.size() != 1)
    return makeError("a histogram's result is 1-D, not rank " + std::to_string(r->outs.size()));
  if (r->of(dims::kWarp).size() != s->of(dims::kWarp).size())
    return makeError("the histogram's result layout has other warps than its operand's");
  if (s->of(dims::kRegister).size() + s->of(dims::kWarp).size() > kMaxEnumeratedInstructionsLog2 ||
      r->of(dims::kRegister).size() + r->of(dims::kWarp).size() > kMaxEnumeratedInstructionsLog2)
    return tooManyInstructions("histogram");
  uint64_t bins = r->outs[0].size;
  auto nLanes = static_cast<uint64_t>(model.warpSize);
  uint64_t scratchBins = std::max(bins, nLanes);
  uint64_t nWarps = uint64_t{1} << s->of(dims::kWarp).size();
  uint64_t threads = nLanes * nWarps;
  TritonScratch out;
  out.sharedMemory = true;
  out.why.push_back(std::to_string(bins) + " bins counted in a scratch of " +
                    std::to_string(scratchBins) + " words: zeroed, added to with atom.shared " +
                    (version == TritonVersion::v3_6
                         ? "(Triton 3.6: each warp's counts, from ballots)"
                         : "(Triton 3.9: one per element, at its bin)") +
                    ", then read in the result's layout");

  StepCounter zeroed(SharedAccessKind::Store, 32, nWarps);
  uint64_t rounds = (scratchBins + threads - 1) / threads;
  Addresses address(nLanes);
  for (uint64_t i = 0; i < rounds; ++i)
    for (uint64_t w = 0; w < nWarps; ++w) {
      for (uint64_t l = 0; l < nLanes; ++l)
        address[l] = ((w * nLanes + l + i * threads) % scratchBins) * 4;
      zeroed.add(address, 1, model);
    }
  out.steps.push_back({"bins zeroed", 0,
                       zeroed.done("every thread zeroes " + std::to_string(rounds) +
                                   " word(s), thread t at (t + i * threads) % bins")});

  const std::string atom = "atom.shared.add.u32";
  if (version == TritonVersion::v3_6) {
    uint64_t perLane = scratchBins / nLanes;
    StepCounter added(SharedAccessKind::Store, 32, nWarps);
    for (uint64_t i = 0; i < perLane; ++i)
      for (uint64_t w = 0; w < nWarps; ++w) {
        for (uint64_t l = 0; l < nLanes; ++l)
          address[l] = (l * perLane + i) * 4;
        added.add(address, 1, model);
      }
    out.steps.push_back(
        {"bins added", 0,
         added.done("each warp adds its counts: lane l the bins l * " + std::to_string(perLane) +
                        " + i, i < " + std::to_string(perLane),
                    atom)});
  } else {
    uint64_t registers = uint64_t{1} << s->of(dims::kRegister).size();
    out.steps.push_back(dataDependentStep(
        "bins added", SharedAccessKind::Store, 32, nWarps, registers, model, atom,
        "one atomic add per element a thread holds (" + std::to_string(registers) + ")",
        "each lane adds at its element's bin (values outside the bins skip it)"));
  }

  StepCounter read(SharedAccessKind::Load, 32, nWarps);
  rowMajorAccesses(read, *r, 4, mergedLog2(r->of(dims::kRegister), r->outs, 4), model);
  out.steps.push_back(
      {"bins loaded", 0, read.done("every thread loads the bins of its result registers")});
  return out;
}

Result<bool> tritonGatherIsWarpLocal(const LinearLayout& src, const LinearLayout& index, int axis) {
  auto s = named(src);
  if (!s.ok())
    return s.error().within("the gather's source layout");
  auto i = named(index);
  if (!i.ok())
    return i.error().within("the gather's index layout");
  std::size_t rank = s->outs.size();
  if (i->outs.size() != rank)
    return makeError("the gather's index has rank " + std::to_string(i->outs.size()) +
                     ", its source " + std::to_string(rank));
  if (axis < 0 || static_cast<std::size_t>(axis) >= rank)
    return makeError("axis " + std::to_string(axis) + " is not a dim of a rank-" +
                     std::to_string(rank) + " gather");
  auto a = static_cast<std::size_t>(axis);
  auto alongAxis = [&](const Named& n) {
    for (const DimName& d : {dims::kWarp, dims::kBlock})
      for (const Basis& b : n.of(d))
        if (b[a] != 0)
          return true;
    return false;
  };
  if (alongAxis(*s) || alongAxis(*i))
    return false;
  auto others = [&](const Bases& bases) {
    Bases out = bases;
    for (Basis& b : out)
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(a));
    return out;
  };
  for (const DimName& d : {dims::kWarp, dims::kBlock, dims::kLane})
    if (others(s->of(d)) != others(i->of(d)))
      return false;
  return true;
}

Result<TritonScratch> tritonGather(const LinearLayout& src, const LinearLayout& index, int axis,
                                   int bits, const SharedMemoryModel& model,
                                   TritonVersion version) {
  (void)version; // both releases lower it alike (checked against their PTX)
  if (auto bad = checkBits(bits))
    return *bad;
  auto s = oneCta(src, "the gather's source layout", model);
  if (!s.ok())
    return s.error();
  auto i = oneCta(index, "the gather's index layout", model);
  if (!i.ok())
    return i.error();
  auto local = tritonGatherIsWarpLocal(src, index, axis);
  if (!local.ok())
    return local.error();
  TritonScratch out;
  if (*local) {
    out.why.push_back("each column along dim" + std::to_string(axis) +
                      " stays within one warp in source and index alike: shuffles, no shared "
                      "memory");
    return out;
  }
  if (s->of(dims::kRegister).size() + s->of(dims::kWarp).size() > kMaxEnumeratedInstructionsLog2)
    return tooManyInstructions("gather");
  out.sharedMemory = true;
  out.why.push_back("dim" + std::to_string(axis) +
                    " crosses warps: the source is stored whole to scratch (row-major) and each "
                    "result element loaded at the address its index gives");
  int bytes = bits / 8;
  uint64_t nWarps = uint64_t{1} << s->of(dims::kWarp).size();
  StepCounter stored(SharedAccessKind::Store, bits, nWarps);
  rowMajorAccesses(stored, *s, bytes, mergedLog2(s->of(dims::kRegister), s->outs, bytes), model);
  out.steps.push_back(
      {"source stored", 0, stored.done("every thread stores the source elements it holds")});
  uint64_t registers = uint64_t{1} << i->of(dims::kRegister).size();
  out.steps.push_back(dataDependentStep(
      "gathered", SharedAccessKind::Load, bits, nWarps, registers, model, "",
      "one ld.shared per result element a thread holds (" + std::to_string(registers) + ")",
      "each lane loads at the address its index gives"));
  return out;
}

} // namespace llcheck
