// Shared pieces of TritonLowering.cpp and TritonSwizzling.cpp: one side of a shared-memory op
// as Triton lowers it, on the map C = SHARED^-1 ∘ REG (see TritonLowering.h for the rules).
#pragma once

#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/TritonLowering.h"

#include <optional>
#include <string>
#include <vector>

namespace llcheck::detail {

uint64_t lowMask(int bits);

/// C for CTA 0 with REG's copied registers (zero columns) dropped, as Triton drops them.
struct CvtMap {
  std::vector<uint64_t> registers, lanes, warps; ///< offsets (elements)
  int offsetBits = 0;
  int droppedRegisters = 0;
};

[[nodiscard]] CvtMap withoutCopies(const OffsetMap& m);

/// For each wanted value in order, the first unused register equal to it (Triton's
/// regPermForDivide); nullopt when one is missing.
[[nodiscard]] std::optional<std::vector<int>>
registersEqualTo(const std::vector<uint64_t>& registers, const std::vector<uint64_t>& wanted);

struct MatrixPlan {
  bool trans = false;
  int matricesLog2 = 0; ///< .x1, .x2, .x4
  uint64_t instructionsPerWarp = 0;
  int rowRegister = -1;             ///< .trans: the register picking row pairs
  std::vector<uint64_t> rowColumns; ///< the offsets of the 8 rows of a matrix
  uint64_t wavefrontsPerMatrix = 1;
};

[[nodiscard]] std::optional<MatrixPlan> plainMatrix(const CvtMap& m, int elementBits);
[[nodiscard]] std::optional<MatrixPlan> transMatrix(const CvtMap& m, int elementBits,
                                                    TritonVersion version);
/// Triton's largestVectorisation (log2 elements).
[[nodiscard]] int vectorLog2(const CvtMap& m, int maxLog2, bool permute);
/// One ld/st.shared a warp issues: the XOR of register offsets it starts at, and its bytes per
/// lane.
struct Chunk {
  uint64_t start = 0;
  int bytes = 0;
};
/// Triton's accesses (vectors of 2^v elements), merged as LLVM's load/store vectoriser merges
/// neighbours at constant offsets from one base when `merge`.
[[nodiscard]] std::vector<Chunk> emittedAccesses(const CvtMap& m,
                                                 const std::vector<IntervalPad>& padding, int v,
                                                 bool permute, int elemBytes, bool merge);
/// One warp-wide access of `bytes` per lane, by each lane's byte address (nullopt: the lane
/// takes no part): per phase (lanes reduced modulo `phase`), the most distinct bank words one
/// bank is asked for; a phase no lane takes part in takes no wavefront.
struct WarpWavefronts {
  uint64_t wavefronts = 0;
  uint64_t phases = 0;      ///< phases with a lane taking part
  uint64_t maxPerPhase = 0; ///< the most wavefronts one phase takes
};
[[nodiscard]] WarpWavefronts warpWavefronts(const std::vector<std::optional<uint64_t>>& byteAddress,
                                            int bytes, const Subspace& phase,
                                            const SharedMemoryModel& model);
/// The bank model's count of those accesses, by their addresses, all warps.
/// `misaligned` (when given) counts the lane accesses whose byte address is not a multiple of
/// their width (padding can move a vector off its alignment; the GPU faults on them).
[[nodiscard]] AccessCount chunkCount(const CvtMap& m, const std::vector<IntervalPad>& padding,
                                     const std::vector<Chunk>& chunks, SharedAccessKind kind,
                                     const SharedMemoryModel& model, int elemBytes,
                                     uint64_t* misaligned = nullptr);
/// The most instructions per CTA (log2) whose addresses emittedAccesses/chunkCount go through
/// one by one: 2^15 is 1 MiB of 1-byte accesses, several times what a CTA's shared memory holds
/// (228 KiB on sm90), so every access Triton can compile is counted; larger ones are refused
/// instead of enumerated for minutes.
inline constexpr int kMaxEnumeratedInstructionsLog2 = 15;
/// An Error when 2^v-element accesses of m would take more instructions than that bound.
[[nodiscard]] std::optional<Error> checkEnumerable(const CvtMap& m, int v, int elemBytes);
/// Whether LLVM sees (and merges) this release's ld/st.shared.
[[nodiscard]] bool llvmMergesAccesses(TritonVersion version, SharedAccessKind kind);

[[nodiscard]] std::string matrixName(SharedAccessKind kind, int matrices, bool trans);
[[nodiscard]] std::string vectorName(SharedAccessKind kind, int elements, int elementBits);
[[nodiscard]] AccessCount matrixCount(const MatrixPlan& p, uint64_t warps);
/// One side lowered: ldmatrix/stmatrix where allowed and possible, else ld/st.shared; each
/// count multiplied by `rounds` (convert_layout's reps).
[[nodiscard]] Result<TritonAccess> lowerSide(const CvtMap& m,
                                             const std::vector<IntervalPad>& padding,
                                             SharedAccessKind kind, const SharedMemoryModel& model,
                                             const TritonLoweringOptions& options, bool allowMatrix,
                                             uint64_t rounds);

[[nodiscard]] std::optional<Error> checkModel(const SharedMemoryModel& model, int elementBits);

} // namespace llcheck::detail
