// What Z3 proves about a global-memory access (core's Coalescing.h): that no request touches
// more 32-byte sectors than predicted, and that some request touches exactly that many. The
// addresses are stated over the layout itself, as integers (base + bytes * sum of index x
// stride, the index the XOR of the layout's bases), not over the algebra's flattened columns,
// so the proof is a second opinion on the model's rank count.
#pragma once

#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/prover/Prover.h"

namespace llcheck::prover {

/// For `predicted` = predictGlobalAccess(reg, options, model), counted by rank (F2-linear
/// addresses on a line-aligned base; the caller asks only then), N = maxSectorsPerRequest:
/// - at most: for every register value r, lane t and warp w, the sector of (r, t, w) differs
///   from lane 0's, (r, 0, w), by an element of the span of log2 N lanes' sector moves, so a
///   request's sectors are one coset of a space of N elements. A request moves, in every lane,
///   the registers of one vector; a vector is aligned to its size (at most 16 bytes), so it lies
///   in one sector and any one register of it stands for the request. Refuted: {"register",
///   "warp", "lanes", "sectors"}, re-checked by computing the addresses.
/// - reached: the N lanes those log2 N lanes span (register 0, warp 0) lie in pairwise
///   different sectors (no two combinations share one: unsat); they are the witness
///   ({"register", "warp", "lanes", "sectors"}). Otherwise refuted: the prediction
///   over-estimates.
/// The two queries name one lane (or two combinations) each, never N + 1 lanes at once: "N + 1
/// lanes in pairwise different sectors" is a pigeonhole formula, which Z3 does not decide in
/// seconds for N = 16.
[[nodiscard]] ProofResult proveSectorBound(const LinearLayout& reg,
                                           const CoalescingOptions& options,
                                           const GlobalMemoryModel& model,
                                           const GlobalAccess& predicted, const ProverOptions& o);

} // namespace llcheck::prover
