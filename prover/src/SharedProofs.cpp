// The bank bound and Lemma 9.5 as Z3 queries (SharedProofs.h). Subspace membership is encoded
// through a reduced echelon basis: with pivots p_i (bit p_i set in b_i and in no other basis
// vector), x ^ XOR_i x[p_i] b_i is 0 exactly when x is in the span, whatever else the basis
// holds, so the encoding cannot be weaker than the claim even if the algebra that built the
// basis were wrong.
#include "llcheck/prover/SharedProofs.h"

#include "Encoding.h"
#include "ProofSupport.h"
#include "Rref.h"
#include "Smt.h"
#include "llcheck/core/Subspace.h"
#include "llcheck/core/XorBasis.h"
#include "llcheck/core/conversion/Ldmatrix.h"

#include <algorithm>
#include <bit>
#include <set>

namespace llcheck::prover {

namespace {

using namespace detail;
using smt::Values;

uint64_t mask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

/// XOR_j coeff[j] cols[j], a `width`-bit vector; coeff has cols.size() bits.
z3::expr linear(smt::Context& ctx, const z3::expr& coeff, std::span<const uint64_t> cols,
                unsigned width) {
  std::optional<z3::expr> out;
  for (unsigned b = 0; b < width; ++b) {
    std::optional<z3::expr> bit;
    for (std::size_t j = 0; j < cols.size(); ++j)
      if ((cols[j] >> b) & 1) {
        z3::expr c = coeff.extract(static_cast<unsigned>(j), static_cast<unsigned>(j));
        bit = bit ? *bit ^ c : c;
      }
    z3::expr v = bit ? *bit : ctx.bvVal(0, 1);
    out = out ? z3::concat(v, *out) : v;
  }
  return *out;
}

z3::expr isZero(smt::Context& ctx, const z3::expr& v) {
  return v == ctx.bvVal(0, v.get_sort().bv_size());
}

/// `values` with dim `name` replaced by `e` (or by 0 when e is empty).
Values with(smt::Context& ctx, Values values, DimName name, std::optional<z3::expr> e) {
  for (auto& d : values.dims)
    if (d.name == name && d.width > 0)
      d.expr = e ? *e : ctx.bvVal(0, d.width);
  return values;
}

uint64_t valueOf(const Point& p, DimName name) {
  for (const auto& [n, v] : p)
    if (n == name)
      return v;
  return 0;
}

Point inOrder(const LinearLayout& l, const Point& p) {
  Point q;
  for (const Dim& d : l.outDims())
    q.emplace_back(d.name, valueOf(p, d.name));
  return q;
}

// ---- Bank bound -----------------------------------------------------------------------------

/// One phase of an access as the bank model sees it: the input directions that move between the
/// lanes (or rows) of one phase, and how an element offset becomes an access unit and its bank.
struct PhaseModel {
  std::vector<Point> generators; ///< directions in reg's inputs; a phase is a coset of their span
  int shift = 0;                 ///< offset (elements) >> shift = access unit
  int bankBits = 0;              ///< the unit's low bankBits pick its bank group
  int unitBytes = 0;             ///< max(access, bank) bytes
  int offsetBits = 0;
  [[nodiscard]] uint64_t unit(uint64_t offset) const { return offset >> shift; }
  [[nodiscard]] uint64_t bank(uint64_t offset) const { return unit(offset) & mask(bankBits); }
};

uint64_t offsetOf(const OffsetMap& map, const Point& x) {
  return xorOf(map.registers, valueOf(x, dims::kRegister)) ^
         xorOf(map.lanes, valueOf(x, dims::kLane)) ^ xorOf(map.warps, valueOf(x, dims::kWarp));
}

Point zeroPoint(const LinearLayout& l) {
  Point p;
  for (const Dim& d : l.inDims())
    p.emplace_back(d.name, 0);
  return p;
}

Point xorPoints(const Point& a, const Point& b) {
  Point r = a;
  for (auto& [name, v] : r)
    v ^= valueOf(b, name);
  return r;
}

/// x with, in every dim the generators move, x[dim] ^ XOR_j coeff[j] g_j[dim].
Values moved(smt::Context& ctx, const Values& x, const z3::expr& coeff,
             const std::vector<Point>& generators) {
  Values out = x;
  for (auto& d : out.dims) {
    if (d.width == 0)
      continue;
    std::vector<uint64_t> cols;
    bool any = false;
    for (const Point& g : generators) {
      cols.push_back(valueOf(g, d.name));
      any = any || cols.back() != 0;
    }
    if (any)
      d.expr = *d.expr ^ linear(ctx, coeff, cols, d.width);
  }
  return out;
}

/// What phaseBound's two queries and their witnesses share: the access (REG into SHARED, its
/// offset map and phase model) and the claim (perPhase wavefronts per phase on `side`).
struct PhaseProblem {
  smt::Context& ctx;
  const LinearLayout& reg;
  const LinearLayout& shared;
  const OffsetMap& map;
  const PhaseModel& g;
  uint64_t perPhase;
  const std::string& side;
  int banksPerUnit;

  /// The access unit of a shared offset, and the bank of a unit, as Z3 terms.
  [[nodiscard]] z3::expr unitOf(const Values& off) const {
    unsigned hi = static_cast<unsigned>(g.offsetBits - 1), lo = static_cast<unsigned>(g.shift);
    return off.find(dims::kOffset)->expr->extract(hi, lo);
  }
  [[nodiscard]] z3::expr bankOf(const z3::expr& u) const {
    return u.extract(static_cast<unsigned>(g.bankBits - 1), 0);
  }
};

/// The algebra's same-bank word differences of one phase: span(phase units) ∩ ker(bank), by
/// elimination with the bank bits above the word (rows whose bank part cancels span it).
std::vector<uint64_t> sameBankDifferences(const PhaseModel& g, const OffsetMap& map, int unitBits) {
  std::vector<uint64_t> sameBank, rows;
  for (const Point& gen : g.generators) {
    uint64_t u = g.unit(offsetOf(map, gen));
    uint64_t v = ((u & mask(g.bankBits)) << unitBits) | u;
    for (uint64_t r : rows)
      if ((v >> (63 - std::countl_zero(r))) & 1)
        v ^= r;
    if (v != 0) {
      rows.push_back(v);
      std::sort(rows.begin(), rows.end(), std::greater<>());
    }
  }
  for (uint64_t r : rows)
    if ((r >> unitBits) == 0)
      sameBank.push_back(r);
  return sameBank;
}

/// Z3's two accesses p1, p2 of one phase in one bank beyond the claim, checked against the
/// algebra and turned into the refutation's witness.
ProofResult tooManyWitness(const PhaseProblem& p, const Rref& claimed,
                           const std::vector<uint64_t>& packedGenerators, const Point& p1,
                           const Point& p2) {
  const PhaseModel& g = p.g;
  // The algebra's offsets for the two accesses, and the elements both layouts put there.
  uint64_t a1 = offsetOf(p.map, p1), a2 = offsetOf(p.map, p2);
  Point e1 = applyChecked(p.reg, p1), e2 = applyChecked(p.reg, p2);
  Point s1 = applyChecked(p.shared, {{dims::kOffset, a1}, {dims::kBlock, 0}});
  Point s2 = applyChecked(p.shared, {{dims::kOffset, a2}, {dims::kBlock, 0}});
  std::string what = describePoint(p1) + " and " + describePoint(p2);
  confirm(inOrder(p.reg, s1) == inOrder(p.reg, e1) && inOrder(p.reg, s2) == inOrder(p.reg, e2),
          what + ": the offsets do not hold the accesses' elements");
  confirm(p1 != p2 && Subspace(packedGenerators).contains(p.reg.packIn(xorPoints(p1, p2))) &&
              g.bank(a1) == g.bank(a2) && claimed.reduce(g.unit(a1) ^ g.unit(a2)) != 0,
          what + " should share a bank beyond the predicted conflicts");
  uint64_t bank = g.bank(a1) * static_cast<uint64_t>(p.banksPerUnit);
  uint64_t w1 = g.unit(a1) * static_cast<uint64_t>(p.banksPerUnit);
  uint64_t w2 = g.unit(a2) * static_cast<uint64_t>(p.banksPerUnit);
  uint64_t t1 = valueOf(p1, dims::kLane), t2 = valueOf(p2, dims::kLane);
  return refuted({{"lanes", {t1, t2}},
                  {"register", valueOf(p1, dims::kRegister)},
                  {"warp", valueOf(p1, dims::kWarp)},
                  {"inputs", {pointJson(p1), pointJson(p2)}},
                  {"offsets", {a1, a2}},
                  {"bank", bank},
                  {"words", {w1, w2}},
                  {"reason", "two accesses of one " + p.side +
                                 " phase hit one bank at words beyond the "
                                 "predicted " +
                                 std::to_string(p.perPhase) + " per bank"}},
                 "lanes " + std::to_string(t1) + " and " + std::to_string(t2) + " (" +
                     describePoint(p1) + "; " + describePoint(p2) + ") both hit bank " +
                     std::to_string(bank) + " at words " + std::to_string(w1) + " and " +
                     std::to_string(w2) + ": more than " + std::to_string(p.perPhase) +
                     " wavefronts per phase");
}

/// The query that the claim is reached: c directions in the phase (their coefficients over the
/// generators go into `coeff`), each staying in the bank, whose words are independent.
z3::expr reachedQuery(const PhaseProblem& p, int c, unsigned nGen, std::vector<z3::expr>& coeff) {
  smt::Context& ctx = p.ctx;
  std::vector<z3::expr> diff;
  z3::expr q = ctx.z3().bool_val(true);
  for (int i = 0; i < c; ++i) {
    coeff.push_back(ctx.bv("d" + std::to_string(i) + "!", nGen));
    Values x = moved(ctx, with(ctx, smt::constants(ctx, p.reg.inDims(), {}), dims::kBlock, {}),
                     coeff.back(), p.g.generators);
    Values e = with(ctx, smt::variables(ctx, p.shared.inDims(), "e" + std::to_string(i) + "!"),
                    dims::kBlock, std::nullopt);
    q = q && smt::apply(ctx, p.shared, e).equals(ctx, smt::apply(ctx, p.reg, x));
    z3::expr u = p.unitOf(e);
    if (p.g.bankBits > 0)
      q = q && isZero(ctx, p.bankOf(u));
    diff.push_back(u);
  }
  for (uint64_t subset = 1; subset < (uint64_t{1} << c); ++subset) {
    std::optional<z3::expr> sum;
    for (int i = 0; i < c; ++i)
      if ((subset >> i) & 1)
        sum = sum ? *sum ^ diff[static_cast<std::size_t>(i)] : diff[static_cast<std::size_t>(i)];
    q = q && !isZero(ctx, *sum);
  }
  return q;
}

/// Z3's c directions (from the model of reachedQuery): the 2^c accesses they span put 2^c
/// distinct words in one bank, checked and turned into the proof's witness.
ProofResult reachedWitness(const PhaseProblem& p, int c, unsigned nGen,
                           const std::vector<z3::expr>& coeff, const smt::Model& model) {
  const PhaseModel& g = p.g;
  std::vector<Point> directions;
  for (const z3::expr& d : coeff) {
    uint64_t chosen = model.value(d);
    Point dir = zeroPoint(p.reg);
    for (unsigned j = 0; j < nGen; ++j)
      if ((chosen >> j) & 1)
        dir = xorPoints(dir, g.generators[j]);
    directions.push_back(dir);
  }
  nlohmann::json lanes = nlohmann::json::array(), inputs = nlohmann::json::array();
  std::vector<uint64_t> words;
  std::set<uint64_t> distinct, banks;
  for (uint64_t subset = 0; subset < (uint64_t{1} << c); ++subset) {
    Point x = zeroPoint(p.reg);
    for (int i = 0; i < c; ++i)
      if ((subset >> i) & 1)
        x = xorPoints(x, directions[static_cast<std::size_t>(i)]);
    uint64_t off = offsetOf(p.map, x);
    lanes.push_back(valueOf(x, dims::kLane));
    inputs.push_back(pointJson(x));
    words.push_back(g.unit(off) * static_cast<uint64_t>(p.banksPerUnit));
    distinct.insert(g.unit(off));
    banks.insert(g.bank(off));
  }
  confirm(distinct.size() == (std::size_t{1} << c) && banks.size() == 1,
          "the witness accesses should put " + std::to_string(std::size_t{1} << c) +
              " distinct words in one bank");
  ProofResult result = proven();
  result.witness = {{"lanes", lanes},
                    {"inputs", inputs},
                    {"bank", *banks.begin() * static_cast<uint64_t>(p.banksPerUnit)},
                    {"words", words}};
  return result;
}

ProofResult phaseBound(smt::Context& ctx, const LinearLayout& reg, const LinearLayout& shared,
                       const OffsetMap& map, const PhaseModel& pm, uint64_t perPhase,
                       const std::string& side, const SharedMemoryModel& model,
                       const ProverOptions& o) {
  const PhaseModel& g = pm;
  int unitBits = g.offsetBits - g.shift;
  if (!std::has_single_bit(perPhase))
    return contradiction("the predicted wavefronts per phase (" + std::to_string(perPhase) +
                         ") are no power of two");
  int c = std::countr_zero(perPhase);
  if (unitBits <= 0 || g.generators.empty()) {
    // The whole buffer is one access unit, or a phase is one lane: nothing can conflict.
    if (c != 0)
      return contradiction("no two accesses of a phase can conflict, yet " +
                           std::to_string(perPhase) + " wavefronts per phase are predicted");
    return proven();
  }

  Rref k(sameBankDifferences(g, map, unitBits));
  // Claim exactly 2^c: at most that many words per bank (K cut to c vectors: if the algebra's
  // space is larger, Z3 finds the accesses beyond it), and at least (Z3 finds c independent ones).
  Rref claimed = k.first(std::min(c, k.dim()));

  int queries = 0;
  auto done = [&queries](ProofResult r) {
    r.queries = queries;
    return r;
  };
  smt::Solver s(ctx, limitsOf(o));
  PhaseProblem p{ctx, reg, shared, map, g, perPhase, side, g.unitBytes / model.bankBytes};
  std::vector<uint64_t> packedGenerators;
  for (const Point& gen : g.generators)
    packedGenerators.push_back(reg.packIn(gen));
  unsigned nGen = static_cast<unsigned>(g.generators.size());

  // At most: two accesses of one phase of one instruction (the same register, warp and CTA 0
  // outside the phase's directions), same bank, words apart beyond K.
  Values x1 = with(ctx, smt::variables(ctx, reg.inDims(), "r!"), dims::kBlock, std::nullopt);
  z3::expr a = ctx.bv("phase!", nGen);
  Values x2 = moved(ctx, x1, a, g.generators);
  Values o1 = with(ctx, smt::variables(ctx, shared.inDims(), "o1!"), dims::kBlock, std::nullopt);
  Values o2 = with(ctx, smt::variables(ctx, shared.inDims(), "o2!"), dims::kBlock, std::nullopt);
  if (!o1.find(dims::kOffset) || !o1.find(dims::kOffset)->expr)
    return contradiction("the shared layout has no offset bits");
  z3::expr u1 = p.unitOf(o1), u2 = p.unitOf(o2);
  z3::expr sameBankQ = g.bankBits > 0 ? p.bankOf(u1) == p.bankOf(u2) : ctx.z3().bool_val(true);
  CheckResult r = s.check(!isZero(ctx, a) &&
                          smt::apply(ctx, shared, o1).equals(ctx, smt::apply(ctx, reg, x1)) &&
                          smt::apply(ctx, shared, o2).equals(ctx, smt::apply(ctx, reg, x2)) &&
                          sameBankQ && !isZero(ctx, claimed.reduce(u1 ^ u2)));
  ++queries;
  if (r.verdict == Verdict::Refuted) {
    Point p1 = x1.read(*r.model), p2 = x2.read(*r.model);
    return done(tooManyWitness(p, claimed, packedGenerators, p1, p2));
  }
  if (r.verdict != Verdict::Proven)
    return done(notDecided(r));
  if (c == 0)
    return done(proven()); // one wavefront per phase is reached by any phase

  // Reached: c directions in the phase, each staying in the bank, whose words are independent:
  // the phase of the instruction's first access then puts 2^c distinct words in one bank.
  std::vector<z3::expr> coeff;
  r = s.check(reachedQuery(p, c, nGen, coeff));
  ++queries;
  if (r.verdict == Verdict::Proven) {
    confirm(k.dim() < c, "z3 finds no phase reaching " + std::to_string(perPhase) +
                             " wavefronts, but the algebra's same-bank space has dimension " +
                             std::to_string(k.dim()));
    return done(refuted(
        {{"reason", "no " + side + " phase reaches the predicted " + std::to_string(perPhase) +
                        " wavefronts: the prediction over-estimates"},
         {"predicted_per_phase", perPhase}},
        "no " + side + " phase puts " + std::to_string(perPhase) + " distinct words in one bank"));
  }
  if (r.verdict != Verdict::Refuted)
    return done(notDecided(r));
  return done(reachedWitness(p, c, nGen, coeff, *r.model));
}

ProofResult bankBound(smt::Context& ctx, const LinearLayout& reg, const LinearLayout& shared,
                      int elementBits, const SharedMemoryModel& model, SharedAccessKind kind,
                      const AccessCount& predicted, const ProverOptions& o) {
  auto map = offsetMap(reg, shared, {}, model);
  if (!map.ok())
    return contradiction("the planned access has no offset map: " + map.error().str());
  int accessBytes = predicted.vectorBits / 8;
  int elemBytes = std::max(elementBits / 8, 1);
  PhaseModel pm;
  pm.unitBytes = std::max(accessBytes, model.bankBytes);
  pm.shift = std::countr_zero(static_cast<unsigned>(pm.unitBytes)) -
             std::countr_zero(static_cast<unsigned>(elemBytes));
  pm.offsetBits = map->offsetBits;
  pm.bankBits = std::min(std::countr_zero(static_cast<unsigned>(model.rowBytes() / pm.unitBytes)),
                         std::max(0, pm.offsetBits - pm.shift));
  if (reg.hasInDim(dims::kLane) && reg.getInDimSizeLog2(dims::kLane) > 0)
    for (uint64_t lane : model.phaseLanes(accessBytes, kind, map->lanes))
      pm.generators.push_back({{dims::kLane, lane}});
  return phaseBound(ctx, reg, shared, *map, pm, predicted.wavefrontsPerPhase,
                    kind == SharedAccessKind::Store ? "store" : "load", model, o);
}

ProofResult matrixBankBound(smt::Context& ctx, const LinearLayout& reg, const LinearLayout& shared,
                            int elementBits, bool trans, const SharedMemoryModel& model,
                            SharedAccessKind kind, uint64_t wavefrontsPerMatrix,
                            const ProverOptions& o) {
  auto plan = ldmatrix(reg, shared, LdmatrixOptions{elementBits, trans});
  if (!plan.ok() || !plan->divides)
    return contradiction("the planned ldmatrix/stmatrix does not fit: " +
                         (plan.ok() ? plan->reason : plan.error().str()));
  auto map = offsetMap(reg, shared, {}, model);
  if (!map.ok())
    return contradiction("the planned access has no offset map: " + map.error().str());
  // One matrix = one phase: its 8 rows of 16 bytes, 8 rows to a wavefront (Ldmatrix.h). The
  // rows are told apart by lanes 4, 8, 16 (lane t gets row t / 4), or with .trans by the first
  // tile register and lanes 1, 2.
  PhaseModel pm;
  int elemBytesLog2 = std::countr_zero(static_cast<unsigned>(elementBits / 8));
  pm.unitBytes = 16;
  pm.shift = 4 - elemBytesLog2;
  pm.offsetBits = map->offsetBits;
  pm.bankBits = std::min(3, std::max(0, pm.offsetBits - pm.shift));
  if (trans) {
    pm.generators.push_back({{dims::kRegister, uint64_t{1} << plan->registerPermutation.at(0)}});
    pm.generators.push_back({{dims::kLane, 1}});
    pm.generators.push_back({{dims::kLane, 2}});
  } else {
    for (uint64_t lane : {4, 8, 16})
      pm.generators.push_back({{dims::kLane, lane}});
  }
  std::string side = std::string(kind == SharedAccessKind::Store ? "stmatrix" : "ldmatrix") +
                     (trans ? ".trans" : "") + " matrix";
  return phaseBound(ctx, reg, shared, *map, pm, wavefrontsPerMatrix, side, model, o);
}

// ---- Lemma 9.5 ----------------------------------------------------------------------------------

int widthOf(std::span<const uint64_t> a, std::span<const uint64_t> b, std::span<const uint64_t> c) {
  uint64_t all = 1;
  for (auto span : {a, b, c})
    for (uint64_t x : span)
      all |= x;
  return 64 - std::countl_zero(all);
}

ProofResult noAvoidingSpace(smt::Context& ctx, std::span<const uint64_t> tile,
                            std::span<const uint64_t> u, std::span<const uint64_t> v, int k,
                            const ProverOptions& o) {
  if (k < 1)
    return contradiction("a space of dimension " + std::to_string(k) + " is asked for");
  if (k > 16)
    return failure("Lemma 9.5's query for " + std::to_string(k) +
                   " vectors has 2^k combinations: too many to state");
  Rref tileBasis(tile), ru(u), rv(v);
  unsigned width = static_cast<unsigned>(widthOf(tile, u, v));
  smt::Solver s(ctx, limitsOf(o));
  // Where the tile is every vector of `width` bits (a CTA's whole tensor), the vectors are free
  // bit-vectors; otherwise combinations of the tile's columns.
  bool whole = tileBasis.dim() == static_cast<int>(width);
  std::vector<z3::expr> coeff, vec;
  for (int i = 0; i < k; ++i) {
    if (whole) {
      coeff.push_back(ctx.bv("v" + std::to_string(i) + "!", width));
      vec.push_back(coeff.back());
    } else {
      coeff.push_back(ctx.bv("a" + std::to_string(i) + "!", static_cast<unsigned>(tile.size())));
      vec.push_back(linear(ctx, coeff.back(), tile, width));
    }
  }
  // X avoids the larger of U and V (say U) iff it maps injectively into the quotient by U, and
  // then X has a basis whose images w_i = H_U v_i are in reduced echelon form: w_i has its
  // leading bit at a pivot P_i (one-hot, strictly decreasing in i) that no other w_j has. Asking
  // for that basis keeps the query equisatisfiable and states "X ∩ U = 0, dim X = k" without
  // the 2^k combinations, over which the solver would have to rediscover the pigeonhole
  // principle (10 s for k = 5 in F2^5; with pivots, k pivots among d - dim U positions is an
  // ordering argument). V, the smaller space, gets every combination: x in V iff H_V x = 0.
  const Rref& larger = ru.dim() >= rv.dim() ? ru : rv;
  const Rref& smaller = ru.dim() >= rv.dim() ? rv : ru;
  uint64_t pivotBits = 0;
  for (int b : larger.pivots)
    pivotBits |= uint64_t{1} << b;
  z3::expr q = ctx.z3().bool_val(true);
  std::vector<z3::expr> w, pivot;
  for (int i = 0; i < k; ++i) {
    w.push_back(larger.reduce(vec[static_cast<std::size_t>(i)]));
    pivot.push_back(ctx.bv("p" + std::to_string(i) + "!", width));
    const z3::expr& p = pivot.back();
    // (P_i avoids U's pivot bits: implied, since w_i has none of them, but stated so that the
    // solver sees the ordering argument over d - dim U positions at once.)
    q = q && !isZero(ctx, p) && isZero(ctx, p & (p - 1)) && !isZero(ctx, w.back() & p) &&
        isZero(ctx, w.back() & ~(p | (p - 1))) && isZero(ctx, p & ctx.bvVal(pivotBits, width));
    if (i > 0)
      q = q && z3::ult(p, pivot[static_cast<std::size_t>(i) - 1]);
  }
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      if (i != j)
        q = q && isZero(ctx, w[static_cast<std::size_t>(j)] & pivot[static_cast<std::size_t>(i)]);
  // Where k exceeds d - dim(larger), no k-dimensional space avoids even the larger space alone,
  // which proves the claim a fortiori; that query has no combinations at all, so it goes first.
  int queries = 0;
  if (k > static_cast<int>(Subspace(std::vector<uint64_t>(tile.begin(), tile.end())).dim()) -
              larger.dim()) {
    CheckResult alone = s.check(q);
    ++queries;
    if (alone.verdict == Verdict::Proven) {
      ProofResult p = proven();
      p.queries = queries;
      return p;
    }
    if (alone.verdict != Verdict::Refuted) {
      ProofResult p = notDecided(alone);
      p.queries = queries;
      return p;
    }
  }
  for (uint64_t subset = 1; subset < (uint64_t{1} << k); ++subset) {
    std::optional<z3::expr> x;
    for (int i = 0; i < k; ++i)
      if ((subset >> i) & 1)
        x = x ? *x ^ vec[static_cast<std::size_t>(i)] : vec[static_cast<std::size_t>(i)];
    q = q && !isZero(ctx, smaller.reduce(*x));
  }
  CheckResult r = s.check(q);
  ProofResult p;
  if (r.verdict == Verdict::Refuted) {
    std::vector<uint64_t> found;
    for (const z3::expr& a : coeff)
      found.push_back(whole ? r.model->value(a) : xorOf(tile, r.model->value(a)));
    Subspace su(std::vector<uint64_t>(u.begin(), u.end()));
    Subspace sv(std::vector<uint64_t>(v.begin(), v.end()));
    bool ok = Subspace(found).dim() == k;
    for (uint64_t subset = 1; subset < (uint64_t{1} << k); ++subset) {
      uint64_t x = xorOf(found, subset);
      ok = ok && !su.contains(x) && !sv.contains(x);
    }
    confirm(ok, "the " + std::to_string(k) + " vectors should span a space avoiding U and V");
    p = refuted({{"vectors", found}},
                "a " + std::to_string(k) + "-dimensional space meets U and V only in 0");
  } else {
    p = r.verdict == Verdict::Proven ? proven() : notDecided(r);
  }
  p.queries = queries + 1;
  return p;
}

ProofResult swizzleBound(smt::Context& ctx, const OptimalSwizzle& sw, const ProverOptions& o) {
  std::vector<uint64_t> u = sw.vec, v = sw.vec, tile = sw.vec;
  u.insert(u.end(), sw.storePhase.begin(), sw.storePhase.end());
  v.insert(v.end(), sw.loadPhase.begin(), sw.loadPhase.end());
  tile.insert(tile.end(), sw.bank.begin(), sw.bank.end());
  tile.insert(tile.end(), sw.segment.begin(), sw.segment.end());
  int m = sw.bound.conflictFreeSegmentDims;
  // (1) Nothing larger: a space of m + 1 dimensions cannot avoid U ∪ V.
  ProofResult upper = m + 1 > static_cast<int>(tile.size())
                          ? proven() // no m + 1 independent vectors in the tile at all
                          : noAvoidingSpace(ctx, tile, u, v, m + 1, o);
  if (upper.outcome == Outcome::Refuted)
    confirm(false, "z3 finds a segment space of " + std::to_string(m + 1) +
                       " dimensions avoiding both phases; the algebra's bound is " +
                       std::to_string(m) + ": " + upper.counterexample.dump());
  if (upper.outcome != Outcome::Proven)
    return upper;
  // (2) Attained: the layout's first min(m, l) segment vectors avoid U ∪ V.
  int used = std::min(m, static_cast<int>(sw.segment.size()));
  if (used == 0)
    return both(upper, proven());
  Rref ru(u), rv(v);
  unsigned width = static_cast<unsigned>(widthOf(tile, u, v));
  std::span<const uint64_t> seg(sw.segment.data(), static_cast<std::size_t>(used));
  smt::Solver s(ctx, limitsOf(o));
  z3::expr a = ctx.bv("seg!", static_cast<unsigned>(used));
  z3::expr x = linear(ctx, a, seg, width);
  CheckResult r =
      s.check(!isZero(ctx, a) && (isZero(ctx, ru.reduce(x)) || isZero(ctx, rv.reduce(x))));
  ProofResult attained;
  if (r.verdict == Verdict::Refuted) {
    uint64_t combo = r.model->value(a), xv = xorOf(seg, combo);
    bool inU = Subspace(u).contains(xv), inV = Subspace(v).contains(xv);
    confirm(combo != 0 && (inU || inV),
            "segment combination " + std::to_string(combo) + " should lie in a phase's space");
    attained = refuted({{"segment_combination", combo},
                        {"element", xv},
                        {"in", inU ? "store phase" : "load phase"},
                        {"reason", "the layout's conflict-free segment vectors do not avoid both "
                                   "phases: the bound is not attained"}},
                       "segment combination " + std::to_string(combo) + " lies in the " +
                           (inU ? "store" : "load") + " phase's span");
  } else {
    attained = r.verdict == Verdict::Proven ? proven() : notDecided(r);
  }
  attained.queries = 1;
  return both(upper, attained);
}

} // namespace

ProofResult proveBankBound(const LinearLayout& reg, const LinearLayout& shared, int elementBits,
                           const SharedMemoryModel& model, SharedAccessKind kind,
                           const AccessCount& predicted, const ProverOptions& o) {
  return timed([&](smt::Context& ctx) {
    return bankBound(ctx, reg, shared, elementBits, model, kind, predicted, o);
  });
}

ProofResult proveMatrixBankBound(const LinearLayout& reg, const LinearLayout& shared,
                                 int elementBits, bool trans, const SharedMemoryModel& model,
                                 SharedAccessKind kind, uint64_t wavefrontsPerMatrix,
                                 const ProverOptions& o) {
  return timed([&](smt::Context& ctx) {
    return matrixBankBound(ctx, reg, shared, elementBits, trans, model, kind, wavefrontsPerMatrix,
                           o);
  });
}

ProofResult proveNoAvoidingSpace(std::span<const uint64_t> tile, std::span<const uint64_t> u,
                                 std::span<const uint64_t> v, int k, const ProverOptions& o) {
  return timed([&](smt::Context& ctx) { return noAvoidingSpace(ctx, tile, u, v, k, o); });
}

ProofResult proveSwizzleBound(const OptimalSwizzle& s, const ProverOptions& o) {
  return timed([&](smt::Context& ctx) { return swizzleBound(ctx, s, o); });
}

} // namespace llcheck::prover
