// The law `differential.coalescing_wide_addresses` (issue 31): coalescing's model and its Z3
// proof against a brute force whose addresses are 128-bit integers, on tensors whose last byte
// lies near 2^64. A stride of 2^40 over 2^22 rows of f64 once wrapped at 2^64 in both the model
// and the 64-bit bit-vectors of the proof, which agreed on a false "at most 16 sectors". Here a
// tensor that reaches past byte 2^64 must be refused; one that does not must have the
// brute force's sector count, and Z3 must prove it (an unknown is counted, not a failure).
#include "Differential.h"

#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/prover/CoalescingProofs.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

namespace llcheck::fuzz {

namespace {

__extension__ typedef unsigned __int128 U128;

constexpr int kLaneBits = 5;

/// params: [rows log2, cols log2, element bytes log2, stride of dim0, stride of dim1, base
/// alignment]; the layout: register, lane, warp bits on distinct single tensor bits (Def. 4.10,
/// which strides that are not powers of two need).
rc::Gen<Case> wideAddressCases() {
  return rc::gen::exec([] {
    int rows = *rc::gen::inRange(16, 23), cols = *rc::gen::inRange(0, 3);
    int regBits = *rc::gen::inRange(0, 4), warpBits = *rc::gen::inRange(0, 3);
    std::vector<int> tensorBits(static_cast<std::size_t>(rows + cols));
    std::iota(tensorBits.begin(), tensorBits.end(), 0);
    for (std::size_t i = tensorBits.size(); i > 1; --i) // Fisher-Yates, each swap drawn
      std::swap(tensorBits[i - 1], tensorBits[*rc::gen::inRange<std::size_t>(0, i)]);
    std::vector<uint64_t> columns;
    for (int j = 0; j < regBits + kLaneBits + warpBits; ++j)
      columns.push_back(uint64_t{1} << tensorBits[static_cast<std::size_t>(j)]);
    LinearLayout reg =
        layoutFromColumns({{DimName("register"), regBits},
                           {DimName("lane"), kLaneBits},
                           {DimName("warp"), warpBits},
                           {DimName("block"), 0}},
                          {{DimName("dim0"), rows}, {DimName("dim1"), cols}}, columns);
    int bytesLog2 = *rc::gen::inRange(0, 4);
    // dim0's stride where the last byte crosses 2^64: 2^(64 - rows - bytesLog2), within the
    // 2^40 the model accepts, a little below or above it, or a power of two.
    int e = std::clamp(64 - rows - bytesLog2, 1, 40);
    int64_t around = int64_t{1} << e;
    int64_t stride0 = *rc::gen::oneOf(rc::gen::just(around),
                                      rc::gen::inRange<int64_t>(around / 2, around * 2 + 1));
    stride0 = std::min<int64_t>(stride0, int64_t{1} << 40);
    int64_t stride1 = *rc::gen::oneOf(rc::gen::just<int64_t>(1), rc::gen::inRange<int64_t>(1, 9));
    int64_t base = *rc::gen::oneOf(rc::gen::just<int64_t>(128),
                                   rc::gen::just<int64_t>(int64_t{1} << bytesLog2));
    return Case{{reg}, {rows, cols, bytesLog2, stride0, stride1, base}};
  });
}

/// The tensor coordinates of (register r, lane t, warp w): XOR of the bases, read directly.
std::vector<uint64_t> coordinates(const LinearLayout& reg, uint64_t r, uint64_t t, uint64_t w) {
  std::vector<uint64_t> x(static_cast<std::size_t>(reg.getNumOutDims()), 0);
  for (const DimBases& d : reg.getBases()) {
    uint64_t v = d.name == DimName("register") ? r
                 : d.name == DimName("lane")   ? t
                 : d.name == DimName("warp")   ? w
                                               : 0;
    for (std::size_t b = 0; b < d.bases.size(); ++b)
      if ((v >> b) & 1)
        for (std::size_t k = 0; k < x.size(); ++k)
          x[k] ^= d.bases[b][k];
  }
  return x;
}

Verdict wideAddresses(const Case& c) {
  const LinearLayout& reg = c.layouts.at(0);
  const std::vector<int64_t>& p = c.params;
  if (p.size() != 6 || p[2] < 0 || p[2] > 3 || p[3] < 0 || p[4] < 0 || p[5] < 1)
    return "malformed case: params are [rows log2, cols log2, bytes log2, stride0, stride1, base]";
  const int bytes = 1 << p[2];
  CoalescingOptions options;
  options.elementBits = bytes * 8;
  options.strides = {p[3], p[4]};
  options.baseAlignment = static_cast<uint64_t>(p[5]);
  auto model = globalMemoryModel("sm90");
  if (!model.ok())
    return model.error().str();
  const U128 baseOffset = options.baseAlignment < 128 ? options.baseAlignment : 0;
  auto address = [&](const std::vector<uint64_t>& x) {
    U128 e = 0;
    for (std::size_t k = 0; k < x.size(); ++k)
      e += U128{x[k]} * static_cast<uint64_t>(options.strides[k]);
    return baseOffset + e * static_cast<unsigned>(bytes);
  };
  std::vector<uint64_t> last;
  for (int k = 0; k < reg.getNumOutDims(); ++k)
    last.push_back(reg.getOutDimSize(reg.getOutDimNames()[static_cast<std::size_t>(k)]) - 1);
  const bool fits = address(last) + (bytes - 1) <= std::numeric_limits<uint64_t>::max();

  auto predicted = predictGlobalAccess(reg, options, *model);
  if (!fits)
    return predicted.ok() ? Verdict("a tensor whose last byte is past 2^64 was accepted (" +
                                    std::to_string(predicted->maxSectorsPerRequest) +
                                    " sectors per request predicted)")
                          : std::nullopt;
  if (!predicted.ok())
    return "refused a tensor that fits in 64 bits: " + predicted.error().str();

  // The brute force: a request is represented by any one register of it (a vector lies in one
  // sector), so the costliest request is the costliest (register, warp) over its 32 lanes.
  auto size = [&](const char* d) {
    return reg.hasInDim(DimName(d)) ? reg.getInDimSize(DimName(d)) : uint64_t{1};
  };
  uint64_t most = 0;
  for (uint64_t w = 0; w < size("warp"); ++w)
    for (uint64_t r = 0; r < size("register"); ++r) {
      std::set<U128> sectors;
      for (uint64_t t = 0; t < size("lane"); ++t)
        sectors.insert(address(coordinates(reg, r, t, w)) >> 5);
      most = std::max<uint64_t>(most, sectors.size());
    }
  if (predicted->maxSectorsPerRequest != most)
    return "the model predicts " + std::to_string(predicted->maxSectorsPerRequest) +
           " sectors per request; 128-bit addresses give " + std::to_string(most);
  if (!predicted->byRank)
    return std::nullopt; // the prover states only rank counts
  prover::ProverOptions po;
  po.timeoutMs = kDifferentialTimeoutMs;
  prover::ProofResult proof = prover::proveSectorBound(reg, options, *model, *predicted, po);
  if (proof.outcome == prover::Outcome::Unknown) {
    noteUndecided();
    return std::nullopt;
  }
  if (proof.outcome != prover::Outcome::Proven)
    return std::string("Z3 did not prove the bound of ") + std::to_string(most) +
           " sectors that 128-bit addresses give: " + prover::outcomeName(proof.outcome) + " (" +
           proof.detail + ")";
  return std::nullopt;
}

} // namespace

Law wideAddressesLaw() {
  return {"differential.coalescing_wide_addresses",
          "on tensors whose last byte is near 2^64, coalescing refuses exactly those past it, "
          "and its sectors per request equal a 128-bit brute force, proven by Z3",
          wideAddressCases(), wideAddresses};
}

} // namespace llcheck::fuzz
