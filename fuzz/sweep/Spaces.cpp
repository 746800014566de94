// The bounded encoding spaces of `llcheck sweep`: for each family, its groups (one per tensor
// shape, lane count and warp count), how many parameter sets each holds, and the encodings
// themselves in a fixed order, as attribute text (and, against Triton, as Gluon's spec).
#include "Spaces.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Spec.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <utility>

namespace llcheck::fuzz::sweep {

namespace {

/// A Gluon spec (triton_layouts.py): the class and its fields, one CTA (cga_layout []).
nlohmann::json gluonSpec(const char* encoding, nlohmann::json args, bool cga = true) {
  if (cga)
    args["cga_layout"] = nlohmann::json::array();
  return {{"encoding", encoding}, {"args", std::move(args)}};
}

std::string list(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}
} // namespace

nlohmann::json blockedSpec(const BlockedParams& p) {
  return gluonSpec("blocked", {{"size_per_thread", p.sizePerThread},
                               {"threads_per_warp", p.threadsPerWarp},
                               {"warps_per_cta", p.warpsPerCTA},
                               {"order", p.order}});
}

std::string shapeText(const std::vector<uint64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

namespace {

/// Every way to write 2^bits as a product of `rank` powers of two, as the factors.
std::vector<std::vector<uint64_t>> splits(int bits, std::size_t rank) {
  std::vector<std::vector<uint64_t>> out;
  std::vector<uint64_t> cur(rank, 1);
  std::function<void(std::size_t, int)> go = [&](std::size_t d, int left) {
    if (d + 1 == rank) {
      cur[d] = uint64_t{1} << left;
      out.push_back(cur);
      return;
    }
    for (int b = 0; b <= left; ++b) {
      cur[d] = uint64_t{1} << b;
      go(d + 1, left - b);
    }
  };
  if (rank > 0)
    go(0, bits);
  return out;
}

std::vector<std::vector<uint64_t>> orders(std::size_t rank) {
  std::vector<uint64_t> p(rank);
  std::iota(p.begin(), p.end(), 0);
  std::vector<std::vector<uint64_t>> out;
  do
    out.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return out;
}

/// Every shape of `rank` dims, each 2^minLog2 .. 2^maxLog2.
std::vector<std::vector<uint64_t>> shapes(std::size_t rank, int minLog2, int maxLog2) {
  std::vector<std::vector<uint64_t>> out = {{}};
  for (std::size_t d = 0; d < rank; ++d) {
    std::vector<std::vector<uint64_t>> next;
    for (const auto& s : out)
      for (int b = minLog2; b <= maxLog2; ++b) {
        auto t = s;
        t.push_back(uint64_t{1} << b);
        next.push_back(t);
      }
    out = std::move(next);
  }
  return out;
}

/// Every sizePerThread with each entry at most the tensor's size in that dim.
std::vector<std::vector<uint64_t>> sizesPerThread(const std::vector<uint64_t>& shape) {
  std::vector<std::vector<uint64_t>> out = {{}};
  for (uint64_t s : shape) {
    std::vector<std::vector<uint64_t>> next;
    for (const auto& v : out)
      for (uint64_t x = 1; x <= s; x *= 2) {
        auto t = v;
        t.push_back(x);
        next.push_back(t);
      }
    out = std::move(next);
  }
  return out;
}

/// Whether an encoding with this sizePerThread is one of `g`'s (of its part, if it is one).
bool inPart(const std::vector<uint64_t>& sizePerThread, const SweepGroup& g) {
  if (g.sizePerThreadSorted.empty())
    return true;
  std::vector<uint64_t> sorted = sizePerThread;
  std::sort(sorted.begin(), sorted.end());
  return sorted == g.sizePerThreadSorted;
}
} // namespace

std::vector<SweepGroup> partsOf(const SweepGroup& g) {
  std::set<std::vector<uint64_t>> multisets;
  for (std::vector<uint64_t> spt : sizesPerThread(g.shape)) {
    std::sort(spt.begin(), spt.end());
    multisets.insert(spt);
  }
  std::vector<SweepGroup> parts;
  for (const auto& m : multisets) {
    parts.push_back(g);
    parts.back().sizePerThreadSorted = m;
  }
  return parts;
}

int log2Of(uint64_t v) {
  return std::countr_zero(v);
}

bool distributedFamily(const std::string& family) {
  return family != "swizzled_shared" && family != "nvmma_shared";
}

namespace {

/// C(bits + rank - 1, rank - 1): the number of splits(bits, rank).
uint64_t splitCount(int bits, std::size_t rank) {
  uint64_t n = 1;
  for (std::size_t i = 1; i < rank; ++i)
    n = n * (static_cast<uint64_t>(bits) + i) / i;
  return n;
}

uint64_t factorial(std::size_t n) {
  uint64_t f = 1;
  for (std::size_t i = 2; i <= n; ++i)
    f *= i;
  return f;
}
} // namespace

uint64_t elementsOf(const std::vector<uint64_t>& shape) {
  uint64_t e = 1;
  for (uint64_t s : shape)
    e *= s;
  return e;
}

/// The groups of a family in the sweep's fixed order, without their encodings: one per tensor
/// shape, lane count and warp count that the family has encodings for.
std::vector<SweepGroup> groupsOf(const SweepOptions& o) {
  std::vector<SweepGroup> out;
  const std::string& f = o.family;
  if (f == "swizzled_shared" || f == "nvmma_shared") {
    for (const auto& shape : shapes(2, 0, o.maxLog2))
      out.push_back({shape, 32, 1});
    return out;
  }
  // The matrix cores: rank 2, or 3 with a batch dim; a slice: rank 1 or 2 (its parent 2 or 3).
  std::size_t minRank = f == "blocked" || f == "slice" ? 1 : 2, maxRank = f == "slice" ? 2 : 3;
  for (std::size_t rank = minRank; rank <= maxRank; ++rank)
    for (const auto& shape : shapes(rank, 0, o.maxLog2))
      for (uint64_t lanes : {32, 64}) {
        // nvidia_mma and amd_wmma (RDNA's and gfx1250's wave32) have no 64-lane encoding and
        // amd_mfma no 32-lane one: no group.
        if (((f == "nvidia_mma" || f == "amd_wmma") && lanes != 32) ||
            (f == "amd_mfma" && lanes != 64))
          continue;
        for (uint64_t w : o.numWarps)
          out.push_back({shape, lanes, w});
      }
  return out;
}

namespace {

/// amd_wmma's (version, instrShape K) pairs, as Triton 3.9's verifier allows them: version 1
/// (RDNA3) 16x16x16, version 2 (RDNA4) K 16 or 32, version 3 (gfx1250) K 4, 32, 64 or 128.
constexpr std::pair<int, uint64_t> kWmmaInstructions[] = {{1, 16}, {2, 16}, {2, 32}, {3, 4},
                                                          {3, 32}, {3, 64}, {3, 128}};

} // namespace

/// How many encodings encodingsOf writes for `g`, counted from the loops' bounds.
uint64_t setsOf(const SweepGroup& g, const std::string& f) {
  std::size_t rank = g.shape.size();
  int l = log2Of(g.lanes), w = log2Of(g.warps);
  if (f == "blocked") {
    uint64_t spt = 1;
    for (uint64_t s : g.shape)
      spt *= static_cast<uint64_t>(log2Of(s)) + 1;
    if (!g.sizePerThreadSorted.empty()) { // a part: its sizesPerThread only (at most rank!)
      auto all = sizesPerThread(g.shape);
      spt = static_cast<uint64_t>(
          std::count_if(all.begin(), all.end(), [&](const auto& v) { return inPart(v, g); }));
    }
    return spt * splitCount(l, rank) * splitCount(w, rank) * factorial(rank);
  }
  if (f == "slice") {
    // Each sliced dim d of the rank + 1 parent (sizePerThread 1 or 2 there), the blocked
    // parent's every other sizePerThread, split and order.
    uint64_t spt = 2;
    for (uint64_t s : g.shape)
      spt *= static_cast<uint64_t>(log2Of(s)) + 1;
    return (rank + 1) * spt * splitCount(l, rank + 1) * splitCount(w, rank + 1) *
           factorial(rank + 1);
  }
  if (f == "swizzled_shared")
    return 17 * 16 * 16 * 2; // vec 0-16, perPhase 1-16, maxPhase 1-16, 2 orders
  if (f == "nvmma_shared")
    return 4 * 2 * 4 * 2;    // swizzle, transposed, element width, fp4Padded
  uint64_t mma = 1 + 6;      // version 2, and version 3 with n = 8..256
  uint64_t mfma = 5 * 4 * 2; // version, instrShape, isTransposed
  uint64_t perSplit = 0;
  if (f == "nvidia_mma")
    perSplit = mma;
  else if (f == "amd_mfma")
    perSplit = mfma;
  else if (f == "amd_wmma") // the warps' dim order, (version, instrShape), isTranspose
    perSplit = factorial(rank) * std::size(kWmmaInstructions) * 2;
  else // dot_op: both operands, over the MMA (kWidth 1-8) or MFMA (1-16) parents and FMA's
    perSplit = 2 * ((g.lanes == 32 ? 4 * mma : 5 * mfma) + splitCount(l, rank) * factorial(rank));
  return splitCount(w, rank) * perSplit;
}

namespace {

// ---- The encodings of each family (encodingsOf) ------------------------------------------------

std::vector<Encoding> blockedEncodings(const SweepGroup& g) {
  std::vector<Encoding> out;
  std::size_t rank = g.shape.size();
  for (const auto& spt : sizesPerThread(g.shape))
    if (inPart(spt, g))
      for (const auto& tpw : splits(log2Of(g.lanes), rank))
        for (const auto& wpc : splits(log2Of(g.warps), rank))
          for (const auto& ord : orders(rank))
            out.push_back({"", BlockedParams{spt, tpw, wpc, ord, {}}, Encoding::Expect::Legal, {}});
  return out;
}

/// Each sliced dim d of a rank + 1 blocked parent, over the parent's every sizePerThread (2 in
/// the sliced dim), split and order.
std::vector<Encoding> sliceEncodings(const SweepGroup& g, const SweepOptions& o) {
  std::vector<Encoding> out;
  std::size_t rank = g.shape.size();
  for (std::size_t d = 0; d <= rank; ++d) {
    std::vector<uint64_t> parentShape = g.shape;
    parentShape.insert(parentShape.begin() + static_cast<std::ptrdiff_t>(d), 2);
    for (const auto& spt : sizesPerThread(parentShape))
      for (const auto& tpw : splits(log2Of(g.lanes), rank + 1))
        for (const auto& wpc : splits(log2Of(g.warps), rank + 1))
          for (const auto& ord : orders(rank + 1)) {
            BlockedParams parent{spt, tpw, wpc, ord, {}};
            out.push_back(
                {"#ttg.slice<{dim = " + std::to_string(d) +
                     ", parent = " + blockedAttributeText(parent) + "}>",
                 std::nullopt, Encoding::Expect::Legal,
                 o.againstTriton
                     ? gluonSpec("slice", {{"dim", d}, {"parent", blockedSpec(parent)}}, false)
                     : nlohmann::json()});
          }
  }
  return out;
}

/// vec 0-16, perPhase 1-16, maxPhase 1-16 and both orders; those with a parameter that is no
/// power of two are expected bijective only.
std::vector<Encoding> swizzledSharedEncodings(const SweepOptions& o) {
  std::vector<Encoding> out;
  for (uint64_t vec = 0; vec <= 16; ++vec)
    for (uint64_t perPhase = 1; perPhase <= 16; ++perPhase)
      for (uint64_t maxPhase = 1; maxPhase <= 16; ++maxPhase)
        for (const char* ord : {"[0, 1]", "[1, 0]"}) {
          bool powers = std::has_single_bit(vec) && std::has_single_bit(perPhase) &&
                        std::has_single_bit(maxPhase);
          out.push_back({"#ttg.swizzled_shared<{vec = " + std::to_string(vec) +
                             ", perPhase = " + std::to_string(perPhase) +
                             ", maxPhase = " + std::to_string(maxPhase) + ", order = " + ord + "}>",
                         std::nullopt,
                         powers ? Encoding::Expect::Legal : Encoding::Expect::Bijective,
                         {}});
          if (o.againstTriton)
            out.back().spec = gluonSpec(
                "swizzled_shared",
                {{"vec", vec},
                 {"per_phase", perPhase},
                 {"max_phase", maxPhase},
                 {"order", ord[1] == '0' ? std::vector<int>{0, 1} : std::vector<int>{1, 0}}});
        }
  return out;
}

/// Every swizzle, transposition, element width and fp4 padding (padded: expected Padded).
std::vector<Encoding> nvmmaSharedEncodings(const SweepOptions& o) {
  std::vector<Encoding> out;
  for (int swizzle : {0, 32, 64, 128})
    for (const char* transposed : {"false", "true"})
      for (int bits : {8, 16, 32, 64})
        for (const char* fp4 : {"false", "true"}) {
          out.push_back(
              {"#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(swizzle) +
                   ", transposed = " + transposed + ", elementBitWidth = " + std::to_string(bits) +
                   ", fp4Padded = " + fp4 + "}>",
               std::nullopt,
               std::string(fp4) == "true" ? Encoding::Expect::Padded : Encoding::Expect::Legal,
               {}});
          if (o.againstTriton)
            out.back().spec =
                gluonSpec("nvmma_shared", {{"swizzle_byte_width", swizzle},
                                           {"element_bitwidth", bits},
                                           {"rank", 2},
                                           {"transposed", std::string(transposed) == "true"},
                                           {"fp4_padded", std::string(fp4) == "true"}});
        }
  return out;
}

/// An encoding as attribute text and (against Triton, `spec`) as Gluon's spec.
using Text = std::pair<std::string, nlohmann::json>;

Text nvidiaMmaText(std::size_t rank, bool spec, const std::vector<uint64_t>& wpc, int major,
                   uint64_t n) {
  std::vector<uint64_t> instr = major == 3  ? std::vector<uint64_t>{16, n, 16}
                                : rank == 3 ? std::vector<uint64_t>{1, 16, 8}
                                            : std::vector<uint64_t>{16, 8};
  return {
      "#ttg.nvidia_mma<{versionMajor = " + std::to_string(major) +
          ", versionMinor = 0, warpsPerCTA = " + list(wpc) + ", instrShape = " + list(instr) + "}>",
      spec ? gluonSpec("nvidia_mma",
                       {{"version", {major, 0}}, {"warps_per_cta", wpc}, {"instr_shape", instr}})
           : nlohmann::json()};
}

Text amdMfmaText(bool spec, const std::vector<uint64_t>& wpc, int version,
                 const std::vector<uint64_t>& instr, const char* transposed) {
  return {"#ttg.amd_mfma<{version = " + std::to_string(version) + ", warpsPerCTA = " + list(wpc) +
              ", instrShape = " + list(instr) + ", isTransposed = " + transposed + "}>",
          spec ? gluonSpec("amd_mfma", {{"version", version},
                                        {"instr_shape", instr},
                                        {"transposed", std::string(transposed) == "true"},
                                        {"warps_per_cta", wpc}})
               : nlohmann::json()};
}

/// #ttg.amd_wmma with the warps of `wpc` laid out along `ord` (fastest dim first) in its
/// ctaLayout's warp bases (tile units), no register bases.
Text amdWmmaText(std::size_t rank, bool spec, const std::vector<uint64_t>& wpc,
                 const std::vector<uint64_t>& ord, int version, uint64_t k, bool transposed) {
  std::vector<std::vector<uint64_t>> warp;
  for (uint64_t d : ord)
    for (uint64_t step = 1; step < wpc[d]; step *= 2) {
      warp.emplace_back(rank, 0);
      warp.back()[d] = step;
    }
  std::string bases;
  for (const auto& b : warp)
    bases += (bases.empty() ? "" : ", ") + list(b);
  const std::vector<uint64_t> instr = {16, 16, k};
  return {"#ttg.amd_wmma<{version = " + std::to_string(version) +
              ", isTranspose = " + (transposed ? "true" : "false") + ", ctaLayout = {" +
              (warp.empty() ? std::string() : "warp = [" + bases + "]") +
              "}, instrShape = " + list(instr) + (rank == 3 ? ", rank = 3" : "") + "}>",
          spec ? gluonSpec("amd_wmma", {{"version", version},
                                        {"transposed", transposed},
                                        {"warp_bases", warp},
                                        {"reg_bases", std::vector<std::vector<uint64_t>>{}},
                                        {"instr_shape", instr},
                                        {"rank", rank}})
               : nlohmann::json()};
}

/// A #ttg.dot_op over `parent`.
Text dotOpText(bool spec, int opIdx, const Text& parent, std::optional<uint64_t> kWidth) {
  return {"#ttg.dot_op<{opIdx = " + std::to_string(opIdx) + ", parent = " + parent.first +
              (kWidth ? ", kWidth = " + std::to_string(*kWidth) : std::string()) + "}>",
          spec ? gluonSpec("dot_op",
                           {{"operand_index", opIdx},
                            {"parent", parent.second},
                            {"k_width", kWidth.value_or(0)}},
                           false)
               : nlohmann::json()};
}

const std::vector<uint64_t> kMfmaInstr[] = {{32, 32, 8}, {16, 16, 16}, {64, 4, 4}, {4, 64, 4}};

/// dot_op's operands (both) for one warp split: over the MMA (kWidth 1-8) or MFMA (1-16)
/// parents and FMA's blocked ones.
void addDotOperands(const SweepGroup& g, bool spec, const std::vector<uint64_t>& wpc,
                    const std::function<void(Text)>& add) {
  std::size_t rank = g.shape.size();
  for (int opIdx = 0; opIdx <= 1; ++opIdx) {
    if (g.lanes == 32) {
      for (uint64_t k = 1; k <= 8; k *= 2) {
        add(dotOpText(spec, opIdx, nvidiaMmaText(rank, spec, wpc, 2, 8), k));
        for (uint64_t n = 8; n <= 256; n *= 2)
          add(dotOpText(spec, opIdx, nvidiaMmaText(rank, spec, wpc, 3, n), k));
      }
    } else {
      for (uint64_t k = 1; k <= 16; k *= 2)
        for (int version = 0; version <= 4; ++version)
          for (const auto& instr : kMfmaInstr)
            for (const char* t : {"false", "true"})
              add(dotOpText(spec, opIdx, amdMfmaText(spec, wpc, version, instr, t), k));
    }
    // The FMA operand: a #ttg.blocked parent, one element per thread.
    for (const auto& tpw : splits(log2Of(g.lanes), rank))
      for (const auto& ord : orders(rank)) {
        BlockedParams parent{std::vector<uint64_t>(rank, 1), tpw, wpc, ord, {}};
        add(dotOpText(spec, opIdx,
                      {blockedAttributeText(parent), spec ? blockedSpec(parent) : nlohmann::json()},
                      std::nullopt));
      }
  }
}

/// The matrix cores' encodings (nvidia_mma, amd_mfma, amd_wmma) and dot_op's, for each split of
/// the warps.
std::vector<Encoding> matrixEncodings(const SweepGroup& g, const SweepOptions& o) {
  std::vector<Encoding> out;
  const std::string& f = o.family;
  std::size_t rank = g.shape.size();
  bool spec = o.againstTriton;
  std::function<void(Text)> add = [&](Text t) {
    out.push_back({std::move(t.first), std::nullopt, Encoding::Expect::Legal, std::move(t.second)});
  };
  for (const auto& wpc : splits(log2Of(g.warps), rank)) {
    if (f == "nvidia_mma") {
      add(nvidiaMmaText(rank, spec, wpc, 2, 8));
      for (uint64_t n = 8; n <= 256; n *= 2)
        add(nvidiaMmaText(rank, spec, wpc, 3, n));
    }
    if (f == "amd_mfma")
      for (int version = 0; version <= 4; ++version)
        for (const auto& instr : kMfmaInstr)
          for (const char* t : {"false", "true"})
            add(amdMfmaText(spec, wpc, version, instr, t));
    if (f == "amd_wmma")
      for (const auto& ord : orders(rank))
        for (const auto& [version, k] : kWmmaInstructions)
          for (bool t : {false, true})
            add(amdWmmaText(rank, spec, wpc, ord, version, k, t));
    if (f == "dot_op")
      addDotOperands(g, spec, wpc, add);
  }
  return out;
}

} // namespace

/// The encodings of one group, in a fixed order.
std::vector<Encoding> encodingsOf(const SweepGroup& g, const SweepOptions& o) {
  const std::string& f = o.family;
  if (f == "blocked")
    return blockedEncodings(g);
  if (f == "slice")
    return sliceEncodings(g, o);
  if (f == "swizzled_shared")
    return swizzledSharedEncodings(o);
  if (f == "nvmma_shared")
    return nvmmaSharedEncodings(o);
  return matrixEncodings(g, o);
}

/// A layout's identity for de-duplication: the out sizes and every basis.
std::vector<uint64_t> key(const LinearLayout& l) {
  std::vector<uint64_t> k;
  for (const DimSize& d : l.getOutDims())
    k.push_back(d.size);
  for (const DimBases& b : l.getBases()) {
    k.push_back(b.bases.size());
    for (const auto& v : b.bases)
      k.insert(k.end(), v.begin(), v.end());
  }
  return k;
}

/// The layout of one encoding over its group, or the reader's Error (Triton rejects it too).
Result<LinearLayout> layoutOf(const Encoding& e, const SweepGroup& g, const SweepOptions& o) {
  if (e.blocked)
    return blockedToLinearLayout(*e.blocked, g.shape);
  LayoutContext spec;
  spec.shape = g.shape;
  spec.triton = o.triton;
  if (distributedFamily(o.family)) {
    spec.numWarps = g.warps;
    spec.threadsPerWarp = g.lanes;
  }
  auto s = loadSpec(e.attr, spec);
  if (!s.ok())
    return s.error();
  return s->layout;
}

} // namespace llcheck::fuzz::sweep
