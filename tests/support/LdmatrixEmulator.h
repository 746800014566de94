// An emulator of ldmatrix / stmatrix as the PTX ISA defines them (lanes 8i .. 8i+7 give the
// 16-byte row addresses of matrix i; lane t receives word t%4 of row t/4, or with .trans the
// elements (2(t%4) + e, t/4)), with addresses taken from REG as a lowering would: it checks a
// plan of Ldmatrix.h moves every element right and counts its wavefronts by the 16-byte rows
// each phase touches. Used by the ldmatrix and optimal-swizzle tests.
#pragma once

#include "TestLayouts.h"

#include "llcheck/core/conversion/Ldmatrix.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace llcheck::test {

/// Elements as flattened indices in SHARED's out-dim order (REG's outputs are the same names,
/// possibly in another order).
struct Machine {
  const LinearLayout& reg;
  const LinearLayout& shared;
  std::vector<uint64_t> smem; // offset -> element (block 0)
  std::map<uint64_t, uint64_t> offsetOf;
  int regBits = 0, warpBits = 0;

  Machine(const LinearLayout& r, const LinearLayout& s) : reg(r), shared(s) {
    Ref sr(shared);
    uint64_t size = shared.getInDimSize(dims::kOffset);
    for (uint64_t o = 0; o < size; ++o) {
      std::vector<uint64_t> x(sr.ins().size(), 0);
      for (std::size_t i = 0; i < x.size(); ++i)
        if (sr.ins()[i].name == dims::kOffset)
          x[i] = o;
      smem.push_back(sr.flattenOut(sr.eval(x)));
      offsetOf[smem.back()] = o;
    }
    regBits = reg.hasInDim(dims::kRegister) ? reg.getInDimSizeLog2(dims::kRegister) : 0;
    warpBits = reg.hasInDim(dims::kWarp) ? reg.getInDimSizeLog2(dims::kWarp) : 0;
    tabulate();
  }

  /// REG(register r, lane t, warp w, block 0) as a flattened element of SHARED's out order.
  [[nodiscard]] uint64_t element(uint64_t r, uint64_t t, uint64_t w) const {
    return table[((w << 5) | t) << regBits | r];
  }

  void tabulate() {
    Ref rr(reg), sr(shared);
    for (uint64_t w = 0; w < (uint64_t{1} << warpBits); ++w)
      for (uint64_t t = 0; t < 32; ++t)
        for (uint64_t r = 0; r < (uint64_t{1} << regBits); ++r) {
          std::vector<uint64_t> x;
          for (const DimSize& d : rr.ins())
            x.push_back(d.name == dims::kRegister ? r
                        : d.name == dims::kLane   ? t
                        : d.name == dims::kWarp   ? w
                                                  : 0);
          std::vector<uint64_t> y = rr.eval(x);
          std::vector<uint64_t> ordered;
          for (const DimSize& o : sr.outs())
            for (std::size_t k = 0; k < y.size(); ++k)
              if (rr.outs()[k].name == o.name)
                ordered.push_back(y[k]);
          table.push_back(sr.flattenOut(ordered));
        }
  }
  std::vector<uint64_t> table;
};

/// Register index of REG for the permuted index p (bit b of p is REG's register bit perm[b]).
inline uint64_t original(uint64_t p, const std::vector<int>& perm) {
  uint64_t r = 0;
  for (std::size_t b = 0; b < perm.size(); ++b)
    if ((p >> b) & 1)
      r |= uint64_t{1} << perm[b];
  return r;
}

struct Emulation {
  bool ok = true;
  /// Per warp, per matrix (the non-tile permuted register bits), the 8 row byte addresses.
  std::vector<std::vector<std::vector<uint64_t>>> rows;
};

inline Emulation emulate(const Machine& m, int elementBits, bool trans,
                         const std::vector<int>& perm) {
  Emulation out;
  int w = elementBits / 8;
  int tileBits = trans ? 1 : (elementBits == 8 ? 2 : elementBits == 16 ? 1 : 0);
  if (m.regBits < tileBits || m.smem.size() * static_cast<uint64_t>(w) < 16) {
    out.ok = false;
    return out;
  }
  uint64_t rowElems = 16 / static_cast<uint64_t>(w), wordElems = 4 / static_cast<uint64_t>(w);
  for (uint64_t warp = 0; warp < (uint64_t{1} << m.warpBits); ++warp) {
    out.rows.emplace_back();
    for (uint64_t mat = 0; mat < (uint64_t{1} << (m.regBits - tileBits)); ++mat) {
      // The address lane 8i + j supplies: the start of row j, from the lane that holds it.
      std::vector<uint64_t> rowStart(8);
      std::vector<uint64_t> bytes;
      for (uint64_t j = 0; j < 8; ++j) {
        uint64_t r = trans ? original((j & 1) | (mat << 1), perm) : original(mat << tileBits, perm);
        uint64_t lane = trans ? (j >> 1) : 4 * j;
        uint64_t offset = m.offsetOf.at(m.element(r, lane, warp));
        if ((offset * w) % 16 != 0 || offset + rowElems > m.smem.size()) {
          out.ok = false;
          return out;
        }
        rowStart[j] = offset;
        bytes.push_back(offset * w);
      }
      out.rows.back().push_back(bytes);
      for (uint64_t t = 0; t < 32; ++t)
        for (uint64_t e = 0; e < (trans ? 2 : wordElems); ++e) {
          uint64_t got = trans ? m.smem[rowStart[2 * (t % 4) + e] + t / 4]
                               : m.smem[rowStart[t / 4] + (t % 4) * wordElems + e];
          uint64_t p = e | (mat << tileBits);
          if (got != m.element(original(p, perm), t, warp))
            out.ok = false;
        }
    }
  }
  return out;
}

/// Wavefronts of one phase: the most distinct 16-byte rows on one group of 4 banks.
inline uint64_t wavefronts(const std::vector<uint64_t>& rowBytes) {
  std::map<uint64_t, std::set<uint64_t>> perBank;
  for (uint64_t b : rowBytes)
    perBank[(b / 16) % 8].insert(b / 16);
  uint64_t most = 0;
  for (const auto& [bank, rows] : perBank)
    most = std::max<uint64_t>(most, rows.size());
  return most;
}

/// Checks a plan against the emulation: a dividing plan's permutation loads every register
/// right, and its counts match the emulated phases.
inline void checkPlan(const LinearLayout& reg, const LinearLayout& shared,
                      const LdmatrixPlan& plan) {
  Machine m(reg, shared);
  ASSERT_TRUE(plan.divides) << plan.reason;
  Emulation e = emulate(m, plan.elementBits, plan.trans, plan.registerPermutation);
  EXPECT_TRUE(e.ok);
  ASSERT_FALSE(e.rows.empty());
  int dataBits = m.regBits - plan.tileRegisterBits - plan.duplicateRegisterBits;
  EXPECT_EQ(plan.matrixRegisterBits + plan.instructionRegisterBits, dataBits);
  EXPECT_EQ(plan.matricesPerInstruction, 1 << std::min(dataBits, 2));
  for (const auto& warpRows : e.rows) {
    uint64_t total = 0, matrices = 0;
    for (std::size_t mat = 0; mat < warpRows.size(); ++mat) {
      EXPECT_EQ(wavefronts(warpRows[mat]), plan.wavefrontsPerMatrix);
      if ((mat >> dataBits) == 0) { // the duplicated registers' matrices are copies
        total += wavefronts(warpRows[mat]);
        ++matrices;
      }
    }
    EXPECT_EQ(matrices, plan.instructionsPerWarp * plan.matricesPerInstruction);
    EXPECT_EQ(total, plan.wavefrontsPerWarp);
  }
}

} // namespace llcheck::test
