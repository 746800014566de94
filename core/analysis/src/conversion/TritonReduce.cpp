// Triton's lowering of tt.reduce across warps on NVIDIA, per release (see TritonReduce.h).
#include "llcheck/core/conversion/TritonReduce.h"

#include "TritonScratchDetail.h"
#include "llcheck/core/LayoutUtils.h"
#include "llcheck/core/Subspace.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

namespace llcheck {

namespace {

using namespace detail; // the layout pieces shared with the scan (TritonScratchDetail.h)

Result<TritonScratch> reduce36(const Named& n, std::size_t axis, const std::optional<Named>& result,
                               const std::vector<TritonReduceOperand>& operands,
                               const SharedMemoryModel& model) {
  const Bases& regs = n.of(dims::kRegister);
  const Bases& warps = n.of(dims::kWarp);
  std::vector<uint64_t> shape;
  for (const DimSize& d : n.outs)
    shape.push_back(d.size);
  ThreadIds ids(n);
  const std::vector<std::size_t>& order = ids.order;
  uint64_t interWarps = ids.warpShape[axis];

  TritonScratch out;
  if (interWarps == 1) {
    out.why.push_back("dim" + std::to_string(axis) +
                      " lies within each warp: registers and shuffles, no shared memory");
    return out;
  }
  out.sharedMemory = true;
  std::vector<uint64_t> smemShape = shape;
  smemShape[axis] = interWarps;
  std::vector<std::size_t> smemOrder = {axis};
  for (std::size_t d : order)
    if (d != axis)
      smemOrder.push_back(d);
  uint64_t elems = 1;
  for (uint64_t s : smemShape)
    elems *= s;
  uint64_t nWarps = uint64_t{1} << warps.size();
  auto nLanes = static_cast<uint64_t>(model.warpSize);
  uint64_t threads = nLanes * nWarps;
  // Every instruction is counted lane by lane: bounded as TritonLowering's enumeration is.
  auto tooMany = [&](std::size_t bitsPerWarp) {
    return bitsPerWarp + warps.size() > detail::kMaxEnumeratedInstructionsLog2;
  };
  std::size_t resultRegisters = result ? result->of(dims::kRegister).size() : 0;
  if (tooMany(regs.size()) || tooMany(resultRegisters) ||
      elems / threads > (uint64_t{1} << detail::kMaxEnumeratedInstructionsLog2))
    return tooManyInstructions("reduce");

  // The register groups: distinct registers (by their indices in thread 0) with the axis
  // index zeroed, each with its first register.
  std::map<Basis, uint64_t> groups;
  std::set<Basis> seen;
  for (uint64_t r = 0; r < (uint64_t{1} << regs.size()); ++r) {
    Basis c = coordinates(n, r, 0, 0);
    if (!seen.insert(c).second)
      continue;
    c[axis] = 0;
    groups.emplace(c, r);
  }
  out.why.push_back("dim" + std::to_string(axis) + " spans " + std::to_string(interWarps) +
                    " warps: Triton 3.6 stores each warp's partial results to a scratch of " +
                    std::to_string(elems) + " elements (the axis fastest), combines them " +
                    "thread by thread and loads the result");

  for (std::size_t op = 0; op < operands.size(); ++op) {
    int bits = std::max(8, operands[op].bits);
    int bytes = bits / 8;
    std::vector<std::optional<uint64_t>> address(nLanes);

    StepCounter stored(SharedAccessKind::Store, bits, nWarps);
    for (uint64_t w = 0; w < nWarps; ++w) {
      uint64_t warpAxis = ids.warp(w)[axis];
      for (const auto& [key, r] : groups) {
        for (uint64_t l = 0; l < nLanes; ++l) {
          bool writes = ids.representative(l, w) && ids.lane(l)[axis] == 0;
          address[l].reset();
          if (!writes)
            continue;
          Basis idx = coordinates(n, r, l, w);
          idx[axis] = warpAxis;
          address[l] = linearize(idx, smemShape, smemOrder) * static_cast<uint64_t>(bytes);
        }
        stored.add(address, 1, model);
      }
    }
    out.steps.push_back(
        {"partials stored", static_cast<int>(op),
         stored.done("one predicated " + vectorName(SharedAccessKind::Store, 1, bits) +
                     " per register group (" + std::to_string(groups.size()) +
                     "): the lanes at index 0 along the axis write their warp's partial")});

    uint64_t rounds = std::max<uint64_t>(elems / threads, 1);
    StepCounter loaded(SharedAccessKind::Load, bits, nWarps);
    StepCounter written(SharedAccessKind::Store, bits, nWarps);
    for (uint64_t round = 0; round < rounds; ++round)
      for (uint64_t w = 0; w < nWarps; ++w) {
        std::vector<std::optional<uint64_t>> load(nLanes), store(nLanes);
        for (uint64_t l = 0; l < nLanes; ++l) {
          uint64_t t = w * nLanes + l;
          if (t >= elems)
            continue;
          uint64_t at = (t + round * threads) * static_cast<uint64_t>(bytes);
          load[l] = at;
          if (l % interWarps == 0)
            store[l] = at;
        }
        loaded.add(load, 1, model);
        written.add(store, 1, model);
      }
    out.steps.push_back(
        {"partials combined (load)", static_cast<int>(op),
         loaded.done("threads below " + std::to_string(elems) +
                     " each load one element per round (" + std::to_string(rounds) + ")")});
    out.steps.back().instructionsTakingPart = loaded.takingPart();
    out.steps.push_back(
        {"partials combined (store)", static_cast<int>(op),
         written.done("after " + std::to_string(interWarps) + "-lane shuffles, every " +
                      std::to_string(interWarps) + "th lane stores the combined value in place")});

    if (!operands[op].resultUsed)
      continue; // the result's loads are dead code
    StepCounter final(SharedAccessKind::Load, bits, nWarps);
    std::size_t perThread = 0;
    if (!result) {
      perThread = 1;
      for (uint64_t w = 0; w < nWarps; ++w) {
        std::vector<std::optional<uint64_t>> all(nLanes, uint64_t{0});
        final.add(all, 1, model);
      }
    } else {
      const Named& res = *result;
      std::set<Basis> distinct;
      std::vector<uint64_t> registers;
      for (uint64_t r = 0; r < (uint64_t{1} << res.of(dims::kRegister).size()); ++r)
        if (distinct.insert(coordinates(res, r, 0, 0)).second)
          registers.push_back(r);
      perThread = registers.size();
      for (uint64_t w = 0; w < nWarps; ++w)
        for (uint64_t r : registers) {
          for (uint64_t l = 0; l < nLanes; ++l) {
            Basis rc = coordinates(res, r, l, w);
            rc.insert(rc.begin() + static_cast<std::ptrdiff_t>(axis), 0);
            address[l] = linearize(rc, smemShape, smemOrder) * static_cast<uint64_t>(bytes);
          }
          final.add(address, 1, model);
        }
    }
    out.steps.push_back({"result loaded", static_cast<int>(op),
                         final.done("every thread loads the " + std::to_string(perThread) +
                                    " result elements it holds")});
  }
  return out;
}

/// Triton 3.9's zeroBasesAlongDimAndReorder: the axis zeroed in `dim`'s bases, then the axis
/// components left renumbered 1, 2, 4, ... in base order (register, lane, warp, block).
void zeroAlongAndReorder(Named& n, std::size_t axis, const DimName& dim) {
  for (Basis& b : n.of(dim))
    b[axis] = 0;
  uint64_t next = 1;
  for (DimBases& d : n.bases)
    for (Basis& b : d.bases)
      if (b[axis] != 0) {
        b[axis] = next;
        next <<= 1;
      }
  n.outs[axis].size = next;
}

void removeZeroRegisters(Named& n) {
  Bases& regs = n.of(dims::kRegister);
  regs.erase(std::remove_if(regs.begin(), regs.end(), isZero), regs.end());
}

Named reducedRegLane(Named n, std::size_t axis) {
  removeZeroRegisters(n);
  Bases& regs = n.of(dims::kRegister);
  std::stable_partition(regs.begin(), regs.end(), [&](const Basis& b) { return b[axis] != 0; });
  zeroAlongAndReorder(n, axis, dims::kRegister);
  removeZeroRegisters(n);
  zeroAlongAndReorder(n, axis, dims::kLane);
  return n;
}

Named interLayout(Named n, std::size_t axis) {
  Bases& lanes = n.of(dims::kLane);
  Bases& warps = n.of(dims::kWarp);
  Bases& blocks = n.of(dims::kBlock);
  auto alongAxis = [&](const Bases& b) {
    std::vector<std::size_t> r;
    for (std::size_t i = 0; i < b.size(); ++i)
      if (b[i][axis] != 0)
        r.push_back(i);
    return r;
  };
  std::vector<std::size_t> warpAxis = alongAxis(warps), blockAxis = alongAxis(blocks);
  std::vector<std::size_t> zeroLanes;
  for (std::size_t i = 0; i < lanes.size(); ++i)
    if (isZero(lanes[i]))
      zeroLanes.push_back(i);
  std::size_t total = warpAxis.size() + blockAxis.size();
  if (zeroLanes.size() >= total) {
    std::size_t k = 0;
    for (std::size_t i : warpAxis)
      std::swap(lanes[zeroLanes[k++]], warps[i]);
    for (std::size_t i : blockAxis)
      std::swap(lanes[zeroLanes[k++]], blocks[i]);
    return n;
  }
  std::size_t k = 0;
  if (total <= lanes.size()) {
    for (std::size_t i : warpAxis)
      std::swap(lanes[k++], warps[i]);
    for (std::size_t i : blockAxis)
      std::swap(lanes[k++], blocks[i]);
    return n;
  }
  for (std::size_t i : warpAxis) {
    std::swap(lanes[k++], warps[i]);
    if (k >= lanes.size())
      break;
  }
  return n;
}

std::size_t axisSize(const Named& n, std::size_t axis) {
  return n.outs[axis].size;
}

Named removeDim(Named n, std::size_t axis) {
  for (DimBases& d : n.bases)
    for (Basis& b : d.bases)
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(axis));
  n.outs.erase(n.outs.begin() + static_cast<std::ptrdiff_t>(axis));
  for (std::size_t i = 0; i < n.outs.size(); ++i)
    n.outs[i].name = dims::standardOut(static_cast<int>(i));
  return n;
}

bool sameLayout(const Named& a, const Named& b) {
  if (a.outs != b.outs)
    return false;
  for (const DimName& d : {dims::kRegister, dims::kLane, dims::kWarp})
    if (a.of(d) != b.of(d))
      return false;
  return true;
}

Result<TritonScratch> reduce39(const Named& n, std::size_t axis, const std::optional<Named>& result,
                               const std::vector<TritonReduceOperand>& operands,
                               const SharedMemoryModel& model) {
  TritonScratch out;
  Named reg = reducedRegLane(n, axis);
  if (axisSize(reg, axis) == 1) {
    out.why.push_back("dim" + std::to_string(axis) +
                      " lies within each warp: registers and shuffles, no shared memory");
    return out;
  }
  out.sharedMemory = true;
  struct Conversion {
    Named from, to;
    std::string what;
    bool final = false;
  };
  std::vector<Conversion> conversions;
  int round = 0;
  while (axisSize(reg, axis) != 1) {
    if (++round > 2)
      return makeError("internal: Triton 3.9 reduces across warps in at most 2 rounds");
    Named tmp = interLayout(reg, axis);
    conversions.push_back({reg, tmp, "to the exchange layout", false});
    reg = tmp;
    zeroAlongAndReorder(reg, axis, dims::kLane);
  }
  reg = removeDim(reg, axis);
  if (result && !sameLayout(reg, *result))
    conversions.push_back({reg, *result, "to the result layout", true});
  out.why.push_back("dim" + std::to_string(axis) +
                    " spans warps: Triton 3.9 swaps the warps' axis bases into lanes through "
                    "shared memory (a convert_layout, stmatrix/ldmatrix where they fit), then "
                    "shuffles" +
                    std::string(conversions.back().final
                                    ? "; the layout left is not the result's: one more conversion"
                                    : ""));
  for (std::size_t op = 0; op < operands.size(); ++op)
    for (const Conversion& c : conversions) {
      auto from = build(c.from);
      if (!from.ok())
        return from.error();
      auto to = build(c.to);
      if (!to.ok())
        return to.error();
      TritonLoweringOptions options{TritonVersion::v3_9, std::max(8, operands[op].bits)};
      auto cvt = tritonConvertLayout(*from, *to, model, options);
      if (!cvt.ok())
        return cvt.error().within("tt.reduce " + c.what);
      out.steps.push_back({c.what + " (store)", static_cast<int>(op), cvt->store});
      if (c.final && !operands[op].resultUsed)
        continue; // the result's loads are dead code
      out.steps.push_back({c.what + " (load)", static_cast<int>(op), cvt->load});
    }
  return out;
}

} // namespace

Result<TritonScratch> tritonReduce(const LinearLayout& src, int axis,
                                   const std::optional<LinearLayout>& result,
                                   const std::vector<TritonReduceOperand>& operands,
                                   const SharedMemoryModel& model, TritonVersion version) {
  std::vector<int> bits;
  for (const TritonReduceOperand& o : operands)
    bits.push_back(o.bits);
  auto n = detail::scratchOperand(src, axis, bits, model, "tt.reduce");
  if (!n.ok())
    return n.error();
  std::optional<Named> res;
  if (result) {
    auto r = named(*result);
    if (!r.ok())
      return r.error().within("the reduce's result layout");
    if (r->outs.size() + 1 != n->outs.size())
      return makeError("the result of reducing a rank-" + std::to_string(n->outs.size()) +
                       " operand has rank " + std::to_string(n->outs.size() - 1) + ", not " +
                       std::to_string(r->outs.size()));
    if (r->of(dims::kLane).size() != 5 || r->of(dims::kWarp).size() != n->of(dims::kWarp).size())
      return makeError("the reduce's result layout has other lanes or warps than its operand's");
    res = *r;
  }
  auto a = static_cast<std::size_t>(axis);
  return version == TritonVersion::v3_6 ? reduce36(*n, a, res, operands, model)
                                        : reduce39(*n, a, res, operands, model);
}

namespace {

/// F applied to L's bases along AXIS, for the two helper layouts below.
template <typename F> Result<LinearLayout> alongAxis(const LinearLayout& l, int axis, F f) {
  auto n = named(l);
  if (!n.ok())
    return n.error();
  if (axis < 0 || static_cast<std::size_t>(axis) >= n->outs.size())
    return makeError("axis " + std::to_string(axis) + " is not a dim of the layout");
  return build(f(*n, static_cast<std::size_t>(axis)));
}

} // namespace

Result<LinearLayout> tritonReducedRegLaneLayout(const LinearLayout& src, int axis) {
  return alongAxis(src, axis, reducedRegLane);
}

Result<LinearLayout> tritonReduceInterLayout(const LinearLayout& reduced, int axis) {
  return alongAxis(reduced, axis, interLayout);
}

} // namespace llcheck
