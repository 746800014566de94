// Masked cp.async (LDGSTS) under each predicate register ptxas gives it: the measurement behind
// predicates/README.md (issue 32: what ncu counts for an LDGSTS whose zero-fill predicate is P0,
// !P0, P1..P6, and for lanes or warps masked off).
//
// One CTA of T threads (32 or 128) per launch, one cp.async per thread, one LDGSTS in each kernel.
// Each thread t has a global source offset g[t], a shared destination offset s[t] and a state:
//   c  the thread copies its V bytes;
//   z  the thread executes the copy with src-size 0 (zero fill: its destination gets V zero bytes);
//   o  the thread does not execute the copy (guard predicate false, or branched around): its
//      destination keeps the poison.
// A kernel is one form of the copy (below) for one size and cache op; each form was written so
// that ptxas gives the LDGSTS one predicate register (the Live / Late parameters keep other
// predicates live, or the mask's compare late, until it does; run.sh records the SASS line of
// every kernel's LDGSTS, and analyze.py reads the register from there, not from the name).
//
// Forms (the PTX; the SASS each gave with nvcc 13.0 for sm_90 is in the kernel's name):
//   PLAIN  cp.async [d], [s], V                          every thread c
//   Z      setp.ne.u32 p, m, 0; selp sz, V, 0, p;        zero fill on a 32-bit compare
//          cp.async [d], [s], V, sz                      (SASS: LDGSTS ..., Pn)
//   Z64    setp.lt.u64 p, m64, 2^32; selp ...            zero fill on a 64-bit compare
//                                                        (SASS: LDGSTS ..., !Pn: ptxas keeps the
//                                                        GE of the ISETP.EX pair and negates it)
//   Z64W   Z64 with a second 64-bit compare w guarding a store before and after the copy
//   G      setp.ne.u32 p, m, 0; @p cp.async ...          guard (SASS: @P0 LDGSTS, or a BRA around)
//   G64    setp.lt.u64 p, m64, 2^32; @p cp.async ...     guard (SASS: @!P0 LDGSTS)
//   GZ     guard on bit 16 of aux clear, zero fill on m  (SASS: @!P1 LDGSTS ..., P0)
//   G64Z   guard on a 64-bit compare, zero fill on m     (SASS: @!P0 LDGSTS ..., P1)
//
// Per launch the host poisons nothing itself: the kernel poisons each destination (st.shared),
// __syncthreads, copies, cp.async.wait_all, __syncthreads, reads each destination back (ld.shared)
// into out; the host checks every byte of every thread against its state (c: the source, z:
// zeros, o: the poison). A wrong byte is reported and counted; the program exits 4 at the end.
//
// Input (argv[1]): one launch per line, "ID KERNEL T STATES g0 .. g(T-1) s0 .. s(T-1)".
// argv[2] (optional): "list" prints the kernel names and exits.
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

constexpr unsigned kGlobalBytes = 4u << 20;
constexpr unsigned kSharedBytes = 32768;
constexpr int kMaxThreads = 128;
// The parameter block (words): goff, soff, mask, aux (each kMaxThreads words), then mask64 and
// w64 (kMaxThreads 64-bit words each).
constexpr int kGoff = 0, kSoff = 128, kMask = 256, kAux = 384, kMask64 = 512, kW64 = 768;
constexpr int kParamWords = 1024;
constexpr int kSinkWords = 4096;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "predicates: %s failed: %s (%s:%d)\n", #call,                          \
                   cudaGetErrorString(err_), __FILE__, __LINE__);                                  \
      std::exit(3);                                                                                \
    }                                                                                              \
  } while (0)

enum Form { PLAIN, Z, Z64, Z64W, G, G64, GZ, G64Z };

// The zero-fill / guard asm of each form, for one cache op string KIND ("ca" or "cg").
#define ASM_Z(KIND)                                                                                \
  asm volatile("{\n .reg .pred p;\n .reg .u32 sz;\n setp.ne.u32 p, %2, 0;\n"                      \
               " selp.u32 sz, %3, 0, p;\n cp.async." KIND ".shared.global [%0], [%1], %3, sz;\n}"  \
               ::"r"(saddr), "l"(from), "r"(m), "n"(V) : "memory")
#define ASM_Z64(KIND)                                                                              \
  asm volatile("{\n .reg .pred p;\n .reg .u32 sz;\n setp.lt.u64 p, %2, 4294967296;\n"             \
               " selp.u32 sz, %3, 0, p;\n cp.async." KIND ".shared.global [%0], [%1], %3, sz;\n}"  \
               ::"r"(saddr), "l"(from), "l"(m64), "n"(V) : "memory")
#define ASM_Z64W(KIND)                                                                             \
  asm volatile("{\n .reg .pred p, w;\n .reg .u32 sz;\n setp.lt.u64 w, %4, 4294967296;\n"          \
               " @w st.global.u32 [%5], %3;\n setp.lt.u64 p, %2, 4294967296;\n"                    \
               " selp.u32 sz, %3, 0, p;\n cp.async." KIND ".shared.global [%0], [%1], %3, sz;\n"   \
               " @w st.global.u32 [%6], %3;\n}"                                                    \
               ::"r"(saddr), "l"(from), "l"(m64), "n"(V), "l"(w64), "l"(sink + 3072 + t),         \
               "l"(sink + 3200 + t) : "memory")
#define ASM_G(KIND)                                                                                \
  asm volatile("{\n .reg .pred p;\n setp.ne.u32 p, %2, 0;\n"                                      \
               " @p cp.async." KIND ".shared.global [%0], [%1], %3;\n}"                            \
               ::"r"(saddr), "l"(from), "r"(m), "n"(V) : "memory")
#define ASM_G64(KIND)                                                                              \
  asm volatile("{\n .reg .pred p;\n setp.lt.u64 p, %2, 4294967296;\n"                             \
               " @p cp.async." KIND ".shared.global [%0], [%1], %3;\n}"                            \
               ::"r"(saddr), "l"(from), "l"(m64), "n"(V) : "memory")
#define ASM_GZ(KIND)                                                                               \
  asm volatile("{\n .reg .pred p, w;\n .reg .u32 sz, b;\n and.b32 b, %4, 65536;\n"                \
               " setp.eq.u32 w, b, 0;\n setp.ne.u32 p, %2, 0;\n selp.u32 sz, %3, 0, p;\n"          \
               " @w cp.async." KIND ".shared.global [%0], [%1], %3, sz;\n}"                        \
               ::"r"(saddr), "l"(from), "r"(m), "n"(V), "r"(q) : "memory")
#define ASM_G64Z(KIND)                                                                             \
  asm volatile("{\n .reg .pred p, w;\n .reg .u32 sz;\n setp.lt.u64 w, %4, 4294967296;\n"          \
               " setp.ne.u32 p, %2, 0;\n selp.u32 sz, %3, 0, p;\n"                                 \
               " @w cp.async." KIND ".shared.global [%0], [%1], %3, sz;\n}"                        \
               ::"r"(saddr), "l"(from), "r"(m), "n"(V), "l"(m64) : "memory")
#define ASM_PLAIN(KIND)                                                                            \
  asm volatile("cp.async." KIND ".shared.global [%0], [%1], %2;" ::"r"(saddr), "l"(from), "n"(V)  \
               : "memory")

#define DISPATCH(NAME)                                                                             \
  do {                                                                                             \
    if constexpr (CG)                                                                              \
      NAME("cg");                                                                                  \
    else                                                                                           \
      NAME("ca");                                                                                  \
  } while (0)

// Live: predicates (bits of aux, all 0 at run time) that guard stores before and after the copy,
// kept live across it. Late: load the mask (volatile) after those stores, so its compare comes
// late and takes the next free predicate.
template <int V, bool CG, int F, int Live, int Late>
__device__ __forceinline__ void body(const unsigned char* src, const unsigned* P, unsigned* out,
                                     unsigned* sink) {
  extern __shared__ __align__(128) unsigned char smem[];
  unsigned t = threadIdx.x;
  unsigned g = P[kGoff + t], s = P[kSoff + t];
  const unsigned long long* mask64 = reinterpret_cast<const unsigned long long*>(P + kMask64);
  const unsigned long long* w64p = reinterpret_cast<const unsigned long long*>(P + kW64);
  unsigned m = 0;
  unsigned long long m64 = 0, w64 = 0;
  if constexpr (!Late) {
    m = P[kMask + t];
    m64 = mask64[t];
  }
  unsigned* dst = reinterpret_cast<unsigned*>(smem + s);
#pragma unroll
  for (int i = 0; i < V / 4; ++i)
    dst[i] = 0xA5A5A5A5u ^ (t << 8) ^ static_cast<unsigned>(i);
  __syncthreads();
  unsigned q = P[kAux + t];
#pragma unroll
  for (int i = 0; i < Live; ++i)
    if ((q >> i) & 1)
      sink[1024 + t * 8 + i] = g;
  if constexpr (Late) {
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(m) : "l"(P + kMask + t));
    asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(m64) : "l"(mask64 + t));
  }
  if constexpr (F == Z64W)
    w64 = w64p[t];
  const unsigned char* from = src + g;
  unsigned saddr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (F == PLAIN)
    DISPATCH(ASM_PLAIN);
  else if constexpr (F == Z)
    DISPATCH(ASM_Z);
  else if constexpr (F == Z64)
    DISPATCH(ASM_Z64);
  else if constexpr (F == Z64W)
    DISPATCH(ASM_Z64W);
  else if constexpr (F == G)
    DISPATCH(ASM_G);
  else if constexpr (F == G64)
    DISPATCH(ASM_G64);
  else if constexpr (F == GZ)
    DISPATCH(ASM_GZ);
  else
    DISPATCH(ASM_G64Z);
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Live; ++i)
    if ((q >> i) & 1)
      sink[2048 + t * 8 + i] = i;
#pragma unroll
  for (int i = 0; i < V / 4; ++i)
    out[t * (V / 4) + i] = dst[i];
}

using Kernel = void (*)(const unsigned char*, const unsigned*, unsigned*, unsigned*);

struct Entry {
  const char* name;
  Kernel fn;
  int bytes;
  Form form;
};

// X(NAME, V, CG, FORM, LIVE, LATE): NAME is op_form_register as the SASS showed it with nvcc 13.0
// (sm_90), e.g. cg16_Z_P4 is LDGSTS.E.BYPASS.128 [..], [..], P4; cg16_Z64_nP0 ..., !P0;
// cg16_G_gP3 @P3 LDGSTS ...; cg16_GZ_gnP6_P0 @!P6 LDGSTS ..., P0; cg16_G_bra an unpredicated
// LDGSTS that a BRA goes around. LIVE and LATE were found by compiling every combination and
// keeping one that gave each register for all four ops (README.md).
#define KERNELS(X, OP, V, CG)                                                                      \
  X(OP##_PLAIN, V, CG, PLAIN, 0, 0)                                                                \
  X(OP##_Z_P0, V, CG, Z, 0, 0)                                                                     \
  X(OP##_Z_P1, V, CG, Z, 1, 1)                                                                     \
  X(OP##_Z_P2, V, CG, Z, 2, 1)                                                                     \
  X(OP##_Z_P4, V, CG, Z, 4, 1)                                                                     \
  X(OP##_Z_P6, V, CG, Z, 6, 0)                                                                     \
  X(OP##_Z64_nP0, V, CG, Z64, 0, 0)                                                                \
  X(OP##_Z64W_nP1, V, CG, Z64W, 0, 0)                                                              \
  X(OP##_Z64W_nP6, V, CG, Z64W, 5, 0)                                                              \
  X(OP##_G_gP0, V, CG, G, 0, 0)                                                                    \
  X(OP##_G_gP3, V, CG, G, 3, 1)                                                                    \
  X(OP##_G_bra, V, CG, G, 1, 0)                                                                    \
  X(OP##_G64_gnP0, V, CG, G64, 0, 0)                                                               \
  X(OP##_GZ_gnP1_P0, V, CG, GZ, 0, 0)                                                              \
  X(OP##_GZ_gnP2_P1, V, CG, GZ, 1, 1)                                                              \
  X(OP##_GZ_gnP6_P0, V, CG, GZ, 6, 1)                                                              \
  X(OP##_G64Z_gnP0_P1, V, CG, G64Z, 0, 0)

#define ALL(X)                                                                                     \
  KERNELS(X, ca4, 4, false)                                                                        \
  KERNELS(X, ca8, 8, false)                                                                        \
  KERNELS(X, ca16, 16, false)                                                                      \
  KERNELS(X, cg16, 16, true)

} // namespace

#define DEFINE(NAME, V, CG, F, LIVE, LATE)                                                         \
  extern "C" __global__ void NAME(const unsigned char* src, const unsigned* P, unsigned* out,      \
                                  unsigned* sink) {                                                \
    body<V, CG, F, LIVE, LATE>(src, P, out, sink);                                                 \
  }
ALL(DEFINE)

namespace {
#define ENTRY(NAME, V, CG, F, LIVE, LATE) {#NAME, NAME, V, F},
const Entry kEntries[] = {ALL(ENTRY)};

const Entry* find(const std::string& name) {
  for (const Entry& e : kEntries)
    if (name == e.name)
      return &e;
  return nullptr;
}

unsigned poison(unsigned t, unsigned i) { return 0xA5A5A5A5u ^ (t << 8) ^ i; }
} // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "list") {
    for (const Entry& e : kEntries)
      std::printf("%s\n", e.name);
    return 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: predicates LAUNCHES | predicates list\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "predicates: cannot read %s\n", argv[1]);
    return 2;
  }
  std::vector<unsigned char> host(kGlobalBytes);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& b : host) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    b = static_cast<unsigned char>(x >> 56);
  }
  unsigned char* src = nullptr;
  unsigned *params = nullptr, *out = nullptr, *sink = nullptr;
  CHECK(cudaMalloc(&src, kGlobalBytes));
  if (reinterpret_cast<uintptr_t>(src) % 128 != 0) {
    std::fprintf(stderr, "predicates: source buffer not 128-byte aligned\n");
    return 3;
  }
  CHECK(cudaMalloc(&params, kParamWords * sizeof(unsigned)));
  CHECK(cudaMalloc(&out, kMaxThreads * 16));
  CHECK(cudaMalloc(&sink, kSinkWords * sizeof(unsigned)));
  CHECK(cudaMemset(sink, 0, kSinkWords * sizeof(unsigned)));
  CHECK(cudaMemcpy(src, host.data(), kGlobalBytes, cudaMemcpyHostToDevice));
  for (const Entry& e : kEntries)
    CHECK(cudaFuncSetAttribute(e.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  std::string line;
  int n = 0, wrong = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream ss(line);
    std::string id, kname, states;
    int T = 0;
    ss >> id >> kname >> T >> states;
    const Entry* e = find(kname);
    bool bad = !e || (T != 32 && T != 128) || static_cast<int>(states.size()) != T;
    std::vector<unsigned> g(T > 0 && T <= kMaxThreads ? T : 0), s(g.size());
    for (unsigned& v : g)
      ss >> v;
    for (unsigned& v : s)
      ss >> v;
    std::string rest;
    bad = bad || !ss || static_cast<bool>(ss >> rest);
    if (!bad) {
      std::set<unsigned> distinct(s.begin(), s.end());
      bad = distinct.size() != static_cast<size_t>(T);
      for (int t = 0; t < T && !bad; ++t) {
        char c = states[t];
        bool ok_state = c == 'c' || (c == 'z' && e->form != PLAIN && e->form != G &&
                                     e->form != G64) ||
                        (c == 'o' && (e->form == G || e->form == G64 || e->form == GZ ||
                                      e->form == G64Z));
        bad = !ok_state || g[t] % e->bytes || s[t] % e->bytes ||
              g[t] + e->bytes > kGlobalBytes || s[t] + e->bytes > kSharedBytes;
      }
    }
    if (bad) {
      std::fprintf(stderr, "predicates: bad launch line: %s\n", line.c_str());
      return 2;
    }
    // The parameter block from the states (see the forms above).
    std::vector<unsigned> P(kParamWords, 0);
    auto set64 = [&](int base, int t, unsigned long long v) {
      std::memcpy(&P[base + 2 * t], &v, sizeof v);
    };
    for (int t = 0; t < T; ++t) {
      char c = states[t];
      P[kGoff + t] = g[t];
      P[kSoff + t] = s[t];
      const unsigned long long off = 1ull << 32; // "lt 2^32" false
      switch (e->form) {
      case PLAIN:
        break;
      case Z:
      case G:
        P[kMask + t] = c == 'c';
        break;
      case Z64:
      case Z64W:
      case G64:
        set64(kMask64, t, c == 'c' ? 0 : off);
        break;
      case GZ:
        P[kMask + t] = c == 'c';
        P[kAux + t] = c == 'o' ? 65536u : 0u;
        break;
      case G64Z:
        P[kMask + t] = c == 'c';
        set64(kMask64, t, c == 'o' ? off : 0);
        break;
      }
    }
    CHECK(cudaMemcpy(params, P.data(), kParamWords * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0x5A, kMaxThreads * 16));
    e->fn<<<1, T, kSharedBytes>>>(src, params, out, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> back(kMaxThreads * 16);
    CHECK(cudaMemcpy(back.data(), out, kMaxThreads * 16, cudaMemcpyDeviceToHost));
    int V = e->bytes, bad_lanes = 0;
    std::string which;
    for (int t = 0; t < T; ++t) {
      std::vector<unsigned char> want(V);
      if (states[t] == 'c')
        std::memcpy(want.data(), host.data() + g[t], V);
      else if (states[t] == 'o')
        for (int i = 0; i < V / 4; ++i) {
          unsigned p = poison(t, i);
          std::memcpy(want.data() + 4 * i, &p, 4);
        }
      if (std::memcmp(back.data() + t * V, want.data(), V) != 0) {
        ++bad_lanes;
        if (bad_lanes <= 4)
          which += " " + std::to_string(t) + states[t];
      }
    }
    if (bad_lanes) {
      ++wrong;
      std::fprintf(stderr, "launch %d %s %s: %d threads wrong:%s\n", n, id.c_str(),
                   kname.c_str(), bad_lanes, which.c_str());
    } else {
      std::fprintf(stderr, "launch %d %s %s ok\n", n, id.c_str(), kname.c_str());
    }
    ++n;
  }
  std::fprintf(stderr, "predicates: %d launches, every byte checked, %d with a wrong byte\n", n,
               wrong);
  return wrong ? 4 : 0;
}
