// `llcheck report`'s analysis and outputs, checked against counts derived by hand from the
// hardware rule (design doc: a bank serves one 4-byte word per wavefront), Triton's definition of
// #ttg.blocked and #ttg.swizzled_shared, and the GPU oracle's committed measurements.
#include "llcheck/reports/Outputs.h"
#include "llcheck/reports/Report.h"

#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/TritonLowering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <unistd.h>

using namespace llcheck;
using namespace llcheck::reports;
using json = nlohmann::json;

namespace {

const char* kHeader =
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
    "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
    "  tt.func public @k() attributes {noinline = false} {\n";
const char* kFooter = "    tt.return\n  }\n}\n";

/// One warp per row quarter, every lane one column: lane l of warp w holds (8w + r, l).
const char* kRowsAlias = "#rows = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
                         "warpsPerCTA = [4, 1], order = [1, 0]}>\n";

TtgirModule read(const std::string& text) {
  auto m = readTtgir(text, "test.ttgir");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().str());
  return m.ok() ? *m : TtgirModule{};
}

ReportOptions noZ3() {
  ReportOptions o;
  o.z3 = false;
  o.threads = 1;
  return o;
}

const OpEntry* findOp(const KernelReport& k, const std::string& name) {
  for (const OpEntry& op : k.ops)
    if (op.op == name)
      return &op;
  return nullptr;
}

bool hasFinding(const std::vector<Finding>& fs, const std::string& kind) {
  for (const Finding& f : fs)
    if (f.kind == kind)
      return true;
  return false;
}

/// 32x32 f32 stored from #rows into column-major shared memory (offset = r + 32 c) and loaded
/// back: the 32 lanes of an instruction write one row, 32 words 32 apart, all in one bank.
std::string columnMajorRoundTrip() {
  return std::string(kRowsAlias) +
         "#col = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>\n"
         "#smem = #ttg.shared_memory\n" +
         kHeader +
         "    %a = arith.constant dense<0.0> : tensor<32x32xf32, #rows>\n"
         "    %s = ttg.local_alloc %a : (tensor<32x32xf32, #rows>) -> !ttg.memdesc<32x32xf32, "
         "#col, #smem>\n"
         "    %b = ttg.local_load %s : !ttg.memdesc<32x32xf32, #col, #smem> -> "
         "tensor<32x32xf32, #rows>\n" +
         kFooter;
}

/// The report of `ttgir` with the SASS function `sass` (its instructions) beside it, read from
/// a temporary k.ttgir and k.sass (launches in `o` are found by the stem "k").
KernelReport reportWithSass(const std::string& ttgir, const std::string& sass,
                            ReportOptions o = noZ3()) {
  auto dir =
      std::filesystem::temp_directory_path() / ("llcheck-report-sass-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "k.ttgir") << ttgir; }
  { std::ofstream(dir / "k.sass") << "\t\tFunction : k\n" << sass; }
  auto m = readTtgir(ttgir, (dir / "k.ttgir").string());
  EXPECT_TRUE(m.ok());
  o.readSass = true;
  KernelReport k = m.ok() ? reportModule(*m, o) : KernelReport{};
  std::filesystem::remove_all(dir);
  return k;
}

} // namespace

TEST(Report, ColumnMajorRoundTripIsAboveTheOptimum) {
  KernelReport k = reportModule(read(columnMajorRoundTrip()), noZ3());
  ASSERT_EQ(k.ops.size(), 2u);
  const OpEntry* store = findOp(k, "ttg.local_alloc");
  const OpEntry* load = findOp(k, "ttg.local_load");
  ASSERT_TRUE(store && load);
  // By hand: each warp holds 8 rows (8 registers of 32 bits), one instruction per row, 4 warps:
  // 32 instructions, each 32 wavefronts (one bank asked for 32 words).
  EXPECT_EQ(store->predicted["store"]["instructions"], 32);
  EXPECT_EQ(store->predicted["store"]["wavefronts"], 32 * 32);
  EXPECT_EQ(store->predicted["store"]["bank_conflicts"], 32 * 31);
  EXPECT_EQ(load->predicted["load"]["wavefronts"], 32 * 32);
  // The optimum for #rows -> #rows: row-major, one wavefront per instruction each way.
  ASSERT_TRUE(load->optimum.contains("conversions")) << load->optimum.dump();
  const json& c = load->optimum["conversions"][0];
  EXPECT_EQ(c["compiler"]["wavefronts"], 2048);
  EXPECT_EQ(c["optimal"]["wavefronts"], 64);
  EXPECT_TRUE(hasFinding(load->findings, "above_optimum"));
  // One conversion, one finding: it is kept on the reading op.
  EXPECT_FALSE(hasFinding(store->findings, "above_optimum"));
  EXPECT_EQ(load->findings.front().severity, 2048 - 64);
  // Both layouts are legal.
  for (const LayoutEntry& l : k.layouts)
    EXPECT_TRUE(l.legal) << l.encoding;
}

TEST(Report, NvidiaPredictionIsTritonsLowering) {
  // On cuda:90 `predicted` is what Triton emits (TritonLowering.h) for the release read with,
  // llcheck's own best instruction beside it.
  for (TritonVersion v : supportedTritonVersions()) {
    ReportOptions o = noZ3();
    o.triton = v;
    KernelReport k = reportModule(read(columnMajorRoundTrip()), o);
    const OpEntry* store = findOp(k, "ttg.local_alloc");
    const OpEntry* load = findOp(k, "ttg.local_load");
    ASSERT_TRUE(store && load);
    const LayoutEntry& reg = k.layouts.at(static_cast<std::size_t>(store->src));
    const LayoutEntry& shared = k.layouts.at(static_cast<std::size_t>(store->dst));
    auto model = sharedMemoryModel("sm90");
    ASSERT_TRUE(model.ok());
    for (const OpEntry* op : {store, load}) {
      bool isStore = op == store;
      const char* side = isStore ? "store" : "load";
      auto t = tritonLocalAccess(*reg.layout, *shared.layout, shared.padding,
                                 isStore ? SharedAccessKind::Store : SharedAccessKind::Load, *model,
                                 TritonLoweringOptions{v, 32});
      ASSERT_TRUE(t.ok()) << t.error().str();
      EXPECT_EQ(op->predicted["lowering"], "triton");
      EXPECT_EQ(op->predicted["triton"], tritonVersionName(v));
      EXPECT_EQ(op->predicted[side]["instruction"], t->name);
      EXPECT_EQ(op->predicted[side]["instructions"], t->count.instructions);
      EXPECT_EQ(op->predicted[side]["wavefronts"], t->count.wavefronts);
      EXPECT_EQ(op->predicted["wavefronts"], t->count.wavefronts);
      EXPECT_FALSE(op->predicted.contains("misaligned_accesses"));
      // llcheck's own choice, as before: 32 ld/st.shared.b32, 32 wavefronts each.
      EXPECT_EQ(op->predicted["llcheck"][side]["wavefronts"], 32 * 32);
      EXPECT_EQ(op->predicted["llcheck"][side]["instruction"],
                std::string(side) == "store" ? "st.shared.b32" : "ld.shared.b32");
    }
    // The conversion through the layout: Triton's store + load against llcheck's optimum.
    const json& c = load->optimum["conversions"][0]["compiler"];
    EXPECT_EQ(c["lowering"], "triton");
    EXPECT_EQ(c["wavefronts"], store->predicted["wavefronts"].get<uint64_t>() +
                                   load->predicted["wavefronts"].get<uint64_t>());
    EXPECT_EQ(c["llcheck"]["wavefronts"], 2048);
  }
}

TEST(Report, APointerTensorMovesAsItsAddress) {
  // Triton 3.9 converts FlagGems' pointer tensors: through shared memory a pointer is its 64-bit
  // address, so the convert costs what an i64 one does.
  auto convert = [](const std::string& element) {
    return std::string(kRowsAlias) +
           "#cols = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], "
           "warpsPerCTA = [1, 4], order = [0, 1]}>\n" +
           kHeader + "    %a = tt.splat %p : " + element + " -> tensor<32x32x" + element +
           ", #rows>\n" + "    %b = ttg.convert_layout %a : tensor<32x32x" + element +
           ", #rows> -> tensor<32x32x" + element + ", #cols>\n" + kFooter;
  };
  KernelReport pointer = reportModule(read(convert("!tt.ptr<f16>")), noZ3());
  KernelReport i64 = reportModule(read(convert("i64")), noZ3());
  const OpEntry* p = findOp(pointer, "ttg.convert_layout");
  const OpEntry* q = findOp(i64, "ttg.convert_layout");
  ASSERT_TRUE(p && q);
  EXPECT_EQ(p->notAnalysed, "");
  EXPECT_EQ(p->elementBits, 64);
  EXPECT_EQ(p->predicted["shared_memory"], true);
  EXPECT_EQ(p->predicted, q->predicted);
}

TEST(Report, AmdPredictionIsLlchecksOwn) {
  // The same round trip on gfx942 (64-lane warps).
  std::string text =
      std::regex_replace(columnMajorRoundTrip(), std::regex("cuda:90"), "hip:gfx942");
  text = std::regex_replace(text, std::regex("threadsPerWarp = \\[1, 32\\]"),
                            "threadsPerWarp = [2, 32]");
  text = std::regex_replace(text, std::regex("\"ttg.threads-per-warp\" = 32"),
                            "\"ttg.threads-per-warp\" = 64");
  KernelReport k = reportModule(read(text), noZ3());
  ASSERT_EQ(k.ops.size(), 2u);
  for (const OpEntry& op : k.ops) {
    ASSERT_TRUE(op.notAnalysed.empty()) << op.notAnalysed;
    EXPECT_EQ(op.predicted["lowering"], "llcheck") << op.op;
    EXPECT_FALSE(op.predicted.contains("llcheck")) << op.op;
    EXPECT_FALSE(op.predicted.contains("triton")) << op.op;
  }
}

/// A blocked layout of 4 consecutive f16 per thread stored into a padded layout that moves the
/// second half of the tensor by 2 elements: Triton emits st.shared.v4.b16 (8 bytes) at 4-byte
/// aligned addresses (`llcheck bank-conflicts ... --lowering triton` says the same).
std::string paddedMisaligned(const std::string& target) {
  return "#blocked = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], "
         "warpsPerCTA = [1, 4], order = [0, 1]}>\n"
         "#shared = #ttg.padded_shared<[512:+2] {order = [0, 1], shape = [128, 8]}>\n"
         "#smem = #ttg.shared_memory\n"
         "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, "
         "ttg.target = \"" +
         target +
         "\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
         "  tt.func public @k() attributes {noinline = false} {\n"
         "    %v = arith.constant dense<0.0> : tensor<128x8xf16, #blocked>\n"
         "    %a = ttg.local_alloc %v : (tensor<128x8xf16, #blocked>) -> "
         "!ttg.memdesc<128x8xf16, #shared, #smem>\n"
         "    %w = ttg.local_load %a : !ttg.memdesc<128x8xf16, #shared, #smem> -> "
         "tensor<128x8xf16, #blocked>\n" +
         kFooter;
}

TEST(Report, MisalignedAccessIsAFinding) {
  for (TritonVersion v : supportedTritonVersions()) {
    ReportOptions o = noZ3();
    o.triton = v;
    KernelReport k = reportModule(read(paddedMisaligned("cuda:90")), o);
    ASSERT_EQ(k.ops.size(), 2u);
    for (const OpEntry& op : k.ops) {
      const char* side = op.op == "ttg.local_alloc" ? "store" : "load";
      EXPECT_EQ(op.predicted[side]["instruction"],
                std::string(side) == "store" ? "st.shared.v4.b16" : "ld.shared.v4.b16");
      // Every lane access of the second half (4 warps x 32 lanes, one instruction each).
      EXPECT_EQ(op.predicted["misaligned_accesses"], 128);
      ASSERT_TRUE(hasFinding(op.findings, "misaligned_access")) << op.op;
      for (const Finding& f : op.findings)
        if (f.kind == "misaligned_access") {
          EXPECT_GE(f.severity, 1e8);
          EXPECT_NE(f.message.find("faults"), std::string::npos) << f.message;
        }
    }
    Report r;
    r.kernels.push_back(k);
    json j = toJson(r);
    EXPECT_EQ(j["summary"]["findings_by_kind"]["misaligned_access"], 2);
    EXPECT_EQ(j["summary"]["worst"][0]["kind"], "misaligned_access");
    EXPECT_NE(toMarkdown(r).find("| findings: misaligned_access | 2 |"), std::string::npos);
  }
  // On AMD (64-lane warps) there is no Triton lowering model: llcheck's own accesses, which
  // keep to the padding's alignment, and no finding.
  std::string text =
      std::regex_replace(paddedMisaligned("hip:gfx942"), std::regex("threadsPerWarp = \\[32, 1\\]"),
                         "threadsPerWarp = [32, 2]");
  text = std::regex_replace(text, std::regex("\"ttg.threads-per-warp\" = 32"),
                            "\"ttg.threads-per-warp\" = 64");
  text = std::regex_replace(text, std::regex("128x8"), "128x16");
  text = std::regex_replace(text, std::regex("shape = \\[128, 8\\]"), "shape = [128, 16]");
  KernelReport amd = reportModule(read(text), noZ3());
  ASSERT_EQ(amd.ops.size(), 2u);
  for (const OpEntry& op : amd.ops) {
    ASSERT_TRUE(op.notAnalysed.empty()) << op.notAnalysed;
    EXPECT_EQ(op.predicted["lowering"], "llcheck");
    EXPECT_FALSE(hasFinding(op.findings, "misaligned_access")) << op.op;
  }
}

TEST(Report, ScalarStoresAsTheSassExecutesThem) {
  // Two scalar stores (thread 0's): ptxas predicates the first in every warp and puts the second
  // after `@P0 EXIT` (Liger's cross entropy), or branches around both (3.9's Liger layer norm).
  // The SASS beside the TTGIR says which: every warp executes a predicated one, one warp the
  // others.
  const std::string ttgir =
      "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
      "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {\n"
      "    %c1 = arith.constant 1 : i32\n"
      "    %v = arith.constant 1.0 : f32\n"
      "    %q = tt.addptr %p, %c1 : !tt.ptr<f32>, i32\n"
      "    tt.store %p, %v : !tt.ptr<f32>\n"
      "    tt.store %q, %v : !tt.ptr<f32>\n"
      "    tt.return\n  }\n}\n";
  auto executed = [&](const std::string& sass, const std::string& module = "") {
    KernelReport k = reportWithSass(module.empty() ? ttgir : module, sass);
    std::vector<uint64_t> n;
    for (const json& g : k.globalAccesses) {
      const json& p = g["predicted"];
      n.push_back(p.contains("instructions_executed") ? p["instructions_executed"]["instructions"]
                                                      : p["instructions"]);
    }
    return n;
  };
  EXPECT_EQ(executed("        /*0000*/              @!P0 STG.E desc[UR4][R2.64], R5 ;\n"
                     "        /*0010*/               @P0 EXIT ;\n"
                     "        /*0020*/                   STG.E desc[UR4][R2.64+0x4], R5 ;\n"
                     "        /*0030*/                   EXIT ;\n"),
            (std::vector<uint64_t>{4, 1}));
  EXPECT_EQ(executed("        /*0000*/                   BSSY B0, 0x30 ;\n"
                     "        /*0010*/               @P0 BRA 0x30 ;\n"
                     "        /*0020*/                   STG.E desc[UR4][R2.64], R5 ;\n"
                     "        /*0030*/                   STG.E desc[UR4][R2.64+0x4], R5 ;\n"
                     "        /*0040*/                   BSYNC B0 ;\n"
                     "        /*0050*/                   EXIT ;\n"),
            (std::vector<uint64_t>{1, 4}));
  EXPECT_EQ(executed("        /*0000*/                   BSSY B0, 0x40 ;\n"
                     "        /*0010*/               @P0 BRA 0x40 ;\n"
                     "        /*0020*/                   STG.E desc[UR4][R2.64], R5 ;\n"
                     "        /*0030*/                   STG.E desc[UR4][R2.64+0x4], R5 ;\n"
                     "        /*0040*/                   BSYNC B0 ;\n"
                     "        /*0050*/                   EXIT ;\n"),
            (std::vector<uint64_t>{1, 1}));
  // Inside a loop (FlagGems' topk: a scalar store per trip): every warp executes the predicated
  // STG, 4 of 4 on the H200; one a branch in the loop jumps over stays thread 0's warp's.
  std::string inLoop = ttgir;
  inLoop.replace(inLoop.find("    tt.store %p"), 0,
                 "    %c0 = arith.constant 0 : i32\n"
                 "    %c8 = arith.constant 8 : i32\n"
                 "    scf.for %i = %c0 to %c8 step %c1  : i32 {\n");
  inLoop.replace(inLoop.find("    tt.return"), 0, "    }\n");
  EXPECT_EQ(executed("        /*0000*/               @P0 STG.E desc[UR4][R2.64], R5 ;\n"
                     "        /*0010*/               @P0 STG.E desc[UR4][R2.64+0x4], R5 ;\n"
                     "        /*0020*/               @P1 BRA 0x0 ;\n"
                     "        /*0030*/                   EXIT ;\n",
                     inLoop),
            (std::vector<uint64_t>{4, 4}));
  EXPECT_EQ(executed("        /*0000*/               @P0 STG.E desc[UR4][R2.64], R5 ;\n"
                     "        /*0010*/               @P0 BRA 0x30 ;\n"
                     "        /*0020*/                   STG.E desc[UR4][R2.64+0x4], R5 ;\n"
                     "        /*0030*/               @P1 BRA 0x0 ;\n"
                     "        /*0040*/                   EXIT ;\n",
                     inLoop),
            (std::vector<uint64_t>{1, 1}));
}

TEST(Report, ATileStoreInALoopIsExecutedByItsCopiesWarps) {
  // fla's HGRN backward: a 32-element row in 4 warps of 32 lanes (each warp holds a copy),
  // stored once a trip. ptxas predicates the STG (`@!P0 STG` in the loop): every warp executes
  // it, 4 times the owners' instructions (the H200: 65,536 where one warp's are 16,384).
  const std::string ttgir =
      "#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
      "order = [0]}>\n"
      "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
      "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {\n"
      "    %c0 = arith.constant 0 : i32\n"
      "    %c1 = arith.constant 1 : i32\n"
      "    %c8 = arith.constant 8 : i32\n"
      "    %v = arith.constant dense<1.0> : tensor<32xf32, #row>\n"
      "    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #row>\n"
      "    %s = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #row>\n"
      "    %a = tt.addptr %s, %r : tensor<32x!tt.ptr<f32>, #row>, tensor<32xi32, #row>\n"
      "    scf.for %i = %c0 to %c8 step %c1  : i32 {\n"
      "      tt.store %a, %v : tensor<32x!tt.ptr<f32>, #row>\n"
      "    }\n"
      "    tt.return\n  }\n}\n";
  auto executed = [&](const std::string& sass) {
    KernelReport k = reportWithSass(ttgir, sass);
    const json& p = k.globalAccesses.at(0)["predicted"];
    return p.contains("instructions_executed") ? p["instructions_executed"]["instructions"]
                                               : p["instructions"];
  };
  EXPECT_EQ(executed("        /*0000*/              @!P0 STG.E desc[UR4][R2.64], R5 ;\n"
                     "        /*0010*/               @P1 BRA 0x0 ;\n"
                     "        /*0020*/                   EXIT ;\n"),
            4u);
  // A branch in the loop around the STG: the warps with nothing to store jump over it.
  EXPECT_EQ(executed("        /*0000*/               @P0 BRA 0x20 ;\n"
                     "        /*0010*/                   STG.E desc[UR4][R2.64], R5 ;\n"
                     "        /*0020*/               @P1 BRA 0x0 ;\n"
                     "        /*0030*/                   EXIT ;\n"),
            1u);
}

TEST(Report, ALaunchCountsAnLdgstsOnP0AtItsDestinationsWavefrontsAndOnNotP0AtItsSources) {
  // A 32x32 f16 tile whose 64-byte rows lie a row stride apart (4096 elements: each row in its
  // own global line), copied 16 bytes a lane into a contiguous buffer: 1 LDGSTS a warp. The
  // source-aware rule gives 8 wavefronts an instruction (a wavefront never spans two global
  // lines); ncu on the H200 gives an LDGSTS whose zero-fill predicate is P0 its destination's,
  // 4 (gpu_oracle/ldgsts_rule/concurrency, the real-kernels corpus).
  const std::string ttgir =
      "#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
      "order = [1, 0]}>\n"
      "#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n"
      "#smem = #ttg.shared_memory\n"
      "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
      "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 "
      "{tt.divisibility = 16 : i32}, %rows: i32) {\n"
      "    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, "
      "#ttg.slice<{dim = 1, parent = #b}>>\n"
      "    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, "
      "parent = #b}>> -> tensor<32x1xi32, #b>\n"
      "    %s = tt.splat %stride : i32 -> tensor<32x1xi32, #b>\n"
      "    %rs = arith.muli %r2, %s : tensor<32x1xi32, #b>\n"
      "    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, "
      "#ttg.slice<{dim = 0, parent = #b}>>\n"
      "    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, "
      "parent = #b}>> -> tensor<1x32xi32, #b>\n"
      "    %rb = tt.broadcast %rs : tensor<32x1xi32, #b> -> tensor<32x32xi32, #b>\n"
      "    %cb = tt.broadcast %c2 : tensor<1x32xi32, #b> -> tensor<32x32xi32, #b>\n"
      "    %o = arith.addi %rb, %cb : tensor<32x32xi32, #b>\n"
      "    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #b>\n"
      "    %a = tt.addptr %ps, %o : tensor<32x32x!tt.ptr<f16>, #b>, tensor<32x32xi32, #b>\n"
      "    %n = tt.splat %rows : i32 -> tensor<32x1xi32, #b>\n"
      "    %in = arith.cmpi slt, %r2, %n : tensor<32x1xi32, #b>\n"
      "    %m = tt.broadcast %in : tensor<32x1xi1, #b> -> tensor<32x32xi1, #b>\n"
      "    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #sh, #smem, mutable>\n"
      "    %t = ttg.async_copy_global_to_local %a, %buf mask %m : tensor<32x32x!tt.ptr<f16>, #b> "
      "-> "
      "<32x32xf16, #sh, #smem, mutable>\n"
      "    tt.return\n  }\n}\n";
  auto launched = [&](const std::string& sass, int64_t rows = 32) {
    ReportOptions o = noZ3();
    ReportLaunch launch;
    launch.id = "k#0";
    launch.arguments.integers["stride"] = 4096;
    launch.arguments.integers["rows"] = rows;
    o.launches["k"] = {launch};
    KernelReport k = reportWithSass(ttgir, sass, o);
    const OpEntry* copy = findOp(k, "ttg.async_copy_global_to_local");
    EXPECT_TRUE(copy && copy->launches.is_array() && copy->launches.size() == 1);
    return copy && copy->launches.size() == 1 ? std::make_pair(copy->predicted, copy->launches[0])
                                              : std::make_pair(json(), json());
  };
  auto [p0, onP0] = launched("        /*0000*/                   LDGSTS.E.BYPASS.128 [R3], "
                             "desc[UR4][R4.64], P0 ;\n"
                             "        /*0010*/                   EXIT ;\n");
  EXPECT_EQ(onP0.value("instructions", 0), 4) << onP0.dump();
  EXPECT_EQ(onP0.value("wavefronts", 0), 4 * 4) << onP0.dump();
  EXPECT_EQ(p0.value("launch_ldgsts_on_p0", 0), 4);
  auto [p1, onP1] = launched("        /*0000*/                   LDGSTS.E.BYPASS.128 [R3], "
                             "desc[UR4][R4.64], P1 ;\n"
                             "        /*0010*/                   EXIT ;\n");
  EXPECT_EQ(onP1.value("wavefronts", 0), 4 * 8) << onP1.dump();
  EXPECT_FALSE(p1.contains("launch_ldgsts_on_p0"));
  EXPECT_FALSE(p1.contains("launch_ldgsts_not_matched"));
  // A 4-byte LDGSTS (cp.async.ca) is none of this copy's: it is not matched, the rule counts.
  auto [ca, byRule] = launched("        /*0000*/                   LDGSTS.E [R3], "
                               "desc[UR4][R4.64], P0 ;\n"
                               "        /*0010*/                   EXIT ;\n");
  EXPECT_EQ(byRule.value("wavefronts", 0), 4 * 8) << byRule.dump();
  EXPECT_TRUE(ca.contains("launch_ldgsts_not_matched"));
  // Every lane masked off (rows = 0): on P1 the destination's 4; on !P0, as FlagGems' bmm past
  // K, the rule's 8 for the lanes' computed sources, as if every lane copied.
  auto [m1, offOnP1] = launched("        /*0000*/                   LDGSTS.E.BYPASS.128 [R3], "
                                "desc[UR4][R4.64], P1 ;\n"
                                "        /*0010*/                   EXIT ;\n",
                                0);
  EXPECT_EQ(offOnP1.value("wavefronts", 0), 4 * 4) << offOnP1.dump();
  EXPECT_EQ(offOnP1.value("instructions_masked_off", 0), 4) << offOnP1.dump();
  auto [m2, offOnNotP0] = launched("        /*0000*/                   LDGSTS.E.BYPASS.128 [R3], "
                                   "desc[UR4][R4.64], !P0 ;\n"
                                   "        /*0010*/                   EXIT ;\n",
                                   0);
  EXPECT_EQ(offOnNotP0.value("wavefronts", 0), 4 * 8) << offOnNotP0.dump();
  EXPECT_EQ(m2.value("launch_ldgsts_on_not_p0", 0), 4);
}

TEST(Report, ALaunchCountsTheRunsOfEverySharedMemoryOp) {
  // fla's `if i_i <= i_j: return` (chunk_gla_fwd_A_kernel_intra_sub_inter): a cf.cond_br on
  // the program id to a block that returns. Per CTA the report cannot know which programs
  // reach the ops after it; with the launch's grid (8 programs, those with pid >= 3 go on)
  // each op's `launches` gives its runs: 5.
  const std::string ttgir =
      std::string(kRowsAlias) +
      "#col = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>\n"
      "#smem = #ttg.shared_memory\n" +
      "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
      "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @k() attributes {noinline = false} {\n"
      "    %c3 = arith.constant 3 : i32\n"
      "    %pid = tt.get_program_id x : i32\n"
      "    %early = arith.cmpi slt, %pid, %c3 : i32\n"
      "    cf.cond_br %early, ^bb1, ^bb2\n"
      "  ^bb1:\n"
      "    tt.return\n"
      "  ^bb2:\n"
      "    %a = arith.constant dense<0.0> : tensor<32x32xf32, #rows>\n"
      "    %s = ttg.local_alloc %a : (tensor<32x32xf32, #rows>) -> !ttg.memdesc<32x32xf32, "
      "#col, #smem>\n"
      "    %b = ttg.local_load %s : !ttg.memdesc<32x32xf32, #col, #smem> -> "
      "tensor<32x32xf32, #rows>\n"
      "    tt.return\n  }\n}\n";
  TtgirModule m = read(ttgir);
  ReportOptions o = noZ3();
  ReportLaunch launch;
  launch.id = "k#0";
  launch.arguments.grid = {8, 1, 1};
  o.launches["test"] = {launch};
  KernelReport k = reportModule(m, o);
  int counted = 0;
  for (const OpEntry& op : k.ops) {
    if (op.op != "ttg.local_alloc" && op.op != "ttg.local_load")
      continue;
    ASSERT_TRUE(op.launches.is_array()) << op.op;
    ASSERT_EQ(op.launches.size(), 1u);
    EXPECT_EQ(op.launches[0].value("launch", ""), "k#0");
    EXPECT_EQ(op.launches[0].value("runs", uint64_t{0}), 5u) << op.launches.dump();
    ++counted;
  }
  EXPECT_EQ(counted, 2);
}

TEST(Report, AnI64LoadOnlyTruncatedIsItsLowWord) {
  // FlagGems' _to_copy of the sort's indices, shortened: the loaded i64 is only truncated to
  // i32, so LLVM loads the low 32 bits of each element alone (measured on the H200,
  // gpu_oracle/real_kernels: LDG.E at the 64-bit elements' addresses). A load with any other
  // use keeps its 64-bit width.
  auto module = [](const std::string& use) {
    return "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
           "order = [0]}>\n"
           "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, "
           "ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
           "  tt.func public @k(%in: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %out: "
           "!tt.ptr<i32> {tt.divisibility = 16 : i32}) {\n"
           "    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>\n"
           "    %p = tt.splat %in : !tt.ptr<i64> -> tensor<128x!tt.ptr<i64>, #b>\n"
           "    %a = tt.addptr %p, %r : tensor<128x!tt.ptr<i64>, #b>, tensor<128xi32, #b>\n"
           "    %x = tt.load %a : tensor<128x!tt.ptr<i64>, #b>\n" +
           use +
           "    %q = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>\n"
           "    %o = tt.addptr %q, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>\n"
           "    tt.store %o, %t : tensor<128x!tt.ptr<i32>, #b>\n"
           "    tt.return\n  }\n}\n";
  };
  auto load = [&](const std::string& use) {
    KernelReport k = reportModule(read(module(use)), noZ3());
    for (const json& g : k.globalAccesses)
      if (g["op"] == "tt.load")
        return g["predicted"];
    return json();
  };
  json narrowed = load("    %t = arith.trunci %x : tensor<128xi64, #b> to tensor<128xi32, #b>\n");
  EXPECT_EQ(narrowed["ptx"], "ld.global.b32");
  EXPECT_EQ(narrowed["vector_bits"], 32);
  EXPECT_EQ(narrowed["instructions"], 4); // one element per thread: 4 warps x 1
  EXPECT_TRUE(narrowed.contains("narrowed"));
  json kept = load("    %y = arith.addi %x, %x : tensor<128xi64, #b>\n"
                   "    %t = arith.trunci %y : tensor<128xi64, #b> to tensor<128xi32, #b>\n");
  EXPECT_EQ(kept["ptx"], "ld.global.v2.b32"); // how Triton writes a 64-bit load
  EXPECT_FALSE(kept.contains("narrowed"));
}

TEST(Report, TritonConvertThroughSharedMemoryIsAboveTheOptimum) {
  // mma v2 A operand (kWidth 2) to its mma parent, 64x64 f16, 4 warps [2, 2]: every thread
  // already holds what it needs (llcheck renames registers), but Triton's pseudo-inverse does
  // not notice the copies the two warps along N hold and goes through shared memory (measured
  // on an H100: reports/triton-3.6.x, dotA_to_mma2-float16, 128 + 64 wavefronts).
  std::string text =
      "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
      "instrShape = [16, 8]}>\n" +
      std::string(kHeader) +
      "    %x = arith.constant dense<0.0> : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = "
      "#mma, kWidth = 2}>>\n"
      "    %y = ttg.convert_layout %x : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, "
      "kWidth = 2}>> -> tensor<64x64xf16, #mma>\n" +
      kFooter;
  ReportOptions o = noZ3();
  o.triton = TritonVersion::v3_6;
  KernelReport k = reportModule(read(text), o);
  const OpEntry* cvt = findOp(k, "ttg.convert_layout");
  ASSERT_TRUE(cvt);
  EXPECT_EQ(cvt->plan["kind"], "register_permutation");
  EXPECT_EQ(cvt->optimum["wavefronts"], 0);
  EXPECT_EQ(cvt->predicted["lowering"], "triton");
  EXPECT_EQ(cvt->predicted["shared_memory"], true);
  EXPECT_EQ(cvt->predicted["store"]["wavefronts"], 128);
  EXPECT_EQ(cvt->predicted["load"]["wavefronts"], 64);
  EXPECT_EQ(cvt->predicted["llcheck"]["wavefronts"], 0);
  ASSERT_TRUE(hasFinding(cvt->findings, "above_optimum"));
  EXPECT_EQ(cvt->findings.front().severity, 192);
}

TEST(Report, RowMajorRoundTripHasNoFinding) {
  std::string text = columnMajorRoundTrip();
  text = std::regex_replace(text, std::regex("order = \\[0, 1\\]"), "order = [1, 0]");
  KernelReport k = reportModule(read(text), noZ3());
  const OpEntry* load = findOp(k, "ttg.local_load");
  ASSERT_TRUE(load);
  EXPECT_EQ(load->predicted["load"]["wavefronts"], 32);
  EXPECT_TRUE(load->findings.empty()) << load->findings.front().message;
}

TEST(Report, IllegalSharedLayoutIsAFinding) {
  // offset 32 -> (1, 7): a column with four bits, so not a memory layout (paper Def. 4.14),
  // although invertible. (#ttg.linear itself refuses non-permutation bases when read.)
  std::string text = std::string(kRowsAlias) +
                     "#bad = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, "
                     "16], [1, 7], [2, 0], [4, 0]]}, alignment = 16>\n#smem = "
                     "#ttg.shared_memory\n" +
                     kHeader +
                     "    %a = arith.constant dense<0.0> : tensor<8x32xf32, #rows>\n"
                     "    %s = ttg.local_alloc %a : (tensor<8x32xf32, #rows>) -> "
                     "!ttg.memdesc<8x32xf32, #bad, #smem>\n" +
                     kFooter;
  KernelReport k = reportModule(read(text), noZ3());
  ASSERT_EQ(k.ops.size(), 1u);
  EXPECT_TRUE(hasFinding(k.findings, "illegal_layout"));
  EXPECT_TRUE(hasFinding(k.ops[0].findings, "illegal_layout"));
  EXPECT_EQ(k.ops[0].legality["src"]["holds"], true);
  EXPECT_EQ(k.ops[0].legality["dst"]["holds"], false);
  EXPECT_EQ(k.ops[0].legality["dst"]["property"], "memory");
  // With Z3 the same verdict, proven.
  ReportOptions z3 = noZ3();
  z3.z3 = true;
  KernelReport proven = reportModule(read(text), z3);
  const LayoutEntry& shared = proven.layouts.at(1);
  ASSERT_TRUE(shared.verify);
  const PropertyResult* memory = shared.verify->find(Property::Memory);
  ASSERT_TRUE(memory);
  EXPECT_FALSE(memory->holds);
  EXPECT_NE(std::find(memory->by.begin(), memory->by.end(), "z3"), memory->by.end());
}

TEST(Report, NotUnderstoodIsListedNotSkipped) {
  std::string text = std::string(kRowsAlias) + kHeader +
                     "    %a = arith.constant dense<0.0> : tensor<32x32xf32, #rows>\n"
                     "    %b = ttg.frobnicate_load %a : tensor<32x32xf32, #rows> -> "
                     "tensor<32x32xf32, #rows>\n" +
                     kFooter;
  KernelReport k = reportModule(read(text), noZ3());
  ASSERT_FALSE(k.notUnderstood.empty());
  EXPECT_TRUE(hasFinding(k.findings, "not_understood"));
  Report r;
  r.kernels.push_back(k);
  json j = toJson(r);
  ASSERT_EQ(j["kernels"][0]["not_understood"].size(), 1u);
  EXPECT_NE(
      j["kernels"][0]["not_understood"][0]["text"].get<std::string>().find("ttg.frobnicate_load"),
      std::string::npos);
  EXPECT_EQ(j["kernels"][0]["not_understood"][0]["where"], "test.ttgir:5:5");
}

TEST(Report, OwnershipPictureFollowsTritonsBlockedDefinition) {
  // sizePerThread [2, 2], threadsPerWarp [4, 8], warpsPerCTA [2, 2], order [1, 0] over 16x32:
  // lane l holds rows 2*(l/8) .. +1, columns 2*(l%8) .. +1; warp w adds 8*(w%2)... warps are
  // laid out fastest along order[0] (dim1): warp 1 is 16 columns right, warp 2 8 rows down.
  std::string text = "#b = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], "
                     "warpsPerCTA = [2, 2], order = [1, 0]}>\n" +
                     std::string(kHeader) +
                     "    %a = arith.constant dense<0.0> : tensor<16x32xf32, #b>\n" + kFooter;
  KernelReport k = reportModule(read(text), noZ3());
  ASSERT_EQ(k.layouts.size(), 1u);
  Picture p = layoutPicture(k.layouts[0], 32);
  // 32 columns -> 16-pixel cells, lane labels only; one label per element.
  std::regex label("<text x=\"(\\d+)\" y=\"(\\d+)\">(\\d+)</text>");
  int n = 0;
  for (auto it = std::sregex_iterator(p.body.begin(), p.body.end(), label);
       it != std::sregex_iterator(); ++it, ++n) {
    int x = std::stoi((*it)[1]), y = std::stoi((*it)[2]), lane = std::stoi((*it)[3]);
    int col = x / 16, row = (y - 14) / 16;
    int expected = ((row % 8) / 2) * 8 + (col % 16) / 2;
    ASSERT_EQ(lane, expected) << "row " << row << " col " << col;
  }
  EXPECT_EQ(n, 16 * 32);
  // Four warps, four colours (Okabe-Ito's first four).
  for (const char* c : {"#E69F00", "#56B4E9", "#009E73", "#F0E442"})
    EXPECT_NE(p.body.find(c), std::string::npos) << c;
}

TEST(Report, BankPictureFollowsTritonsSwizzle) {
  // swizzled_shared vec 1, perPhase 1, maxPhase 8 over 32x32 f32: element (r, c) lies at
  // column c ^ (r % 8) of row r, i.e. word 32 r + (c ^ (r % 8)): bank c ^ (r % 8).
  std::string text = std::string(kRowsAlias) +
                     "#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 8, order = "
                     "[1, 0]}>\n#smem = #ttg.shared_memory\n" +
                     kHeader +
                     "    %a = arith.constant dense<0.0> : tensor<32x32xf32, #rows>\n"
                     "    %s = ttg.local_alloc %a : (tensor<32x32xf32, #rows>) -> "
                     "!ttg.memdesc<32x32xf32, #sw, #smem>\n" +
                     kFooter;
  KernelReport k = reportModule(read(text), noZ3());
  const LayoutEntry* shared = nullptr;
  for (const LayoutEntry& l : k.layouts)
    if (l.kind == "memdesc")
      shared = &l;
  ASSERT_TRUE(shared);
  EXPECT_EQ(shared->elementBits, 32);
  Picture p = layoutPicture(*shared, 32);
  std::regex label("<text x=\"(\\d+)\" y=\"(\\d+)\">(\\d+)</text>");
  int n = 0;
  for (auto it = std::sregex_iterator(p.body.begin(), p.body.end(), label);
       it != std::sregex_iterator(); ++it, ++n) {
    int x = std::stoi((*it)[1]), y = std::stoi((*it)[2]), bank = std::stoi((*it)[3]);
    int col = x / 16, row = (y - 14) / 16;
    ASSERT_EQ(bank, col ^ (row % 8)) << "row " << row << " col " << col;
  }
  EXPECT_EQ(n, 32 * 32);
  // This store has no reader in the module: compared with the best store of #rows alone.
  const OpEntry* store = findOp(k, "ttg.local_alloc");
  ASSERT_TRUE(store);
  EXPECT_EQ(store->predicted["store"]["wavefronts"], 32);
  EXPECT_EQ(store->optimum["wavefronts"], 32);
  EXPECT_TRUE(store->findings.empty());
}

TEST(Report, NvidiaCorpusAgainstTheGpuOracle) {
  // Every NVIDIA kernel of the corpus, with the H100's counters (corpus/oracle/results.json):
  // the counters of each measured op equal llcheck's prediction of its own instruction through
  // the compiler's shared layout (or of llcheck's optimal one, for convert_layout).
  auto files = collectInputs({std::string(LLCHECK_SOURCE_DIR) + "/corpus/ttgir/3.9.0/cuda-sm80",
                              std::string(LLCHECK_SOURCE_DIR) + "/corpus/ttgir/3.9.0/cuda-sm90",
                              std::string(LLCHECK_SOURCE_DIR) + "/corpus/ttgir/3.9.0/cuda-sm100"});
  ASSERT_TRUE(files.ok());
  auto oracle = readOracleResults(std::string(LLCHECK_SOURCE_DIR) + "/corpus/oracle/results.json");
  ASSERT_TRUE(oracle.ok()) << oracle.error().str();
  ReportOptions o = noZ3();
  o.oracle = &*oracle;
  auto r = buildReport(*files, o);
  ASSERT_TRUE(r.ok()) << r.error().str();
  int measured = 0, sides = 0;
  for (const KernelReport& k : r->kernels) {
    for (const OpEntry& op : k.ops) {
      if (!op.measured.is_object())
        continue;
      ++measured;
      EXPECT_TRUE(op.measured["correct"].get<bool>()) << op.location;
      EXPECT_FALSE(hasFinding(op.findings, "measured_mismatch")) << k.file << ":" << op.line;
      // The oracle ran llcheck's instruction (and llcheck's plan for convert_layout): its
      // counters are compared with predicted.llcheck, beside Triton's lowering.
      ASSERT_TRUE(op.predicted.is_object() && op.predicted.contains("llcheck")) << op.location;
      const json& mine = op.predicted["llcheck"];
      for (const char* side : {"store", "load"}) {
        if (op.measured.contains(side) && mine.contains(side)) {
          ++sides;
          uint64_t got = op.measured[side]["wavefronts"], want = mine[side]["wavefronts"];
          // The oracle's "noise" verdict allows 1-4 extra wavefronts, never fewer.
          EXPECT_TRUE(got == want ||
                      (op.measured["agreement"] == "noise" && got > want && got - want <= 4))
              << k.file << ":" << op.line << " " << side << ": measured " << got << ", predicted "
              << want;
        }
      }
    }
    for (const LayoutEntry& l : k.layouts) {
      if (l.layout) {
        EXPECT_TRUE(l.legal) << k.file << ": " << l.encoding;
      }
    }
  }
  // The oracle measured every local_* op and the optimal plan of every convert_layout of these
  // files that moves data through shared memory.
  EXPECT_GE(measured, 80);
  EXPECT_GE(sides, 80);
}

TEST(Report, MeasuredDifferentFromPredictedIsAFinding) {
  // The oracle's case for the local_load of the column-major round trip, with counters that
  // differ from the prediction by more than the counter's noise.
  OracleResults oracle;
  oracle.paths = {"test.ttgir"};
  oracle.byOrigin["ttgir:test.ttgir:8:ttg.local_load"] = {
      {"id", "x"},
      {"correct", true},
      {"agreement", "exact"},
      {"measured", {{"load", {{"wavefronts", 64}, {"bank_conflicts", 32}, {"instructions", 32}}}}}};
  ReportOptions o = noZ3();
  o.oracle = &oracle;
  KernelReport k = reportModule(read(columnMajorRoundTrip()), o);
  const OpEntry* load = findOp(k, "ttg.local_load");
  ASSERT_TRUE(load && load->measured.is_object());
  EXPECT_TRUE(hasFinding(load->findings, "measured_mismatch"));
}

TEST(Report, OutputsAgreeWithEachOther) {
  ReportOptions o = noZ3();
  auto r = buildReport(
      {std::string(LLCHECK_SOURCE_DIR) + "/corpus/ttgir/3.9.0/cuda-sm90/attention-fwd-fp16.ttgir"},
      o);
  ASSERT_TRUE(r.ok());
  Report both = *r;
  auto bad = reportModule(read(columnMajorRoundTrip()), o);
  both.kernels.push_back(bad);
  std::string junit = toJunit(both);
  std::size_t ops = 0, failing = 0, layouts = 0;
  for (const KernelReport& k : both.kernels) {
    ops += k.ops.size() + 1;
    failing += k.findings.empty() ? 0 : 1;
    for (const OpEntry& op : k.ops)
      failing += op.findings.empty() ? 0 : 1;
    for (const LayoutEntry& l : k.layouts)
      layouts += l.layout ? 1 : 0;
  }
  auto count = [](const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count(junit, "<testcase "), ops);
  EXPECT_EQ(count(junit, "<failure "), failing);
  EXPECT_GT(failing, 0u);
  std::string html = toHtml(both);
  EXPECT_EQ(count(html, "<svg class=\"layout-pic\""), layouts);
  EXPECT_EQ(html.find("http://") == std::string::npos ||
                html.find("http://") == html.find("http://www.w3.org/2000/svg"),
            true);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  json j = toJson(both);
  EXPECT_EQ(j["summary"]["findings"], both.findingCount());
  // Worst first; the fixture's shared-memory conversion is among them beside its global
  // accesses (global_above_ideal: its pointers carry no tt.divisibility).
  const json& worst = j["summary"]["worst"];
  bool aboveOptimum = false;
  for (std::size_t i = 0; i < worst.size(); ++i) {
    aboveOptimum = aboveOptimum || worst[i]["kind"] == "above_optimum";
    if (i > 0) {
      EXPECT_GE(worst[i - 1]["severity"].get<double>(), worst[i]["severity"].get<double>());
    }
  }
  EXPECT_TRUE(aboveOptimum);
  std::string md = toMarkdown(both);
  EXPECT_NE(md.find("above_optimum"), std::string::npos);
  EXPECT_LT(std::count(md.begin(), md.end(), '\n'), 60);
}

TEST(Report, BadInputIsAnError) {
  auto none = collectInputs({"/nonexistent/file.ttgir"});
  EXPECT_FALSE(none.ok());
  auto notTtgir = buildReport({std::string(LLCHECK_SOURCE_DIR) + "/README.md"}, noZ3());
  ASSERT_FALSE(notTtgir.ok());
  EXPECT_NE(notTtgir.error().str().find("not a TTGIR module"), std::string::npos);
}

TEST(Report, MarkdownEscapesWhatItCopies) {
  EXPECT_EQ(mdEscape("<script>alert(1)</script><!-- x -->"),
            "&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- x --&gt;");
  EXPECT_EQ(mdEscape("`a` *b* _c_ [d](e) | ~f~ $g$ & \\"),
            "\\`a\\` \\*b\\* \\_c\\_ \\[d\\](e) \\| \\~f\\~ \\$g\\$ &amp; \\\\");
  EXPECT_EQ(mdEscape("one\ntwo\r\tthree\x01"), "one two  three ");
  EXPECT_EQ(mdEscape("kernel.py:40:12"), "kernel.py:40:12");
}

TEST(Report, InputStringsStayStrings) {
  // Strings from the input that look like report.json's own place holders, control characters
  // and invalid UTF-8: report.json stays valid JSON and says what the input said.
  Report r;
  r.z3 = false;
  KernelReport k = reportModule(read(columnMajorRoundTrip()), noZ3());
  k.file = "\x01layouts";
  k.target = "\x01ops";
  k.archNote = "\x01not_understood";
  k.ops[0].location = "bad \xff\xfe utf-8";
  r.kernels.push_back(k);
  r.oracleSource = "\x01worst";
  json j = toJson(r);
  EXPECT_EQ(j["kernels"][0]["file"], "\x01layouts");
  EXPECT_EQ(j["kernels"][0]["target"], "\x01ops");
  EXPECT_EQ(j["kernels"][0]["arch_note"], "\x01not_understood");
  EXPECT_EQ(j["kernels"][0]["ops"].size(), k.ops.size());
  EXPECT_EQ(j["kernels"][0]["ops"][0]["location"], "bad \xEF\xBF\xBD\xEF\xBF\xBD utf-8");
  EXPECT_EQ(j["summary"]["oracle"]["source"], "\x01worst");
  EXPECT_EQ(j["summary"]["worst"].size(), r.findingCount());
}

TEST(Report, StreamedFilesEqualTheReportInMemory) {
  // `llcheck report` writes one kernel and one op at a time; the result is what the whole report
  // in memory gives, but for the seconds.
  std::vector<std::string> files = {
      std::string(LLCHECK_SOURCE_DIR) + "/corpus/ttgir/3.9.0/cuda-sm90/attention-fwd-fp16.ttgir",
      std::string(LLCHECK_SOURCE_DIR) + "/corpus/ttgir/3.9.0/cuda-sm80/matmul-fp16-64x64x32.ttgir",
      std::string(LLCHECK_SOURCE_DIR) + "/tests/lit/Inputs/good/not-understood.ttgir"};
  ReportOptions o = noZ3();
  o.threads = 2;
  auto r = buildReport(files, o);
  ASSERT_TRUE(r.ok());
  std::filesystem::path dir = std::filesystem::path(testing::TempDir()) /
                              ("llcheck-report-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  auto written = writeReport(files, o, dir.string());
  ASSERT_TRUE(written.ok()) << written.error().str();
  EXPECT_EQ(written->findings, r->findingCount());
  auto slurp = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  auto noSeconds = [](std::string s) {
    return std::regex_replace(s, std::regex(R"(("seconds": |time=")[-0-9.e+]+|, [0-9.]+ s[.;])"),
                              "$1#");
  };
  json streamed = json::parse(slurp(dir / "report.json"));
  json inMemory = toJson(*r);
  for (json* j : {&streamed, &inMemory}) {
    (*j)["summary"]["seconds"] = 0;
    for (json& k : (*j)["kernels"])
      k["seconds"] = 0;
  }
  EXPECT_EQ(streamed, inMemory);
  EXPECT_EQ(noSeconds(slurp(dir / "junit.xml")), noSeconds(toJunit(*r)));
  EXPECT_EQ(noSeconds(slurp(dir / "report.md")), noSeconds(toMarkdown(*r)));
  EXPECT_EQ(slurp(dir / "report.html"), toHtml(*r));
  // The same from the report in memory; nothing but the four files and the lock stays behind.
  auto again = writeReport(*r, dir.string());
  ASSERT_TRUE(again.ok()) << again.error().str();
  EXPECT_EQ(slurp(dir / "report.html"), toHtml(*r));
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{".llcheck-report.lock", "junit.xml", "report.html",
                                             "report.json", "report.md"}));
  std::filesystem::remove_all(dir);
}
