// The optimal swizzled shared-memory layout for a conversion through shared memory (paper
// section 5.4 and appendix 9.2), searched over the instructions each side may use: given SRC
// (stored) and DST (loaded), the shared layout and the pair of instructions that take the
// fewest wavefronts for the store and the load together.
//
// # The construction (in the logical tensor of one CTA, d bits; vectors are packed elements)
//
//   offset bits:  [ Low (c) | Bank (b) | Segment (l = d - c - b) ]
//
// - Low: the contiguous piece each access keeps whole. In the paper it is Vec, a basis of
//   span(SRC registers) ∩ span(DST registers) (at most maxAccessBytes per lane, kept off the
//   lanes and warps of both layouts), and for accesses narrower than a bank the "within-word"
//   bits after it: lanes that differ only there share a word.
// - Bank: the bits that pick the bank inside one row of banks (rowBytes = banks * 4 bytes),
//   c + b = log2(rowBytes / element bytes).
// - Segment: which row. Lanes of one phase that differ only in segment bits hit the same bank
//   in different rows: a conflict. With U and W the spans of SRC's and DST's phase addresses
//   modulo Low, a phase costs 2^dim(U ∩ Segment) wavefronts for the store and 2^dim(W ∩ Segment)
//   for the load. Lemma 9.5: the largest subspace meeting U ∪ W only in 0 has dimension
//   n - max(dim U, dim W) (n = d - c); it is C ⊕ G with C a complement of U + W and
//   G = {e_i ^ f_i} pairing bases of U and W beyond their intersection. Segment takes l vectors
//   from C, then G, then (only beyond the bound, where conflicts are unavoidable) from W's and
//   U's remaining basis vectors. Bank and Segment are chosen in a complement of Low that holds
//   every lane and warp direction, so no thread moves inside another's vector.
//
// # The search: which Low, and which instructions
//
// The paper fixes one vector common to both sides. Compilers do better on some conversions
// (a transpose shares no register direction, yet Triton moves it at 16 bytes per lane on both
// sides), so each candidate below is built with the construction above and counted with the
// bank model (BankConflicts.h for ld/st.shared, Ldmatrix.h for ldmatrix/stmatrix); the
// cheapest store + load wins (ties: fewer instructions, then the earlier candidate); the search
// stops early once both sides make their widest access without a conflict, which nothing beats:
//
// 1. "common vector": the paper's construction.
// 2. "wider SRC vector" / "wider DST vector" (+k): Low = Vec followed by k more registers of one
//    side that are lanes of the other side's phase. That side stores (loads) wider vectors;
//    the other side's lanes then differ only inside one row of banks, which costs nothing.
// 3. "16-byte tile": both sides move 16-byte pieces, each with st/ld.shared.v4, stmatrix /
//    ldmatrix (registers within a word, then lanes 1 and 2 along the row) or their .trans forms
//    (16-bit elements: lanes 4, 8, 16 along the row), where the architecture has them and
//    the two sides' pieces are the same 16 bytes. Their phases are 8 rows of 16 bytes, so the
//    construction always makes them conflict-free: 128 bytes per wavefront on both sides.
//
// The result records, per side, Lemma 9.5's least wavefronts for layouts whose accesses of
// that side move the same pieces (its first offset bits), next to what the bank model predicts
// for the layout built, so that "attains the bound" is a checked statement, not a claim; and
// every candidate's counts, so the choice can be audited.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace llcheck {

enum class SharedInstruction {
  Vector,      ///< st.shared / ld.shared (ds_write / ds_read), 1 to 16 bytes per lane
  Matrix,      ///< stmatrix / ldmatrix .x1/.x2/.x4
  MatrixTrans, ///< stmatrix / ldmatrix .trans (16-bit elements)
};

/// The instruction's name on the model's architecture: "st.shared.v4.b32", "ld.shared.b16",
/// "ldmatrix.x4.trans.b16", "ds_read_b64", ... (`matrices`: for the matrix kinds).
[[nodiscard]] std::string sharedInstructionName(const SharedMemoryModel& model,
                                                SharedAccessKind kind,
                                                SharedInstruction instruction, int vectorBits,
                                                int matrices);

/// How one side moves its data, and what the bank model counts for it (per CTA, all warps).
struct SideAccess {
  SharedInstruction instruction = SharedInstruction::Vector;
  /// "st.shared.v4.b32", "ldmatrix.x4.trans.b16", "ds_read_b64", ...
  std::string name;
  AccessCount count;
};

struct SwizzleBound {
  int segmentDims = 0;             ///< l = d - c - b
  int conflictFreeSegmentDims = 0; ///< Lemma 9.5: n - max(dim U, dim W), modulo Low
  uint64_t storeWavefronts = 0;    ///< the least the store can take moving the same pieces
  uint64_t loadWavefronts = 0;
  [[nodiscard]] bool attainedBy(const AccessCount& store, const AccessCount& load) const {
    return store.wavefronts == storeWavefronts && load.wavefronts == loadWavefronts;
  }
};

/// One layout the search built and counted.
struct SwizzleCandidate {
  std::string construction; ///< "common vector", "wider SRC vector (+1)", "16-byte tile"
  std::string store, load;  ///< instruction names
  uint64_t storeWavefronts = 0, loadWavefronts = 0;
  uint64_t instructions = 0; ///< store + load instructions
};

struct SwizzleSearch {
  /// Candidates 2: one side's vector wider than the common one.
  bool perSideVectors = true;
  /// Candidates 3 with stmatrix/ldmatrix (only where the model's architecture has them).
  bool matrixInstructions = true;
};

struct OptimalSwizzle {
  /// (offset, block) -> the tensor dims: offset bits in the order Low, Bank, Segment.
  LinearLayout shared;
  /// Low's bits that are vector or tile (the rest of Low are within-word bits).
  int vectorLog2 = 0;
  int withinWordBits = 0;
  std::string construction;
  /// The columns of each part, as packed elements of the tensor (SRC's out-dim order); `vec`
  /// is Low (its vector or tile bits, then its within-word bits).
  std::vector<uint64_t> vec, bank, segment;
  /// The tensor directions the lanes of one store (load) phase move along, as packed elements:
  /// Lemma 9.5's A_Thr (B_Thr), with which `vec` spans U (V). The prover re-proves the bound
  /// from them.
  std::vector<uint64_t> storePhase, loadPhase;
  SwizzleBound bound;
  SideAccess store, load;
  /// Whether `shared` is a memory layout (Def. 4.14). The search prefers one over any cost; only
  /// the paper's construction, kept for its bound, can be none (a column of three tensor bits),
  /// and is then not shown (checkedOptimalSwizzle).
  bool memoryLayout = false;
  /// Every candidate counted, the chosen one included, in the order built (up to the first
  /// that cannot be beaten).
  std::vector<SwizzleCandidate> candidates;
};

/// SRC and DST must be distributed layouts over the same tensor that split it between CTAs
/// alike, and SRC must hold every element (otherwise no shared layout covers the tensor).
[[nodiscard]] Result<OptimalSwizzle> optimalSwizzle(const LinearLayout& src,
                                                    const LinearLayout& dst, int elementBits,
                                                    const SharedMemoryModel& model,
                                                    const SwizzleSearch& search = {});

/// Why S may not be shown as llcheck's shared layout for SRC -> shared -> DST, or "" when it
/// may. Checked from the layout alone, not from how the search built it, as `llcheck verify`
/// and `llcheck bank-conflicts` would: S's shared layout is a memory layout (Def. 4.14, by the
/// algebra and enumeration) of SRC's tensor, and each side, counted again by the bank model
/// (ld/st.shared at the width S names, or ldmatrix/stmatrix), takes the instructions and
/// wavefronts S states. Every suggestion passes it before it is printed: one that fails is a
/// bug in llcheck, reported as such, never advice (issue 33: gfx942 attention's suggestion held
/// the basis [16, 20], which `llcheck verify` refuses).
[[nodiscard]] std::string refuteSuggestion(const OptimalSwizzle& s, const LinearLayout& src,
                                           const LinearLayout& dst, int elementBits,
                                           const SharedMemoryModel& model);

/// Why S may not be shown at all, or "": it is not a memory layout (the search found none), or
/// refuteSuggestion refutes it (a bug in llcheck, said so).
[[nodiscard]] std::string whyNotShown(const OptimalSwizzle& s, const LinearLayout& src,
                                      const LinearLayout& dst, int elementBits,
                                      const SharedMemoryModel& model);

/// optimalSwizzle, and whyNotShown of what it found: what `report` shows. A layout that
/// fails the check is an Error that says it is a bug in llcheck (and why), never a result.
[[nodiscard]] Result<OptimalSwizzle> checkedOptimalSwizzle(const LinearLayout& src,
                                                           const LinearLayout& dst, int elementBits,
                                                           const SharedMemoryModel& model);

/// {"shared": layout JSON, "construction", "vector_bits", "vec", "bank", "segment",
///  "lower_bound": {...}, "store": access + "instruction", "load": ..., "candidates": [...]}.
[[nodiscard]] nlohmann::json toJson(const OptimalSwizzle& s, int elementBits);

} // namespace llcheck
