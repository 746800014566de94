// The layouts and printed outputs of the seed documents that several operation tests share.
#pragma once

#include "TestLayouts.h"

#include "llcheck/core/Spec.h"

#include <sstream>

namespace llcheck::test {

// References: a copy would be initialized dynamically, in an order across files the language
// leaves open (gpu_oracle's HwDecode.cpp read empty names that way under clang -O1).
inline const DimName& kReg = dims::kRegister;
inline const DimName& kLane = dims::kLane;
inline const DimName& kWarp = dims::kWarp;
inline const DimName& kBlock = dims::kBlock;
inline const DimName& kOffset = dims::kOffset;
inline const DimName kDim0 = dims::standardOut(0), kDim1 = dims::standardOut(1);

inline LinearLayout corpus(const std::string& file) {
  auto l = loadSpec(repoRoot() + "/corpus/" + file, {});
  if (!l.ok())
    throw LayoutError(l.error());
  return l->layout;
}

/// What Triton prints, given as the seeds show it in C++ comments ("// " before each line).
inline std::string printed(const std::string& commented) {
  std::string out = "\n", line;
  std::istringstream in(commented);
  bool first = true;
  while (std::getline(in, line)) {
    if (line.rfind("// ", 0) == 0)
      line = line.substr(3);
    out += (first ? "" : "\n") + line;
    first = false;
  }
  return out;
}

/// #ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2],
/// order = [1, 0]}> on 64x16, built as Triton builds blocked layouts: for registers, lanes and
/// warps in turn, an identity1D per tensor dim in `order` (dim1 first), then the CTA's block.
inline LinearLayout blocked64x16() {
  LinearLayout reg = identity1D(2, kReg, kDim1) * identity1D(4, kReg, kDim0);
  LinearLayout lane = identity1D(4, kLane, kDim1) * identity1D(8, kLane, kDim0);
  LinearLayout warp = identity1D(2, kWarp, kDim1) * identity1D(2, kWarp, kDim0);
  LinearLayout block = identity1D(1, kBlock, kDim1) * identity1D(1, kBlock, kDim0);
  return (reg * lane * warp * block).transposeOuts({kDim0, kDim1}).value();
}

inline const char* kBlockedPrinted = R"(//  - register=1 -> (0, 1)
//    register=2 -> (1, 0)
//    register=4 -> (2, 0)
//  - lane=1 -> (0, 2)
//    lane=2 -> (0, 4)
//    lane=4 -> (4, 0)
//    lane=8 -> (8, 0)
//    lane=16 -> (16, 0)
//  - warp=1 -> (0, 8)
//    warp=2 -> (32, 0)
//  - block is a size 1 dimension
// where out dims are: [dim0 (size 64), dim1 (size 16)])";

/// Seed 003's ll.flattenIns() of the blocked layout.
inline const char* kBlockedFlattenedPrinted = R"(//  - register=1 -> (0, 1)
//    register=2 -> (1, 0)
//    register=4 -> (2, 0)
//    register=8 -> (0, 2)
//    register=16 -> (0, 4)
//    register=32 -> (4, 0)
//    register=64 -> (8, 0)
//    register=128 -> (16, 0)
//    register=256 -> (0, 8)
//    register=512 -> (32, 0)
// where out dims are: [dim0 (size 64), dim1 (size 16)])";

/// Seed 003's ll.transposeIns({lane, register, warp, block}).
inline const char* kBlockedTransposedPrinted = R"(//  - lane=1 -> (0, 2)
//    lane=2 -> (0, 4)
//    lane=4 -> (4, 0)
//    lane=8 -> (8, 0)
//    lane=16 -> (16, 0)
//  - register=1 -> (0, 1)
//    register=2 -> (1, 0)
//    register=4 -> (2, 0)
//  - warp=1 -> (0, 8)
//    warp=2 -> (32, 0)
//  - block is a size 1 dimension
// where out dims are: [dim0 (size 64), dim1 (size 16)])";

/// Definition 4.11 (mma swizzling) on a rows x cols tile with order [1, 0]: element (i, j) is
/// stored at offset cols * i + col(i, j), col = ((i / perPhase % maxPhase) ^ (j / vec)) * vec ^
/// (j % vec), taken mod cols. The layout maps offsets back to (i, j).
inline LinearLayout swizzledShared(uint64_t rows, uint64_t cols, uint64_t vec, uint64_t perPhase,
                                   uint64_t maxPhase) {
  std::vector<std::pair<uint64_t, uint64_t>> at(rows * cols);
  for (uint64_t i = 0; i < rows; ++i)
    for (uint64_t j = 0; j < cols; ++j) {
      uint64_t col = ((((i / perPhase) % maxPhase) ^ (j / vec)) * vec ^ (j % vec)) % cols;
      at[cols * i + col] = {i, j};
    }
  std::vector<std::vector<uint64_t>> bases;
  for (uint64_t o = 1; o < rows * cols; o *= 2)
    bases.push_back({at[o].first, at[o].second});
  LinearLayout l =
      LinearLayout::create({{kOffset, bases}, {kBlock, {}}}, {{kDim0, rows}, {kDim1, cols}}, true)
          .value();
  for (uint64_t o = 0; o < rows * cols; ++o) // the formula is linear: the bases give it all
    EXPECT_EQ(l.apply({{kOffset, o}, {kBlock, 0}}).value(),
              (Point{{kDim0, at[o].first}, {kDim1, at[o].second}}));
  return l;
}

} // namespace llcheck::test
