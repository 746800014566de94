// The PTX ISA's semantics of the probed instructions (PtxEmulation.h), written from the PTX ISA
// (9.7.13.4 "Matrix fragments for mma.m16n8k*", 9.7.15.5 "wgmma register fragments" and "matrix
// descriptor", ldmatrix / stmatrix) and the CUDA programming guide's TMA swizzle patterns.
// Nothing here looks at llcheck's encodings.
#include "llcheck/gpu_oracle/PtxEmulation.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace llcheck::hwlayout {

using namespace hwprobe;

namespace ptx {

RowCol mmaA(const Probe& p, int lane, int e) {
  int group = lane >> 2, tig = lane & 3;
  int bits = elemBits(p.elem);
  if (p.k == 4) // f64: a0 row g, a1 row g + 8; column tig
    return {group + 8 * e, tig};
  if (bits == 32) // tf32 m16n8k8: a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4)
    return {group + 8 * (e & 1), tig + 4 * (e >> 1)};
  if (bits == 8) // m16n8k32: a0..a3 row g, a4..a7 row g + 8, a8.. columns + 16
    return {group + 8 * ((e >> 2) & 1), tig * 4 + (e & 3) + 16 * (e >> 3)};
  if (p.k == 8) // 16-bit m16n8k8: a0, a1 row g; a2, a3 row g + 8
    return {group + 8 * (e >> 1), tig * 2 + (e & 1)};
  // 16-bit m16n8k16: a0, a1 (g, 2t..); a2, a3 row g + 8; a4..a7 columns + 8
  return {group + 8 * ((e >> 1) & 1), tig * 2 + (e & 1) + 8 * (e >> 2)};
}

RowCol mmaB(const Probe& p, int lane, int e) {
  int group = lane >> 2, tig = lane & 3;
  int bits = elemBits(p.elem);
  if (p.k == 4) // f64: b0 (t, g)
    return {tig, group};
  if (bits == 32) // tf32: b0 (t, g), b1 (t + 4, g)
    return {tig + 4 * e, group};
  if (bits == 8) // m16n8k32: b0..b3 rows 4t.., b4..b7 rows + 16
    return {tig * 4 + (e & 3) + 16 * (e >> 2), group};
  if (p.k == 8) // 16-bit m16n8k8: b0, b1 rows 2t, 2t + 1
    return {tig * 2 + e, group};
  return {tig * 2 + (e & 1) + 8 * (e >> 1), group}; // m16n8k16: b2, b3 rows + 8
}

RowCol mmaC(const Probe&, int lane, int e) {
  int group = lane >> 2, tig = lane & 3;
  return {group + 8 * (e >> 1), tig * 2 + (e & 1)}; // c0, c1 row g; c2, c3 row g + 8
}

RowCol wgmmaD(int t, int e) {
  int warp = t / 32, lane = t % 32, group = lane >> 2, tig = lane & 3;
  return {16 * warp + group + 8 * ((e >> 1) & 1), 8 * (e >> 2) + tig * 2 + (e & 1)};
}

RowCol wgmmaA(const Probe& p, int t, int e) {
  // Each warp of the warpgroup holds rows 16w .. 16w + 15 as mma.sync's A fragment of the
  // same K (k16: the m16n8k16 table; k32: m16n8k32; tf32 k8: m16n8k8).
  Probe q = p;
  q.m = 16;
  RowCol rc = mmaA(q, t % 32, e);
  rc.row += 16 * (t / 32);
  return rc;
}

uint32_t descriptorAddress(uint64_t desc, int row, int k, int elemBytes) {
  uint32_t start = static_cast<uint32_t>(desc & 0x3FFF) << 4;
  uint32_t lbo = static_cast<uint32_t>((desc >> 16) & 0x3FFF) << 4;
  uint32_t sbo = static_cast<uint32_t>((desc >> 32) & 0x3FFF) << 4;
  if ((desc >> 62) != 0)
    throw std::logic_error("the emulation reads unswizzled descriptors only");
  // K-major, no swizzle: 8 x 16-byte core matrices; LBO between core matrices along K, SBO
  // between groups of 8 rows.
  int kByte = k * elemBytes;
  return start + static_cast<uint32_t>(row / 8) * sbo + static_cast<uint32_t>(kByte / 16) * lbo +
         static_cast<uint32_t>((row % 8) * 16 + kByte % 16);
}

int ldmatrixSource(const int* rowAddress, bool trans, int lane, int reg, int byte) {
  // Register i holds matrix i, whose row r lane 8i + r addressed.
  if (!trans) // lane t: row t / 4, bytes 4 (t % 4) .. + 3
    return rowAddress[8 * reg + lane / 4] + 4 * (lane % 4) + byte;
  // .trans: lane t holds (row 2 (t % 4) + h, column t / 4) in its half h.
  int h = byte / 2;
  return rowAddress[8 * reg + 2 * (lane % 4) + h] + 2 * (lane / 4) + byte % 2;
}

int tmaSwizzle(int linear, int swizzle) {
  if (swizzle == 0)
    return linear;
  // The 16-byte chunk within each swizzle span XORs the index of the 128-byte line it is on
  // (modulo span / 16): 32B swizzles address bit 4 with bit 7, 64B bits 4-5 with 7-8, 128B
  // bits 4-6 with 7-9.
  int mask = swizzle / 16 - 1;
  return linear ^ (((linear >> 7) & mask) << 4);
}

} // namespace ptx

namespace {

/// The small integer whose bits `bits` are in type e (0..8), as the probes store them.
int smallValueOf(Elem e, uint64_t bits) {
  for (int v = 0; v <= 8; ++v)
    if (smallValueBits(e, v) == bits)
      return v;
  throw std::logic_error("not a probe value");
}

void writeSmall(std::vector<uint8_t>& mem, uint32_t at, Elem e, int v) {
  uint64_t bits = smallValueBits(e, v);
  for (int i = 0; i < elemBits(e) / 8; ++i)
    mem.at(at + static_cast<uint32_t>(i)) = static_cast<uint8_t>(bits >> (8 * i));
}

int readSmall(const std::vector<uint8_t>& mem, uint32_t at, Elem e) {
  uint64_t bits = 0;
  for (int i = 0; i < elemBits(e) / 8; ++i)
    bits |= static_cast<uint64_t>(mem.at(at + static_cast<uint32_t>(i))) << (8 * i);
  return smallValueOf(e, bits);
}

/// Hits as probes.cu's Relation writes them.
struct Hits {
  nlohmann::json hits = nlohmann::json::array();
  void add(int a, int d, const std::vector<double>& values) {
    bool bad = false;
    int64_t code = combineDigits(values.data(), static_cast<int>(values.size()), bad);
    if (bad)
      throw std::logic_error("the emulation produced a value that is not a digit");
    if (code >= 0)
      hits.push_back({a, d, code});
  }
};

nlohmann::json emulateMma(const Probe& p) {
  int na = mmaAElems(p), nb = mmaBElems(p), nd = mmaDElems(p), digits = mmaDigits(p);
  Hits h;
  for (int a = 0; a < 32 * na; ++a) {
    // D over the digit launches of this one-hot A slot.
    std::vector<std::vector<double>> d(static_cast<std::size_t>(32 * nd),
                                       std::vector<double>(static_cast<std::size_t>(digits)));
    for (int dg = 0; dg < digits; ++dg) {
      int warp = a * digits + dg;
      std::vector<std::vector<int>> A(static_cast<std::size_t>(p.m), std::vector<int>(p.k, 0));
      std::vector<std::vector<int>> B(static_cast<std::size_t>(p.k), std::vector<int>(p.n, 0));
      for (int lane = 0; lane < 32; ++lane) {
        for (int e = 0; e < na; ++e) {
          RowCol rc = ptx::mmaA(p, lane, e);
          A[rc.row][rc.col] = mmaAValue(p, warp, lane * na + e);
        }
        for (int e = 0; e < nb; ++e) {
          RowCol rc = ptx::mmaB(p, lane, e);
          B[rc.row][rc.col] = mmaBValue(p, warp, lane * nb + e);
        }
      }
      for (int lane = 0; lane < 32; ++lane)
        for (int e = 0; e < nd; ++e) {
          RowCol rc = ptx::mmaC(p, lane, e);
          int sum = 0;
          for (int kk = 0; kk < p.k; ++kk)
            sum += A[rc.row][kk] * B[kk][rc.col];
          d[static_cast<std::size_t>(lane * nd + e)][dg] = sum;
        }
    }
    for (int s = 0; s < 32 * nd; ++s)
      h.add(a, s, d[static_cast<std::size_t>(s)]);
  }
  return {{"digits", digits}, {"hits", h.hits}, {"anomalies", nlohmann::json::array()}};
}

/// Shared memory of a wgmma probe at a nonzero base, as the kernel fills it.
constexpr uint32_t kBase = 0x400;
constexpr uint32_t kBOffset = 64 * 32;

/// D = A x B^T for one launch, A and B read through their descriptors.
std::vector<int> wgmmaLaunch(const Probe& p, const std::vector<uint8_t>& mem,
                             const std::vector<std::vector<int>>* aRegisters) {
  int eb = elemBits(p.elem) / 8;
  uint64_t descB = smemDescriptor(kBase + kBOffset);
  std::vector<std::vector<int>> A(64, std::vector<int>(p.k, 0));
  if (aRegisters) {
    A = *aRegisters;
  } else {
    uint64_t descA = smemDescriptor(kBase);
    for (int m = 0; m < 64; ++m)
      for (int k = 0; k < p.k; ++k)
        A[m][k] = readSmall(mem, ptx::descriptorAddress(descA, m, k, eb) - kBase, p.elem);
  }
  std::vector<std::vector<int>> B(static_cast<std::size_t>(p.n), std::vector<int>(p.k, 0));
  for (int n = 0; n < p.n; ++n)
    for (int k = 0; k < p.k; ++k)
      B[n][k] = readSmall(mem, ptx::descriptorAddress(descB, n, k, eb) - kBase, p.elem);
  std::vector<int> D(static_cast<std::size_t>(128 * wgmmaDElems(p)));
  for (int t = 0; t < 128; ++t)
    for (int e = 0; e < wgmmaDElems(p); ++e) {
      RowCol rc = ptx::wgmmaD(t, e);
      int sum = 0;
      for (int k = 0; k < p.k; ++k)
        sum += A[rc.row][k] * B[rc.col][k];
      D[static_cast<std::size_t>(t * wgmmaDElems(p) + e)] = sum;
    }
  return D;
}

nlohmann::json emulateWgmmaSS(const Probe& p) {
  int eb = elemBits(p.elem) / 8, launches = wgmmaSSLaunches(p), regs = wgmmaDElems(p);
  std::vector<std::vector<int>> out;
  for (int l = 0; l < launches; ++l) {
    std::vector<uint8_t> mem(kBOffset + static_cast<std::size_t>(p.n) * 32, 0);
    for (int m = 0; m < 64; ++m)
      for (int k = 0; k < p.k; ++k)
        writeSmall(mem, kMajorOffset(m, k, eb), p.elem, wgmmaSSAValue(p, l, m, k));
    for (int n = 0; n < p.n; ++n)
      for (int k = 0; k < p.k; ++k)
        writeSmall(mem, kBOffset + kMajorOffset(n, k, eb), p.elem, wgmmaSSBValue(p, l, n, k));
    out.push_back(wgmmaLaunch(p, mem, nullptr));
  }
  nlohmann::json q = nlohmann::json::object();
  const char* names[3] = {"m", "n", "k"};
  for (int quantity = 0; quantity < 3; ++quantity) {
    std::vector<int> mine;
    for (int l = 0; l < launches; ++l) {
      int lq = 0, ld = 0;
      wgmmaSSLaunch(p, l, lq, ld);
      if (lq == quantity)
        mine.push_back(l);
    }
    nlohmann::json codes = nlohmann::json::array();
    for (int s = 0; s < 128 * regs; ++s) {
      std::vector<double> v;
      for (int l : mine)
        v.push_back(out[static_cast<std::size_t>(l)][static_cast<std::size_t>(s)]);
      bool bad = false;
      codes.push_back(combineDigits(v.data(), static_cast<int>(v.size()), bad));
    }
    q[names[quantity]] = codes;
  }
  return {{"quantities", q}, {"anomalies", nlohmann::json::array()}};
}

nlohmann::json emulateWgmmaRS(const Probe& p) {
  int eb = elemBits(p.elem) / 8, digits = wgmmaRSDigits(p), na = wgmmaAElems(p);
  int regs = wgmmaDElems(p);
  Hits h;
  for (int a = 0; a < 128 * na; ++a) {
    std::vector<std::vector<double>> d(static_cast<std::size_t>(128 * regs),
                                       std::vector<double>(static_cast<std::size_t>(digits)));
    for (int dg = 0; dg < digits; ++dg) {
      int launch = a * digits + dg;
      std::vector<uint8_t> mem(kBOffset + 8 * 32, 0);
      for (int n = 0; n < 8; ++n)
        for (int k = 0; k < p.k; ++k)
          writeSmall(mem, kBOffset + kMajorOffset(n, k, eb), p.elem, wgmmaRSBValue(p, launch, k));
      std::vector<std::vector<int>> A(64, std::vector<int>(p.k, 0));
      for (int t = 0; t < 128; ++t)
        for (int e = 0; e < na; ++e) {
          RowCol rc = ptx::wgmmaA(p, t, e);
          A[rc.row][rc.col] = wgmmaRSAValue(p, launch, t * na + e);
        }
      auto D = wgmmaLaunch(p, mem, &A);
      for (std::size_t s = 0; s < D.size(); ++s)
        d[s][dg] = D[s];
    }
    for (int s = 0; s < 128 * regs; ++s)
      h.add(a, s, d[static_cast<std::size_t>(s)]);
  }
  return {{"digits", digits}, {"hits", h.hits}, {"anomalies", nlohmann::json::array()}};
}

std::vector<int> rowAddresses(int x) {
  std::vector<int> rows;
  for (int lane = 0; lane < 32; ++lane)
    rows.push_back(16 * matrixRowOfLane(lane, x));
  return rows;
}

nlohmann::json emulateMatrix(const Probe& p) {
  auto rows = rowAddresses(p.x);
  if (p.family == kLdmatrix) {
    std::vector<int> src;
    for (int lane = 0; lane < 32; ++lane)
      for (int reg = 0; reg < p.x; ++reg)
        for (int byte = 0; byte < 4; ++byte)
          src.push_back(ptx::ldmatrixSource(rows.data(), p.trans, lane, reg, byte));
    return {{"row_addresses", rows}, {"registers", src}};
  }
  std::vector<int> shared(kMatrixBytes, kUntouched);
  for (int lane = 0; lane < 32; ++lane)
    for (int reg = 0; reg < p.x; ++reg)
      for (int byte = 0; byte < 4; ++byte)
        shared[static_cast<std::size_t>(ptx::ldmatrixSource(
            rows.data(), p.trans, lane, reg, byte))] = stmatrixSource(lane, reg, byte);
  return {{"row_addresses", rows}, {"shared", shared}};
}

nlohmann::json emulateTma(const Probe& p) {
  int bytes = tmaBoxBytes(p);
  std::vector<int> shared(static_cast<std::size_t>(bytes), kUntouched);
  for (int g = 0; g < bytes; ++g)
    shared[static_cast<std::size_t>(ptx::tmaSwizzle(g, p.swizzle))] = g;
  return {{"shared", shared}};
}

nlohmann::json emulateCpAsync(const Probe& p) {
  std::vector<int> shared(512, kUntouched);
  for (int lane = 0; lane < 32; ++lane)
    for (int b = 0; b < p.x; ++b)
      shared[static_cast<std::size_t>(cpAsyncSlot(lane) * p.x + b)] = lane * p.x + b;
  return {{"shared", shared}};
}

} // namespace

nlohmann::json emulateProbe(const Probe& p) {
  switch (p.family) {
  case kMmaSync:
    return emulateMma(p);
  case kWgmmaSS:
    return emulateWgmmaSS(p);
  case kWgmmaRS:
    return emulateWgmmaRS(p);
  case kLdmatrix:
  case kStmatrix:
    return emulateMatrix(p);
  case kTma:
    return emulateTma(p);
  default:
    return emulateCpAsync(p);
  }
}

nlohmann::json emulateResults() {
  nlohmann::json probes = nlohmann::json::array();
  for (const Probe& p : kProbes)
    probes.push_back({{"id", p.id},
                      {"family", familyName(p.family)},
                      {"ok", true},
                      {"observed", emulateProbe(p)}});
  return {{"format", "llcheck-hwlayout 1"},
          {"emulated", true},
          {"gpu", ""},
          {"driver", ""},
          {"date", ""},
          {"probes", probes}};
}

} // namespace llcheck::hwlayout
