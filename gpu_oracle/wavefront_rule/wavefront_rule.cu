// One warp, one shared-memory instruction per launch, each lane at a byte offset the pattern
// file gives: the measurement behind the bank model's wavefront rule for 64- and 128-bit
// accesses whose lanes repeat addresses across phases (README.md). Run under ncu; each launch
// is one pattern, in file order.
//
// Input (argv[1]): one pattern per line, "ID OP BYTES o0 o1 ... o31" with OP "ld" or "st",
// BYTES 4, 8 or 16 and each offset a multiple of BYTES below kSharedBytes.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kSharedBytes = 32768;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "wavefront_rule: %s failed: %s (%s:%d)\n", #call,                      \
                   cudaGetErrorString(err_), __FILE__, __LINE__);                                  \
      std::exit(3);                                                                                \
    }                                                                                              \
  } while (0)

// Loads: the shared memory is not written first (its stores would count too); the values read
// are folded into out so that the load is live. Stores write the lane number.
template <int Bytes, bool Store>
__global__ void access(const unsigned* offsets, unsigned* out) {
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned lane = threadIdx.x;
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + offsets[lane];
  unsigned a = lane, b = lane + 1, c = lane + 2, d = lane + 3;
  if constexpr (Store) {
    if constexpr (Bytes == 4)
      asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(a) : "memory");
    else if constexpr (Bytes == 8)
      asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(addr), "r"(a), "r"(b) : "memory");
    else
      asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(a), "r"(b),
                   "r"(c), "r"(d)
                   : "memory");
    out[lane] = a;
  } else {
    if constexpr (Bytes == 4)
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(addr) : "memory");
    else if constexpr (Bytes == 8)
      asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(addr) : "memory");
    else
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                   : "r"(addr)
                   : "memory");
    out[lane] = a ^ b ^ c ^ d;
  }
}

template <int Bytes> void launch(bool store, const unsigned* offsets, unsigned* out) {
  if (store)
    access<Bytes, true><<<1, 32, kSharedBytes>>>(offsets, out);
  else
    access<Bytes, false><<<1, 32, kSharedBytes>>>(offsets, out);
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: wavefront_rule PATTERNS\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "wavefront_rule: cannot read %s\n", argv[1]);
    return 2;
  }
  unsigned *offsets = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&offsets, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&out, 32 * sizeof(unsigned)));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream ss(line);
    std::string id, op;
    int bytes = 0;
    ss >> id >> op >> bytes;
    std::vector<unsigned> o(32);
    for (unsigned& v : o)
      ss >> v;
    bool bad = !ss || (op != "ld" && op != "st") || (bytes != 4 && bytes != 8 && bytes != 16);
    for (unsigned v : o)
      bad = bad || v % static_cast<unsigned>(bytes) != 0 || v + bytes > kSharedBytes;
    if (bad) {
      std::fprintf(stderr, "wavefront_rule: bad pattern line: %s\n", line.c_str());
      return 2;
    }
    CHECK(cudaMemcpy(offsets, o.data(), 32 * sizeof(unsigned), cudaMemcpyHostToDevice));
    bool store = op == "st";
    if (bytes == 4)
      launch<4>(store, offsets, out);
    else if (bytes == 8)
      launch<8>(store, offsets, out);
    else
      launch<16>(store, offsets, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("pattern %d %s\n", n++, id.c_str());
  }
  std::fprintf(stderr, "wavefront_rule: %d launches\n", n);
  return 0;
}
