// predictSharedAccess / bankConflicts: the algebraic wavefront count against (1) the table the
// design doc records from Nsight Compute on an H200 and (2) a brute-force address simulator
// that applies the layouts to every register, lane and warp, groups registers into
// instructions by the addresses they touch, and counts distinct words per bank per phase, on
// more than 10,000 random (layout, shared layout, dtype, architecture) cases.
#include "TestLayouts.h"

#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/BankConflicts.h"

#include <map>
#include <set>
#include <unordered_map>

namespace llcheck::test {
namespace {

LinearLayout makeLayout(const std::vector<DimBases>& bases, const std::vector<DimSize>& outs) {
  return LinearLayout::create(bases, outs, /*requireSurjective=*/false).value();
}

/// The lanes of each phase, written out as lists (independently of the model's subspaces).
std::vector<std::vector<int>> phasesOf(const std::string& arch, int accessBytes, bool load) {
  auto groups = [](int warp, int per) {
    std::vector<std::vector<int>> g(warp / per);
    for (int t = 0; t < warp; ++t)
      g[t / per].push_back(t);
    return g;
  };
  if (arch == "sm90" || arch == "sm80")
    return groups(32, accessBytes <= 4 ? 32 : accessBytes == 8 ? 16 : 8);
  if (arch == "gfx950")
    return groups(64, accessBytes <= 4 ? 64 : accessBytes == 8 ? 32 : 16);
  // gfx942
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
/// instructions = groups of registers that touch the same aligned 2^v-element blocks in every
/// lane (equal groups merged: duplicated data), then words per bank per phase.
Simulated simulate(const LinearLayout& reg, const LinearLayout& shared,
                   const std::vector<IntervalPad>& padding, const std::string& arch,
                   int elementBits, int v, bool load) {
  Ref r(reg), s(shared);
  std::unordered_map<uint64_t, uint64_t> offsetOf; // flattened element -> offset (block 0)
  for (uint64_t o = 0; o < s.ins()[0].size; ++o) {
    std::vector<uint64_t> x(s.ins().size(), 0);
    x[0] = o;
    offsetOf[s.flattenOut(s.eval(x))] = o;
  }
  uint64_t regs = reg.getInDimSize(S("register")), lanes = reg.getInDimSize(S("lane")),
           warps = reg.getInDimSize(S("warp"));
  int elemBytes = elementBits / 8;
  uint64_t vecElems = uint64_t{1} << v;
  int accessBytes = static_cast<int>(vecElems) * elemBytes;
  Simulated out;
  out.vectorValid = true;
  std::vector<std::vector<int>> phases = phasesOf(arch, accessBytes, load);
  // One instruction fills the same registers from the same positions in every warp too.
  std::map<std::vector<uint64_t>, std::vector<uint64_t>> positionsOfGroup;
  for (uint64_t w = 0; w < warps; ++w) {
    std::map<std::vector<uint64_t>, std::vector<uint64_t>> registersOf;
    // key: the block index of every lane -> per lane, the position in the block of each of
    // the group's registers (in register order). One instruction fills a register from the
    // same position in every lane, so these must agree across lanes.
    std::map<std::vector<uint64_t>, std::vector<std::vector<uint64_t>>> instr;
    for (uint64_t rg = 0; rg < regs; ++rg) {
      std::vector<uint64_t> key;
      std::vector<uint64_t> low;
      for (uint64_t t = 0; t < lanes; ++t) {
        std::vector<uint64_t> x(reg.getNumInDims(), 0);
        x[reg.inDimIndex(S("register"))] = rg;
        x[reg.inDimIndex(S("lane"))] = t;
        x[reg.inDimIndex(S("warp"))] = w;
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
      for (const std::vector<int>& phase : phases) {
        std::map<uint64_t, std::set<uint64_t>> wordsOfBank;
        for (int t : phase) {
          uint64_t start = paddedOffset(padding, blocks[t] * vecElems) * elemBytes;
          for (uint64_t b = start; b < start + static_cast<uint64_t>(accessBytes); b += 4) {
            uint64_t word = b / 4;
            int banks = arch == "gfx950" ? 64 : 32;
            wordsOfBank[word % banks].insert(word);
          }
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

// ---- The H200 table of ../shared/docs/design.md ------------------------------------------

/// One warp; lane t accesses the 2^vec elements of 32-bit words starting at t * stride
/// accesses: register -> the elements of one access, lane -> stride apart.
TEST(BankConflicts, reproducesTheH200Table) {
  // wavefronts[access][stride index], stride = 1, 2, 4, 8, 16, 32 (Nsight Compute, H200).
  const std::map<int, std::vector<uint64_t>> measured = {
      {32, {1, 2, 4, 8, 16, 32}}, {64, {2, 4, 8, 16, 32, 32}}, {128, {4, 8, 16, 32, 32, 32}}};
  SharedMemoryModel model = sharedMemoryModel("sm90").value();
  for (const auto& [bits, expected] : measured) {
    int vec = bits / 32; // f32 elements per access
    int vecLog2 = log2Of(static_cast<uint64_t>(vec));
    for (int si = 0; si < 6; ++si) {
      uint64_t stride = uint64_t{1} << si;
      // lane t -> element t * stride * vec; register j -> element j.
      DimBases regs{S("register"), {}}, lanes{S("lane"), {}};
      for (int j = 0; j < vecLog2; ++j)
        regs.bases.push_back({uint64_t{1} << j});
      for (int b = 0; b < 5; ++b)
        lanes.bases.push_back({(uint64_t{1} << b) * stride * static_cast<uint64_t>(vec)});
      uint64_t size = 32 * stride * static_cast<uint64_t>(vec);
      LinearLayout reg = makeLayout({regs, lanes, {S("warp"), {}}}, {{S("dim0"), size}});
      LinearLayout shared = identity1D(size, S("offset"), S("dim0"));
      auto report = bankConflicts(reg, shared, {}, 32, model);
      LL_ASSERT_OK(report);
      for (const AccessCount* a : {&report->store, &report->load}) {
        EXPECT_EQ(a->vectorBits, bits);
        EXPECT_EQ(a->instructions, 1u);
        EXPECT_EQ(a->wavefronts, expected[si]) << bits << "-bit, stride " << stride;
        EXPECT_EQ(a->idealWavefronts, static_cast<uint64_t>(bits / 32));
        EXPECT_EQ(a->bankConflicts, a->wavefronts - a->idealWavefronts);
      }
    }
  }
}

// ---- Random cases against the simulator -------------------------------------------------

struct Case {
  LinearLayout reg, shared;
  std::vector<IntervalPad> padding;
  std::string arch;
  int elementBits = 16;
};

/// Splits packed column values over 1 or 2 output dims of the given bit counts.
std::vector<uint64_t> splitValue(uint64_t v, const std::vector<int>& bits) {
  std::vector<uint64_t> out;
  for (int b : bits) {
    out.push_back(v & ((uint64_t{1} << b) - 1));
    v >>= b;
  }
  return out;
}

Case randomCase(Gen& g) {
  Case c;
  const char* archs[] = {"sm90", "sm80", "gfx942", "gfx950"};
  c.arch = archs[g.range(0, 3)];
  int laneBits = c.arch[0] == 's' ? 5 : 6;
  c.elementBits = 8 << g.range(0, 3);
  int regBits = g.range(0, 4), warpBits = g.range(0, 2);
  int total = regBits + laneBits + warpBits;
  // Columns: a random basis of n bits, then some made zero (broadcast) or repeated.
  int n = total - (g.chance(0.3) ? g.range(1, 2) : 0);
  n = std::max(n, 1);
  std::vector<uint64_t> basis;
  if (g.chance(0.6)) { // distributed: distinct powers of two
    for (int i = 0; i < n; ++i)
      basis.push_back(uint64_t{1} << i);
    g.shuffle(basis);
  } else {
    basis = g.invertibleColumns(n);
  }
  std::vector<uint64_t> cols;
  for (int i = 0; i < total; ++i)
    cols.push_back(i < n ? basis[i] : (g.chance(0.5) ? 0 : basis[g.below(n)]));
  if (g.chance(0.3))
    g.shuffle(cols);
  else if (g.chance(0.5)) // registers first in the low bits: vectorisable more often
    std::sort(cols.begin(), cols.begin() + regBits);
  int d0 = g.range(0, 1) == 0 ? n : g.range(1, n);
  std::vector<int> outBits = d0 == n ? std::vector<int>{n} : std::vector<int>{d0, n - d0};
  std::vector<DimSize> outs;
  for (std::size_t i = 0; i < outBits.size(); ++i)
    outs.push_back({dims::standardOut(static_cast<int>(i)), uint64_t{1} << outBits[i]});
  auto dimBases = [&](const char* name, int from, int count) {
    DimBases d{S(name), {}};
    for (int i = from; i < from + count; ++i)
      d.bases.push_back(splitValue(cols[i], outBits));
    return d;
  };
  c.reg = makeLayout({dimBases("register", 0, regBits), dimBases("lane", regBits, laneBits),
                      dimBases("warp", regBits + laneBits, warpBits)},
                     outs);
  // SHARED: identity, a random bijection, or one that starts with REG's registers.
  std::vector<uint64_t> offsetCols;
  int mode = g.range(0, 3);
  if (mode == 0) {
    for (int i = 0; i < n; ++i)
      offsetCols.push_back(uint64_t{1} << i);
  } else if (mode == 1) {
    offsetCols = g.invertibleColumns(n);
  } else {
    Subspace seen;
    for (int i = 0; i < regBits; ++i)
      if (seen.insert(cols[i]))
        offsetCols.push_back(cols[i]);
    // Then the lanes' and warps' elements (so that they keep off the vector's offsets), in
    // order or shuffled, then anything that completes the basis.
    std::vector<uint64_t> rest(cols.begin() + regBits, cols.end());
    if (mode == 3)
      g.shuffle(rest);
    for (uint64_t v : g.invertibleColumns(n))
      rest.push_back(v);
    for (uint64_t v : rest)
      if (seen.insert(v))
        offsetCols.push_back(v);
  }
  DimBases offset{S("offset"), {}};
  for (uint64_t v : offsetCols)
    offset.bases.push_back(splitValue(v, outBits));
  c.shared = makeLayout({offset}, outs);
  if (g.chance(0.1)) {
    for (int k = g.range(1, 2); k > 0; --k)
      c.padding.push_back({uint64_t{1} << g.range(2, n), uint64_t{1} << g.range(0, 3)});
  }
  return c;
}

TEST(BankConflicts, equalsTheAddressSimulatorOnRandomCases) {
  Gen g(20261122);
  int vectorised = 0, conflicted = 0, padded = 0;
  constexpr int kCases = 10240;
  for (int i = 0; i < kCases; ++i) {
    Case c = randomCase(g);
    SharedMemoryModel model = sharedMemoryModel(c.arch).value();
    auto map = offsetMap(c.reg, c.shared, c.padding, model);
    ASSERT_TRUE(map.ok()) << map.error().str();
    for (SharedAccessKind kind : {SharedAccessKind::Store, SharedAccessKind::Load}) {
      SharedAccessOptions opts{c.elementBits, -1};
      auto a = predictSharedAccess(*map, model, kind, opts);
      ASSERT_TRUE(a.ok()) << a.error().str();
      int v = log2Of(static_cast<uint64_t>(a->vectorBits / c.elementBits));
      bool load = kind == SharedAccessKind::Load;
      Simulated s = simulate(c.reg, c.shared, c.padding, c.arch, c.elementBits, v, load);
      std::string what = "case " + std::to_string(i) + " " + c.arch + " " +
                         std::to_string(c.elementBits) + "-bit " + (load ? "load" : "store") +
                         "\nREG" + c.reg.toString() + "\nSHARED" + c.shared.toString();
      ASSERT_TRUE(s.vectorValid) << what;
      // Maximal: one element more per access is invalid, or beyond 16 bytes, or breaks padding.
      if ((a->vectorBits * 2) / 8 <= model.maxAccessBytes && c.padding.empty() &&
          (uint64_t{2} << v) <= c.shared.getTotalInDimSize()) {
        ASSERT_FALSE(simulate(c.reg, c.shared, {}, c.arch, c.elementBits, v + 1, load).vectorValid)
            << what;
      }
      ASSERT_EQ(a->instructions, s.instructions) << what;
      ASSERT_EQ(a->idealWavefronts, s.ideal) << what;
      ASSERT_EQ(a->wavefronts, s.wavefronts) << what;
      vectorised += v > 0;
      conflicted += a->bankConflicts > 0;
      padded += !c.padding.empty();
    }
  }
  // The generator must reach every regime, or the comparison proves little.
  EXPECT_GT(vectorised, kCases / 10);
  EXPECT_GT(conflicted, kCases / 10);
  EXPECT_GT(padded, kCases / 20);
}

TEST(BankConflicts, rejectsMismatchedInputs) {
  SharedMemoryModel sm90 = sharedMemoryModel("sm90").value();
  LinearLayout reg = identity1D(32, S("lane"), S("dim0")) * identity1D(4, S("register"), S("dim1"));
  LinearLayout shared = identity1D(128, S("offset"), S("dim0"));
  auto wrongDims = bankConflicts(reg, shared, {}, 16, sm90);
  ASSERT_FALSE(wrongDims.ok());
  EXPECT_NE(wrongDims.error().str().find("same tensor"), std::string::npos);

  LinearLayout notInvertible =
      makeLayout({{S("offset"), {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {1, 0}, {0, 1}}}},
                 {{S("dim0"), 32}, {S("dim1"), 4}});
  auto bad = bankConflicts(reg, notInvertible, {}, 16, sm90);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().str().find("not invertible"), std::string::npos);

  LinearLayout okShared =
      identity1D(32, S("offset"), S("dim0")) * identity1D(4, S("offset"), S("dim1"));
  auto wave64 = bankConflicts(reg, okShared, {}, 16, sharedMemoryModel("gfx942").value());
  ASSERT_FALSE(wave64.ok());
  EXPECT_NE(wave64.error().str().find("64-lane"), std::string::npos);
  EXPECT_FALSE(sharedMemoryModel("sm75").ok());
  EXPECT_FALSE(dtypeBits("f17").ok());
  EXPECT_EQ(dtypeBits("bf16").value(), 16);
}

} // namespace
} // namespace llcheck::test
