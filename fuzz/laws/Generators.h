// RapidCheck generators of labelled layouts and of the cases the laws take.
//
// Every generator is a function of one list of small integers, its *draws* (how many bits a
// dim has, which output bit a column sets, which column operation to apply), read in order by
// pick(); a list that runs out reads as all lower bounds. RapidCheck generates the list and
// shrinks it as it shrinks any std::vector<int>: it drops chunks and moves each element towards
// 0. Every shrunk list is still a valid list, and the layouts it builds get smaller and sparser:
// few bits, unit columns, the identity (the targeted kinds are built as "identity, then column
// operations", and shrinking removes operations). (rc::gen::exec would shrink the same picks,
// but it stops shrinking earlier picks once a later one has shrunk, which leaves layouts of
// several bits where one would do.)
#pragma once

#include "llcheck/core/Encodings.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/encodings/Shared.h"

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace llcheck::fuzz {

/// The draws a generator reads while it runs (nested generators read their own).
class DrawScope {
public:
  explicit DrawScope(const std::vector<int>& draws);
  ~DrawScope();
  DrawScope(const DrawScope&) = delete;
  DrawScope& operator=(const DrawScope&) = delete;

private:
  const std::vector<int>* draws_;
  std::size_t next_ = 0;
  DrawScope* outer_;
  friend int pick(int lo, int hi);
};

/// The next draw, in [lo, hi] (lo when the draws have run out or outside any DrawScope).
int pick(int lo, int hi);

/// A RapidCheck generator of build()'s results: build() reads its draws with pick().
template <class F> rc::Gen<std::invoke_result_t<F>> fromDraws(F build) {
  return rc::gen::map(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 1 << 12)),
                      [build](const std::vector<int>& draws) {
                        DrawScope scope(draws);
                        return build();
                      });
}

/// The input to one law: a few layouts and a few small integers whose meaning the law defines
/// (an encoding's parameters, a dim index, an architecture). It is what a regression file
/// stores, so every law must be able to check a Case read back from JSON.
struct Case {
  std::vector<LinearLayout> layouts;
  std::vector<int64_t> params;
};

/// Which input dimension names a generated layout gets.
enum class Names {
  Distributed, ///< register, lane, warp, block
  Memory,      ///< offset, block
  Arbitrary,   ///< in0, in1, in2
};

/// What a generated layout is guaranteed to be.
enum class Kind { Any, Surjective, Injective, Invertible, Distributed, Memory };

/// The largest layouts the laws generate: 2^10 inputs keep every enumeration in microseconds.
inline constexpr int kMaxGeneratedBits = 10;

/// A layout of `kind` with at most maxBits input bits (and output bits), over `names`
/// (Kind::Distributed and Kind::Memory fix the names).
[[nodiscard]] rc::Gen<LinearLayout> genLayout(Kind kind, Names names = Names::Arbitrary,
                                              int maxBits = kMaxGeneratedBits);
/// The same, inside a generator (reads the enclosing draws).
[[nodiscard]] LinearLayout drawLayout(Kind kind, Names names = Names::Arbitrary,
                                      int maxBits = kMaxGeneratedBits);

/// A layout with exactly these input dims (name, log2 size) and output dims (name, log2 size),
/// random bases (sparse: each column XORs a few output bits).
[[nodiscard]] rc::Gen<LinearLayout> genLayoutOn(std::vector<std::pair<DimName, int>> ins,
                                                std::vector<std::pair<DimName, int>> outs);
[[nodiscard]] LinearLayout drawLayoutOn(const std::vector<std::pair<DimName, int>>& ins,
                                        const std::vector<std::pair<DimName, int>>& outs);

/// A distributed layout with the given register, lane, warp bits over output dims of these
/// log2 sizes (their sum at most register + lane + warp bits): unit columns, the rest zero
/// (broadcast). Surjective by construction.
[[nodiscard]] rc::Gen<LinearLayout> genDistributedOn(int regBits, int laneBits, int warpBits,
                                                     std::vector<int> outBits);
[[nodiscard]] LinearLayout drawDistributedOn(int regBits, int laneBits, int warpBits,
                                             const std::vector<int>& outBits);

/// Two distributed layouts over one tensor with the same lanes and warps: a conversion pair
/// (layouts[0] = SRC, layouts[1] = DST); params = [architecture (0 sm90: 32 lanes, 1 gfx942,
/// 2 gfx950: 64 lanes), log2(element bytes)].
[[nodiscard]] rc::Gen<Case> genConversionPair();
[[nodiscard]] Case drawConversionPair();

/// #ttg.blocked parameters of a random valid attribute and a shape, as a Case's params:
/// [rank, sizePerThread log2..., threadsPerWarp log2..., warpsPerCTA log2..., order...,
/// shape log2...]; blockedFromParams reads them back.
[[nodiscard]] rc::Gen<Case> genBlockedParams();
[[nodiscard]] Case drawBlockedParams();
struct BlockedCase {
  BlockedParams params;
  std::vector<uint64_t> shape;
};
[[nodiscard]] Result<BlockedCase> blockedFromParams(const std::vector<int64_t>& p);

/// #ttg.swizzled_shared over a 2-D shape: [vec log2, perPhase log2, maxPhase log2, order0,
/// shape0 log2, shape1 log2].
[[nodiscard]] rc::Gen<Case> genSwizzledParams();
[[nodiscard]] Case drawSwizzledParams();
struct SwizzledCase {
  SwizzledSharedParams params;
  std::vector<uint64_t> shape;
};
[[nodiscard]] Result<SwizzledCase> swizzledFromParams(const std::vector<int64_t>& p);

/// Builds a layout from packed columns: column j (flattened input bit j) holds the output bits
/// of all output dims side by side, the first dim lowest.
[[nodiscard]] LinearLayout layoutFromColumns(const std::vector<std::pair<DimName, int>>& ins,
                                             const std::vector<std::pair<DimName, int>>& outs,
                                             const std::vector<uint64_t>& cols);

} // namespace llcheck::fuzz
