// The warp-shuffle schedule of the paper's section 5.4 ("Intra-warp Data Exchange"): how the
// lanes of a warp exchange registers with shfl.idx when a conversion SRC -> DST keeps every
// element inside its warp (planConversion's kind warp_shuffle).
//
// Everything is computed in the logical tensor space: a vector is a packed output value of SRC
// (a tensor coordinate), and each set below is a basis of a subspace of it.
//
//   V  a basis of span(SRC register columns) ∩ span(DST register columns), cut so that one
//      shuffle moves at most 32 bits (2^|V| * elementBits <= 32): the elements moved together
//   I  span(SRC lane columns) ∩ span(DST lane columns): data that stays in its lane
//   E  SRC lane columns outside span(I) (only those whose data DST keeps in the warp, see below)
//   F  DST lane columns outside span(I)
//   G  {e_i xor f_i}, the i-th of E with the i-th of F (both ascending)
//   R  completes V ∪ I ∪ G to a basis of the elements one warp of DST holds
//
// S = span(V ∪ I ∪ G) meets span(SRC registers) and span(DST registers) exactly in span(V), so
// in each coset "R(i) + S" of a warp every SRC lane holds at most one vector (2^|V| elements)
// and every DST lane needs at most one: round i exchanges that coset, and 2^|R| rounds cover
// the warp. The paper's "whole space F2^d" is the elements of one warp here (its Figure 4 has a
// single warp); the warp bits are not rounds.
//
// Broadcasting (zero columns, duplicated spans) and what we do about it:
//   - SRC broadcasts registers or lanes: several locations hold an element. A lane sends the
//     lowest register holding it; a reader reads its own lane when that lane holds the element
//     (a self-shuffle), else the lane of the minimal solution.
//   - DST broadcasts registers: a received element is written to every DST register that wants
//     it (recv lists them all); DST broadcasts lanes: several lanes read the same source lane.
//   - |E| != |F|: only min(|E|, |F|) pairs form G. When |E| > |F| (DST broadcasts lanes) the
//     count is still the optimum 2^(|DST registers| - |V|). When |E| < |F| because SRC
//     broadcasts lanes, the copies of a lane could send different registers in one round:
//     "lending" uses that. An unpaired f that SRC keeps in register column c is given to a
//     zero SRC lane column j (and c becomes zero in what SRC offers): the lanes with bit j set
//     offer their registers with bit c set, the others those with bit c clear. Every lane
//     offers part of what it holds, the warp offers everything, and f joins I, so it costs
//     no round. I, E, F, G are those of the lent SRC; `lent` lists the loans. An unpaired f
//     with no zero lane left (or not a register column of SRC) doubles the rounds.
//   - SRC holds more per warp than DST needs (SRC broadcasts warps, DST does not): E keeps
//     only the SRC lane columns inside the DST warp's span, since a pair with an element that
//     no DST lane wants saves nothing. A pair (or I vector) that would let a lane send or
//     receive two vectors in a round (possible only for layouts whose columns are not single
//     bits) is left out of S; the rounds stay correct, only more of them.
// When DST's warp columns differ from SRC's (allowed when SRC broadcasts warps), which lane
// holds what depends on the warp, and so may the schedule: it is given per group of warps.
//
// How good: with one vector per lane and round, no schedule beats max(2^(rank of DST's
// registers) / 2^|V|, (elements of a DST warp / 2^|V|) / (SRC lanes holding any of them)).
// For layouts whose columns are zero or single bits (Def. 4.10), and for those seen through an
// invertible change of tensor coordinates, the rounds equal that bound; the tests check it by
// enumeration on every random conversion. V is fixed first (the widest
// vector), as in the paper; a narrower V is never tried.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace llcheck {

/// One shfl round of one warp, indexed by lane. Element k of a vector is the tensor element
/// rep xor (the V vectors selected by the bits of k), rep being the vector's coset
/// representative modulo span(V): sender and receiver agree on the order.
struct ShuffleRound {
  /// send[lane]: the SRC registers the lane offers, element k first; empty when it holds
  /// nothing of this round.
  std::vector<std::vector<int>> send;
  /// from[lane]: the lane it reads (itself for data that stays), or -1 for none this round.
  std::vector<int> from;
  /// recv[lane][k]: the DST registers element k of the received vector is written to (several
  /// when DST broadcasts registers); empty when from[lane] is -1.
  std::vector<std::vector<std::vector<int>>> recv;
  friend bool operator==(const ShuffleRound&, const ShuffleRound&) = default;
};

/// The rounds of the warps that run the same schedule.
struct WarpSchedule {
  /// Flat warp indices: warp + (number of warps) * block.
  std::vector<uint64_t> warps;
  std::vector<ShuffleRound> rounds;
};

/// A broadcast SRC lane bit that offers a register bit instead (see "Lending" above).
struct LentLaneBit {
  int laneBit = 0;
  int registerBit = 0;
  /// SRC's column of that register bit, now offered by the lane bit (it joins I).
  uint64_t vector = 0;
  friend bool operator==(const LentLaneBit&, const LentLaneBit&) = default;
};

struct WarpShufflePlan {
  /// SRC and DST with the in-dims register, lane, warp, block and DST's out dims in SRC's
  /// order (as ConversionPlan); the packed vectors below are outputs of these.
  LinearLayout src, dst;
  int elementBits = 32;
  /// The sets of the paper (see above), as packed tensor coordinates.
  std::vector<uint64_t> V, I, E, F, G, R;
  /// SRC lane bits that broadcast and were lent a register bit; I, E, F are of the lent SRC.
  std::vector<LentLaneBit> lent;
  /// 2^|V|: elements per exchanged vector.
  uint64_t vectorElements = 1;
  /// 32-bit shfl instructions per vector: 1, or elementBits / 32 for 64-bit elements.
  int shufflesPerVector = 1;
  /// 2^|R|.
  uint64_t rounds = 1;
  uint64_t lanes = 1;
  /// False when DST's locations (register, lane, warp, block) or the (round, lane, warp)
  /// slots number more than 2^kMaxScheduledLocationsLog2: `schedules` is then empty.
  bool scheduled = false;
  std::vector<WarpSchedule> schedules;
};

/// Above 2^this DST locations or (round, lane, warp) slots no per-lane schedule is built.
inline constexpr int kMaxScheduledLocationsLog2 = 20;

/// The shuffle plan of SRC -> DST. An Error when the layouts are not a conversion (see
/// planConversion), when the kind is not warp_shuffle (the message names the kind and why), or
/// when elementBits is not a power of two in [1, 64].
[[nodiscard]] Result<WarpShufflePlan> planWarpShuffles(const LinearLayout& src,
                                                       const LinearLayout& dst, int elementBits);

/// {"kind", "element_bits", "dims", "vector_elements", "shuffles_per_vector", "V", "I", "E",
/// "F", "G", "R" (each a list of tensor coordinates, one value per dim), "lent" ([{"lane_bit",
/// "register_bit", "vector"}]), "rounds", "lanes",
/// "schedule": [{"warps", "rounds": [{"send", "from", "recv"}]}] or null with
/// "schedule_omitted" saying why (more than kMaxJsonRounds rounds, or none built)}.
inline constexpr uint64_t kMaxJsonRounds = 64;
[[nodiscard]] nlohmann::json toJson(const WarpShufflePlan& plan);

} // namespace llcheck
