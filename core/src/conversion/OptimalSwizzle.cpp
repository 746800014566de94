// optimalSwizzle: the construction of the paper's appendix 9.2 (see OptimalSwizzle.h).
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "Columns.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/ConversionPlan.h"

#include <algorithm>
#include <bit>

namespace llcheck {

using conversion::nonZeroColumnsOf;

namespace {

std::vector<uint64_t> phaseVectors(const LinearLayout& l, const std::vector<uint64_t>& lanes) {
  std::vector<uint64_t> out;
  for (uint64_t lane : lanes)
    out.push_back(xorOf(l.inDimColumns(dims::kLane), lane));
  return out;
}

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

} // namespace

Result<OptimalSwizzle> optimalSwizzle(const LinearLayout& srcIn, const LinearLayout& dstIn,
                                      int elementBits, const SharedMemoryModel& model) {
  auto plan = planConversion(srcIn, dstIn);
  if (!plan.ok())
    return plan.error();
  if (plan->kind == ConversionKind::InterCta)
    return makeError("DST needs elements SRC keeps in other CTAs: no shared-memory layout of one "
                     "CTA serves this conversion");
  if (elementBits < 8 || elementBits > 64 || !std::has_single_bit(unsigned(elementBits)))
    return makeError("element width " + std::to_string(elementBits) +
                     " bits is not one of 8, 16, 32, 64");
  const LinearLayout &src = plan->src, &dst = plan->dst;

  // The CTA tile: what one CTA's threads hold. It must be a complement of the block columns,
  // or shared memory would have to hold an element twice (or miss one).
  Subspace tile(concat(nonZeroColumnsOf(src, dims::kRegister), nonZeroColumnsOf(src, dims::kLane),
                       nonZeroColumnsOf(src, dims::kWarp)));
  std::vector<uint64_t> blockCols = nonZeroColumnsOf(src, dims::kBlock);
  Subspace whole = tile;
  for (uint64_t c : blockCols)
    if (!whole.insert(c))
      return makeError("SRC broadcasts over CTAs (a block column repeats data): llcheck plans "
                       "shared memory for CTA tiles that partition the tensor");
  if (whole.dim() != src.getTotalOutDimSizeLog2() ||
      static_cast<int>(blockCols.size()) != src.getInDimSizeLog2(dims::kBlock))
    return makeError("SRC holds " + std::to_string(whole.size()) + " of the tensor's " +
                     std::to_string(src.getTotalOutDimSize()) +
                     " elements: a shared layout must cover every element");

  // Vec: common register directions, away from every lane and warp direction.
  Subspace threads(concat(nonZeroColumnsOf(src, dims::kLane), nonZeroColumnsOf(src, dims::kWarp),
                          nonZeroColumnsOf(dst, dims::kLane), nonZeroColumnsOf(dst, dims::kWarp)));
  int elemBytes = elementBits / 8;
  std::size_t maxVec = static_cast<std::size_t>(model.maxAccessBytes / elemBytes);
  OptimalSwizzle out;
  {
    Subspace chosen = threads;
    for (uint64_t v : intersectionBasis(nonZeroColumnsOf(src, dims::kRegister),
                                        nonZeroColumnsOf(dst, dims::kRegister)))
      if ((std::size_t{1} << out.vec.size()) < maxVec && chosen.insert(v))
        out.vec.push_back(v);
  }
  out.vectorLog2 = static_cast<int>(out.vec.size());

  // K: a complement of Vec in the tile that contains every lane and warp direction, so that
  // no thread moves a vector element. Bank and Segment are chosen inside K.
  Subspace vecAndThreads = threads;
  for (uint64_t v : out.vec)
    vecAndThreads.insert(v);
  std::vector<uint64_t> k = concat(threads.basis(), complementBasis(vecAndThreads, tile.basis()));
  int dimK = static_cast<int>(k.size());

  int accessBytes = (1 << out.vectorLog2) * elemBytes;
  std::vector<uint64_t> srcPhase =
      phaseVectors(src, model.phaseLanes(accessBytes, SharedAccessKind::Store));
  std::vector<uint64_t> dstPhase =
      phaseVectors(dst, model.phaseLanes(accessBytes, SharedAccessKind::Load));
  int bankBits = std::min(log2Of(uint64_t(model.rowBytes() / accessBytes)), dimK);
  int withinWord =
      accessBytes < model.bankBytes ? log2Of(uint64_t(model.bankBytes / accessBytes)) : 0;
  withinWord = std::min(withinWord, bankBits);
  int segmentDims = dimK - bankBits;

  // Within-word bits: lanes that differ only there share a word, so directions both layouts'
  // phases move along are the best use of them.
  std::vector<uint64_t> withinWordCols;
  Subspace ww;
  takeIndependent(ww, withinWordCols, std::size_t(withinWord),
                  concat(intersectionBasis(srcPhase, dstPhase), srcPhase, dstPhase, k));

  // Lemma 9.5 in K modulo the within-word bits.
  Subspace u, w;
  for (uint64_t v : srcPhase)
    u.insert(ww.reduce(v));
  for (uint64_t v : dstPhase)
    w.insert(ww.reduce(v));
  std::vector<uint64_t> common = intersectionBasis(u.basis(), w.basis());
  std::vector<uint64_t> e = complementBasis(Subspace(common), u.basis());
  std::vector<uint64_t> f = complementBasis(Subspace(common), w.basis());
  bool swapped = e.size() > f.size();
  if (swapped)
    std::swap(e, f);
  std::vector<uint64_t> g;
  for (std::size_t i = 0; i < e.size(); ++i)
    g.push_back(e[i] ^ f[i]);
  Subspace phases = ww;
  for (uint64_t v : concat(u.basis(), w.basis()))
    phases.insert(v);
  std::vector<uint64_t> c = complementBasis(phases, k);

  Subspace chosen = ww;
  takeIndependent(chosen, out.segment, std::size_t(segmentDims), concat(c, g));
  // Beyond the bound: conflicts are unavoidable; the larger phase space's unpaired vectors
  // first, then anything.
  std::vector<uint64_t> unpairedF(f.begin() + static_cast<std::ptrdiff_t>(e.size()), f.end());
  takeIndependent(chosen, out.segment, std::size_t(segmentDims), concat(unpairedF, e, common, k));

  std::vector<uint64_t> bankRest;
  takeIndependent(chosen, bankRest, std::size_t(bankBits - withinWord),
                  concat(srcPhase, dstPhase, k));
  out.bank = concat(withinWordCols, bankRest);
  out.withinWordBits = withinWord;

  std::vector<uint64_t> offsetCols = concat(out.vec, out.bank, out.segment);
  std::vector<uint64_t> allCols = concat(offsetCols, nonZeroColumnsOf(src, dims::kBlock));
  Dim ins[] = {{dims::kOffset, static_cast<int>(offsetCols.size())},
               {dims::kBlock, src.getInDimSizeLog2(dims::kBlock)}};
  // nonZeroColumnsOf drops zero block columns; there are none here (checked above).
  auto shared = LinearLayout::fromColumns(ins, src.outDims(), allCols);
  if (!shared.ok() || !shared->isInvertible())
    return makeError("internal: the constructed shared layout is not a basis of the tensor");
  out.shared = *shared;

  // What the bank model says of it, both sides at the common vector width.
  SharedAccessOptions options{elementBits, out.vectorLog2};
  auto srcMap = offsetMap(src, out.shared, {}, model);
  if (!srcMap.ok())
    return srcMap.error().within("SRC");
  auto dstMap = offsetMap(dst, out.shared, {}, model);
  if (!dstMap.ok())
    return dstMap.error().within("DST");
  auto store = predictSharedAccess(*srcMap, model, SharedAccessKind::Store, options);
  auto load = predictSharedAccess(*dstMap, model, SharedAccessKind::Load, options);
  if (!store.ok())
    return store.error();
  if (!load.ok())
    return load.error();
  out.store = *store;
  out.load = *load;

  // Lemma 9.5's bound, and what it implies per side at this vector width.
  int n = dimK - withinWord;
  int dimU = u.dim(), dimW = w.dim();
  out.bound.segmentDims = segmentDims;
  out.bound.conflictFreeSegmentDims = n - std::max(dimU, dimW);
  int excessStore = std::max(0, segmentDims + dimU - n);
  int excessLoad = std::max(0, segmentDims + dimW - n);
  out.bound.storeWavefronts =
      (out.store.instructions * static_cast<uint64_t>(out.store.phasesPerInstruction))
      << excessStore;
  out.bound.loadWavefronts =
      (out.load.instructions * static_cast<uint64_t>(out.load.phasesPerInstruction)) << excessLoad;
  return out;
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
  return {{"shared", toJson(s.shared)},
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
            {"attained", s.bound.attainedBy(s.store, s.load)}}},
          {"store", toJson(s.store)},
          {"load", toJson(s.load)}};
}

} // namespace llcheck
