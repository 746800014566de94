// The family decoders of `llcheck hwlayout` (HwLayout.h): from a probe's raw observations to
// the maps the hardware showed, compared with llcheck's encodings; and the tiling checks.
#include "HwInternal.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/conversion/Ldmatrix.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace llcheck::hwlayout::detail {

using namespace hwprobe;

namespace {

// References, not copies: a copy at namespace scope is initialized dynamically, and read
// dims::kRegister before it was interned under clang -O1 with the sanitizers (the GPU map's
// input dims came out empty).
const DimName& kReg = dims::kRegister;
const DimName& kLane = dims::kLane;
const DimName& kWarp = dims::kWarp;

std::vector<uint64_t> shape2(uint64_t a, uint64_t b) {
  return {a, b};
}

/// Slot s of an ObservedMap over (register: n, lane: 32[, warp]) is just s: the register bits
/// are the lowest. The coordinates of slot s under a fitted layout.
std::vector<uint64_t> at(const LinearLayout& l, uint64_t s) {
  std::vector<uint64_t> v;
  for (const auto& [name, x] : l.unpackOut(l.applyFlat(s)))
    v.push_back(x);
  return v;
}

/// The inverse of a fitted layout on its (small) input space: coordinates -> slot.
std::map<std::vector<uint64_t>, uint64_t> inverse(const LinearLayout& l) {
  std::map<std::vector<uint64_t>, uint64_t> inv;
  for (uint64_t s = 0; s < l.getTotalInDimSize(); ++s)
    inv.emplace(at(l, s), s);
  return inv;
}

std::string anomalyText(const nlohmann::json& anomalies) {
  if (!anomalies.is_array() || anomalies.empty())
    return {};
  return std::to_string(anomalies.size()) +
         " outputs were neither 0 nor digits 1..8 (the first: " + dumpJson(anomalies.front()) + ")";
}

void addError(ProbeReport& r, const std::string& e) {
  if (e.empty())
    return;
  r.error += (r.error.empty() ? "" : "; ") + e;
}

} // namespace

// ---- mma.sync ---------------------------------------------------------------------------------

void decodeMma(const Probe& p, const nlohmann::json& o, ProbeReport& r, Tiles& tiles) {
  int na = mmaAElems(p), nb = mmaBElems(p), nd = mmaDElems(p);
  uint64_t kw = static_cast<uint64_t>(nativeKWidth(p.elem));
  std::string parent = mmaV2Parent({1, 1});
  std::string attrA = dotOperand(0, parent, static_cast<int>(kw));
  std::string attrB = dotOperand(1, parent, static_cast<int>(kw));
  auto m = static_cast<uint64_t>(p.m), n = static_cast<uint64_t>(p.n),
       k = static_cast<uint64_t>(p.k);
  std::vector<Dim> insA{{kReg, log2Exact(static_cast<uint64_t>(na))}, {kLane, 5}};
  std::vector<Dim> insB{{kReg, log2Exact(static_cast<uint64_t>(nb))}, {kLane, 5}};
  std::vector<Dim> insD{{kReg, log2Exact(static_cast<uint64_t>(nd))}, {kLane, 5}};
  auto outsA = tileOuts({m, k}), outsB = tileOuts({k, n}), outsD = tileOuts({m, n});
  auto lA = restrictedEncoding(attrA, shape2(m, kw * 8), insA, outsA);
  auto lB = restrictedEncoding(attrB, shape2(kw * 8, n), insB, outsB);
  auto lD = restrictedEncoding(parent, shape2(m, n), insD, outsD);
  std::string encA = attrA + " over " + shapeText({m, kw * 8}) + ", registers 0-" +
                     std::to_string(na - 1) + " (K 0-" + std::to_string(k - 1) + ")";
  std::string encB = attrB + " over " + shapeText({kw * 8, n}) + ", registers 0-" +
                     std::to_string(nb - 1) + " (K 0-" + std::to_string(k - 1) + ")";
  std::string encD = parent + " over " + shapeText({m, n});
  ObservedMap hwA = emptyMap(insA, outsA), hwB = emptyMap(insB, outsB), hwD = emptyMap(insD, outsD);
  std::set<std::tuple<uint64_t, uint64_t, uint64_t>> seen;
  if (lA.ok() && lB.ok() && lD.ok()) {
    for (const auto& h : o.at("hits")) {
      auto a = h.at(0).get<uint64_t>(), d = h.at(1).get<uint64_t>(), b = h.at(2).get<uint64_t>();
      if (a >= hwA.at.size() || d >= hwD.at.size() || b >= hwB.at.size()) {
        addError(r, "a hit names a slot outside the instruction: " + dumpJson(h));
        continue;
      }
      seen.emplace(a, d, b);
      auto ca = at(*lA, a), cb = at(*lB, b), cd = at(*lD, d);
      // Each operand read with the other two as llcheck lays them out (see HwLayout.h).
      observe(hwD, d, {ca[0], cb[1]});
      observe(hwA, a, {cd[0], cb[0]});
      observe(hwB, b, {ca[1], cd[1]});
    }
    // The relation llcheck's layouts predict: A(m, k) x B(k, n) adds into C(m, n).
    auto invB = inverse(*lB), invD = inverse(*lD);
    std::size_t missing = 0, extra = 0;
    std::string firstMissing;
    for (uint64_t a = 0; a < hwA.at.size(); ++a) {
      auto ca = at(*lA, a);
      for (uint64_t col = 0; col < n; ++col) {
        auto d = invD.find({ca[0], col});
        auto b = invB.find({ca[1], col});
        if (d == invD.end() || b == invB.end())
          continue;
        if (!seen.erase({a, d->second, b->second}) && missing++ == 0)
          firstMissing = "A " + describeInput(insA, a) + " x B " + describeInput(insB, b->second) +
                         " into C " + describeInput(insD, d->second);
      }
    }
    extra = seen.size();
    if (missing || extra) {
      std::string msg =
          "the product relation differs from llcheck's layouts: " + std::to_string(missing) +
          " products missing, " + std::to_string(extra) + " unexpected";
      if (!firstMissing.empty())
        msg += " (first missing: " + firstMissing + ")";
      if (extra) {
        auto [a, d, b] = *seen.begin();
        msg += " (first unexpected: A " + describeInput(insA, a) + " x B " +
               describeInput(insB, b) + " into C " + describeInput(insD, d) + ")";
      }
      addError(r, msg);
    }
  }
  addError(r, anomalyText(o.value("anomalies", nlohmann::json::array())));
  r.layouts.push_back(compareMaps("accumulator (C/D)", encD, hwD, lD));
  r.layouts.push_back(compareMaps("operand A", encA, hwA, lA));
  r.layouts.push_back(compareMaps("operand B", encB, hwB, lB));
  if (!lA.ok() || !lB.ok() || !lD.ok()) {
    // Each operand is read with the other two as llcheck lays them out: without all three,
    // none can be read. Say which of llcheck's layouts is not one instruction.
    const Result<LinearLayout>* own[3] = {&lD, &lA, &lB};
    std::string why = !lD.ok()   ? "the accumulator: " + lD.error().str()
                      : !lA.ok() ? "operand A: " + lA.error().str()
                                 : "operand B: " + lB.error().str();
    for (int i = 0; i < 3; ++i)
      r.layouts[static_cast<std::size_t>(i)].problem =
          own[i]->ok() ? "not read: it is read against llcheck's other two operands, and " + why
                       : own[i]->error().str();
  }
  // The tiling checks start from tiles equal to llcheck's (a difference is reported above).
  if (r.layouts[0].equal && r.layouts[1].equal && r.layouts[2].equal) {
    tiles.accumulator.emplace(p.id, *r.layouts[0].hardware);
    tiles.operandA.emplace(p.id, *r.layouts[1].hardware);
    tiles.operandB.emplace(p.id, *r.layouts[2].hardware);
  }
}

// ---- wgmma ------------------------------------------------------------------------------------

namespace {

std::string ssId(Elem e, int k) {
  return "wgmma.ss.m64n8k" + std::to_string(k) + "." + elemName(e);
}

} // namespace

void decodeWgmmaSS(const Probe& p, const nlohmann::json& o, ProbeReport& r, Tiles& tiles) {
  int regs = wgmmaDElems(p);
  auto n = static_cast<uint64_t>(p.n);
  std::vector<Dim> ins{{kReg, log2Exact(static_cast<uint64_t>(regs))}, {kLane, 5}, {kWarp, 2}};
  auto outs = tileOuts({64, n});
  std::string attr = mmaV3Parent({4, 1}, p.n, p.k);
  auto expected = restrictedEncoding(attr, shape2(64, n), ins, outs);
  const auto& q = o.at("quantities");
  const auto &mv = q.at("m"), &nv = q.at("n"), &kv = q.at("k");
  ObservedMap hw = emptyMap(ins, outs);
  std::size_t badK = 0;
  std::string firstBadK;
  for (uint64_t s = 0; s < hw.at.size() && s < mv.size(); ++s) {
    auto mm = mv.at(s).get<int64_t>(), nn = nv.at(s).get<int64_t>(), kk = kv.at(s).get<int64_t>();
    if (mm < 0 || nn < 0)
      continue;
    observe(hw, s, {static_cast<uint64_t>(mm), static_cast<uint64_t>(nn)});
    if (kk != mm % p.k && badK++ == 0)
      firstBadK = describeInput(ins, s) + " (row " + std::to_string(mm) + ") got K " +
                  std::to_string(kk) + ", not " + std::to_string(mm % p.k);
  }
  if (badK)
    addError(r, "A[m][m % K] x B[n][k] = digit(k) did not come back as m % K in " +
                    std::to_string(badK) +
                    " slots (the descriptors' K order is not the "
                    "canonical one): " +
                    firstBadK);
  addError(r, anomalyText(o.value("anomalies", nlohmann::json::array())));
  r.layouts.push_back(compareMaps(
      "accumulator (D)", attr + " over " + shapeText({64, n}) + ", warps 0-3 (one warpgroup)", hw,
      expected));
  if (r.layouts.back().read)
    tiles.wgmmaAccumulatorRead.emplace(p.id, *r.layouts.back().hardware);
  if (r.layouts.back().equal)
    tiles.accumulator.emplace(p.id, *r.layouts.back().hardware);
}

void decodeWgmmaRS(const Probe& p, const nlohmann::json& o, ProbeReport& r, Tiles& tiles) {
  int na = wgmmaAElems(p);
  auto k = static_cast<uint64_t>(p.k);
  int kw = nativeKWidth(p.elem);
  std::vector<Dim> ins{{kReg, log2Exact(static_cast<uint64_t>(na))}, {kLane, 5}, {kWarp, 2}};
  std::vector<Dim> insD{{kReg, 2}, {kLane, 5}, {kWarp, 2}};
  auto outs = tileOuts({64, k});
  std::string attr = dotOperand(0, mmaV3Parent({4, 1}, p.n, p.k), kw);
  auto expected = restrictedEncoding(attr, shape2(64, k), ins, outs);
  // The accumulator's rows: as measured by the SS probe of the same type, else llcheck's.
  Result<LinearLayout> d = makeError("no accumulator");
  auto measured = tiles.wgmmaAccumulatorRead.find(ssId(p.elem, p.k));
  if (measured != tiles.wgmmaAccumulatorRead.end()) {
    d = measured->second;
  } else {
    d = restrictedEncoding(mmaV3Parent({4, 1}, 8, p.k), shape2(64, 8), insD, tileOuts({64, 8}));
    r.notes.push_back("the accumulator's rows are llcheck's: " + ssId(p.elem, p.k) +
                      " was not read off the GPU");
  }
  ObservedMap hw = emptyMap(ins, outs);
  if (d.ok()) {
    std::map<uint64_t, std::set<uint64_t>> lit;
    for (const auto& h : o.at("hits")) {
      auto a = h.at(0).get<uint64_t>(), slot = h.at(1).get<uint64_t>(),
           kk = h.at(2).get<uint64_t>();
      if (slot >= d->getTotalInDimSize()) {
        addError(r, "a hit names an accumulator slot outside the instruction: " + dumpJson(h));
        continue;
      }
      observe(hw, a, {at(*d, slot)[0], kk});
      lit[a].insert(slot);
    }
    // A one-hot A element lights exactly its row of the 64 x 8 accumulator.
    for (const auto& [a, slots] : lit) {
      uint64_t row = at(*d, *slots.begin())[0];
      std::set<uint64_t> want;
      for (uint64_t s = 0; s < d->getTotalInDimSize(); ++s)
        if (at(*d, s)[0] == row)
          want.insert(s);
      if (slots != want) {
        addError(r, "A " + describeInput(ins, a) + " lit " + std::to_string(slots.size()) +
                        " accumulator slots, not the " + std::to_string(want.size()) + " of row " +
                        std::to_string(row));
        break;
      }
    }
  }
  addError(r, anomalyText(o.value("anomalies", nlohmann::json::array())));
  r.layouts.push_back(compareMaps(
      "operand A (registers)", attr + " over " + shapeText({64, k}) + ", warps 0-3", hw, expected));
  if (r.layouts.back().equal)
    tiles.operandA.emplace(p.id, *r.layouts.back().hardware);
}

// ---- ldmatrix / stmatrix ----------------------------------------------------------------------

namespace {

struct RowPlace {
  int matrix = -1, row = 0, col = 0; ///< col in bytes
};

/// llcheck's ldmatrix model (Ldmatrix.h, "The instruction"; the runner's addressing in
/// gpu_oracle/runner/oracle_runner.cu) as the instruction's layout: (register, lane) -> (row of
/// the stacked matrices, column in elements of `w` bytes). Plain: the 4 / w elements of a
/// 32-bit word side by side, lanes 4r .. 4r+3 the words of row r; .trans (16-bit): lane t holds
/// rows 2(t % 4) and 2(t % 4) + 1 of column t / 4. Further register bits pick the matrix, whose
/// rows lane 8i + r addresses.
Result<LinearLayout> ldmatrixModel(int x, int w, bool trans) {
  std::vector<std::vector<uint64_t>> regs, lanes;
  int wordBits = log2Exact(static_cast<uint64_t>(4 / w));
  if (!trans) {
    for (int b = 0; b < wordBits; ++b)
      regs.push_back({0, uint64_t{1} << b});
    lanes = {{0, uint64_t{1} << wordBits}, {0, uint64_t{2} << wordBits}, {1, 0}, {2, 0}, {4, 0}};
  } else {
    regs.push_back({1, 0});
    lanes = {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}};
  }
  for (int b = 0; (1 << b) < x; ++b)
    regs.push_back({uint64_t{8} << b, 0});
  return LinearLayout::create(
      {DimBases{kReg, regs}, DimBases{kLane, lanes}},
      tileOuts({static_cast<uint64_t>(8 * x), static_cast<uint64_t>(16 / w)}),
      /*requireSurjective=*/false);
}

/// The planner must lower the measured layout as one instruction of the probe's kind.
std::string plannerVerdict(const LinearLayout& measured, int x, int w, bool trans) {
  auto rows = static_cast<uint64_t>(8 * x), cols = static_cast<uint64_t>(16 / w);
  // Stacked matrices, row-major: offset -> (row, col), col fastest.
  std::vector<std::vector<uint64_t>> offs;
  for (uint64_t c = 1; c < cols; c *= 2)
    offs.push_back({0, c});
  for (uint64_t r = 1; r < rows; r *= 2)
    offs.push_back({r, 0});
  auto shared = LinearLayout::create({DimBases{dims::kOffset, offs}}, tileOuts({rows, cols}),
                                     /*requireSurjective=*/true);
  if (!shared.ok())
    return shared.error().str();
  LdmatrixOptions opts;
  opts.elementBits = 8 * w;
  opts.trans = trans;
  auto plan = ldmatrix(measured, *shared, opts);
  if (!plan.ok())
    return "llcheck's ldmatrix planner refuses the measured layout: " + plan.error().str();
  std::vector<int> identity(plan->registerPermutation.size());
  for (std::size_t i = 0; i < identity.size(); ++i)
    identity[i] = static_cast<int>(i);
  if (!plan->divides)
    return "llcheck's ldmatrix planner does not lower the measured layout: " + plan->reason;
  if (plan->matricesPerInstruction != x || plan->instructionsPerWarp != 1 ||
      plan->registerPermutation != identity)
    return "llcheck's ldmatrix planner lowers the measured layout as " +
           std::to_string(plan->instructionsPerWarp) + " x .x" +
           std::to_string(plan->matricesPerInstruction) + " with register order " +
           dumpJson(plan->registerPermutation) + ", not as this one instruction";
  return {};
}

/// The row a shared byte lies in, by the addresses the lanes gave.
RowPlace placeOf(int byte, const std::vector<int>& rowAddress, int x) {
  RowPlace p;
  for (int lane = 0; lane < 8 * x; ++lane)
    if (byte >= rowAddress[static_cast<std::size_t>(lane)] &&
        byte < rowAddress[static_cast<std::size_t>(lane)] + 16) {
      p.matrix = lane / 8;
      p.row = lane % 8;
      p.col = byte - rowAddress[static_cast<std::size_t>(lane)];
    }
  return p;
}

} // namespace

void decodeMatrix(const Probe& p, const nlohmann::json& o, ProbeReport& r) {
  int x = p.x;
  auto rowAddress = o.at("row_addresses").get<std::vector<int>>();
  if (rowAddress.size() != 32) {
    addError(r, "row_addresses must have 32 entries");
    return;
  }
  // place[lane][reg][byte]: where that register byte's data sits in the matrices.
  std::vector<RowPlace> place(static_cast<std::size_t>(32 * x * 4));
  auto idx = [&](int lane, int reg, int byte) {
    return static_cast<std::size_t>((lane * x + reg) * 4 + byte);
  };
  std::string bad;
  if (p.family == kLdmatrix) {
    auto src = o.at("registers").get<std::vector<int>>();
    if (src.size() != place.size()) {
      addError(r, "registers must have " + std::to_string(place.size()) + " entries");
      return;
    }
    for (int lane = 0; lane < 32; ++lane)
      for (int reg = 0; reg < x; ++reg)
        for (int byte = 0; byte < 4; ++byte) {
          RowPlace rp = placeOf(src[idx(lane, reg, byte)], rowAddress, x);
          if (rp.matrix < 0 && bad.empty())
            bad = "lane " + std::to_string(lane) + ", register " + std::to_string(reg) + ", byte " +
                  std::to_string(byte) + " came from shared byte " +
                  std::to_string(src[idx(lane, reg, byte)]) +
                  ", in no row the instruction's lanes addressed";
          place[idx(lane, reg, byte)] = rp;
        }
  } else {
    auto shared = o.at("shared").get<std::vector<int>>();
    if (shared.size() != static_cast<std::size_t>(kMatrixBytes)) {
      addError(r, "shared must have " + std::to_string(kMatrixBytes) + " entries");
      return;
    }
    std::vector<int> count(place.size(), 0);
    for (int j = 0; j < kMatrixBytes; ++j) {
      int s = shared[static_cast<std::size_t>(j)];
      RowPlace rp = placeOf(j, rowAddress, x);
      if (s == kUntouched) {
        if (rp.matrix >= 0 && bad.empty())
          bad = "shared byte " + std::to_string(j) + " (matrix " + std::to_string(rp.matrix) +
                ", row " + std::to_string(rp.row) + ") was not written";
        continue;
      }
      int lane = s / 16, reg = (s % 16) / 4, byte = s % 4;
      if (rp.matrix < 0 || lane >= 32 || reg >= x) {
        if (bad.empty())
          bad = "shared byte " + std::to_string(j) + " received " + std::to_string(s) +
                ", outside the instruction's rows or registers";
        continue;
      }
      place[idx(lane, reg, byte)] = rp;
      ++count[idx(lane, reg, byte)];
    }
    for (std::size_t i = 0; i < count.size() && bad.empty(); ++i)
      if (count[i] != 1)
        bad = "register byte " + std::to_string(i) + " was stored " + std::to_string(count[i]) +
              " times";
  }
  addError(r, bad);
  // The layout at each element width whose bytes stay together.
  for (int w : {1, 2, 4}) {
    if (p.trans && w == 4)
      continue; // .trans moves 16-bit elements; a 32-bit element would be split
    int per = 4 / w;
    std::vector<Dim> ins{{kReg, log2Exact(static_cast<uint64_t>(x * per))}, {kLane, 5}};
    auto outs = tileOuts({static_cast<uint64_t>(8 * x), static_cast<uint64_t>(16 / w)});
    ObservedMap hw = emptyMap(ins, outs);
    for (int lane = 0; lane < 32; ++lane)
      for (int reg = 0; reg < x; ++reg)
        for (int e = 0; e < per; ++e) {
          const RowPlace& first = place[idx(lane, reg, e * w)];
          bool whole = first.matrix >= 0 && first.col % w == 0;
          for (int j = 1; j < w && whole; ++j) {
            const RowPlace& q = place[idx(lane, reg, e * w + j)];
            whole = q.matrix == first.matrix && q.row == first.row && q.col == first.col + j;
          }
          uint64_t flat =
              static_cast<uint64_t>(reg * per + e) |
              (static_cast<uint64_t>(lane) << log2Exact(static_cast<uint64_t>(x * per)));
          if (!whole) {
            hw.conflicts.push_back(describeInput(ins, flat) + ": its " + std::to_string(w) +
                                   " bytes do not stay together");
            continue;
          }
          observe(hw, flat,
                  {static_cast<uint64_t>(8 * first.matrix + first.row),
                   static_cast<uint64_t>(first.col / w)});
        }
    std::string what = std::to_string(8 * w) + "-bit elements";
    bool counterpart = !(p.trans && w == 1);
    std::string model = counterpart ? "llcheck's ldmatrix model, " +
                                          std::string(p.trans ? ".trans, " : "") +
                                          std::to_string(8 * w) + "-bit, x" + std::to_string(x)
                                    : "none: llcheck's model refuses .trans of 8-bit elements";
    LayoutComparison c = compareMaps(what, model, hw, ldmatrixModel(x, w, p.trans));
    if (!counterpart) {
      c.hasCounterpart = false;
      c.equal = false;
      c.problem = c.read ? "" : c.problem;
    } else if (c.read && c.equal) {
      std::string v = plannerVerdict(*c.hardware, x, w, p.trans);
      if (!v.empty()) {
        c.equal = false;
        c.problem = v;
      }
    }
    r.layouts.push_back(std::move(c));
  }
}

// ---- TMA --------------------------------------------------------------------------------------

void decodeTma(const Probe& p, const nlohmann::json& o, ProbeReport& r) {
  auto shared = o.at("shared").get<std::vector<int>>();
  int eb = elemBits(p.elem) / 8, bytes = tmaBoxBytes(p), elements = tmaBoxElements(p);
  if (static_cast<int>(shared.size()) != bytes) {
    addError(r, "shared must have " + std::to_string(bytes) + " entries");
    return;
  }
  std::vector<uint64_t> box;
  for (int i = 0; i < p.rank; ++i)
    box.push_back(static_cast<uint64_t>(p.box[i]));
  std::vector<Dim> ins{{dims::kOffset, log2Exact(static_cast<uint64_t>(elements))}};
  ObservedMap hw = emptyMap(ins, tileOuts(box));
  uint64_t inner = box.back();
  for (int e = 0; e < elements; ++e) {
    int g0 = shared[static_cast<std::size_t>(e * eb)];
    bool whole = g0 != kUntouched && g0 % eb == 0 && g0 < bytes;
    for (int j = 1; j < eb && whole; ++j)
      whole = shared[static_cast<std::size_t>(e * eb + j)] == g0 + j;
    if (!whole) {
      hw.conflicts.push_back(
          "offset " + std::to_string(e) + ": " +
          (g0 == kUntouched ? std::string("nothing arrived")
                            : "its bytes come from global bytes " + std::to_string(g0) + ", ..."));
      continue;
    }
    auto g = static_cast<uint64_t>(g0 / eb);
    std::vector<uint64_t> c(box.size());
    for (std::size_t d = box.size(); d-- > 0;) {
      c[d] = g % box[d];
      g /= box[d];
    }
    observe(hw, static_cast<uint64_t>(e), c);
  }
  std::string body = "swizzlingByteWidth = " + std::to_string(p.swizzle) +
                     ", transposed = false, elementBitWidth = " + std::to_string(8 * eb);
  std::string attr = attrText("nvmma_shared", body);
  std::vector<Dim> sharedIns{{dims::kOffset, ins[0].sizeLog2}};
  r.layouts.push_back(compareMaps("shared layout", attr + " over " + shapeText(box), hw,
                                  restrictedEncoding(attr, box, sharedIns, tileOuts(box))));
  if (p.rank == 2) {
    // transposed = true: the contiguous dim is dim0; the same measurement read that way.
    ObservedMap t = emptyMap(ins, tileOuts({inner, box[0]}));
    t.conflicts = hw.conflicts;
    for (uint64_t e = 0; e < hw.at.size(); ++e)
      if (hw.at[e])
        t.at[e] = std::vector<uint64_t>{(*hw.at[e])[1], (*hw.at[e])[0]};
    std::string tattr = attrText(
        "nvmma_shared", "swizzlingByteWidth = " + std::to_string(p.swizzle) +
                            ", transposed = true, elementBitWidth = " + std::to_string(8 * eb));
    r.layouts.push_back(compareMaps(
        "shared layout, read transposed", tattr + " over " + shapeText({inner, box[0]}), t,
        restrictedEncoding(tattr, {inner, box[0]}, sharedIns, tileOuts({inner, box[0]}))));
  }
}

// ---- cp.async ---------------------------------------------------------------------------------

void decodeCpAsync(const Probe& p, const nlohmann::json& o, ProbeReport& r) {
  auto shared = o.at("shared").get<std::vector<int>>();
  if (shared.size() != 512) {
    addError(r, "shared must have 512 entries");
    return;
  }
  auto s = static_cast<uint64_t>(p.x);
  int sb = log2Exact(s);
  std::vector<Dim> ins{{kReg, sb}, {kLane, 5}};
  std::vector<DimSize> outs{{dims::kOffset, 32 * s}};
  ObservedMap hw = emptyMap(ins, outs);
  for (uint64_t j = 32 * s; j < shared.size(); ++j)
    if (shared[j] != kUntouched) {
      addError(r, "shared byte " + std::to_string(j) + ", past the 32 lanes' copies, was written");
      break;
    }
  for (uint64_t j = 0; j < 32 * s; ++j) {
    int src = shared[j];
    if (src == kUntouched || src < 0 || static_cast<uint64_t>(src) >= 32 * s)
      continue;
    observe(hw, (static_cast<uint64_t>(src) % s) | ((static_cast<uint64_t>(src) / s) << sb), {j});
  }
  // The vector access: byte b of lane t's copy lands at its address + b.
  std::vector<std::vector<uint64_t>> regs, lanes;
  for (uint64_t b = 1; b < s; b *= 2)
    regs.push_back({b});
  for (int b = 0; b < 5; ++b)
    lanes.push_back({static_cast<uint64_t>(cpAsyncSlot(1 << b)) * s});
  auto model = LinearLayout::create({DimBases{kReg, regs}, DimBases{kLane, lanes}}, outs,
                                    /*requireSurjective=*/false);
  r.layouts.push_back(
      compareMaps("bytes",
                  "the vector access of llcheck's bank model: " + std::to_string(s) +
                      " consecutive bytes, in order, at the lane's address",
                  hw, model));
}

// ---- Tiling -----------------------------------------------------------------------------------

namespace {

struct Operand {
  explicit Operand(const char* n) : name(n) {}
  const char* name;
  Result<LinearLayout> layout = makeError("unset");
  const LinearLayout* tile = nullptr;
  int tileRegBits = 0, tileWarpBits = 0;
  std::vector<uint64_t> tileSize;
};

std::string tileProblem(const Operand& op) {
  if (!op.layout.ok())
    return std::string(op.name) + ": " + op.layout.error().str();
  const LinearLayout& l = *op.layout;
  // 1. Warp 0's first registers are the measured tile.
  std::vector<Dim> ins{{kReg, op.tileRegBits}, {kLane, 5}};
  if (op.tileWarpBits)
    ins.push_back({kWarp, op.tileWarpBits});
  auto sub = fitLinear(sampleLayout(l, ins, tileOuts(op.tileSize)));
  if (!sub.ok())
    return std::string(op.name) +
           ": the first registers of warp 0 are not one tile: " + sub.error().str();
  std::string diff = firstDifference(*op.tile, *sub);
  if (!diff.empty())
    return std::string(op.name) + ": warp 0's tile differs from the measured one: " + diff;
  // 2. Every further register, warp and block bit moves by whole tiles (or not at all).
  for (const Dim& d : l.inDims()) {
    int from = d.name == kReg ? op.tileRegBits : d.name == kWarp ? op.tileWarpBits : 0;
    if (d.name == kLane)
      continue;
    for (int b = from; b < d.sizeLog2; ++b) {
      auto v = l.getBasis(d.name, b);
      for (std::size_t j = 0; j < v.size(); ++j)
        if (v[j] % op.tileSize[j] != 0)
          return std::string(op.name) + ": " + d.name.str() + " " +
                 std::to_string(uint64_t{1} << b) + " moves by " + describePoint(v) +
                 ", not by whole " + shapeText(op.tileSize) + " tiles";
    }
  }
  return {};
}

/// The tile origins warp unit u holds (every high register value; lanes and in-tile warps 0).
std::set<std::vector<uint64_t>> origins(const Operand& op, uint64_t unit) {
  const LinearLayout& l = *op.layout;
  std::set<std::vector<uint64_t>> out;
  int regBits = l.getInDimSizeLog2(kReg);
  for (uint64_t hi = 0; hi < (uint64_t{1} << (regBits - op.tileRegBits)); ++hi)
    out.insert(evalAt(l, {{kReg, hi << op.tileRegBits}, {kWarp, unit << op.tileWarpBits}}));
  return out;
}

/// Warp by warp: the accumulator's rows are the rows of A it holds, with all of K; its columns
/// the columns of B, with all of K; the accumulator tiles cover the shape.
std::string warpProblem(const Operand& d, const Operand* a, const Operand* b, uint64_t K) {
  const LinearLayout& ld = *d.layout;
  std::size_t rank = d.tileSize.size(); // [batch.., M, N]
  uint64_t units = ld.getInDimSize(kWarp) >> d.tileWarpBits;
  std::set<std::vector<uint64_t>> covered;
  for (uint64_t u = 0; u < units; ++u) {
    auto od = origins(d, u);
    covered.insert(od.begin(), od.end());
    // The accumulator tiles' rows ([batch.., m]) and columns ([batch.., n]).
    std::set<std::vector<uint64_t>> rows, cols;
    for (const auto& o : od) {
      std::vector<uint64_t> r(o.begin(), o.end() - 1), c(o.begin(), o.end());
      c.erase(c.begin() + static_cast<std::ptrdiff_t>(rank - 2));
      rows.insert(r);
      cols.insert(c);
    }
    auto check = [&](const Operand* op, bool isA) -> std::string {
      if (!op)
        return {};
      std::set<std::vector<uint64_t>> want;
      for (uint64_t kk = 0; kk < K; kk += op->tileSize[isA ? rank - 1 : rank - 2])
        for (const auto& v : isA ? rows : cols) {
          std::vector<uint64_t> w = v; // A: [batch.., m, k]; B: [batch.., k, n]
          w.insert(isA ? w.end() : w.end() - 1, kk);
          want.insert(w);
        }
      auto held = origins(*op, u);
      std::string warp = "warp " + std::to_string(u << d.tileWarpBits);
      for (const auto& w : want)
        if (!held.count(w))
          return warp + " does not hold the tile of " + op->name + " at " + describePoint(w) +
                 ", which its accumulator tiles need (" + (isA ? "their rows" : "their columns") +
                 ", all of K)";
      for (const auto& h : held)
        if (!want.count(h))
          return warp + " holds the tile of " + op->name + " at " + describePoint(h) +
                 ", which none of its accumulator tiles needs";
      return {};
    };
    if (auto e = check(a, true); !e.empty())
      return e;
    if (auto e = check(b, false); !e.empty())
      return e;
  }
  uint64_t want = 1;
  for (std::size_t j = 0; j < rank; ++j)
    want *= ld.getOutDimSize(dims::standardOut(static_cast<int>(j))) / d.tileSize[j];
  if (covered.size() != want)
    return "the accumulator tiles of all warps cover " + std::to_string(covered.size()) + " of " +
           std::to_string(want) + " tile positions";
  return {};
}

/// A measured 2-D tile with leading batch dims of size 1 (rank-3 encodings).
LinearLayout withBatchDims(const LinearLayout& tile, std::size_t rank) {
  if (rank == 2)
    return tile;
  std::vector<DimBases> bases = tile.getBases();
  for (DimBases& db : bases)
    for (auto& b : db.bases)
      b.insert(b.begin(), rank - 2, 0);
  std::vector<uint64_t> sizes(rank - 2, 1);
  for (const DimSize& o : tile.getOutDims())
    sizes.push_back(o.size);
  return LinearLayout::create(bases, tileOuts(sizes), /*requireSurjective=*/false).value();
}

} // namespace

std::vector<TilingCheck> tilingChecks(const Tiles& tiles) {
  std::vector<TilingCheck> out;
  for (const Probe& p : kProbes) {
    if (p.family == kMmaSync) {
      auto d = tiles.accumulator.find(p.id), a = tiles.operandA.find(p.id),
           b = tiles.operandB.find(p.id);
      if (d == tiles.accumulator.end() || a == tiles.operandA.end() || b == tiles.operandB.end())
        continue;
      int kw = nativeKWidth(p.elem);
      auto k0 = static_cast<uint64_t>(kw * 8);
      // {warpsPerCTA} x {[batch..,] M, N, K}: rank 2, and rank 3 with a batch dim.
      const std::vector<std::vector<uint64_t>> warps2 = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1},
                                                         {1, 4}, {4, 2}, {2, 4}, {8, 1}, {1, 8}};
      const std::vector<std::vector<uint64_t>> shapes2 = {
          {16, 8, k0}, {64, 64, 64}, {128, 32, 64}, {32, 128, 128}};
      const std::vector<std::vector<uint64_t>> warps3 = {{1, 1, 1}, {2, 2, 1}, {4, 1, 1},
                                                         {1, 2, 2}, {2, 1, 2}, {8, 1, 1}};
      const std::vector<std::vector<uint64_t>> shapes3 = {
          {4, 16, 8, k0}, {2, 64, 64, 64}, {8, 32, 16, 64}};
      auto m = static_cast<uint64_t>(p.m), n = static_cast<uint64_t>(p.n),
           k = static_cast<uint64_t>(p.k);
      for (std::size_t rank : {std::size_t{2}, std::size_t{3}})
        for (const auto& w : rank == 2 ? warps2 : warps3)
          for (const auto& s : rank == 2 ? shapes2 : shapes3) {
            std::vector<uint64_t> batch(s.begin(), s.end() - 3), ones(rank - 2, 1);
            auto dims3 = [&](uint64_t x, uint64_t y) {
              std::vector<uint64_t> v = batch;
              v.push_back(x);
              v.push_back(y);
              return v;
            };
            auto tile3 = [&](uint64_t x, uint64_t y) {
              std::vector<uint64_t> v = ones;
              v.push_back(x);
              v.push_back(y);
              return v;
            };
            uint64_t M = s[s.size() - 3], N = s[s.size() - 2], K = s.back();
            std::string parent = rank == 2 ? mmaV2Parent(w) : mmaV2ParentRank3(w);
            LinearLayout td = withBatchDims(d->second, rank), ta = withBatchDims(a->second, rank),
                         tb = withBatchDims(b->second, rank);
            Operand od("the accumulator"), oa("operand A"), ob("operand B");
            od.layout = encodingLayout(parent, dims3(M, N));
            oa.layout = encodingLayout(dotOperand(0, parent, kw), dims3(M, K));
            ob.layout = encodingLayout(dotOperand(1, parent, kw), dims3(K, N));
            od.tile = &td, oa.tile = &ta, ob.tile = &tb;
            od.tileRegBits = log2Exact(static_cast<uint64_t>(mmaDElems(p)));
            oa.tileRegBits = log2Exact(static_cast<uint64_t>(mmaAElems(p)));
            ob.tileRegBits = log2Exact(static_cast<uint64_t>(mmaBElems(p)));
            od.tileSize = tile3(m, n), oa.tileSize = tile3(m, k), ob.tileSize = tile3(k, n);
            TilingCheck t;
            t.family = familyName(p.family);
            t.probe = p.id;
            t.encoding = parent + " with its dot operands (kWidth " + std::to_string(kw) + ")";
            t.shape = "C " + shapeText(dims3(M, N)) + ", A " + shapeText(dims3(M, K)) + ", B " +
                      shapeText(dims3(K, N));
            t.problem = tileProblem(od);
            if (t.problem.empty())
              t.problem = tileProblem(oa);
            if (t.problem.empty())
              t.problem = tileProblem(ob);
            if (t.problem.empty())
              t.problem = warpProblem(od, &oa, &ob, K);
            t.ok = t.problem.empty();
            out.push_back(std::move(t));
          }
    } else if (p.family == kWgmmaSS) {
      auto d = tiles.accumulator.find(p.id);
      if (d == tiles.accumulator.end())
        continue;
      // The A operand in registers of the same type, where measured.
      std::string rs =
          std::string("wgmma.rs.m64n8k") + std::to_string(p.k) + "." + elemName(p.elem);
      auto a = tiles.operandA.find(rs);
      int kw = nativeKWidth(p.elem);
      auto n = static_cast<uint64_t>(p.n), k = static_cast<uint64_t>(p.k);
      const std::vector<std::vector<uint64_t>> warps = {{4, 1}, {8, 1}, {4, 2}, {16, 1}, {4, 4}};
      const std::vector<std::vector<uint64_t>> shapes = {
          {64, n, k}, {128, std::min<uint64_t>(2 * n, 256), 2 * k}, {256, n, 4 * k}};
      for (const auto& w : warps)
        for (const auto& s : shapes) {
          std::string parent = mmaV3Parent(w, p.n, p.k);
          Operand od("the accumulator"), oa("operand A");
          od.layout = encodingLayout(parent, {s[0], s[1]});
          od.tile = &d->second;
          od.tileRegBits = log2Exact(static_cast<uint64_t>(wgmmaDElems(p)));
          od.tileWarpBits = 2;
          od.tileSize = {64, n};
          if (a != tiles.operandA.end()) {
            oa.layout = encodingLayout(dotOperand(0, parent, kw), {s[0], s[2]});
            oa.tile = &a->second;
            oa.tileRegBits = log2Exact(static_cast<uint64_t>(64 * p.k / 128));
            oa.tileWarpBits = 2;
            oa.tileSize = {64, k};
          }
          TilingCheck t;
          t.family = familyName(p.family);
          t.probe = p.id;
          t.encoding = parent + (a != tiles.operandA.end()
                                     ? " and its dot operand A (kWidth " + std::to_string(kw) + ")"
                                     : std::string());
          t.shape = "D " + shapeText({s[0], s[1]}) +
                    (a != tiles.operandA.end() ? ", A " + shapeText({s[0], s[2]}) : "");
          t.problem = tileProblem(od);
          if (t.problem.empty() && a != tiles.operandA.end())
            t.problem = tileProblem(oa);
          if (t.problem.empty())
            t.problem = warpProblem(od, a != tiles.operandA.end() ? &oa : nullptr, nullptr, s[2]);
          t.ok = t.problem.empty();
          out.push_back(std::move(t));
        }
    }
  }
  return out;
}

} // namespace llcheck::hwlayout::detail
