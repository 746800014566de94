// Predicted wavefronts and bank conflicts when a distributed layout is stored to, or loaded
// from, a shared-memory layout (the model of SharedMemory.h, counted with linear algebra).
//
// # The accesses
//
// With REG : (register, lane, warp, block) -> tensor and SHARED : (offset, block) -> tensor,
// the offset each thread touches is O = SHARED^-1 ∘ REG (per CTA: block 0). A CTA's warps each
// issue one instruction per distinct vector of data they hold:
//
// - the vector is the largest 2^v elements (at most maxAccessBytes) that every thread keeps in
//   registers and that lie at consecutive, aligned offsets, in the same register order in every
//   lane and warp: each offset 2^k, k < v, is the image of some combination of registers (the
//   registers may be renumbered by any change of basis) and no lane or warp column has any of
//   the bits 0..v-1 (Theorem 5.1 with the identity tile; a lane that did would see the vector
//   in another order);
// - registers that duplicate others (zero columns, or columns dependent on other registers)
//   hold no new data and cost nothing: a warp issues 2^(rank of the register columns - v)
//   instructions, and every warp issues them, duplicated warps included.
//
// # The count
//
// The model is linear, so one instruction tells all: the lanes of one phase are a coset of a
// lane subspace Φ, their offsets a coset of O(Φ), and a phase takes exactly
//   c = |{words of O(Φ) whose bank is 0}| = 2^(rank O(Φ)' - rank of its bank bits)
// wavefronts, where ' means "in units of max(access, bank) bytes" (lanes inside one word merge).
// This is the paper's Lemma 9.4 (wavefronts = n * c) with n the phases per instruction. The
// tests re-derive every count by enumerating each lane's byte address.
//
// #ttg.padded_shared's padding is not linear; with padding the count enumerates the addresses
// (one instruction at a time, each lane, each phase), of one instruction per class of
// instructions whose addresses differ by a whole number of access units in every lane (their
// counts are equal): a few low offset bits per pad, whatever the tensor size. Past
// 2^kMaxPaddedInstructionsLog2 such classes the count is refused with an error.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/core/encodings/Shared.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace llcheck {

/// The most instructions of distinct bank patterns a padded layout's count enumerates (each
/// over every lane): 2^20 instructions x 32 lanes take about a second.
inline constexpr int kMaxPaddedInstructionsLog2 = 20;

/// One direction of a shared-memory access, per CTA, summed over warps and instructions.
struct AccessCount {
  int vectorBits = 0; ///< bits each lane moves per instruction
  uint64_t instructions = 0;
  uint64_t wavefronts = 0;
  uint64_t idealWavefronts = 0; ///< one per phase of every instruction
  uint64_t bankConflicts = 0;   ///< wavefronts - idealWavefronts
  /// Wavefronts per phase (the paper's c, the same for every phase of a linear layout).
  uint64_t wavefrontsPerPhase = 0;
  int phasesPerInstruction = 0;
};

/// {"vector_bits", "instructions", "wavefronts", "ideal_wavefronts", "bank_conflicts"}: the
/// design doc's contract.
[[nodiscard]] nlohmann::json toJson(const AccessCount& a);

struct SharedAccessOptions {
  int elementBits = 16;
  /// At most 2^maxVectorLog2 elements per access; -1: as wide as layouts and hardware allow.
  int maxVectorLog2 = -1;
};

/// REG's registers, lanes and warps as offsets into SHARED, for CTA 0: what every count (and
/// the enumerating tests) start from.
struct OffsetMap {
  std::vector<uint64_t> registers, lanes, warps;
  int offsetBits = 0;
  std::vector<IntervalPad> padding;
};

/// O = SHARED^-1 ∘ REG for CTA 0, with every precondition checked: REG distributed with
/// model.warpSize lanes, SHARED (offset[, block]) -> the same dims and sizes, invertible, and
/// CTA 0's data all in CTA 0's shared memory.
[[nodiscard]] Result<OffsetMap> offsetMap(const LinearLayout& reg, const LinearLayout& shared,
                                          const std::vector<IntervalPad>& padding,
                                          const SharedMemoryModel& model);

/// log2 of the vector: the largest v (capped by options and the model) as described above.
[[nodiscard]] int vectorLog2(const OffsetMap& map, const SharedMemoryModel& model,
                             const SharedAccessOptions& options);

/// The store (kind Store) or load of REG to/from SHARED.
[[nodiscard]] Result<AccessCount> predictSharedAccess(const OffsetMap& map,
                                                      const SharedMemoryModel& model,
                                                      SharedAccessKind kind,
                                                      const SharedAccessOptions& options);

/// The wavefronts one warp-wide access of `accessBytes` per lane takes (an unpadded layout:
/// every instruction of the access costs the same), counted lane by lane, when only the lanes t
/// with (t & inactiveLanes) == 0 take part: the others have left (ptxas exits the threads whose
/// stores are all masked) and a phase with none of the remaining lanes takes no wavefront. With
/// inactiveLanes = 0 it is what each instruction of predictSharedAccess at that width takes.
[[nodiscard]] Result<uint64_t> activeLaneWavefronts(const OffsetMap& map,
                                                    const SharedMemoryModel& model,
                                                    SharedAccessKind kind, int elementBits,
                                                    int accessBytes, uint64_t inactiveLanes);

struct BankConflictReport {
  AccessCount store, load;
};

/// `llcheck bank-conflicts REG SHARED`: both directions, each at its widest vector.
[[nodiscard]] Result<BankConflictReport> bankConflicts(const LinearLayout& reg,
                                                       const LinearLayout& shared,
                                                       const std::vector<IntervalPad>& padding,
                                                       int elementBits,
                                                       const SharedMemoryModel& model);

} // namespace llcheck
