// Triton's scratch layout for convert_layout through shared memory, and the two sides lowered
// into it (TritonLowering.h, "convert_layout through shared memory").
//
// Everything works on the flattened tensor (dim0 in the lowest bits, as Triton's flattenOuts):
// a layout is its register, lane and warp columns, each a tensor index. The scratch layout is a
// basis of the tensor split into vector | bank | segment (| reps), offset bits in that order.
// The construction follows Triton's GenericSwizzling step by step, because its choices (which
// bases go where, in which order) decide the instructions and the wavefronts; the counting is
// llcheck's bank model.
#include "llcheck/core/conversion/TritonLowering.h"

#include "TritonLoweringDetail.h"
#include "llcheck/core/Encodings.h"
#include "llcheck/core/Subspace.h"

#include <algorithm>
#include <bit>
#include <set>

namespace llcheck {

namespace {

using Bases = std::vector<uint64_t>;

struct Flat {
  Bases registers, lanes, warps;
};

bool contains(const Bases& v, uint64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool allPowersOfTwo(const Bases& v) {
  return std::all_of(v.begin(), v.end(), [](uint64_t x) { return std::has_single_bit(x); });
}

/// Reduced row echelon form with each row's lowest set bit as its pivot (f2reduce's form, as
/// Triton uses it): the rows, and the pivot columns.
std::vector<uint64_t> lowPivotEchelon(Bases rows) {
  std::vector<uint64_t> out;
  for (uint64_t v : rows) {
    for (uint64_t r : out)
      if (v & (r & -r))
        v ^= r;
    if (v == 0)
      continue;
    uint64_t pivot = v & -v;
    for (uint64_t& r : out)
      if (r & pivot)
        r ^= v;
    out.push_back(v);
  }
  return out;
}

/// Triton's nullspaceBasis: for each free column f (not a pivot), e_f plus the pivots of the
/// rows that have bit f.
Bases nullspaceBasis(const Bases& vectors, int dim) {
  std::vector<uint64_t> rows = lowPivotEchelon(vectors);
  uint64_t pivots = 0;
  for (uint64_t r : rows)
    pivots |= r & -r;
  Bases basis;
  for (int f = 0; f < dim; ++f) {
    uint64_t bit = uint64_t{1} << f;
    if (pivots & bit)
      continue;
    uint64_t v = bit;
    for (uint64_t r : rows)
      if (r & bit)
        v ^= r & -r;
    basis.push_back(v);
  }
  return basis;
}

/// Triton's intersectionBasis: with powers of two, b1's vectors (in b1's order) found in b2;
/// otherwise the nullspace of the two nullspaces.
Bases intersectionInOrder(const Bases& b1, const Bases& b2, int dim) {
  if (allPowersOfTwo(b1) && allPowersOfTwo(b2)) {
    Bases out;
    for (uint64_t b : b1)
      if (b != 0 && contains(b2, b))
        out.push_back(b);
    return out;
  }
  Bases joint = nullspaceBasis(b1, dim);
  Bases n2 = nullspaceBasis(b2, dim);
  joint.insert(joint.end(), n2.begin(), n2.end());
  return nullspaceBasis(joint, dim);
}

/// Unit vectors of the columns that are not pivots of span(basis): a complement.
Bases complementUnits(const Bases& basis, int dim) {
  uint64_t pivots = 0;
  for (uint64_t r : lowPivotEchelon(basis))
    pivots |= r & -r;
  Bases out;
  for (int i = 0; i < dim; ++i)
    if (!(pivots & (uint64_t{1} << i)))
      out.push_back(uint64_t{1} << i);
  return out;
}

Bases nonZero(const Bases& v) {
  Bases out;
  for (uint64_t x : v)
    if (x != 0)
      out.push_back(x);
  return out;
}

Bases without(const Bases& v, const Bases& remove) {
  Bases out;
  for (uint64_t x : v)
    if (!contains(remove, x))
      out.push_back(x);
  return out;
}

/// The segment: unit vectors neither side's bank phase moves, then pairs e_i ^ f_i of the
/// vectors only one side moves (conflict-free for both), then, where that is not enough, the
/// smaller side's own vectors (its conflicts) and the other side's.
Bases computeSegment(const Bases& bankSrc, const Bases& bankDst, int dim, int length) {
  std::set<uint64_t> setSrc(bankSrc.begin(), bankSrc.end());
  std::set<uint64_t> setDst(bankDst.begin(), bankDst.end());
  setSrc.erase(0);
  setDst.erase(0);
  Bases segment;
  for (int b = 0; b < dim; ++b) {
    uint64_t u = uint64_t{1} << b;
    if (!setSrc.count(u) && !setDst.count(u))
      segment.push_back(u);
  }
  auto len = static_cast<std::size_t>(length);
  if (segment.size() >= len) {
    segment.resize(len);
    return segment;
  }
  Bases a, b;
  for (uint64_t v : setSrc)
    if (!setDst.count(v))
      a.push_back(v);
  for (uint64_t v : setDst)
    if (!setSrc.count(v))
      b.push_back(v);
  if (a.size() > b.size())
    std::swap(a, b);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  int conflicts =
      std::min(std::max(0, length - static_cast<int>(a.size()) - static_cast<int>(segment.size())),
               static_cast<int>(a.size()));
  for (std::size_t i = static_cast<std::size_t>(conflicts); i < a.size(); ++i)
    segment.push_back(a[i] ^ b[i]);
  segment.insert(segment.end(), a.begin(), a.begin() + conflicts);
  segment.insert(segment.end(), b.begin(), b.begin() + conflicts);
  if (segment.size() > len)
    segment.resize(len);
  return segment;
}

struct Scratch {
  Bases vector, bank, segment, reps;
};

/// vector | bank | segment for the given vector and the two sides' phase tiles; segment bases
/// that are registers on both sides become reps (but the first `leaveReps`, which .x2/.x4
/// matrix instructions need).
Scratch buildScratch(const Flat& src, const Flat& dst, int bitwidth, const Bases& vbasis,
                     const Bases& tileSrc, const Bases& tileDst, int dim, int leaveReps) {
  Bases bankSrc = vbasis, bankDst = vbasis;
  bankSrc.insert(bankSrc.end(), tileSrc.begin(), tileSrc.end());
  bankDst.insert(bankDst.end(), tileDst.begin(), tileDst.end());
  int vlen = static_cast<int>(vbasis.size());
  // One row of banks (32 x 32 bits) holds 1024 / (vector bits) vectors.
  int lenBank = std::min(std::countr_zero(static_cast<unsigned>(1024 / ((1 << vlen) * bitwidth))),
                         dim - vlen);
  int lenSegment = dim - lenBank - vlen;
  Bases segment = computeSegment(bankSrc, bankDst, dim, lenSegment);
  Bases both = vbasis;
  both.insert(both.end(), segment.begin(), segment.end());
  Scratch s;
  s.vector = vbasis;
  s.bank = complementUnits(both, dim);
  for (uint64_t x : segment) {
    if (contains(src.registers, x) && contains(dst.registers, x) && !contains(s.reps, x) &&
        !contains(s.segment, x)) {
      if (leaveReps > 0) {
        --leaveReps;
        s.segment.push_back(x);
      } else {
        s.reps.push_back(x);
      }
    } else if (!contains(s.segment, x) && !contains(s.reps, x)) {
      s.segment.push_back(x);
    }
  }
  return s;
}

/// Triton's count of a candidate: 2^dim(segment ∩ tile) - 1 per side, added.
int tritonConflicts(const Scratch& s, const Bases& tileSrc, const Bases& tileDst) {
  auto side = [&](const Bases& tile) {
    int common = Subspace(s.segment).dim() + Subspace(nonZero(tile)).dim();
    Bases all = s.segment;
    all.insert(all.end(), tile.begin(), tile.end());
    common -= Subspace(all).dim();
    return (1 << common) - 1;
  };
  return side(tileSrc) + side(tileDst);
}

/// The registers the two layouts share, at most 16 bytes; under a 32-bit word, filled with
/// registers of one side that are warps of the other, then with warps (Triton's
/// getVecBasisLdSt). `srcFillsBank` says which side's registers filled it, if any.
Bases ldStVector(const Flat& src, const Flat& dst, int bitwidth, int dim,
                 std::optional<bool>& srcFillsBank) {
  Bases v = intersectionInOrder(src.registers, dst.registers, dim);
  auto maxVec = static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(128 / bitwidth)));
  if (v.size() > maxVec)
    v.resize(maxVec);
  srcFillsBank.reset();
  if ((1 << v.size()) * bitwidth < 32) {
    auto perBank = static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(32 / bitwidth)));
    Bases warpSrc = nonZero(src.warps), warpDst = nonZero(dst.warps);
    Bases srcWarp = intersectionInOrder(without(src.registers, v), warpDst, dim);
    Bases dstWarp = intersectionInOrder(without(dst.registers, v), warpSrc, dim);
    Bases largest;
    if (srcWarp.size() == dstWarp.size() && !srcWarp.empty()) {
      bool src1 = *std::min_element(srcWarp.begin(), srcWarp.end()) <
                  *std::min_element(dstWarp.begin(), dstWarp.end());
      largest = src1 ? srcWarp : dstWarp;
      srcFillsBank = src1;
    } else {
      srcFillsBank = srcWarp.size() > dstWarp.size();
      largest = *srcFillsBank ? srcWarp : dstWarp;
    }
    v.insert(v.end(), largest.begin(), largest.end());
    if (v.size() < perBank) {
      Bases ww = intersectionInOrder(warpSrc, warpDst, dim);
      v.insert(v.end(), ww.begin(), ww.end());
    }
    for (std::size_t i = 0; v.size() < perBank && (i < warpSrc.size() || i < warpDst.size()); ++i) {
      if (i < warpSrc.size() && !contains(v, warpSrc[i]))
        v.push_back(warpSrc[i]);
      if (v.size() < perBank && i < warpDst.size() && !contains(v, warpDst[i]))
        v.push_back(warpDst[i]);
    }
    if (v.size() > perBank)
      v.resize(perBank);
  }
  return v;
}

/// Triton's plain ld/st scratch layout (no 16-byte tile pairs): the vector above, each side's
/// lanes of one phase as its tile, and, under 128-bit accesses, the bank bases that are a
/// side's registers moved first (that side then vectorises wider).
Scratch ldStScratch(const Flat& src, const Flat& dst, int bitwidth, int dim) {
  std::optional<bool> srcFills;
  Bases v = ldStVector(src, dst, bitwidth, dim, srcFills);
  int vecBits = (1 << v.size()) * bitwidth;
  int log2Vec = std::countr_zero(static_cast<unsigned>(std::max(1, vecBits / 32)));
  auto drop = [log2Vec](const Bases& lanes) {
    Bases t = lanes;
    t.resize(t.size() -
             static_cast<std::size_t>(std::min<int>(log2Vec, static_cast<int>(t.size()))));
    return t;
  };
  Scratch s = buildScratch(src, dst, bitwidth, v, drop(src.lanes), drop(dst.lanes), dim, 0);
  if (log2Vec < 2) {
    std::vector<std::size_t> inSrc, inDst;
    for (std::size_t i = 0; i < s.bank.size(); ++i) {
      if (contains(src.registers, s.bank[i]))
        inSrc.push_back(i);
      if (contains(dst.registers, s.bank[i]))
        inDst.push_back(i);
    }
    std::vector<std::size_t> order;
    if (srcFills.has_value())
      order = *srcFills ? inSrc : inDst;
    else
      order = inSrc.size() > inDst.size() ? inSrc : inDst;
    for (std::size_t i = 0; i < s.bank.size(); ++i)
      if (std::find(order.begin(), order.end(), i) == order.end())
        order.push_back(i);
    Bases bank;
    for (std::size_t i : order)
      bank.push_back(s.bank[i]);
    s.bank = bank;
  }
  return s;
}

/// The instructions each side may use: ld/st.shared (lanes 1, 2, 4 of a phase), ldmatrix /
/// stmatrix (lanes 1, 2 along the 16-byte row, 4, 8, 16 pick rows) and their .trans forms
/// (lanes 4, 8, 16 along the row, 1, 2 pick rows).
struct Tile {
  int kind = 0; ///< 0 ld/st.shared, 1 matrix, 2 matrix .trans
  std::vector<int> laneContig, laneAddr;
};

std::vector<Tile> tilesFor(bool matrix, int bitwidth) {
  std::vector<Tile> t = {{0, {}, {0, 1, 2}}};
  if (matrix && bitwidth <= 32)
    t.push_back({1, {0, 1}, {2, 3, 4}});
  if (matrix && bitwidth == 16)
    t.push_back({2, {2, 3, 4}, {0, 1}});
  return t;
}

/// Where `b`'s lane `laneB` lies in `a`'s hardware: a's register and lane bits of the
/// preimage (free variables 0), or nullopt when a does not hold it.
struct Preimage {
  uint64_t registers = 0, lanes = 0;
};
std::optional<Preimage> preimage(const Flat& a, uint64_t t) {
  XorBasis basis;
  std::vector<std::pair<int, int>> where; // (0 reg / 1 lane / 2 warp, index)
  auto add = [&](const Bases& cols, int kind) {
    for (std::size_t i = 0; i < cols.size(); ++i)
      if (cols[i] != 0 && basis.insert(cols[i], uint64_t{1} << where.size()))
        where.emplace_back(kind, static_cast<int>(i));
      else if (cols[i] != 0)
        where.emplace_back(-1, -1);
  };
  add(a.registers, 0);
  add(a.lanes, 1);
  add(a.warps, 2);
  auto combo = basis.solve(t);
  if (!combo)
    return std::nullopt;
  Preimage p;
  for (std::size_t j = 0; j < where.size(); ++j)
    if ((*combo >> j) & 1) {
      if (where[j].first == 0)
        p.registers |= uint64_t{1} << where[j].second;
      else if (where[j].first == 1)
        p.lanes |= uint64_t{1} << where[j].second;
    }
  return p;
}

/// The 16-byte tile both instructions can share (Triton's optimalSwizzlingTile): nRegB
/// common registers, then b's contiguous lanes, which must be a's registers (the first
/// nRegA - nRegB) or a's contiguous lanes.
std::optional<Bases> sharedTile(const Flat& a, const Flat& b, int nRegA, int nRegB,
                                const std::vector<int>& laneA, const std::vector<int>& laneB,
                                int dim) {
  if (nRegA < nRegB)
    return sharedTile(b, a, nRegB, nRegA, laneB, laneA, dim);
  Bases v = intersectionInOrder(a.registers, b.registers, dim);
  if (v.size() < static_cast<std::size_t>(nRegB))
    return std::nullopt;
  v.resize(static_cast<std::size_t>(nRegB));
  for (int i : laneA)
    if (a.lanes[static_cast<std::size_t>(i)] == 0)
      return std::nullopt;
  for (int i : laneB)
    if (b.lanes[static_cast<std::size_t>(i)] == 0)
      return std::nullopt;
  for (int i = 0; i < nRegA - nRegB; ++i) {
    auto p = preimage(a, b.lanes[static_cast<std::size_t>(laneB[static_cast<std::size_t>(i)])]);
    if (!p || p->registers == 0)
      return std::nullopt;
  }
  std::size_t skip = laneB.size() - laneA.size();
  for (std::size_t k = 0; k < laneA.size(); ++k) {
    auto p = preimage(a, b.lanes[static_cast<std::size_t>(laneB[skip + k])]);
    if (!p || p->lanes != (uint64_t{1} << laneA[k]))
      return std::nullopt;
  }
  for (int i : laneB)
    v.push_back(b.lanes[static_cast<std::size_t>(i)]);
  return v;
}

/// A side's phase tile for an instruction: 3 - |laneAddr| registers outside the vector, then
/// the lanes that give addresses.
std::optional<Bases> phaseTile(const Tile& t, const Flat& f, const Bases& vbasis) {
  Bases tile;
  std::size_t need = 3 - t.laneAddr.size();
  for (uint64_t r : f.registers) {
    if (need == 0)
      break;
    if (!contains(vbasis, r)) {
      tile.push_back(r);
      --need;
    }
  }
  if (need > 0)
    return std::nullopt;
  for (int i : t.laneAddr)
    tile.push_back(f.lanes[static_cast<std::size_t>(i)]);
  return tile;
}

Flat flatten(const LinearLayout& l) {
  Flat f;
  for (int i = 0; i < l.getNumInDims(); ++i) {
    const Dim& d = l.inDims()[static_cast<std::size_t>(i)];
    Bases* target = d.name == dims::kRegister ? &f.registers
                    : d.name == dims::kLane   ? &f.lanes
                    : d.name == dims::kWarp   ? &f.warps
                                              : nullptr;
    if (target == nullptr)
      continue;
    for (int b = 0; b < d.sizeLog2; ++b)
      target->push_back(l.columns()[static_cast<std::size_t>(l.inDimOffset(i) + b)]);
  }
  return f;
}

/// Coordinates of the flattened tensor index t in the scratch basis, as an offset (vector
/// bits lowest, then bank, then segment) and a rep index.
struct Coordinates {
  XorBasis basis;
  int offsetBits = 0;
  explicit Coordinates(const Scratch& s) {
    uint64_t bit = 1;
    for (const Bases* part : {&s.vector, &s.bank, &s.segment, &s.reps})
      for (uint64_t x : *part) {
        basis.insert(x, bit);
        bit <<= 1;
      }
    offsetBits = static_cast<int>(s.vector.size() + s.bank.size() + s.segment.size());
  }
  [[nodiscard]] uint64_t offset(uint64_t t) const {
    return basis.solve(t).value_or(0) & detail::lowMask(offsetBits);
  }
};

/// One side's map into one round of the scratch layout: its registers without the reps (in
/// order), its lanes and warps, as offsets.
detail::CvtMap sideMap(const Flat& f, const Scratch& s, const Coordinates& c, int dropped) {
  detail::CvtMap m;
  Bases reps = s.reps;
  std::vector<bool> used(f.registers.size(), false);
  for (uint64_t r : reps)
    for (std::size_t j = 0; j < f.registers.size(); ++j)
      if (!used[j] && f.registers[j] == r) {
        used[j] = true;
        break;
      }
  for (std::size_t j = 0; j < f.registers.size(); ++j)
    if (!used[j])
      m.registers.push_back(c.offset(f.registers[j]));
  for (uint64_t l : f.lanes)
    m.lanes.push_back(c.offset(l));
  for (uint64_t w : f.warps)
    m.warps.push_back(c.offset(w));
  m.offsetBits = c.offsetBits;
  m.droppedRegisters = dropped;
  return m;
}

Result<TritonAccess> lowerConvertSide(const detail::CvtMap& m, int tileKind, SharedAccessKind kind,
                                      const SharedMemoryModel& model,
                                      const TritonLoweringOptions& options, uint64_t rounds) {
  if (tileKind == 0)
    return detail::lowerSide(m, {}, kind, model, options, /*allowMatrix=*/false, rounds);
  auto plan = tileKind == 1 ? detail::plainMatrix(m, options.elementBits)
                            : detail::transMatrix(m, options.elementBits, options.version);
  if (!plan)
    return makeError("internal: Triton's scratch layout promises a matrix instruction the map "
                     "does not allow");
  TritonAccess a;
  a.warps = uint64_t{1} << m.warps.size();
  a.instruction = plan->trans ? SharedInstruction::MatrixTrans : SharedInstruction::Matrix;
  a.matrices = 1 << plan->matricesLog2;
  a.name = detail::matrixName(kind, a.matrices, plan->trans);
  plan->instructionsPerWarp *= rounds;
  a.instructionsPerWarp = plan->instructionsPerWarp;
  a.count = detail::matrixCount(*plan, a.warps);
  return a;
}

} // namespace

Result<bool> tritonConvertNeedsSharedMemory(const LinearLayout& srcIn, const LinearLayout& dstIn,
                                            TritonVersion version) {
  auto src = withDistributedInDims(srcIn);
  if (!src.ok())
    return src.error().within("SRC");
  auto dst = withDistributedInDims(dstIn);
  if (!dst.ok())
    return dst.error().within("DST");
  // C with the rule that maps each dim DST and SRC share to itself (Triton 3.6's
  // invertAndCompose; TritonVersion.h), quotiented as Triton's minimalCvtLayout does: by block,
  // then warp. What cannot be quotiented moves between CTAs or warps.
  auto comp = dst->invertAndCompose(*src, TritonVersion::v3_6);
  if (!comp.ok())
    return comp.error();
  LinearLayout c = *comp;
  auto q = c.quotient({dims::kBlock});
  if (!q)
    return true;
  c = *q;
  Flat s = flatten(*src), d = flatten(*dst);
  auto w = c.quotient({dims::kWarp});
  if (w && w->quotient({dims::kLane}))
    return false; // registers are renamed
  bool withinWarps = w.has_value();
  if (version != TritonVersion::v3_6) {
    // Triton 3.9 also keeps a conversion within warps where each warp of DST differs from the
    // same warp of SRC by lane bits of SRC (a warp of SRC holding a copy, zero warp bases,
    // serves the warp of DST that needs it): DST's registers and lanes lie in the span of
    // SRC's, and each warp basis of DST minus SRC's in the span of SRC's lanes. Learned from
    // Triton 3.9's own code (tests/triton/lowering: all 369 recorded conversions, 25 of them
    // without shared memory, decide so); 3.6's minimalCvtLayout, with its pseudo-inverse, does
    // not see those copies.
    Subspace srcThread(s.registers), srcLanes(s.lanes);
    for (uint64_t l : s.lanes)
      srcThread.insert(l);
    bool lanesServe = d.warps.size() == s.warps.size();
    for (uint64_t v : d.registers)
      lanesServe = lanesServe && srcThread.contains(v);
    for (uint64_t v : d.lanes)
      lanesServe = lanesServe && srcThread.contains(v);
    for (std::size_t i = 0; lanesServe && i < d.warps.size(); ++i)
      lanesServe = srcLanes.contains(d.warps[i] ^ s.warps[i]);
    withinWarps = withinWarps || lanesServe;
  }
  if (!withinWarps)
    return true;
  // Within warps, Triton's shuffles handle at most one "mixed transposition" each way: a lane
  // bit of SRC that becomes a register bit of DST, or a register bit of SRC that becomes a lane
  // bit of DST; more go through shared memory (both releases' recorded conversions).
  int laneToRegister = 0, registerToLane = 0;
  for (uint64_t l : nonZero(s.lanes))
    laneToRegister += contains(d.registers, l) ? 1 : 0;
  for (uint64_t l : nonZero(d.lanes))
    registerToLane += contains(s.registers, l) ? 1 : 0;
  return laneToRegister >= 2 || registerToLane >= 2;
}

namespace {

Result<TritonConversion> convertLayout(const LinearLayout& srcIn, const LinearLayout& dstIn,
                                       const SharedMemoryModel& model,
                                       const TritonLoweringOptions& options) {
  if (auto bad = detail::checkModel(model, options.elementBits))
    return *bad;
  auto src = withDistributedInDims(srcIn);
  if (!src.ok())
    return src.error().within("SRC");
  auto dst = withDistributedInDims(dstIn);
  if (!dst.ok())
    return dst.error().within("DST");
  if (src->getInDimSize(dims::kBlock) != 1 || dst->getInDimSize(dims::kBlock) != 1)
    return makeError("Triton's convert_layout lowering is modelled for one CTA (block size 1)");
  if (src->getInDimSize(dims::kLane) != 32 || dst->getInDimSize(dims::kLane) != 32)
    return makeError("Triton's NVIDIA lowering needs 32 lanes per warp");
  if (src->getTotalOutDimSizeLog2() != dst->getTotalOutDimSizeLog2() ||
      src->getInDimSize(dims::kWarp) != dst->getInDimSize(dims::kWarp))
    return makeError("SRC and DST must cover the same tensor with the same warps");
  Flat s = flatten(*src), d = flatten(*dst);
  int droppedSrc = static_cast<int>(s.registers.size());
  int droppedDst = static_cast<int>(d.registers.size());
  s.registers = nonZero(s.registers);
  d.registers = nonZero(d.registers);
  droppedSrc -= static_cast<int>(s.registers.size());
  droppedDst -= static_cast<int>(d.registers.size());
  int dim = src->getTotalOutDimSizeLog2();
  int bitwidth = std::max(8, options.elementBits);
  int totalBases = std::countr_zero(static_cast<unsigned>(128 / bitwidth));

  std::vector<Tile> srcTiles = tilesFor(model.stmatrix, bitwidth);
  std::vector<Tile> dstTiles = tilesFor(model.ldmatrix, bitwidth);
  struct Candidate {
    int srcKind, dstKind;
    Scratch scratch;
    int conflicts;
  };
  std::optional<Candidate> best;
  for (const Tile& ts : srcTiles)
    for (const Tile& td : dstTiles) {
      int regsSrc = totalBases - static_cast<int>(ts.laneContig.size());
      int regsDst = totalBases - static_cast<int>(td.laneContig.size());
      auto vbasis = sharedTile(s, d, regsSrc, regsDst, ts.laneContig, td.laneContig, dim);
      if (!vbasis)
        continue;
      auto tileSrc = phaseTile(ts, s, *vbasis);
      auto tileDst = phaseTile(td, d, *vbasis);
      if (!tileSrc || !tileDst)
        continue;
      int leave = std::min(static_cast<int>(ts.laneContig.size() + ts.laneAddr.size()) - 3,
                           static_cast<int>(td.laneContig.size() + td.laneAddr.size()) - 3);
      Scratch sc = buildScratch(s, d, bitwidth, *vbasis, *tileSrc, *tileDst, dim, leave);
      int c = tritonConflicts(sc, *tileSrc, *tileDst);
      // Fewest conflicts; among equals the most reps (rounds), then the first built.
      if (!best || c < best->conflicts ||
          (c == best->conflicts && sc.reps.size() > best->scratch.reps.size()))
        best = Candidate{ts.kind, td.kind, sc, c};
    }
  if (!best) {
    Scratch sc = ldStScratch(s, d, bitwidth, dim);
    best = Candidate{0, 0, sc, 0};
  }

  TritonConversion out;
  const Scratch& sc = best->scratch;
  out.vector = sc.vector;
  out.bank = sc.bank;
  out.segment = sc.segment;
  out.reps = sc.reps;
  out.rounds = uint64_t{1} << sc.reps.size();
  out.tritonConflicts = best->conflicts;
  Coordinates coords(sc);
  std::vector<uint64_t> columns = sc.vector;
  columns.insert(columns.end(), sc.bank.begin(), sc.bank.end());
  columns.insert(columns.end(), sc.segment.begin(), sc.segment.end());
  Dim offsetDim{dims::kOffset, static_cast<int>(columns.size())};
  auto outs = src->outDims();
  auto scratch = LinearLayout::fromColumns({&offsetDim, 1}, outs, columns);
  if (!scratch.ok())
    return scratch.error();
  out.scratch = *scratch;

  auto store = lowerConvertSide(sideMap(s, sc, coords, droppedSrc), best->srcKind,
                                SharedAccessKind::Store, model, options, out.rounds);
  if (!store.ok())
    return store.error();
  auto load = lowerConvertSide(sideMap(d, sc, coords, droppedDst), best->dstKind,
                               SharedAccessKind::Load, model, options, out.rounds);
  if (!load.ok())
    return load.error();
  out.store = *store;
  out.load = *load;
  std::string layoutWhy =
      "Triton's scratch layout: " + std::to_string(sc.vector.size()) + " vector, " +
      std::to_string(sc.bank.size()) + " bank, " + std::to_string(sc.segment.size()) +
      " segment bases" +
      (sc.reps.empty() ? std::string() : ", " + std::to_string(out.rounds) + " rounds");
  out.store.why.insert(out.store.why.begin(), layoutWhy);
  out.load.why.insert(out.load.why.begin(), layoutWhy);
  return out;
}

} // namespace

Result<TritonConversion> tritonConvertLayout(const LinearLayout& src, const LinearLayout& dst,
                                             const SharedMemoryModel& model,
                                             const TritonLoweringOptions& options) {
  return convertLayout(src, dst, model, options);
}

} // namespace llcheck
