// The instruction probes of `llcheck hwlayout`: single instructions run on an NVIDIA Hopper GPU
// (sm_90a) with inputs that name each element, and what the GPU gave back written as JSON.
// No layout is computed here: every probe only records what arrived where, in the numbers of
// InstructionProbes.h (which also says what each probe writes into its inputs). The host-side
// decoder (gpu_oracle/src/HwLayout.cpp, `llcheck hwlayout RESULTS`) rebuilds the layouts and
// compares them with llcheck's encodings, on any machine.
//
//   hwprobes --list                      the probe ids, one a line
//   hwprobes [--only ID,ID..] [--family F] --out FILE
//
// Each probe is isolated: an exception or a failed CUDA call is recorded as that probe's error
// (and the device reset) and the next one runs; run.sh also runs every probe in its own process.
// Build: nvcc -O2 -std=c++17 -arch=sm_90a -I gpu_oracle/include gpu_oracle/instructions/probes.cu
#include "llcheck/gpu_oracle/InstructionProbes.h"

#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using namespace llcheck::hwprobe;

namespace {

struct CudaFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess)                                                                       \
      throw CudaFailure(std::string(#call) + " failed: " + cudaGetErrorString(err_) + " (line " + \
                        std::to_string(__LINE__) + ")");                                           \
  } while (0)

__device__ __forceinline__ unsigned sharedAddress(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// Writes the little-endian bytes of value v (0..8) in type e at p.
__device__ void storeSmall(unsigned char* p, Elem e, int v) {
  uint64_t bits = smallValueBits(e, v);
  int bytes = elemBits(e) / 8;
  for (int i = 0; i < bytes; ++i)
    p[i] = static_cast<unsigned char>(bits >> (8 * i));
}

/// Packs element e of a fragment (slot value v) into 32-bit words, low bits first.
__device__ void packSmall(uint32_t* words, Elem type, int e, int v) {
  uint64_t bits = smallValueBits(type, v);
  int b = elemBits(type);
  if (b == 64) {
    words[2 * e] = static_cast<uint32_t>(bits);
    words[2 * e + 1] = static_cast<uint32_t>(bits >> 32);
  } else {
    words[e * b / 32] |= static_cast<uint32_t>(bits) << ((e * b) % 32);
  }
}

// ---- mma.sync ---------------------------------------------------------------------------------

enum MmaOp {
  kM16N8K8F16,
  kM16N8K16F16,
  kM16N8K16F16F16,
  kM16N8K8BF16,
  kM16N8K16BF16,
  kM16N8K8TF32,
  kM16N8K32S8,
  kM16N8K32E4M3,
  kM16N8K32E5M2,
  kM16N8K4F64
};

/// One mma.sync with C = 0; d receives the accumulator's raw 32-bit words (8 at most).
template <int OP> __device__ void mmaInstr(const uint32_t* a, const uint32_t* b, uint32_t* d) {
  if constexpr (OP == kM16N8K4F64) {
    double a0 = __hiloint2double(static_cast<int>(a[1]), static_cast<int>(a[0]));
    double a1 = __hiloint2double(static_cast<int>(a[3]), static_cast<int>(a[2]));
    double b0 = __hiloint2double(static_cast<int>(b[1]), static_cast<int>(b[0]));
    double c[4] = {0, 0, 0, 0}, r[4];
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, "
                 "{%6}, {%7, %8, %9, %10};"
                 : "=d"(r[0]), "=d"(r[1]), "=d"(r[2]), "=d"(r[3])
                 : "d"(a0), "d"(a1), "d"(b0), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    for (int i = 0; i < 4; ++i) {
      d[2 * i] = static_cast<uint32_t>(__double2loint(r[i]));
      d[2 * i + 1] = static_cast<uint32_t>(__double2hiint(r[i]));
    }
  } else if constexpr (OP == kM16N8K16F16F16) {
    uint32_t c0 = 0, c1 = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, "
                 "{%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c0),
                   "r"(c1));
  } else if constexpr (OP == kM16N8K32S8) {
    int c = 0;
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, "
                 "%7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c),
                   "r"(c), "r"(c), "r"(c));
  } else {
    float c = 0, r[4];
    if constexpr (OP == kM16N8K8F16)
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, "
                   "{%6}, {%7, %8, %9, %10};"
                   : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                   : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c), "f"(c), "f"(c), "f"(c));
    else if constexpr (OP == kM16N8K16F16)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, "
                   "%6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                   : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c),
                     "f"(c), "f"(c), "f"(c));
    else if constexpr (OP == kM16N8K8BF16)
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, "
                   "%5}, {%6}, {%7, %8, %9, %10};"
                   : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                   : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c), "f"(c), "f"(c), "f"(c));
    else if constexpr (OP == kM16N8K16BF16)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, "
                   "%5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                   : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c),
                     "f"(c), "f"(c), "f"(c));
    else if constexpr (OP == kM16N8K8TF32)
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, "
                   "%5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                   : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c),
                     "f"(c), "f"(c), "f"(c));
    else if constexpr (OP == kM16N8K32E4M3)
      asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, "
                   "%5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                   : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c),
                     "f"(c), "f"(c), "f"(c));
    else
      asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {%0, %1, %2, %3}, {%4, "
                   "%5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                   : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c),
                     "f"(c), "f"(c), "f"(c));
    for (int i = 0; i < 4; ++i)
      d[i] = __float_as_uint(r[i]);
  }
}

/// Warp w: A slot w / digits is 1, every B slot b holds digit (w % digits) of b, plus 1.
/// out: [warp][lane][8 words].
template <int OP> __global__ void mmaKernel(Probe p, int warps, uint32_t* out) {
  int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
  int lane = static_cast<int>(threadIdx.x % 32);
  if (warp >= warps)
    return; // whole warps leave together: mma.sync needs all 32 lanes
  uint32_t a[8] = {0, 0, 0, 0, 0, 0, 0, 0}, b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  uint32_t d[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int na = mmaAElems(p), nb = mmaBElems(p);
  for (int e = 0; e < na; ++e)
    packSmall(a, p.elem, e, mmaAValue(p, warp, lane * na + e));
  for (int e = 0; e < nb; ++e)
    packSmall(b, p.elem, e, mmaBValue(p, warp, lane * nb + e));
  mmaInstr<OP>(a, b, d);
  for (int i = 0; i < 8; ++i)
    out[(static_cast<size_t>(warp) * 32 + lane) * 8 + i] = d[i];
}

// ---- wgmma ------------------------------------------------------------------------------------

#include "wgmma_ops.inc"

__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void wgmmaFence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wgmmaCommitAndWait() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}
template <class T> __device__ uint32_t rawBits(T v) {
  if constexpr (sizeof(T) == 4 && std::is_same<T, float>::value)
    return __float_as_uint(v);
  else
    return static_cast<uint32_t>(v);
}

constexpr int kWgmmaABytes = 64 * 32; // 64 rows x 32 bytes of K

/// CTA `launch` of an SS probe: A (64 x K) and B (N x K, K-major) in shared memory hold the
/// launch's values; out: [launch][thread][register].
template <class Op> __global__ void __launch_bounds__(128) wgmmaSSKernel(Probe p, uint32_t* out) {
  extern __shared__ __align__(128) unsigned char smem[];
  int launch = static_cast<int>(blockIdx.x);
  int t = static_cast<int>(threadIdx.x);
  int eb = elemBits(p.elem) / 8;
  unsigned char* A = smem;
  unsigned char* B = smem + kWgmmaABytes;
  for (int i = t; i < 64 * p.k; i += 128)
    storeSmall(A + kMajorOffset(i / p.k, i % p.k, eb), p.elem,
               wgmmaSSAValue(p, launch, i / p.k, i % p.k));
  for (int i = t; i < p.n * p.k; i += 128)
    storeSmall(B + kMajorOffset(i / p.k, i % p.k, eb), p.elem,
               wgmmaSSBValue(p, launch, i / p.k, i % p.k));
  fenceProxyAsync(); // the generic-proxy stores above, before the async proxy reads them
  __syncthreads();
  typename Op::Acc d[Op::kRegs];
#pragma unroll
  for (int r = 0; r < Op::kRegs; ++r)
    d[r] = 0;
  wgmmaFence();
  Op::run(d, smemDescriptor(sharedAddress(A)), smemDescriptor(sharedAddress(B)));
  wgmmaCommitAndWait();
#pragma unroll
  for (int r = 0; r < Op::kRegs; ++r)
    out[(static_cast<size_t>(launch) * 128 + t) * Op::kRegs + r] = rawBits(d[r]);
}

/// CTA `launch` of an RS probe: one A slot is 1, B (8 x K) holds digit(k) + 1;
/// out: [launch][thread][4].
template <class Op> __global__ void __launch_bounds__(128) wgmmaRSKernel(Probe p, uint32_t* out) {
  __shared__ __align__(128) unsigned char B[8 * 32];
  int launch = static_cast<int>(blockIdx.x);
  int t = static_cast<int>(threadIdx.x);
  int eb = elemBits(p.elem) / 8;
  for (int i = t; i < 8 * p.k; i += 128)
    storeSmall(B + kMajorOffset(i / p.k, i % p.k, eb), p.elem, wgmmaRSBValue(p, launch, i % p.k));
  fenceProxyAsync();
  __syncthreads();
  uint32_t a[4] = {0, 0, 0, 0};
  int na = wgmmaAElems(p);
  for (int e = 0; e < na; ++e)
    packSmall(a, p.elem, e, wgmmaRSAValue(p, launch, t * na + e));
  typename Op::Acc d[Op::kRegs];
#pragma unroll
  for (int r = 0; r < Op::kRegs; ++r)
    d[r] = 0;
  wgmmaFence();
  Op::run(d, a, smemDescriptor(sharedAddress(B)));
  wgmmaCommitAndWait();
#pragma unroll
  for (int r = 0; r < Op::kRegs; ++r)
    out[(static_cast<size_t>(launch) * 128 + t) * Op::kRegs + r] = rawBits(d[r]);
}

// ---- ldmatrix / stmatrix ----------------------------------------------------------------------

/// Launch `digit`: every shared byte j holds byte `digit` of j; lane t gives the address of row
/// matrixRowOfLane(t). out: [digit][lane][4 words].
template <int X, bool TRANS> __global__ void ldmatrixKernel(uint32_t* out) {
  __shared__ __align__(16) unsigned char s[kMatrixBytes];
  int digit = static_cast<int>(blockIdx.x);
  int lane = static_cast<int>(threadIdx.x);
  for (int j = lane; j < kMatrixBytes; j += 32)
    s[j] = static_cast<unsigned char>(j >> (8 * digit));
  __syncwarp();
  unsigned addr = sharedAddress(s + 16 * matrixRowOfLane(lane, X));
  uint32_t r[4] = {0, 0, 0, 0};
  if constexpr (X == 1 && !TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(addr)
                 : "memory");
  else if constexpr (X == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(addr)
                 : "memory");
  else if constexpr (X == 2 && !TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr)
                 : "memory");
  else if constexpr (X == 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr)
                 : "memory");
  else if constexpr (!TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
  for (int i = 0; i < 4; ++i)
    out[(static_cast<size_t>(digit) * 32 + lane) * 4 + i] = r[i];
}

/// Launch `digit`: register byte (lane, reg, byte) holds byte `digit` of its stmatrixSource;
/// shared memory starts as kPoison. out: [digit][kMatrixBytes].
template <int X, bool TRANS> __global__ void stmatrixKernel(unsigned char* out) {
  __shared__ __align__(16) unsigned char s[kMatrixBytes];
  int digit = static_cast<int>(blockIdx.x);
  int lane = static_cast<int>(threadIdx.x);
  for (int j = lane; j < kMatrixBytes; j += 32)
    s[j] = kPoison;
  __syncwarp();
  uint32_t r[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; ++i)
    for (int b = 0; b < 4; ++b)
      r[i] |= ((static_cast<uint32_t>(stmatrixSource(lane, i, b)) >> (8 * digit)) & 0xFF)
              << (8 * b);
  unsigned addr = sharedAddress(s + 16 * matrixRowOfLane(lane, X));
  if constexpr (X == 1 && !TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(addr), "r"(r[0])
                 : "memory");
  else if constexpr (X == 1)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(addr),
                 "r"(r[0])
                 : "memory");
  else if constexpr (X == 2 && !TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(addr),
                 "r"(r[0]), "r"(r[1])
                 : "memory");
  else if constexpr (X == 2)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(addr),
                 "r"(r[0]), "r"(r[1])
                 : "memory");
  else if constexpr (!TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
  else
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(
                     addr),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
  __syncwarp();
  for (int j = lane; j < kMatrixBytes; j += 32)
    out[static_cast<size_t>(digit) * kMatrixBytes + j] = s[j];
}

// ---- TMA ----------------------------------------------------------------------------------

constexpr int kTmaAlign = 1024; // the 128-byte swizzle repeats every 1024 bytes of address

/// One box loaded at coordinates 0 into shared memory first filled with kPoison; out: the
/// box's bytes as they lie in shared memory. `status` is set to 1 when the load never arrives.
__global__ void tmaKernel(const __grid_constant__ CUtensorMap map, int rank, int boxBytes,
                          unsigned char* out, int* status) {
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) uint64_t bar;
  unsigned char* s = raw + ((kTmaAlign - (sharedAddress(raw) % kTmaAlign)) % kTmaAlign);
  int t = static_cast<int>(threadIdx.x);
  for (int j = t; j < boxBytes; j += blockDim.x)
    s[j] = kPoison;
  fenceProxyAsync(); // the poison, before the async proxy's writes
  unsigned b = sharedAddress(&bar);
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (t == 0) {
    unsigned dst = sharedAddress(s);
    uint64_t desc = reinterpret_cast<uint64_t>(&map);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(boxBytes)
                 : "memory");
    if (rank == 2)
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::"
                   "bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
                   "l"(desc), "r"(b), "r"(0), "r"(0)
                   : "memory");
    else
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::"
                   "bytes [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(dst),
                   "l"(desc), "r"(b), "r"(0), "r"(0), "r"(0)
                   : "memory");
  }
  uint32_t done = 0;
  for (long i = 0; i < (1L << 24) && !done; ++i)
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(b)
                 : "memory");
  if (!done && t == 0)
    *status = 1;
  __syncthreads();
  for (int j = t; j < boxBytes; j += blockDim.x)
    out[j] = s[j];
}

// ---- cp.async -----------------------------------------------------------------------------

/// Launch `digit`: lane t copies S bytes from src + digit * 512 + t * S to shared slot
/// cpAsyncSlot(t); out: [digit][512].
template <int S, bool CG> __global__ void cpAsyncKernel(const unsigned char* src, unsigned char* out) {
  __shared__ __align__(16) unsigned char s[512];
  int digit = static_cast<int>(blockIdx.x);
  int lane = static_cast<int>(threadIdx.x);
  for (int j = lane; j < 512; j += 32)
    s[j] = kPoison;
  __syncwarp();
  unsigned dst = sharedAddress(s + cpAsyncSlot(lane) * S);
  const unsigned char* from = src + digit * 512 + lane * S;
  if constexpr (CG)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(from) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(from), "n"(S)
                 : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncwarp();
  for (int j = lane; j < 512; j += 32)
    out[static_cast<size_t>(digit) * 512 + j] = s[j];
}

// ---- Host ---------------------------------------------------------------------------------

/// Device memory that frees itself.
struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(size_t bytes) { CHECK(cudaMalloc(&p, bytes)); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T> T* as() const { return static_cast<T*>(p); }
};

void finish(const char* what) {
  CHECK(cudaGetLastError());
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    throw CudaFailure(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class T> std::vector<T> download(const DeviceBuffer& d, size_t count) {
  std::vector<T> h(count);
  CHECK(cudaMemcpy(h.data(), d.p, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

std::string num(double v) {
  if (std::isnan(v))
    return "\"nan\"";
  if (std::isinf(v))
    return v > 0 ? "\"inf\"" : "\"-inf\"";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

template <class V> std::string jsonArray(const std::vector<V>& v) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < v.size(); ++i)
    s << (i ? "," : "") << v[i];
  s << "]";
  return s.str();
}

/// The value a 32-bit accumulator word (or pair, for f64) stands for.
double accValue(Elem acc, const uint32_t* words, int element) {
  switch (acc) {
  case kF32: {
    float f;
    std::memcpy(&f, &words[element], 4);
    return f;
  }
  case kS32:
    return static_cast<double>(static_cast<int32_t>(words[element]));
  case kF16: {
    uint16_t h = static_cast<uint16_t>(words[element / 2] >> (16 * (element % 2)));
    __half_raw r;
    r.x = h;
    return static_cast<double>(__half2float(__half(r)));
  }
  default: { // f64
    uint64_t bits = words[2 * element] | (static_cast<uint64_t>(words[2 * element + 1]) << 32);
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  }
}

/// Per group of `digits` launches (one A slot), the D slots that lit up and their code.
struct Relation {
  std::ostringstream hits, anomalies;
  int hitCount = 0, anomalyCount = 0;
  void add(int a, int d, const double* values, int digits) {
    bool bad = false;
    int64_t code = combineDigits(values, digits, bad);
    if (bad) {
      anomalies << (anomalyCount++ ? "," : "") << "[" << a << "," << d << ",[";
      for (int i = 0; i < digits; ++i)
        anomalies << (i ? "," : "") << num(values[i]);
      anomalies << "]]";
    } else if (code >= 0) {
      hits << (hitCount++ ? "," : "") << "[" << a << "," << d << "," << code << "]";
    }
  }
  std::string json() const {
    return "\"hits\":[" + hits.str() + "],\"anomalies\":[" + anomalies.str() + "]";
  }
};

template <int OP> std::string runMma(const Probe& p) {
  int warps = mmaWarps(p), digits = mmaDigits(p);
  DeviceBuffer out(static_cast<size_t>(warps) * 32 * 8 * 4);
  CHECK(cudaMemset(out.p, 0xFF, static_cast<size_t>(warps) * 32 * 8 * 4));
  int threads = 256;
  int blocks = (warps * 32 + threads - 1) / threads;
  mmaKernel<OP><<<blocks, threads>>>(p, warps, out.as<uint32_t>());
  finish(p.id);
  auto h = download<uint32_t>(out, static_cast<size_t>(warps) * 32 * 8);
  Relation rel;
  int nd = mmaDElems(p), aSlots = 32 * mmaAElems(p);
  std::vector<double> values(static_cast<size_t>(digits));
  for (int a = 0; a < aSlots; ++a)
    for (int lane = 0; lane < 32; ++lane)
      for (int e = 0; e < nd; ++e) {
        for (int d = 0; d < digits; ++d)
          values[d] = accValue(p.acc, &h[(static_cast<size_t>(a * digits + d) * 32 + lane) * 8], e);
        rel.add(a, lane * nd + e, values.data(), digits);
      }
  return "\"digits\":" + std::to_string(digits) + "," + rel.json();
}

double wgmmaValue(Elem acc, uint32_t word) {
  if (acc == kS32)
    return static_cast<double>(static_cast<int32_t>(word));
  float f;
  std::memcpy(&f, &word, 4);
  return f;
}

template <class Op> std::string runWgmmaSS(const Probe& p) {
  int launches = wgmmaSSLaunches(p);
  size_t words = static_cast<size_t>(launches) * 128 * Op::kRegs;
  DeviceBuffer out(words * 4);
  CHECK(cudaMemset(out.p, 0xFF, words * 4));
  int smem = kWgmmaABytes + p.n * 32;
  CHECK(cudaFuncSetAttribute(wgmmaSSKernel<Op>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  wgmmaSSKernel<Op><<<launches, 128, smem>>>(p, out.as<uint32_t>());
  finish(p.id);
  auto h = download<uint32_t>(out, words);
  // Per quantity (m, n, m % K): the code of every D slot, from its digit launches.
  std::ostringstream s, anomalies;
  int anomalyCount = 0;
  const char* names[3] = {"m", "n", "k"};
  s << "\"quantities\":{";
  for (int q = 0; q < 3; ++q) {
    std::vector<int> launchOf;
    for (int l = 0; l < launches; ++l) {
      int lq = 0, ld = 0;
      wgmmaSSLaunch(p, l, lq, ld);
      if (lq == q)
        launchOf.push_back(l); // in digit order
    }
    std::vector<int64_t> codes;
    std::vector<double> values(launchOf.size());
    for (int t = 0; t < 128; ++t)
      for (int r = 0; r < Op::kRegs; ++r) {
        for (size_t d = 0; d < launchOf.size(); ++d)
          values[d] = wgmmaValue(p.acc, h[(static_cast<size_t>(launchOf[d]) * 128 + t) * Op::kRegs + r]);
        bool bad = false;
        int64_t code = combineDigits(values.data(), static_cast<int>(values.size()), bad);
        codes.push_back(code);
        if (bad) {
          anomalies << (anomalyCount++ ? "," : "") << "[\"" << names[q] << "\","
                    << t * Op::kRegs + r << ",[";
          for (size_t d = 0; d < values.size(); ++d)
            anomalies << (d ? "," : "") << num(values[d]);
          anomalies << "]]";
        }
      }
    s << (q ? "," : "") << "\"" << names[q] << "\":" << jsonArray(codes);
  }
  s << "},\"anomalies\":[" << anomalies.str() << "]";
  return s.str();
}

template <class Op> std::string runWgmmaRS(const Probe& p) {
  int launches = wgmmaRSLaunches(p), digits = wgmmaRSDigits(p);
  size_t words = static_cast<size_t>(launches) * 128 * Op::kRegs;
  DeviceBuffer out(words * 4);
  CHECK(cudaMemset(out.p, 0xFF, words * 4));
  wgmmaRSKernel<Op><<<launches, 128>>>(p, out.as<uint32_t>());
  finish(p.id);
  auto h = download<uint32_t>(out, words);
  Relation rel;
  std::vector<double> values(static_cast<size_t>(digits));
  for (int a = 0; a < launches / digits; ++a)
    for (int t = 0; t < 128; ++t)
      for (int r = 0; r < Op::kRegs; ++r) {
        for (int d = 0; d < digits; ++d)
          values[d] = wgmmaValue(p.acc, h[(static_cast<size_t>(a * digits + d) * 128 + t) * Op::kRegs + r]);
        rel.add(a, t * Op::kRegs + r, values.data(), digits);
      }
  return "\"digits\":" + std::to_string(digits) + "," + rel.json();
}

/// Two launches (low and high byte) of 16-bit indices, combined.
std::vector<int> combineBytes(const std::vector<unsigned char>& h, size_t perLaunch) {
  std::vector<int> v(perLaunch);
  for (size_t i = 0; i < perLaunch; ++i)
    v[i] = h[i] | (h[perLaunch + i] << 8);
  return v;
}

std::string matrixRows(int x) {
  std::vector<int> rows;
  for (int lane = 0; lane < 32; ++lane)
    rows.push_back(16 * matrixRowOfLane(lane, x));
  return "\"row_addresses\":" + jsonArray(rows);
}

template <int X, bool TRANS> std::string runLdmatrix(const Probe& p) {
  DeviceBuffer out(2 * 32 * 4 * 4);
  CHECK(cudaMemset(out.p, 0xFF, 2 * 32 * 4 * 4));
  ldmatrixKernel<X, TRANS><<<2, 32>>>(out.as<uint32_t>());
  finish(p.id);
  auto h = download<uint32_t>(out, 2 * 32 * 4);
  // Per (lane, register, byte): the shared byte it came from.
  std::vector<int> src;
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < X; ++r)
      for (int b = 0; b < 4; ++b) {
        int lo = (h[(0 * 32 + lane) * 4 + r] >> (8 * b)) & 0xFF;
        int hi = (h[(1 * 32 + lane) * 4 + r] >> (8 * b)) & 0xFF;
        src.push_back(lo | (hi << 8));
      }
  return matrixRows(X) + ",\"registers\":" + jsonArray(src);
}

template <int X, bool TRANS> std::string runStmatrix(const Probe& p) {
  DeviceBuffer out(2 * kMatrixBytes);
  CHECK(cudaMemset(out.p, 0, 2 * kMatrixBytes));
  stmatrixKernel<X, TRANS><<<2, 32>>>(out.as<unsigned char>());
  finish(p.id);
  auto h = download<unsigned char>(out, 2 * kMatrixBytes);
  return matrixRows(X) + ",\"shared\":" + jsonArray(combineBytes(h, kMatrixBytes));
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                 const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                                 const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiled encodeTiled() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q{};
#if CUDART_VERSION >= 12050
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &q));
#else
  CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &q));
#endif
  if (q != cudaDriverEntryPointSuccess || !fn)
    throw CudaFailure("cuTensorMapEncodeTiled not found in the driver");
  return reinterpret_cast<EncodeTiled>(fn);
}

std::string runTma(const Probe& p) {
  int bytes = tmaBoxBytes(p);
  int eb = elemBits(p.elem) / 8;
  DeviceBuffer global(static_cast<size_t>(bytes));
  DeviceBuffer out(2 * static_cast<size_t>(bytes));
  DeviceBuffer status(sizeof(int));
  CHECK(cudaMemset(status.p, 0, sizeof(int)));
  CUtensorMapDataType type = eb == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                             : eb == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                       : CU_TENSOR_MAP_DATA_TYPE_UINT32;
  CUtensorMapSwizzle swizzle = p.swizzle == 32    ? CU_TENSOR_MAP_SWIZZLE_32B
                               : p.swizzle == 64  ? CU_TENSOR_MAP_SWIZZLE_64B
                               : p.swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                                  : CU_TENSOR_MAP_SWIZZLE_NONE;
  // Dims innermost first: the box is the whole tensor.
  cuuint64_t dims[3], strides[2];
  cuuint32_t box[3], elementStrides[3] = {1, 1, 1};
  uint64_t stride = static_cast<uint64_t>(eb);
  for (int i = 0; i < p.rank; ++i) {
    dims[i] = static_cast<cuuint64_t>(p.box[p.rank - 1 - i]);
    box[i] = static_cast<cuuint32_t>(p.box[p.rank - 1 - i]);
    stride *= dims[i];
    if (i + 1 < p.rank)
      strides[i] = stride;
  }
  CUtensorMap map;
  CUresult r = encodeTiled()(&map, type, static_cast<cuuint32_t>(p.rank), global.p, dims, strides,
                             box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw CudaFailure("cuTensorMapEncodeTiled failed with CUresult " + std::to_string(r));
  int smem = bytes + kTmaAlign;
  CHECK(cudaFuncSetAttribute(tmaKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  std::vector<unsigned char> fill(static_cast<size_t>(bytes));
  for (int digit = 0; digit < 2; ++digit) {
    for (int j = 0; j < bytes; ++j)
      fill[static_cast<size_t>(j)] = static_cast<unsigned char>(j >> (8 * digit));
    CHECK(cudaMemcpy(global.p, fill.data(), fill.size(), cudaMemcpyHostToDevice));
    tmaKernel<<<1, 32, smem>>>(map, p.rank, bytes, out.as<unsigned char>() + digit * bytes,
                               status.as<int>());
    finish(p.id);
  }
  if (download<int>(status, 1)[0] != 0)
    throw CudaFailure("the TMA load never completed (mbarrier wait gave up)");
  auto h = download<unsigned char>(out, 2 * static_cast<size_t>(bytes));
  return "\"shared\":" + jsonArray(combineBytes(h, static_cast<size_t>(bytes)));
}

template <int S, bool CG> std::string runCpAsync(const Probe& p) {
  DeviceBuffer src(1024), out(1024);
  std::vector<unsigned char> fill(1024);
  for (int digit = 0; digit < 2; ++digit)
    for (int j = 0; j < 512; ++j)
      fill[static_cast<size_t>(digit * 512 + j)] = static_cast<unsigned char>(j >> (8 * digit));
  CHECK(cudaMemcpy(src.p, fill.data(), 1024, cudaMemcpyHostToDevice));
  cpAsyncKernel<S, CG><<<2, 32>>>(src.as<unsigned char>(), out.as<unsigned char>());
  finish(p.id);
  auto h = download<unsigned char>(out, 1024);
  return "\"shared\":" + jsonArray(combineBytes(h, 512));
}

/// The probe's observations (a JSON object's members), by id.
std::string runProbe(const Probe& p) {
  std::string id = p.id;
#define WGMMA_CASE(ID, OP, SS)                                                                     \
  if (id == ID) {                                                                                  \
    if constexpr (SS)                                                                              \
      return runWgmmaSS<OP>(p);                                                                    \
    else                                                                                           \
      return runWgmmaRS<OP>(p);                                                                    \
  }
  LLCHECK_FOR_EACH_WGMMA(WGMMA_CASE)
#undef WGMMA_CASE
  if (id == "mma.m16n8k8.f16")
    return runMma<kM16N8K8F16>(p);
  if (id == "mma.m16n8k16.f16")
    return runMma<kM16N8K16F16>(p);
  if (id == "mma.m16n8k16.f16.f16")
    return runMma<kM16N8K16F16F16>(p);
  if (id == "mma.m16n8k8.bf16")
    return runMma<kM16N8K8BF16>(p);
  if (id == "mma.m16n8k16.bf16")
    return runMma<kM16N8K16BF16>(p);
  if (id == "mma.m16n8k8.tf32")
    return runMma<kM16N8K8TF32>(p);
  if (id == "mma.m16n8k32.s8")
    return runMma<kM16N8K32S8>(p);
  if (id == "mma.m16n8k32.e4m3")
    return runMma<kM16N8K32E4M3>(p);
  if (id == "mma.m16n8k32.e5m2")
    return runMma<kM16N8K32E5M2>(p);
  if (id == "mma.m16n8k4.f64")
    return runMma<kM16N8K4F64>(p);
  if (p.family == kLdmatrix || p.family == kStmatrix) {
    bool ld = p.family == kLdmatrix;
    switch (p.x * 2 + (p.trans ? 1 : 0)) {
    case 2:
      return ld ? runLdmatrix<1, false>(p) : runStmatrix<1, false>(p);
    case 3:
      return ld ? runLdmatrix<1, true>(p) : runStmatrix<1, true>(p);
    case 4:
      return ld ? runLdmatrix<2, false>(p) : runStmatrix<2, false>(p);
    case 5:
      return ld ? runLdmatrix<2, true>(p) : runStmatrix<2, true>(p);
    case 8:
      return ld ? runLdmatrix<4, false>(p) : runStmatrix<4, false>(p);
    case 9:
      return ld ? runLdmatrix<4, true>(p) : runStmatrix<4, true>(p);
    default:
      break;
    }
  }
  if (p.family == kTma)
    return runTma(p);
  if (p.family == kCpAsync) {
    if (p.trans)
      return runCpAsync<16, true>(p);
    if (p.x == 4)
      return runCpAsync<4, false>(p);
    if (p.x == 8)
      return runCpAsync<8, false>(p);
    return runCpAsync<16, false>(p);
  }
  throw std::runtime_error(std::string("no kernel for probe ") + p.id);
}

std::string escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\')
      r += '\\', r += c;
    else if (static_cast<unsigned char>(c) < 0x20)
      r += ' ';
    else
      r += c;
  }
  return r;
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty())
      parts.push_back(item);
  return parts;
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> only;
  std::string family, outPath;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--list") {
      for (const Probe& p : kProbes)
        std::printf("%s %s\n", p.id, familyName(p.family));
      return 0;
    }
    if (a == "--only" && i + 1 < argc)
      only = split(argv[++i]);
    else if (a == "--family" && i + 1 < argc)
      family = argv[++i];
    else if (a == "--out" && i + 1 < argc)
      outPath = argv[++i];
    else {
      std::fprintf(stderr, "usage: hwprobes --list | [--only ID,..] [--family F] --out FILE\n");
      return 2;
    }
  }
  if (outPath.empty()) {
    std::fprintf(stderr, "hwprobes: --out FILE is required\n");
    return 2;
  }
  for (const std::string& id : only)
    if (!findProbe(id.c_str())) {
      std::fprintf(stderr, "hwprobes: no probe '%s' (see --list)\n", id.c_str());
      return 2;
    }
  std::ostringstream json;
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "hwprobes: no CUDA device (%s)\n", cudaGetErrorString(e));
    return 2;
  }
  cudaDeviceProp prop{};
  int runtime = 0, driver = 0;
  cudaGetDeviceProperties(&prop, 0);
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  json << "{\"format\":\"llcheck-hwlayout 1\",\"gpu\":\"" << escape(prop.name)
       << "\",\"compute_capability\":\"" << prop.major << "." << prop.minor
       << "\",\"cuda_runtime\":" << runtime << ",\"cuda_driver_api\":" << driver
       << ",\"date\":\"" << utcNow() << "\",\"probes\":[";
  int ran = 0, failed = 0;
  for (const Probe& p : kProbes) {
    if (!only.empty() && std::find(only.begin(), only.end(), std::string(p.id)) == only.end())
      continue;
    if (!family.empty() && family != familyName(p.family))
      continue;
    json << (ran + failed ? "," : "") << "{\"id\":\"" << p.id << "\",\"family\":\""
         << familyName(p.family) << "\",";
    try {
      if (prop.major < 9)
        throw std::runtime_error("needs an sm_90 GPU (Hopper); this one is sm_" +
                                 std::to_string(prop.major * 10 + prop.minor));
      std::string observed = runProbe(p);
      json << "\"ok\":true,\"observed\":{" << observed << "}}";
      ++ran;
    } catch (const std::exception& ex) {
      json << "\"ok\":false,\"error\":\"" << escape(ex.what()) << "\"}";
      std::fprintf(stderr, "hwprobes: %s: %s\n", p.id, ex.what());
      ++failed;
      cudaDeviceReset(); // a sticky error would fail every later probe
    }
  }
  json << "]}\n";
  std::ofstream out(outPath);
  out << json.str();
  out.close();
  if (!out) {
    std::fprintf(stderr, "hwprobes: cannot write %s\n", outPath.c_str());
    return 3;
  }
  std::fprintf(stderr, "hwprobes: %d probes ran, %d failed\n", ran, failed);
  return failed == 0 ? 0 : 1;
}
