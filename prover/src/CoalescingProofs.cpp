// The sector bound of CoalescingProofs.h as Z3 queries: N lanes of one register value and warp
// with pairwise different sectors, N = predicted + 1 (must be unsat) and N = predicted (must be
// sat). Addresses are 64-bit bit-vector arithmetic over the layout's bases and the strides;
// globalAddressMap refuses a tensor whose last byte is past 2^64, so none wraps.
#include "llcheck/prover/CoalescingProofs.h"

#include "ProofSupport.h"
#include "Rref.h"
#include "Smt.h"
#include "llcheck/core/Encodings.h"
#include "llcheck/core/Subspace.h"

#include <bit>
#include <optional>
#include <set>

namespace llcheck::prover {

namespace {

using namespace detail;

/// The layout's columns as integer coordinates per tensor dim (dim0 ..), for each input bit of
/// register, lane and warp (CTA 0), read from the layout's bases.
struct Columns {
  std::vector<std::vector<uint64_t>> registers, lanes, warps; ///< [bit][dim]
  std::vector<int> dimBits;
};

Columns columnsOf(const LinearLayout& reg) {
  Columns c;
  int rank = reg.getNumOutDims();
  std::vector<int> pos; // pos[k]: index of dim k among the out dims
  for (int k = 0; k < rank; ++k) {
    pos.push_back(reg.outDimIndex(dims::standardOut(k)));
    c.dimBits.push_back(reg.getOutDimSizeLog2(dims::standardOut(k)));
  }
  for (const DimBases& d : reg.getBases()) {
    auto* target = d.name == dims::kRegister ? &c.registers
                   : d.name == dims::kLane   ? &c.lanes
                   : d.name == dims::kWarp   ? &c.warps
                                             : nullptr;
    if (target == nullptr)
      continue;
    for (const auto& basis : d.bases) {
      std::vector<uint64_t> v;
      for (int k = 0; k < rank; ++k)
        v.push_back(basis[static_cast<std::size_t>(pos[k])]);
      target->push_back(v);
    }
  }
  return c;
}

/// The coordinates of the selected inputs: XOR of the columns whose bit is set.
std::vector<uint64_t> coordsOf(const std::vector<std::vector<uint64_t>>& cols, uint64_t sel,
                               std::size_t rank) {
  std::vector<uint64_t> v(rank, 0);
  for (std::size_t j = 0; j < cols.size(); ++j)
    if ((sel >> j) & 1)
      for (std::size_t k = 0; k < rank; ++k)
        v[k] ^= cols[j][k];
  return v;
}

struct Addressing {
  Columns cols;
  std::vector<int64_t> strides;
  uint64_t baseOffset = 0;
  int elementBytes = 1;
  int sectorLog2 = 5;

  /// The algebra's side: the sector of (register r, lane t, warp w), computed with integers.
  [[nodiscard]] uint64_t sector(uint64_t r, uint64_t t, uint64_t w) const {
    std::size_t rank = strides.size();
    std::vector<uint64_t> a = coordsOf(cols.registers, r, rank), b = coordsOf(cols.lanes, t, rank),
                          c = coordsOf(cols.warps, w, rank);
    uint64_t e = 0;
    for (std::size_t k = 0; k < rank; ++k)
      e += (a[k] ^ b[k] ^ c[k]) * static_cast<uint64_t>(strides[k]);
    return (baseOffset + e * static_cast<uint64_t>(elementBytes)) >> sectorLog2;
  }

  /// Z3's side: the same sector of bit-vector inputs r, t, w (64-bit arithmetic).
  [[nodiscard]] z3::expr sector(smt::Context& ctx, const z3::expr& r, const z3::expr& t,
                                const std::optional<z3::expr>& w) const {
    std::size_t rank = strides.size();
    z3::expr addr = ctx.bvVal(baseOffset, 64);
    for (std::size_t k = 0; k < rank; ++k) {
      z3::expr idx = ctx.bvVal(0, 64);
      auto add = [&](const std::vector<std::vector<uint64_t>>& cs, const z3::expr& x) {
        for (std::size_t j = 0; j < cs.size(); ++j)
          if (cs[j][k] != 0) {
            z3::expr bit = x.extract(static_cast<unsigned>(j), static_cast<unsigned>(j));
            idx = idx ^ z3::ite(bit == ctx.bvVal(1, 1), ctx.bvVal(cs[j][k], 64), ctx.bvVal(0, 64));
          }
      };
      if (!cols.registers.empty())
        add(cols.registers, r);
      add(cols.lanes, t);
      if (w)
        add(cols.warps, *w);
      addr = addr +
             idx * ctx.bvVal(
                       static_cast<uint64_t>(strides[k]) * static_cast<uint64_t>(elementBytes), 64);
    }
    return z3::lshr(addr, ctx.bvVal(static_cast<uint64_t>(sectorLog2), 64));
  }
};

/// XOR_j c[j] lanes[j] as a lane index (c has lanes.size() bits).
z3::expr laneOf(smt::Context& ctx, const z3::expr& c, const std::vector<uint64_t>& lanes,
                unsigned laneWidth) {
  z3::expr t = ctx.bvVal(0, laneWidth);
  for (std::size_t j = 0; j < lanes.size(); ++j) {
    auto b = static_cast<unsigned>(j);
    t = t ^ z3::ite(c.extract(b, b) == ctx.bvVal(1, 1), ctx.bvVal(lanes[j], laneWidth),
                    ctx.bvVal(0, laneWidth));
  }
  return t;
}

ProofResult sectorBound(smt::Context& ctx, const LinearLayout& regIn,
                        const CoalescingOptions& options, const GlobalMemoryModel& model,
                        const GlobalAccess& predicted, const ProverOptions& o) {
  auto reg = withDistributedInDims(regIn);
  if (!reg.ok())
    return failure(reg.error().str());
  // The model's own checks first, its bound on the tensor's last byte among them: every
  // address below is then under 2^64, so 64-bit bit-vectors are wide enough and nothing wraps
  // (a stride of 2^40 over 2^22 rows of f64 once wrapped into a false proof).
  if (auto map = globalAddressMap(*reg, options, model); !map.ok())
    return failure("the access cannot be posed: " + map.error().str());
  Addressing ad;
  ad.cols = columnsOf(*reg);
  ad.strides = effectiveStrides(*reg, options);
  ad.baseOffset =
      options.baseAlignment < static_cast<uint64_t>(model.lineBytes) ? options.baseAlignment : 0;
  ad.elementBytes = options.elementBits / 8;
  ad.sectorLog2 = std::countr_zero(static_cast<unsigned>(model.sectorBytes));
  if (ad.strides.size() != ad.cols.dimBits.size() || ad.cols.lanes.empty())
    return failure("the access cannot be posed: strides and dims differ, or no lanes");
  uint64_t n = predicted.maxSectorsPerRequest;
  auto laneWidth = static_cast<unsigned>(ad.cols.lanes.size());
  if (!std::has_single_bit(n) || std::countr_zero(n) > static_cast<int>(laneWidth))
    return contradiction("a request of an F2-linear access cannot touch " + std::to_string(n) +
                         " sectors (a power of two, at most one per lane)");
  int k = std::countr_zero(n);

  // The lanes whose sectors the claim spans: lane bits whose sector moves are independent,
  // lowest first, then (for a claim larger than the rank) the others.
  std::vector<uint64_t> chosen, rest;
  Rref span;
  for (unsigned i = 0; i < laneWidth; ++i) {
    uint64_t lane = uint64_t{1} << i;
    uint64_t move = ad.sector(0, lane, 0) ^ ad.sector(0, 0, 0);
    if (static_cast<int>(chosen.size()) < k && span.reduce(move) != 0) {
      span.insert(move);
      chosen.push_back(lane);
    } else {
      rest.push_back(lane);
    }
  }
  for (std::size_t i = 0; static_cast<int>(chosen.size()) < k && i < rest.size(); ++i)
    chosen.push_back(rest[i]);

  // At most: every lane's sector differs from lane 0's (same register value and warp) by an
  // element of the span of the chosen lanes' moves, so a request's sectors are one coset of it.
  auto regWidth = static_cast<unsigned>(std::max<std::size_t>(ad.cols.registers.size(), 1));
  z3::expr r = ctx.bv("register", regWidth);
  z3::expr t = ctx.bv("lane", laneWidth);
  std::optional<z3::expr> w;
  if (!ad.cols.warps.empty())
    w = ctx.bv("warp", static_cast<unsigned>(ad.cols.warps.size()));
  z3::expr diff = ad.sector(ctx, r, t, w) ^ ad.sector(ctx, r, ctx.bvVal(0, laneWidth), w);
  smt::Solver solver(ctx, limitsOf(o));
  CheckResult atMost = solver.check(span.reduce(diff) != ctx.bvVal(0, 64));
  if (atMost.verdict == Verdict::Refuted) {
    uint64_t rv = atMost.model->value(r), tv = atMost.model->value(t),
             wv = w ? atMost.model->value(*w) : 0;
    uint64_t s0 = ad.sector(rv, 0, wv), s1 = ad.sector(rv, tv, wv);
    confirm(span.reduce(s0 ^ s1) != 0,
            "lane " + std::to_string(tv) + "'s sector is in the predicted coset");
    ProofResult bad = refuted(
        {{"register", rv}, {"warp", wv}, {"lanes", {0, tv}}, {"sectors", {s0, s1}}},
        "a request touches more than the predicted " + std::to_string(n) + " sectors: lane " +
            std::to_string(tv) + "'s sector lies outside the span of the others'");
    bad.queries = 1;
    return bad;
  }
  if (atMost.verdict != Verdict::Proven)
    return notDecided(atMost);

  // Reached: the 2^k lanes spanned by the chosen ones (register 0, warp 0) have pairwise
  // different sectors: no two combinations c1 != c2 share one.
  json witness;
  if (k > 0) {
    auto kw = static_cast<unsigned>(k);
    z3::expr c1 = ctx.bv("c1", kw), c2 = ctx.bv("c2", kw);
    z3::expr zero = ctx.bvVal(0, regWidth);
    std::optional<z3::expr> w0;
    if (w)
      w0 = ctx.bvVal(0, static_cast<unsigned>(ad.cols.warps.size()));
    smt::Solver s2(ctx, limitsOf(o));
    CheckResult same =
        s2.check(c1 != c2 && ad.sector(ctx, zero, laneOf(ctx, c1, chosen, laneWidth), w0) ==
                                 ad.sector(ctx, zero, laneOf(ctx, c2, chosen, laneWidth), w0));
    if (same.verdict == Verdict::Refuted) {
      ProofResult bad =
          refuted(json::object(), "no request touches the predicted " + std::to_string(n) +
                                      " sectors: the prediction over-estimates");
      bad.queries = 2;
      return bad;
    }
    if (same.verdict != Verdict::Proven)
      return notDecided(same);
  }
  std::vector<uint64_t> lanes, sectors;
  std::set<uint64_t> distinct;
  for (uint64_t c = 0; c < n; ++c) {
    uint64_t lane = xorOf(chosen, c);
    lanes.push_back(lane);
    sectors.push_back(ad.sector(0, lane, 0));
    distinct.insert(sectors.back());
  }
  confirm(distinct.size() == n, "the witness lanes share sectors");
  ProofResult ok = proven();
  ok.witness = {{"register", 0}, {"warp", 0}, {"lanes", lanes}, {"sectors", sectors}};
  ok.queries = k > 0 ? 2 : 1;
  return ok;
}

} // namespace

ProofResult proveSectorBound(const LinearLayout& reg, const CoalescingOptions& options,
                             const GlobalMemoryModel& model, const GlobalAccess& predicted,
                             const ProverOptions& o) {
  return timed(
      [&](smt::Context& ctx) { return sectorBound(ctx, reg, options, model, predicted, o); });
}

} // namespace llcheck::prover
