// CuTe layouts and swizzles as linear layouts (Cute.h), checked three ways:
//  - by enumeration, against a direct evaluation of CuTe's formulas written here from CuTe's
//    definitions (integer offsets, Swizzle's yyy mask and shiftr, swizzle_ptr on byte
//    addresses), on every input of every layout;
//  - on random layouts: the conversion accepts a layout exactly when enumeration finds it
//    F2-linear (f(a xor b) = f(a) xor f(b) for every pair of inputs);
//  - against Triton: the 32/64/128-byte #ttg.nvmma_shared encodings are CUTLASS's GMMA swizzle
//    atoms, Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3> over byte addresses (16-byte units), K- and MN-major.
#include "llcheck/core/Cute.h"
#include "llcheck/core/Spec.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>
#include <random>
#include <string>

namespace llcheck {
namespace {

/// CuTe's Swizzle<B,M,S>::apply, spelled as swizzle.hpp spells it.
uint64_t cuteSwizzle(int bBits, int mBase, int sShift, uint64_t offset) {
  uint64_t bitMsk = (uint64_t{1} << bBits) - 1;
  uint64_t yyyMsk = bitMsk << (mBase + std::max(0, sShift));
  uint64_t y = offset & yyyMsk;
  uint64_t shifted = sShift >= 0 ? y >> sShift : y << -sShift;
  return offset ^ shifted;
}

/// The composed layout at a coordinate given as one index per top-level mode: the index is split
/// into the mode's leaf coordinates colexicographically, the offset is the integer inner product
/// with the strides, and the swizzle acts on the byte address when there is a pointer.
uint64_t evaluate(const CuteLayout& l, const std::vector<uint64_t>& index) {
  uint64_t offset = 0;
  for (std::size_t k = 0; k < l.modes.size(); ++k) {
    uint64_t rest = index[k];
    for (const CuteLeaf& leaf : l.modes[k]) {
      offset += (rest % leaf.shape) * leaf.stride;
      rest /= leaf.shape;
    }
  }
  if (!l.swizzle)
    return offset;
  uint64_t bytes = l.elementBits ? static_cast<uint64_t>(l.elementBits / 8) : 1;
  return cuteSwizzle(l.swizzle->bits, l.swizzle->base, l.swizzle->shift, offset * bytes) / bytes;
}

uint64_t modeSize(const CuteLayout& l, std::size_t k) {
  uint64_t n = 1;
  for (const CuteLeaf& leaf : l.modes[k])
    n *= leaf.shape;
  return n;
}

/// Every coordinate of the layout, as one index per mode.
std::vector<std::vector<uint64_t>> allCoordinates(const CuteLayout& l) {
  std::vector<std::vector<uint64_t>> out{{}};
  for (std::size_t k = 0; k < l.modes.size(); ++k) {
    std::vector<std::vector<uint64_t>> next;
    for (const auto& c : out)
      for (uint64_t i = 0; i < modeSize(l, k); ++i) {
        next.push_back(c);
        next.back().push_back(i);
      }
    out = std::move(next);
  }
  return out;
}

Point coordinatePoint(const std::vector<uint64_t>& index) {
  Point p;
  for (std::size_t k = 0; k < index.size(); ++k)
    p.push_back({dims::standardOut(static_cast<int>(k)), index[k]});
  return p;
}

CuteLayout parsed(const std::string& text) {
  auto l = parseCuteLayout(text);
  if (!l.ok())
    throw std::runtime_error(text + ": " + l.error().str());
  return *l;
}

/// The forward layout equals CuTe's formula on every coordinate; where it is a bijection, the
/// shared layout is its inverse on every offset.
void expectMatchesCute(const std::string& text) {
  CuteLayout l = parsed(text);
  auto forward = cuteForwardLayout(l);
  ASSERT_TRUE(forward.ok()) << text << ": " << forward.error().str();
  auto coords = allCoordinates(l);
  for (const auto& c : coords) {
    auto got = forward->apply(coordinatePoint(c));
    ASSERT_TRUE(got.ok());
    ASSERT_EQ((*got)[0].second, evaluate(l, c)) << text;
  }
  auto shared = cuteSharedLayout(l);
  if (!forward->isInvertible()) {
    EXPECT_FALSE(shared.ok()) << text;
    return;
  }
  ASSERT_TRUE(shared.ok()) << text << ": " << shared.error().str();
  for (const auto& c : coords) {
    Point in{{dims::kOffset, evaluate(l, c)}, {dims::kBlock, 0}};
    ASSERT_EQ(shared->apply(in).value(), coordinatePoint(c)) << text;
  }
}

TEST(Cute, MatchesCuteFormulaOnEveryInput) {
  for (const char* text : {
           "Swizzle<3,4,3>",
           "Sw<2,0,-3>",
           "Sw<1,2,5>",
           "cute:Sw<3,3,3> o (8,64):(64,1)",
           "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)",
           "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)",
           "Sw<2,4,3> o smem_ptr[32b] o (16,16):(1,16)",
           "Sw<3,4,3> o smem_ptr[8b] o ((8,2),(32,4)):((128,1024),(1,2048))",
           "Sw<3,4,3> o smem_ptr[16b] o (64,8):LayoutLeft",
           "Sw<2,1,3> o (16,32):LayoutRight",
           "(8,64)",
           "64:1",
           "(4,(2,8)):(0,(1,16))",
           "(2,2):(3,4)",
           "(4,4):(5,32)",
       })
    expectMatchesCute(text);
}

/// make_layout(shape), LayoutLeft and LayoutRight are compact: the strides are the running
/// products of the leaf sizes (from the first leaf, or from the last for LayoutRight), so every
/// power-of-two shape gives a bijection. A product that wrapped to 0 once gave every leaf after
/// the first stride 0 and refused (64,8) as "not a bijection".
TEST(Cute, CompactShapesAreBijections) {
  int checked = 0;
  for (uint64_t a = 1; a <= 64; a *= 2)
    for (uint64_t b = 1; b <= 64; b *= 2)
      for (uint64_t c : {uint64_t{0}, uint64_t{1}, uint64_t{4}, uint64_t{32}})
        for (const char* suffix : {"", ":LayoutLeft", ":LayoutRight"}) {
          std::vector<uint64_t> sizes = {a, b};
          if (c)
            sizes.push_back(c);
          std::string text = "(" + std::to_string(a) + "," + std::to_string(b) +
                             (c ? "," + std::to_string(c) : "") + ")" + suffix;
          CuteLayout l = parsed(text);
          bool right = std::string(suffix) == ":LayoutRight";
          std::vector<uint64_t> want(sizes.size());
          uint64_t acc = 1;
          for (std::size_t i = 0; i < sizes.size(); ++i) {
            std::size_t k = right ? sizes.size() - 1 - i : i;
            want[k] = acc;
            acc *= sizes[k];
          }
          ASSERT_EQ(l.modes.size(), sizes.size()) << text;
          for (std::size_t k = 0; k < sizes.size(); ++k)
            EXPECT_EQ(l.modes[k][0].stride, want[k]) << text << " mode " << k;
          auto shared = cuteSharedLayout(l);
          ASSERT_TRUE(shared.ok()) << text << ": " << shared.error().str();
          expectMatchesCute(text);
          ++checked;
        }
  EXPECT_EQ(checked, 7 * 7 * 4 * 3);
}

/// Brute force: f is F2-linear when f(a xor b) = f(a) xor f(b) for every pair of input points.
bool bruteForceLinear(const CuteLayout& l) {
  auto coords = allCoordinates(l);
  std::vector<uint64_t> value;
  for (const auto& c : coords)
    value.push_back(evaluate(l, c));
  // Coordinates are listed with mode 0 slowest; pack them to flat bit vectors the same way.
  std::vector<int> bits;
  for (std::size_t k = 0; k < l.modes.size(); ++k)
    bits.push_back(std::countr_zero(modeSize(l, k)));
  auto flat = [&](const std::vector<uint64_t>& c) {
    uint64_t f = 0;
    for (std::size_t k = 0; k < c.size(); ++k)
      f = (f << bits[k]) | c[k];
    return f;
  };
  for (std::size_t a = 0; a < coords.size(); ++a)
    for (std::size_t b = 0; b < coords.size(); ++b)
      if (value[flat(coords[a]) ^ flat(coords[b])] != (value[a] ^ value[b]))
        return false;
  return true;
}

TEST(Cute, AcceptsExactlyTheLinearLayouts) {
  std::mt19937_64 rng(7);
  auto pick = [&](std::vector<uint64_t> v) { return v[rng() % v.size()]; };
  int linear = 0, nonLinear = 0;
  for (int t = 0; t < 600; ++t) {
    std::string text;
    if (rng() % 2) {
      int b = static_cast<int>(rng() % 3), s = b + static_cast<int>(rng() % 3);
      text = "Sw<" + std::to_string(b) + "," + std::to_string(rng() % 3) + "," +
             std::to_string(rng() % 2 ? s : -s) + "> o ";
    }
    std::size_t rank = 1 + rng() % 2;
    std::string shape = "(", stride = "(";
    for (std::size_t k = 0; k < rank; ++k) {
      shape += (k ? "," : "") + std::to_string(pick({1, 2, 4, 8}));
      stride += (k ? "," : "") + std::to_string(pick({0, 1, 2, 3, 4, 5, 6, 8, 16, 32}));
    }
    text += shape + "):" + stride + ")";
    CuteLayout l = parsed(text);
    bool expected = bruteForceLinear(l);
    auto forward = cuteForwardLayout(l);
    ASSERT_EQ(forward.ok(), expected) << text << (forward.ok() ? "" : ": " + forward.error().str());
    (expected ? linear : nonLinear)++;
    if (expected)
      expectMatchesCute(text);
  }
  // The sample must exercise both answers.
  EXPECT_GT(linear, 100);
  EXPECT_GT(nonLinear, 100);
}

LinearLayout loaded(const std::string& spec, std::vector<uint64_t> shape = {}) {
  LayoutContext o;
  if (!shape.empty())
    o.shape = shape;
  auto l = loadSpec(spec, o);
  if (!l.ok())
    throw std::runtime_error(spec + ": " + l.error().str());
  return l->layout;
}

// CUTLASS's GMMA atoms (cute/atom/mma_traits_sm90_gmma.hpp): Layout_K_SW{32,64,128}_Atom is
// Sw<{1,2,3},4,3> o smem_ptr o (8, W/bytes):(W/bytes, 1), the MN-major atoms are the transpose,
// and tile_to_shape repeats an atom down the rows, then across the columns.
TEST(Cute, NvmmaSharedIsCuteGmmaSwizzle) {
  int checked = 0;
  for (int bits : {8, 16, 32})
    for (int width : {32, 64, 128})
      for (bool transposed : {false, true})
        for (uint64_t rows : {8, 16, 64})
          for (uint64_t atoms : {1, 2}) {
            int b = std::countr_zero(static_cast<unsigned>(width / 16));
            uint64_t cols = static_cast<uint64_t>(width * 8 / bits);
            std::string sw = "cute:Sw<" + std::to_string(b) + ",4,3> o smem_ptr[" +
                             std::to_string(bits) + "b] o ";
            // Contiguous mode: (cols, atoms):(1, rows*cols); the other: rows:cols.
            std::string contiguous = "(" + std::to_string(cols) + "," + std::to_string(atoms) + ")";
            std::string contiguousStride = "(1," + std::to_string(rows * cols) + ")";
            std::string cute = transposed
                                   ? sw + "(" + contiguous + "," + std::to_string(rows) + "):(" +
                                         contiguousStride + "," + std::to_string(cols) + ")"
                                   : sw + "(" + std::to_string(rows) + "," + contiguous + "):(" +
                                         std::to_string(cols) + "," + contiguousStride + ")";
            std::vector<uint64_t> shape = transposed ? std::vector<uint64_t>{cols * atoms, rows}
                                                     : std::vector<uint64_t>{rows, cols * atoms};
            std::string attr = "#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(width) +
                               ", transposed = " + (transposed ? "true" : "false") +
                               ", elementBitWidth = " + std::to_string(bits) + "}>";
            LinearLayout nvmma = loaded(attr, shape);
            EXPECT_EQ(loaded(cute), nvmma) << cute << "\n" << attr;
            // The comparison can fail: the same layout without its swizzle, or with the swizzle
            // one bit off, is a different layout.
            std::string plain = cute.substr(cute.find(" o smem_ptr") + 3);
            EXPECT_NE(loaded("cute:" + plain), nvmma) << plain;
            std::string shifted = cute;
            shifted.replace(shifted.find(",4,3>"), 5, ",5,3>");
            EXPECT_NE(loaded(shifted), nvmma) << shifted;
            ++checked;
          }
  EXPECT_EQ(checked, 108);
}

void expectError(const std::string& text, const std::string& fragment) {
  LayoutContext o;
  auto l = loadSpec(text, o);
  ASSERT_FALSE(l.ok()) << text;
  EXPECT_NE(l.error().str().find(fragment), std::string::npos) << text << ": " << l.error().str();
}

TEST(Cute, RefusesWhatIsNotLinearWithAReason) {
  expectError("cute:(3,4):(4,1)", "shape 3, not a power of two");
  expectError("cute:(4,4):(1,2)", "(2,0) -> 2 and (0,1) -> 2, but (2,1) -> 4, not 2 xor 2 = 0");
  expectError("cute:8:3", "(1) -> 3 and (2) -> 6, but (3) -> 9, not 3 xor 6 = 5");
  expectError("cute:(8,8):(8,0)", "not a bijection");
  expectError("cute:(8,8):(16,1)", "not a bijection");
  expectError("cute:Sw<3,3,3> o 4 o (8,64):(64,1)", "affine");
  expectError("cute:Sw<3,4,2> o (8,64):(64,1)", "|S| >= B");
  expectError("cute:Sw<3,0,3> o smem_ptr[16b] o (8,64):(64,1)", "within an element");
  expectError("cute:Sw<3,4,3> o smem_ptr[12b] o (8,64):(64,1)", "power-of-two number of bytes");
  expectError("cute:(8,64):(64,1,2)", "not congruent");
  expectError("cute:(8,64):(-64,1)", "negative");
  expectError("cute:(8,64", "CuTe layout at column 11: expected ',' or ')'");
  expectError("cute:(8,64):(64,1) o Sw<3,4,3>", "unexpected text");
  expectError("cute:", "expected a CuTe layout");
}

} // namespace
} // namespace llcheck
