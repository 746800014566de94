// The brute-force shared-memory address simulator that the bank-conflict and swizzle tests of
// core and prover and the fuzz laws share: applies REG and the inverse table of SHARED to every
// register, lane and warp of CTA 0, groups registers into instructions by the aligned blocks
// they touch (checking that a vector is read in one register order by every lane and warp), and
// counts the distinct words each bank serves in each phase, with the phases written out as lane
// lists. It shares no code with the model (core/conversion/BankConflicts). No GoogleTest: the
// fuzz laws link it into the llcheck binary.
#pragma once

#include "ReferenceEvaluator.h"

#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/encodings/Shared.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace llcheck::test {

/// The lanes of each phase, written out as lists (independently of the model's subspaces).
/// `paired`: every lane reads the same address as lane^1, or every lane as lane^2 (on sm90 an
/// 8- or 16-byte load then serves twice the lanes per phase: gpu_oracle/wavefront_rule).
inline std::vector<std::vector<int>> phasesOf(const std::string& arch, int accessBytes, bool load,
                                              bool paired = false) {
  auto groups = [](int warp, int per) {
    std::vector<std::vector<int>> g(static_cast<std::size_t>(warp / per));
    for (int t = 0; t < warp; ++t)
      g[static_cast<std::size_t>(t / per)].push_back(t);
    return g;
  };
  if (arch == "sm90" && load && paired && accessBytes > 4)
    return groups(32, accessBytes == 8 ? 32 : 16);
  if (arch == "sm90" || arch == "sm80")
    return groups(32, accessBytes <= 4 ? 32 : accessBytes == 8 ? 16 : 8);
  if (arch == "gfx950")
    return groups(64, accessBytes <= 4 ? 64 : accessBytes == 8 ? 32 : 16);
  // gfx942: ds_read_b128 serves lanes {0-3, 20-23}, {4-7, 16-19}, ... together.
  if (accessBytes == 16 && load) {
    std::vector<std::vector<int>> g;
    for (int half : {0, 32})
      for (auto [a, b] : std::vector<std::pair<int, int>>{{0, 20}, {4, 16}, {8, 28}, {12, 24}}) {
        std::vector<int> lanes;
        for (int i = 0; i < 4; ++i) {
          lanes.push_back(half + a + i);
          lanes.push_back(half + b + i);
        }
        g.push_back(lanes);
      }
    return g;
  }
  return groups(64, accessBytes <= 4 ? 32 : accessBytes == 8 ? 16 : 8);
}

struct Simulated {
  bool vectorValid = false;
  uint64_t instructions = 0, wavefronts = 0, ideal = 0;
};

/// Every (warp, register, lane) of CTA 0 through REG and the inverse table of SHARED, then
/// instructions = groups of registers touching the same aligned 2^vectorLog2-element blocks in
/// every lane (equal groups merged: duplicated data), then distinct words per bank per phase.
/// REG may lack register, lane or warp (a dim of size 1).
inline Simulated simulate(const LinearLayout& reg, const LinearLayout& shared,
                          const std::vector<IntervalPad>& padding, const std::string& arch,
                          int elementBits, int vectorLog2, bool load) {
  Ref r(reg), s(shared);
  std::unordered_map<uint64_t, uint64_t> offsetOf; // flattened element -> offset (block 0)
  for (uint64_t o = 0; o < s.ins()[0].size; ++o) {
    std::vector<uint64_t> x(s.ins().size(), 0);
    x[0] = o;
    offsetOf[s.flattenOut(s.eval(x))] = o;
  }
  auto sizeOf = [&](const char* d) {
    return reg.hasInDim(DimName(d)) ? reg.getInDimSize(DimName(d)) : uint64_t{1};
  };
  uint64_t regs = sizeOf("register"), lanes = sizeOf("lane"), warps = sizeOf("warp");
  uint64_t elemBytes = static_cast<uint64_t>(elementBits / 8);
  uint64_t vecElems = uint64_t{1} << vectorLog2;
  uint64_t accessBytes = vecElems * elemBytes;
  Simulated out;
  out.vectorValid = true;
  uint64_t banks = arch == "gfx950" ? 64 : 32;
  // One instruction fills the same registers from the same positions in every warp too.
  std::map<std::vector<uint64_t>, std::vector<uint64_t>> positionsOfGroup;
  auto at = [&](std::vector<uint64_t>& x, const char* d, uint64_t v) {
    int i = reg.inDimIndex(DimName(d));
    if (i >= 0)
      x[static_cast<std::size_t>(i)] = v;
  };
  for (uint64_t w = 0; w < warps; ++w) {
    std::map<std::vector<uint64_t>, std::vector<uint64_t>> registersOf;
    // key: the block index of every lane -> per lane, the position in the block of each of
    // the group's registers. One instruction fills a register from the same position in every
    // lane, so these must agree across lanes.
    std::map<std::vector<uint64_t>, std::vector<std::vector<uint64_t>>> instr;
    for (uint64_t rg = 0; rg < regs; ++rg) {
      std::vector<uint64_t> key, low;
      for (uint64_t t = 0; t < lanes; ++t) {
        std::vector<uint64_t> x(static_cast<std::size_t>(reg.getNumInDims()), 0);
        at(x, "register", rg);
        at(x, "lane", t);
        at(x, "warp", w);
        uint64_t off = offsetOf.at(r.flattenOut(r.eval(x)));
        key.push_back(off / vecElems);
        low.push_back(off % vecElems);
      }
      auto& seen = instr[key];
      registersOf[key].push_back(rg);
      seen.resize(lanes);
      for (uint64_t t = 0; t < lanes; ++t)
        seen[t].push_back(low[t]);
    }
    for (const auto& [blocks, lows] : instr) {
      std::set<uint64_t> positions(lows[0].begin(), lows[0].end());
      out.vectorValid = out.vectorValid && positions.size() == vecElems;
      for (const auto& l : lows)
        out.vectorValid = out.vectorValid && l == lows[0];
      auto [it, fresh] = positionsOfGroup.try_emplace(registersOf[blocks], lows[0]);
      out.vectorValid = out.vectorValid && it->second == lows[0];
      ++out.instructions;
      const std::vector<uint64_t>& blockOf = blocks; // a lambda cannot capture a binding
      auto samePartner = [&blockOf](std::size_t m) {
        for (std::size_t t = 0; t < blockOf.size(); ++t)
          if (blockOf[t] != blockOf[t ^ m])
            return false;
        return true;
      };
      bool paired = blocks.size() == 32 && (samePartner(1) || samePartner(2));
      for (const std::vector<int>& phase :
           phasesOf(arch, static_cast<int>(accessBytes), load, paired)) {
        std::map<uint64_t, std::set<uint64_t>> wordsOfBank;
        for (int t : phase) {
          uint64_t start =
              paddedOffset(padding, blocks[static_cast<std::size_t>(t)] * vecElems) * elemBytes;
          for (uint64_t b = start; b < start + accessBytes; b += 4)
            wordsOfBank[(b / 4) % banks].insert(b / 4);
        }
        uint64_t most = 0;
        for (const auto& [bank, words] : wordsOfBank)
          most = std::max<uint64_t>(most, words.size());
        out.wavefronts += most;
        ++out.ideal;
      }
    }
  }
  return out;
}

} // namespace llcheck::test
