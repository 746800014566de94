// The layout algebra on bit-packed columns. Each operation states its semantics in
// LinearLayout.h; comments here explain only how the packed form is manipulated.
#include "llcheck/core/LinearLayout.h"

#include "llcheck/core/XorBasis.h"

#include <bit>
#include <string>

namespace llcheck {
namespace {

uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

bool isPow2(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

int log2Exact(uint64_t v) {
  return std::countr_zero(v);
}

std::string joinNames(std::span<const DimName> names) {
  std::string s = "[";
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i ? ", " : "") + names[i].str();
  return s + "]";
}

std::string namesOf(std::span<const Dim> dims) {
  std::vector<DimName> names;
  for (const Dim& d : dims)
    names.push_back(d.name);
  return joinNames(names);
}

int totalBits(std::span<const Dim> dims) {
  int n = 0;
  for (const Dim& d : dims)
    n += d.sizeLog2;
  return n;
}

int indexOf(std::span<const Dim> dims, DimName name) {
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i].name == name)
      return static_cast<int>(i);
  return -1;
}

int offsetOf(std::span<const Dim> dims, int index) {
  int off = 0;
  for (int i = 0; i < index; ++i)
    off += dims[i].sizeLog2;
  return off;
}

bool sameNameSet(std::span<const Dim> a, std::span<const Dim> b) {
  if (a.size() != b.size())
    return false;
  for (const Dim& d : a)
    if (indexOf(b, d.name) < 0)
      return false;
  return true;
}

/// Moves bit fields from one packing to another: field i (srcOff, len) -> dstOff.
struct FieldMove {
  int srcOff, len, dstOff;
};
using FieldMoves = FixedVec<FieldMove, kMaxDims>;

uint64_t applyMoves(const FieldMoves& moves, uint64_t word) {
  uint64_t out = 0;
  for (const FieldMove& m : moves)
    if (m.len > 0) // a size-1 dim has no bits, and its offset may be 64
      out |= ((word >> m.srcOff) & lowMask(m.len)) << m.dstOff;
  return out;
}

/// How to move the output fields of `from` into the packing of `to` (matched by name; fields
/// of `from` missing in `to` are dropped; a narrower target keeps the low bits).
FieldMoves outMoves(std::span<const Dim> from, std::span<const Dim> to) {
  FieldMoves moves;
  int srcOff = 0;
  for (const Dim& d : from) {
    int k = indexOf(to, d.name);
    if (k >= 0)
      moves.push_back({srcOff, std::min(d.sizeLog2, to[k].sizeLog2), offsetOf(to, k)});
    srcOff += d.sizeLog2;
  }
  return moves;
}

/// True when the output packing of `from` is the packing of `to` (same dims, order and sizes),
/// so that outMoves(from, to) would be the identity and can be skipped.
bool samePacking(std::span<const Dim> from, std::span<const Dim> to) {
  return std::equal(from.begin(), from.end(), to.begin(), to.end());
}

/// `all` without the names in `removed`, order kept.
std::vector<DimName> without(const std::vector<DimName>& all, const std::vector<DimName>& removed) {
  std::vector<DimName> rest;
  for (DimName d : all)
    if (std::find(removed.begin(), removed.end(), d) == removed.end())
      rest.push_back(d);
  return rest;
}

Error opError(const std::string& op, std::string message) {
  return makeError(std::move(message), op);
}

} // namespace

// ---- Construction ---------------------------------------------------------------------------

namespace {

/// Every check of LinearLayout::build at once, without locating the failure: most layouts are
/// built by operations on valid layouts, and only a failing one needs the detailed message.
bool validDims(std::span<const Dim> dims, int& bits) {
  if (dims.size() > kMaxDims)
    return false;
  bool ok = true;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    ok &= !dims[i].name.empty() && static_cast<unsigned>(dims[i].sizeLog2) <= 63;
    bits += dims[i].sizeLog2;
    for (std::size_t j = 0; j < i; ++j)
      ok &= dims[j].name != dims[i].name;
  }
  return ok;
}

} // namespace

Result<LinearLayout> LinearLayout::checkedBuild(std::span<const Dim> ins, std::span<const Dim> outs,
                                                std::span<const uint64_t> columns) {
  // Filled in place, and the one return is of that one object (so it is not copied out): a
  // local layout would be copied into the Result, and the Result once more on return.
  Result<LinearLayout> r = LinearLayout();
  LinearLayout& l = *r;
  l.ins_.assign(ins);
  l.outs_.assign(outs);
  l.columns_.assign(columns);
  return r;
}

Result<LinearLayout> LinearLayout::build(std::span<const Dim> ins, std::span<const Dim> outs,
                                         std::span<const uint64_t> columns) {
  int inBitsFast = 0, outBitsFast = 0;
  if (validDims(ins, inBitsFast) && validDims(outs, outBitsFast) && inBitsFast <= kMaxBits &&
      outBitsFast <= kMaxBits && columns.size() == static_cast<std::size_t>(inBitsFast)) {
    uint64_t any = 0;
    for (uint64_t c : columns)
      any |= c;
    if ((any & ~lowMask(outBitsFast)) == 0)
      return checkedBuild(ins, outs, columns);
  }
  if (ins.size() > kMaxDims || outs.size() > kMaxDims)
    return makeError("a layout has at most " + std::to_string(kMaxDims) +
                     " input and output dimensions; got " + std::to_string(ins.size()) +
                     " inputs and " + std::to_string(outs.size()) + " outputs");
  for (auto side : {ins, outs}) {
    const char* what = side.data() == ins.data() ? "input" : "output";
    for (std::size_t i = 0; i < side.size(); ++i) {
      if (side[i].name.empty())
        return makeError(std::string(what) + " dimension " + std::to_string(i) +
                         " has an empty name");
      if (side[i].sizeLog2 < 0 || side[i].sizeLog2 > 63)
        return makeError(std::string(what) + " dimension '" + side[i].name.str() + "' has 2^" +
                         std::to_string(side[i].sizeLog2) +
                         " elements; at most 2^63 are supported");
      for (std::size_t j = 0; j < i; ++j)
        if (side[j].name == side[i].name)
          return makeError(std::string(what) + " dimension '" + side[i].name.str() +
                           "' appears twice");
    }
  }
  int inBits = totalBits(ins), outBits = totalBits(outs);
  if (inBits > kMaxBits)
    return makeError("the input dimensions have " + std::to_string(inBits) + " bits in total (2^" +
                     std::to_string(inBits) + " elements); llcheck supports at most 64");
  if (outBits > kMaxBits)
    return makeError("the output dimensions have " + std::to_string(outBits) +
                     " bits in total (2^" + std::to_string(outBits) +
                     " elements); llcheck supports at most 64");
  if (static_cast<int>(columns.size()) != inBits)
    return makeError("internal: " + std::to_string(columns.size()) + " columns for " +
                     std::to_string(inBits) + " input bits");
  LinearLayout l;
  for (const Dim& d : ins)
    l.ins_.push_back(d);
  for (const Dim& d : outs)
    l.outs_.push_back(d);
  uint64_t outMask = lowMask(outBits);
  for (uint64_t c : columns) {
    if ((c & ~outMask) != 0)
      return makeError("internal: column has bits beyond the output dimensions");
    l.columns_.push_back(c);
  }
  return l;
}

Result<LinearLayout> LinearLayout::fromColumns(std::span<const Dim> ins, std::span<const Dim> outs,
                                               std::span<const uint64_t> columns) {
  return build(ins, outs, columns);
}

Result<LinearLayout> LinearLayout::strided1D(uint64_t size, uint64_t stride, DimName in,
                                             DimName out) {
  if (!isPow2(size))
    return makeError("size " + std::to_string(size) + " is not a power of two", "strided1D");
  if (!isPow2(stride))
    return makeError("stride " + std::to_string(stride) + " is not a power of two", "strided1D");
  int n = log2Exact(size), s = log2Exact(stride);
  if (n + s > 63)
    return makeError("size * stride = 2^" + std::to_string(n + s) +
                         " exceeds the 2^63 limit of one dimension",
                     "strided1D");
  Dim ins[1] = {{in, n}};
  Dim outs[1] = {{out, n + s}};
  std::array<uint64_t, kMaxBits> cols{};
  for (int i = 0; i < n; ++i)
    cols[static_cast<std::size_t>(i)] = uint64_t{1} << (i + s);
  return build(ins, outs, {cols.data(), static_cast<std::size_t>(n)});
}

Result<LinearLayout> LinearLayout::identity1D(uint64_t size, DimName in, DimName out) {
  return strided1D(size, 1, in, out);
}

Result<LinearLayout> LinearLayout::zeros1D(uint64_t size, DimName in, DimName out,
                                           uint64_t outSize) {
  if (!isPow2(size))
    return makeError("size " + std::to_string(size) + " is not a power of two", "zeros1D");
  if (!isPow2(outSize))
    return makeError("output size " + std::to_string(outSize) + " is not a power of two",
                     "zeros1D");
  Dim ins[1] = {{in, log2Exact(size)}};
  Dim outs[1] = {{out, log2Exact(outSize)}};
  std::array<uint64_t, kMaxBits> cols{};
  return build(ins, outs, {cols.data(), static_cast<std::size_t>(log2Exact(size))});
}

Result<LinearLayout> LinearLayout::create(const std::vector<DimBases>& bases,
                                          const std::vector<DimName>& outNames) {
  std::vector<DimSize> outs;
  for (std::size_t k = 0; k < outNames.size(); ++k) {
    uint64_t maxValue = 0;
    for (const DimBases& d : bases)
      for (const auto& b : d.bases)
        if (k < b.size())
          maxValue = std::max(maxValue, b[k]);
    if (maxValue >= (uint64_t{1} << 63))
      return makeError("output dimension '" + outNames[k].str() + "' has value " +
                       std::to_string(maxValue) + "; at most 2^63 - 1 is supported");
    outs.push_back({outNames[k], std::bit_ceil(maxValue + 1)});
  }
  return create(bases, outs, /*requireSurjective=*/true);
}

Result<LinearLayout> LinearLayout::create(const std::vector<DimBases>& bases,
                                          const std::vector<DimSize>& outDims,
                                          bool requireSurjective) {
  if (bases.size() > kMaxDims || outDims.size() > kMaxDims)
    return makeError("a layout has at most " + std::to_string(kMaxDims) +
                     " input and output dimensions");
  FixedVec<Dim, kMaxDims> ins, outs;
  for (const DimSize& o : outDims) {
    if (!isPow2(o.size))
      return makeError("size " + std::to_string(o.size) + " is not a power of two",
                       "output dimension '" + o.name.str() + "'");
    outs.push_back({o.name, log2Exact(o.size)});
  }
  std::vector<uint64_t> cols;
  for (const DimBases& d : bases) {
    if (d.bases.size() > 63)
      return makeError("has " + std::to_string(d.bases.size()) + " bases (2^" +
                           std::to_string(d.bases.size()) +
                           " elements); at most 63 bases per dimension are supported",
                       "input dimension '" + d.name.str() + "'");
    ins.push_back({d.name, static_cast<int>(d.bases.size())});
    for (std::size_t i = 0; i < d.bases.size(); ++i) {
      const auto& b = d.bases[i];
      auto where = [&d, i] { // only errors need it
        return "input dimension '" + d.name.str() + "' basis " + std::to_string(i);
      };
      if (b.size() != outDims.size())
        return makeError("has " + std::to_string(b.size()) + " values but there are " +
                             std::to_string(outDims.size()) + " output dimensions",
                         where());
      uint64_t col = 0;
      int off = 0;
      for (std::size_t k = 0; k < b.size(); ++k) {
        if (b[k] >= outDims[k].size)
          return makeError("value " + std::to_string(b[k]) + " for output dimension '" +
                               outDims[k].name.str() + "' is not below its size " +
                               std::to_string(outDims[k].size),
                           where());
        if (off < 64)
          col |= b[k] << off;
        off += outs[k].sizeLog2;
      }
      cols.push_back(col);
    }
  }
  if (totalBits({ins.begin(), ins.size()}) > kMaxBits || cols.size() > kMaxBits)
    return build({ins.begin(), ins.size()}, {outs.begin(), outs.size()}, {});
  auto l = build({ins.begin(), ins.size()}, {outs.begin(), outs.size()}, cols);
  if (l.ok() && requireSurjective && !l->isSurjective())
    return makeError("the layout is not surjective (rank " + std::to_string(l->rank()) + " < " +
                     std::to_string(l->getTotalOutDimSizeLog2()) +
                     " output bits): some outputs are never produced");
  return l;
}

// ---- Shape ----------------------------------------------------------------------------------

std::vector<DimName> LinearLayout::getInDimNames() const {
  std::vector<DimName> v;
  for (const Dim& d : ins_)
    v.push_back(d.name);
  return v;
}

std::vector<DimName> LinearLayout::getOutDimNames() const {
  std::vector<DimName> v;
  for (const Dim& d : outs_)
    v.push_back(d.name);
  return v;
}

std::vector<DimSize> LinearLayout::getOutDims() const {
  std::vector<DimSize> v;
  for (const Dim& d : outs_)
    v.push_back({d.name, pow2(d.sizeLog2)});
  return v;
}

std::vector<DimSize> LinearLayout::getInDims() const {
  std::vector<DimSize> v;
  for (const Dim& d : ins_)
    v.push_back({d.name, pow2(d.sizeLog2)});
  return v;
}

int LinearLayout::inDimIndex(DimName d) const {
  return indexOf(inDims(), d);
}
int LinearLayout::outDimIndex(DimName d) const {
  return indexOf(outDims(), d);
}

int LinearLayout::getInDimSizeLog2(DimName d) const {
  int i = inDimIndex(d);
  return i < 0 ? 0 : ins_[i].sizeLog2;
}

int LinearLayout::getOutDimSizeLog2(DimName d) const {
  int i = outDimIndex(d);
  return i < 0 ? 0 : outs_[i].sizeLog2;
}

int LinearLayout::getTotalOutDimSizeLog2() const {
  return totalBits(outDims());
}
int LinearLayout::inDimOffset(int i) const {
  return offsetOf(inDims(), i);
}
int LinearLayout::outDimOffset(int i) const {
  return offsetOf(outDims(), i);
}

// ---- Bases ----------------------------------------------------------------------------------

std::vector<DimBases> LinearLayout::getBases() const {
  std::vector<DimBases> all;
  all.reserve(ins_.size());
  int j = 0;
  for (const Dim& d : ins_) {
    DimBases db{d.name, {}};
    db.bases.reserve(static_cast<std::size_t>(d.sizeLog2));
    for (int i = 0; i < d.sizeLog2; ++i, ++j) {
      std::vector<uint64_t> values;
      values.reserve(outs_.size());
      int off = 0;
      for (const Dim& o : outs_) {
        values.push_back(off < 64 ? (columns_[j] >> off) & lowMask(o.sizeLog2) : 0);
        off += o.sizeLog2;
      }
      db.bases.push_back(std::move(values));
    }
    all.push_back(std::move(db));
  }
  return all;
}

std::vector<uint64_t> LinearLayout::getBasis(DimName inDim, int pos) const {
  int i = inDimIndex(inDim);
  std::vector<uint64_t> values;
  if (i < 0 || pos < 0 || pos >= ins_[i].sizeLog2)
    return values;
  uint64_t packed = columns_[inDimOffset(i) + pos];
  values.reserve(outs_.size());
  int off = 0;
  for (const Dim& d : outs_) {
    values.push_back(off < 64 ? (packed >> off) & lowMask(d.sizeLog2) : 0);
    off += d.sizeLog2;
  }
  return values;
}

uint64_t LinearLayout::getBasis(DimName inDim, int pos, DimName outDim) const {
  int i = inDimIndex(inDim);
  int k = outDimIndex(outDim);
  if (i < 0 || k < 0 || pos < 0 || pos >= ins_[i].sizeLog2)
    return 0;
  int off = outDimOffset(k);
  return off < 64 ? (columns_[inDimOffset(i) + pos] >> off) & lowMask(outs_[k].sizeLog2) : 0;
}

// ---- Applying -------------------------------------------------------------------------------

Point LinearLayout::unpackOut(uint64_t packed) const {
  Point p;
  p.reserve(outs_.size());
  int off = 0;
  for (const Dim& d : outs_) {
    p.emplace_back(d.name, off < 64 ? (packed >> off) & lowMask(d.sizeLog2) : 0);
    off += d.sizeLog2;
  }
  return p;
}

Point LinearLayout::unpackIn(uint64_t flat) const {
  Point p;
  p.reserve(ins_.size());
  int off = 0;
  for (const Dim& d : ins_) {
    p.emplace_back(d.name, off < 64 ? (flat >> off) & lowMask(d.sizeLog2) : 0);
    off += d.sizeLog2;
  }
  return p;
}

uint64_t LinearLayout::packIn(const Point& ins) const {
  uint64_t flat = 0;
  for (const auto& [name, v] : ins) {
    int i = inDimIndex(name);
    if (i >= 0 && ins_[i].sizeLog2 > 0)
      flat |= (v & lowMask(ins_[i].sizeLog2)) << inDimOffset(i);
  }
  return flat;
}

Result<Point> LinearLayout::apply(const Point& ins) const {
  std::vector<bool> seen(ins_.size(), false);
  for (const auto& [name, v] : ins) {
    int i = inDimIndex(name);
    if (i < 0)
      return makeError("'" + name.str() + "' is not an input dimension of the layout " +
                           namesOf(inDims()),
                       "apply");
    if (seen[i])
      return makeError("input dimension '" + name.str() + "' is given twice", "apply");
    seen[i] = true;
    if (v >= pow2(ins_[i].sizeLog2) && ins_[i].sizeLog2 < 64)
      return makeError(name.str() + "=" + std::to_string(v) + " is out of range [0, " +
                           std::to_string(pow2(ins_[i].sizeLog2)) + ")",
                       "apply");
  }
  for (std::size_t i = 0; i < ins_.size(); ++i)
    if (!seen[i])
      return makeError("no value given for input dimension '" + ins_[i].name.str() + "'", "apply");
  return unpackOut(applyFlat(packIn(ins)));
}

// ---- Properties -----------------------------------------------------------------------------

int LinearLayout::rank() const {
  XorBasis basis;
  for (uint64_t c : columns_)
    basis.insert(c, 0);
  return basis.rank();
}

std::vector<std::pair<DimName, uint64_t>> LinearLayout::getFreeVariableMasks() const {
  XorBasis basis;
  std::vector<std::pair<DimName, uint64_t>> masks;
  int j = 0;
  for (const Dim& d : ins_) {
    uint64_t mask = 0;
    for (int i = 0; i < d.sizeLog2; ++i, ++j)
      if (!basis.insert(columns_[j], 0))
        mask |= uint64_t{1} << i;
    masks.emplace_back(d.name, mask);
  }
  return masks;
}

uint64_t LinearLayout::getNumConsecutiveInOut() const {
  if (ins_.empty() || outs_.empty())
    return 1;
  // Packed, "(2^i, 0, ..., 0)" is the single bit i inside the first output field.
  int firstOutBits = outs_[0].sizeLog2;
  int consec = 0;
  while (consec < ins_[0].sizeLog2 && consec < firstOutBits &&
         columns_[consec] == (uint64_t{1} << consec))
    ++consec;
  uint64_t otherBits = 0;
  for (std::size_t j = static_cast<std::size_t>(consec); j < columns_.size(); ++j)
    otherBits |= columns_[j] & lowMask(firstOutBits);
  int trailingZeros = otherBits != 0 ? std::countr_zero(otherBits) : 63;
  return uint64_t{1} << std::min(consec, trailingZeros);
}

bool LinearLayout::isTrivialOver(const std::vector<DimName>& dimNames) const {
  for (DimName d : dimNames)
    if (!hasInDim(d) || !hasOutDim(d) || getInDimSizeLog2(d) != getOutDimSizeLog2(d))
      return false;
  std::vector<DimName> restIns = without(getInDimNames(), dimNames);
  std::vector<DimName> restOuts = without(getOutDimNames(), dimNames);
  // [[A, B], [C, D]] acting on (rest, dims): D must be the identity and B, C zero.
  auto square = sublayout(dimNames, dimNames);
  if (!square.ok())
    return false;
  auto cols = square->columns();
  for (std::size_t j = 0; j < cols.size(); ++j)
    if (cols[j] != (uint64_t{1} << j))
      return false;
  return *sublayoutIsZero(restIns, dimNames) && *sublayoutIsZero(dimNames, restOuts);
}

std::optional<LinearLayout> LinearLayout::quotient(const std::vector<DimName>& dimNames) const {
  if (!isTrivialOver(dimNames))
    return std::nullopt;
  std::vector<DimName> restIns = without(getInDimNames(), dimNames);
  std::vector<DimName> restOuts = without(getOutDimNames(), dimNames);
  return sublayout(restIns, restOuts).value();
}

// ---- Product --------------------------------------------------------------------------------

std::optional<std::vector<DimName>> supremum(const std::vector<DimName>& x,
                                             const std::vector<DimName>& y) {
  auto contains = [](const std::vector<DimName>& v, DimName d) {
    return std::find(v.begin(), v.end(), d) != v.end();
  };
  std::vector<DimName> commonX, commonY;
  for (DimName d : x)
    if (contains(y, d))
      commonX.push_back(d);
  for (DimName d : y)
    if (contains(x, d))
      commonY.push_back(d);
  if (commonX != commonY)
    return std::nullopt;
  // Between consecutive common names, x's own names come before y's.
  std::vector<DimName> out;
  std::size_t i = 0, j = 0;
  for (DimName c : commonX) {
    while (x[i] != c)
      out.push_back(x[i++]);
    while (y[j] != c)
      out.push_back(y[j++]);
    out.push_back(c);
    ++i, ++j;
  }
  out.insert(out.end(), x.begin() + static_cast<std::ptrdiff_t>(i), x.end());
  out.insert(out.end(), y.begin() + static_cast<std::ptrdiff_t>(j), y.end());
  return out;
}

namespace {

/// "Not found" for the positions mergeDimOrderInto looks up.
constexpr std::size_t kNone = ~std::size_t{0};

/// mergeDimOrder on any two name lists (x[i], x.size()), into `out` (which must hold
/// x.size() + y.size() names): product() merges without touching the heap.
template <class X, class Y, class Out> void mergeDimOrderInto(const X& x, const Y& y, Out& out) {
  // Triton's `supremum` (lib/Tools/LayoutUtils.cpp), step by step. Its "Supremum does not
  // exist" branches are unreachable, so it returns a merged list for any two lists.
  auto pos = [](const auto& v, DimName d) {
    for (std::size_t k = 0; k < v.size(); ++k)
      if (v[k] == d)
        return k;
    return kNone;
  };
  auto taken = [&out](DimName d) { return std::find(out.begin(), out.end(), d) != out.end(); };
  std::size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    while (i < x.size() && taken(x[i]))
      ++i;
    while (j < y.size() && taken(y[j]))
      ++j;
    if (i >= x.size() && j >= y.size())
      break;
    if (i < x.size() && j < y.size() && x[i] == y[j]) {
      out.push_back(x[i]);
      ++i, ++j;
      continue;
    }
    // Where the next name of each list sits in the other list (kNone: absent or passed).
    std::size_t candX = kNone, candY = kNone;
    if (i < x.size()) {
      std::size_t p = pos(y, x[i]);
      if (p != kNone && p >= j)
        candX = p;
    }
    if (j < y.size()) {
      std::size_t p = pos(x, y[j]);
      if (p != kNone && p >= i)
        candY = p;
    }
    if (i < x.size() && candX == kNone) {
      out.push_back(x[i++]);
      continue;
    }
    if (j < y.size() && candY == kNone) {
      out.push_back(y[j++]);
      continue;
    }
    if (candX <= candY)
      out.push_back(x[i++]);
    else
      out.push_back(y[j++]);
  }
}

/// The names of a dim list, without allocating.
struct DimNames {
  std::span<const Dim> dims;
  [[nodiscard]] std::size_t size() const { return dims.size(); }
  DimName operator[](std::size_t i) const { return dims[i].name; }
};

/// Is `sub` a subsequence of `all` (names of one layout side: no repeats)?
bool isSubsequence(std::span<const Dim> sub, std::span<const Dim> all) {
  std::size_t i = 0;
  for (std::size_t j = 0; j < all.size() && i < sub.size(); ++j)
    if (all[j].name == sub[i].name)
      ++i;
  return i == sub.size();
}

/// mergeDimOrderInto for the dims of two layouts. Most products extend one operand's dims by
/// some of the other's, in the same order; the merge is then that operand's list (no name
/// repeats within a layout), which is much cheaper to see than to merge.
void mergeDimNames(std::span<const Dim> x, std::span<const Dim> y,
                   FixedVec<DimName, 2 * kMaxDims>& out) {
  auto disjoint = [&] {
    for (const Dim& a : x)
      for (const Dim& b : y)
        if (a.name == b.name)
          return false;
    return true;
  };
  if (isSubsequence(y, x)) {
    for (const Dim& d : x)
      out.push_back(d.name);
  } else if (disjoint()) { // the merge takes all of x, then all of y
    for (const Dim& d : x)
      out.push_back(d.name);
    for (const Dim& d : y)
      out.push_back(d.name);
  } else if (isSubsequence(x, y)) {
    for (const Dim& d : y)
      out.push_back(d.name);
  } else {
    mergeDimOrderInto(DimNames{x}, DimNames{y}, out);
  }
}

} // namespace

std::vector<DimName> mergeDimOrder(const std::vector<DimName>& x, const std::vector<DimName>& y) {
  std::vector<DimName> out;
  mergeDimOrderInto(x, y, out);
  return out;
}

Result<LinearLayout> product(const LinearLayout& inner, const LinearLayout& outer) {
  // Triton merges the dim orders with its `supremum`, which never fails: common dims in
  // different orders ([a, b] and [b, a]) are merged too (to [a, b]).
  FixedVec<DimName, 2 * kMaxDims> inNames, outNames;
  mergeDimNames(inner.inDims(), outer.inDims(), inNames);
  mergeDimNames(inner.outDims(), outer.outDims(), outNames);
  if (inNames.size() > kMaxDims || outNames.size() > kMaxDims)
    return opError("product", "the result would have more than " + std::to_string(kMaxDims) +
                                  " dimensions on one side");
  FixedVec<Dim, kMaxDims> ins, outs;
  for (DimName d : outNames)
    outs.push_back({d, inner.getOutDimSizeLog2(d) + outer.getOutDimSizeLog2(d)});
  for (DimName d : inNames)
    ins.push_back({d, inner.getInDimSizeLog2(d) + outer.getInDimSizeLog2(d)});
  std::span<const Dim> outSpan{outs.begin(), outs.size()};
  std::span<const Dim> inSpan{ins.begin(), ins.size()};
  if (totalBits(inSpan) > kMaxBits || totalBits(outSpan) > kMaxBits)
    return LinearLayout::fromColumns(inSpan, outSpan, {}).error().within("product");

  // The inner operand's fields land at the bottom of each output dim, the outer's above them.
  FieldMoves innerMoves = outMoves(inner.outDims(), outSpan);
  FieldMoves outerMoves;
  {
    int srcOff = 0;
    for (const Dim& d : outer.outDims()) {
      int k = indexOf(outSpan, d.name);
      outerMoves.push_back(
          {srcOff, d.sizeLog2, offsetOf(outSpan, k) + inner.getOutDimSizeLog2(d.name)});
      srcOff += d.sizeLog2;
    }
  }
  FixedVec<uint64_t, kMaxBits> cols;
  for (const Dim& d : ins) {
    int ii = inner.inDimIndex(d.name), oi = outer.inDimIndex(d.name);
    if (ii >= 0)
      for (int b = 0; b < inner.inDims()[ii].sizeLog2; ++b)
        cols.push_back(applyMoves(innerMoves, inner.columns()[inner.inDimOffset(ii) + b]));
    if (oi >= 0)
      for (int b = 0; b < outer.inDims()[oi].sizeLog2; ++b)
        cols.push_back(applyMoves(outerMoves, outer.columns()[outer.inDimOffset(oi) + b]));
  }
  // The names are distinct, the bits within 64 and the columns within the outputs by
  // construction; only a dim of more than 2^63 elements is left for build() to report.
  auto small = [](const Dim& d) { return d.sizeLog2 <= 63; };
  if (std::all_of(ins.begin(), ins.end(), small) && std::all_of(outs.begin(), outs.end(), small))
    return LinearLayout::checkedBuild(inSpan, outSpan, {cols.begin(), cols.size()});
  return LinearLayout::fromColumns(inSpan, outSpan, {cols.begin(), cols.size()});
}

LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer) {
  return product(inner, outer).value();
}

// ---- Compose and invert ---------------------------------------------------------------------

uint64_t LinearLayout::repackOutputs(const LinearLayout& from, uint64_t packed) const {
  return applyMoves(outMoves(from.outDims(), outDims()), packed);
}

Result<LinearLayout> LinearLayout::compose(const LinearLayout& outer) const {
  if (!sameNameSet(outDims(), outer.inDims()))
    return opError("compose", "the output dimensions " + namesOf(outDims()) +
                                  " are not the input dimensions " + namesOf(outer.inDims()) +
                                  " of the outer layout");
  for (std::size_t k = 0; k < outs_.size(); ++k) {
    int i = outer.inDimIndex(outs_[k].name);
    if (outs_[k].sizeLog2 > outer.ins_[i].sizeLog2)
      return opError("compose", "output dimension '" + outs_[k].name.str() + "' has size " +
                                    std::to_string(pow2(outs_[k].sizeLog2)) +
                                    ", larger than the outer layout's input size " +
                                    std::to_string(pow2(outer.ins_[i].sizeLog2)));
  }
  // A packed output of this layout is a flattened input of outer once the fields are moved
  // to outer's input offsets (no move at all when order and sizes agree).
  bool repack = !samePacking(outDims(), outer.inDims());
  FieldMoves moves;
  if (repack)
    moves = outMoves(outDims(), outer.inDims());
  LinearLayout r;
  r.ins_ = ins_;
  r.outs_ = outer.outs_;
  // Indexed stores rather than push_back: FixedVec's uint8_t size_ may alias any store, so
  // push_back reloads and stores it every iteration, a dependency chain through memory.
  std::size_t n = columns_.size();
  r.columns_.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    uint64_t x = repack ? applyMoves(moves, columns_[j]) : columns_[j];
    uint64_t out = 0;
    while (x != 0) {
      out ^= outer.columns_[std::countr_zero(x)];
      x &= x - 1;
    }
    r.columns_[j] = out;
  }
  return r;
}

Result<LinearLayout> LinearLayout::invertAndCompose(const LinearLayout& outer,
                                                    TritonVersion triton) const {
  const LinearLayout& B = *this;
  const LinearLayout& A = outer;
  if (!sameNameSet(B.outDims(), A.outDims()))
    return opError("invertAndCompose", "the output dimensions " + namesOf(B.outDims()) +
                                           " differ from the outer layout's " +
                                           namesOf(A.outDims()));
  bool sameOutSizes = true;
  for (const Dim& d : B.outs_) {
    int a = A.getOutDimSizeLog2(d.name);
    if (a < d.sizeLog2)
      return opError("invertAndCompose", "output dimension '" + d.name.str() + "' has size " +
                                             std::to_string(pow2(d.sizeLog2)) +
                                             ", larger than in the outer layout (" +
                                             std::to_string(pow2(a)) + ")");
    sameOutSizes = sameOutSizes && a == d.sizeLog2;
  }
  // As in Triton, the outer layout need not be surjective: it must cover this layout's image,
  // which the solve below checks.

  // Triton's broadcasting heuristic: an input dim whose sublayouts agree maps by the identity.
  FieldMoves bToA = outMoves(B.outDims(), A.outDims());
  // Usually both pack their outputs alike (always in pseudoinvert): then no move is needed.
  const bool repack = !samePacking(B.outDims(), A.outDims());
  auto toA = [&](uint64_t c) { return repack ? applyMoves(bToA, c) : c; };
  auto isEqualDim = [&](int ai) {
    int bi = B.inDimIndex(A.ins_[ai].name);
    if (bi < 0 || A.ins_[ai].sizeLog2 != B.ins_[bi].sizeLog2)
      return false;
    int aOff = A.inDimOffset(ai), bOff = B.inDimOffset(bi);
    for (int b = 0; b < A.ins_[ai].sizeLog2; ++b)
      if (toA(B.columns_[bOff + b]) != A.columns_[aOff + b])
        return false;
    return true;
  };
  auto isZeroDim = [&](std::size_t ai) {
    int aOff = A.inDimOffset(static_cast<int>(ai));
    for (int b = 0; b < A.ins_[ai].sizeLog2; ++b)
      if (A.columns_[static_cast<std::size_t>(aOff + b)] != 0)
        return false;
    return true;
  };
  uint64_t equalDims = 0; // bit ai set: A's input dim ai equals B's of the same name
  for (std::size_t ai = 0; ai < A.ins_.size(); ++ai)
    if (isEqualDim(static_cast<int>(ai)))
      equalDims |= uint64_t{1} << ai;
  uint64_t identityDims = 0; // bit ai set: A's input dim ai is an identity dim
  if (triton == TritonVersion::v3_6) {
    identityDims = sameOutSizes ? equalDims : 0;
  } else {
    // Triton 3.9: all of this's dims equal to outer's, with spans apart from the rest of
    // outer's, are all identity dims; otherwise only the broadcast (all-zero) ones are.
    bool all = sameOutSizes;
    for (const Dim& d : B.ins_) {
      int ai = A.inDimIndex(d.name);
      all = all && ai >= 0 && ((equalDims >> ai) & 1);
    }
    for (std::size_t ai = 0; all && ai < A.ins_.size(); ++ai) {
      if (((equalDims >> ai) & 1) == 0)
        continue;
      XorBasis mine, others, both;
      for (std::size_t ak = 0, j = 0; ak < A.ins_.size(); ++ak)
        for (int b = 0; b < A.ins_[ak].sizeLog2; ++b, ++j) {
          (ak == ai ? mine : others).insert(A.columns_[j], 0);
          both.insert(A.columns_[j], 0);
        }
      all = both.rank() == mine.rank() + others.rank();
    }
    for (std::size_t ai = 0; ai < A.ins_.size(); ++ai)
      if (((equalDims >> ai) & 1) && (all || isZeroDim(ai)))
        identityDims |= uint64_t{1} << ai;
  }
  // Least squares with the free variables at 0: insert A's columns in order, tagging each
  // with its own flattened input bit; dependent columns are dropped, so every solution is
  // supported on pivot columns only. Triton 3.6 leaves the identity dims' columns out.
  XorBasis basis;
  for (std::size_t ai = 0, j = 0; ai < A.ins_.size(); ++ai)
    for (int b = 0; b < A.ins_[ai].sizeLog2; ++b, ++j)
      if (((identityDims >> ai) & 1) == 0 || triton != TritonVersion::v3_6)
        basis.insert(A.columns_[j], uint64_t{1} << j);

  LinearLayout r;
  r.ins_ = B.ins_;
  r.outs_ = A.ins_;
  for (std::size_t bi = 0, j = 0; bi < B.ins_.size(); ++bi) {
    int ai = A.inDimIndex(B.ins_[bi].name);
    bool identity = ai >= 0 && ((identityDims >> ai) & 1);
    for (int b = 0; b < B.ins_[bi].sizeLog2; ++b, ++j) {
      if (identity) {
        r.columns_.push_back(uint64_t{1} << (A.inDimOffset(ai) + b));
        continue;
      }
      auto x = basis.solve(toA(B.columns_[j]));
      if (!x)
        return opError("invertAndCompose",
                       "the outer layout does not cover this layout's image: " +
                           B.ins_[bi].name.str() + "=" + std::to_string(uint64_t{1} << b) +
                           " maps outside it (once the input dims both layouts map alike are "
                           "set aside)");
      r.columns_.push_back(*x);
    }
  }
  return r;
}

Result<LinearLayout> LinearLayout::invert(TritonVersion triton) const {
  if (!isInvertible())
    return opError("invert", "the layout is not invertible (" +
                                 std::to_string(getTotalInDimSizeLog2()) + " input bits, " +
                                 std::to_string(getTotalOutDimSizeLog2()) + " output bits, rank " +
                                 std::to_string(rank()) + ")");
  return pseudoinvert(triton);
}

Result<LinearLayout> LinearLayout::pseudoinvert(TritonVersion triton) const {
  if (!isSurjective())
    return opError("pseudoinvert", "the layout is not surjective (rank " + std::to_string(rank()) +
                                       " < " + std::to_string(getTotalOutDimSizeLog2()) +
                                       " output bits), so it has no right inverse");
  LinearLayout identity;
  identity.ins_ = outs_;
  identity.outs_ = outs_;
  for (int j = 0; j < getTotalOutDimSizeLog2(); ++j)
    identity.columns_.push_back(uint64_t{1} << j);
  return identity.invertAndCompose(*this, triton);
}

// ---- Restructuring --------------------------------------------------------------------------

Result<LinearLayout> LinearLayout::sublayout(const std::vector<DimName>& inNames,
                                             const std::vector<DimName>& outNames) const {
  for (DimName d : inNames)
    if (!hasInDim(d))
      return opError("sublayout",
                     "'" + d.str() + "' is not an input dimension of " + namesOf(inDims()));
  for (DimName d : outNames)
    if (!hasOutDim(d))
      return opError("sublayout",
                     "'" + d.str() + "' is not an output dimension of " + namesOf(outDims()));
  auto keep = [](const std::vector<DimName>& v, DimName d) {
    return std::find(v.begin(), v.end(), d) != v.end();
  };
  FixedVec<Dim, kMaxDims> ins, outs;
  for (const Dim& d : outs_)
    if (keep(outNames, d.name))
      outs.push_back(d);
  FieldMoves moves = outMoves(outDims(), {outs.begin(), outs.size()});
  FixedVec<uint64_t, kMaxBits> cols;
  int j = 0;
  for (const Dim& d : ins_) {
    bool kept = keep(inNames, d.name);
    if (kept)
      ins.push_back(d);
    for (int b = 0; b < d.sizeLog2; ++b, ++j)
      if (kept)
        cols.push_back(applyMoves(moves, columns_[j]));
  }
  return build({ins.begin(), ins.size()}, {outs.begin(), outs.size()}, {cols.begin(), cols.size()});
}

Result<bool> LinearLayout::sublayoutIsZero(const std::vector<DimName>& inNames,
                                           const std::vector<DimName>& outNames) const {
  auto s = sublayout(inNames, outNames);
  if (!s.ok())
    return s.error();
  for (uint64_t c : s->columns())
    if (c != 0)
      return false;
  return true;
}

namespace {
/// Validates a list of new dimension sizes for reshape: powers of two, distinct names, total
/// bits `expectBits`.
Result<FixedVec<Dim, kMaxDims>> reshapeDims(const char* op, const std::vector<DimSize>& dims,
                                            int expectBits) {
  if (dims.size() > kMaxDims)
    return opError(op, "more than " + std::to_string(kMaxDims) + " dimensions");
  FixedVec<Dim, kMaxDims> out;
  int bits = 0;
  for (const DimSize& d : dims) {
    if (!isPow2(d.size))
      return opError(op, "size " + std::to_string(d.size) + " of '" + d.name.str() +
                             "' is not a power of two");
    out.push_back({d.name, log2Exact(d.size)});
    bits += log2Exact(d.size);
  }
  if (bits != expectBits)
    return opError(op, "the new dimensions have 2^" + std::to_string(bits) +
                           " elements, the layout has 2^" + std::to_string(expectBits));
  return out;
}
} // namespace

Result<LinearLayout> LinearLayout::reshapeIns(const std::vector<DimSize>& newIns) const {
  auto dims = reshapeDims("reshapeIns", newIns, getTotalInDimSizeLog2());
  if (!dims.ok())
    return dims.error();
  return build({dims->begin(), dims->size()}, outDims(), columns());
}

Result<LinearLayout> LinearLayout::reshapeOuts(const std::vector<DimSize>& newOuts) const {
  // The packed column already is the flattened output, so only the labels change.
  auto dims = reshapeDims("reshapeOuts", newOuts, getTotalOutDimSizeLog2());
  if (!dims.ok())
    return dims.error();
  return build(inDims(), {dims->begin(), dims->size()}, columns());
}

LinearLayout LinearLayout::flattenIns() const {
  if (ins_.empty())
    return *this;
  Dim d{ins_[0].name, getTotalInDimSizeLog2()};
  return build({&d, 1}, outDims(), columns()).value();
}

LinearLayout LinearLayout::flattenOuts() const {
  if (outs_.empty())
    return *this;
  Dim d{outs_[0].name, getTotalOutDimSizeLog2()};
  return build(inDims(), {&d, 1}, columns()).value();
}

Result<LinearLayout> LinearLayout::transposeIns(const std::vector<DimName>& order) const {
  // Checked first: a longer list (names repeated) would not fit the fixed-size dim list.
  if (order.size() != ins_.size())
    return opError("transposeIns",
                   joinNames(order) + " is not a permutation of " + namesOf(inDims()));
  FixedVec<Dim, kMaxDims> ins;
  for (DimName d : order) {
    int i = inDimIndex(d);
    if (i < 0)
      return opError("transposeIns",
                     "'" + d.str() + "' is not an input dimension of " + namesOf(inDims()));
    ins.push_back(ins_[i]);
  }
  if (!sameNameSet({ins.begin(), ins.size()}, inDims()))
    return opError("transposeIns",
                   joinNames(order) + " is not a permutation of " + namesOf(inDims()));
  FixedVec<uint64_t, kMaxBits> cols;
  for (const Dim& d : ins) {
    int off = inDimOffset(inDimIndex(d.name));
    for (int b = 0; b < d.sizeLog2; ++b)
      cols.push_back(columns_[off + b]);
  }
  return build({ins.begin(), ins.size()}, outDims(), {cols.begin(), cols.size()});
}

Result<LinearLayout> LinearLayout::transposeOuts(const std::vector<DimName>& order) const {
  return transposeOuts(std::span<const DimName>(order));
}

Result<LinearLayout> LinearLayout::transposeOuts(std::span<const DimName> order) const {
  // The encodings often ask for the order a layout already has.
  if (order.size() == outs_.size() &&
      std::equal(order.begin(), order.end(), outs_.begin(),
                 [](DimName n, const Dim& d) { return n == d.name; }))
    return *this;
  // Checked first: a longer list (names repeated) would not fit the fixed-size dim list.
  if (order.size() != outs_.size())
    return opError("transposeOuts",
                   joinNames(order) + " is not a permutation of " + namesOf(outDims()));
  FixedVec<Dim, kMaxDims> outs;
  for (DimName d : order) {
    int k = outDimIndex(d);
    if (k < 0)
      return opError("transposeOuts",
                     "'" + d.str() + "' is not an output dimension of " + namesOf(outDims()));
    outs.push_back(outs_[k]);
  }
  if (!sameNameSet({outs.begin(), outs.size()}, outDims()))
    return opError("transposeOuts",
                   joinNames(order) + " is not a permutation of " + namesOf(outDims()));
  FieldMoves moves = outMoves(outDims(), {outs.begin(), outs.size()});
  FixedVec<uint64_t, kMaxBits> cols;
  for (uint64_t c : columns_)
    cols.push_back(applyMoves(moves, c));
  return build(inDims(), {outs.begin(), outs.size()}, {cols.begin(), cols.size()});
}

Result<LinearLayout> LinearLayout::concatIns(const LinearLayout& other) const {
  if (!(outs_ == other.outs_))
    return opError("concatIns", "the output dimensions differ: " + namesOf(outDims()) + " and " +
                                    namesOf(other.outDims()) +
                                    " (names, order and sizes must match)");
  std::vector<Dim> ins(ins_.begin(), ins_.end());
  ins.insert(ins.end(), other.ins_.begin(), other.ins_.end());
  std::vector<uint64_t> cols(columns_.begin(), columns_.end());
  cols.insert(cols.end(), other.columns_.begin(), other.columns_.end());
  auto r = build(ins, outDims(), cols);
  if (!r.ok())
    return r.error().within("concatIns");
  return r;
}

Result<LinearLayout> LinearLayout::concatOuts(const LinearLayout& other) const {
  if (!(ins_ == other.ins_))
    return opError("concatOuts", "the input dimensions differ: " + namesOf(inDims()) + " and " +
                                     namesOf(other.inDims()) +
                                     " (names, order and sizes must match)");
  std::vector<Dim> outs(outs_.begin(), outs_.end());
  outs.insert(outs.end(), other.outs_.begin(), other.outs_.end());
  int shift = getTotalOutDimSizeLog2();
  if (shift + other.getTotalOutDimSizeLog2() > kMaxBits)
    return build(inDims(), outs, columns()).error().within("concatOuts");
  std::vector<uint64_t> cols;
  for (std::size_t j = 0; j < columns_.size(); ++j)
    cols.push_back(columns_[j] | (shift < 64 ? other.columns_[j] << shift : 0));
  auto r = build(inDims(), outs, cols);
  if (!r.ok())
    return r.error().within("concatOuts");
  return r;
}

Result<LinearLayout> LinearLayout::resizeInDim(DimName dim, uint64_t newSize) const {
  int i = inDimIndex(dim);
  if (i < 0)
    return opError("resizeInDim", "'" + dim.str() + "' is not an input dimension");
  if (!isPow2(newSize) || log2Exact(newSize) > ins_[i].sizeLog2)
    return opError("resizeInDim", "new size " + std::to_string(newSize) + " of '" + dim.str() +
                                      "' must be a power of two no larger than " +
                                      std::to_string(pow2(ins_[i].sizeLog2)));
  FixedVec<Dim, kMaxDims> ins = ins_;
  ins[i].sizeLog2 = log2Exact(newSize);
  std::vector<uint64_t> cols;
  for (std::size_t k = 0, j = 0; k < ins_.size(); ++k)
    for (int b = 0; b < ins_[k].sizeLog2; ++b, ++j)
      if (b < ins[k].sizeLog2)
        cols.push_back(columns_[j]);
  return build({ins.begin(), ins.size()}, outDims(), cols);
}

Result<LinearLayout> LinearLayout::resizeOutDim(DimName dim, uint64_t newSize) const {
  int k = outDimIndex(dim);
  if (k < 0)
    return opError("resizeOutDim", "'" + dim.str() + "' is not an output dimension");
  if (!isPow2(newSize) || log2Exact(newSize) > outs_[k].sizeLog2)
    return opError("resizeOutDim", "new size " + std::to_string(newSize) + " of '" + dim.str() +
                                       "' must be a power of two no larger than " +
                                       std::to_string(pow2(outs_[k].sizeLog2)));
  FixedVec<Dim, kMaxDims> outs = outs_;
  outs[k].sizeLog2 = log2Exact(newSize);
  int off = outDimOffset(k);
  FieldMoves moves = outMoves(outDims(), {outs.begin(), outs.size()});
  std::vector<uint64_t> cols;
  for (uint64_t c : columns_) {
    uint64_t v = outs_[k].sizeLog2 > 0 ? (c >> off) & lowMask(outs_[k].sizeLog2) : 0;
    if (v >= newSize) // Triton drops such values rather than masking them
      c &= ~(lowMask(outs_[k].sizeLog2) << off);
    cols.push_back(applyMoves(moves, c));
  }
  return build(inDims(), {outs.begin(), outs.size()}, cols);
}

Result<LinearLayout> LinearLayout::renameInDim(DimName from, DimName to) const {
  int i = inDimIndex(from);
  if (i < 0)
    return opError("renameInDim", "'" + from.str() + "' is not an input dimension");
  if (to.empty())
    return opError("renameInDim", "the new name of '" + from.str() + "' is empty");
  if (from != to && hasInDim(to))
    return opError("renameInDim", "'" + to.str() + "' is already an input dimension");
  LinearLayout r = *this;
  r.ins_[i].name = to;
  return r;
}

Result<LinearLayout> LinearLayout::renameOutDim(DimName from, DimName to) const {
  int k = outDimIndex(from);
  if (k < 0)
    return opError("renameOutDim", "'" + from.str() + "' is not an output dimension");
  if (to.empty())
    return opError("renameOutDim", "the new name of '" + from.str() + "' is empty");
  if (from != to && hasOutDim(to))
    return opError("renameOutDim", "'" + to.str() + "' is already an output dimension");
  LinearLayout r = *this;
  r.outs_[k].name = to;
  return r;
}

Result<LinearLayout> LinearLayout::squeezeIns(DimName dim) const {
  int i = inDimIndex(dim);
  if (i < 0 || ins_[i].sizeLog2 != 0)
    return opError("squeezeIns", "'" + dim.str() + "' is not an input dimension of size 1");
  LinearLayout r;
  for (const Dim& d : ins_)
    if (d.name != dim)
      r.ins_.push_back(d);
  r.outs_ = outs_;
  r.columns_ = columns_;
  return r;
}

Result<LinearLayout> LinearLayout::squeezeOuts(DimName dim) const {
  int k = outDimIndex(dim);
  if (k < 0 || outs_[k].sizeLog2 != 0)
    return opError("squeezeOuts", "'" + dim.str() + "' is not an output dimension of size 1");
  LinearLayout r = *this; // a size-1 dim occupies no bits of the packed columns
  r.outs_.clear();
  for (const Dim& d : outs_)
    if (d.name != dim)
      r.outs_.push_back(d);
  return r;
}

LinearLayout LinearLayout::squeezeIns() const {
  LinearLayout r = *this;
  r.ins_.clear();
  for (const Dim& d : ins_)
    if (d.sizeLog2 != 0)
      r.ins_.push_back(d);
  return r;
}

LinearLayout LinearLayout::squeezeOuts() const {
  LinearLayout r = *this;
  r.outs_.clear();
  for (const Dim& d : outs_)
    if (d.sizeLog2 != 0)
      r.outs_.push_back(d);
  return r;
}

Result<LinearLayout> LinearLayout::removeZeroBasesAlongDim(DimName dim) const {
  int i = inDimIndex(dim);
  if (i < 0)
    return opError("removeZeroBasesAlongDim", "'" + dim.str() + "' is not an input dimension");
  LinearLayout r;
  r.outs_ = outs_;
  for (std::size_t k = 0, j = 0; k < ins_.size(); ++k) {
    Dim d = ins_[k];
    int kept = 0;
    for (int b = 0; b < ins_[k].sizeLog2; ++b, ++j)
      if (static_cast<int>(k) != i || columns_[j] != 0) {
        r.columns_.push_back(columns_[j]);
        ++kept;
      }
    d.sizeLog2 = kept;
    r.ins_.push_back(d);
  }
  return r;
}

// ---- Comparison -----------------------------------------------------------------------------

bool LinearLayout::equalIgnoringOutDimSizes(const LinearLayout& other) const {
  if (!(ins_ == other.ins_) || outs_.size() != other.outs_.size())
    return false;
  for (std::size_t k = 0; k < outs_.size(); ++k)
    if (outs_[k].name != other.outs_[k].name)
      return false;
  for (std::size_t j = 0; j < columns_.size(); ++j)
    if (unpackOut(columns_[j]) != other.unpackOut(other.columns_[j]))
      return false;
  return true;
}

std::size_t LinearLayout::hash() const {
  std::size_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  for (const Dim& d : ins_) {
    mix(d.name.id());
    mix(static_cast<uint64_t>(d.sizeLog2));
  }
  for (const Dim& d : outs_) {
    mix(d.name.id() + (uint64_t{1} << 40));
    mix(static_cast<uint64_t>(d.sizeLog2));
  }
  for (uint64_t c : columns_)
    mix(c);
  return h;
}

// ---- Division -------------------------------------------------------------------------------

std::optional<LinearLayout> divideLeft(const LinearLayout& A, const LinearLayout& B) {
  for (const Dim& d : B.inDims())
    if (!A.hasInDim(d.name))
      return std::nullopt;
  for (const Dim& d : B.outDims())
    if (!A.hasOutDim(d.name) || A.getOutDimSizeLog2(d.name) < d.sizeLog2)
      return std::nullopt;
  std::vector<DimSize> cOuts;
  for (const Dim& d : A.outDims())
    cOuts.push_back({d.name, uint64_t{1} << (d.sizeLog2 - B.getOutDimSizeLog2(d.name))});
  std::vector<DimBases> cBases;
  for (const Dim& d : A.inDims()) {
    int inB = B.getInDimSizeLog2(d.name);
    if (d.sizeLog2 < inB)
      return std::nullopt;
    DimBases cb{d.name, {}};
    for (int i = 0; i < d.sizeLog2; ++i) {
      std::vector<uint64_t> a = A.getBasis(d.name, i);
      if (i < inB) {
        // B's part: A's first bases of this dim are B's, zero outside B's outputs.
        for (std::size_t k = 0; k < a.size(); ++k) {
          DimName o = A.outDims()[k].name;
          uint64_t expected = B.hasOutDim(o) ? B.getBasis(d.name, i, o) : 0;
          if (a[k] != expected)
            return std::nullopt;
        }
        continue;
      }
      std::vector<uint64_t> c;
      for (std::size_t k = 0; k < a.size(); ++k) {
        int shift = B.getOutDimSizeLog2(A.outDims()[k].name);
        if ((a[k] & ((uint64_t{1} << shift) - 1)) != 0)
          return std::nullopt;
        c.push_back(a[k] >> shift);
      }
      cb.bases.push_back(std::move(c));
    }
    cBases.push_back(std::move(cb));
  }
  auto C = LinearLayout::create(cBases, cOuts, /*requireSurjective=*/false);
  if (!C.ok())
    return std::nullopt;
  auto check = product(B, *C);
  if (!check.ok() || !(*check == A))
    return std::nullopt;
  return *C;
}

std::optional<LinearLayout> divideRight(const LinearLayout& A, const LinearLayout& B) {
  for (const Dim& d : B.inDims())
    if (!A.hasInDim(d.name))
      return std::nullopt;
  for (const Dim& d : B.outDims())
    if (!A.hasOutDim(d.name) || A.getOutDimSizeLog2(d.name) < d.sizeLog2)
      return std::nullopt;
  std::vector<DimSize> cOuts;
  for (const Dim& d : A.outDims())
    cOuts.push_back({d.name, uint64_t{1} << (d.sizeLog2 - B.getOutDimSizeLog2(d.name))});
  std::vector<DimBases> cBases;
  for (const Dim& d : A.inDims()) {
    int inC = d.sizeLog2 - B.getInDimSizeLog2(d.name);
    if (inC < 0)
      return std::nullopt;
    DimBases cb{d.name, {}};
    for (int i = 0; i < inC; ++i)
      cb.bases.push_back(A.getBasis(d.name, i));
    cBases.push_back(std::move(cb));
  }
  // C's values must fit C's output sizes; B's part is checked by the product below.
  auto C = LinearLayout::create(cBases, cOuts, /*requireSurjective=*/false);
  if (!C.ok())
    return std::nullopt;
  auto check = product(*C, B);
  if (!check.ok() || !(*check == A))
    return std::nullopt;
  return *C;
}

} // namespace llcheck
