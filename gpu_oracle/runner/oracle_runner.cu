// The GPU oracle's runner: executes each planned conversion on the GPU exactly as llcheck
// planned it, so that Nsight Compute's shared-memory counters of each launch can be compared
// with llcheck's predictions (`llcheck oracle` writes the plans, runs this under ncu, and reads
// both back).
//
// One CTA per case. Every thread holds SRC's registers (each the index of the element SRC puts
// there), stores them into shared memory with the planned instructions (st.shared of the
// planned width, or stmatrix), waits at a barrier, loads DST's registers with the planned
// instructions (ld.shared or ldmatrix), copies duplicated registers, and writes them out; the
// host checks every register of every lane and warp holds the element DST says. Elements
// narrower than the index are checked digit by digit: the first launch of a case
// (`oracle_measured`, the one ncu profiles) carries the lowest digit, further launches
// (`oracle_check`) the others. The output is poisoned before each launch.
//
// Layouts arrive as columns (kernel arguments pointing at global memory), so no case needs a
// recompilation: element columns give each register's element, offset columns (SHARED^-1 ∘ REG)
// its shared-memory offset, and per side a table of which register goes to which slot of
// which instruction. Input format: see gpu_oracle/README.md ("Runner input").
#include "Portability.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

#define CHECK(call)                                                                                \
  do {                                                                                             \
    gpuError_t err_ = (call);                                                                      \
    if (err_ != gpuSuccess) {                                                                      \
      std::fprintf(stderr, "oracle runner: %s failed: %s (%s:%d)\n", #call,                        \
                   gpuGetErrorString(err_), __FILE__, __LINE__);                                   \
      std::exit(3);                                                                                \
    }                                                                                              \
  } while (0)

constexpr int kMaxRegs = 256;
enum Mode { kVector = 0, kMatrix = 1, kMatrixTrans = 2 };

struct Side {
  int mode = kVector;
  int vectorLog2 = 0; ///< vector: elements per access (log2)
  int matrices = 0;   ///< matrix: 1, 2 or 4
  int instructions = 0;
  int slotsPerInstruction = 0; ///< vector: 2^v; matrix: matrices * elements per 32-bit word
  const int* slots = nullptr;  ///< [instruction][slot] -> register
  const int* rows = nullptr;   ///< matrix: [instruction][matrix][row] -> register of the row start
};

struct Params {
  int elemBytes, digitShift, laneBits, warpBits, srcRegBits, dstRegBits;
  const uint64_t *srcCols, *srcOffs, *dstCols, *dstOffs; ///< register, lane, warp columns
  Side store, load;
  const int* dup; ///< [dst register] -> the loaded register it copies (itself when loaded)
  uint64_t* out;  ///< [thread][dst register]
  // Warp-shuffle cases (`shuffle` true): the schedule, see Oracle.h's ShuffleTables.
  bool shuffle;
  int rounds, vectorElements, shufflesPerVector;
  const int *start, *pool;
};

/// The XOR of the columns the bits of (register, lane, warp) select: a layout applied.
__host__ __device__ uint64_t apply(const uint64_t* cols, int regBits, int laneBits, uint64_t reg,
                          uint64_t lane, uint64_t warp) {
  uint64_t v = 0;
  for (int b = 0; b < regBits; ++b)
    if ((reg >> b) & 1)
      v ^= cols[b];
  for (int b = 0; b < laneBits; ++b)
    if ((lane >> b) & 1)
      v ^= cols[regBits + b];
  for (int b = 0; warp >> b; ++b)
    if ((warp >> b) & 1)
      v ^= cols[regBits + laneBits + b];
  return v;
}

#if !LLCHECK_HIP
__device__ unsigned sharedAddress(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
#endif

/// One access of `bytes` (1 to 16) at byte address `addr` of shared memory, with the exact
/// instruction width (PTX on NVIDIA, a typed access under HIP).
__device__ void storeShared(unsigned char* smem, uint64_t byteOffset, int bytes,
                            const uint32_t* w) {
#if LLCHECK_HIP
  unsigned char* p = smem + byteOffset;
  switch (bytes) {
  case 1:
    *p = static_cast<unsigned char>(w[0]);
    break;
  case 2:
    *reinterpret_cast<uint16_t*>(p) = static_cast<uint16_t>(w[0]);
    break;
  case 4:
    *reinterpret_cast<uint32_t*>(p) = w[0];
    break;
  case 8:
    *reinterpret_cast<uint2*>(p) = make_uint2(w[0], w[1]);
    break;
  default:
    *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
    break;
  }
#else
  unsigned a = sharedAddress(smem + byteOffset);
  switch (bytes) {
  case 1:
    asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "r"(w[0]) : "memory");
    break;
  case 2:
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(static_cast<unsigned short>(w[0]))
                 : "memory");
    break;
  case 4:
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(w[0]) : "memory");
    break;
  case 8:
    asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(w[0]), "r"(w[1]) : "memory");
    break;
  default:
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(w[0]), "r"(w[1]),
                 "r"(w[2]), "r"(w[3])
                 : "memory");
    break;
  }
#endif
}

__device__ void loadShared(const unsigned char* smem, uint64_t byteOffset, int bytes, uint32_t* w) {
#if LLCHECK_HIP
  const unsigned char* p = smem + byteOffset;
  switch (bytes) {
  case 1:
    w[0] = *p;
    break;
  case 2:
    w[0] = *reinterpret_cast<const uint16_t*>(p);
    break;
  case 4:
    w[0] = *reinterpret_cast<const uint32_t*>(p);
    break;
  case 8: {
    uint2 v = *reinterpret_cast<const uint2*>(p);
    w[0] = v.x;
    w[1] = v.y;
    break;
  }
  default: {
    uint4 v = *reinterpret_cast<const uint4*>(p);
    w[0] = v.x;
    w[1] = v.y;
    w[2] = v.z;
    w[3] = v.w;
    break;
  }
  }
#else
  unsigned a = sharedAddress(smem + byteOffset);
  switch (bytes) {
  case 1:
    asm volatile("ld.shared.u8 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
    break;
  case 2: {
    unsigned short h;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a) : "memory");
    w[0] = h;
    break;
  }
  case 4:
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
    break;
  case 8:
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(w[0]), "=r"(w[1]) : "r"(a) : "memory");
    break;
  default:
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                 : "r"(a)
                 : "memory");
    break;
  }
#endif
}

/// ldmatrix / stmatrix: `w` holds one 32-bit word per matrix.
__device__ void matrixAccess(bool store, bool trans, int matrices, unsigned char* rowStart,
                             uint32_t* w) {
#if !LLCHECK_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned a = sharedAddress(rowStart);
  if (!store) {
    if (matrices == 1 && !trans)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                   : "=r"(w[0])
                   : "r"(a)
                   : "memory");
    else if (matrices == 1)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                   : "=r"(w[0])
                   : "r"(a)
                   : "memory");
    else if (matrices == 2 && !trans)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                   : "=r"(w[0]), "=r"(w[1])
                   : "r"(a)
                   : "memory");
    else if (matrices == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                   : "=r"(w[0]), "=r"(w[1])
                   : "r"(a)
                   : "memory");
    else if (!trans)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                   : "r"(a)
                   : "memory");
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                   : "r"(a)
                   : "memory");
  } else {
    if (matrices == 1 && !trans)
      asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(w[0])
                   : "memory");
    else if (matrices == 1)
      asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(a), "r"(w[0])
                   : "memory");
    else if (matrices == 2 && !trans)
      asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(w[0]),
                   "r"(w[1])
                   : "memory");
    else if (matrices == 2)
      asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(a),
                   "r"(w[0]), "r"(w[1])
                   : "memory");
    else if (!trans)
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a),
                   "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3])
                   : "memory");
    else
      asm volatile(
          "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a),
          "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3])
          : "memory");
  }
#else
  // Not reached: the host refuses matrix cases where the device lacks the instructions.
  (void)store, (void)trans, (void)matrices, (void)rowStart, (void)w;
  __builtin_trap();
#endif
}

/// Packs `count` elements of `bytes` each into little-endian 32-bit words, and back.
template <class T> __device__ void pack(const T* vals, int count, uint32_t* w) {
  unsigned char b[16];
  for (int k = 0; k < count; ++k)
    std::memcpy(b + k * sizeof(T), &vals[k], sizeof(T));
  for (int i = 0; i < 4; ++i)
    std::memcpy(&w[i], b + 4 * i, 4);
}
template <class T> __device__ void unpack(const uint32_t* w, int count, T* vals) {
  unsigned char b[16];
  for (int i = 0; i < 4; ++i)
    std::memcpy(b + 4 * i, &w[i], 4);
  for (int k = 0; k < count; ++k)
    std::memcpy(&vals[k], b + k * sizeof(T), sizeof(T));
}

/// One side's accesses: for a store, from `regs` into shared memory; for a load, the reverse.
template <class T>
__device__ void access(const Params& p, const Side& s, bool store, const uint64_t* offs,
                       int regBits, unsigned char* smem, T* regs, uint64_t lane, uint64_t warp) {
  int e = static_cast<int>(sizeof(T));
  for (int i = 0; i < s.instructions; ++i) {
    const int* slot = s.slots + i * s.slotsPerInstruction;
    T vals[16];
    uint32_t w[4] = {0, 0, 0, 0};
    if (s.mode == kVector) {
      uint64_t off = apply(offs, regBits, p.laneBits, static_cast<uint64_t>(slot[0]), lane, warp);
      int n = 1 << s.vectorLog2;
      if (store) {
        for (int k = 0; k < n; ++k)
          vals[k] = regs[slot[k]];
        pack(vals, n, w);
        storeShared(smem, off * static_cast<uint64_t>(e), n * e, w);
      } else {
        loadShared(smem, off * static_cast<uint64_t>(e), n * e, w);
        unpack(w, n, vals);
        for (int k = 0; k < n; ++k)
          regs[slot[k]] = vals[k];
      }
      continue;
    }
    // Matrix: lane t gives the start of row t % 8 of matrix t / 8 (lanes past the last matrix
    // repeat matrix 0's rows; the instruction ignores them).
    bool trans = s.mode == kMatrixTrans;
    int t = static_cast<int>(lane);
    int m = (t / 8) < s.matrices ? t / 8 : 0;
    int j = t % 8;
    int rowReg = s.rows[(i * s.matrices + m) * 8 + j];
    uint64_t rowLane = trans ? static_cast<uint64_t>(j >> 1) : static_cast<uint64_t>(4 * j);
    uint64_t off = apply(offs, regBits, p.laneBits, static_cast<uint64_t>(rowReg), rowLane, warp);
    int perWord = s.slotsPerInstruction / s.matrices;
    if (store) {
      for (int mm = 0; mm < s.matrices; ++mm) {
        uint32_t one[4] = {0, 0, 0, 0};
        for (int k = 0; k < perWord; ++k)
          vals[k] = regs[slot[mm * perWord + k]];
        pack(vals, perWord, one);
        w[mm] = one[0];
      }
      matrixAccess(true, trans, s.matrices, smem + off * static_cast<uint64_t>(e), w);
    } else {
      matrixAccess(false, trans, s.matrices, smem + off * static_cast<uint64_t>(e), w);
      for (int mm = 0; mm < s.matrices; ++mm) {
        uint32_t one[4] = {w[mm], 0, 0, 0};
        unpack(one, perWord, vals);
        for (int k = 0; k < perWord; ++k)
          regs[slot[mm * perWord + k]] = vals[k];
      }
    }
  }
}

/// A warp-shuffle conversion, round by round: each lane offers its vector, reads the lane its
/// schedule names, and writes what it read to every DST register that wants it.
template <class T> __device__ void runShuffle(const Params& p) {
  uint64_t lane = threadIdx.x & ((1u << p.laneBits) - 1);
  uint64_t warp = threadIdx.x >> p.laneBits;
  T src[kMaxRegs], dst[kMaxRegs];
  int srcRegs = 1 << p.srcRegBits, dstRegs = 1 << p.dstRegBits;
  for (int r = 0; r < srcRegs; ++r)
    src[r] = static_cast<T>(apply(p.srcCols, p.srcRegBits, p.laneBits, static_cast<uint64_t>(r),
                                  lane, warp) >>
                            p.digitShift);
  for (int q = 0; q < p.rounds; ++q) {
    const int* e = p.pool + p.start[(static_cast<int>(warp) * p.rounds + q) * 32 + static_cast<int>(lane)];
    int from = e[0];
    const int* send = e + 1;
    T vals[16];
    uint32_t words[4] = {0, 0, 0, 0}, got[4] = {0, 0, 0, 0};
    for (int k = 0; k < p.vectorElements; ++k)
      vals[k] = send[0] >= 0 ? src[send[k]] : T(0);
    pack(vals, p.vectorElements, words);
    for (int s = 0; s < p.shufflesPerVector; ++s)
      got[s] = gpuShflSync(0xffffffffu, words[s], from < 0 ? static_cast<int>(lane) : from);
    if (from < 0)
      continue;
    unpack(got, p.vectorElements, vals);
    const int* recv = send + p.vectorElements;
    for (int k = 0; k < p.vectorElements; ++k) {
      int count = *recv++;
      for (int c = 0; c < count; ++c)
        dst[recv[c]] = vals[k];
      recv += count;
    }
  }
  for (int r = 0; r < dstRegs; ++r)
    p.out[static_cast<uint64_t>(threadIdx.x) * dstRegs + r] = static_cast<uint64_t>(dst[r]);
}

template <class T> __device__ void run(const Params& p) {
  if (p.shuffle) {
    runShuffle<T>(p);
    return;
  }
  extern __shared__ __align__(16) unsigned char smem[];
  uint64_t lane = threadIdx.x & ((1u << p.laneBits) - 1);
  uint64_t warp = threadIdx.x >> p.laneBits;
  T regs[kMaxRegs];
  int srcRegs = 1 << p.srcRegBits, dstRegs = 1 << p.dstRegBits;
  for (int r = 0; r < srcRegs; ++r) {
    uint64_t element =
        apply(p.srcCols, p.srcRegBits, p.laneBits, static_cast<uint64_t>(r), lane, warp);
    regs[r] = static_cast<T>(element >> p.digitShift);
  }
  access<T>(p, p.store, true, p.srcOffs, p.srcRegBits, smem, regs, lane, warp);
  __syncthreads();
  access<T>(p, p.load, false, p.dstOffs, p.dstRegBits, smem, regs, lane, warp);
  for (int r = 0; r < dstRegs; ++r)
    if (p.dup[r] != r)
      regs[r] = regs[p.dup[r]];
  for (int r = 0; r < dstRegs; ++r)
    p.out[static_cast<uint64_t>(threadIdx.x) * dstRegs + r] = static_cast<uint64_t>(regs[r]);
}

// Two names for one kernel: ncu profiles `oracle_measured` (one launch per case) and skips the
// further digit checks.
template <class T> __global__ void oracle_measured(Params p) {
  run<T>(p);
}
template <class T> __global__ void oracle_check(Params p) {
  run<T>(p);
}

// ---------------------------------------------------------------------------------------------
// Host side.

struct HostSide {
  int mode = 0, vectorLog2 = 0, matrices = 0, instructions = 0, slotsPerInstruction = 0;
  std::vector<int> slots, rows;
};

struct HostCase {
  std::string id;
  int kind = 0; ///< 0 shared memory, 1 warp shuffles
  int elemBytes = 0, offsetBits = 0, laneBits = 0, warpBits = 0, srcRegBits = 0, dstRegBits = 0;
  int indexBits = 0;
  std::vector<uint64_t> srcCols, srcOffs, dstCols, dstOffs;
  HostSide store, load;
  std::vector<int> dup;
  int rounds = 0, vectorElements = 0, shufflesPerVector = 0;
  std::vector<int> start, pool;
};

[[noreturn]] void bad(const std::string& what) {
  std::fprintf(stderr, "oracle runner: bad input: %s\n", what.c_str());
  std::exit(2);
}

template <class V> void readN(std::istream& in, std::vector<V>& v, std::size_t n, const char* w) {
  v.resize(n);
  for (auto& x : v)
    if (!(in >> x))
      bad(std::string("truncated ") + w);
}

void expect(std::istream& in, const char* word) {
  std::string got;
  if (!(in >> got) || got != word)
    bad(std::string("expected '") + word + "', got '" + got + "'");
}

HostSide readSide(std::istream& in, const char* name) {
  expect(in, name);
  HostSide s;
  if (!(in >> s.mode >> s.vectorLog2 >> s.matrices >> s.instructions >> s.slotsPerInstruction))
    bad(std::string("truncated side ") + name);
  if (s.mode < 0 || s.mode > 2 || s.instructions < 0 || s.instructions > 4096 ||
      s.slotsPerInstruction < 1 || s.slotsPerInstruction > 16)
    bad(std::string("side ") + name + " out of range");
  readN(in, s.slots, static_cast<std::size_t>(s.instructions * s.slotsPerInstruction), name);
  if (s.mode != 0)
    readN(in, s.rows, static_cast<std::size_t>(s.instructions * s.matrices * 8), name);
  return s;
}

std::vector<HostCase> readCases(std::istream& in) {
  expect(in, "llcheck-oracle-runner");
  int version = 0, count = 0;
  if (!(in >> version >> count) || version != 1 || count < 0)
    bad("header");
  std::vector<HostCase> cases;
  for (int c = 0; c < count; ++c) {
    HostCase k;
    expect(in, "case");
    if (!(in >> k.id >> k.kind >> k.elemBytes >> k.offsetBits >> k.laneBits >> k.warpBits >> k.srcRegBits >>
          k.dstRegBits >> k.indexBits))
      bad("truncated case header");
    if (k.srcRegBits > 8 || k.dstRegBits > 8 || k.laneBits != 5 || k.warpBits > 5 ||
        k.offsetBits > 16 || k.indexBits > 62)
      bad("case " + k.id + " out of range");
    std::size_t srcN = static_cast<std::size_t>(k.srcRegBits + k.laneBits + k.warpBits);
    std::size_t dstN = static_cast<std::size_t>(k.dstRegBits + k.laneBits + k.warpBits);
    expect(in, "src");
    readN(in, k.srcCols, srcN, "src");
    readN(in, k.srcOffs, srcN, "src");
    expect(in, "dst");
    readN(in, k.dstCols, dstN, "dst");
    readN(in, k.dstOffs, dstN, "dst");
    if (k.kind == 1) {
      expect(in, "shuffle");
      std::size_t starts = 0, pool = 0;
      if (!(in >> k.rounds >> k.vectorElements >> k.shufflesPerVector >> starts))
        bad("truncated shuffle plan");
      if (k.rounds < 1 || k.rounds > 4096 || k.vectorElements < 1 || k.vectorElements > 16 ||
          k.shufflesPerVector < 1 || k.shufflesPerVector > 4 ||
          starts != (std::size_t{32} << k.warpBits) * static_cast<std::size_t>(k.rounds))
        bad("case " + k.id + ": shuffle plan out of range");
      readN(in, k.start, starts, "shuffle starts");
      if (!(in >> pool) || pool > (std::size_t{1} << 28))
        bad("truncated shuffle pool");
      readN(in, k.pool, pool, "shuffle pool");
      k.dup.assign(std::size_t{1} << k.dstRegBits, 0);
    } else {
      k.store = readSide(in, "store");
      k.load = readSide(in, "load");
      expect(in, "dup");
      readN(in, k.dup, std::size_t{1} << k.dstRegBits, "dup");
    }
    cases.push_back(std::move(k));
  }
  return cases;
}

template <class V> V* upload(const std::vector<V>& v, std::vector<void*>& owned) {
  void* d = nullptr;
  std::size_t bytes = std::max<std::size_t>(v.size(), 1) * sizeof(V);
  CHECK(gpuMalloc(&d, bytes));
  if (!v.empty())
    CHECK(gpuMemcpy(d, v.data(), v.size() * sizeof(V), gpuMemcpyHostToDevice));
  owned.push_back(d);
  return static_cast<V*>(d);
}

template <class T> void launch(bool measured, const Params& p, int threads, std::size_t smemBytes) {
  if (measured) {
    CHECK(gpuFuncSetAttribute(reinterpret_cast<const void*>(oracle_measured<T>),
                              gpuFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(smemBytes)));
    oracle_measured<T><<<1, threads, smemBytes>>>(p);
  } else {
    CHECK(gpuFuncSetAttribute(reinterpret_cast<const void*>(oracle_check<T>),
                              gpuFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(smemBytes)));
    oracle_check<T><<<1, threads, smemBytes>>>(p);
  }
  CHECK(gpuGetLastError());
  CHECK(gpuDeviceSynchronize());
}

/// Runs one case digit by digit; returns "correct" or what went wrong.
std::string runCase(const HostCase& k) {
  std::vector<void*> owned;
  Params p{};
  p.elemBytes = k.elemBytes;
  p.laneBits = k.laneBits;
  p.warpBits = k.warpBits;
  p.srcRegBits = k.srcRegBits;
  p.dstRegBits = k.dstRegBits;
  p.srcCols = upload(k.srcCols, owned);
  p.srcOffs = upload(k.srcOffs, owned);
  p.dstCols = upload(k.dstCols, owned);
  p.dstOffs = upload(k.dstOffs, owned);
  auto side = [&](const HostSide& h) {
    Side s;
    s.mode = h.mode;
    s.vectorLog2 = h.vectorLog2;
    s.matrices = h.matrices;
    s.instructions = h.instructions;
    s.slotsPerInstruction = h.slotsPerInstruction;
    s.slots = upload(h.slots, owned);
    s.rows = upload(h.rows, owned);
    return s;
  };
  p.store = side(k.store);
  p.load = side(k.load);
  p.dup = upload(k.dup, owned);
  p.shuffle = k.kind == 1;
  p.rounds = k.rounds;
  p.vectorElements = k.vectorElements;
  p.shufflesPerVector = k.shufflesPerVector;
  p.start = upload(k.start, owned);
  p.pool = upload(k.pool, owned);
  int threads = 1 << (k.laneBits + k.warpBits);
  std::size_t outCount = static_cast<std::size_t>(threads) << k.dstRegBits;
  p.out = static_cast<uint64_t*>(nullptr);
  std::vector<uint64_t> host(outCount);
  void* out = nullptr;
  CHECK(gpuMalloc(&out, outCount * sizeof(uint64_t)));
  owned.push_back(out);
  p.out = static_cast<uint64_t*>(out);
  std::size_t smemBytes = (std::size_t{1} << k.offsetBits) * static_cast<std::size_t>(k.elemBytes);
  int elemBits = 8 * k.elemBytes;
  int digits = elemBits >= 64 ? 1 : (k.indexBits + elemBits - 1) / elemBits;
  if (digits < 1)
    digits = 1;
  std::string verdict = "correct";
  for (int d = 0; d < digits && verdict == "correct"; ++d) {
    p.digitShift = d * elemBits;
    CHECK(gpuMemset(out, 0xA5, outCount * sizeof(uint64_t))); // poison
    switch (k.elemBytes) {
    case 1:
      launch<uint8_t>(d == 0, p, threads, smemBytes);
      break;
    case 2:
      launch<uint16_t>(d == 0, p, threads, smemBytes);
      break;
    case 4:
      launch<uint32_t>(d == 0, p, threads, smemBytes);
      break;
    default:
      launch<uint64_t>(d == 0, p, threads, smemBytes);
      break;
    }
    CHECK(gpuMemcpy(host.data(), out, outCount * sizeof(uint64_t), gpuMemcpyDeviceToHost));
    uint64_t mask = elemBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << elemBits) - 1;
    for (int t = 0; t < threads && verdict == "correct"; ++t)
      for (uint64_t r = 0; r < (uint64_t{1} << k.dstRegBits); ++r) {
        uint64_t lane = static_cast<uint64_t>(t) & ((1u << k.laneBits) - 1);
        uint64_t warp = static_cast<uint64_t>(t) >> k.laneBits;
        uint64_t want =
            (apply(k.dstCols.data(), k.dstRegBits, k.laneBits, r, lane, warp) >> p.digitShift) & mask;
        uint64_t got = host[(static_cast<std::size_t>(t) << k.dstRegBits) + r];
        if (got != want) {
          std::ostringstream s;
          s << "wrong register=" << r << " lane=" << lane << " warp=" << warp << " digit=" << d
            << " got=" << got << " want=" << want;
          verdict = s.str();
          break;
        }
      }
  }
  for (void* d : owned)
    CHECK(gpuFree(d));
  return verdict;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: llcheck_oracle_runner PLANS RESULTS (written by llcheck oracle)\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in)
    bad(std::string("cannot read ") + argv[1]);
  std::vector<HostCase> cases = readCases(in);
  int devices = 0;
  if (gpuGetDeviceCount(&devices) != gpuSuccess || devices == 0) {
    std::fprintf(stderr, "oracle runner: no GPU\n");
    return 2;
  }
  std::ofstream out(argv[2]);
  int runtime = 0, driver = 0;
  gpuDeviceProp prop{};
  CHECK(gpuRuntimeGetVersion(&runtime));
  CHECK(gpuDriverGetVersion(&driver));
  CHECK(gpuGetDeviceProperties(&prop, 0));
  out << "# " << prop.name << ", compute capability " << prop.major << "." << prop.minor
      << ", CUDA runtime " << runtime << ", driver API " << driver << "\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::string verdict = runCase(cases[i]);
    out << cases[i].id << " " << verdict << "\n" << std::flush;
    // Every case: `llcheck oracle` reads these for its progress line (and passes every 100th
    // on where stderr is not a terminal).
    std::fprintf(stderr, "oracle runner: %zu/%zu cases\n", i + 1, cases.size());
  }
  return out ? 0 : 3;
}
