// toLinearAttr and loadSpec of '#ttg.linear<...>': the attribute round trip.
#include "TestLayouts.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"

#include <algorithm>
#include <bit>

namespace llcheck::test {
namespace {

/// A random layout on exactly (register, lane, warp, block) -> (dim0, ..., dim{k-1}).
LinearLayout randomLinear(Gen& g, bool surjective) {
  Gen::Shape sh;
  int n = g.range(0, 10);
  std::vector<int> ins = g.split(n, 4);
  const char* names[] = {"register", "lane", "warp", "block"};
  for (int i = 0; i < 4; ++i)
    sh.ins.emplace_back(DimName(names[i]), ins[static_cast<std::size_t>(i)]);
  int k = g.range(1, 3);
  int m = surjective ? g.range(0, n) : g.range(0, 10);
  std::vector<int> outs = g.split(m, static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i)
    sh.outs.emplace_back(dims::standardOut(i), outs[static_cast<std::size_t>(i)]);
  return surjective ? Gen::fromPacked(sh, g.surjectiveColumns(n, m)) : g.fill(sh);
}

/// The attribute text of l's bases, written out here without any check.
std::string attrText(const LinearLayout& l, const std::string& name) {
  std::string s = name + "<{";
  auto bases = l.getBases();
  for (std::size_t i = 0; i < bases.size(); ++i) {
    s += (i ? ", " : "") + bases[i].name.str() + " = [";
    for (std::size_t b = 0; b < bases[i].bases.size(); ++b) {
      s += b ? ", [" : "[";
      for (std::size_t k = 0; k < bases[i].bases[b].size(); ++k)
        s += (k ? ", " : "") + std::to_string(bases[i].bases[b][k]);
      s += "]";
    }
    s += "]";
  }
  return s + "}>";
}

/// Triton 3.9's verifier rules, restated by brute force over the bases: #ttg.linear wants a
/// permutation matrix once zeros are dropped; #ttg.generic_linear wants register, lane and block
/// bases that move in at most one dim.
bool isPermutation(const LinearLayout& l) {
  std::vector<std::vector<uint64_t>> seen;
  for (const DimBases& db : l.getBases())
    for (const auto& b : db.bases) {
      int nonZero = 0;
      for (uint64_t v : b)
        if (v != 0) {
          ++nonZero;
          if (v & (v - 1))
            return false;
        }
      if (nonZero == 0)
        continue;
      if (nonZero > 1 || std::find(seen.begin(), seen.end(), b) != seen.end())
        return false;
      seen.push_back(b);
    }
  return true;
}
bool isGenericLinear(const LinearLayout& l) {
  for (const DimBases& db : l.getBases())
    if (db.name.str() != "warp")
      for (const auto& b : db.bases)
        if (std::count_if(b.begin(), b.end(), [](uint64_t v) { return v != 0; }) > 1)
          return false;
  return true;
}

TEST(LinearAttr, SurjectiveLayoutsRoundTrip) {
  Gen g(2701);
  int linear = 0, generic = 0, neither = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = randomLinear(g, true);
    auto attr = toLinearAttr(l);
    if (!isPermutation(l) && !isGenericLinear(l)) {
      ++neither;
      ASSERT_FALSE(attr.ok()) << attrText(l, "#ttg.linear");
      EXPECT_NE(attr.error().message.find("no Triton attribute"), std::string::npos);
      // Read as either attribute, it is refused with the reason.
      EXPECT_FALSE(loadSpec(attrText(l, "#ttg.linear"), {}).ok());
      EXPECT_FALSE(loadSpec(attrText(l, "#ttg.generic_linear"), {}).ok());
      continue;
    }
    LL_ASSERT_OK(attr);
    bool permutation = isPermutation(l);
    ++(permutation ? linear : generic);
    EXPECT_EQ(attr->rfind(permutation ? "#ttg.linear<" : "#ttg.generic_linear<", 0), 0u) << *attr;
    if (!permutation) {
      EXPECT_FALSE(loadSpec(attrText(l, "#ttg.linear"), {}).ok()) << attrText(l, "#ttg.linear");
    }
    auto loaded = loadSpec(*attr, {});
    bool anyBasis = l.getTotalInDimSizeLog2() > 0;
    if (!anyBasis) { // no basis to tell the rank: --shape is needed
      EXPECT_FALSE(loaded.ok());
      continue;
    }
    LL_ASSERT_OK(loaded);
    EXPECT_EQ(loaded->layout, l) << *attr;
    EXPECT_EQ(loaded->format, permutation ? "ttg.linear" : "ttg.generic_linear");
    // With --shape equal to the output sizes, Triton's toLinearLayout leaves the layout as it
    // is: nothing is cut, so no register basis is removed (its zero register bases stay, as
    // Triton 3.6 and 3.9 both answer); with register bases Triton cannot order (a non-power of
    // two) it cannot lay it over a shape at all, and llcheck keeps it as written.
    LayoutContext o;
    o.shape = std::vector<uint64_t>{};
    for (const DimSize& d : l.getOutDims())
      o.shape->push_back(d.size);
    EXPECT_EQ(loadSpec(*attr, o).value().layout, l) << *attr;
  }
  // The random layouts reach all three outcomes.
  EXPECT_GT(linear, 0);
  EXPECT_GT(generic, 0);
  EXPECT_GT(neither, 0);
}

TEST(LinearAttr, NonSurjectiveBasesAreRefused) {
  // Triton builds the attribute's layout with out sizes inferred from the bases (the next power
  // of two above the largest value) and requires it to be surjective onto them.
  Gen g(2702);
  int refused = 0;
  int refusedForSurjectivity = 0;
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = randomLinear(g, false);
    if (l.getTotalInDimSizeLog2() == 0)
      continue;
    bool surjective = LinearLayout::create(l.getBases(), l.getOutDimNames()).ok();
    for (const char* name : {"#ttg.linear", "#ttg.generic_linear"}) {
      auto loaded = loadSpec(attrText(l, name), {});
      if (!surjective) {
        ++refused;
        ASSERT_FALSE(loaded.ok()) << attrText(l, name);
        bool rulesHold = std::string(name) == "#ttg.linear" ? isPermutation(l) : isGenericLinear(l);
        refusedForSurjectivity += rulesHold;
        if (rulesHold) { // otherwise the first rule broken is named
          EXPECT_NE(loaded.error().message.find("surjective"), std::string::npos)
              << loaded.error().str();
        }
      } else if (loaded.ok()) {
        // Each size is the smallest power of two above the largest basis value of the dim.
        for (const DimSize& d : loaded->layout.getOutDims()) {
          uint64_t maxValue = 0;
          for (const DimBases& db : l.getBases())
            for (const auto& b : db.bases)
              maxValue = std::max(maxValue, b[static_cast<std::size_t>(l.outDimIndex(d.name))]);
          EXPECT_EQ(d.size, std::bit_ceil(maxValue + 1));
        }
      }
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(refusedForSurjectivity, 0);
}

TEST(LinearAttr, ExactText) {
  LinearLayout l = LinearLayout::create({{S("register"), {{0, 1}, {1, 0}}},
                                         {S("lane"), {{0, 2}}},
                                         {S("warp"), {}},
                                         {S("block"), {}}},
                                        {S("dim0"), S("dim1")})
                       .value();
  EXPECT_EQ(toLinearAttr(l).value(),
            "#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2]], warp = [], block = []}>");
}

TEST(LinearAttr, ToLinearAttrErrors) {
  // Input dims must be exactly register, lane, warp, block, in that order; outputs dim0, ...
  EXPECT_FALSE(toLinearAttr(identity1D(4, S("register"), S("dim0"))).ok());
  LinearLayout swapped = identity1D(2, S("lane"), S("dim0")) *
                         identity1D(2, S("register"), S("dim0")) *
                         identity1D(1, S("warp"), S("dim0")) * identity1D(1, S("block"), S("dim0"));
  EXPECT_FALSE(toLinearAttr(swapped).ok());
  LinearLayout good = identity1D(2, S("register"), S("dim0")) *
                      identity1D(2, S("lane"), S("dim0")) * identity1D(1, S("warp"), S("dim0")) *
                      identity1D(1, S("block"), S("dim0"));
  EXPECT_TRUE(toLinearAttr(good).ok());
  EXPECT_FALSE(toLinearAttr(good.renameOutDim(S("dim0"), S("dim1")).value()).ok());
  EXPECT_FALSE(toLinearAttr(good.renameInDim(S("block"), S("cta")).value()).ok());
}

TEST(LinearAttr, LoadSpecErrors) {
  auto expectError = [](const std::string& spec, const std::string& fragment,
                        const LayoutContext& o = {}) {
    auto r = loadSpec(spec, o);
    ASSERT_FALSE(r.ok()) << spec;
    EXPECT_NE(r.error().str().find(fragment), std::string::npos)
        << "'" << r.error().str() << "' lacks '" << fragment << "'";
  };
  const std::string ok =
      "#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = []}>";
  ASSERT_TRUE(loadSpec(ok, {}).ok());
  expectError("#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = []}>", "missing 'block'");
  expectError("#ttg.linear<{register = [[0, 1]], lane = [], warp = [], block = [], cta = []}>",
              "unknown key 'cta'");
  expectError("#ttg.linear<{register = [[0, 1]], register = [], lane = [], warp = [], block = []}>",
              "twice");
  expectError("#ttg.linear<{register = [[0, -1]], lane = [], warp = [], block = []}>", "negative");
  expectError("#ttg.linear<{register = [[0, 1]], lane = [[1]], warp = [], block = []}>",
              "the first basis has 2");
  expectError("#ttg.linear<{register = 3, lane = [], warp = [], block = []}>", "must be an array");
  expectError("#ttg.linear<{register = [], lane = [], warp = [], block = []}>", "pass shape");
  expectError("#ttg.frobnicate<{versionMajor = 2}>", "not supported");
  expectError("#ttg.nvidia_mma<{versionMajor = 2}>", "missing 'warpsPerCTA'");
  expectError("#ttg.blocked<{sizePerThread = [1]}>", "missing 'threadsPerWarp'");
  expectError("#blocked1", "alias");
  expectError("#ttg.linear<{register = [[0, 1]]", "");
  LayoutContext shape;
  shape.shape = std::vector<uint64_t>{2};
  expectError(ok, "rank", shape);
  // Other shapes of the same rank cut or tile the layout, as Triton does (checked against
  // Triton in tests/triton): the outputs become the shape.
  for (std::vector<uint64_t> other : {std::vector<uint64_t>{1, 2}, std::vector<uint64_t>{4, 2}}) {
    shape.shape = other;
    auto r = loadSpec(ok, shape);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->layout.getOutDimSize(dims::standardOut(0)), other[0]);
    EXPECT_EQ(r->layout.getOutDimSize(dims::standardOut(1)), other[1]);
  }
  LayoutContext warps;
  warps.numWarps = 4;
  expectError(ok, "numWarps 4", warps);
  LayoutContext lanes;
  lanes.threadsPerWarp = 32;
  expectError(ok, "threadsPerWarp 32", lanes);
  lanes.threadsPerWarp = 2;
  EXPECT_TRUE(loadSpec(ok, lanes).ok());
  expectError("/no/such/file.json", "no such file");
}

TEST(LinearAttr, ParseShape) {
  EXPECT_EQ(parseShape("64x16").value(), (std::vector<uint64_t>{64, 16}));
  EXPECT_EQ(parseShape("64,16").value(), (std::vector<uint64_t>{64, 16}));
  EXPECT_EQ(parseShape("1").value(), (std::vector<uint64_t>{1}));
  EXPECT_FALSE(parseShape("").ok());
  EXPECT_FALSE(parseShape("6x4").ok());
  EXPECT_FALSE(parseShape("0").ok());
  EXPECT_FALSE(parseShape("4x").ok());
  EXPECT_FALSE(parseShape("x4").ok());
  EXPECT_FALSE(parseShape("-4").ok());
  EXPECT_FALSE(parseShape("99999999999999999999999").ok());
}

} // namespace
} // namespace llcheck::test
