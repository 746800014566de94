// A conversion through shared memory: Z3 proves that storing SRC into the shared layout and
// loading in DST moves every element exactly once, exactly when brute force over every location
// and offset says so, and every refutation names what brute force confirms.
#include "ProverTestUtil.h"

#include "llcheck/core/Spec.h"

#include <map>
#include <set>

namespace llcheck::test {
namespace {

using prover::Outcome;
using Element = std::map<std::string, uint64_t>;

Element elementOf(const Point& p) {
  Element e;
  for (const auto& [name, v] : p)
    e[name.str()] = v;
  return e;
}

std::vector<Element> imageOf(const LinearLayout& l) {
  Ref r(l);
  std::set<Element> seen;
  for (uint64_t f = 0; f < r.numInputs(); ++f)
    seen.insert(elementOf(r.evalPoint(f)));
  return {seen.begin(), seen.end()};
}

/// Every element src holds and dst needs has exactly one offset, and dst needs only what src
/// holds: then each store has one place to go and each load finds what was stored.
bool bruteRoundTrip(const LinearLayout& src, const LinearLayout& shared, const LinearLayout& dst) {
  std::map<Element, int> homes;
  Ref rs(shared);
  for (uint64_t f = 0; f < rs.numInputs(); ++f)
    if (++homes[elementOf(rs.evalPoint(f))] > 1)
      return false;
  auto a = imageOf(src), b = imageOf(dst);
  std::set<Element> held(a.begin(), a.end());
  for (const Element& e : a)
    if (!homes.count(e))
      return false;
  for (const Element& e : b)
    if (!homes.count(e) || !held.count(e))
      return false;
  return true;
}

/// The claim each counterexample makes, checked by the reference evaluator.
void expectCounterexample(const LinearLayout& src, const LinearLayout& shared,
                          const LinearLayout& dst, const nlohmann::json& ce) {
  SCOPED_TRACE(ce.dump());
  ASSERT_TRUE(ce.contains("reason"));
  Ref rs(src), rm(shared), rd(dst);
  auto evalAt = [](const Ref& r, const LinearLayout& l, const nlohmann::json& j) {
    return elementOf(r.outPoint(r.eval(inputValues(l, j))));
  };
  if (ce.contains("offsets")) {
    EXPECT_NE(ce["offsets"][0], ce["offsets"][1]);
    EXPECT_EQ(evalAt(rm, shared, ce["offsets"][0]), evalAt(rm, shared, ce["offsets"][1]));
  } else if (ce.contains("offset")) {
    const LinearLayout& l = ce.contains("store") ? src : dst;
    const nlohmann::json& at = ce.contains("store") ? ce["store"] : ce["load"];
    EXPECT_NE(evalAt(Ref(l), l, at), evalAt(rm, shared, ce["offset"]));
  } else if (ce.contains("load")) {
    Element e = evalAt(rd, dst, ce["load"]);
    for (const Element& h : imageOf(src))
      EXPECT_NE(h, e) << "src does hold it";
  } else {
    const LinearLayout& l = ce.contains("store") ? src : dst;
    Element e = evalAt(Ref(l), l, ce.contains("store") ? ce["store"] : ce["load"]);
    for (uint64_t f = 0; f < rm.numInputs(); ++f)
      EXPECT_NE(elementOf(rm.evalPoint(f)), e) << "an offset does hold it";
  }
}

LinearLayout load(const char* attr, std::vector<uint64_t> shape) {
  LayoutContext o;
  o.shape = std::move(shape);
  auto l = loadSpec(attr, o);
  EXPECT_TRUE(l.ok()) << attr << ": " << l.error().str();
  return l->layout;
}

/// `l` with one input column replaced (flat bit j -> packed output word v).
LinearLayout withColumn(const LinearLayout& l, std::size_t j, uint64_t v) {
  std::vector<uint64_t> cols(l.columns().begin(), l.columns().end());
  cols[j] = v;
  return LinearLayout::fromColumns(l.inDims(), l.outDims(), cols).value();
}

void expectDecides(const LinearLayout& src, const LinearLayout& shared, const LinearLayout& dst,
                   std::map<std::string, int>* reasons) {
  auto p = prover::proveSharedRoundTrip(src, shared, dst, {});
  bool truth = bruteRoundTrip(src, shared, dst);
  ASSERT_EQ(p.outcome, truth ? Outcome::Proven : Outcome::Refuted) << p.detail << "\n"
                                                                   << src.toString() << "\n"
                                                                   << shared.toString() << "\n"
                                                                   << dst.toString();
  if (p.outcome == Outcome::Refuted) {
    ++(*reasons)[p.counterexample.value("reason", "")];
    EXPECT_FALSE(p.detail.empty());
    expectCounterexample(src, shared, dst, p.counterexample);
  }
}

TEST(SharedRoundTrip, TritonLayoutsAndBrokenOnes) {
  const char* blockedRow = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>";
  const char* blockedCol = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [1, 4], order = [0, 1]}>";
  const char* mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
                    "instrShape = [16, 8]}>";
  const char* swizzled =
      "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>";
  const char* rowMajor =
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";
  const char* nvmma = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                      "elementBitWidth = 16}>";
  Gen g(2718);
  std::map<std::string, int> reasons;
  int proven = 0;
  for (std::vector<uint64_t> shape : {std::vector<uint64_t>{32, 64}, {64, 64}})
    for (const char* s : {swizzled, rowMajor, nvmma})
      for (auto [a, b] : {std::pair{blockedRow, blockedCol}, std::pair{blockedRow, mma},
                          std::pair{mma, blockedCol}}) {
        LinearLayout src = load(a, shape), shared = load(s, shape), dst = load(b, shape);
        auto p = prover::proveSharedRoundTrip(src, shared, dst, {});
        EXPECT_EQ(p.outcome, Outcome::Proven) << p.detail;
        EXPECT_TRUE(bruteRoundTrip(src, shared, dst));
        ++proven;
        // A shared layout with two offsets of one element (one column copied onto another).
        std::size_t n = shared.columns().size();
        std::size_t i = g.below(n), j = (i + 1 + g.below(n - 1)) % n;
        expectDecides(src, withColumn(shared, j, shared.columns()[i]), dst, &reasons);
        // One bit flipped somewhere in the shared layout: still a bijection or not.
        expectDecides(
            src,
            withColumn(shared, j,
                       shared.columns()[j] ^ (uint64_t{1} << g.below(static_cast<uint64_t>(n)))),
            dst, &reasons);
        // A source that broadcasts one column instead of holding its elements.
        std::size_t k = g.below(src.columns().size());
        expectDecides(withColumn(src, k, 0), shared, dst, &reasons);
      }
  EXPECT_EQ(proven, 18);
  // Both ways a round trip breaks here occur, each several times.
  EXPECT_GT(reasons["two offsets hold the same element, so it would be stored twice"], 10);
  EXPECT_GT(reasons["no src location holds this element, so the load reads an offset nobody "
                    "stored"],
            10);
}

TEST(SharedRoundTrip, ASmallerBufferLeavesElementsHomeless) {
  // A 16x16 tensor but a shared layout of only 128 offsets (dim1 halved): half the elements have
  // no offset, whichever side looks.
  LinearLayout src =
      identity1D(16, S("register"), S("dim1")) * identity1D(16, S("lane"), S("dim0"));
  LinearLayout full = LinearLayout::create(
                          {{S("offset"), {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}}},
                          {{S("dim1"), 16}, {S("dim0"), 16}}, false)
                          .value();
  auto p = prover::proveSharedRoundTrip(src, full, src, {});
  ASSERT_EQ(p.outcome, Outcome::Refuted) << p.detail;
  EXPECT_EQ(p.counterexample["reason"], "no offset of the shared layout holds this element");
  expectCounterexample(src, full, src, p.counterexample);
  EXPECT_FALSE(bruteRoundTrip(src, full, src));
}

} // namespace
} // namespace llcheck::test
