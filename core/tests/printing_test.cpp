// toString (exactly Triton's LinearLayout::toString) and parseTritonString (its inverse).
#include "TestLayouts.h"

#include "llcheck/core/Formats.h"

namespace llcheck::test {
namespace {

/// Triton's printer, written again from its source: bullets per input dim, "size 1" lines, the
/// out dims with their sizes, and the two empty forms.
std::string tritonToString(const LinearLayout& l) {
  std::string outs = "[";
  for (const DimSize& o : l.getOutDims())
    outs += (outs.size() > 1 ? ", " : "") + o.name.str() + " (size " + std::to_string(o.size) + ")";
  outs += "]";
  if (l.getNumInDims() == 0)
    return l.getNumOutDims() == 0 ? "\n(empty layout)"
                                  : "\n(empty layout with out-dims " + outs + ")";
  std::string ret = "\n";
  for (const DimBases& d : l.getBases()) {
    if (d.bases.empty()) {
      ret += " - " + d.name.str() + " is a size 1 dimension\n";
      continue;
    }
    ret += " - ";
    for (std::size_t i = 0; i < d.bases.size(); ++i) {
      if (i > 0)
        ret += "\n   ";
      ret += d.name.str() + "=" + std::to_string(uint64_t{1} << i) + " -> (";
      for (std::size_t k = 0; k < d.bases[i].size(); ++k)
        ret += (k ? ", " : "") + std::to_string(d.bases[i][k]);
      ret += ")";
    }
    ret += "\n";
  }
  return ret + "where out dims are: " + outs;
}

TEST(Printing, IsTritonsFormat) {
  Gen g(2501);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    EXPECT_EQ(l.toString(), tritonToString(l));
  }
}

TEST(Printing, ExactStrings) {
  EXPECT_EQ(LinearLayout::empty().toString(), "\n(empty layout)");
  EXPECT_EQ(LinearLayout::create({}, {{S("dim0"), 4}, {S("dim1"), 1}}, false).value().toString(),
            "\n(empty layout with out-dims [dim0 (size 4), dim1 (size 1)])");
  LinearLayout l = LinearLayout::create({{S("register"), {{0, 1}, {1, 0}}}, {S("block"), {}}},
                                        {{S("dim0"), 2}, {S("dim1"), 2}}, true)
                       .value();
  EXPECT_EQ(l.toString(), "\n"
                          " - register=1 -> (0, 1)\n"
                          "   register=2 -> (1, 0)\n"
                          " - block is a size 1 dimension\n"
                          "where out dims are: [dim0 (size 2), dim1 (size 2)]");
  // Input dims but no output dims.
  EXPECT_EQ(zeros1D(2, S("a"), S("o")).squeezeOuts().toString(),
            "\n - a=1 -> ()\nwhere out dims are: []");
}

TEST(Printing, ParseRoundTrips) {
  Gen g(2502);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l = g.any();
    auto p = parseTritonString(l.toString(), "test");
    LL_ASSERT_OK(p);
    EXPECT_EQ(*p, l) << l.toString();
  }
}

TEST(Printing, ParseAcceptsCommentMarkersAndBlankLines) {
  // As printed in the seeds' C++ comments.
  std::string text = "// ll:\n"
                     "//  - register=1 -> (0, 1)\n"
                     "//    register=2 -> (1, 0)\n"
                     "\n"
                     "//  - block is a size 1 dimension\n"
                     "// where out dims are: [dim0 (size 2), dim1 (size 2)]\n";
  // "ll:" is not part of the printed form.
  EXPECT_FALSE(parseTritonString(text, "seed").ok());
  text.erase(0, text.find('\n') + 1);
  auto p = parseTritonString(text, "seed");
  LL_ASSERT_OK(p);
  EXPECT_EQ(*p, LinearLayout::create({{S("register"), {{0, 1}, {1, 0}}}, {S("block"), {}}},
                                     {{S("dim0"), 2}, {S("dim1"), 2}}, true)
                    .value());
  EXPECT_EQ(parseTritonString("\r\n(empty layout)\r\n", "crlf").value(), LinearLayout::empty());
  EXPECT_EQ(parseTritonString("(empty layout with out-dims [dim0 (size 4)])", "e").value(),
            LinearLayout::create({}, {{S("dim0"), 4}}, false).value());
}

TEST(Printing, ParseErrors) {
  auto expectError = [](const std::string& text, const std::string& fragment) {
    auto r = parseTritonString(text, "in.txt");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().str().find(fragment), std::string::npos)
        << "'" << r.error().str() << "' lacks '" << fragment << "'";
  };
  expectError("", "empty input");
  expectError(" - r=1 -> (1)\n", "truncated");
  // Position of the error: file, line, column.
  expectError(" - r=1 -> (1)\n   r=4 -> (2)\nwhere out dims are: [o (size 4)]", "in.txt:2:");
  expectError(" - r=2 -> (1)\nwhere out dims are: [o (size 4)]", "expected r=1");
  expectError(" - r=1 -> (1, 0)\nwhere out dims are: [o (size 4)]", "2 values");
  expectError(" - r=1 -> (4)\nwhere out dims are: [o (size 4)]", "not below");
  expectError(" - r=1 -> (1)\nwhere out dims are: [o (size 3)]", "power of two");
  expectError(" - r=1 -> (1)\nwhere out dims are: [o (size 4)]\n - more", "after the end");
  expectError(" - r=1 -> (x)\nwhere out dims are: [o (size 4)]", "non-negative integer");
  expectError(" - r=1 -> (1\nwhere out dims are: [o (size 4)]", "expected ',' or ')'");
  expectError(" - r=1 -> (1)\n   s=2 -> (1)\nwhere out dims are: [o (size 4)]", "inside the list");
  expectError(" - r=1 -> (1)\n - r=1 -> (2)\nwhere out dims are: [o (size 4)]", "twice");
  expectError(" - r=1 -> (1, 1)\nwhere out dims are: [o (size 4), o (size 2)]", "twice");
  expectError(" - r=1 -> (1)\nwhere out dims are: [o (size 4)", "expected ',' or ']'");
  expectError(" - r=1 -> (1)\nwhere out dims are: [o]", "(size N)");
  expectError("(empty layout) trailing", "unexpected text after '(empty layout)'");
  expectError("(empty layout trailing", "expected ')' or 'with out-dims");
  expectError("garbage", "expected ' - <dim>=1");
  expectError(" - r is a size 1 dimension extra\nwhere out dims are: []", "unexpected text");
  std::string nul = " - r=1 -> (1)";
  nul += '\0';
  nul += "\nwhere out dims are: [o (size 4)]";
  expectError(nul, "NUL");
}

} // namespace
} // namespace llcheck::test
