// The bank bound and Lemma 9.5 as Z3 proofs (SharedProofs.h), checked against brute force:
// the address simulator of the bank-conflict tests (BankSimulator.h, no code shared with the
// model or the prover) for wavefronts, and an enumeration of every subspace for Lemma 9.5.
// Each proof is asked where its claim holds (proven), where it fails (a wrong prediction, a
// broken swizzle: refuted, with a counterexample brute force confirms) and under a resource
// limit too small to decide (unknown).
#include "BankSimulator.h"
#include "ProverTestUtil.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/Ldmatrix.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/prover/SharedProofs.h"

#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <set>

namespace llcheck::test {
namespace {

using prover::Outcome;

/// A random #ttg.blocked over 2^bits0 x 2^bits1 with 2^warpBits warps of 32 lanes.
LinearLayout randomBlocked(Gen& g, int bits0, int bits1, int warpBits) {
  auto pow2 = [](int b) { return uint64_t{1} << b; };
  int tpw0 = g.range(0, 5), w0 = g.range(0, warpBits);
  BlockedParams p{{pow2(g.range(0, 3)), pow2(g.range(0, 3))},
                  {pow2(tpw0), pow2(5 - tpw0)},
                  {pow2(w0), pow2(warpBits - w0)},
                  g.chance(0.5) ? std::vector<uint64_t>{1, 0} : std::vector<uint64_t>{0, 1},
                  {}};
  return blockedToLinearLayout(p, {pow2(bits0), pow2(bits1)}).value();
}

/// A shared layout over `reg`'s tensor (CTA 0) that is a random permutation of the tensor bits:
/// unswizzled, so bank conflicts are common.
LinearLayout permutedShared(Gen& g, const LinearLayout& reg) {
  std::vector<uint64_t> cols;
  for (int i = 0; i < reg.getTotalOutDimSizeLog2(); ++i)
    cols.push_back(uint64_t{1} << i);
  g.shuffle(cols);
  Dim ins[] = {{dims::kOffset, static_cast<int>(cols.size())}, {dims::kBlock, 0}};
  return LinearLayout::fromColumns(ins, reg.outDims(), cols).value();
}

/// Each lane's element offset for register r, warp w, by the reference evaluator and the
/// inverse table of `shared`.
std::vector<uint64_t> laneOffsets(const LinearLayout& reg, const LinearLayout& shared, uint64_t r,
                                  uint64_t w) {
  Ref rr(reg), rs(shared);
  std::map<uint64_t, uint64_t> offsetOf;
  for (uint64_t o = 0; o < rs.ins()[0].size; ++o) {
    std::vector<uint64_t> x(rs.ins().size(), 0);
    x[0] = o;
    offsetOf[rs.flattenOut(rs.eval(x))] = o;
  }
  std::vector<uint64_t> out;
  for (uint64_t t = 0; t < reg.getInDimSize(S("lane")); ++t) {
    std::vector<uint64_t> x(static_cast<std::size_t>(reg.getNumInDims()), 0);
    x[static_cast<std::size_t>(reg.inDimIndex(S("register")))] = r;
    x[static_cast<std::size_t>(reg.inDimIndex(S("lane")))] = t;
    if (reg.hasInDim(S("warp")))
      x[static_cast<std::size_t>(reg.inDimIndex(S("warp")))] = w;
    out.push_back(offsetOf.at(rr.flattenOut(rr.eval(x))));
  }
  return out;
}

struct Geometry {
  uint64_t unitBytes, elemBytes, banksPerUnit, bankGroups;
  uint64_t word(uint64_t offset) const { return offset * elemBytes / unitBytes * banksPerUnit; }
  uint64_t bank(uint64_t offset) const {
    return (offset * elemBytes / unitBytes) % bankGroups * banksPerUnit;
  }
};

Geometry geometryOf(const SharedMemoryModel& m, int bits, const AccessCount& a) {
  uint64_t access = static_cast<uint64_t>(a.vectorBits / 8);
  uint64_t unit = std::max<uint64_t>(access, static_cast<uint64_t>(m.bankBytes));
  return {unit, static_cast<uint64_t>(bits / 8), unit / static_cast<uint64_t>(m.bankBytes),
          static_cast<uint64_t>(m.rowBytes()) / unit};
}

bool samePhase(const SharedMemoryModel& m, int accessBytes, bool load, uint64_t a, uint64_t b) {
  for (const auto& lanes : phasesOf(m.arch, accessBytes, load)) {
    std::set<uint64_t> s(lanes.begin(), lanes.end());
    if (s.count(a) && s.count(b))
      return true;
  }
  return false;
}

/// Proves the prediction, checks it against the simulator, then refutes a doubled and (where
/// there are conflicts) a halved prediction, confirming each counterexample by brute force.
void checkBankBound(const LinearLayout& reg, const LinearLayout& shared, int bits,
                    const SharedMemoryModel& model, SharedAccessKind kind, AccessCount a,
                    const std::string& what, int* conflicted) {
  bool load = kind == SharedAccessKind::Load;
  int v = log2Of(static_cast<uint64_t>(a.vectorBits / bits));
  Simulated sim = simulate(reg, shared, {}, model.arch, bits, v, load);
  ASSERT_TRUE(sim.vectorValid) << what;
  ASSERT_EQ(sim.wavefronts, a.idealWavefronts * a.wavefrontsPerPhase) << what;
  Geometry g = geometryOf(model, bits, a);
  auto p = prover::proveBankBound(reg, shared, bits, model, kind, a, {});
  ASSERT_EQ(p.outcome, Outcome::Proven) << p.detail << "\n" << what;
  if (a.wavefrontsPerPhase > 1) {
    ++*conflicted;
    // The witness: lanes of one phase of register 0, warp 0, distinct words in one bank.
    const auto& lanes = p.witness.at("lanes");
    ASSERT_EQ(lanes.size(), a.wavefrontsPerPhase) << p.witness.dump();
    std::vector<uint64_t> off = laneOffsets(reg, shared, 0, 0);
    std::set<uint64_t> words, banks;
    for (const auto& t : lanes) {
      uint64_t lane = t.get<uint64_t>();
      EXPECT_TRUE(samePhase(model, a.vectorBits / 8, load, lanes[0].get<uint64_t>(), lane));
      words.insert(g.word(off[lane]));
      banks.insert(g.bank(off[lane]));
    }
    EXPECT_EQ(words.size(), a.wavefrontsPerPhase) << p.witness.dump();
    EXPECT_EQ(banks.size(), 1u) << p.witness.dump();
  }
  AccessCount over = a;
  over.wavefrontsPerPhase *= 2;
  auto o = prover::proveBankBound(reg, shared, bits, model, kind, over, {});
  ASSERT_EQ(o.outcome, Outcome::Refuted) << what;
  EXPECT_NE(o.detail.find("no "), std::string::npos) << o.detail;
  if (a.wavefrontsPerPhase > 1) {
    AccessCount under = a;
    under.wavefrontsPerPhase /= 2;
    auto u = prover::proveBankBound(reg, shared, bits, model, kind, under, {});
    ASSERT_EQ(u.outcome, Outcome::Refuted) << what;
    const auto& ce = u.counterexample;
    uint64_t t1 = ce.at("lanes")[0], t2 = ce.at("lanes")[1];
    std::vector<uint64_t> off = laneOffsets(reg, shared, ce.at("register"), ce.at("warp"));
    EXPECT_NE(t1, t2);
    EXPECT_TRUE(samePhase(model, a.vectorBits / 8, load, t1, t2)) << ce.dump();
    EXPECT_EQ(g.bank(off[t1]), g.bank(off[t2])) << ce.dump();
    EXPECT_NE(g.word(off[t1]), g.word(off[t2])) << ce.dump();
    EXPECT_EQ(ce.at("bank").get<uint64_t>(), g.bank(off[t1]));
    EXPECT_EQ(ce.at("words")[0].get<uint64_t>(), g.word(off[t1]));
  }
}

TEST(BankBound, SearchedAndUnswizzledLayoutsTakeExactlyThePredictedWavefronts) {
  Gen g(21);
  int cases = 0, conflicted = 0, matrixSides = 0;
  for (int i = 0; i < 40; ++i) {
    SharedMemoryModel model = sharedMemoryModel(g.chance(0.5) ? "sm90" : "sm80").value();
    int bits0 = g.range(2, 6), bits1 = g.range(2, 6), warpBits = g.range(0, 2);
    LinearLayout src = randomBlocked(g, bits0, bits1, warpBits);
    LinearLayout dst = randomBlocked(g, bits0, bits1, warpBits);
    int bits = 8 << g.range(0, 2);
    auto plan = planConversion(src, dst);
    ASSERT_TRUE(plan.ok());
    std::string what = "SRC" + src.toString() + "\nDST" + dst.toString();
    // An unswizzled shared layout: conflicts are the rule.
    LinearLayout flat = permutedShared(g, plan->src);
    auto report = bankConflicts(plan->src, flat, {}, bits, model);
    ASSERT_TRUE(report.ok()) << report.error().str();
    checkBankBound(plan->src, flat, bits, model, SharedAccessKind::Store, report->store,
                   what + "\nunswizzled" + flat.toString(), &conflicted);
    checkBankBound(plan->src, flat, bits, model, SharedAccessKind::Load, report->load,
                   what + "\nunswizzled" + flat.toString(), &conflicted);
    ++cases;
    if (plan->kind != ConversionKind::SharedMemory)
      continue;
    auto s = optimalSwizzle(src, dst, bits, model);
    ASSERT_TRUE(s.ok()) << s.error().str();
    if (s->store.instruction == SharedInstruction::Vector)
      checkBankBound(plan->src, s->shared, bits, model, SharedAccessKind::Store, s->store.count,
                     what, &conflicted);
    if (s->load.instruction == SharedInstruction::Vector)
      checkBankBound(plan->dst, s->shared, bits, model, SharedAccessKind::Load, s->load.count, what,
                     &conflicted);
    // Matrix sides at core's per-matrix count (their counts against an emulator and the H100
    // are checked in optimalSwizzle_test and below).
    for (auto [a, kind] : {std::pair{&s->store, SharedAccessKind::Store},
                           std::pair{&s->load, SharedAccessKind::Load}}) {
      if (a->instruction == SharedInstruction::Vector)
        continue;
      bool trans = a->instruction == SharedInstruction::MatrixTrans;
      const LinearLayout& reg = kind == SharedAccessKind::Store ? plan->src : plan->dst;
      auto m = ldmatrix(reg, s->shared, {bits, trans});
      ASSERT_TRUE(m.ok() && m->divides) << what;
      auto p = prover::proveMatrixBankBound(reg, s->shared, bits, trans, model, kind,
                                            m->wavefrontsPerMatrix, {});
      EXPECT_EQ(p.outcome, Outcome::Proven) << p.detail << "\n" << what;
      ++matrixSides;
    }
  }
  EXPECT_EQ(cases, 40);
  EXPECT_GT(conflicted, 10) << "the generator must produce conflicts, or little is tested";
  EXPECT_GT(matrixSides, 0);
}

/// A random distributed layout of 64 lanes: every tensor bit on one register, lane or warp bit.
LinearLayout randomWave(Gen& g, int regBits, int warpBits, int bits0, int bits1) {
  std::vector<uint64_t> cols;
  for (int i = 0; i < bits0 + bits1; ++i)
    cols.push_back(uint64_t{1} << i);
  g.shuffle(cols);
  auto split = [&](uint64_t v) {
    return std::vector<uint64_t>{v & ((uint64_t{1} << bits0) - 1), v >> bits0};
  };
  std::vector<DimBases> bases;
  std::size_t k = 0;
  for (auto [name, n] : std::vector<std::pair<const char*, int>>{
           {"register", regBits}, {"lane", 6}, {"warp", warpBits}}) {
    DimBases d{S(name), {}};
    for (int i = 0; i < n; ++i)
      d.bases.push_back(split(cols[k++]));
    bases.push_back(d);
  }
  std::vector<DimSize> outs = {{dims::standardOut(0), uint64_t{1} << bits0},
                               {dims::standardOut(1), uint64_t{1} << bits1}};
  return LinearLayout::create(bases, outs, false).value();
}

TEST(BankBound, AmdPhasesOf64LaneWaves) {
  // gfx942's ds_read_b128 phases are lanes {0-3, 20-23}, {4-7, 16-19}, ...: a lane subspace that
  // is not a run of low bits, so the phase encoding is exercised beyond NVIDIA's.
  Gen g(64);
  int conflicted = 0;
  for (int i = 0; i < 24; ++i) {
    SharedMemoryModel model = sharedMemoryModel(i % 3 == 2 ? "gfx950" : "gfx942").value();
    int regBits = g.range(0, 4), warpBits = g.range(0, 2);
    int total = regBits + 6 + warpBits, bits0 = g.range(1, total - 1);
    LinearLayout reg = randomWave(g, regBits, warpBits, bits0, total - bits0);
    int bits = 8 << g.range(0, 2);
    LinearLayout flat = permutedShared(g, reg);
    auto report = bankConflicts(reg, flat, {}, bits, model);
    ASSERT_TRUE(report.ok()) << report.error().str();
    std::string what = model.arch + "\nREG" + reg.toString() + "\nSHARED" + flat.toString();
    checkBankBound(reg, flat, bits, model, SharedAccessKind::Store, report->store, what,
                   &conflicted);
    checkBankBound(reg, flat, bits, model, SharedAccessKind::Load, report->load, what, &conflicted);
  }
  EXPECT_GT(conflicted, 5);
}

TEST(BankBound, ProvenCountsAreWhatAnH100Measured) {
  // The GPU oracle's committed results (corpus/oracle/results.json): conversions run on an H100
  // with Nsight Compute's shared-memory wavefront counters. Every case whose counters matched
  // the model exactly (4,035 ld/st.shared sides, 1,712 of them with bank conflicts): each
  // side's count, proven by Z3, is what the hardware counted.
  std::ifstream in(std::string(LLCHECK_SOURCE_DIR) + "/corpus/oracle/results.json");
  ASSERT_TRUE(in.good());
  nlohmann::json results = nlohmann::json::parse(in);
  SharedMemoryModel model = sharedMemoryModel(results.at("arch").get<std::string>()).value();
  int proven = 0, conflicted = 0, matrices = 0, matrixConflicts = 0;
  std::size_t index = 0;
  for (const nlohmann::json& c : results.at("cases")) {
    // Under the sanitizers, every kSanitizerDivisor-th case.
    if (index++ % kSanitizerDivisor != 0 || c.at("kind") != "shared_memory" ||
        c.at("agreement") != "exact")
      continue;
    auto src = layoutFromJson(c.at("src")), dst = layoutFromJson(c.at("dst"));
    auto shared = layoutFromJson(c.at("shared"));
    ASSERT_TRUE(src.ok() && dst.ok() && shared.ok()) << c.at("id");
    int bits = dtypeBits(c.at("dtype").get<std::string>()).value();
    for (SharedAccessKind kind : {SharedAccessKind::Store, SharedAccessKind::Load}) {
      const char* side = kind == SharedAccessKind::Store ? "store" : "load";
      const nlohmann::json& predicted = c.at("predicted").at(side);
      std::string instruction = predicted.at("instruction");
      const LinearLayout& reg = kind == SharedAccessKind::Store ? *src : *dst;
      uint64_t measured = c.at("measured").at(side).at("wavefronts").get<uint64_t>();
      if (instruction.starts_with("ldmatrix") || instruction.starts_with("stmatrix")) {
        bool trans = instruction.find(".trans") != std::string::npos;
        auto plan = ldmatrix(reg, *shared, {bits, trans});
        ASSERT_TRUE(plan.ok() && plan->divides) << c.at("id");
        uint64_t n = plan->wavefrontsPerMatrix;
        auto p = prover::proveMatrixBankBound(reg, *shared, bits, trans, model, kind, n, {});
        ASSERT_EQ(p.outcome, Outcome::Proven) << c.at("id") << " " << side << ": " << p.detail;
        // A doubled count is refuted (no matrix reaches it), and so is a halved one where there
        // are conflicts (two rows of one matrix in one bank beyond it).
        EXPECT_EQ(
            prover::proveMatrixBankBound(reg, *shared, bits, trans, model, kind, 2 * n, {}).outcome,
            Outcome::Refuted);
        if (n > 1) {
          auto half =
              prover::proveMatrixBankBound(reg, *shared, bits, trans, model, kind, n / 2, {});
          ASSERT_EQ(half.outcome, Outcome::Refuted) << c.at("id");
          EXPECT_TRUE(half.counterexample.contains("inputs")) << half.counterexample.dump();
          ++matrixConflicts;
        }
        uint64_t warps = reg.hasInDim(S("warp")) ? reg.getInDimSize(S("warp")) : 1;
        EXPECT_EQ(plan->wavefrontsPerWarp * warps, measured) << c.at("id") << " " << side;
        ++matrices;
        continue;
      }
      if (!instruction.starts_with("st.shared") && !instruction.starts_with("ld.shared"))
        continue;
      auto map = offsetMap(reg, *shared, {}, model);
      ASSERT_TRUE(map.ok()) << c.at("id");
      SharedAccessOptions options;
      options.elementBits = bits;
      options.maxVectorLog2 =
          log2Of(predicted.at("vector_bits").get<uint64_t>() / static_cast<uint64_t>(bits));
      auto a = predictSharedAccess(*map, model, kind, options);
      ASSERT_TRUE(a.ok()) << c.at("id");
      ASSERT_EQ(a->vectorBits, predicted.at("vector_bits").get<int>()) << c.at("id");
      auto p = prover::proveBankBound(reg, *shared, bits, model, kind, *a, {});
      ASSERT_EQ(p.outcome, Outcome::Proven) << c.at("id") << " " << side << ": " << p.detail;
      EXPECT_EQ(a->idealWavefronts * a->wavefrontsPerPhase, measured) << c.at("id") << " " << side;
      ++proven;
      conflicted += a->wavefrontsPerPhase > 1;
    }
  }
  RecordProperty("sides_proven", proven);
  RecordProperty("sides_with_conflicts", conflicted);
  std::cout << "proven: " << proven << " ld/st.shared sides, " << conflicted
            << " with bank conflicts; " << matrices << " ldmatrix/stmatrix sides, "
            << matrixConflicts << " with conflicts\n";
  EXPECT_GT(proven, 4000 / kSanitizerDivisor);
  EXPECT_GT(conflicted, 1500 / kSanitizerDivisor)
      << "the oracle's poor shared layouts must be among them";
}

/// The largest dimension of a subspace of F2^d meeting span(u) ∪ span(v) only in 0, by
/// enumerating every subspace (depth-first over bases with increasing first vectors).
int bruteMaxAvoiding(int d, const Subspace& u, const Subspace& v) {
  int best = 0;
  std::function<void(std::vector<uint64_t>&, uint64_t)> grow = [&](std::vector<uint64_t>& basis,
                                                                   uint64_t from) {
    best = std::max(best, static_cast<int>(basis.size()));
    for (uint64_t x = from; x < (uint64_t{1} << d); ++x) {
      basis.push_back(x);
      bool ok = Subspace(basis).dim() == static_cast<int>(basis.size());
      for (uint64_t c = 1; ok && c < (uint64_t{1} << basis.size()); ++c)
        ok = !u.contains(xorOf(basis, c)) && !v.contains(xorOf(basis, c));
      if (ok)
        grow(basis, x + 1);
      basis.pop_back();
    }
  };
  std::vector<uint64_t> basis;
  grow(basis, 1);
  return best;
}

TEST(Lemma95, Z3AgreesWithEnumeratingEverySubspace) {
  Gen g(95);
  for (int i = 0; i < 60; ++i) {
    int d = g.range(2, 5);
    std::vector<uint64_t> tile, u, v;
    for (int b = 0; b < d; ++b)
      tile.push_back(uint64_t{1} << b);
    int nu = g.range(0, d), nv = g.range(0, d);
    for (int j = 0; j < nu; ++j)
      u.push_back(g.below(uint64_t{1} << d));
    for (int j = 0; j < nv; ++j)
      v.push_back(g.below(uint64_t{1} << d));
    Subspace su(u), sv(v);
    int m = bruteMaxAvoiding(d, su, sv);
    // The lemma itself: d - max(dim U, dim V).
    ASSERT_EQ(m, d - std::max(su.dim(), sv.dim()));
    std::string what = "d " + std::to_string(d) + " m " + std::to_string(m);
    // Every other case, the same question one bit up: the tile is then not every vector of its
    // width, and the prover takes the vectors as combinations of its columns.
    if (i % 2 == 1) {
      for (auto* vs : {&tile, &u, &v})
        for (uint64_t& x : *vs)
          x <<= 1;
      su = Subspace(u);
      sv = Subspace(v);
    }
    if (m + 1 <= d) {
      auto p = prover::proveNoAvoidingSpace(tile, u, v, m + 1, {});
      EXPECT_EQ(p.outcome, Outcome::Proven) << what << " " << p.detail;
    }
    if (m >= 1) {
      auto p = prover::proveNoAvoidingSpace(tile, u, v, m, {});
      ASSERT_EQ(p.outcome, Outcome::Refuted) << what;
      std::vector<uint64_t> found = p.counterexample.at("vectors");
      ASSERT_EQ(Subspace(found).dim(), m);
      for (uint64_t c = 1; c < (uint64_t{1} << m); ++c) {
        EXPECT_FALSE(su.contains(xorOf(found, c))) << p.counterexample.dump();
        EXPECT_FALSE(sv.contains(xorOf(found, c))) << p.counterexample.dump();
      }
    }
  }
}

TEST(Lemma95, SearchedSwizzlesAttainTheBoundAndBrokenOnesAreRefuted) {
  Gen g(17);
  int cases = 0, broken = 0;
  for (int i = 0; i < 200 && cases < 30; ++i) {
    SharedMemoryModel model = sharedMemoryModel(g.chance(0.5) ? "sm90" : "sm80").value();
    int bits0 = g.range(2, 6), bits1 = g.range(2, 6), warpBits = g.range(0, 2);
    LinearLayout src = randomBlocked(g, bits0, bits1, warpBits);
    LinearLayout dst = randomBlocked(g, bits0, bits1, warpBits);
    int bits = 8 << g.range(0, 2);
    auto plan = planConversion(src, dst);
    ASSERT_TRUE(plan.ok());
    if (plan->kind != ConversionKind::SharedMemory)
      continue;
    auto s = optimalSwizzle(src, dst, bits, model);
    ASSERT_TRUE(s.ok()) << s.error().str();
    ++cases;
    std::string what = "SRC" + src.toString() + "\nDST" + dst.toString();
    auto p = prover::proveSwizzleBound(*s, {});
    ASSERT_EQ(p.outcome, Outcome::Proven) << p.detail << "\n" << what;
    // What `llcheck convert` proves with it: the plan's C and the round trip through the layout.
    EXPECT_EQ(prover::proveConversion(plan->src, plan->dst, plan->conversion, {}).outcome,
              Outcome::Proven)
        << what;
    EXPECT_EQ(prover::proveSharedRoundTrip(plan->src, s->shared, plan->dst, {}).outcome,
              Outcome::Proven)
        << what;
    // A segment vector moved into the store phase's span: the bound is no longer attained.
    int m = s->bound.conflictFreeSegmentDims;
    int used = std::min(m, static_cast<int>(s->segment.size()));
    if (used >= 1 && !s->storePhase.empty()) {
      OptimalSwizzle bad = *s;
      bad.segment[0] = s->storePhase[0];
      auto r = prover::proveSwizzleBound(bad, {});
      ASSERT_EQ(r.outcome, Outcome::Refuted) << what;
      uint64_t combo = r.counterexample.at("segment_combination");
      std::vector<uint64_t> u = bad.vec, seg(bad.segment.begin(), bad.segment.begin() + used);
      u.insert(u.end(), bad.storePhase.begin(), bad.storePhase.end());
      std::vector<uint64_t> v = bad.vec;
      v.insert(v.end(), bad.loadPhase.begin(), bad.loadPhase.end());
      uint64_t x = xorOf(seg, combo);
      EXPECT_TRUE(Subspace(u).contains(x) || Subspace(v).contains(x)) << r.counterexample.dump();
      ++broken;
    }
    // A bound one too small is contradicted by the space the layout itself exhibits: loud.
    if (m >= 1) {
      OptimalSwizzle low = *s;
      low.bound.conflictFreeSegmentDims = m - 1;
      EXPECT_THROW((void)prover::proveSwizzleBound(low, {}), LayoutError) << what;
    }
  }
  EXPECT_EQ(cases, 30);
  EXPECT_GT(broken, 10);
}

TEST(SharedProofs, ATinyResourceLimitIsUnknownNeverProven) {
  Gen g(4);
  LinearLayout src = randomBlocked(g, 6, 6, 2);
  SharedMemoryModel model = sharedMemoryModel("sm90").value();
  LinearLayout flat = permutedShared(g, src);
  auto report = bankConflicts(src, flat, {}, 16, model);
  ASSERT_TRUE(report.ok());
  prover::ProverOptions tiny;
  tiny.rlimit = 1;
  auto p =
      prover::proveBankBound(src, flat, 16, model, SharedAccessKind::Store, report->store, tiny);
  EXPECT_EQ(p.outcome, Outcome::Unknown) << p.detail;
  std::vector<uint64_t> tile, u = {1, 2, 4}, v = {8, 16, 32};
  for (int b = 0; b < 10; ++b)
    tile.push_back(uint64_t{1} << b);
  auto q = prover::proveNoAvoidingSpace(tile, u, v, 8, tiny);
  EXPECT_EQ(q.outcome, Outcome::Unknown) << q.detail;
}

} // namespace
} // namespace llcheck::test
