// Whether a shared-memory load (store) between a distributed layout REG and a shared layout
// SHARED can be lowered to ldmatrix (stmatrix), and at what cost (paper, section 5.3).
//
// # The instruction
//
// ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 moves 1, 2 or 4 matrices of 8 rows x
// 16 bytes. For matrix i, lanes 8i .. 8i+7 each supply the address of one row (16-byte
// aligned, anywhere); lane t receives, in one 32-bit register per matrix, the word (row t/4,
// word t%4). With .trans (16-bit elements only) lane t receives instead the two elements
// (row 2(t%4), column t/4) and (row 2(t%4)+1, column t/4). stmatrix is the same in reverse.
//
// # The tile (Theorem 5.1)
//
// With L = SHARED^-1 ∘ REG : (register, lane, warp) -> offset (CTA 0), and w the element size
// in bytes, the tile of ldmatrix is
//
//   T = id_k(register -> offset) x id_2(lane -> offset),  k = log2(4 / w):
//
// registers 0 .. k-1 are the elements of one 32-bit word, lanes 1 and 2 the 4 words of a
// 16-byte row. ldmatrix lowers L iff L' / T exists (divideLeft, Def. 4.4) for L' = P_reg L, a
// permutation of the register bases (Generalized Vectorization): divisibility also says that no
// other column (lanes 4, 8, 16, later registers, warps) touches the low k + 2 offset bits, i.e.
// every row address is 16-byte aligned. In the quotient, the first remaining register bits
// (at most 2) pick the matrix of an .x2/.x4 instruction and the rest the instruction.
//
// The .trans tile is id_3(lane 4, 8, 16 -> offset 1, 2, 4): a row of 8 elements spread over
// the lanes t/4. Register 1 and lanes 1, 2 pick the row (its address is free but 16-byte
// aligned). Its lane bits are not the first ones, so it is no left factor in the label-wise
// sense of divideLeft; it is checked column by column with the same permutation of registers.
//
// # Duplicated registers
//
// Register bases that are zero (REG broadcasts them) hold copies: they are moved last by the
// permutation, cost no instruction, and are filled by copying registers.
//
// # Wavefronts
//
// Each matrix is one phase of 8 lanes, each lane one 16-byte row (the model of BankConflicts.h
// for 16-byte accesses): a phase takes as many wavefronts as the most distinct 16-byte rows
// that fall on one group of 4 banks. The 8 rows of a matrix are a coset of the span of the row
// columns, so every matrix takes the same c = 2^(rank rows - rank of their bank bits).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/BankConflicts.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llcheck {

struct LdmatrixOptions {
  int elementBits = 16; ///< 8, 16 or 32
  bool trans = false;   ///< .trans: 16-bit elements only
};

struct LdmatrixPlan {
  bool divides = false;
  /// Why not, when !divides.
  std::string reason;
  int elementBits = 16;
  bool trans = false;
  /// x1, x2 or x4.
  int matricesPerInstruction = 0;
  /// ColumnAction on register: result basis i = REG's register basis registerPermutation[i].
  /// Order: tile bits, matrix bits, instruction bits, duplicated (zero) bits.
  std::vector<int> registerPermutation;
  int tileRegisterBits = 0, matrixRegisterBits = 0, instructionRegisterBits = 0,
      duplicateRegisterBits = 0;
  uint64_t instructionsPerWarp = 0;
  /// Wavefronts of one matrix (one 8-lane phase); 1 is conflict-free.
  uint64_t wavefrontsPerMatrix = 0;
  uint64_t wavefrontsPerWarp = 0; ///< instructions * matrices * wavefrontsPerMatrix
  uint64_t bankConflictsPerWarp = 0;
  /// L = SHARED^-1 ∘ REG (register, lane, warp -> offset, CTA 0), and for the non-.trans tile
  /// the quotient P_reg L / T.
  LinearLayout conversion;
  std::optional<LinearLayout> tile, quotient;
};

/// REG distributed with 32 lanes; SHARED (offset[, block]) -> the same tensor, invertible (see
/// offsetMap). Bad input is an Error; a layout pair ldmatrix cannot lower is divides = false.
[[nodiscard]] Result<LdmatrixPlan> ldmatrix(const LinearLayout& reg, const LinearLayout& shared,
                                            const LdmatrixOptions& options);

/// A dividing plan's counts in the bank model's terms, for a CTA of `warps` warps (every warp
/// issues every instruction): one phase per matrix, 32 bits per lane per matrix.
[[nodiscard]] AccessCount toAccessCount(const LdmatrixPlan& plan, uint64_t warps);

/// {"divides", "reason", "elementBits", "trans", "instruction" ("ldmatrix.x4.trans" ...),
///  "matricesPerInstruction", "registerPermutation", "instructionsPerWarp",
///  "wavefrontsPerMatrix", "wavefrontsPerWarp", "bankConflictsPerWarp"}
[[nodiscard]] nlohmann::json toJson(const LdmatrixPlan& plan);

} // namespace llcheck
