// The fix of a finding as text one can paste: TTGIR attributes and Gluon constructors (Fix.h).
#include "Fix.h"

#include "ReportParts.h"

#include "llcheck/core/LayoutContext.h"
#include "llcheck/core/Spec.h"

#include <algorithm>

namespace llcheck::reports::detail {

namespace {

std::string intList(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string basesList(const std::vector<std::vector<uint64_t>>& bases) {
  std::string s = "[";
  for (std::size_t i = 0; i < bases.size(); ++i)
    s += (i ? ", " : "") + intList(bases[i]);
  return s + "]";
}

/// The bases of input dim `in`, each as the tensor coordinate it maps to (dim0, dim1, ...).
std::vector<std::vector<uint64_t>> basesOf(const LinearLayout& l, DimName in, std::size_t rank) {
  std::vector<std::vector<uint64_t>> out;
  if (!l.hasInDim(in))
    return out;
  for (int b = 0; b < l.getInDimSizeLog2(in); ++b) {
    std::vector<uint64_t> v(rank, 0);
    for (std::size_t d = 0; d < rank; ++d) {
      DimName dim("dim" + std::to_string(d));
      if (l.hasOutDim(dim))
        v[d] = l.getBasis(in, b, dim);
    }
    out.push_back(std::move(v));
  }
  return out;
}

Result<LinearLayout> readBack(const std::string& attribute, const std::vector<uint64_t>& shape,
                              TritonVersion triton) {
  LayoutContext c;
  c.shape = shape;
  c.triton = triton;
  auto l = loadSpec(attribute, c);
  if (!l.ok())
    return l.error();
  return l->layout;
}

} // namespace

std::optional<uint64_t> coreMatrixReadWavefronts(const LinearLayout& shared, int elementBits) {
  const int rank = shared.getNumOutDims();
  if (rank < 2 || elementBits <= 0 || elementBits > 128 || 128 % elementBits != 0 ||
      shared.getTotalInDimSizeLog2() > 20 || !shared.hasInDim(DimName("offset")))
    return std::nullopt;
  std::vector<int> shift(static_cast<std::size_t>(rank));
  std::vector<uint64_t> size(static_cast<std::size_t>(rank));
  for (int d = 0; d < rank; ++d) {
    int i = shared.outDimIndex(DimName("dim" + std::to_string(d)));
    if (i < 0)
      return std::nullopt;
    shift[static_cast<std::size_t>(d)] = shared.outDimOffset(i);
    size[static_cast<std::size_t>(d)] = shared.getOutDimSize(DimName("dim" + std::to_string(d)));
  }
  // The contiguous dim holds offset 1.
  uint64_t one = shared.applyFlat(1);
  int contiguous = -1;
  for (int d = 0; d < rank; ++d)
    if (one == uint64_t{1} << shift[static_cast<std::size_t>(d)])
      contiguous = d;
  if (contiguous < rank - 2)
    return std::nullopt;
  const int rows = contiguous == rank - 1 ? rank - 2 : rank - 1;
  const uint64_t perPiece = static_cast<uint64_t>(128 / elementBits);
  const auto c = static_cast<std::size_t>(contiguous), r = static_cast<std::size_t>(rows);
  if (size[r] < 8 || size[c] < perPiece)
    return std::nullopt;
  const uint64_t n = shared.getTotalInDimSize();
  const uint64_t outs = shared.getTotalOutDimSize();
  if (outs != n)
    return std::nullopt;
  std::vector<uint64_t> offsetOf(outs, ~uint64_t{0});
  for (uint64_t o = 0; o < n; ++o)
    offsetOf[shared.applyFlat(o)] = o;
  uint64_t wavefronts = 0;
  for (uint64_t at = 0; at < outs; ++at) {
    uint64_t row = (at >> shift[r]) & (size[r] - 1), col = (at >> shift[c]) & (size[c] - 1);
    if (row % 8 != 0 || col % perPiece != 0)
      continue;
    uint64_t perGroup[8] = {};
    for (uint64_t i = 0; i < 8; ++i) {
      uint64_t base = at + (i << shift[r]);
      uint64_t first = offsetOf[base];
      if (first == ~uint64_t{0})
        return std::nullopt;
      for (uint64_t j = 1; j < perPiece; ++j)
        if (offsetOf[base + (j << shift[c])] != first + j)
          return std::nullopt;
      ++perGroup[(first * static_cast<uint64_t>(elementBits) / 8 / 16) % 8];
    }
    wavefronts += *std::max_element(std::begin(perGroup), std::end(perGroup));
  }
  return wavefronts;
}

std::string fixCostText(const nlohmann::json& c) {
  if (!c.is_object())
    return "-";
  std::string s;
  if (c.contains("store") && c.contains("load"))
    s = std::to_string(c["store"].get<uint64_t>()) + " + " +
        std::to_string(c["load"].get<uint64_t>()) + " = ";
  if (c.contains("wavefronts"))
    s += std::to_string(c["wavefronts"].get<uint64_t>()) + " wavefronts";
  if (c.contains("requests"))
    s += std::to_string(c["requests"].get<uint64_t>()) + " requests, " +
         std::to_string(c["sectors"].get<uint64_t>()) + " sectors";
  if (c.contains("instructions") && c["instructions"].is_string())
    s += " (" + c["instructions"].get<std::string>() + ")";
  return s;
}

bool sameLayout(const LinearLayout& a, const LinearLayout& b) {
  if (a.getOutDims() != b.getOutDims())
    return false;
  auto covers = [](const LinearLayout& x, const LinearLayout& y) {
    for (const DimSize& d : x.getInDims()) {
      if (d.size <= 1)
        continue;
      if (!y.hasInDim(d.name) || y.getInDimSize(d.name) != d.size)
        return false;
      auto xc = x.inDimColumns(d.name), yc = y.inDimColumns(d.name);
      if (!std::equal(xc.begin(), xc.end(), yc.begin(), yc.end()))
        return false;
    }
    return true;
  };
  return covers(a, b) && covers(b, a);
}

Result<SpelledLayout> spellSharedLinear(const LinearLayout& shared,
                                        const std::vector<uint64_t>& shape, TritonVersion triton) {
  auto offset = basesOf(shared, DimName("offset"), shape.size());
  auto block = basesOf(shared, DimName("block"), shape.size());
  // Triton's ld/st.shared move at most 16 bytes: the allocation's alignment need not be more.
  const uint64_t alignment = 16;
  SpelledLayout s;
  // As Triton prints it: no `block` for one CTA.
  s.attribute = "#ttg.shared_linear<{offset = " + basesList(offset) +
                (block.empty() ? std::string() : ", block = " + basesList(block)) +
                "}, alignment = " + std::to_string(alignment) + ">";
  s.gluon = "gl.SharedLinearLayout(offset_bases=" + basesList(offset) +
            ", block_bases=" + basesList(block) + ", alignment=" + std::to_string(alignment) + ")";
  auto back = readBack(s.attribute, shape, triton);
  if (!back.ok())
    return makeError("a bug in llcheck: its own attribute " + s.attribute +
                     " does not read back: " + back.error().str());
  if (!sameLayout(*back, shared))
    return makeError("a bug in llcheck: its own attribute " + s.attribute +
                     " reads back as another layout than the one it spells");
  s.layout = *back;
  return s;
}

Result<SpelledLayout> spellNvmma(const std::string& attribute, const std::vector<uint64_t>& shape,
                                 TritonVersion triton) {
  std::string swizzle = attrField(attribute, "swizzlingByteWidth");
  std::string transposed = attrField(attribute, "transposed");
  std::string bits = attrField(attribute, "elementBitWidth");
  if (swizzle.empty() || bits.empty())
    return makeError("a bug in llcheck: " + attribute +
                     " lacks swizzlingByteWidth or elementBitWidth");
  auto back = readBack(attribute, shape, triton);
  if (!back.ok())
    return makeError("a bug in llcheck: " + attribute + " does not read: " + back.error().str());
  SpelledLayout s;
  s.layout = *back;
  s.attribute = attribute;
  s.gluon = "gl.NVMMASharedLayout(swizzle_byte_width=" + swizzle + ", element_bitwidth=" + bits +
            ", rank=" + std::to_string(shape.size()) +
            ", transposed=" + (transposed == "true" ? "True" : "False") +
            (attrField(attribute, "fp4Padded") == "true" ? ", fp4_padded=True" : "") + ")";
  return s;
}

SpelledLayout spellBlocked(const BlockedParams& p) {
  SpelledLayout s;
  s.attribute = blockedAttributeText(p);
  s.gluon = "gl.BlockedLayout(size_per_thread=" + intList(p.sizePerThread) +
            ", threads_per_warp=" + intList(p.threadsPerWarp) +
            ", warps_per_cta=" + intList(p.warpsPerCTA) + ", order=" + intList(p.order) + ")";
  return s;
}

} // namespace llcheck::reports::detail
