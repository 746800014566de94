// contiguity(): the vector width of a global load/store, against (1) a brute-force search that
// evaluates every register of every thread and tries every permutation of the register bases,
// and (2) the paper's Table 3, on the blocked layouts Triton 3.9 itself picks for that
// benchmark (tests/table3/, with the script that compiled them and a README on the outcome).
#include "TestLayouts.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/conversion/Contiguity.h"

#include <nlohmann/json.hpp>

#include <map>

namespace llcheck::test {
namespace {

/// Every (register, thread) of REG as a flat memory index in `order` (fastest dim first),
/// computed by Ref with integer strides. threads[t][r] = flat index of register r of thread t,
/// where "thread" enumerates every combination of the non-register inputs.
std::vector<std::vector<uint64_t>> flatIndices(const LinearLayout& reg,
                                               const std::vector<int>& order) {
  Ref ref(reg);
  std::map<uint32_t, uint64_t> strideOf; // out dim name id -> stride
  uint64_t stride = 1;
  for (int k : order) {
    DimName d = dims::standardOut(k);
    strideOf[d.id()] = stride;
    stride *= reg.getOutDimSize(d);
  }
  std::size_t regPos = ref.ins().size();
  for (std::size_t i = 0; i < ref.ins().size(); ++i)
    if (ref.ins()[i].name == dims::kRegister)
      regPos = i;
  uint64_t numRegs = regPos < ref.ins().size() ? ref.ins()[regPos].size : 1;
  std::map<std::vector<uint64_t>, std::vector<uint64_t>> byThread;
  for (uint64_t f = 0; f < ref.numInputs(); ++f) {
    std::vector<uint64_t> x = ref.unflattenIn(f);
    std::vector<uint64_t> y = ref.eval(x);
    uint64_t e = 0;
    for (std::size_t k = 0; k < y.size(); ++k)
      e += y[k] * strideOf[ref.outs()[k].name.id()];
    uint64_t r = regPos < x.size() ? x[regPos] : 0;
    if (regPos < x.size())
      x[regPos] = 0;
    auto& regs = byThread[x];
    regs.resize(numRegs);
    regs[r] = e;
  }
  std::vector<std::vector<uint64_t>> out;
  for (auto& [t, regs] : byThread)
    out.push_back(regs);
  return out;
}

/// The largest u (power of two, at most the register count) with e(a*u + i) = e(a*u) + i in
/// every thread.
uint64_t bruteContiguity(const std::vector<std::vector<uint64_t>>& threads) {
  uint64_t numRegs = threads.front().size(), best = 1;
  for (uint64_t u = 2; u <= numRegs; u *= 2) {
    bool ok = true;
    for (const auto& regs : threads)
      for (uint64_t r = 0; ok && r < numRegs; ++r)
        ok = regs[r] == regs[r & ~(u - 1)] + (r & (u - 1));
    if (!ok)
      break;
    best = u;
  }
  return best;
}

/// REG with its register bases reordered: basis i of the result = basis perm[i] (built from
/// getBases, not with ColumnAction).
LinearLayout permuteRegisters(const LinearLayout& reg, const std::vector<int>& perm) {
  std::vector<DimBases> bases = reg.getBases();
  for (DimBases& b : bases)
    if (b.name == dims::kRegister) {
      std::vector<std::vector<uint64_t>> old = b.bases;
      for (std::size_t i = 0; i < perm.size(); ++i)
        b.bases[i] = old[static_cast<std::size_t>(perm[i])];
    }
  return LinearLayout::create(bases, reg.getOutDims(), /*requireSurjective=*/false).value();
}

/// A random layout with distributed in-dims and at most 4 register bits (so that all 24
/// register permutations can be tried): Def. 4.10 layouts and arbitrary bases alike.
LinearLayout randomDistributed(Gen& g) {
  while (true) {
    LinearLayout l = g.chance(0.5)
                         ? g.distributed(8)
                         : g.fill(g.shape(Scheme::Distributed, g.range(1, 8), g.range(0, 8)));
    if (l.getNumOutDims() > 0 &&
        (!l.hasInDim(dims::kRegister) || l.getInDimSizeLog2(dims::kRegister) <= 4))
      return l;
  }
}

TEST(Contiguity, MatchesBruteForceOnRandomLayouts) {
  Gen g(20261122);
  int nontrivial = 0, permutationHelps = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    LinearLayout reg = randomDistributed(g);
    std::vector<int> order(static_cast<std::size_t>(reg.getNumOutDims()));
    std::iota(order.begin(), order.end(), 0);
    g.shuffle(order);
    ContiguityOptions options{order, 8 << g.range(0, 2), 128};
    auto c = contiguity(reg, options);
    LL_ASSERT_OK(c);
    SCOPED_TRACE(reg.toString());

    uint64_t expected = bruteContiguity(flatIndices(reg, order));
    EXPECT_EQ(c->elements, expected);
    EXPECT_EQ(c->bits, static_cast<int>(std::min<uint64_t>(expected * options.elementBits, 128)));

    // The best over every permutation of the register bases.
    int regBits = reg.hasInDim(dims::kRegister) ? reg.getInDimSizeLog2(dims::kRegister) : 0;
    std::vector<int> perm(static_cast<std::size_t>(regBits));
    std::iota(perm.begin(), perm.end(), 0);
    uint64_t bestPermuted = 1;
    do
      bestPermuted =
          std::max(bestPermuted, bruteContiguity(flatIndices(permuteRegisters(reg, perm), order)));
    while (std::next_permutation(perm.begin(), perm.end()));
    EXPECT_EQ(c->elementsWithPermutation, bestPermuted);
    // ... and the reported permutation reaches it.
    ASSERT_EQ(c->registerPermutation.size(), static_cast<std::size_t>(regBits));
    EXPECT_EQ(bruteContiguity(flatIndices(permuteRegisters(reg, c->registerPermutation), order)),
              bestPermuted);
    nontrivial += expected > 1;
    permutationHelps += bestPermuted > expected;
  }
  // The generator must exercise both answers.
  EXPECT_GT(nontrivial, 10);
  EXPECT_GT(permutationHelps, 5);
}

TEST(Contiguity, DefaultOrderIsRowMajorAndRunsCrossDims) {
  // [8, 2] with each thread holding rows 2t, 2t+1 (both columns): runs of 4 in row-major order
  // (they cross from dim1 into dim0), runs of 2 in column-major order.
  auto reg = blockedToLinearLayout({{2, 2}, {4, 1}, {1, 1}, {1, 0}, {}}, {8, 2});
  LL_ASSERT_OK(reg);
  auto rowMajor = contiguity(*reg, {});
  LL_ASSERT_OK(rowMajor);
  EXPECT_EQ(rowMajor->order, (std::vector<int>{1, 0}));
  EXPECT_EQ(rowMajor->elements, 4u);
  EXPECT_EQ(rowMajor->bits, 64);
  auto colMajor = contiguity(*reg, {{0, 1}, 16, 128});
  LL_ASSERT_OK(colMajor);
  EXPECT_EQ(colMajor->elements, 1u); // register 1 is dim1, not dim0
  EXPECT_EQ(colMajor->elementsWithPermutation, 2u);
  EXPECT_EQ(colMajor->registerPermutation, (std::vector<int>{1, 0}));
  EXPECT_EQ(toJson(*colMajor)["withRegisterPermutation"]["registerPermutation"],
            nlohmann::json({1, 0}));
  // 16 f32 elements in a row are capped at 128 bits.
  auto wide = blockedToLinearLayout({{1, 16}, {32, 1}, {1, 1}, {1, 0}, {}}, {32, 16});
  auto capped = contiguity(*wide, {{}, 32, 128});
  LL_ASSERT_OK(capped);
  EXPECT_EQ(capped->elements, 16u);
  EXPECT_EQ(capped->bits, 128);
}

TEST(Contiguity, RejectsBadInput) {
  auto reg = blockedToLinearLayout({{2, 2}, {4, 1}, {1, 1}, {1, 0}, {}}, {8, 2}).value();
  EXPECT_FALSE(contiguity(reg, {{0, 0}, 16, 128}).ok());
  EXPECT_FALSE(contiguity(reg, {{}, 12, 128}).ok());
  EXPECT_FALSE(contiguity(reg, {{}, 32, 16}).ok());
  EXPECT_FALSE(contiguity(identity1D(4, S("offset"), S("dim0")), {}).ok());
}

nlohmann::json readJson(const std::string& relative) {
  return nlohmann::json::parse(readText(repoRoot() + "/" + relative));
}

/// Bits of the widest ld.global in Triton's PTX ("ld.global.v2.b32" -> 64).
int ptxLoadBits(const nlohmann::json& ops) {
  int best = 0;
  for (const auto& [op, count] : ops.items()) {
    if (op.rfind("ld.global", 0) != 0)
      continue;
    int lanes = op.find(".v4.") != std::string::npos   ? 4
                : op.find(".v2.") != std::string::npos ? 2
                                                       : 1;
    best = std::max(best, lanes * std::stoi(op.substr(op.rfind(".b") + 2)));
  }
  return best;
}

/// The layout a linear-layout-aware coalescing would pick for a contiguous [512, k] tensor: a
/// 1-D blocked layout of the flattened tensor, each thread holding as many consecutive elements
/// as one 128-bit access takes and the 4 warps' 128 threads can be given without duplicating
/// data, reshaped to [512, k].
LinearLayout flatBlocked(uint64_t k, int elementBits) {
  uint64_t numElements = 512 * k,
           perThread = std::min<uint64_t>(128 / elementBits, numElements / 128);
  auto flat = blockedToLinearLayout({{perThread}, {32}, {4}, {0}, {}}, {numElements}).value();
  return flat.reshapeOuts({{S("dim1"), k}, {S("dim0"), 512}})
      .value()
      .transposeOuts({S("dim0"), S("dim1")})
      .value();
}

TEST(Contiguity, PaperTable3OnTritonsLayouts) {
  nlohmann::json picked = readJson("tests/table3/table3_layouts.json");
  nlohmann::json paper = readJson("tests/table3/paper_table3.json");
  ASSERT_EQ(picked["cases"].size(), paper["rows"].size());
  int reproducedLinear = 0;
  for (std::size_t i = 0; i < paper["rows"].size(); ++i) {
    const nlohmann::json& row = paper["rows"][i];
    const nlohmann::json& cs = picked["cases"][i];
    SCOPED_TRACE(cs["attribute"].get<std::string>() + " " + row.dump());
    ASSERT_EQ(cs["shape"], row[0]);
    ASSERT_EQ(cs["dtype"], row[1]);
    int bits = cs["elementBits"];
    auto shape = cs["shape"].get<std::vector<uint64_t>>();
    BlockedParams params{
        cs["sizePerThread"], cs["threadsPerWarp"], cs["warpsPerCTA"], cs["order"], {}};
    auto reg = blockedToLinearLayout(params, shape);
    LL_ASSERT_OK(reg);
    auto c = contiguity(*reg, {{}, bits, 128});
    LL_ASSERT_OK(c);
    // On the layouts Triton 3.9 picks, the contiguity is what Triton 3.9 emits (its PTX) and
    // what the paper reports for legacy Triton: the layout, not the analysis, limits it.
    EXPECT_EQ(c->bits, ptxLoadBits(cs["tritonPtx"]));
    EXPECT_EQ(c->bits, row[4].get<int>());
    EXPECT_EQ(c->bitsWithPermutation, c->bits);

    // The Triton-Linear column needs layouts whose registers run across dims. On the flat
    // 1-D layout every entry is reproduced except where the paper's width needs more distinct
    // elements per thread than 4 warps can hold ([512, 2] x f8: 16 per thread, 1024 / 128 = 8);
    // see tests/table3/README.md.
    auto ideal = contiguity(flatBlocked(shape[1], bits), {{}, bits, 128});
    LL_ASSERT_OK(ideal);
    int paperLinear = row[5];
    uint64_t perThreadBound = shape[0] * shape[1] / 128 * static_cast<uint64_t>(bits);
    if (static_cast<uint64_t>(paperLinear) <= perThreadBound) {
      EXPECT_EQ(ideal->bits, paperLinear);
      ++reproducedLinear;
    } else {
      EXPECT_EQ(static_cast<uint64_t>(ideal->bits), perThreadBound);
    }
  }
  EXPECT_EQ(reproducedLinear, 9);
}

} // namespace
} // namespace llcheck::test
