// Triton's axis analysis (AxisInfo), run on the text of a TTGIR module, and the affine offsets of
// its pointer tensors (issue 32).
//
// # Why
//
// How wide a tt.load, tt.store or async copy is depends on what Triton can prove of its
// pointers, not only on their layout: Triton's lowering moves
//
//   vector = min(the layout's run of registers along order[0],        (contigPerThread)
//                alignment(ptr) along order[0],                        (AxisInfo)
//                constancy(mask) along order[0] when there is a mask,  (AxisInfo)
//                128 bits / the pointee's bits)
//
// where alignment = min(max(divisibility / element bytes, 1), contiguity). TTGIR prints no
// AxisInfo, but it prints everything AxisInfo is computed from: tt.make_range, constants,
// splat / broadcast / expand_dims, the arith ops, tt.addptr, the kernel arguments'
// tt.divisibility, the hints tl.multiple_of / tl.max_contiguous leave on ops (tt.divisibility,
// tt.contiguity, tt.constancy), and the loops that carry pointers. This file recomputes it, with
// the transfer functions of Triton's lib/Analysis/AxisInfo.cpp (the same in 3.6 and 3.9 for the
// ops here), so the vector is Triton's and not an assumption.
//
// # The lattice (Triton's, per dim d of a tensor; a scalar has rank 1)
//
// - contiguity[d]: the length of the runs of consecutive integers along d (a pointer: of
//   consecutive elements);
// - divisibility[d]: the largest power of two dividing the first value of every run along d (a
//   pointer: in bytes);
// - constancy[d]: the length of the runs of equal values along d;
// - constantValue: the value, when every element is the same known integer.
// Unknown values start pessimistic (1, 1, 1); values in loops start optimistic (the loop's
// initial values alone) and are joined with what each iteration yields until nothing changes:
// Triton's sparse data-flow analysis reaches the same fixed point from the same start.
//
// # Affine offsets (not Triton's; what the coalescing count needs)
//
// Where a pointer tensor is base + sum_d stride_d * index_d in its tensor's indices, its strides
// say where every element lies, so the sectors and requests of its accesses can be counted for
// the real tensor (a transposed tile is column-major: stride 1 along dim0). A stride is an
// integer, or an integer times one unknown scalar (a kernel argument such as stride_am, with the
// divisibility AxisInfo knows of it). Offsets built from a value the analysis cannot follow
// (a loaded index, a product of two index tensors, a sum of two unknown strides) are not affine,
// and say why. `x % M` with M uniform keeps x's strides under the assumption, recorded, that the
// tile does not wrap (true of every tile but the last of a dim that is not a multiple of it).
#pragma once

#include "llcheck/core/Error.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

/// Triton's divisor for "any power of two" (the divisibility of 0, and of unconstrained loops).
inline constexpr int64_t kAxisMaxDivisor = int64_t{1} << 62;

/// Triton's AxisInfo lattice element.
struct AxisInfo {
  std::vector<int64_t> contiguity, divisibility, constancy;
  std::optional<int64_t> constantValue;

  [[nodiscard]] int rank() const { return static_cast<int>(contiguity.size()); }
  /// contiguity, divisibility and constancy 1 in every dim: what Triton knows of a value it
  /// cannot analyse.
  [[nodiscard]] static AxisInfo pessimistic(int rank);
  /// Triton's AxisInfo::join: the facts that hold of both (gcd per dim).
  [[nodiscard]] static AxisInfo join(const AxisInfo& a, const AxisInfo& b);
  bool operator==(const AxisInfo&) const = default;
};

/// One dim's stride of an affine offset: factor * symbol, or the integer factor when the symbol
/// is empty (in elements of the pointee, for a pointer tensor).
struct AffineStride {
  int64_t factor = 0;
  /// The unknown scalar, by its SSA name ("%stride_am"), with what AxisInfo knows of it.
  std::string symbol;
  int64_t symbolDivisibility = 1;
  bool operator==(const AffineStride&) const = default;
};

struct AffineOffsets {
  bool affine = false;
  std::vector<AffineStride> strides;
  /// Why the offsets are not affine (empty when they are).
  std::string notAffine;
  /// What the strides rest on besides the IR ("%offs_am % %M does not wrap within the tile").
  std::vector<std::string> assumptions;
  bool operator==(const AffineOffsets&) const = default;
};

/// One tt.load, tt.store, tt.atomic_rmw / tt.atomic_cas or ttg.async_copy_global_to_local of a
/// tensor of pointers, with what the analysis established of its pointers and mask.
struct TtgirAccessFacts {
  std::string op;
  int line = 0;
  std::string pointerName, maskName;
  std::vector<uint64_t> shape;
  /// The pointee's bits (f16: 16), 0 when the type is not one llcheck knows.
  int pointeeBits = 0;
  AxisInfo pointer;
  std::optional<AxisInfo> mask;
  AffineOffsets offsets;
};

struct TtgirAxisAnalysis {
  /// In file order.
  std::vector<TtgirAccessFacts> accesses;
  /// Ops whose results the analysis treats as unknown because Triton's AxisInfo has no rule for
  /// them either (tt.get_program_id, arith.sitofp, ...): not a gap, listed for the reader.
  std::set<std::string> opaqueOps;
  /// Where the analysis may differ from Triton's (a loop that did not settle, an op it could
  /// not read): each entry "file:line: what". A report says so beside any access after it.
  std::vector<std::string> problems;

  [[nodiscard]] const TtgirAccessFacts* atLine(int line) const;
};

/// Runs the analysis over every tt.func of the module's text. `source` names the file in
/// problems. An Error only for text that is not TTGIR at all (the module reader, readTtgir,
/// checks the structure first); an op it cannot read is a problem, not an Error.
[[nodiscard]] Result<TtgirAxisAnalysis> analyzeAxisInfo(std::string_view text,
                                                        const std::string& source);

/// Triton's getAlignment along `dim` of a pointer tensor: min(max(divisibility / element bytes,
/// 1), contiguity), in elements.
[[nodiscard]] int64_t axisAlignment(const AxisInfo& pointer, int dim, int pointeeBits);

/// "contiguity = [64, 1], divisibility = [16, 16], constancy = [1, 64]" (the JSON is
/// axisInfoFields in the report).
[[nodiscard]] std::string axisInfoText(const AxisInfo& info);

/// "[1, %stride_am]", "[64, 1]", "2 * %N".
[[nodiscard]] std::string affineStridesText(const std::vector<AffineStride>& strides);

} // namespace llcheck
