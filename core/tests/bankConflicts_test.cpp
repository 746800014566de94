// predictSharedAccess / bankConflicts: the algebraic wavefront count against (1) the table the
// design doc records from Nsight Compute on an H200 and (2) a brute-force address simulator
// that applies the layouts to every register, lane and warp, groups registers into
// instructions by the addresses they touch, and counts distinct words per bank per phase, on
// more than 10,000 random (layout, shared layout, dtype, architecture) cases.
#include "BankSimulator.h"
#include "TestLayouts.h"

#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/BankConflicts.h"

#include <map>
#include <set>
#include <unordered_map>

namespace llcheck::test {
namespace {

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
  constexpr int kCases = 10240 / kSanitizerDivisor;
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

// activeLaneWavefronts (the loads left after an EXIT in the report): with every lane taking part
// it is the per-instruction cost of predictSharedAccess, on the random unpadded cases.
TEST(BankConflicts, activeLaneWavefrontsWithEveryLaneIsThePerInstructionCost) {
  Gen g(20261126);
  int checked = 0;
  for (int i = 0; i < 2048 / kSanitizerDivisor; ++i) {
    Case c = randomCase(g);
    if (!c.padding.empty())
      continue;
    SharedMemoryModel model = sharedMemoryModel(c.arch).value();
    auto map = offsetMap(c.reg, c.shared, c.padding, model);
    ASSERT_TRUE(map.ok()) << map.error().str();
    for (SharedAccessKind kind : {SharedAccessKind::Store, SharedAccessKind::Load}) {
      auto a = predictSharedAccess(*map, model, kind, SharedAccessOptions{c.elementBits, -1});
      ASSERT_TRUE(a.ok()) << a.error().str();
      auto one = activeLaneWavefronts(*map, model, kind, c.elementBits, a->vectorBits / 8, 0);
      ASSERT_TRUE(one.ok()) << one.error().str();
      ASSERT_EQ(*one * a->instructions, a->wavefronts)
          << "case " << i << " " << c.arch << "\nREG" << c.reg.toString() << "\nSHARED"
          << c.shared.toString();
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000 / kSanitizerDivisor);
}

// Lanes 16-31 hold copies of lanes 0-15 (a 64-element row over 32 lanes of 4): with them gone,
// a 16-byte load on sm80 (4 phases of 8 lanes) keeps the 2 phases of lanes 0-15.
TEST(BankConflicts, activeLaneWavefrontsDropsThePhasesOfLanesThatLeft) {
  LinearLayout reg = makeLayout(
      {{S("register"), {{1}, {2}}}, {S("lane"), {{4}, {8}, {16}, {32}, {0}}}, {S("warp"), {}}},
      {{S("dim0"), 64}});
  LinearLayout shared = identity1D(64, S("offset"), S("dim0"));
  SharedMemoryModel sm80 = sharedMemoryModel("sm80").value();
  auto map = offsetMap(reg, shared, {}, sm80);
  ASSERT_TRUE(map.ok()) << map.error().str();
  EXPECT_EQ(activeLaneWavefronts(*map, sm80, SharedAccessKind::Load, 32, 16, 0).value(), 4u);
  EXPECT_EQ(activeLaneWavefronts(*map, sm80, SharedAccessKind::Load, 32, 16, 16).value(), 2u);
  EXPECT_FALSE(activeLaneWavefronts(*map, sm80, SharedAccessKind::Load, 32, 32, 0).ok());
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
