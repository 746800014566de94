// The instruction probes of `llcheck hwlayout` (issue 21, "ask the hardware, not the compiler"):
// which single instructions run on the GPU, what each writes into its inputs, and how the host
// turns what the GPU gives back into numbers. One header for three readers, so that they cannot
// drift apart: the CUDA program that runs the probes (gpu_oracle/instructions/probes.cu), the
// host-side decoder that rebuilds each layout and compares it with llcheck's encodings
// (HwLayout.h), and the emulator that plays the GPU's part from the PTX ISA's fragment tables
// (PtxEmulation.h), which the tests use to check the decoder without a GPU.
//
// # How a probe names an element
//
// Every input carries small integers only (0, 1 and 1..8), which every element type holds
// exactly (even e5m2), and every sum the instructions form is exact in their accumulators. A
// number wider than 3 bits goes through in base-8 digits, one launch per digit: digit value
// v (0..7) travels as v + 1, so that 0 still means "nothing arrived here".
//
// - mma.sync (all operands in registers): warp w sets one element slot a of A to 1 (one-hot)
//   and gives every slot b of B the value digit(b) + 1. Then D[m][n] = B[k][n] for the (m, k)
//   that slot a holds, and 0 elsewhere: each D slot that lights up names the B slot that fed
//   it. The probe records the relation {(a, d, b)}: which A slot times which B slot adds into
//   which D slot. No layout is assumed on the GPU; the decoder reads layouts off the relation.
// - wgmma with A and B in shared memory (no swizzle, K-major, the PTX manual's canonical
//   layout): launches put digit(m) + 1 in column k = 0 of A (B's column 0 all ones), digit(n) +
//   1 in column 0 of B (A's column 0 all ones), or A[m][m % K] = 1 and B[n][k] = digit(k) + 1;
//   each D slot then tells its m, its n, and m % K (the last checks the descriptor's K order).
// - wgmma with A in registers: one-hot A slot per CTA, B[n][k] = digit(k) + 1; the D slots that
//   light up (one row) and their value name the slot's row and K column.
// - ldmatrix / stmatrix / TMA / cp.async move bytes: every source byte holds its own index
//   (two launches, low byte then high byte; 0xEE marks a destination byte nothing wrote).
//
// Element slots: the elements of a thread's fragment are numbered in register order, and
// within a 32-bit register from its low bits up (a0 in the low half of the first register,
// as the PTX ISA numbers them); slot = thread * elementsPerThread + element.
//
// Plain C++17 with no dependencies: nvcc compiles it into the probe program.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define LLCHECK_HD __host__ __device__
#else
#define LLCHECK_HD
#endif

namespace llcheck::hwprobe {

enum Elem : int { kF16, kBF16, kTF32, kS8, kE4M3, kE5M2, kF64, kF32, kS32, kU8, kU16, kU32 };

LLCHECK_HD constexpr int elemBits(Elem e) {
  switch (e) {
  case kF16:
  case kBF16:
  case kU16:
    return 16;
  case kS8:
  case kE4M3:
  case kE5M2:
  case kU8:
    return 8;
  case kF64:
    return 64;
  default:
    return 32;
  }
}

inline const char* elemName(Elem e) {
  switch (e) {
  case kF16:
    return "f16";
  case kBF16:
    return "bf16";
  case kTF32:
    return "tf32";
  case kS8:
    return "s8";
  case kE4M3:
    return "e4m3";
  case kE5M2:
    return "e5m2";
  case kF64:
    return "f64";
  case kF32:
    return "f32";
  case kS32:
    return "s32";
  case kU8:
    return "u8";
  case kU16:
    return "u16";
  default:
    return "u32";
  }
}

/// The bit pattern of the small integer v (0..8) in element type e. Every type holds these
/// exactly; the tests decode each pattern independently.
LLCHECK_HD constexpr uint64_t smallValueBits(Elem e, int v) {
  // Index v = 0..8.
  constexpr uint16_t f16[9] = {0x0000, 0x3C00, 0x4000, 0x4200, 0x4400,
                               0x4500, 0x4600, 0x4700, 0x4800};
  constexpr uint16_t bf16[9] = {0x0000, 0x3F80, 0x4000, 0x4040, 0x4080,
                                0x40A0, 0x40C0, 0x40E0, 0x4100};
  constexpr uint32_t f32[9] = {0x00000000, 0x3F800000, 0x40000000, 0x40400000, 0x40800000,
                               0x40A00000, 0x40C00000, 0x40E00000, 0x41000000};
  constexpr uint8_t e4m3[9] = {0x00, 0x38, 0x40, 0x44, 0x48, 0x4A, 0x4C, 0x4E, 0x50};
  constexpr uint8_t e5m2[9] = {0x00, 0x3C, 0x40, 0x42, 0x44, 0x45, 0x46, 0x47, 0x48};
  constexpr uint64_t f64[9] = {0x0000000000000000ull, 0x3FF0000000000000ull, 0x4000000000000000ull,
                               0x4008000000000000ull, 0x4010000000000000ull, 0x4014000000000000ull,
                               0x4018000000000000ull, 0x401C000000000000ull, 0x4020000000000000ull};
  switch (e) {
  case kF16:
    return f16[v];
  case kBF16:
    return bf16[v];
  case kTF32:
  case kF32:
    return f32[v];
  case kE4M3:
    return e4m3[v];
  case kE5M2:
    return e5m2[v];
  case kF64:
    return f64[v];
  default:
    return static_cast<uint64_t>(v); // s8, s32 and the unsigned types: the integer itself
  }
}

/// Base-8 digit d of x (3 bits per digit).
LLCHECK_HD constexpr int digitOf(uint64_t x, int d) {
  return static_cast<int>((x >> (3 * d)) & 7);
}

/// How many base-8 digits the values 0 .. count-1 need (at least 1).
LLCHECK_HD constexpr int digitsFor(uint64_t count) {
  int d = 1;
  while ((uint64_t{1} << (3 * d)) < count)
    ++d;
  return d;
}

// ---- The catalogue ----------------------------------------------------------------------------

enum Family : int { kMmaSync, kWgmmaSS, kWgmmaRS, kLdmatrix, kStmatrix, kTma, kCpAsync };

inline const char* familyName(Family f) {
  switch (f) {
  case kMmaSync:
    return "mma_sync";
  case kWgmmaSS:
    return "wgmma_ss";
  case kWgmmaRS:
    return "wgmma_rs";
  case kLdmatrix:
    return "ldmatrix";
  case kStmatrix:
    return "stmatrix";
  case kTma:
    return "tma";
  default:
    return "cp_async";
  }
}

/// One probe. mma.sync and wgmma: the operand type `elem`, the accumulator `acc` and the
/// shape m x n x k. ldmatrix/stmatrix: `x` matrices, `trans`. TMA: the element type, the
/// swizzle (0, 32, 64 or 128 bytes) and the box, outermost dim first (box[rank-1] is the
/// contiguous one). cp.async: `x` bytes per copy, `trans` standing for the .cg form.
struct Probe {
  const char* id;
  Family family;
  Elem elem;
  Elem acc;
  int m, n, k;
  int x;
  bool trans;
  int swizzle;
  int rank;
  int box[3];
};

// clang-format off
inline constexpr Probe kProbes[] = {
    // mma.sync: every operand in registers.
    {"mma.m16n8k8.f16",      kMmaSync, kF16,  kF32, 16, 8, 8,  0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k16.f16",     kMmaSync, kF16,  kF32, 16, 8, 16, 0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k16.f16.f16", kMmaSync, kF16,  kF16, 16, 8, 16, 0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k8.bf16",     kMmaSync, kBF16, kF32, 16, 8, 8,  0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k16.bf16",    kMmaSync, kBF16, kF32, 16, 8, 16, 0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k8.tf32",     kMmaSync, kTF32, kF32, 16, 8, 8,  0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k32.s8",      kMmaSync, kS8,   kS32, 16, 8, 32, 0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k32.e4m3",    kMmaSync, kE4M3, kF32, 16, 8, 32, 0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k32.e5m2",    kMmaSync, kE5M2, kF32, 16, 8, 32, 0, false, 0, 0, {0, 0, 0}},
    {"mma.m16n8k4.f64",      kMmaSync, kF64,  kF64, 16, 8, 4,  0, false, 0, 0, {0, 0, 0}},
    // wgmma, A and B in shared memory: the accumulator.
    {"wgmma.ss.m64n8k16.f16",   kWgmmaSS, kF16,  kF32, 64, 8,   16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n16k16.f16",  kWgmmaSS, kF16,  kF32, 64, 16,  16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n32k16.f16",  kWgmmaSS, kF16,  kF32, 64, 32,  16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n64k16.f16",  kWgmmaSS, kF16,  kF32, 64, 64,  16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n128k16.f16", kWgmmaSS, kF16,  kF32, 64, 128, 16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n256k16.f16", kWgmmaSS, kF16,  kF32, 64, 256, 16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n8k16.bf16",  kWgmmaSS, kBF16, kF32, 64, 8,   16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n64k16.bf16", kWgmmaSS, kBF16, kF32, 64, 64,  16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n256k16.bf16",kWgmmaSS, kBF16, kF32, 64, 256, 16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n8k8.tf32",   kWgmmaSS, kTF32, kF32, 64, 8,   8,  0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n64k8.tf32",  kWgmmaSS, kTF32, kF32, 64, 64,  8,  0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n8k32.e4m3",  kWgmmaSS, kE4M3, kF32, 64, 8,   32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n32k32.e4m3", kWgmmaSS, kE4M3, kF32, 64, 32,  32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n128k32.e4m3",kWgmmaSS, kE4M3, kF32, 64, 128, 32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n256k32.e4m3",kWgmmaSS, kE4M3, kF32, 64, 256, 32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n8k32.e5m2",  kWgmmaSS, kE5M2, kF32, 64, 8,   32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n256k32.e5m2",kWgmmaSS, kE5M2, kF32, 64, 256, 32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n8k32.s8",    kWgmmaSS, kS8,   kS32, 64, 8,   32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.ss.m64n64k32.s8",   kWgmmaSS, kS8,   kS32, 64, 64,  32, 0, false, 0, 0, {0, 0, 0}},
    // wgmma, A in registers (B in shared memory): the A operand.
    {"wgmma.rs.m64n8k16.f16",   kWgmmaRS, kF16,  kF32, 64, 8, 16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.rs.m64n8k16.bf16",  kWgmmaRS, kBF16, kF32, 64, 8, 16, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.rs.m64n8k8.tf32",   kWgmmaRS, kTF32, kF32, 64, 8, 8,  0, false, 0, 0, {0, 0, 0}},
    {"wgmma.rs.m64n8k32.e4m3",  kWgmmaRS, kE4M3, kF32, 64, 8, 32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.rs.m64n8k32.e5m2",  kWgmmaRS, kE5M2, kF32, 64, 8, 32, 0, false, 0, 0, {0, 0, 0}},
    {"wgmma.rs.m64n8k32.s8",    kWgmmaRS, kS8,   kS32, 64, 8, 32, 0, false, 0, 0, {0, 0, 0}},
    // ldmatrix / stmatrix m8n8 .b16.
    {"ldmatrix.x1",       kLdmatrix, kU16, kU16, 0, 0, 0, 1, false, 0, 0, {0, 0, 0}},
    {"ldmatrix.x2",       kLdmatrix, kU16, kU16, 0, 0, 0, 2, false, 0, 0, {0, 0, 0}},
    {"ldmatrix.x4",       kLdmatrix, kU16, kU16, 0, 0, 0, 4, false, 0, 0, {0, 0, 0}},
    {"ldmatrix.x1.trans", kLdmatrix, kU16, kU16, 0, 0, 0, 1, true,  0, 0, {0, 0, 0}},
    {"ldmatrix.x2.trans", kLdmatrix, kU16, kU16, 0, 0, 0, 2, true,  0, 0, {0, 0, 0}},
    {"ldmatrix.x4.trans", kLdmatrix, kU16, kU16, 0, 0, 0, 4, true,  0, 0, {0, 0, 0}},
    {"stmatrix.x1",       kStmatrix, kU16, kU16, 0, 0, 0, 1, false, 0, 0, {0, 0, 0}},
    {"stmatrix.x2",       kStmatrix, kU16, kU16, 0, 0, 0, 2, false, 0, 0, {0, 0, 0}},
    {"stmatrix.x4",       kStmatrix, kU16, kU16, 0, 0, 0, 4, false, 0, 0, {0, 0, 0}},
    {"stmatrix.x1.trans", kStmatrix, kU16, kU16, 0, 0, 0, 1, true,  0, 0, {0, 0, 0}},
    {"stmatrix.x2.trans", kStmatrix, kU16, kU16, 0, 0, 0, 2, true,  0, 0, {0, 0, 0}},
    {"stmatrix.x4.trans", kStmatrix, kU16, kU16, 0, 0, 0, 4, true,  0, 0, {0, 0, 0}},
    // TMA (cp.async.bulk.tensor) loads into shared memory. The contiguous box dim is one
    // swizzle width (64 bytes unswizzled).
    {"tma.2d.none.u8",   kTma, kU8,  kU8,  0, 0, 0, 0, false, 0,   2, {64, 64, 0}},
    {"tma.2d.none.u16",  kTma, kU16, kU16, 0, 0, 0, 0, false, 0,   2, {64, 32, 0}},
    {"tma.2d.none.u32",  kTma, kU32, kU32, 0, 0, 0, 0, false, 0,   2, {64, 16, 0}},
    {"tma.2d.sw32.u8",   kTma, kU8,  kU8,  0, 0, 0, 0, false, 32,  2, {64, 32, 0}},
    {"tma.2d.sw32.u16",  kTma, kU16, kU16, 0, 0, 0, 0, false, 32,  2, {64, 16, 0}},
    {"tma.2d.sw32.u32",  kTma, kU32, kU32, 0, 0, 0, 0, false, 32,  2, {64, 8, 0}},
    {"tma.2d.sw64.u8",   kTma, kU8,  kU8,  0, 0, 0, 0, false, 64,  2, {64, 64, 0}},
    {"tma.2d.sw64.u16",  kTma, kU16, kU16, 0, 0, 0, 0, false, 64,  2, {64, 32, 0}},
    {"tma.2d.sw64.u32",  kTma, kU32, kU32, 0, 0, 0, 0, false, 64,  2, {64, 16, 0}},
    {"tma.2d.sw128.u8",  kTma, kU8,  kU8,  0, 0, 0, 0, false, 128, 2, {64, 128, 0}},
    {"tma.2d.sw128.u16", kTma, kU16, kU16, 0, 0, 0, 0, false, 128, 2, {64, 64, 0}},
    {"tma.2d.sw128.u32", kTma, kU32, kU32, 0, 0, 0, 0, false, 128, 2, {64, 32, 0}},
    {"tma.3d.none.u16",  kTma, kU16, kU16, 0, 0, 0, 0, false, 0,   3, {2, 32, 32}},
    {"tma.3d.sw32.u16",  kTma, kU16, kU16, 0, 0, 0, 0, false, 32,  3, {2, 32, 16}},
    {"tma.3d.sw64.u16",  kTma, kU16, kU16, 0, 0, 0, 0, false, 64,  3, {2, 32, 32}},
    {"tma.3d.sw128.u8",  kTma, kU8,  kU8,  0, 0, 0, 0, false, 128, 3, {2, 32, 128}},
    {"tma.3d.sw128.u16", kTma, kU16, kU16, 0, 0, 0, 0, false, 128, 3, {2, 32, 64}},
    {"tma.3d.sw128.u32", kTma, kU32, kU32, 0, 0, 0, 0, false, 128, 3, {2, 32, 32}},
    // cp.async: x bytes per thread; `trans` marks .cg.
    {"cp.async.ca.4",  kCpAsync, kU8, kU8, 0, 0, 0, 4,  false, 0, 0, {0, 0, 0}},
    {"cp.async.ca.8",  kCpAsync, kU8, kU8, 0, 0, 0, 8,  false, 0, 0, {0, 0, 0}},
    {"cp.async.ca.16", kCpAsync, kU8, kU8, 0, 0, 0, 16, false, 0, 0, {0, 0, 0}},
    {"cp.async.cg.16", kCpAsync, kU8, kU8, 0, 0, 0, 16, true,  0, 0, {0, 0, 0}},
};
// clang-format on

inline constexpr int kProbeCount = static_cast<int>(sizeof(kProbes) / sizeof(kProbes[0]));

/// The catalogue entry of `id`, or nullptr.
inline const Probe* findProbe(const char* id) {
  for (const Probe& p : kProbes)
    if (std::strcmp(p.id, id) == 0)
      return &p;
  return nullptr;
}

// ---- mma.sync -----------------------------------------------------------------------------

/// Elements per thread of A (m x k), B (k x n) and C/D (m x n) for a warp-level mma.
LLCHECK_HD constexpr int mmaAElems(const Probe& p) {
  return p.m * p.k / 32;
}
LLCHECK_HD constexpr int mmaBElems(const Probe& p) {
  return p.k * p.n / 32;
}
LLCHECK_HD constexpr int mmaDElems(const Probe& p) {
  return p.m * p.n / 32;
}
/// The base-8 digits that name a B slot.
LLCHECK_HD constexpr int mmaDigits(const Probe& p) {
  return digitsFor(static_cast<uint64_t>(32 * mmaBElems(p)));
}
/// Warp w of the probe: A slot w / digits is 1, B carries digit w % digits.
LLCHECK_HD constexpr int mmaWarps(const Probe& p) {
  return 32 * mmaAElems(p) * mmaDigits(p);
}
LLCHECK_HD constexpr int mmaAValue(const Probe& p, int warp, int slot) {
  return slot == warp / mmaDigits(p) ? 1 : 0;
}
LLCHECK_HD constexpr int mmaBValue(const Probe& p, int warp, int slot) {
  return digitOf(static_cast<uint64_t>(slot), warp % mmaDigits(p)) + 1;
}

// ---- wgmma --------------------------------------------------------------------------------

/// wgmma's canonical K-major shared-memory layout without swizzle ("interleave"): core
/// matrices of 8 rows x 16 bytes stored as 128 contiguous bytes; the two core matrices along
/// K (K * element bytes = 32 for every type probed) are LBO = 128 bytes apart, groups of 8 rows
/// SBO = 256 bytes apart. The byte offset of element (row, k).
LLCHECK_HD constexpr uint32_t kMajorOffset(int row, int k, int elemBytes) {
  return static_cast<uint32_t>((row / 8) * 256 + (k * elemBytes / 16) * 128 + (row % 8) * 16 +
                               (k * elemBytes) % 16);
}
inline constexpr uint32_t kWgmmaLbo = 128;
inline constexpr uint32_t kWgmmaSbo = 256;

/// The shared-memory matrix descriptor of sm_90 (start address, LBO, SBO in 16-byte units;
/// base offset 0; layout type 0: no swizzle).
LLCHECK_HD constexpr uint64_t smemDescriptor(uint32_t sharedAddress) {
  return (static_cast<uint64_t>(sharedAddress & 0x3FFFF) >> 4) |
         (static_cast<uint64_t>(kWgmmaLbo >> 4) << 16) |
         (static_cast<uint64_t>(kWgmmaSbo >> 4) << 32);
}

/// The launches of a shared-memory (SS) probe, each a quantity and a digit: quantity 0 is m
/// (2 digits: m < 64), 1 is n (digits of N), 2 is m % K (digits of K).
LLCHECK_HD constexpr int wgmmaSSLaunches(const Probe& p) {
  return digitsFor(64) + digitsFor(static_cast<uint64_t>(p.n)) +
         digitsFor(static_cast<uint64_t>(p.k));
}
LLCHECK_HD constexpr void wgmmaSSLaunch(const Probe& p, int launch, int& quantity, int& digit) {
  int dm = digitsFor(64), dn = digitsFor(static_cast<uint64_t>(p.n));
  if (launch < dm) {
    quantity = 0, digit = launch;
  } else if (launch < dm + dn) {
    quantity = 1, digit = launch - dm;
  } else {
    quantity = 2, digit = launch - dm - dn;
  }
}
/// The value (0..8) of A[m][k] and of B (stored as its transpose, row n, column k).
LLCHECK_HD constexpr int wgmmaSSAValue(const Probe& p, int launch, int m, int k) {
  int q = 0, d = 0;
  wgmmaSSLaunch(p, launch, q, d);
  if (q == 0)
    return k == 0 ? digitOf(static_cast<uint64_t>(m), d) + 1 : 0;
  if (q == 1)
    return k == 0 ? 1 : 0;
  return k == m % p.k ? 1 : 0;
}
LLCHECK_HD constexpr int wgmmaSSBValue(const Probe& p, int launch, int n, int k) {
  int q = 0, d = 0;
  wgmmaSSLaunch(p, launch, q, d);
  if (q == 0)
    return k == 0 ? 1 : 0;
  if (q == 1)
    return k == 0 ? digitOf(static_cast<uint64_t>(n), d) + 1 : 0;
  return digitOf(static_cast<uint64_t>(k), d) + 1;
}
/// Accumulator elements per thread of a warpgroup (128 threads): m x n / 128.
LLCHECK_HD constexpr int wgmmaDElems(const Probe& p) {
  return p.m * p.n / 128;
}
/// A elements per thread when A is in registers: m x k / 128.
LLCHECK_HD constexpr int wgmmaAElems(const Probe& p) {
  return p.m * p.k / 128;
}
/// RS probes: CTA c sets A slot c / digits to 1; B[n][k] = digit(k) + 1.
LLCHECK_HD constexpr int wgmmaRSDigits(const Probe& p) {
  return digitsFor(static_cast<uint64_t>(p.k));
}
LLCHECK_HD constexpr int wgmmaRSLaunches(const Probe& p) {
  return 128 * wgmmaAElems(p) * wgmmaRSDigits(p);
}
LLCHECK_HD constexpr int wgmmaRSAValue(const Probe& p, int launch, int slot) {
  return slot == launch / wgmmaRSDigits(p) ? 1 : 0;
}
LLCHECK_HD constexpr int wgmmaRSBValue(const Probe& p, int launch, int k) {
  return digitOf(static_cast<uint64_t>(k), launch % wgmmaRSDigits(p)) + 1;
}

// ---- ldmatrix / stmatrix ------------------------------------------------------------------

/// Shared memory of a matrix probe: 32 rows of 16 bytes for the matrices, then 8 rows that no
/// matrix uses, given by the lanes an .x1/.x2 instruction ignores.
inline constexpr int kMatrixRows = 40;
inline constexpr int kMatrixBytes = kMatrixRows * 16;

/// The row lane `lane` gives the address of: lanes 8i .. 8i+7 address matrix i's rows, placed
/// at scattered rows (lane ^ 21) so that the decoder must follow the addresses; lanes past the
/// instruction's matrices address the unused rows 32 .. 39.
LLCHECK_HD constexpr int matrixRowOfLane(int lane, int matrices) {
  return lane < 8 * matrices ? (lane ^ 21) : 32 + lane % 8;
}

/// The source index an stmatrix register byte carries: lane * 16 + register * 4 + byte.
LLCHECK_HD constexpr int stmatrixSource(int lane, int reg, int byte) {
  return lane * 16 + reg * 4 + byte;
}

/// A byte nothing wrote reads 0xEE in both launches: 0xEEEE, past every index a probe uses.
inline constexpr uint8_t kPoison = 0xEE;
inline constexpr int kUntouched = 0xEEEE;

// ---- TMA ----------------------------------------------------------------------------------

LLCHECK_HD constexpr int tmaBoxElements(const Probe& p) {
  int n = 1;
  for (int i = 0; i < p.rank; ++i)
    n *= p.box[i];
  return n;
}
LLCHECK_HD constexpr int tmaBoxBytes(const Probe& p) {
  return tmaBoxElements(p) * elemBits(p.elem) / 8;
}

// ---- cp.async -----------------------------------------------------------------------------

/// Lane t copies x bytes from global offset t * x into shared slot g(t) * x, g the Gray code
/// t ^ (t >> 1): a permutation that is F2-linear, so the whole map stays a linear layout.
LLCHECK_HD constexpr int cpAsyncSlot(int lane) {
  return lane ^ (lane >> 1);
}

// ---- Reading digits back ------------------------------------------------------------------

/// Combines the values one output slot received over `digits` launches: all zero is "nothing"
/// (returns -1 with `anomaly` false); all integers 1..8 give the number; anything else is an
/// anomaly (returns -1 with `anomaly` true).
inline int64_t combineDigits(const double* values, int digits, bool& anomaly) {
  anomaly = false;
  bool allZero = true, allDigits = true;
  int64_t code = 0;
  for (int d = 0; d < digits; ++d) {
    double v = values[d];
    if (v != 0)
      allZero = false;
    if (!(v >= 1 && v <= 8 && v == static_cast<double>(static_cast<int>(v))))
      allDigits = false;
    else
      code |= static_cast<int64_t>(static_cast<int>(v) - 1) << (3 * d);
  }
  if (allZero)
    return -1;
  if (!allDigits) {
    anomaly = true;
    return -1;
  }
  return code;
}

} // namespace llcheck::hwprobe
