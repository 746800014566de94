// The brute-force global-memory simulator of the coalescing tests: applies REG (Ref, XOR of
// bases) to every register, lane and warp of CTA 0, places each element at
// base + bytes * sum(index_d * stride_d) with integer arithmetic, finds the widest vector by
// trying every order of the register bases, groups registers into instructions and counts each
// request's distinct 32-byte sectors and 128-byte lines. It shares no code with the model.
#pragma once

#include "TestLayouts.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace llcheck::test {

struct SimulatedGlobal {
  uint64_t vectorElements = 1;
  uint64_t instructionsPerWarp = 0, requests = 0, sectors = 0, lines = 0, idealSectors = 0;
  uint64_t maxSectorsPerRequest = 0;
};

/// Every element of CTA 0: elem[warp][lane][register] (the flattened tensor index) and addr
/// (bytes from a 128-byte boundary).
struct Placed {
  std::vector<std::vector<std::vector<uint64_t>>> elem, addr;
};

inline Placed placeElements(const LinearLayout& reg, const std::vector<int64_t>& strides,
                            int elementBytes, uint64_t baseOffset,
                            const std::vector<int>& registerOrder) {
  Ref r(reg);
  auto pos = [&](const char* name) {
    for (std::size_t i = 0; i < r.ins().size(); ++i)
      if (r.ins()[i].name == S(name))
        return static_cast<int>(i);
    return -1;
  };
  int pr = pos("register"), pl = pos("lane"), pw = pos("warp");
  uint64_t regs = pr >= 0 ? r.ins()[pr].size : 1, lanes = pl >= 0 ? r.ins()[pl].size : 1,
           warps = pw >= 0 ? r.ins()[pw].size : 1;
  Placed p;
  p.elem.assign(warps, std::vector<std::vector<uint64_t>>(lanes, std::vector<uint64_t>(regs)));
  p.addr = p.elem;
  for (uint64_t w = 0; w < warps; ++w)
    for (uint64_t l = 0; l < lanes; ++l)
      for (uint64_t i = 0; i < regs; ++i) {
        // Register i of the renumbered order is the register whose bit b is bit order[b] of i.
        uint64_t orig = 0;
        for (std::size_t b = 0; b < registerOrder.size(); ++b)
          if ((i >> b) & 1)
            orig |= uint64_t{1} << registerOrder[b];
        std::vector<uint64_t> x(r.ins().size(), 0);
        if (pr >= 0)
          x[pr] = orig;
        if (pl >= 0)
          x[pl] = l;
        if (pw >= 0)
          x[pw] = w;
        std::vector<uint64_t> y = r.eval(x);
        uint64_t e = 0;
        for (std::size_t k = 0; k < y.size(); ++k) {
          int dim = r.outs()[k].name.str().back() - '0';
          e += y[k] * static_cast<uint64_t>(strides[dim]);
        }
        p.elem[w][l][i] = r.flattenOut(y);
        p.addr[w][l][i] = baseOffset + e * static_cast<uint64_t>(elementBytes);
      }
  return p;
}

/// Row-major strides of REG's tensor (dim0 .. dim<rank-1>, the last fastest).
inline std::vector<int64_t> rowMajorStrides(const LinearLayout& reg) {
  int rank = reg.getNumOutDims();
  std::vector<int64_t> s(static_cast<std::size_t>(rank));
  int64_t stride = 1;
  for (int k = rank - 1; k >= 0; --k) {
    s[k] = stride;
    stride *= static_cast<int64_t>(reg.getOutDimSize(dims::standardOut(k)));
  }
  return s;
}

/// The simulated access. maxVectorElements: the hardware and base-alignment caps.
inline SimulatedGlobal simulateGlobal(const LinearLayout& reg, std::vector<int64_t> strides,
                                      int elementBytes, uint64_t baseAlignment,
                                      uint64_t maxVectorElements) {
  if (strides.empty())
    strides = rowMajorStrides(reg);
  uint64_t baseOffset = baseAlignment < 128 ? baseAlignment : 0;
  int regBits = reg.hasInDim(S("register")) ? reg.getInDimSizeLog2(S("register")) : 0;
  std::vector<int> order(static_cast<std::size_t>(regBits));
  std::iota(order.begin(), order.end(), 0);
  // The widest u over every order of the register bases: in every thread, registers
  // a*u .. a*u+u-1 hold addresses e .. e+u-1 (elements), e a multiple of u elements.
  uint64_t bestU = 1;
  std::vector<int> bestOrder = order;
  do {
    Placed p = placeElements(reg, strides, elementBytes, baseOffset, order);
    uint64_t regs = p.addr[0][0].size();
    for (uint64_t u = 2; u <= regs; u *= 2) {
      bool ok = true;
      for (const auto& warp : p.addr)
        for (const auto& lane : warp)
          for (uint64_t i = 0; ok && i < regs; ++i) {
            uint64_t first = lane[i & ~(u - 1)];
            ok = lane[i] == first + (i & (u - 1)) * static_cast<uint64_t>(elementBytes) &&
                 (first - baseOffset) % (u * static_cast<uint64_t>(elementBytes)) == 0;
          }
      if (!ok)
        break;
      if (u > bestU) {
        bestU = u;
        bestOrder = order;
      }
    }
  } while (std::next_permutation(order.begin(), order.end()));

  SimulatedGlobal s;
  s.vectorElements = std::min(bestU, maxVectorElements);
  uint64_t u = s.vectorElements, vecBytes = u * static_cast<uint64_t>(elementBytes);
  Placed p = placeElements(reg, strides, elementBytes, baseOffset, bestOrder);
  for (std::size_t w = 0; w < p.elem.size(); ++w) {
    // An instruction: one group of u registers, the same group in every lane; groups that hold
    // the same elements in every lane (duplicated registers) are one instruction.
    std::map<std::vector<uint64_t>, std::vector<uint64_t>> instructions; // elements -> addrs
    uint64_t regs = p.elem[w][0].size();
    for (uint64_t g = 0; g < regs; g += u) {
      std::vector<uint64_t> elems, addrs;
      for (std::size_t l = 0; l < p.elem[w].size(); ++l) {
        elems.push_back(p.elem[w][l][g]);
        addrs.push_back(p.addr[w][l][g]);
      }
      instructions[elems] = addrs;
    }
    s.instructionsPerWarp = instructions.size();
    for (const auto& [elems, addrs] : instructions) {
      std::set<uint64_t> sectors, lines, distinct(addrs.begin(), addrs.end());
      for (uint64_t a : addrs) {
        // Each lane's vecBytes bytes, byte by byte.
        for (uint64_t b = 0; b < vecBytes; ++b) {
          sectors.insert((a + b) / 32);
          lines.insert((a + b) / 128);
        }
      }
      ++s.requests;
      s.sectors += sectors.size();
      s.lines += lines.size();
      s.maxSectorsPerRequest = std::max<uint64_t>(s.maxSectorsPerRequest, sectors.size());
      s.idealSectors += (distinct.size() * vecBytes + 31) / 32;
    }
  }
  return s;
}

} // namespace llcheck::test
