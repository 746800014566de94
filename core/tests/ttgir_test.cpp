// readTtgir: aliases (and aliases of aliases), types, module attributes, data-moving ops and
// their locations, malformed and truncated files with positions, and every file of the TTGIR
// corpus (corpus/ttgir/, real Triton 3.9 output) read with nothing left not understood.
#include "llcheck/core/Spec.h"
#include "llcheck/core/Ttgir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace {

using namespace llcheck;

// Every encoding in the corpus is supported: an encoding reported "not supported yet" there
// fails the test like anything else not understood.
constexpr bool kAllowUnsupportedEncodings = false;

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kSmall = std::string(LLCHECK_SOURCE_DIR) + "/tests/lit/Inputs/good/small.ttgir";

/// The layout attributeToLayout gives for a spelled-out attribute: the independent answer the
/// reader's alias substitution must reproduce.
LinearLayout direct(const std::string& attr, std::vector<uint64_t> shape) {
  auto v = parseAttribute(attr, "attribute");
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().str());
  LayoutContext o;
  o.shape = std::move(shape);
  auto l = attributeToLayout(*v, o, "attribute");
  EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.error().str());
  return *l;
}

const TtgirLayout* findLayout(const TtgirModule& m, const std::string& encoding,
                              const std::vector<uint64_t>& shape) {
  for (const TtgirLayout& l : m.layouts)
    if (l.encoding == encoding && l.shape == shape)
      return &l;
  return nullptr;
}

const std::string kBlocked = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                             "warpsPerCTA = [4, 1], order = [1, 0]}>";

TEST(Ttgir, ModuleAttributesAndAliases) {
  auto m = readTtgir(readFile(kSmall), "small.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  EXPECT_EQ(m->target, "cuda:80");
  EXPECT_EQ(m->numWarps, 4u);
  EXPECT_EQ(m->threadsPerWarp, 32u);
  EXPECT_EQ(m->numCtas, 1u);
  ASSERT_EQ(m->aliases.size(), 5u); // #loc aliases are not attribute aliases
  EXPECT_EQ(m->aliases[0].name, "blocked");
  EXPECT_EQ(m->aliases[0].text, kBlocked);
  EXPECT_EQ(m->aliases[4].name, "smem");
  EXPECT_EQ(m->aliases[4].line, 6);
}

TEST(Ttgir, LayoutsThroughAliases) {
  auto m = readTtgir(readFile(kSmall), "small.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  const TtgirLayout* b = findLayout(*m, "#blocked", {32, 16});
  ASSERT_TRUE(b && b->layout);
  EXPECT_EQ(b->attribute, kBlocked);
  EXPECT_EQ(*b->layout, direct(kBlocked, {32, 16}));
  // A slice whose parent is an alias: substituted before the slice reader sees it.
  const TtgirLayout* s = findLayout(*m, "#ttg.slice<{dim = 1, parent = #blocked}>", {32});
  ASSERT_TRUE(s && s->layout);
  EXPECT_EQ(*s->layout, direct("#ttg.slice<{dim = 1, parent = " + kBlocked + "}>", {32}));
  EXPECT_EQ(s->line, 9);
  const TtgirLayout* lin = findLayout(*m, "#linear", {32, 16});
  ASSERT_TRUE(lin && lin->layout);
  EXPECT_EQ(lin->layout->getInDimSize(dims::kLane), 32u);
  // The same encoding over two shapes is two layouts; one (encoding, shape) is one layout.
  EXPECT_NE(findLayout(*m, "#blocked", {32, 1}), nullptr);
  int blocked3216 = 0;
  for (const TtgirLayout& l : m->layouts)
    blocked3216 += l.encoding == "#blocked" && l.shape == std::vector<uint64_t>{32, 16};
  EXPECT_EQ(blocked3216, 1);
}

TEST(Ttgir, Types) {
  auto m = readTtgir(readFile(kSmall), "small.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  const TtgirType* ptrs = nullptr;
  const TtgirType* view = nullptr;
  const TtgirType* bare = nullptr;
  for (const TtgirType& t : m->types) {
    if (t.text == "tensor<32x16x!tt.ptr<f16>, #blocked>")
      ptrs = &t;
    if (t.text == "!ttg.memdesc<32x16xf16, #shared, #smem, mutable, 2x32x16>")
      view = &t;
    if (t.text == "!ttg.memdesc<32x16xf16, #shared, #smem, mutable>")
      bare = &t;
  }
  ASSERT_TRUE(ptrs && view && bare);
  EXPECT_EQ(ptrs->elementType, "!tt.ptr<f16>");
  EXPECT_EQ(ptrs->shape, (std::vector<uint64_t>{32, 16}));
  EXPECT_EQ(ptrs->count, 3); // lines 11, 12 and 18
  EXPECT_EQ(view->kind, TtgirType::Kind::MemDesc);
  EXPECT_EQ(view->encoding, "#shared");
  EXPECT_EQ(view->memorySpace, "#smem");
  EXPECT_TRUE(view->isMutable);
  EXPECT_EQ(view->allocShape, (std::vector<uint64_t>{2, 32, 16}));
  EXPECT_EQ(view->line, 17);
  // async_copy_global_to_local prints its result as a bare "<...>"; it is the same memdesc.
  EXPECT_EQ(bare->line, 18);
  EXPECT_TRUE(bare->allocShape.empty());
}

TEST(Ttgir, OpsAndLocations) {
  auto m = readTtgir(readFile(kSmall), "small.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  ASSERT_EQ(m->ops.size(), 7u);
  const TtgirOp& cvt = m->ops[0];
  EXPECT_EQ(cvt.name, "ttg.convert_layout");
  ASSERT_TRUE(cvt.src);
  EXPECT_EQ(m->layouts[static_cast<std::size_t>(cvt.src->layout)].encoding, "#blocked");
  EXPECT_EQ(m->layouts[static_cast<std::size_t>(cvt.dst.layout)].encoding, "#blocked1");
  EXPECT_EQ(cvt.shape, (std::vector<uint64_t>{32, 16}));
  EXPECT_EQ(cvt.elementType, "f16");
  EXPECT_EQ(cvt.location, "helpers.py:20:4");      // callsite: the callee's position
  EXPECT_EQ(m->ops[1].location, "small.ttgir:14"); // no loc(...): the TTGIR line
  EXPECT_EQ(m->ops[2].name, "ttg.local_alloc");
  EXPECT_EQ(m->ops[2].location, "kernel.py:7:14");
  EXPECT_FALSE(m->ops[3].src); // local_alloc of a new buffer
  EXPECT_EQ(m->ops[4].name, "ttg.memdesc_index");
  EXPECT_EQ(m->ops[4].shape, (std::vector<uint64_t>{32, 16}));
  const TtgirOp& copy = m->ops[5];
  EXPECT_EQ(copy.name, "ttg.async_copy_global_to_local");
  EXPECT_EQ(copy.elementType, "f16"); // the memdesc's, not the pointers'
  EXPECT_EQ(copy.dst.type, "!ttg.memdesc<32x16xf16, #shared, #smem, mutable>");
  EXPECT_EQ(m->ops[6].location, "kernel.py:7:14"); // fused: the first part that has a file
}

TEST(Ttgir, LoopsAndBranchesAroundAnOp) {
  // FlagGems' mm, shortened: an scf.if on a kernel value picks one of two kernels; the loop in
  // its else region has constant bounds (2 trips), and the ops after the if are in neither.
  const std::string text =
      "#b = " + kBlocked +
      "\n#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, "
      "1], "
      "order = [1, 0]}>\n"
      "module attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @k(%c: i1, %x: tensor<32x16xf16, #b>) {\n"
      "    %c0_i32 = arith.constant 0 : i32\n"
      "    %c2_i32 = arith.constant 2 : i32\n"
      "    %c1_i32 = arith.constant 1 : i32\n"
      "    %r = scf.if %c -> (tensor<32x16xf16, #b1>) {\n"
      "      %0 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b1>\n"
      "      scf.yield %0 : tensor<32x16xf16, #b1>\n"
      "    } else {\n"
      "      scf.for %i = %c0_i32 to %c2_i32 step %c1_i32  : i32 {\n"
      "        %1 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b1>\n"
      "      }\n"
      "      %2 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b1>\n"
      "      scf.yield %2 : tensor<32x16xf16, #b1>\n"
      "    } loc(#loc)\n"
      "    %3 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b1>\n"
      "    tt.return\n  }\n}\n";
  auto m = readTtgir(text, "if.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  ASSERT_EQ(m->ops.size(), 4u);
  EXPECT_EQ(m->ops[0].branch.line, 8);
  EXPECT_FALSE(m->ops[0].branch.elseBranch);
  EXPECT_EQ(m->ops[0].loopDepth, 0);
  EXPECT_EQ(m->ops[1].branch.line, 8);
  EXPECT_TRUE(m->ops[1].branch.elseBranch);
  EXPECT_EQ(m->ops[1].loopDepth, 1);
  EXPECT_EQ(m->ops[1].trips, 2u);
  EXPECT_TRUE(m->ops[2].branch.elseBranch);
  EXPECT_EQ(m->ops[2].loopDepth, 0);
  EXPECT_EQ(m->ops[3].branch.line, 0);
}

TEST(Ttgir, TripsAsAFormulaOfTheKernelsArguments) {
  // The tutorial matmul's K loop and a grid-strided loop, shortened: bounds computed from the
  // integer arguments and the program id by arith ops; a bound that is a comparison (i1) or a
  // loop-carried value has no formula.
  const std::string text =
      "#b = " + kBlocked +
      "\nmodule attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @k(%x: tensor<32x16xf16, #b>, %K: i32 {tt.divisibility = 16 : i32} "
      "loc(\"K\"(#loc)), %n_rows: i32 loc(\"n_rows\"(#loc))) {\n"
      "    %c1_i32 = arith.constant 1 : i32\n"
      "    %c0_i32 = arith.constant 0 : i32\n"
      "    %c31_i32 = arith.constant 31 : i32\n"
      "    %c32_i32 = arith.constant 32 : i32\n"
      "    %0 = arith.addi %K, %c31_i32 : i32 loc(#loc1)\n"
      "    %1 = arith.divsi %0, %c32_i32 : i32\n"
      "    %pid = tt.get_program_id x : i32\n"
      "    %np = tt.get_num_programs x : i32\n"
      "    scf.for %i = %c0_i32 to %1 step %c1_i32  : i32 {\n"
      "      %2 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b>\n"
      "      scf.for %j = %c0_i32 to %c32_i32 step %c1_i32  : i32 {\n"
      "        %3 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b>\n"
      "      }\n"
      "      scf.for %r = %pid to %n_rows step %np  : i32 {\n"
      "        %4 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b>\n"
      "        scf.for %q = %c0_i32 to %r step %c1_i32  : i32 {\n"
      "          %5 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b>\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "    tt.return\n  }\n}\n";
  auto m = readTtgir(text, "trips.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  ASSERT_EQ(m->ops.size(), 4u);
  EXPECT_FALSE(m->ops[0].trips);
  EXPECT_EQ(m->ops[0].tripsFormula, "trips(0, div((K + 31), 32), 1)");
  EXPECT_EQ(m->ops[1].tripsFormula, "trips(0, div((K + 31), 32), 1) * 32");
  EXPECT_EQ(m->ops[2].tripsFormula,
            "trips(0, div((K + 31), 32), 1) * trips(pid_x, n_rows, num_programs_x)");
  EXPECT_EQ(m->ops[3].tripsFormula, ""); // the inner bound is the outer loop's induction value
}

TEST(Ttgir, NothingInsideAnScfWhileHasATripCount) {
  // FlagGems' sort, shortened: a decoupled look-back (an scf.while spinning on a flag) inside a
  // loop of two trips. Both of the while's regions are inside it, its `} do {` closes neither,
  // and the op after it is back in the scf.for alone.
  const std::string text =
      "#b = " + kBlocked +
      "\nmodule attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @k(%x: tensor<32x16xf16, #b>, %n: i32) {\n"
      "    %c0_i32 = arith.constant 0 : i32\n"
      "    %c1_i32 = arith.constant 1 : i32\n"
      "    %c2_i32 = arith.constant 2 : i32\n"
      "    scf.for %i = %c0_i32 to %c2_i32 step %c1_i32  : i32 {\n"
      "      %w:2 = scf.while (%a = %c0_i32, %b = %n) : (i32, i32) -> (i32, i32) {\n"
      "        %0 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b>\n"
      "        %c = arith.cmpi slt, %a, %b : i32\n"
      "        scf.condition(%c) %a, %b : i32, i32\n"
      "      } do {\n"
      "      ^bb0(%a1: i32, %b1: i32):\n"
      "        %1 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b>\n"
      "        scf.yield %a1, %b1 : i32, i32\n"
      "      }\n"
      "      %2 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b>\n"
      "    }\n"
      "    %3 = ttg.convert_layout %x : tensor<32x16xf16, #b> -> tensor<32x16xf16, #b>\n"
      "    tt.return\n  }\n}\n";
  auto m = readTtgir(text, "while.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  ASSERT_EQ(m->ops.size(), 4u);
  for (int i : {0, 1}) {
    EXPECT_EQ(m->ops[i].loopDepth, 2) << i;
    EXPECT_FALSE(m->ops[i].trips) << i;
    EXPECT_EQ(m->ops[i].tripsFormula, "") << i;
  }
  EXPECT_EQ(m->ops[2].loopDepth, 1);
  EXPECT_EQ(m->ops[2].trips, 2u);
  EXPECT_EQ(m->ops[3].loopDepth, 0);
  EXPECT_EQ(m->ops[3].trips, 1u);
}

TEST(Ttgir, NotUnderstoodIsListed) {
  std::string text = "#blocked = " + kBlocked + "\n" +
                     "#weird = #ttg.made_up<{x = 1}>\n"
                     "#odd = #ttg.swizzled_shared<{vec = 8,, perPhase = 1}>\n"
                     "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
                     "  %a = ttg.mystery_load %x : tensor<32x16xf16, #blocked> -> "
                     "tensor<32x16xf16, #weird>\n"
                     "  %b = arith.addf %a, %a : tensor<32x16xf16, #weird>\n"
                     "  %c = ttg.convert_layout %a : tensor<32x16xf16, #weird> -> "
                     "tensor<32x16xf16, #odd>\n"
                     "  %d = arith.addf %q, %q : tensor<8xf32>\n"
                     "}\n";
  auto m = readTtgir(text, "t.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  std::vector<std::string> whats;
  for (const TtgirNotUnderstood& n : m->notUnderstood)
    whats.push_back(n.what + " " + n.where + (n.unsupportedEncoding ? " unsupported" : ""));
  // The alias the attribute parser cannot read, the op that looks data-moving, the made-up
  // encoding (reported "not supported yet"), the tensor with no encoding, and the encoding
  // whose alias could not be read.
  EXPECT_EQ(whats, (std::vector<std::string>{
                       "alias t.ttgir:3:8", "op t.ttgir:5:3", "type t.ttgir:8:28",
                       "encoding t.ttgir:5:61 unsupported", "encoding t.ttgir:7:61"}));
  ASSERT_EQ(m->ops.size(), 1u);
  EXPECT_EQ(m->layouts.size(), 3u);
}

struct BadCase {
  std::string text;
  std::string message;
};

TEST(Ttgir, RegressionMemdescWithoutShape) {
  // Found by fuzz_ttgir: a memdesc whose shape reads as empty made the per-buffer fallback step
  // a vector iterator before its start. It must simply be listed as not understood.
  std::string text = "#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                     "order = [1, 0]}>\n#smem = #ttg.shared_memory\n"
                     "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
                     "  %s = ttg.memdesc_index %b[%i] : !ttg.memdesc<:2x32x16xf16, #shared, #smem, "
                     "mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>\n}\n";
  auto m = readTtgir(text, "t.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  EXPECT_FALSE(m->notUnderstood.empty());
}

TEST(Ttgir, RegressionLineStartingWithAngle) {
  // Found by fuzz_ttgir: an op line starting with '>' was checked for a "->" one byte before it.
  std::string text = "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
                     ">x = ttg.local_load %a : tensor<4xf32>\n}\n";
  auto m = readTtgir(text, "t.ttgir");
  EXPECT_TRUE(m.ok() || !m.error().message.empty());
}

TEST(Ttgir, MalformedFilesAreErrorsWithPositions) {
  std::string good = readFile(kSmall);
  std::vector<BadCase> cases = {
      // Cut in half, inside "tensor<32x16x!tt.pt" on line 12: the innermost open bracket.
      {good.substr(0, good.size() / 2),
       "t.ttgir:12:42: the file ends inside the '<' opened at line 12, column 29: is it cut "
       "short?"},
      {"#blocked = " + kBlocked +
           "\nmodule {\n  %a = ttg.convert_layout %x : "
           "tensor<4xf16, #blocked> -> tensor<4xf16, #nowhere>\n}\n",
       "t.ttgir:3:73: #nowhere is used but never defined (no line '#nowhere = ...')"},
      {"module {\n  %a = ttg.convert_layout %x : tensor<4xf16, #b -> tensor<4xf16, #b>\n}\n",
       "t.ttgir:2:38: '<' is not closed before the '}' at line 3, column 1"},
      {"#a = #ttg.linear<{register = [], lane = [], warp = [], block = []}>\n#a = #ttg.linear<{}>\n"
       "module {\n}\n",
       "t.ttgir:2:1: alias #a is defined twice"},
      {"module {\n  %a = ttg.convert_layout %x : tensor<4xf16> -> tensor<4xf16>\n} loc(\"k.py",
       "t.ttgir:3:7: the file ends inside a string: is it cut short?"},
      {"#b\nmodule {\n}\n", "t.ttgir:1:1: expected an alias definition '#name = ...' on a line "
                            "starting with '#'"},
      {"module attributes {\"ttg.num-warps\" = 3 : i32} {\n}\n",
       "t.ttgir:1:20: ttg.num-warps must be a power of two such as 4 : i32, got 3 : i32"},
      {"module {\n}\n)", "t.ttgir:3:1: unexpected ')': nothing is open here"},
  };
  for (const BadCase& c : cases) {
    auto m = readTtgir(c.text, "t.ttgir");
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_NE(m.error().str().find(c.message), std::string::npos)
        << "got: " << m.error().str() << "\nexpected: " << c.message;
  }
}

TEST(Ttgir, OptionsAreCheckedAgainstTheModule) {
  TtgirOptions o;
  o.numWarps = 8;
  auto m = readTtgir(readFile(kSmall), "small.ttgir", o);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().str(),
            "small.ttgir: numWarps 8 disagrees with the module's ttg.num-warps = 4");
}

TEST(Ttgir, Detection) {
  EXPECT_TRUE(looksLikeTtgir("#blocked = #ttg.blocked<{}>\nmodule {}"));
  EXPECT_TRUE(looksLikeTtgir("\n  module attributes {} {\n}"));
  EXPECT_TRUE(looksLikeTtgir("#loc = loc(\"a.py\":1:1)\n"));
  EXPECT_FALSE(looksLikeTtgir("#ttg.linear<{register = [], lane = [], warp = [], block = []}>"));
  EXPECT_FALSE(looksLikeTtgir("#blocked"));
  EXPECT_FALSE(looksLikeTtgir(" - register=1 -> (0, 1)"));
  EXPECT_FALSE(looksLikeTtgir("{\"ins\": []}"));
  EXPECT_FALSE(looksLikeTtgir("modules"));
}

TEST(Ttgir, EveryCorpusFileIsUnderstood) {
  std::filesystem::path root = std::filesystem::path(LLCHECK_SOURCE_DIR) / "corpus" / "ttgir";
  ASSERT_TRUE(std::filesystem::is_directory(root));
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".ttgir")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 60u);
  std::size_t layouts = 0, computed = 0, unsupported = 0, ops = 0, failures = 0;
  std::map<std::string, std::size_t> opCounts;
  for (const auto& f : files) {
    std::string name = std::filesystem::relative(f, root).string();
    auto m = readTtgir(readFile(f), name);
    if (!m.ok()) {
      ADD_FAILURE() << m.error().str();
      ++failures;
      continue;
    }
    EXPECT_TRUE(m->target && m->numWarps && m->threadsPerWarp && m->numCtas) << name;
    layouts += m->layouts.size();
    for (const TtgirLayout& l : m->layouts)
      computed += l.layout ? 1 : 0;
    ops += m->ops.size();
    for (const TtgirOp& op : m->ops)
      ++opCounts[op.name];
    for (const TtgirNotUnderstood& n : m->notUnderstood) {
      if (kAllowUnsupportedEncodings && n.unsupportedEncoding) {
        ++unsupported;
        continue;
      }
      ADD_FAILURE() << n.where << ": " << n.what << " " << n.text << ": " << n.reason;
      ++failures;
    }
  }
  std::cout << "[ TTGIR    ] " << files.size() << " corpus files, " << layouts
            << " distinct (encoding, shape) per file summed, " << computed << " computed, "
            << unsupported << " encodings not supported yet (allowed: "
            << (kAllowUnsupportedEncodings ? "yes" : "no") << "), " << ops << " data-moving ops\n";
  for (const auto& [name, n] : opCounts)
    std::cout << "[ TTGIR    ]   " << name << ": " << n << "\n";
  EXPECT_EQ(failures, 0u);
}

} // namespace

namespace llcheck::test {
namespace {

// tt.load / tt.store of tensors of pointers are read with the pointers' layout and pointee, in
// file order; a scalar pointer (no layout) is skipped, a block pointer listed as not understood;
// each pointer argument of tt.func comes with its divisibility (0 when unmarked).
TEST(Ttgir, GlobalAccessesAndPointerDivisibility) {
  const char* text =
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @k(%src: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("src"(#loc)), %dst: !tt.ptr<f16> loc("dst"(#loc)), %n: i32) {
    %0 = tt.load %p : tensor<16x64x!tt.ptr<f16>, #blocked> loc(#loc3)
    %1 = tt.load %s : !tt.ptr<f32>
    %2 = tt.load %bp : !tt.ptr<tensor<16x64xf16, #blocked>>
    %3 = tt.load %bq : !tt.ptr<tensor<16x64xf16>>
    tt.store %q, %0, %m : tensor<16x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
#loc = loc("k.py":1:0)
#loc3 = loc("k.py":9:13)
)";
  auto m = readTtgir(text, "g.ttgir");
  ASSERT_TRUE(m.ok()) << m.error().str();
  ASSERT_EQ(m->globalAccesses.size(), 3u); // the scalar load too, not the block pointer
  const TtgirGlobalAccess& load = m->globalAccesses[0];
  EXPECT_EQ(load.op, "tt.load");
  EXPECT_EQ(load.shape, (std::vector<uint64_t>{16, 64}));
  EXPECT_EQ(load.elementType, "f16");
  EXPECT_EQ(load.location, "k.py:9:13");
  ASSERT_GE(load.pointers.layout, 0);
  EXPECT_EQ(m->layouts[static_cast<std::size_t>(load.pointers.layout)].encoding, "#blocked");
  EXPECT_TRUE(m->globalAccesses[1].scalar);
  EXPECT_EQ(m->globalAccesses[1].elementType, "f32");
  EXPECT_FALSE(m->globalAccesses[2].scalar);
  EXPECT_EQ(m->globalAccesses[2].op, "tt.store");
  EXPECT_EQ(m->globalAccesses[2].location, "g.ttgir:8");
  ASSERT_EQ(m->pointerArguments.size(), 2u);
  EXPECT_EQ(m->pointerArguments[0].name, "src");
  EXPECT_EQ(m->pointerArguments[0].divisibility, 16u);
  EXPECT_EQ(m->pointerArguments[1].name, "dst");
  EXPECT_EQ(m->pointerArguments[1].divisibility, 0u);
  bool blockPointer = false;
  for (const TtgirNotUnderstood& n : m->notUnderstood)
    blockPointer = blockPointer || n.reason.find("block pointer") != std::string::npos;
  EXPECT_TRUE(blockPointer);
}

} // namespace
} // namespace llcheck::test
