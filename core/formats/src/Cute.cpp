// CuTe's text form read into a CuteLayout (see Cute.h); the layouts are computed in
// encodings/Cute.cpp.
#include "llcheck/core/Cute.h"

#include <bit>
#include <cctype>
#include <cstdlib>

namespace llcheck {

namespace {

constexpr uint64_t kMaxValue = uint64_t{1} << 40;
/// Compact strides saturate here (the layout check refuses strides whose bits reach 2^62).
constexpr uint64_t kMaxStride = uint64_t{1} << 62;

/// A shape or stride: an integer or a tuple of them, with the column it starts at.
struct Node {
  bool leaf = true;
  uint64_t value = 0;
  std::vector<Node> kids;
  int column = 1;
};

class Parser {
public:
  explicit Parser(std::string_view text) : s_(text) {}

  Result<CuteLayout> parse() {
    CuteLayout out;
    skipWs();
    if (startsWith("cute:"))
      pos_ += 5;
    enum Stage { kSwizzle, kPointer, kOffset, kLayout } stage = kSwizzle;
    bool haveLayout = false;
    while (true) {
      skipWs();
      if (atEnd())
        return fail(haveLayout || out.swizzle ? "expected 'o' and a layout after the swizzle"
                                              : "expected a CuTe layout such as "
                                                "Sw<3,4,3> o (8,64):(64,1)");
      int column = col();
      if (startsWith("Swizzle<") || startsWith("Sw<")) {
        if (stage != kSwizzle)
          return fail("the swizzle must come first, as CuTe composes it outermost");
        auto sw = parseSwizzle();
        if (!sw.ok())
          return sw.error();
        out.swizzle = *sw;
        stage = kPointer;
      } else if (startsWith("smem_ptr")) {
        if (stage > kPointer)
          return fail("smem_ptr[Nb] must come right after the swizzle");
        pos_ += 8;
        if (!eat('['))
          return fail("expected '[' after smem_ptr, as in smem_ptr[16b]");
        auto bits = parseUnsigned();
        if (!bits.ok())
          return bits.error();
        if (!eat('b') || !eat(']'))
          return fail("expected 'b]' after the element width, as in smem_ptr[16b]");
        if (*bits == 0 || *bits % 8 != 0 || !std::has_single_bit(*bits / 8) || *bits > 1024)
          return failAt(column, "smem_ptr[" + std::to_string(*bits) +
                                    "b]: the element width must be 8, 16, 32, 64, ... bits (a "
                                    "power-of-two number of bytes)");
        out.elementBits = static_cast<int>(*bits);
        skipWs();
        if (startsWith("(unset)"))
          pos_ += 7;
        stage = kOffset;
      } else {
        auto shape = parseTuple();
        if (!shape.ok())
          return shape.error();
        skipWs();
        if (!atEnd() && peek() == ':') {
          ++pos_;
          skipWs();
          auto modes = parseStride(*shape);
          if (!modes.ok())
            return modes.error();
          out.modes = std::move(*modes);
          haveLayout = true;
        } else if (isCompose()) {
          // An integer composed before the layout is ComposedLayout's offset.
          if (stage > kOffset || !shape->leaf)
            return failAt(column, "expected a stride ':(...)' after the shape");
          if (shape->value != 0)
            return failAt(column, "offset " + std::to_string(shape->value) +
                                      ": a nonzero offset makes the layout affine (x -> L(x) + " +
                                      std::to_string(shape->value) +
                                      "), and an affine map is not linear");
          stage = kLayout;
        } else {
          out.modes = leftStrides(*shape);
          haveLayout = true;
        }
        if (haveLayout) {
          skipWs();
          if (!atEnd())
            return fail("unexpected text after the layout");
          break;
        }
      }
      skipWs();
      if (atEnd() && out.swizzle && stage == kPointer) {
        // A swizzle alone: over the smallest offset range holding all of its bits.
        const CuteSwizzle& sw = *out.swizzle;
        int width = sw.base + std::abs(sw.shift) + sw.bits;
        out.modes = {{CuteLeaf{uint64_t{1} << width, 1}}};
        break;
      }
      if (!isCompose())
        return fail(atEnd() ? "expected 'o' and a layout" : "expected 'o' (composition)");
      eatCompose();
    }
    return out;
  }

private:
  std::string_view s_;
  std::size_t pos_ = 0;

  bool atEnd() const { return pos_ >= s_.size(); }
  char peek() const { return s_[pos_]; }
  int col() const { return static_cast<int>(pos_) + 1; }
  bool startsWith(std::string_view p) const { return s_.substr(pos_, p.size()) == p; }
  void skipWs() {
    while (!atEnd() && std::isspace(static_cast<unsigned char>(peek())))
      ++pos_;
  }
  bool eat(char c) {
    skipWs();
    if (atEnd() || peek() != c)
      return false;
    ++pos_;
    return true;
  }
  /// `o` or U+2218 (ring operator), CuTe's composition.
  bool isCompose() const {
    if (startsWith("\xE2\x88\x98"))
      return true;
    if (!startsWith("o"))
      return false;
    return pos_ + 1 >= s_.size() || !std::isalnum(static_cast<unsigned char>(s_[pos_ + 1]));
  }
  void eatCompose() { pos_ += startsWith("o") ? 1 : 3; }

  static std::string where(int column) { return "CuTe layout at column " + std::to_string(column); }
  Error failAt(int column, const std::string& message) const {
    return makeError(message, where(column));
  }
  Error fail(const std::string& message) const { return failAt(col(), message); }

  /// A CuTe integer: digits, or `_8` as CuTe prints a static integer.
  Result<uint64_t> parseUnsigned() {
    skipWs();
    if (!atEnd() && peek() == '_')
      ++pos_;
    if (atEnd() || !std::isdigit(static_cast<unsigned char>(peek())))
      return fail(!atEnd() && peek() == '-'
                      ? "negative values are not supported (a negative stride is not F2-linear)"
                      : "expected a non-negative integer");
    uint64_t v = 0;
    while (!atEnd() && std::isdigit(static_cast<unsigned char>(peek()))) {
      v = v * 10 + static_cast<uint64_t>(peek() - '0');
      if (v > kMaxValue)
        return fail("integer too large (the limit is 2^40)");
      ++pos_;
    }
    return v;
  }

  Result<int64_t> parseSigned() {
    skipWs();
    bool negative = !atEnd() && peek() == '-';
    if (negative)
      ++pos_;
    auto v = parseUnsigned();
    if (!v.ok())
      return v.error();
    if (*v > 64)
      return fail("swizzle parameter " + std::to_string(*v) + " is too large (at most 64)");
    return negative ? -static_cast<int64_t>(*v) : static_cast<int64_t>(*v);
  }

  Result<CuteSwizzle> parseSwizzle() {
    int column = col();
    pos_ += startsWith("Swizzle<") ? 8 : 3;
    int64_t v[3];
    for (int i = 0; i < 3; ++i) {
      auto x = parseSigned();
      if (!x.ok())
        return x.error();
      v[i] = *x;
      if (!eat(i < 2 ? ',' : '>'))
        return fail(i < 2 ? "expected ',' in Swizzle<B,M,S>"
                          : "expected '>' closing Swizzle<B,M,S>");
    }
    CuteSwizzle sw{static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2])};
    // CuTe's own static_asserts.
    if (sw.bits < 0 || sw.base < 0)
      return failAt(column, "Swizzle<B,M,S> needs B >= 0 and M >= 0");
    if (std::abs(sw.shift) < sw.bits)
      return failAt(column, "Swizzle<B,M,S> needs |S| >= B (CuTe: \"abs(SShift) must be more than "
                            "BBits\"), or the bits it reads overlap the bits it writes");
    if (sw.bits + sw.base + std::abs(sw.shift) > 40)
      return failAt(column, "Swizzle<B,M,S> reaches past bit 40");
    return sw;
  }

  Result<Node> parseTuple(int depth = 0) {
    skipWs();
    Node n;
    n.column = col();
    if (depth > 8)
      return fail("nesting too deep");
    if (!atEnd() && peek() == '(') {
      ++pos_;
      n.leaf = false;
      while (true) {
        auto kid = parseTuple(depth + 1);
        if (!kid.ok())
          return kid.error();
        n.kids.push_back(std::move(*kid));
        if (n.kids.size() > 16)
          return fail("too many modes");
        if (eat(','))
          continue;
        if (eat(')'))
          break;
        return fail("expected ',' or ')'");
      }
      return n;
    }
    auto v = parseUnsigned();
    if (!v.ok())
      return v.error();
    n.value = *v;
    return n;
  }

  static void flatten(const Node& shape, std::vector<const Node*>& leaves) {
    if (shape.leaf)
      leaves.push_back(&shape);
    for (const Node& k : shape.kids)
      flatten(k, leaves);
  }

  /// The modes of `shape` (its top-level entries, or itself when it is an integer), each with
  /// the strides produced by `strideOf` for its leaves.
  template <class F>
  static std::vector<std::vector<CuteLeaf>> modesOf(const Node& shape, F strideOf) {
    std::vector<std::vector<CuteLeaf>> modes;
    auto one = [&](const Node& mode) {
      std::vector<const Node*> leaves;
      flatten(mode, leaves);
      std::vector<CuteLeaf> m;
      for (const Node* l : leaves)
        m.push_back({l->value, strideOf(l)});
      modes.push_back(std::move(m));
    };
    if (shape.leaf)
      one(shape);
    else
      for (const Node& k : shape.kids)
        one(k);
    return modes;
  }

  /// make_layout(shape) and LayoutLeft: compact column-major over the flattened shape.
  static std::vector<std::vector<CuteLeaf>> leftStrides(const Node& shape, bool right = false) {
    std::vector<const Node*> leaves;
    flatten(shape, leaves);
    std::vector<uint64_t> strides(leaves.size());
    uint64_t acc = 1;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      std::size_t k = right ? leaves.size() - 1 - i : i;
      strides[k] = acc;
      // Saturate: a stride past 2^62 is refused later as too large, never wrapped to 0.
      uint64_t leaf = std::max<uint64_t>(leaves[k]->value, 1);
      acc = acc > kMaxStride / leaf ? kMaxStride : acc * leaf;
    }
    return modesOf(shape, [&](const Node* l) {
      for (std::size_t i = 0; i < leaves.size(); ++i)
        if (leaves[i] == l)
          return strides[i];
      return uint64_t{0};
    });
  }

  Result<std::vector<std::vector<CuteLeaf>>> parseStride(const Node& shape) {
    if (startsWith("LayoutLeft") || startsWith("LayoutRight")) {
      bool right = startsWith("LayoutRight");
      pos_ += right ? 11 : 10;
      return leftStrides(shape, right);
    }
    auto stride = parseTuple();
    if (!stride.ok())
      return stride.error();
    std::vector<std::pair<const Node*, uint64_t>> pairs;
    if (Error e = congruent(shape, *stride, pairs); !e.message.empty())
      return e;
    return modesOf(shape, [&](const Node* l) {
      for (const auto& [node, s] : pairs)
        if (node == l)
          return s;
      return uint64_t{0};
    });
  }

  Error congruent(const Node& shape, const Node& stride,
                  std::vector<std::pair<const Node*, uint64_t>>& pairs) const {
    if (shape.leaf && stride.leaf) {
      pairs.push_back({&shape, stride.value});
      return Error{};
    }
    if (shape.leaf != stride.leaf || shape.kids.size() != stride.kids.size())
      return failAt(stride.column, "the stride is not congruent with the shape (CuTe needs the "
                                   "same nesting, mode for mode)");
    for (std::size_t i = 0; i < shape.kids.size(); ++i)
      if (Error e = congruent(shape.kids[i], stride.kids[i], pairs); !e.message.empty())
        return e;
    return Error{};
  }
};

} // namespace

Result<CuteLayout> parseCuteLayout(std::string_view text) {
  Parser p(text);
  return p.parse();
}

} // namespace llcheck
