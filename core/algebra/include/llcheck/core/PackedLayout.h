// A layout taken apart for editing column by column (see LinearLayout.h, "Representation"):
// the shape helpers and the encodings reshape layouts often, and the packed form needs no
// heap allocation. Build the layout again with build(), which checks it.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"

#include <cstdint>

namespace llcheck {

struct PackedLayout {
  FixedVec<Dim, kMaxDims> ins;
  FixedVec<Dim, kMaxDims> outs;
  FixedVec<uint64_t, kMaxBits> columns;

  static PackedLayout of(const LinearLayout& l) {
    PackedLayout p;
    for (const Dim& d : l.inDims())
      p.ins.push_back(d);
    for (const Dim& d : l.outDims())
      p.outs.push_back(d);
    for (uint64_t c : l.columns())
      p.columns.push_back(c);
    return p;
  }
  [[nodiscard]] Result<LinearLayout> build() const {
    return LinearLayout::fromColumns({ins.begin(), ins.size()}, {outs.begin(), outs.size()},
                                     {columns.begin(), columns.size()});
  }
  [[nodiscard]] int inOffset(std::size_t i) const {
    int off = 0;
    for (std::size_t k = 0; k < i; ++k)
      off += ins[k].sizeLog2;
    return off;
  }
  [[nodiscard]] int outOffset(std::size_t o) const {
    int off = 0;
    for (std::size_t k = 0; k < o; ++k)
      off += outs[k].sizeLog2;
    return off;
  }
  /// Removes the columns of in dim `i` for which `drop(column)` holds.
  template <class Pred> void dropColumns(std::size_t i, Pred drop) {
    int begin = inOffset(i);
    int end = begin + ins[i].sizeLog2;
    FixedVec<uint64_t, kMaxBits> kept;
    for (int j = 0; j < static_cast<int>(columns.size()); ++j) {
      if (j >= begin && j < end && drop(columns[static_cast<std::size_t>(j)])) {
        --ins[i].sizeLog2;
        continue;
      }
      kept.push_back(columns[static_cast<std::size_t>(j)]);
    }
    columns = kept;
  }
  /// Removes bit field [offset, offset + width) from every column (the bits above move down).
  void removeOutField(int offset, int width) {
    uint64_t low = offset == 0 ? 0 : (~uint64_t{0} >> (64 - offset));
    for (uint64_t& c : columns) {
      uint64_t high = offset + width >= 64 ? 0 : (c >> (offset + width)) << offset;
      c = (c & low) | high;
    }
  }
};

} // namespace llcheck
