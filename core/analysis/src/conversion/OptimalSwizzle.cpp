// optimalSwizzle: the construction of the paper's appendix 9.2, and the search over the
// instructions each side may use (see OptimalSwizzle.h).
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "Columns.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Subspace.h"
#include "llcheck/core/XorBasis.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/Ldmatrix.h"

#include <algorithm>
#include <bit>
#include <optional>

namespace llcheck {

using conversion::columnsOf;
using conversion::nonZeroColumnsOf;

namespace {

template <class... Lists> std::vector<uint64_t> concat(const Lists&... lists) {
  std::vector<uint64_t> out;
  (out.insert(out.end(), lists.begin(), lists.end()), ...);
  return out;
}

/// Takes vectors from `candidates` into `into` (and `chosen`) while fewer than `count`, each
/// independent of everything chosen so far.
void takeIndependent(Subspace& chosen, std::vector<uint64_t>& into, std::size_t count,
                     const std::vector<uint64_t>& candidates) {
  for (uint64_t v : candidates)
    if (into.size() < count && chosen.insert(v))
      into.push_back(v);
}

int log2Of(uint64_t pow2) {
  return std::countr_zero(pow2);
}

bool isStore(SharedAccessKind kind) {
  return kind == SharedAccessKind::Store;
}

/// What every candidate starts from: the CTA tile and the columns of both layouts.
struct Setup {
  const LinearLayout* src = nullptr;
  const LinearLayout* dst = nullptr;
  const SharedMemoryModel* model = nullptr;
  int elementBits = 0, elemBytes = 0;
  int d = 0;          ///< bits of one CTA's tile
  int subRowBits = 0; ///< offset bits inside one row of banks (capped by d)
  int maxVecLog2 = 0; ///< the widest access, in elements
  std::vector<uint64_t> tile, blockCols;
  std::vector<uint64_t> srcRegs, dstRegs;   ///< non-zero register columns
  std::vector<uint64_t> srcLanes, dstLanes; ///< every lane column, by lane bit
  std::vector<uint64_t> threads;            ///< non-zero lane and warp columns of both

  [[nodiscard]] const LinearLayout& layout(SharedAccessKind k) const {
    return isStore(k) ? *src : *dst;
  }
  [[nodiscard]] const std::vector<uint64_t>& regs(SharedAccessKind k) const {
    return isStore(k) ? srcRegs : dstRegs;
  }
  [[nodiscard]] const std::vector<uint64_t>& lanes(SharedAccessKind k) const {
    return isStore(k) ? srcLanes : dstLanes;
  }
};

/// The tensor directions the lanes of one phase move along, for an access of `bytes` per lane.
std::vector<uint64_t> vectorPhase(const Setup& s, SharedAccessKind kind, int bytes) {
  std::vector<uint64_t> out;
  for (uint64_t lane : s.model->phaseLanes(bytes, kind, s.lanes(kind)))
    if (uint64_t v = xorOf(s.lanes(kind), lane))
      out.push_back(v);
  return out;
}

/// The 8 rows of one ldmatrix/stmatrix matrix (Ldmatrix.h): lanes 4, 8, 16; for .trans the
/// pair of elements in one register (the first non-zero one) and lanes 1, 2.
std::vector<uint64_t> matrixPhase(const Setup& s, SharedAccessKind kind, bool trans) {
  const std::vector<uint64_t>& lanes = s.lanes(kind);
  std::vector<uint64_t> rows =
      trans ? std::vector<uint64_t>{s.regs(kind).empty() ? 0 : s.regs(kind)[0], lanes[0], lanes[1]}
            : std::vector<uint64_t>{lanes[2], lanes[3], lanes[4]};
  std::erase(rows, uint64_t{0});
  return rows;
}

/// A candidate before it is built: Low's vector or tile part, how many within-word bits to
/// add after it, each side's instruction and the phase directions the construction must keep
/// out of Segment.
struct CandidatePlan {
  std::string construction;
  std::vector<uint64_t> lowBase;
  int withinWordTarget = 0;
  SharedInstruction storeInstruction = SharedInstruction::Vector;
  SharedInstruction loadInstruction = SharedInstruction::Vector;
  std::vector<uint64_t> storePhase, loadPhase;
  /// The access width (log2 elements) each side's phases were planned for (vector sides).
  int storeVectorLog2 = 0, loadVectorLog2 = 0;
};

struct Built {
  LinearLayout shared;
  std::vector<uint64_t> low, bank, segment;
  int withinWord = 0;
  int conflictFreeSegmentDims = 0;
};

/// Def. 4.14's column condition: every offset column holds one or two tensor bits.
bool isMemoryColumns(const LinearLayout& shared) {
  for (uint64_t col : shared.inDimColumns(dims::kOffset))
    if (std::popcount(col) < 1 || std::popcount(col) > 2)
      return false;
  return true;
}

Result<Built> build(const Setup& s, const CandidatePlan& c) {
  Built b;
  b.low = c.lowBase;
  Subspace lowSpan(c.lowBase);
  if (lowSpan.dim() != static_cast<int>(c.lowBase.size()))
    return makeError("internal: a candidate's vector directions are dependent");
  // Within-word bits: lanes that differ only there share a word, so directions both layouts'
  // phases move along are the best use of them.
  std::vector<uint64_t> withinWord;
  int room = std::max(0, s.subRowBits - static_cast<int>(b.low.size()));
  takeIndependent(
      lowSpan, withinWord, static_cast<std::size_t>(std::min(c.withinWordTarget, room)),
      concat(intersectionBasis(c.storePhase, c.loadPhase), c.storePhase, c.loadPhase, s.tile));
  b.withinWord = static_cast<int>(withinWord.size());
  b.low.insert(b.low.end(), withinWord.begin(), withinWord.end());
  if (static_cast<int>(b.low.size()) > s.subRowBits)
    return makeError("internal: a candidate's contiguous piece is wider than a row of banks");

  // K: a complement of Low that holds every thread direction it can, so that no lane or warp
  // moves inside a vector. Bank and Segment are a basis of K; every vector is projected onto
  // K along Low (its class modulo Low is what the bank count sees).
  Subspace all = lowSpan;
  std::vector<uint64_t> k;
  for (uint64_t v : concat(s.threads, s.tile))
    if (all.insert(v))
      k.push_back(v);
  if (all.dim() != s.d)
    return makeError("internal: the tile's columns do not span the tile");
  XorBasis solver;
  std::vector<uint64_t> gens = concat(b.low, k);
  for (std::size_t i = 0; i < gens.size(); ++i)
    solver.insert(gens[i], uint64_t{1} << i);
  auto project = [&](uint64_t v) {
    uint64_t combo = solver.solve(v).value_or(0) >> b.low.size();
    return xorOf(k, combo);
  };
  Subspace u, w;
  for (uint64_t v : c.storePhase)
    u.insert(project(v));
  for (uint64_t v : c.loadPhase)
    w.insert(project(v));

  // Lemma 9.5 in K.
  int n = static_cast<int>(k.size());
  int bankCount = s.subRowBits - static_cast<int>(b.low.size());
  int segmentDims = n - bankCount;
  std::vector<uint64_t> common = intersectionBasis(u.basis(), w.basis());
  std::vector<uint64_t> e = complementBasis(Subspace(common), u.basis());
  std::vector<uint64_t> f = complementBasis(Subspace(common), w.basis());
  if (e.size() > f.size())
    std::swap(e, f);
  std::vector<uint64_t> g;
  for (std::size_t i = 0; i < e.size(); ++i)
    g.push_back(e[i] ^ f[i]);
  std::vector<uint64_t> cBasis = complementBasis(Subspace(concat(u.basis(), w.basis())), k);

  Subspace chosen;
  takeIndependent(chosen, b.segment, std::size_t(segmentDims), concat(cBasis, g));
  // Beyond the bound: conflicts are unavoidable; the larger phase space's unpaired vectors
  // first, then anything.
  std::vector<uint64_t> unpairedF(f.begin() + static_cast<std::ptrdiff_t>(e.size()), f.end());
  takeIndependent(chosen, b.segment, std::size_t(segmentDims), concat(unpairedF, e, common, k));
  takeIndependent(chosen, b.bank, std::size_t(bankCount), concat(u.basis(), w.basis(), k));
  b.conflictFreeSegmentDims = n - std::max(u.dim(), w.dim());

  std::vector<uint64_t> offsetCols = concat(b.low, b.bank, b.segment);
  std::vector<uint64_t> allCols = concat(offsetCols, s.blockCols);
  Dim ins[] = {{dims::kOffset, static_cast<int>(offsetCols.size())},
               {dims::kBlock, s.src->getInDimSizeLog2(dims::kBlock)}};
  auto shared = LinearLayout::fromColumns(ins, s.src->outDims(), allCols);
  if (!shared.ok() || !shared->isInvertible())
    return makeError("internal: the constructed shared layout is not a basis of the tensor");
  b.shared = *shared;
  return b;
}

/// What the bank model counts for one side with the instruction asked for. An ldmatrix /
/// stmatrix that does not fit the layout is an Error (the candidate is then dropped).
Result<SideAccess> evaluate(const Setup& s, const LinearLayout& shared, SharedAccessKind kind,
                            SharedInstruction instruction, int plannedVectorLog2) {
  const LinearLayout& reg = s.layout(kind);
  const char* side = isStore(kind) ? "SRC" : "DST";
  SideAccess a;
  a.instruction = instruction;
  if (instruction == SharedInstruction::Vector) {
    auto map = offsetMap(reg, shared, {}, *s.model);
    if (!map.ok())
      return map.error().within(side);
    // The widest access the layout allows, or the width the construction planned when that is
    // cheaper: a bank bit that happens to be a register widens the access, and a wider
    // access has other phases (gfx942's ds_read_b128) the construction did not keep apart.
    auto count = predictSharedAccess(*map, *s.model, kind, {s.elementBits, -1});
    if (!count.ok())
      return count.error().within(side);
    a.count = *count;
    if ((1 << plannedVectorLog2) * s.elementBits < a.count.vectorBits) {
      auto planned = predictSharedAccess(*map, *s.model, kind, {s.elementBits, plannedVectorLog2});
      if (!planned.ok())
        return planned.error().within(side);
      if (planned->wavefronts < a.count.wavefronts)
        a.count = *planned;
    }
    a.name = sharedInstructionName(*s.model, kind, instruction, a.count.vectorBits, 0);
    return a;
  }
  auto plan = ldmatrix(reg, shared, {s.elementBits, instruction == SharedInstruction::MatrixTrans});
  if (!plan.ok())
    return plan.error().within(side);
  if (!plan->divides)
    return makeError(plan->reason, side);
  a.count = toAccessCount(*plan, reg.hasInDim(dims::kWarp) ? reg.getInDimSize(dims::kWarp) : 1);
  a.name = sharedInstructionName(*s.model, kind, instruction, a.count.vectorBits,
                                 plan->matricesPerInstruction);
  return a;
}

/// Lemma 9.5 for one side: with Q the first offset bits one access of this side moves whole
/// (its vector or word, or the 16-byte row of a matrix) and U its phase directions, any
/// l-dimensional Segment meets U + Q in at least l + dim(U + Q) - d dimensions, and each
/// doubles the wavefronts of every phase.
uint64_t leastWavefronts(const Setup& s, const Built& b, SharedAccessKind kind,
                         const SideAccess& a) {
  int q = 0;
  std::vector<uint64_t> phase;
  if (a.instruction == SharedInstruction::Vector) {
    int bytes = a.count.vectorBits / 8;
    q = log2Of(uint64_t(std::max(bytes, s.model->bankBytes) / s.elemBytes));
    phase = vectorPhase(s, kind, bytes);
  } else {
    q = log2Of(uint64_t(16 / s.elemBytes));
    phase = matrixPhase(s, kind, a.instruction == SharedInstruction::MatrixTrans);
  }
  std::vector<uint64_t> offsets = concat(b.low, b.bank, b.segment);
  Subspace uq(phase);
  for (int i = 0; i < q && i < static_cast<int>(offsets.size()); ++i)
    uq.insert(offsets[static_cast<std::size_t>(i)]);
  int excess = std::max(0, static_cast<int>(b.segment.size()) + uq.dim() - s.d);
  return a.count.idealWavefronts << excess;
}

/// One position of a 16-byte tile, as one side's instruction needs it.
struct Slot {
  enum Kind { Fixed, AnyRegister, RegisterColumn } kind = AnyRegister;
  uint64_t column = 0; ///< Fixed: this tensor direction
};

/// The 16-byte piece one lane moves (v4) or one matrix row holds, position by position.
std::vector<Slot> tileSlots(const Setup& s, SharedAccessKind kind, SharedInstruction instruction) {
  int tileBits = log2Of(uint64_t(16 / s.elemBytes));
  int wordBits = log2Of(uint64_t(4 / s.elemBytes));
  const std::vector<uint64_t>& lanes = s.lanes(kind);
  std::vector<Slot> slots;
  switch (instruction) {
  case SharedInstruction::Vector:
    slots.assign(static_cast<std::size_t>(tileBits), Slot{Slot::AnyRegister, 0});
    break;
  case SharedInstruction::Matrix:
    slots.assign(static_cast<std::size_t>(wordBits), Slot{Slot::RegisterColumn, 0});
    slots.push_back({Slot::Fixed, lanes[0]});
    slots.push_back({Slot::Fixed, lanes[1]});
    break;
  case SharedInstruction::MatrixTrans:
    for (int b = 2; b < 5; ++b)
      slots.push_back({Slot::Fixed, lanes[static_cast<std::size_t>(b)]});
    break;
  }
  return slots;
}

bool contains(const std::vector<uint64_t>& v, uint64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// The tensor directions that can fill one position for both sides.
std::vector<uint64_t> slotChoices(const Slot& a, const std::vector<uint64_t>& regsA, const Slot& b,
                                  const std::vector<uint64_t>& regsB) {
  auto fits = [](uint64_t col, const Slot& slot, const std::vector<uint64_t>& regs) {
    switch (slot.kind) {
    case Slot::Fixed:
      return col == slot.column;
    case Slot::RegisterColumn:
      return contains(regs, col);
    case Slot::AnyRegister:
      return Subspace(regs).contains(col);
    }
    return false;
  };
  std::vector<uint64_t> pool;
  if (a.kind == Slot::Fixed)
    pool = {a.column};
  else if (b.kind == Slot::Fixed)
    pool = {b.column};
  else if (a.kind == Slot::RegisterColumn)
    pool = regsA;
  else if (b.kind == Slot::RegisterColumn)
    pool = regsB;
  else
    pool = intersectionBasis(regsA, regsB);
  std::vector<uint64_t> out;
  for (uint64_t col : pool)
    if (col != 0 && fits(col, a, regsA) && fits(col, b, regsB))
      out.push_back(col);
  return out;
}

/// A 16-byte tile both sides' instructions accept, position by position, or nothing.
std::optional<std::vector<uint64_t>> commonTile(const Setup& s, SharedInstruction store,
                                                SharedInstruction load) {
  std::vector<Slot> a = tileSlots(s, SharedAccessKind::Store, store);
  std::vector<Slot> b = tileSlots(s, SharedAccessKind::Load, load);
  Subspace chosen;
  std::vector<uint64_t> tile;
  for (std::size_t i = 0; i < a.size(); ++i) {
    bool placed = false;
    for (uint64_t col : slotChoices(a[i], s.srcRegs, b[i], s.dstRegs))
      if (!placed && chosen.insert(col)) {
        tile.push_back(col);
        placed = true;
      }
    if (!placed)
      return std::nullopt;
  }
  return tile;
}

std::vector<CandidatePlan> candidatePlans(const Setup& s, const SwizzleSearch& search) {
  using enum SharedAccessKind;
  const SharedMemoryModel& model = *s.model;
  std::vector<CandidatePlan> plans;
  int wordBits = log2Of(uint64_t(std::max(model.bankBytes / s.elemBytes, 1)));

  // 1. The paper: Vec = common register directions, away from every lane and warp direction.
  std::vector<uint64_t> vec;
  {
    Subspace chosen(s.threads);
    for (uint64_t v : intersectionBasis(s.srcRegs, s.dstRegs))
      if (static_cast<int>(vec.size()) < s.maxVecLog2 && chosen.insert(v))
        vec.push_back(v);
  }
  int vecBytes = (1 << vec.size()) * s.elemBytes;
  CandidatePlan paper{"common vector",
                      vec,
                      std::max(0, wordBits - static_cast<int>(vec.size())),
                      SharedInstruction::Vector,
                      SharedInstruction::Vector,
                      vectorPhase(s, Store, vecBytes),
                      vectorPhase(s, Load, vecBytes),
                      static_cast<int>(vec.size()),
                      static_cast<int>(vec.size())};
  plans.push_back(paper);

  // 2. One side's vector wider: its further registers that are the other side's phase lanes.
  if (search.perSideVectors)
    for (SharedAccessKind wide : {Store, Load}) {
      SharedAccessKind narrow = isStore(wide) ? Load : Store;
      Subspace otherPhase(vectorPhase(s, narrow, vecBytes));
      Subspace otherRegs(s.regs(narrow));
      Subspace taken(vec);
      std::vector<uint64_t> extra;
      for (uint64_t r : s.regs(wide))
        if (static_cast<int>(vec.size() + extra.size()) < s.maxVecLog2 && otherPhase.contains(r) &&
            !otherRegs.contains(r) && taken.insert(r))
          extra.push_back(r);
      for (std::size_t k = 1; k <= extra.size(); ++k) {
        CandidatePlan p = paper;
        p.construction = std::string("wider ") + (isStore(wide) ? "SRC" : "DST") + " vector (+" +
                         std::to_string(k) + ")";
        p.lowBase.insert(p.lowBase.end(), extra.begin(),
                         extra.begin() + static_cast<std::ptrdiff_t>(k));
        p.withinWordTarget = std::max(0, wordBits - static_cast<int>(p.lowBase.size()));
        int wideBytes = (1 << p.lowBase.size()) * s.elemBytes;
        (isStore(wide) ? p.storePhase : p.loadPhase) = vectorPhase(s, wide, wideBytes);
        (isStore(wide) ? p.storeVectorLog2 : p.loadVectorLog2) = static_cast<int>(p.lowBase.size());
        plans.push_back(p);
      }
    }

  // 3. 16-byte tiles with stmatrix / ldmatrix (NVIDIA, elements of at most 32 bits).
  if (search.matrixInstructions && s.elemBytes <= 4 && model.maxAccessBytes >= 16) {
    auto options = [&](bool available) {
      std::vector<SharedInstruction> o = {SharedInstruction::Vector};
      if (available) {
        o.push_back(SharedInstruction::Matrix);
        if (s.elementBits == 16)
          o.push_back(SharedInstruction::MatrixTrans);
      }
      return o;
    };
    for (SharedInstruction st : options(model.stmatrix))
      for (SharedInstruction ld : options(model.ldmatrix)) {
        if (st == SharedInstruction::Vector && ld == SharedInstruction::Vector)
          continue; // the paper's candidate when the common vector is 16 bytes
        auto tile = commonTile(s, st, ld);
        if (!tile)
          continue;
        auto phase = [&](SharedAccessKind kind, SharedInstruction i) {
          return i == SharedInstruction::Vector
                     ? vectorPhase(s, kind, 16)
                     : matrixPhase(s, kind, i == SharedInstruction::MatrixTrans);
        };
        int tileLog2 = static_cast<int>(tile->size());
        plans.push_back({"16-byte tile", *tile, 0, st, ld, phase(Store, st), phase(Load, ld),
                         tileLog2, tileLog2});
      }
  }
  return plans;
}

} // namespace

std::string sharedInstructionName(const SharedMemoryModel& model, SharedAccessKind kind,
                                  SharedInstruction instruction, int vectorBits, int matrices) {
  if (instruction != SharedInstruction::Vector)
    return std::string(isStore(kind) ? "stmatrix" : "ldmatrix") + ".x" + std::to_string(matrices) +
           (instruction == SharedInstruction::MatrixTrans ? ".trans" : "") + ".b16";
  if (model.arch.starts_with("gfx"))
    return std::string(isStore(kind) ? "ds_write_b" : "ds_read_b") + std::to_string(vectorBits);
  std::string op = isStore(kind) ? "st.shared" : "ld.shared";
  if (vectorBits <= 32)
    return op + ".b" + std::to_string(vectorBits);
  return op + ".v" + std::to_string(vectorBits / 32) + ".b32";
}

Result<OptimalSwizzle> optimalSwizzle(const LinearLayout& srcIn, const LinearLayout& dstIn,
                                      int elementBits, const SharedMemoryModel& model,
                                      const SwizzleSearch& search) {
  auto plan = planConversion(srcIn, dstIn);
  if (!plan.ok())
    return plan.error();
  if (plan->kind == ConversionKind::InterCta)
    return makeError("DST needs elements SRC keeps in other CTAs: no shared-memory layout of one "
                     "CTA serves this conversion");
  if (elementBits < 8 || elementBits > 64 || !std::has_single_bit(unsigned(elementBits)))
    return makeError("element width " + std::to_string(elementBits) +
                     " bits is not one of 8, 16, 32, 64");
  Setup s;
  s.src = &plan->src;
  s.dst = &plan->dst;
  s.model = &model;
  s.elementBits = elementBits;
  s.elemBytes = elementBits / 8;
  const LinearLayout &src = plan->src, &dst = plan->dst;

  // The CTA tile: what one CTA's threads hold. It must be a complement of the block columns,
  // or shared memory would have to hold an element twice (or miss one).
  Subspace tile(concat(nonZeroColumnsOf(src, dims::kRegister), nonZeroColumnsOf(src, dims::kLane),
                       nonZeroColumnsOf(src, dims::kWarp)));
  s.blockCols = nonZeroColumnsOf(src, dims::kBlock);
  Subspace whole = tile;
  for (uint64_t c : s.blockCols)
    if (!whole.insert(c))
      return makeError("SRC broadcasts over CTAs (a block column repeats data): llcheck plans "
                       "shared memory for CTA tiles that partition the tensor");
  if (static_cast<int>(s.blockCols.size()) != src.getInDimSizeLog2(dims::kBlock))
    return makeError("SRC broadcasts over CTAs (a block basis is zero: two CTAs hold the same "
                     "elements): llcheck plans shared memory for CTA tiles that partition the "
                     "tensor");
  if (whole.dim() != src.getTotalOutDimSizeLog2())
    return makeError("SRC holds " + std::to_string(whole.size()) + " of the tensor's " +
                     std::to_string(src.getTotalOutDimSize()) +
                     " elements: a shared layout must cover every element");
  if (src.getInDimSize(dims::kLane) != static_cast<uint64_t>(model.warpSize))
    return contextError(ContextItem::Arch,
                        "the layouts have " + std::to_string(src.getInDimSize(dims::kLane)) +
                            " lanes per warp, but " + model.arch + " runs " +
                            std::to_string(model.warpSize) + "-lane warps (use " +
                            contextName(ContextItem::Arch) + ")");
  s.tile = tile.basis();
  s.d = tile.dim();
  s.subRowBits = std::min(log2Of(uint64_t(model.rowBytes() / s.elemBytes)), s.d);
  s.maxVecLog2 = log2Of(uint64_t(std::max(model.maxAccessBytes / s.elemBytes, 1)));
  s.srcRegs = nonZeroColumnsOf(src, dims::kRegister);
  s.dstRegs = nonZeroColumnsOf(dst, dims::kRegister);
  s.srcLanes = columnsOf(src, dims::kLane);
  s.dstLanes = columnsOf(dst, dims::kLane);
  s.threads = concat(nonZeroColumnsOf(src, dims::kLane), nonZeroColumnsOf(src, dims::kWarp),
                     nonZeroColumnsOf(dst, dims::kLane), nonZeroColumnsOf(dst, dims::kWarp));

  OptimalSwizzle out;
  std::optional<Built> best;
  std::optional<CandidatePlan> bestPlan;
  std::vector<CandidatePlan> plans = candidatePlans(s, search);
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const CandidatePlan& p = plans[i];
    // The paper's candidate always builds and counts; its errors are the caller's. Another
    // candidate that the layouts do not fit (ldmatrix not dividing) is dropped.
    bool required = i == 0;
    auto built = build(s, p);
    if (!built.ok()) {
      if (required)
        return built.error();
      continue;
    }
    // A wider vector or a tile takes the registers as they are, and a register column of several
    // tensor bits (AMD's MFMA layouts have them) becomes an offset column of three or more:
    // a bijection, but no memory layout (Def. 4.14), which is what llcheck may suggest (issue
    // 33: gfx942 attention's suggestion held the basis [16, 20]).
    // The paper's own candidate is kept for its bound even where it is none: its Segment takes
    // e ^ f of phase vectors projected along Low, which can hold three bits (gfx942's dot_op
    // of a 32x32 MFMA -> blocked, found by the law report.suggestion_is_verified). A memory
    // layout is preferred over any cost; checkedOptimalSwizzle shows none that is not.
    bool memory = isMemoryColumns(built->shared);
    if (!required && !memory)
      continue;
    auto store =
        evaluate(s, built->shared, SharedAccessKind::Store, p.storeInstruction, p.storeVectorLog2);
    auto load =
        evaluate(s, built->shared, SharedAccessKind::Load, p.loadInstruction, p.loadVectorLog2);
    if (!store.ok() || !load.ok()) {
      if (required)
        return (!store.ok() ? store : load).error();
      continue;
    }
    SwizzleCandidate c{p.construction,
                       store->name,
                       load->name,
                       store->count.wavefronts,
                       load->count.wavefronts,
                       store->count.instructions + load->count.instructions};
    bool better = !best.has_value() || (memory && !out.memoryLayout);
    if (!better && memory == out.memoryLayout) {
      uint64_t total = c.storeWavefronts + c.loadWavefronts;
      uint64_t bestTotal = out.store.count.wavefronts + out.load.count.wavefronts;
      better = total < bestTotal ||
               (total == bestTotal &&
                c.instructions < out.store.count.instructions + out.load.count.instructions);
    }
    out.candidates.push_back(c);
    if (better) {
      out.memoryLayout = memory;
      best = *built;
      bestPlan = p;
      out.store = *store;
      out.load = *load;
    }
    // Nothing beats both sides at the widest access without a conflict: every wavefront then
    // serves a whole row of banks.
    auto widest = [&](const SideAccess& a) {
      return a.count.bankConflicts == 0 && a.count.vectorBits >= 8 * model.maxAccessBytes;
    };
    if (out.memoryLayout && widest(out.store) && widest(out.load))
      break;
  }

  const Built& b = *best;
  out.shared = b.shared;
  out.construction = bestPlan->construction;
  out.vectorLog2 = static_cast<int>(bestPlan->lowBase.size());
  out.withinWordBits = b.withinWord;
  out.vec = b.low;
  out.bank = b.bank;
  out.segment = b.segment;
  out.storePhase = bestPlan->storePhase;
  out.loadPhase = bestPlan->loadPhase;
  out.bound.segmentDims = static_cast<int>(b.segment.size());
  out.bound.conflictFreeSegmentDims = b.conflictFreeSegmentDims;
  out.bound.storeWavefronts = leastWavefronts(s, b, SharedAccessKind::Store, out.store);
  out.bound.loadWavefronts = leastWavefronts(s, b, SharedAccessKind::Load, out.load);
  return out;
}

std::string refuteSuggestion(const OptimalSwizzle& s, const LinearLayout& src,
                             const LinearLayout& dst, int elementBits,
                             const SharedMemoryModel& model) {
  // The algebra decides; enumeration (up to 2^16 offsets: every shared tile a kernel holds)
  // is the cross-check `llcheck verify` runs too.
  VerifyOptions options;
  options.maxEnumerationBits = 16;
  auto report = verify(s.shared, options);
  if (!report.ok())
    return "its shared layout cannot be verified: " + report.error().str();
  if (report->kind != LayoutKind::Memory)
    return "its shared layout is not a memory layout (inputs other than offset and block)";
  for (Property p : {Property::Invertible, Property::Memory}) {
    const PropertyResult* r = report->find(p);
    if (!r || r->status() != "yes")
      return std::string("its shared layout is not ") +
             (p == Property::Memory ? "a memory layout (Def. 4.14)" : "invertible") +
             (r && !r->detail.empty() ? ": " + r->detail : std::string());
  }
  if (!report->disagreements.empty())
    return "verifying its shared layout, the algebra and enumeration disagree: " +
           report->disagreements.front();
  for (SharedAccessKind kind : {SharedAccessKind::Store, SharedAccessKind::Load}) {
    bool store = isStore(kind);
    const LinearLayout& reg = store ? src : dst;
    const SideAccess& stated = store ? s.store : s.load;
    const char* side = store ? "the store" : "the load";
    AccessCount count;
    if (stated.instruction == SharedInstruction::Vector) {
      auto map = offsetMap(reg, s.shared, {}, model);
      if (!map.ok())
        return std::string(side) + ": its shared layout is not a layout of " +
               (store ? "SRC" : "DST") + "'s tensor: " + map.error().str();
      if (stated.count.vectorBits < elementBits || stated.count.vectorBits % elementBits != 0)
        return std::string(side) + " names " + std::to_string(stated.count.vectorBits) +
               "-bit accesses of " + std::to_string(elementBits) + "-bit elements";
      auto c = predictSharedAccess(
          *map, model, kind,
          {elementBits, log2Of(static_cast<uint64_t>(stated.count.vectorBits / elementBits))});
      if (!c.ok())
        return std::string(side) + " cannot be counted: " + c.error().str();
      count = *c;
    } else {
      auto plan = ldmatrix(reg, s.shared,
                           {elementBits, stated.instruction == SharedInstruction::MatrixTrans});
      if (!plan.ok() || !plan->divides)
        return std::string(side) + ": " + stated.name + " does not fit its shared layout" +
               (plan.ok() ? ": " + plan->reason : ": " + plan.error().str());
      count = toAccessCount(*plan, reg.hasInDim(dims::kWarp) ? reg.getInDimSize(dims::kWarp) : 1);
    }
    if (count.vectorBits != stated.count.vectorBits ||
        count.instructions != stated.count.instructions ||
        count.wavefronts != stated.count.wavefronts)
      return std::string(side) + " is stated as " + std::to_string(stated.count.instructions) +
             " instructions of " + std::to_string(stated.count.vectorBits) + " bits, " +
             std::to_string(stated.count.wavefronts) + " wavefronts; counted again, " +
             std::to_string(count.instructions) + " of " + std::to_string(count.vectorBits) +
             " bits, " + std::to_string(count.wavefronts) + " wavefronts";
  }
  return "";
}

std::string whyNotShown(const OptimalSwizzle& s, const LinearLayout& src, const LinearLayout& dst,
                        int elementBits, const SharedMemoryModel& model) {
  if (!s.memoryLayout)
    return "no layout the search builds for this conversion is a memory layout (Def. 4.14: "
           "every offset column one or two tensor bits; the paper's construction here is a "
           "bijection with a column of three or more), so llcheck suggests none";
  if (std::string why = refuteSuggestion(s, src, dst, elementBits, model); !why.empty())
    return "a bug in llcheck: the shared layout its search built for this conversion fails "
           "llcheck's own check (" +
           why + "), so it is not suggested; please report it with these layouts";
  return "";
}

Result<OptimalSwizzle> checkedOptimalSwizzle(const LinearLayout& src, const LinearLayout& dst,
                                             int elementBits, const SharedMemoryModel& model) {
  auto found = optimalSwizzle(src, dst, elementBits, model);
  if (!found.ok())
    return found;
  if (std::string why = whyNotShown(*found, src, dst, elementBits, model); !why.empty())
    return makeError(why);
  return found;
}

nlohmann::json toJson(const OptimalSwizzle& s, int elementBits) {
  // Each column as one value per tensor dim, like a basis in the layout JSON.
  auto hex = [&](const std::vector<uint64_t>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (uint64_t x : v) {
      nlohmann::json coords = nlohmann::json::array();
      for (const auto& [dim, value] : s.shared.unpackOut(x))
        coords.push_back(value);
      a.push_back(coords);
    }
    return a;
  };
  auto side = [](const SideAccess& a) {
    nlohmann::json j = toJson(a.count);
    j["instruction"] = a.name;
    return j;
  };
  nlohmann::json candidates = nlohmann::json::array();
  for (const SwizzleCandidate& c : s.candidates)
    candidates.push_back({{"construction", c.construction},
                          {"store", c.store},
                          {"load", c.load},
                          {"store_wavefronts", c.storeWavefronts},
                          {"load_wavefronts", c.loadWavefronts},
                          {"instructions", c.instructions}});
  return {{"shared", toJson(s.shared)},
          {"construction", s.construction},
          {"vector_bits", (1 << s.vectorLog2) * elementBits},
          {"vec", hex(s.vec)},
          {"bank", hex(s.bank)},
          {"segment", hex(s.segment)},
          {"lower_bound",
           {{"lemma", "9.5"},
            {"segment_dims", s.bound.segmentDims},
            {"conflict_free_segment_dims", s.bound.conflictFreeSegmentDims},
            {"store_wavefronts", s.bound.storeWavefronts},
            {"load_wavefronts", s.bound.loadWavefronts},
            {"attained", s.bound.attainedBy(s.store.count, s.load.count)}}},
          {"store", side(s.store)},
          {"load", side(s.load)},
          {"candidates", candidates}};
}

} // namespace llcheck
