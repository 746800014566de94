#include "Reference.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <unordered_map>

namespace llcheck::fuzz {

RefLayout::RefLayout(const LinearLayout& l) : bases_(l.getBases()), outs_(l.getOutDims()) {
  for (const DimBases& d : bases_) {
    ins_.push_back({d.name, uint64_t{1} << d.bases.size()});
    numInputs_ *= uint64_t{1} << d.bases.size();
  }
  for (const DimSize& d : outs_)
    numOutputs_ *= d.size;
}

std::vector<uint64_t> RefLayout::eval(const std::vector<uint64_t>& x) const {
  std::vector<uint64_t> y(outs_.size(), 0);
  for (std::size_t d = 0; d < bases_.size(); ++d)
    for (std::size_t i = 0; i < bases_[d].bases.size(); ++i)
      if ((x[d] >> i) & 1)
        for (std::size_t k = 0; k < outs_.size(); ++k)
          y[k] ^= bases_[d].bases[i][k];
  return y;
}

std::vector<uint64_t> RefLayout::table() const {
  // Input f's bits are its dims' bits side by side (power-of-two sizes), and each output dim
  // XORs on its own, so f's flattened output is the XOR of its bits' flattened images: each
  // entry is one XOR from the entry without its lowest bit.
  std::vector<uint64_t> images;
  for (const DimBases& d : bases_)
    for (const std::vector<uint64_t>& b : d.bases)
      images.push_back(flattenOut(b));
  std::vector<uint64_t> t(numInputs_, 0);
  for (uint64_t f = 1; f < numInputs_; ++f)
    t[f] = t[f & (f - 1)] ^ images[static_cast<std::size_t>(std::countr_zero(f))];
  return t;
}

uint64_t RefLayout::valueOf(const std::vector<DimSize>& dims, const std::vector<uint64_t>& x,
                            DimName d) {
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i].name == d)
      return x[i];
  return 0;
}

std::vector<uint64_t> RefLayout::split(uint64_t f, const std::vector<DimSize>& dims) {
  std::vector<uint64_t> v;
  for (const DimSize& d : dims) {
    v.push_back(f % d.size);
    f /= d.size;
  }
  return v;
}

uint64_t RefLayout::join(const std::vector<uint64_t>& v, const std::vector<DimSize>& dims) {
  uint64_t f = 0, m = 1;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    f += v[d] * m;
    m *= dims[d].size;
  }
  return f;
}

std::vector<uint64_t> imageOf(const RefLayout& r) {
  std::vector<uint64_t> t = r.table();
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

int enumeratedRank(const RefLayout& r) {
  return std::countr_zero(imageOf(r).size());
}

namespace {

/// The column of input bit i of dim d as one integer: output values side by side, each in as
/// many bits as its size needs (computed from the sizes, not from core's packing).
std::vector<uint64_t> columnsOf(const LinearLayout& l) {
  std::vector<uint64_t> cols;
  std::vector<DimSize> outs = l.getOutDims();
  for (const DimBases& d : l.getBases())
    for (const std::vector<uint64_t>& b : d.bases) {
      uint64_t c = 0, m = 1;
      for (std::size_t k = 0; k < outs.size(); ++k) {
        c += b[k] * m;
        m *= outs[k].size;
      }
      cols.push_back(c);
    }
  return cols;
}

} // namespace

std::string distributedViolation(const LinearLayout& l) {
  for (const DimBases& d : l.getBases())
    if (d.name != dims::kRegister && d.name != dims::kLane && d.name != dims::kWarp &&
        d.name != dims::kBlock)
      return "input dim " + d.name.str() + " is not register, lane, warp or block";
  RefLayout r(l);
  if (imageOf(r).size() != r.numOutputs())
    return "not surjective (enumerated)";
  std::set<uint64_t> seen;
  for (uint64_t c : columnsOf(l)) {
    if (std::popcount(c) > 1)
      return "a column has " + std::to_string(std::popcount(c)) + " bits";
    if (c != 0 && !seen.insert(c).second)
      return "a non-zero column repeats";
  }
  return "";
}

std::string memoryViolation(const LinearLayout& l) {
  for (const DimBases& d : l.getBases())
    if (d.name != dims::kOffset && d.name != dims::kBlock)
      return "input dim " + d.name.str() + " is not offset or block";
  RefLayout r(l);
  if (r.numInputs() != r.numOutputs() || imageOf(r).size() != r.numOutputs())
    return "not invertible (enumerated)";
  for (uint64_t c : columnsOf(l))
    if (std::popcount(c) < 1 || std::popcount(c) > 2)
      return "a column has " + std::to_string(std::popcount(c)) + " bits";
  return "";
}

namespace {

/// The lanes of each phase, written out as lists (independently of the model's subspaces).
/// `paired`: every lane reads the same address as lane^1, or every lane as lane^2 (on sm90 an
/// 8- or 16-byte load then serves twice the lanes per phase: gpu_oracle/wavefront_rule).
std::vector<std::vector<int>> phasesOf(const std::string& arch, int accessBytes, bool load,
                                       bool paired) {
  auto groups = [](int warp, int per) {
    std::vector<std::vector<int>> g(static_cast<std::size_t>(warp / per));
    for (int t = 0; t < warp; ++t)
      g[static_cast<std::size_t>(t / per)].push_back(t);
    return g;
  };
  if (arch == "sm90" && load && paired && accessBytes > 4)
    return groups(32, accessBytes == 8 ? 32 : 16);
  if (arch == "sm90" || arch == "sm80")
    return groups(32, accessBytes <= 4 ? 32 : accessBytes == 8 ? 16 : 8);
  if (arch == "gfx950")
    return groups(64, accessBytes <= 4 ? 64 : accessBytes == 8 ? 32 : 16);
  // gfx942: ds_read_b128 serves lanes {0-3, 20-23}, {4-7, 16-19}, ... together.
  if (accessBytes == 16 && load) {
    std::vector<std::vector<int>> g;
    for (int half : {0, 32})
      for (auto [a, b] : std::vector<std::pair<int, int>>{{0, 20}, {4, 16}, {8, 28}, {12, 24}}) {
        std::vector<int> lanes;
        for (int i = 0; i < 4; ++i) {
          lanes.push_back(half + a + i);
          lanes.push_back(half + b + i);
        }
        g.push_back(lanes);
      }
    return g;
  }
  return groups(64, accessBytes <= 4 ? 32 : accessBytes == 8 ? 16 : 8);
}

} // namespace

SimulatedAccess simulateSharedAccess(const LinearLayout& reg, const LinearLayout& shared,
                                     const std::vector<IntervalPad>& padding,
                                     const std::string& arch, int elementBits, int vectorLog2,
                                     bool load) {
  RefLayout r(reg), s(shared);
  std::unordered_map<uint64_t, uint64_t> offsetOf; // flattened element -> offset (block 0)
  for (uint64_t o = 0; o < s.ins()[0].size; ++o) {
    std::vector<uint64_t> x(s.ins().size(), 0);
    x[0] = o;
    offsetOf[s.flattenOut(s.eval(x))] = o;
  }
  auto sizeOf = [&](const char* d) {
    return reg.hasInDim(DimName(d)) ? reg.getInDimSize(DimName(d)) : uint64_t{1};
  };
  uint64_t regs = sizeOf("register"), lanes = sizeOf("lane"), warps = sizeOf("warp");
  uint64_t elemBytes = static_cast<uint64_t>(elementBits / 8);
  uint64_t vecElems = uint64_t{1} << vectorLog2;
  uint64_t accessBytes = vecElems * elemBytes;
  SimulatedAccess out;
  out.vectorValid = true;
  uint64_t banks = arch == "gfx950" ? 64 : 32;
  // One instruction fills the same registers from the same positions in every warp too.
  std::map<std::vector<uint64_t>, std::vector<uint64_t>> positionsOfGroup;
  auto at = [&](std::vector<uint64_t>& x, const char* d, uint64_t v) {
    int i = reg.inDimIndex(DimName(d));
    if (i >= 0)
      x[static_cast<std::size_t>(i)] = v;
  };
  for (uint64_t w = 0; w < warps; ++w) {
    std::map<std::vector<uint64_t>, std::vector<uint64_t>> registersOf;
    // key: the block index of every lane -> per lane, the position in the block of each of
    // the group's registers. One instruction fills a register from the same position in every
    // lane, so these must agree across lanes.
    std::map<std::vector<uint64_t>, std::vector<std::vector<uint64_t>>> instr;
    for (uint64_t rg = 0; rg < regs; ++rg) {
      std::vector<uint64_t> key, low;
      for (uint64_t t = 0; t < lanes; ++t) {
        std::vector<uint64_t> x(static_cast<std::size_t>(reg.getNumInDims()), 0);
        at(x, "register", rg);
        at(x, "lane", t);
        at(x, "warp", w);
        uint64_t off = offsetOf.at(r.flattenOut(r.eval(x)));
        key.push_back(off / vecElems);
        low.push_back(off % vecElems);
      }
      auto& seen = instr[key];
      registersOf[key].push_back(rg);
      seen.resize(lanes);
      for (uint64_t t = 0; t < lanes; ++t)
        seen[t].push_back(low[t]);
    }
    for (const auto& [blocks, lows] : instr) {
      std::set<uint64_t> positions(lows[0].begin(), lows[0].end());
      out.vectorValid = out.vectorValid && positions.size() == vecElems;
      for (const auto& l : lows)
        out.vectorValid = out.vectorValid && l == lows[0];
      auto [it, fresh] = positionsOfGroup.try_emplace(registersOf[blocks], lows[0]);
      out.vectorValid = out.vectorValid && it->second == lows[0];
      ++out.instructions;
      const std::vector<uint64_t>& blockOf = blocks; // a lambda cannot capture a binding
      auto samePartner = [&blockOf](std::size_t m) {
        for (std::size_t t = 0; t < blockOf.size(); ++t)
          if (blockOf[t] != blockOf[t ^ m])
            return false;
        return true;
      };
      bool paired = blocks.size() == 32 && (samePartner(1) || samePartner(2));
      for (const std::vector<int>& phase :
           phasesOf(arch, static_cast<int>(accessBytes), load, paired)) {
        std::map<uint64_t, std::set<uint64_t>> wordsOfBank;
        for (int t : phase) {
          uint64_t start =
              paddedOffset(padding, blocks[static_cast<std::size_t>(t)] * vecElems) * elemBytes;
          for (uint64_t b = start; b < start + accessBytes; b += 4)
            wordsOfBank[(b / 4) % banks].insert(b / 4);
        }
        uint64_t most = 0;
        for (const auto& [bank, words] : wordsOfBank)
          most = std::max<uint64_t>(most, words.size());
        out.wavefronts += most;
        ++out.ideal;
      }
    }
  }
  return out;
}

} // namespace llcheck::fuzz
