// planWarpShuffles: the paper's V, I, E, F, G, R and the per-lane rounds (see WarpShuffle.h).
#include "llcheck/core/conversion/WarpShuffle.h"
#include "Columns.h"

#include "llcheck/core/Subspace.h"
#include "llcheck/core/XorBasis.h"
#include "llcheck/core/conversion/ConversionPlan.h"

#include <algorithm>
#include <bit>

namespace llcheck {

using conversion::columnsOf;

using nlohmann::json;

namespace {

/// Solves target = XOR of cols[j] over the bits j of a mask: the solution with every free
/// column at 0 (the lowest register or lane), and the kernel (the masks that XOR to 0, which
/// name the broadcast copies).
class ColumnSolver {
public:
  explicit ColumnSolver(const std::vector<uint64_t>& cols) {
    for (std::size_t j = 0; j < cols.size(); ++j) {
      uint64_t bit = uint64_t{1} << j;
      if (auto combo = basis_.solve(cols[j]); combo.has_value())
        kernel_.push_back(*combo | bit);
      else
        basis_.insert(cols[j], bit);
    }
  }
  [[nodiscard]] std::optional<uint64_t> solve(uint64_t target) const {
    return basis_.solve(target);
  }
  [[nodiscard]] const std::vector<uint64_t>& kernel() const { return kernel_; }

private:
  XorBasis basis_;
  std::vector<uint64_t> kernel_;
};

std::vector<uint64_t> nonZero(std::vector<uint64_t> v) {
  std::erase(v, uint64_t{0});
  return v;
}

std::vector<uint64_t> concat(std::vector<uint64_t> a, const std::vector<uint64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// Everything the rounds of one warp need, fixed for the plan.
struct Scheduler {
  const LinearLayout& src;
  const LinearLayout& dst;
  std::vector<uint64_t> srcRegs, srcLanes, dstRegs, dstLanes, V, S, R;
  /// What SRC's registers and lanes offer in the plan: SRC's, except for lent lane bits.
  std::vector<uint64_t> offerRegs, offerLanes;
  Subspace spanV;

  std::vector<ShuffleRound> warpRounds(uint64_t warp, uint64_t block, uint64_t rounds,
                                       uint64_t lanes, std::optional<Error>& error) const {
    auto at = [](const LinearLayout& l, DimName d, uint64_t v) {
      return v << l.inDimOffset(l.inDimIndex(d));
    };
    uint64_t srcWarp = src.applyFlat(at(src, dims::kWarp, warp) | at(src, dims::kBlock, block));
    uint64_t dstWarp = dst.applyFlat(at(dst, dims::kWarp, warp) | at(dst, dims::kBlock, block));
    int nSrcRegs = static_cast<int>(srcRegs.size()), nDstRegs = static_cast<int>(dstRegs.size());
    uint64_t srcRegMask = nSrcRegs == 0 ? 0 : ~uint64_t{0} >> (64 - nSrcRegs);
    uint64_t dstRegMask = nDstRegs == 0 ? 0 : ~uint64_t{0} >> (64 - nDstRegs);
    // [registers | S]: which element of a lane lies in a round's coset; [registers | lanes]:
    // which SRC lane offers an element. Offers are planned with offerRegs/offerLanes; the
    // register that holds an offered element is looked up in SRC itself.
    ColumnSolver srcInRound(concat(offerRegs, S)), dstInRound(concat(dstRegs, S));
    ColumnSolver srcRegSolver(srcRegs), offerRegSolver(offerRegs), dstRegSolver(dstRegs);
    ColumnSolver srcHolder(concat(offerRegs, offerLanes));
    uint64_t vec = uint64_t{1} << V.size();

    std::vector<ShuffleRound> out;
    for (uint64_t i = 0; i < rounds; ++i) {
      // Round i exchanges the coset dstWarp + R(i) + S of this warp.
      uint64_t coset = dstWarp ^ xorOf(R, i);
      ShuffleRound round;
      round.send.resize(lanes);
      round.from.assign(lanes, -1);
      round.recv.resize(lanes);
      for (uint64_t s = 0; s < lanes; ++s) {
        uint64_t offered = srcWarp ^ xorOf(offerLanes, s);
        uint64_t held = srcWarp ^ xorOf(srcLanes, s);
        auto hit = srcInRound.solve(offered ^ coset);
        if (!hit.has_value())
          continue;
        uint64_t rep = spanV.reduce(offered ^ xorOf(offerRegs, *hit & srcRegMask));
        for (uint64_t k = 0; k < vec; ++k) {
          auto reg = srcRegSolver.solve(rep ^ xorOf(V, k) ^ held);
          if (!reg.has_value()) {
            error =
                makeError("internal: SRC lane " + std::to_string(s) + " lacks part of its vector");
            return {};
          }
          round.send[s].push_back(static_cast<int>(*reg));
        }
      }
      for (uint64_t t = 0; t < lanes; ++t) {
        uint64_t wanted = dstWarp ^ xorOf(dstLanes, t);
        auto hit = dstInRound.solve(wanted ^ coset);
        if (!hit.has_value())
          continue;
        uint64_t rep = spanV.reduce(wanted ^ xorOf(dstRegs, *hit & dstRegMask));
        // Read the own lane when it holds the vector, else the minimal holder.
        uint64_t ownOffer = srcWarp ^ xorOf(offerLanes, t);
        uint64_t from = t;
        if (!offerRegSolver.solve(rep ^ ownOffer).has_value()) {
          auto holder = srcHolder.solve(rep ^ srcWarp);
          if (!holder.has_value()) {
            error = makeError("internal: no SRC lane of warp " + std::to_string(warp) +
                              " holds an element DST lane " + std::to_string(t) + " needs");
            return {};
          }
          from = nSrcRegs >= 64 ? 0 : *holder >> nSrcRegs;
        }
        round.from[t] = static_cast<int>(from);
        for (uint64_t k = 0; k < vec; ++k) {
          auto reg = dstRegSolver.solve(rep ^ xorOf(V, k) ^ wanted);
          if (!reg.has_value()) {
            error = makeError("internal: DST lane " + std::to_string(t) +
                              " cannot place part of its vector");
            return {};
          }
          // Every register that wants this element: the solution plus the kernel's copies.
          const std::vector<uint64_t>& copies = dstRegSolver.kernel();
          std::vector<int> regs;
          for (uint64_t c = 0; c < (uint64_t{1} << copies.size()); ++c)
            regs.push_back(static_cast<int>(*reg ^ xorOf(copies, c)));
          std::sort(regs.begin(), regs.end());
          round.recv[t].push_back(std::move(regs));
        }
      }
      out.push_back(std::move(round));
    }
    return out;
  }
};

} // namespace

Result<WarpShufflePlan> planWarpShuffles(const LinearLayout& srcIn, const LinearLayout& dstIn,
                                         int elementBits) {
  if (elementBits < 1 || elementBits > 64 ||
      !std::has_single_bit(static_cast<unsigned>(elementBits)))
    return makeError("element bits must be a power of two in [1, 64], got " +
                     std::to_string(elementBits));
  auto conv = planConversion(srcIn, dstIn);
  if (!conv.ok())
    return conv.error();
  switch (conv->kind) {
  case ConversionKind::WarpShuffle:
    break;
  case ConversionKind::SharedMemory:
    return makeError("needs shared memory: warps exchange data (kind shared_memory)");
  case ConversionKind::InterCta:
    return makeError("needs distributed shared memory: CTAs exchange data (kind inter_cta)");
  case ConversionKind::NoOp:
  case ConversionKind::RegisterPermutation:
    return makeError(std::string("needs no warp shuffle: every thread already holds its data "
                                 "(kind ") +
                     conversionKindName(conv->kind) + ")");
  }

  WarpShufflePlan plan;
  plan.src = conv->src;
  plan.dst = conv->dst;
  plan.elementBits = elementBits;
  const LinearLayout& src = plan.src;
  const LinearLayout& dst = plan.dst;
  std::vector<uint64_t> srcRegs = columnsOf(src, dims::kRegister);
  std::vector<uint64_t> srcLanes = columnsOf(src, dims::kLane);
  std::vector<uint64_t> dstRegs = columnsOf(dst, dims::kRegister);
  std::vector<uint64_t> dstLanes = columnsOf(dst, dims::kLane);
  Subspace dstWarpSpan(concat(dstRegs, dstLanes)); // the elements one DST warp holds

  // V: the largest common register subspace that fits one 32-bit shuffle.
  std::vector<uint64_t> common = intersectionBasis(nonZero(srcRegs), nonZero(dstRegs));
  std::size_t maxV =
      elementBits >= 32
          ? 0
          : static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(32 / elementBits)));
  plan.V.assign(common.begin(), common.begin() + std::min(maxV, common.size()));
  plan.vectorElements = uint64_t{1} << plan.V.size();
  plan.shufflesPerVector = elementBits > 32 ? elementBits / 32 : 1;

  // I, E, F of the paper, on the registers and lanes SRC offers.
  std::vector<uint64_t> offerRegs = srcRegs, offerLanes = srcLanes;
  auto laneSets = [&] {
    plan.I = intersectionBasis(nonZero(offerLanes), nonZero(dstLanes));
    Subspace spanI(plan.I);
    plan.E = complementBasis(spanI, intersectionBasis(nonZero(offerLanes), dstWarpSpan.basis()));
    std::vector<uint64_t> dstLaneCols = nonZero(dstLanes);
    std::sort(dstLaneCols.begin(), dstLaneCols.end());
    plan.F = complementBasis(spanI, dstLaneCols);
  };
  laneSets();
  // Lending (see the header): an f left without an e, kept by SRC in register column c, is
  // offered by a broadcast SRC lane bit j instead: lanes with bit j set offer register bit c
  // set. Each SRC lane then offers a subset of what it holds, the warp still offers all of
  // it, and f joins I.
  for (std::size_t i = std::min(plan.E.size(), plan.F.size()); i < plan.F.size(); ++i) {
    uint64_t f = plan.F[i];
    auto lane = std::find(offerLanes.begin(), offerLanes.end(), uint64_t{0});
    auto reg = std::find(offerRegs.begin(), offerRegs.end(), f);
    if (lane == offerLanes.end())
      break;
    if (reg == offerRegs.end())
      continue;
    *reg = 0;
    Subspace rest(offerRegs);
    if (rest.contains(f) ||
        !std::all_of(plan.V.begin(), plan.V.end(), [&](uint64_t v) { return rest.contains(v); })) {
      *reg = f;
      continue;
    }
    *lane = f;
    plan.lent.push_back({static_cast<int>(lane - offerLanes.begin()),
                         static_cast<int>(reg - offerRegs.begin()), f});
  }
  if (!plan.lent.empty())
    laneSets();

  // S = span(V ∪ I ∪ G), grown only while it meets each side's registers in span(V) alone: a
  // vector outside span(S ∪ registers) keeps that intersection (dimension count).
  Subspace S(plan.V), withSrcRegs(concat(plan.V, offerRegs)), withDstRegs(concat(plan.V, dstRegs));
  auto admit = [&](uint64_t v) {
    if (!dstWarpSpan.contains(v) || withSrcRegs.contains(v) || withDstRegs.contains(v))
      return false;
    S.insert(v);
    withSrcRegs.insert(v);
    withDstRegs.insert(v);
    return true;
  };
  std::vector<uint64_t> keptI;
  for (uint64_t v : plan.I)
    if (admit(v))
      keptI.push_back(v);
  plan.I = keptI;
  for (std::size_t i = 0; i < std::min(plan.E.size(), plan.F.size()); ++i)
    if (uint64_t g = plan.E[i] ^ plan.F[i]; admit(g))
      plan.G.push_back(g);
  // R: DST registers first, so consecutive rounds walk DST's registers.
  plan.R = complementBasis(S, concat(dstRegs, dstLanes));
  if (plan.R.size() >= 63)
    return makeError("needs 2^" + std::to_string(plan.R.size()) + " shuffle rounds");
  plan.rounds = uint64_t{1} << plan.R.size();
  plan.lanes = src.getInDimSize(dims::kLane);

  uint64_t warps = src.getInDimSize(dims::kWarp), blocks = src.getInDimSize(dims::kBlock);
  // The recv lists name each DST location once; the rounds x lanes x warps entries are bounded
  // alike (in log2, so that nothing overflows).
  int slotsLog2 = static_cast<int>(plan.R.size()) + dst.getTotalInDimSizeLog2() -
                  dst.getInDimSizeLog2(dims::kRegister);
  plan.scheduled = dst.getTotalInDimSizeLog2() <= kMaxScheduledLocationsLog2 &&
                   slotsLog2 <= kMaxScheduledLocationsLog2;
  if (!plan.scheduled)
    return plan;
  Scheduler sched{src,    dst,       srcRegs, srcLanes,  dstRegs,    dstLanes,
                  plan.V, S.basis(), plan.R,  offerRegs, offerLanes, Subspace(plan.V)};
  for (uint64_t b = 0; b < blocks; ++b)
    for (uint64_t w = 0; w < warps; ++w) {
      std::optional<Error> error;
      std::vector<ShuffleRound> rounds = sched.warpRounds(w, b, plan.rounds, plan.lanes, error);
      if (error)
        return *error;
      uint64_t flat = w + warps * b;
      auto same = std::find_if(plan.schedules.begin(), plan.schedules.end(),
                               [&](const WarpSchedule& s) { return s.rounds == rounds; });
      if (same != plan.schedules.end())
        same->warps.push_back(flat);
      else
        plan.schedules.push_back({{flat}, std::move(rounds)});
    }
  return plan;
}

json toJson(const WarpShufflePlan& plan) {
  auto coords = [&](const std::vector<uint64_t>& vs) {
    json list = json::array();
    for (uint64_t v : vs) {
      json c = json::array();
      for (const auto& [name, value] : plan.src.unpackOut(v))
        c.push_back(value);
      list.push_back(std::move(c));
    }
    return list;
  };
  json lent = json::array();
  for (const LentLaneBit& l : plan.lent)
    lent.push_back({{"lane_bit", l.laneBit},
                    {"register_bit", l.registerBit},
                    {"vector", coords({l.vector})[0]}});
  json dimNames = json::array();
  for (const Dim& d : plan.src.outDims())
    dimNames.push_back(d.name.str());
  json j = {{"kind", "warp_shuffle"},
            {"element_bits", plan.elementBits},
            {"dims", dimNames},
            {"vector_elements", plan.vectorElements},
            {"shuffles_per_vector", plan.shufflesPerVector},
            {"V", coords(plan.V)},
            {"I", coords(plan.I)},
            {"E", coords(plan.E)},
            {"F", coords(plan.F)},
            {"G", coords(plan.G)},
            {"R", coords(plan.R)},
            {"lent", lent},
            {"rounds", plan.rounds},
            {"lanes", plan.lanes}};
  if (!plan.scheduled || plan.rounds > kMaxJsonRounds) {
    j["schedule"] = nullptr;
    j["schedule_omitted"] =
        std::to_string(plan.rounds) + " rounds x " + std::to_string(plan.lanes) + " lanes" +
        (plan.scheduled ? ": more than " + std::to_string(kMaxJsonRounds) + " rounds are not listed"
                        : ": more than 2^" + std::to_string(kMaxScheduledLocationsLog2) +
                              " DST locations or slots, not scheduled");
    return j;
  }
  json schedule = json::array();
  for (const WarpSchedule& ws : plan.schedules) {
    json rounds = json::array();
    for (const ShuffleRound& r : ws.rounds)
      rounds.push_back({{"send", r.send}, {"from", r.from}, {"recv", r.recv}});
    schedule.push_back({{"warps", ws.warps}, {"rounds", std::move(rounds)}});
  }
  j["schedule"] = std::move(schedule);
  return j;
}

} // namespace llcheck
