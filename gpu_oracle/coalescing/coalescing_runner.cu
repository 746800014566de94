// The coalescing oracle's kernel and host harness (issue 23): one CTA per case loads, then
// stores, every vector of every thread at the byte offsets make_cases.py computed from the
// layout, the strides and the base (one table of offsets per case, in constant memory so that
// reading it is no global access). Nsight Compute reads the global sectors, requests and SASS
// instruction counts of each launch; run.sh drives it, compare.py reads the CSV back.
//
//   coalescing_runner CASES.txt
//
// CASES.txt: "llcheck-coalescing-runner 1 N", then per case two lines:
//   case ID VECTOR_BYTES BASE_OFFSET THREADS INSTRUCTIONS BUFFER_BYTES
//   <THREADS * INSTRUCTIONS byte offsets from the base, thread-major>
// The accesses are inline PTX (ld.global / st.global .u8, .u16, .u32, .v2.u32, .v4.u32), so the
// width is the one planned whatever the compiler would pick.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr int kMaxOffsets = 16384; // 64 KiB of constant memory
__constant__ uint32_t cOffsets[kMaxOffsets];

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "coalescing_runner: %s: %s (line %d)\n", #call,                         \
                   cudaGetErrorString(err_), __LINE__);                                            \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

template <int Bytes> __device__ uint32_t load(const char* p);
template <> __device__ uint32_t load<1>(const char* p) {
  uint16_t v;
  asm volatile("ld.global.u8 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}
template <> __device__ uint32_t load<2>(const char* p) {
  uint16_t v;
  asm volatile("ld.global.u16 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}
template <> __device__ uint32_t load<4>(const char* p) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
template <> __device__ uint32_t load<8>(const char* p) {
  uint32_t a, b;
  asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(p));
  return a ^ b;
}
template <> __device__ uint32_t load<16>(const char* p) {
  uint32_t a, b, c, d;
  asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
               : "l"(p));
  return a ^ b ^ c ^ d;
}

template <int Bytes> __device__ void store(char* p, uint32_t v);
template <> __device__ void store<1>(char* p, uint32_t v) {
  asm volatile("st.global.u8 [%0], %1;" ::"l"(p), "h"(static_cast<uint16_t>(v)));
}
template <> __device__ void store<2>(char* p, uint32_t v) {
  asm volatile("st.global.u16 [%0], %1;" ::"l"(p), "h"(static_cast<uint16_t>(v)));
}
template <> __device__ void store<4>(char* p, uint32_t v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v));
}
template <> __device__ void store<8>(char* p, uint32_t v) {
  asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v), "r"(v + 1));
}
template <> __device__ void store<16>(char* p, uint32_t v) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v), "r"(v + 1),
               "r"(v + 2), "r"(v + 3));
}

/// Every thread loads its vectors in table order (instruction k of every lane together), then
/// stores them back. `sink` is written only when `never` is set (never at run time), so the
/// loads stay and add no global store.
template <int Bytes>
__global__ void coalescingKernel(char* base, int instructions, int never, uint32_t* sink) {
  int t = threadIdx.x;
  uint32_t acc = 0;
  for (int k = 0; k < instructions; ++k)
    acc ^= load<Bytes>(base + cOffsets[t * instructions + k]);
  for (int k = 0; k < instructions; ++k)
    store<Bytes>(base + cOffsets[t * instructions + k], acc + static_cast<uint32_t>(k));
  if (never)
    sink[t] = acc;
}

struct Case {
  std::string id;
  int vectorBytes = 0, threads = 0, instructions = 0;
  uint64_t baseOffset = 0, bufferBytes = 0;
  std::vector<uint32_t> offsets;
};

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: coalescing_runner CASES.txt\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string magic;
  int version = 0, n = 0;
  if (!(in >> magic >> version >> n) || magic != "llcheck-coalescing-runner" || version != 1) {
    std::fprintf(stderr, "coalescing_runner: %s is not a runner input (version 1)\n", argv[1]);
    return 2;
  }
  std::vector<Case> cases(static_cast<std::size_t>(n));
  for (Case& c : cases) {
    std::string word;
    if (!(in >> word >> c.id >> c.vectorBytes >> c.baseOffset >> c.threads >> c.instructions >>
          c.bufferBytes) ||
        word != "case") {
      std::fprintf(stderr, "coalescing_runner: a malformed case line\n");
      return 2;
    }
    c.offsets.resize(static_cast<std::size_t>(c.threads) * c.instructions);
    for (uint32_t& o : c.offsets)
      in >> o;
    if (!in || c.offsets.size() > kMaxOffsets) {
      std::fprintf(stderr, "coalescing_runner: case %s: bad offsets\n", c.id.c_str());
      return 2;
    }
  }
  uint64_t maxBytes = 0;
  for (const Case& c : cases)
    maxBytes = std::max(maxBytes, c.bufferBytes + c.baseOffset + 256);
  char* buffer = nullptr;
  uint32_t* sink = nullptr;
  CHECK(cudaMalloc(&buffer, maxBytes)); // 256-byte aligned
  CHECK(cudaMalloc(&sink, 1024 * sizeof(uint32_t)));
  CHECK(cudaMemset(buffer, 0x5a, maxBytes));
  for (const Case& c : cases) {
    CHECK(cudaMemcpyToSymbol(cOffsets, c.offsets.data(), c.offsets.size() * sizeof(uint32_t)));
    char* base = buffer + c.baseOffset;
    switch (c.vectorBytes) {
    case 1:
      coalescingKernel<1><<<1, c.threads>>>(base, c.instructions, 0, sink);
      break;
    case 2:
      coalescingKernel<2><<<1, c.threads>>>(base, c.instructions, 0, sink);
      break;
    case 4:
      coalescingKernel<4><<<1, c.threads>>>(base, c.instructions, 0, sink);
      break;
    case 8:
      coalescingKernel<8><<<1, c.threads>>>(base, c.instructions, 0, sink);
      break;
    case 16:
      coalescingKernel<16><<<1, c.threads>>>(base, c.instructions, 0, sink);
      break;
    default:
      std::fprintf(stderr, "coalescing_runner: case %s: vector of %d bytes\n", c.id.c_str(),
                   c.vectorBytes);
      return 2;
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("launched %s\n", c.id.c_str());
  }
  CHECK(cudaFree(buffer));
  CHECK(cudaFree(sink));
  return 0;
}
