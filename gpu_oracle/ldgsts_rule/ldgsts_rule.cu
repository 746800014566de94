// One warp, one cp.async (LDGSTS) per lane per launch, each lane with the global source and the
// shared destination byte offsets a pattern gives: the measurement behind the rule for the
// shared-memory wavefronts of async copies (README.md). Run under ncu; each launch is one
// pattern, in file order. The copied bytes are read back from shared memory and checked against
// the source on the host: a wrong byte stops the run (exit 4).
//
// Input (argv[1]): one pattern per line, "ID OP BYTES g0 .. g31 s0 .. s31" with OP ca, cg,
// ca_warm or cg_warm (cg only for 16 bytes), BYTES 4, 8 or 16, every offset a multiple of BYTES,
// g below kGlobalBytes, s below kSharedBytes and the s distinct.
//
// The kernel: each lane poisons its destination (st.shared), __syncthreads, [warm: ld.global.ca
// of its own source, and the copy's address made to depend on the loaded value], one cp.async,
// cp.async.wait_all, __syncthreads, then reads its destination back (ld.shared) into out. The
// poison stores and the read-back are st/ld.shared, counted apart from LDGSTS by ncu.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr unsigned kGlobalBytes = 1u << 20;
constexpr unsigned kSharedBytes = 32768;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "ldgsts_rule: %s failed: %s (%s:%d)\n", #call,                         \
                   cudaGetErrorString(err_), __FILE__, __LINE__);                                  \
      std::exit(3);                                                                                \
    }                                                                                              \
  } while (0)

template <int Bytes, bool CG, bool Warm>
__global__ void copy(const unsigned char* src, const unsigned* goff, const unsigned* soff,
                     unsigned* out, unsigned* sink) {
  extern __shared__ __align__(128) unsigned char smem[];
  unsigned lane = threadIdx.x;
  unsigned g = goff[lane], s = soff[lane];
  unsigned* dst = reinterpret_cast<unsigned*>(smem + s);
#pragma unroll
  for (int i = 0; i < Bytes / 4; ++i)
    dst[i] = 0xA5A5A5A5u ^ (lane << 8) ^ static_cast<unsigned>(i);
  __syncthreads();
  const unsigned char* from = src + g;
  if constexpr (Warm) {
    unsigned v = 0, zero = 0;
    if constexpr (Bytes == 4)
      asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(from) : "memory");
    else if constexpr (Bytes == 8) {
      unsigned b;
      asm volatile("ld.global.ca.v2.u32 {%0, %1}, [%2];" : "=r"(v), "=r"(b) : "l"(from) : "memory");
      v ^= b;
    } else {
      unsigned b, c, d;
      asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v), "=r"(b), "=r"(c), "=r"(d)
                   : "l"(from)
                   : "memory");
      v ^= b ^ c ^ d;
    }
    // The copy waits for the load: its address depends on the loaded value (times zero).
    asm volatile("and.b32 %0, %1, 0;" : "=r"(zero) : "r"(v));
    from += zero;
    sink[lane] = v;
  }
  unsigned saddr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (CG)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(saddr), "l"(from) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(saddr), "l"(from), "n"(Bytes)
                 : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Bytes / 4; ++i)
    out[lane * (Bytes / 4) + i] = dst[i];
}

using Kernel = void (*)(const unsigned char*, const unsigned*, const unsigned*, unsigned*,
                        unsigned*);

Kernel pick(int bytes, const std::string& op) {
  bool cg = op == "cg" || op == "cg_warm";
  bool warm = op == "ca_warm" || op == "cg_warm";
  if (bytes == 4)
    return warm ? copy<4, false, true> : copy<4, false, false>;
  if (bytes == 8)
    return warm ? copy<8, false, true> : copy<8, false, false>;
  if (cg)
    return warm ? copy<16, true, true> : copy<16, true, false>;
  return warm ? copy<16, false, true> : copy<16, false, false>;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: ldgsts_rule PATTERNS\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "ldgsts_rule: cannot read %s\n", argv[1]);
    return 2;
  }
  // The source: random bytes (a fixed LCG), so every copied byte is checked.
  std::vector<unsigned char> host(kGlobalBytes);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& b : host) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    b = static_cast<unsigned char>(x >> 56);
  }
  unsigned char* src = nullptr;
  unsigned *goff = nullptr, *soff = nullptr, *out = nullptr, *sink = nullptr;
  CHECK(cudaMalloc(&src, kGlobalBytes));
  if (reinterpret_cast<uintptr_t>(src) % 128 != 0) {
    std::fprintf(stderr, "ldgsts_rule: source buffer not 128-byte aligned\n");
    return 3;
  }
  CHECK(cudaMalloc(&goff, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&soff, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&out, 32 * 16));
  CHECK(cudaMalloc(&sink, 32 * sizeof(unsigned)));
  CHECK(cudaMemcpy(src, host.data(), kGlobalBytes, cudaMemcpyHostToDevice));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream ss(line);
    std::string id, op;
    int bytes = 0;
    ss >> id >> op >> bytes;
    std::vector<unsigned> g(32), s(32);
    for (unsigned& v : g)
      ss >> v;
    for (unsigned& v : s)
      ss >> v;
    std::string rest;
    bool bad = !ss || (ss >> rest) || (bytes != 4 && bytes != 8 && bytes != 16) ||
               (op != "ca" && op != "cg" && op != "ca_warm" && op != "cg_warm") ||
               (bytes != 16 && (op == "cg" || op == "cg_warm"));
    std::set<unsigned> distinct(s.begin(), s.end());
    bad = bad || distinct.size() != 32;
    for (int t = 0; t < 32; ++t)
      bad = bad || g[t] % bytes || s[t] % bytes || g[t] + bytes > kGlobalBytes ||
            s[t] + bytes > kSharedBytes;
    if (bad) {
      std::fprintf(stderr, "ldgsts_rule: bad pattern line: %s\n", line.c_str());
      return 2;
    }
    CHECK(cudaMemcpy(goff, g.data(), 32 * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(soff, s.data(), 32 * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, 32 * 16));
    pick(bytes, op)<<<1, 32, kSharedBytes>>>(src, goff, soff, out, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> back(32 * 16);
    CHECK(cudaMemcpy(back.data(), out, 32 * 16, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; ++t) {
      if (std::memcmp(back.data() + t * bytes, host.data() + g[t], bytes) != 0) {
        std::fprintf(stderr, "ldgsts_rule: pattern %d (%s %s): lane %d copied wrong bytes\n", n,
                     id.c_str(), op.c_str(), t);
        return 4;
      }
    }
    std::fprintf(stderr, "pattern %d %s %s ok\n", n++, id.c_str(), op.c_str());
  }
  std::fprintf(stderr, "ldgsts_rule: %d launches, every copied byte checked\n", n);
  return 0;
}
