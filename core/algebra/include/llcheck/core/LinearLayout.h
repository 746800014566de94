// The reference layout algebra of llcheck: linear layouts over F2, with Triton's semantics.
//
// # What a linear layout is
//
// A linear layout L maps a "hardware location" to a "logical tensor index". Both sides are
// tuples of integers in labelled dimensions, each dimension of power-of-two size:
//
//   L : register x lane x warp x block  ->  dim0 x dim1          (a distributed layout)
//   L : offset x block                  ->  dim0 x dim1          (a shared-memory layout)
//
// Read every integer as a vector of bits and L is an F2-linear map (paper, Def. 4.1): adding
// is XOR, so L(x ^ y) = L(x) ^ L(y), and L is fully known from its values on the powers of
// two of each input dimension, its *bases*:
//
//   bases[inDim][i] = L(inDim = 2^i, every other input 0)      (one integer per out dim)
//
// Everything else follows by XOR. The 4x4 swizzle of seed 001, with lanes t and warps w:
//
//   lane=1 -> (1, 1)   lane=2 -> (2, 2)   warp=1 -> (0, 1)   warp=2 -> (0, 2)
//   L(lane=3, warp=2) = (1,1) ^ (2,2) ^ (0,2) = (3, 1)
//
// A layout with n input bits and m output bits is an m x n matrix over F2; column j is the
// basis of input bit j. Composition is the matrix product (Def. 4.2), operator* the block-
// diagonal product (Def. 4.3), divideLeft its inverse (Def. 4.4), and pseudoinvert the right
// inverse of a surjective layout (Def. 4.5).
//
// # Conventions (the same as Triton's LinearLayout)
//
// - Dimension order is minor to major: the first input (output) dimension supplies the lowest
//   bits when the inputs (outputs) are flattened to one integer. Order matters only for
//   flatten/reshape and for operator*, where the inner (left) operand is the more minor.
// - Input dimension sizes are 2^(number of bases). Output sizes are stored explicitly: a
//   layout need not be surjective (every output reached) nor injective (no two inputs alike;
//   a non-injective distributed layout broadcasts, a zero basis is a duplicated register,
//   lane or warp).
// - Output values must be below their dimension's size; sizes are powers of two.
//
// # Representation
//
// Columns are bit-packed: one 64-bit word per input bit, holding the images in all output
// dimensions side by side, the first output dimension in the lowest bits. A layout therefore
// has at most 64 input bits and 64 output bits in total (and at most kMaxDims dimensions per
// side); constructors report an Error beyond that. Layouts are small values with no heap
// allocation, so the algebra runs in nanoseconds (see bench/README.md).
//
// # Errors
//
// Constructors and operations with preconditions return Result<...>; the Error says what is
// wrong in terms of dimensions and sizes. Only operator* throws (LayoutError), so that
// products of layouts known to be compatible read like Triton's code; product() is the
// non-throwing form.
#pragma once

#include "llcheck/core/DimName.h"
#include "llcheck/core/Error.h"
#include "llcheck/core/TritonVersion.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace llcheck {

inline constexpr int kMaxBits = 64; ///< total input bits, and total output bits, of a layout
inline constexpr int kMaxDims = 16; ///< input dimensions, and output dimensions, of a layout

/// A fixed-capacity vector: layouts stay heap-free and cheap to copy.
template <class T, std::size_t N> class FixedVec {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
  // The slots past size() are left uninitialised: a Dim has default member initialisers, and
  // filling 2 x 16 of them for every temporary layout was a measurable part of a conversion.
  FixedVec() {} // NOLINT(modernize-use-equals-default): `= default` would zero the slots
  FixedVec(const FixedVec& o) : size_(o.size_) { std::copy(o.begin(), o.end(), data_); }
  FixedVec& operator=(const FixedVec& o) {
    size_ = o.size_;
    std::copy(o.begin(), o.end(), data_);
    return *this;
  }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] static constexpr std::size_t capacity() { return N; }
  void push_back(const T& v) { data_[size_++] = v; }
  /// Replaces the contents; v.size() <= N.
  void assign(std::span<const T> v) {
    size_ = static_cast<uint32_t>(v.size());
    std::copy(v.begin(), v.end(), data_);
  }
  void clear() { size_ = 0; }
  void resize(std::size_t n) { size_ = static_cast<uint32_t>(n); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  friend bool operator==(const FixedVec& a, const FixedVec& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  union {
    T data_[N];
  };
  uint32_t size_ = 0; // 32-bit: a byte-sized counter serialises push_back through memory
};

/// One dimension: its name and log2 of its size.
struct Dim {
  DimName name;
  int sizeLog2 = 0;
  friend bool operator==(const Dim&, const Dim&) = default;
};

/// A dimension name with a size (not log2), as in Triton's (StringAttr, int32_t) pairs.
struct DimSize {
  DimName name;
  uint64_t size = 1;
  friend bool operator==(const DimSize&, const DimSize&) = default;
};

/// The bases of one input dimension: bases[i] = L(dim = 2^i), one value per output dim.
struct DimBases {
  DimName name;
  std::vector<std::vector<uint64_t>> bases;
  friend bool operator==(const DimBases&, const DimBases&) = default;
};

/// A point of a layout's input or output space, dimension by dimension.
using Point = std::vector<std::pair<DimName, uint64_t>>;

class LinearLayout {
public:
  /// The empty layout: no input or output dimensions. It maps the single point () to ().
  LinearLayout() = default;
  [[nodiscard]] static LinearLayout empty() { return {}; }

  /// L(x) = stride * x for x in [0, size), into an output dimension of size stride * size.
  /// Surjective only when stride == 1. Sizes and stride must be powers of two.
  [[nodiscard]] static Result<LinearLayout> strided1D(uint64_t size, uint64_t stride, DimName in,
                                                      DimName out);
  /// L(x) = x for x in [0, size).
  [[nodiscard]] static Result<LinearLayout> identity1D(uint64_t size, DimName in, DimName out);
  /// L(x) = 0 for x in [0, size), into an output dimension of size outSize (surjective only if
  /// outSize == 1).
  [[nodiscard]] static Result<LinearLayout> zeros1D(uint64_t size, DimName in, DimName out,
                                                    uint64_t outSize = 1);

  /// From bases, inferring each output size as the next power of two above the largest value
  /// seen in that dimension (at least 1). As in Triton, this form requires the result to be
  /// surjective.
  [[nodiscard]] static Result<LinearLayout> create(const std::vector<DimBases>& bases,
                                                   const std::vector<DimName>& outNames);
  /// From bases with explicit output sizes; `requireSurjective` rejects non-surjective ones.
  [[nodiscard]] static Result<LinearLayout> create(const std::vector<DimBases>& bases,
                                                   const std::vector<DimSize>& outDims,
                                                   bool requireSurjective);
  /// From packed columns (see "Representation" above); the fast internal constructor.
  [[nodiscard]] static Result<LinearLayout> fromColumns(std::span<const Dim> ins,
                                                        std::span<const Dim> outs,
                                                        std::span<const uint64_t> columns);

  // ---- Shape -------------------------------------------------------------------------------

  [[nodiscard]] int getNumInDims() const { return static_cast<int>(ins_.size()); }
  [[nodiscard]] int getNumOutDims() const { return static_cast<int>(outs_.size()); }
  [[nodiscard]] std::vector<DimName> getInDimNames() const;
  [[nodiscard]] std::vector<DimName> getOutDimNames() const;
  [[nodiscard]] std::span<const Dim> inDims() const { return {ins_.begin(), ins_.size()}; }
  [[nodiscard]] std::span<const Dim> outDims() const { return {outs_.begin(), outs_.size()}; }
  /// Output dimensions with their sizes, in order.
  [[nodiscard]] std::vector<DimSize> getOutDims() const;
  [[nodiscard]] std::vector<DimSize> getInDims() const;
  [[nodiscard]] bool hasInDim(DimName d) const { return inDimIndex(d) >= 0; }
  [[nodiscard]] bool hasOutDim(DimName d) const { return outDimIndex(d) >= 0; }
  /// Position of the dimension in the input (output) order, or -1.
  [[nodiscard]] int inDimIndex(DimName d) const;
  [[nodiscard]] int outDimIndex(DimName d) const;
  /// Precondition for these four: the dimension exists (otherwise 0 is returned).
  [[nodiscard]] int getInDimSizeLog2(DimName d) const;
  [[nodiscard]] int getOutDimSizeLog2(DimName d) const;
  [[nodiscard]] uint64_t getInDimSize(DimName d) const { return pow2(getInDimSizeLog2(d)); }
  [[nodiscard]] uint64_t getOutDimSize(DimName d) const { return pow2(getOutDimSizeLog2(d)); }
  [[nodiscard]] int getTotalInDimSizeLog2() const { return static_cast<int>(columns_.size()); }
  [[nodiscard]] int getTotalOutDimSizeLog2() const;
  /// 2^bits; saturates at 2^63 for the 64-bit layouts whose size does not fit a uint64_t.
  [[nodiscard]] uint64_t getTotalInDimSize() const { return pow2(getTotalInDimSizeLog2()); }
  [[nodiscard]] uint64_t getTotalOutDimSize() const { return pow2(getTotalOutDimSizeLog2()); }

  // ---- Bases -------------------------------------------------------------------------------

  /// All bases, dimension by dimension, one value per output dimension.
  [[nodiscard]] std::vector<DimBases> getBases() const;
  /// L(inDim = 2^pos) in every output dimension. Precondition: inDim exists, pos in range.
  [[nodiscard]] std::vector<uint64_t> getBasis(DimName inDim, int pos) const;
  /// L(inDim = 2^pos) in `outDim`.
  [[nodiscard]] uint64_t getBasis(DimName inDim, int pos, DimName outDim) const;
  /// The packed columns: column j is the image of flattened input bit j.
  [[nodiscard]] std::span<const uint64_t> columns() const {
    return {columns_.begin(), columns_.size()};
  }
  /// The packed columns of input dim d (empty when the layout has no such dim).
  [[nodiscard]] std::span<const uint64_t> inDimColumns(DimName d) const {
    int i = inDimIndex(d);
    return i < 0 ? std::span<const uint64_t>{}
                 : columns().subspan(inDimOffset(i), ins_[i].sizeLog2);
  }
  /// First bit of input (output) dimension i in the flattened input index (packed column).
  [[nodiscard]] int inDimOffset(int i) const;
  [[nodiscard]] int outDimOffset(int i) const;

  // ---- Applying ----------------------------------------------------------------------------

  /// L(x) for the flattened input x (bit j = input bit j); the packed output.
  [[nodiscard]] uint64_t applyFlat(uint64_t x) const {
    uint64_t out = 0;
    for (std::size_t j = 0; x != 0 && j < columns_.size(); ++j, x >>= 1)
      if (x & 1)
        out ^= columns_[j];
    return out;
  }
  /// L(ins). Every input dimension must be given once, with a value below its size.
  [[nodiscard]] Result<Point> apply(const Point& ins) const;
  /// Splits a packed output (input) word into per-dimension values, and back.
  [[nodiscard]] Point unpackOut(uint64_t packed) const;
  [[nodiscard]] Point unpackIn(uint64_t flat) const;
  [[nodiscard]] uint64_t packIn(const Point& ins) const;

  // ---- Properties --------------------------------------------------------------------------

  /// Rank of the matrix: the number of linearly independent columns.
  [[nodiscard]] int rank() const;
  /// Every output is reached (rank == total output bits).
  [[nodiscard]] bool isSurjective() const { return rank() == getTotalOutDimSizeLog2(); }
  /// No two inputs map to the same output (rank == total input bits).
  [[nodiscard]] bool isInjective() const { return rank() == getTotalInDimSizeLog2(); }
  /// Surjective with as many input bits as output bits: a bijection.
  [[nodiscard]] bool isInvertible() const {
    return getTotalInDimSizeLog2() == getTotalOutDimSizeLog2() && isSurjective();
  }

  /// For each input dimension, the bits that are "free variables": input bit j is free when its
  /// column is in the span of the columns before it, i.e. the non-pivot columns of the reduced
  /// row echelon form. A layout is injective iff all masks are 0. A zero basis (a broadcast
  /// register, lane or warp) is always free.
  [[nodiscard]] std::vector<std::pair<DimName, uint64_t>> getFreeVariableMasks() const;

  /// The largest V such that, for every input, L(a*V + v, b, ...) = L(a*V, b, ...) + (v, 0, ...)
  /// for all v in [0, V) (integer +: the low bits are untouched), across the first input and
  /// first output dimension. With (register, ...) -> (dim_fast, ...) it is the number of
  /// consecutive registers holding consecutive elements: the vector width. 1 for layouts with no
  /// input or output dims.
  [[nodiscard]] uint64_t getNumConsecutiveInOut() const;

  /// True when the layout acts as the identity on `dims`: each is both an input and an output
  /// dimension of equal size, the square sublayout on them is the identity, they map nowhere
  /// else and nothing else maps onto them.
  [[nodiscard]] bool isTrivialOver(const std::vector<DimName>& dims) const;
  /// If isTrivialOver(dims), the sublayout on the remaining dimensions.
  [[nodiscard]] std::optional<LinearLayout> quotient(const std::vector<DimName>& dims) const;

  // ---- Building new layouts ---------------------------------------------------------------

  /// The direct sum (Def. 4.3): inner acts on its inputs, outer on its inputs, and outputs they
  /// share are concatenated with the outer's bits above the inner's (outer bases are shifted
  /// left by the inner's output size). The merged dim orders are mergeDimOrder(inner, outer):
  /// the supremum of both lists when it exists, and Triton's merge of them otherwise (as in
  /// Triton, [a,b] * [b,a] is not an error: the result is ordered [a,b]).
  /// Postcondition: surjective if both operands are. Associative, not commutative; empty() is
  /// its identity.
  friend Result<LinearLayout> product(const LinearLayout& inner, const LinearLayout& outer);
  /// product(), throwing LayoutError on error.
  friend LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer);
  LinearLayout& operator*=(const LinearLayout& outer) { return *this = *this * outer; }

  /// (outer ∘ this)(x) = outer(this(x)). Requires this's output dims to equal outer's input dims
  /// (any order) with this->getOutDimSize(d) <= outer.getInDimSize(d). The result has this's
  /// inputs and outer's outputs.
  [[nodiscard]] Result<LinearLayout> compose(const LinearLayout& outer) const;

  /// C with this(x) = outer(C(x)) for all x, chosen by Triton's rule below (for an invertible
  /// outer and no identity dims, C = outer^-1 ∘ this). Requires the same output dims (any order)
  /// and outer.getOutDimSize(d) >= this->getOutDimSize(d). As in Triton, outer need not be
  /// surjective; it is an error when outer does not cover this layout's image once the identity
  /// dims of step 1 are fixed, even where another C would exist (Triton asserts there).
  ///
  /// Which solution, when outer is not injective (exactly Triton's rule, which changed between
  /// releases; docs/triton-versions.md):
  /// 1. Identity dims: an input dim present in both whose sublayouts are equal (same size, same
  ///    bases) may be mapped by the identity (two layouts that broadcast warps alike convert
  ///    warp w to warp w).
  ///    - Triton 3.6: every such dim, when every output dim has the same size in both; their
  ///      columns are then left out of step 2. 3.6 aborts when this leaves input dims on one
  ///      side only (e.g. this = [warp], outer = [register, warp] with equal warps); we return
  ///      the solution, which tests check by its defining equation.
  ///    - Triton 3.9: a dim whose bases are all zero in both (a broadcast), always; the other
  ///      equal dims only when every input dim of this is such a dim, the output sizes agree and
  ///      each such dim's span in outer meets the span of outer's other dims only in 0.
  /// 2. The rest is solved by Gaussian elimination with the free variables of outer set to 0:
  ///    each image is built from pivot columns only, i.e. it is the numerically smallest preimage
  ///    (the smallest offset, the lowest register). When outer's non-zero columns are linearly
  ///    independent - every distributed and every memory layout - this is also the preimage of
  ///    minimal Hamming weight.
  /// The result has this's input dims and outer's input dims as outputs.
  [[nodiscard]] Result<LinearLayout> invertAndCompose(const LinearLayout& outer,
                                                      TritonVersion triton = kNewestTriton) const;

  /// L^-1, for an invertible L. The inputs of the result are L's output dims.
  [[nodiscard]] Result<LinearLayout> invert(TritonVersion triton = kNewestTriton) const;
  /// A right inverse R of a surjective L: L(R(y)) = y for every y; R = L^-1 if L is invertible.
  /// Built as identity.invertAndCompose(L), so it picks the minimal preimage (see above).
  [[nodiscard]] Result<LinearLayout> pseudoinvert(TritonVersion triton = kNewestTriton) const;

  /// The layout restricted to these input dims (the others fixed to 0) and output dims (the
  /// others dropped). Sizes and order are kept; the result need not be surjective.
  [[nodiscard]] Result<LinearLayout> sublayout(const std::vector<DimName>& inDims,
                                               const std::vector<DimName>& outDims) const;
  /// Is sublayout(inDims, outDims) all zeros? Dims not in the layout are an error.
  [[nodiscard]] Result<bool> sublayoutIsZero(const std::vector<DimName>& inDims,
                                             const std::vector<DimName>& outDims) const;

  /// Same bases, new input dims: the inputs are flattened (minor to major) and split again.
  /// The total size must be unchanged; sizes must be powers of two.
  [[nodiscard]] Result<LinearLayout> reshapeIns(const std::vector<DimSize>& newIns) const;
  /// Same map, new output dims: outputs flattened (minor to major) and split again.
  [[nodiscard]] Result<LinearLayout> reshapeOuts(const std::vector<DimSize>& newOuts) const;
  /// One input dim, named like the first one, of the total size.
  [[nodiscard]] LinearLayout flattenIns() const;
  /// One output dim, named like the first one, of the total size.
  [[nodiscard]] LinearLayout flattenOuts() const;
  /// Reorders the input (output) dims; a permutation of the existing names. Changes only the
  /// order, which matters for reshape and product.
  [[nodiscard]] Result<LinearLayout> transposeIns(const std::vector<DimName>& order) const;
  [[nodiscard]] Result<LinearLayout> transposeOuts(const std::vector<DimName>& order) const;
  [[nodiscard]] Result<LinearLayout> transposeOuts(std::span<const DimName> order) const;
  /// this's input dims followed by other's; both must have the same output dims and sizes and
  /// no input dim in common. The opposite of sublayout.
  [[nodiscard]] Result<LinearLayout> concatIns(const LinearLayout& other) const;
  /// this's output dims followed by other's; same input dims and sizes, no output dim in common.
  [[nodiscard]] Result<LinearLayout> concatOuts(const LinearLayout& other) const;
  /// Keeps the first log2(newSize) bases of `dim`; newSize <= the current size.
  [[nodiscard]] Result<LinearLayout> resizeInDim(DimName dim, uint64_t newSize) const;
  /// Shrinks output `dim` to newSize <= its size. As in Triton, a basis value >= newSize becomes
  /// 0 (it is dropped, not masked).
  [[nodiscard]] Result<LinearLayout> resizeOutDim(DimName dim, uint64_t newSize) const;
  /// Renames an input (output) dimension; the new name must not be taken.
  [[nodiscard]] Result<LinearLayout> renameInDim(DimName from, DimName to) const;
  [[nodiscard]] Result<LinearLayout> renameOutDim(DimName from, DimName to) const;
  /// Removes input (output) `dim`, which must have size 1.
  [[nodiscard]] Result<LinearLayout> squeezeIns(DimName dim) const;
  [[nodiscard]] Result<LinearLayout> squeezeOuts(DimName dim) const;
  /// Removes every input (output) dimension of size 1.
  [[nodiscard]] LinearLayout squeezeIns() const;
  [[nodiscard]] LinearLayout squeezeOuts() const;
  /// Drops the zero bases of input `dim`: what remains enumerates its distinct images.
  [[nodiscard]] Result<LinearLayout> removeZeroBasesAlongDim(DimName dim) const;

  // ---- Comparison --------------------------------------------------------------------------

  /// Same input dims, bases, output dims and sizes, all in the same order.
  friend bool operator==(const LinearLayout& a, const LinearLayout& b) {
    return a.ins_ == b.ins_ && a.outs_ == b.outs_ && a.columns_ == b.columns_;
  }
  /// Same input dims and bases and the same output dim names; output sizes may differ.
  [[nodiscard]] bool equalIgnoringOutDimSizes(const LinearLayout& other) const;
  [[nodiscard]] std::size_t hash() const;

  /// Triton's printed form, exactly LinearLayout::toString() (it starts with a newline).
  [[nodiscard]] std::string toString() const;

private:
  static uint64_t pow2(int log2) { return log2 >= 64 ? uint64_t{1} << 63 : uint64_t{1} << log2; }
  static Result<LinearLayout> build(std::span<const Dim> ins, std::span<const Dim> outs,
                                    std::span<const uint64_t> columns);
  /// build() for arguments already checked.
  static Result<LinearLayout> checkedBuild(std::span<const Dim> ins, std::span<const Dim> outs,
                                           std::span<const uint64_t> columns);
  /// The packed image of an output dim of `from` in the output packing of this layout. Used to
  /// move values between layouts whose output dims are the same names in another order/size.
  uint64_t repackOutputs(const LinearLayout& from, uint64_t packed) const;

  FixedVec<Dim, kMaxDims> ins_;
  FixedVec<Dim, kMaxDims> outs_;
  FixedVec<uint64_t, kMaxBits> columns_;
};

/// The direct sum (see LinearLayout::operator*), as a Result.
[[nodiscard]] Result<LinearLayout> product(const LinearLayout& inner, const LinearLayout& outer);

/// C with A = B * C, if one exists (Def. 4.4, handled dimension-wise as in Triton): every input
/// and output dim of B is in A, A's first bases of each of B's input dims are B's bases, and
/// A's remaining bases are C's shifted above B's outputs. C has A's dimensions.
[[nodiscard]] std::optional<LinearLayout> divideLeft(const LinearLayout& A, const LinearLayout& B);
/// C with A = C * B, if one exists.
[[nodiscard]] std::optional<LinearLayout> divideRight(const LinearLayout& A, const LinearLayout& B);

/// The supremum of two ordered lists of names: a list containing both that keeps each one's
/// relative order, preferring the first list's elements when several exist. nullopt if none
/// exists (the lists order two common names differently).
[[nodiscard]] std::optional<std::vector<DimName>> supremum(const std::vector<DimName>& x,
                                                           const std::vector<DimName>& y);

/// The dim order of a product: Triton's `supremum` (lib/Tools/LayoutUtils.cpp) exactly. It
/// equals supremum(x, y) whenever that exists; when x and y order common names differently it
/// still returns a list of all names (Triton's "Supremum does not exist" checks are
/// unreachable), e.g. ([a,b], [b,a]) -> [a,b] and ([a,b], [b,c,a]) -> [b,c,a].
[[nodiscard]] std::vector<DimName> mergeDimOrder(const std::vector<DimName>& x,
                                                 const std::vector<DimName>& y);

/// A permutation (or selection) of the bases of one input dimension: the result's basis i is
/// the layout's basis action[i]. Used to reorder registers so a conversion becomes a tile.
class ColumnAction {
public:
  ColumnAction() = default;
  /// Every action[i] must be < inSizeLog2.
  [[nodiscard]] static Result<ColumnAction> create(std::vector<int> action, DimName inDim,
                                                   int inSizeLog2);
  [[nodiscard]] static ColumnAction identity(DimName inDim, int inSizeLog2);

  /// The layout with bases[inDim] replaced by [bases[inDim][a] for a in action].
  [[nodiscard]] Result<LinearLayout> apply(const LinearLayout& layout) const;
  /// Permutes values indexed by the input dimension (e.g. one thread's registers): result[i] =
  /// values[P(i)] where P is the action applied to the identity layout on inDim.
  template <class T> [[nodiscard]] Result<std::vector<T>> apply(const std::vector<T>& values) const;
  /// The inverse permutation; an error if the action is not a permutation.
  [[nodiscard]] Result<ColumnAction> inverse() const;
  /// ret[i] = this[other[i]], as Triton's: a.leftCompose(b).apply(L) == b.apply(a.apply(L)).
  [[nodiscard]] Result<ColumnAction> leftCompose(const ColumnAction& other) const;
  [[nodiscard]] bool isIdentity() const;
  [[nodiscard]] const std::vector<int>& action() const { return action_; }
  [[nodiscard]] DimName inDim() const { return inDim_; }
  [[nodiscard]] std::string toString() const;

private:
  std::vector<int> action_;
  DimName inDim_;
  int inSizeLog2_ = 0;
};

template <class T> Result<std::vector<T>> ColumnAction::apply(const std::vector<T>& values) const {
  if (values.size() != (std::size_t{1} << inSizeLog2_))
    return makeError("ColumnAction on " + inDim_.str() + " expects " +
                     std::to_string(std::size_t{1} << inSizeLog2_) + " values, got " +
                     std::to_string(values.size()));
  std::vector<T> ret;
  ret.reserve(std::size_t{1} << action_.size());
  for (std::size_t i = 0; i < (std::size_t{1} << action_.size()); ++i) {
    std::size_t src = 0;
    for (std::size_t b = 0; b < action_.size(); ++b)
      if ((i >> b) & 1)
        src ^= std::size_t{1} << action_[b];
    ret.push_back(values[src]);
  }
  return ret;
}

} // namespace llcheck

template <> struct std::hash<llcheck::LinearLayout> {
  std::size_t operator()(const llcheck::LinearLayout& l) const noexcept { return l.hash(); }
};
