// The brute-force reference evaluator that core's and prover's tests, the fuzz laws and the
// address simulators share: L(x) computed from the bases alone, XORing the bases of each set
// input bit, dimension by dimension, with nothing but loops (no packing, rank or elimination).
// Inputs and outputs are flattened by multiplication (mixed radix, first dimension fastest),
// never by the library's bit packing, so a packing bug in core cannot cancel out here. Plus the
// brute-force predicates over the whole table. Needs core's LinearLayout only (no GoogleTest):
// the fuzz laws link it into the llcheck binary.
#pragma once

#include "llcheck/core/LinearLayout.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace llcheck::test {

/// L(x) computed from the bases alone: for every input dim d and every set bit i of x_d, XOR
/// bases[d][i] into the outputs. Precondition (true of every LinearLayout): each basis value is
/// below its output dim's size.
class Ref {
public:
  Ref(std::vector<DimBases> bases, std::vector<DimSize> outs)
      : bases_(std::move(bases)), outs_(std::move(outs)) {
    for (const DimBases& d : bases_) {
      ins_.push_back({d.name, uint64_t{1} << d.bases.size()});
      numInputs_ *= uint64_t{1} << d.bases.size();
    }
    for (const DimSize& d : outs_)
      numOutputs_ *= d.size;
  }
  explicit Ref(const LinearLayout& l) : Ref(l.getBases(), l.getOutDims()) {}

  [[nodiscard]] const std::vector<DimSize>& ins() const { return ins_; }
  [[nodiscard]] const std::vector<DimSize>& outs() const { return outs_; }
  [[nodiscard]] uint64_t numInputs() const { return numInputs_; }
  [[nodiscard]] uint64_t numOutputs() const { return numOutputs_; }

  /// One value per input dim (in order) -> one value per output dim (in order).
  [[nodiscard]] std::vector<uint64_t> eval(const std::vector<uint64_t>& x) const {
    std::vector<uint64_t> y(outs_.size(), 0);
    for (std::size_t d = 0; d < bases_.size(); ++d)
      for (std::size_t i = 0; i < bases_[d].bases.size(); ++i)
        if ((x[d] >> i) & 1)
          for (std::size_t k = 0; k < outs_.size(); ++k)
            y[k] ^= bases_[d].bases[i][k];
    return y;
  }

  /// Mixed-radix decomposition of a flattened input (first dimension fastest).
  [[nodiscard]] std::vector<uint64_t> unflattenIn(uint64_t f) const { return split(f, ins_); }
  [[nodiscard]] uint64_t flattenIn(const std::vector<uint64_t>& x) const { return join(x, ins_); }
  [[nodiscard]] std::vector<uint64_t> unflattenOut(uint64_t f) const { return split(f, outs_); }
  [[nodiscard]] uint64_t flattenOut(const std::vector<uint64_t>& y) const { return join(y, outs_); }

  /// The flattened output of the flattened input f.
  [[nodiscard]] uint64_t evalFlat(uint64_t f) const { return flattenOut(eval(unflattenIn(f))); }

  /// The whole table: entry f is evalFlat(f). Input f's bits are its dims' bits side by side
  /// (power-of-two sizes), and each output dim XORs on its own, so f's flattened output is the
  /// XOR of its bits' flattened images: each entry is one XOR from the entry without its lowest
  /// bit (what lets the fuzz laws tabulate layouts of 2^20 inputs).
  [[nodiscard]] std::vector<uint64_t> table() const {
    std::vector<uint64_t> images;
    for (const DimBases& d : bases_)
      for (const std::vector<uint64_t>& b : d.bases)
        images.push_back(flattenOut(b));
    std::vector<uint64_t> t(numInputs_, 0);
    for (uint64_t f = 1; f < numInputs_; ++f)
      t[f] = t[f & (f - 1)] ^ images[static_cast<std::size_t>(std::countr_zero(f))];
    return t;
  }

  /// A point of the input space from a flattened input.
  [[nodiscard]] Point inPoint(uint64_t f) const { return toPoint(unflattenIn(f), ins_); }
  [[nodiscard]] Point outPoint(const std::vector<uint64_t>& y) const { return toPoint(y, outs_); }
  /// L(x) as a Point, for comparison with LinearLayout::apply.
  [[nodiscard]] Point evalPoint(uint64_t f) const { return outPoint(eval(unflattenIn(f))); }

  /// The value of dim `d` in x, one value per dim of `dims` (0 when there is no such dim).
  [[nodiscard]] static uint64_t valueOf(const std::vector<DimSize>& dims,
                                        const std::vector<uint64_t>& x, DimName d) {
    for (std::size_t i = 0; i < dims.size(); ++i)
      if (dims[i].name == d)
        return x[i];
    return 0;
  }
  [[nodiscard]] static std::vector<uint64_t> split(uint64_t f, const std::vector<DimSize>& dims) {
    std::vector<uint64_t> v;
    for (const DimSize& d : dims) {
      v.push_back(f % d.size);
      f /= d.size;
    }
    return v;
  }
  [[nodiscard]] static uint64_t join(const std::vector<uint64_t>& v,
                                     const std::vector<DimSize>& dims) {
    uint64_t f = 0, m = 1;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      f += v[d] * m;
      m *= dims[d].size;
    }
    return f;
  }

private:
  static Point toPoint(const std::vector<uint64_t>& v, const std::vector<DimSize>& dims) {
    Point p;
    for (std::size_t d = 0; d < dims.size(); ++d)
      p.emplace_back(dims[d].name, v[d]);
    return p;
  }

  std::vector<DimBases> bases_;
  std::vector<DimSize> outs_;
  std::vector<DimSize> ins_;
  uint64_t numInputs_ = 1, numOutputs_ = 1;
};

// ---- Brute-force predicates -------------------------------------------------------------------

/// Sorted distinct flattened outputs.
inline std::vector<uint64_t> image(const Ref& r) {
  std::vector<uint64_t> t = r.table();
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}
inline bool bruteInjective(const Ref& r) {
  return image(r).size() == r.numInputs();
}
inline bool bruteSurjective(const Ref& r) {
  return image(r).size() == r.numOutputs();
}
/// log2 of the number of distinct outputs: the rank.
inline int bruteRank(const Ref& r) {
  return std::countr_zero(image(r).size());
}

} // namespace llcheck::test
