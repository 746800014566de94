// What Triton emits for a shared-memory op on NVIDIA (sm80, sm90), per release: the instruction,
// its width, how many each warp executes, and so, with the bank model, the wavefronts. llcheck's
// own answer (BankConflicts.h, OptimalSwizzle.h) is the best the hardware allows; this is the
// compiler's, for comparing the two and for predicting what a TTGIR will measure.
//
// The rules were read from Triton's lowering (lowerLocalLdSt / lowerLdSt, the NVIDIA backend's
// lowerLdStMatrix, the convert_layout swizzling and its GenericSwizzling tools) and checked
// against the PTX and SASS that Triton 3.6 and 3.9 emit for random Gluon kernels
// (tests/triton/lowering/). Let C = SHARED^-1 ∘ REG (register, lane, warp -> offset, CTA 0).
//
// # local_alloc / local_store (registers -> shared) and local_load (shared -> registers)
//
// 1. Registers REG holds copies in (zero bases) are dropped: they are never stored or loaded.
//    Lanes and warps that hold copies are not: every lane and every warp issues every
//    instruction (the copies are written twice, and read twice).
// 2. ldmatrix (loads, sm80+) / stmatrix (stores, sm90 only) are tried first, the plain form
//    then .trans, never with #ttg.padded_shared:
//    - plain (elements of at most 32 bits): some registers are offsets 1, 2, .. of a 32-bit
//      word (any registers, permuted to the front), lanes 1 and 2 the next two offsets (the
//      four words of a 16-byte row), and no other register, lane or warp touches those
//      16 bytes. Lanes 4, 8, 16 pick the 8 rows of a matrix (anywhere, 16-byte aligned).
//    - .trans (16-bit elements, at least 2 registers): lanes 4, 8, 16 are offsets 1, 2, 4 (a
//      row of 8 elements), nothing else touches those 16 bytes, and one register (3.6: the
//      first; 3.9: the one whose rows hit the fewest banks, the first of equals) with lanes 1
//      and 2 picks the 8 rows.
//    - the next (at most two) registers pick the matrix of an .x2/.x4 instruction: .x4 when
//      the thread holds at least 128 bits; the rest are separate instructions.
// 3. Otherwise ld.shared / st.shared. Triton's vector is the widest v <= 16 bytes such that
//    some registers are exactly offsets 1, 2, .., v/2 (a permutation of registers, not
//    llcheck's change of basis) and no other register, lane or warp touches those offsets;
//    with #ttg.padded_shared at most the smallest interval, registers not permuted. Triton
//    emits them as plain LLVM loads and stores: registers that miss every lane and warp bit
//    become constant offsets from the thread's base (the others are XORed into it), and LLVM's
//    load/store vectoriser merges neighbouring constant offsets into one access of up to 16
//    bytes where it can prove it aligned. So the PTX usually has the width of llcheck's own
//    vector after all, and sometimes mixed widths (some neighbours aligned, some not).
//    Each warp issues every access; `widthsPerWarp` counts them by width.
//
// Where the two releases differ: 3.9 picks the .trans row register by bank conflicts (3.6
// takes the first). Triton 3.6 lays an unswizzled #ttg.nvmma_shared out as if not transposed
// (an encoding difference: pass 3.6's layout). The merging is LLVM's, whose releases differ
// in what alignment they prove on padded layouts (tests/triton/lowering/known_differences.json).
//
// # convert_layout through shared memory
//
// Triton builds its own scratch layout (GenericSwizzling's optimalSwizzling): each side may
// use ld/st.shared.v4, ldmatrix/stmatrix or their .trans forms; every pair whose 16-byte tiles
// match is built (vector, bank and segment bases, the segment avoiding both sides' lanes as
// far as it can) and the pair with the fewest bank conflicts by Triton's own count wins (ties:
// the one moving the data in fewer rounds). When no pair matches, a plain ld/st layout is built
// from the registers the two layouts share (filled up to a bank word with registers that are
// warps on the other side). Register bases that are registers on both sides and land in the
// segment become "reps": the conversion then runs in rounds (store, barrier, load), each a
// smaller scratch buffer. Each side is then lowered as above on its map into that layout.
//
// # async_copy_global_to_local (cp.async)
//
// One cp.async per vector of v elements, v the widest of at most 16 bytes, at most the
// pointers' contiguity (the caller's `maxElements`), whose registers are offsets 1, 2, ..
// in order (no permutation); 4 bytes at least, or Triton refuses. Copies in lanes and warps
// are predicated off: every warp issues the instructions, only the lanes that own data move it.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/core/encodings/Shared.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llcheck {

struct TritonLoweringOptions {
  TritonVersion version = kNewestTriton;
  int elementBits = 16;
  /// The values are i1, which Triton keeps in shared memory as i8: each loaded byte becomes a
  /// predicate of its own, and ptxas loads a pair of them (ld.shared.v2.b8) as two LDS.U8
  /// (i8 data it keeps packed: one LDS.U16, as the lowering probe's int8 cases show).
  bool booleans = false;
};

/// One side of a shared-memory op as Triton lowers it (per CTA).
struct TritonAccess {
  SharedInstruction instruction = SharedInstruction::Vector;
  /// The PTX mnemonic Triton emits: "st.shared.v4.b32", "ld.shared.v2.b16",
  /// "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "cp.async.cg.shared.global" (+ size).
  std::string name;
  int vectorElements = 1; ///< elements per lane per instruction (ld/st.shared, cp.async)
  int matrices = 0;       ///< x1, x2, x4 (ldmatrix/stmatrix)
  int copyBytes = 0;      ///< cp.async only: bytes per lane per copy
  uint64_t instructionsPerWarp = 0;
  /// ld/st.shared: bits per lane -> instructions per warp, where LLVM merged only some of
  /// Triton's accesses (otherwise one entry).
  std::map<int, uint64_t> widthsPerWarp;
  uint64_t warps = 0; ///< warps of the CTA; all of them issue every instruction
  /// Wavefronts per the bank model for this instruction, per CTA. For cp.async, the shared
  /// side of the copy (lanes predicated off write nothing).
  AccessCount count;
  /// The rules that decided it, one short line each (for text output and reports).
  std::vector<std::string> why;
  /// Lane accesses (all warps) whose byte address is not a multiple of their width: a padded
  /// layout can move Triton's vectors off their alignment, and the GPU then faults
  /// (CUDA_ERROR_MISALIGNED_ADDRESS; 15 of the recorded padded kernels, both releases).
  uint64_t misalignedAccesses = 0;
};

/// local_alloc / local_store (kind Store) or local_load (Load) of REG to/from SHARED.
/// `model` must be sm80 or sm90.
[[nodiscard]] Result<TritonAccess>
tritonLocalAccess(const LinearLayout& reg, const LinearLayout& shared,
                  const std::vector<IntervalPad>& padding, SharedAccessKind kind,
                  const SharedMemoryModel& model, const TritonLoweringOptions& options);

/// Triton's lowering of convert_layout SRC -> DST through shared memory.
struct TritonConversion {
  /// Triton's scratch layout (offset -> tensor) for one round: vector, bank and segment bases
  /// as offset bits, and the "reps" tensor bases it moves round by round.
  LinearLayout scratch;
  std::vector<uint64_t> vector, bank, segment, reps; ///< flattened tensor bases
  uint64_t rounds = 1;
  TritonAccess store, load;
  /// Triton's own bank-conflict estimate for the chosen pair (its selection criterion).
  int tritonConflicts = 0;
};

/// Whether Triton VERSION lowers convert_layout SRC -> DST through shared memory: when
/// C = DST^-1 ∘ SRC (Triton's pseudo-inverse) moves data between CTAs or warps, or, within
/// warps, when at least two lane bits of SRC become register bits of DST or two register bits
/// of SRC lane bits of DST (Triton's shuffles handle one such "mixed transposition" each way).
/// Triton 3.9 also keeps within warps a conversion whose warps of DST differ from SRC's by
/// lane bits of SRC (a warp of SRC that holds a copy serves the warp of DST that needs it);
/// 3.6 does not notice such copies.
[[nodiscard]] Result<bool> tritonConvertNeedsSharedMemory(const LinearLayout& src,
                                                          const LinearLayout& dst,
                                                          TritonVersion version);

/// SRC and DST distributed over the same tensor with the same warps and 32 lanes, a
/// conversion tritonConvertNeedsSharedMemory says goes through shared memory.
[[nodiscard]] Result<TritonConversion> tritonConvertLayout(const LinearLayout& src,
                                                           const LinearLayout& dst,
                                                           const SharedMemoryModel& model,
                                                           const TritonLoweringOptions& options);

/// Where an async copy's source lies in global memory. On Hopper an LDGSTS's shared-memory
/// wavefronts depend on it as much as on the destination (gpu_oracle/ldgsts_rule, measured on
/// an H200: ncu's per-instruction LDGSTS wavefronts of 1,230 one-warp copies):
/// - cp.async.ca (4, 8, 16 bytes; LDGSTS): in the usual phases (32, 16, 8 lanes), two lanes
///   conflict when their global units (address / bytes mod 128 / bytes) or their shared units
///   are equal; a phase takes the most lanes one lane conflicts with, itself included;
/// - cp.async.cg (16 bytes; LDGSTS.BYPASS): no phases; a wavefront never spans two global
///   128-byte lines or two shared 128-byte rows, and moves 32-byte sectors (whole, halves in
///   place or swapped, or single 16-byte lanes) of one kind under one map of the four sectors
///   of the line to those of the row that is a rotation or a reflection; filled greedily.
struct AsyncCopySource {
  /// Elements between consecutive indices of dim0, dim1, ...; non-negative.
  std::vector<int64_t> strides;
  /// The tile's first byte past a 128-byte line of global memory, and the destination's past
  /// a 128-byte row of shared memory.
  uint64_t globalOffset = 0;
  uint64_t sharedOffset = 0;
};

/// A global address from here up in ldgstsWavefronts: a lane that copies no byte (its mask is
/// off: src-size 0, zero fill) but still writes its destination. Give it kLdgstsNoSource plus
/// its shared address: for cp.async.cg that puts it in a line of its own beside its shared
/// row; for cp.async.ca it conflicts through its shared unit alone (the real-kernels corpus on
/// the H200: the tutorial's masked fp32 copies of 300 x 260 x 200 and fla's gate vectors agree
/// so, in both releases, and took fewer wavefronts when the lane's unit was also compared as a
/// global one).
inline constexpr uint64_t kLdgstsNoSource = uint64_t{1} << 62;

/// The shared wavefronts of one LDGSTS: the global and shared byte addresses of the lanes that
/// copy (predicated-off lanes left out), each moving `bytes`; `bypass` for cp.async.cg. A lane
/// whose mask is off has a global address of kLdgstsNoSource or more.
[[nodiscard]] uint64_t ldgstsWavefronts(const std::vector<uint64_t>& global,
                                        const std::vector<uint64_t>& shared, int bytes,
                                        bool bypass);

/// async_copy_global_to_local of pointers laid out as SRC into SHARED; `maxElements` bounds
/// the copy by the pointers' contiguity and alignment (Triton's AxisInfo; 16 bytes at most).
/// With `source` (sm90 only: the rules above were measured there), the wavefronts follow the
/// LDGSTS rules for that source; without, the destination's bank rule alone (a lower bound
/// on Hopper: the source can only add wavefronts).
[[nodiscard]] Result<TritonAccess> tritonAsyncCopy(const LinearLayout& src,
                                                   const LinearLayout& shared,
                                                   const std::vector<IntervalPad>& padding,
                                                   int maxElements, const SharedMemoryModel& model,
                                                   const TritonLoweringOptions& options,
                                                   const AsyncCopySource* source = nullptr);

/// One LDGSTS of an async copy: an owner warp's group of registers. For each lane that copies
/// (lanes and warps holding copies are predicated off), in lane order, the tensor coordinates
/// of its first element (dim0, dim1, ...) and its byte in the destination buffer.
struct AsyncCopyInstruction {
  uint64_t warp = 0;
  std::vector<std::vector<uint64_t>> coordinates;
  std::vector<uint64_t> sharedBytes;
};

/// The LDGSTS instructions tritonAsyncCopy counts (warp by warp, each warp's in order): what a
/// launch's own source addresses are matched with (reports' --launches).
[[nodiscard]] Result<std::vector<AsyncCopyInstruction>>
tritonAsyncCopyInstructions(const LinearLayout& src, const LinearLayout& shared,
                            const std::vector<IntervalPad>& padding, int maxElements,
                            const SharedMemoryModel& model, const TritonLoweringOptions& options);

/// The largest v (log2) Triton vectorises REG -> SHARED with: registers exactly offsets
/// 1, 2, .., 2^(v-1) (permuted to the front when `permute`) and nothing else touching those
/// offsets, at most 2^maxLog2. `registers` without zero columns.
[[nodiscard]] int tritonVectorLog2(const std::vector<uint64_t>& registers,
                                   const std::vector<uint64_t>& lanes,
                                   const std::vector<uint64_t>& warps, int maxLog2, bool permute);

/// {"instruction", "vector_bits", "instructions", "instructions_per_warp", "wavefronts",
///  "ideal_wavefronts", "bank_conflicts", "why"}: the bank model's access JSON plus the
/// instruction.
[[nodiscard]] nlohmann::json toJson(const TritonAccess& a);

} // namespace llcheck
