// What Z3 proves about a conversion through shared memory, beyond its correctness (Prover.h):
// that a planned access takes exactly the wavefronts the bank model predicts, and that the
// swizzle's segment space is as large as any can be (the paper's Lemma 9.5). Each query is
// stated over the layouts themselves, not over the algebra's composed maps, so the proof is a
// second opinion on core/conversion; every counterexample and every witness is re-checked with
// the algebra before it is returned, and one the algebra does not confirm throws LayoutError.
#pragma once

#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/prover/Prover.h"

#include <cstdint>
#include <span>
#include <vector>

namespace llcheck::prover {

/// A ld/st.shared (ds_read/ds_write) of `reg` to or from the unpadded `shared`, at the access
/// width and per-phase count of `predicted` (predictSharedAccess), takes exactly
/// predicted.wavefrontsPerPhase wavefronts in every phase (2^c):
/// - at most: for all instructions (a register value r and a warp w, CTA 0) and all lanes
///   t1 != t2 of one phase, the two lanes hit different banks, or words (access units) whose
///   difference lies in the algebra's c-dimensional space of same-bank word differences, so no
///   bank serves more than 2^c words. For c = 0 that is "different banks or the same word".
///   Refuted: two lanes -> one bank, {"lanes", "register", "warp", "inputs", "offsets", "bank",
///   "words"}.
/// - reached (c >= 1): a phase exists whose lanes put 2^c distinct words in one bank; the
///   witness ({"lanes", "bank", "words"}, lanes of the first phase of the first instruction) is
///   in ProofResult::witness. None: refuted, the prediction over-estimates.
[[nodiscard]] ProofResult proveBankBound(const LinearLayout& reg, const LinearLayout& shared,
                                         int elementBits, const SharedMemoryModel& model,
                                         SharedAccessKind kind, const AccessCount& predicted,
                                         const ProverOptions& o);

/// The same two claims for an ldmatrix/stmatrix (.trans) access of `reg` to or from `shared`
/// (which core's ldmatrix() must find the instruction fits), at the predicted wavefronts per
/// matrix (LdmatrixPlan::wavefrontsPerMatrix): a phase is one matrix, its 8 rows of 16 bytes
/// (told apart by lanes 4, 8, 16; with .trans by the first tile register and lanes 1, 2), 8 rows
/// to a wavefront (Ldmatrix.h). Counterexamples and witnesses also give the full "inputs"
/// (register, lane, warp) of each access.
[[nodiscard]] ProofResult proveMatrixBankBound(const LinearLayout& reg, const LinearLayout& shared,
                                               int elementBits, bool trans,
                                               const SharedMemoryModel& model,
                                               SharedAccessKind kind, uint64_t wavefrontsPerMatrix,
                                               const ProverOptions& o);

/// Lemma 9.5's dimension argument as a Z3 query: no k vectors of span(tile) exist none of whose
/// non-zero combinations lies in U = span(u) or V = span(v) (membership is linear: x is in U iff
/// H_U x = 0, H_U read off U's reduced echelon form). Proven: no k-dimensional space meets
/// U ∪ V only in 0. Refuted: the k vectors, {"vectors": [...]} as packed tensor elements.
[[nodiscard]] ProofResult proveNoAvoidingSpace(std::span<const uint64_t> tile,
                                               std::span<const uint64_t> u,
                                               std::span<const uint64_t> v, int k,
                                               const ProverOptions& o);

/// The swizzle's optimality: with U = span(vec ∪ storePhase) and V = span(vec ∪ loadPhase)
/// (paper: S_Vec ∪ A_Thr, S_Vec ∪ B_Thr), (1) no segment space of conflictFreeSegmentDims + 1
/// dimensions meets U ∪ V only in 0 (proveNoAvoidingSpace over the layout's offset columns), and
/// (2) the layout's first min(conflictFreeSegmentDims, segment dims) segment vectors do (no
/// non-zero combination lies in U or V), so the layout attains the bound.
[[nodiscard]] ProofResult proveSwizzleBound(const OptimalSwizzle& s, const ProverOptions& o);

} // namespace llcheck::prover
