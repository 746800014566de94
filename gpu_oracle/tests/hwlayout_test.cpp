// `llcheck hwlayout` without a GPU: the decoder rebuilds every layout from the PTX-formula
// emulation and finds them equal to llcheck's encodings; mutations of the records are caught;
// the probes' value tables are what they claim; and the committed GPU results (when there are
// some) still agree with today's encodings.
#include "llcheck/gpu_oracle/HwLayout.h"
#include "llcheck/gpu_oracle/InstructionProbes.h"
#include "llcheck/gpu_oracle/PtxEmulation.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <sstream>

namespace {

using namespace llcheck;
using namespace llcheck::hwlayout;
using namespace llcheck::hwprobe;

const nlohmann::json& emulated() {
  static const nlohmann::json j = emulateResults();
  return j;
}

Report check(const nlohmann::json& results, bool tilings = true) {
  CheckOptions o;
  o.tilings = tilings;
  auto r = checkResults(results, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().str());
  return r.ok() ? *r : Report{};
}

/// The emulation checked with its tilings, computed once for the tests that read it.
const Report& emulatedReport() {
  static const Report r = check(emulated());
  return r;
}

std::string text(const Report& r) {
  std::ostringstream s;
  printReport(s, r);
  return s.str();
}

nlohmann::json& observedOf(nlohmann::json& results, const std::string& id) {
  for (auto& p : results["probes"])
    if (p["id"] == id)
      return p["observed"];
  throw std::runtime_error("no probe " + id);
}

// ---- The value tables -------------------------------------------------------------------------

/// An IEEE-style binary float with `e` exponent and `m` mantissa bits (no infinities needed).
double decodeFloat(uint64_t bits, int e, int m) {
  uint64_t mant = bits & ((uint64_t{1} << m) - 1);
  uint64_t exp = (bits >> m) & ((uint64_t{1} << e) - 1);
  int bias = (1 << (e - 1)) - 1;
  if (exp == 0)
    return std::ldexp(static_cast<double>(mant), 1 - bias - m);
  return std::ldexp(1.0 + std::ldexp(static_cast<double>(mant), -m), static_cast<int>(exp) - bias);
}

TEST(HwLayoutValues, EverySmallValueDecodesToItself) {
  for (int v = 0; v <= 8; ++v) {
    EXPECT_EQ(decodeFloat(smallValueBits(kF16, v), 5, 10), v);
    EXPECT_EQ(decodeFloat(smallValueBits(kBF16, v), 8, 7), v);
    EXPECT_EQ(decodeFloat(smallValueBits(kTF32, v), 8, 23), v);
    EXPECT_EQ(decodeFloat(smallValueBits(kE4M3, v), 4, 3), v);
    EXPECT_EQ(decodeFloat(smallValueBits(kE5M2, v), 5, 2), v);
    EXPECT_EQ(decodeFloat(smallValueBits(kF64, v), 11, 52), v);
    EXPECT_EQ(smallValueBits(kS8, v), static_cast<uint64_t>(v));
  }
}

TEST(HwLayoutValues, DigitsRoundTrip) {
  EXPECT_EQ(digitsFor(8), 1);
  EXPECT_EQ(digitsFor(9), 2);
  EXPECT_EQ(digitsFor(256), 3);
  for (uint64_t x : {0u, 5u, 63u, 200u, 255u}) {
    double v[3];
    for (int d = 0; d < 3; ++d)
      v[d] = digitOf(x, d) + 1;
    bool bad = true;
    EXPECT_EQ(combineDigits(v, 3, bad), static_cast<int64_t>(x));
    EXPECT_FALSE(bad);
  }
  double zeros[2] = {0, 0}, odd[2] = {1, 2.5};
  bool bad = false;
  EXPECT_EQ(combineDigits(zeros, 2, bad), -1);
  EXPECT_FALSE(bad);
  EXPECT_EQ(combineDigits(odd, 2, bad), -1);
  EXPECT_TRUE(bad);
}

TEST(HwLayoutValues, DescriptorHoldsLboAndSbo) {
  uint64_t d = smemDescriptor(0x1230);
  EXPECT_EQ(d & 0x3FFF, 0x123u);
  EXPECT_EQ((d >> 16) & 0x3FFF, kWgmmaLbo >> 4);
  EXPECT_EQ((d >> 32) & 0x3FFF, kWgmmaSbo >> 4);
  EXPECT_EQ(d >> 62, 0u);
  // The probe's placement and the descriptor's reading agree on every element.
  for (int eb : {1, 2, 4})
    for (int row = 0; row < 64; ++row)
      for (int k = 0; k < 32 / eb; ++k)
        EXPECT_EQ(ptx::descriptorAddress(smemDescriptor(0x400), row, k, eb),
                  0x400 + kMajorOffset(row, k, eb));
}

// ---- Fitting ----------------------------------------------------------------------------------

TEST(HwLayoutFit, RefusesANonLinearMapWithACounterexample) {
  ObservedMap m = emptyMap({{dims::kRegister, 1}, {dims::kLane, 2}}, {{"dim0", 8}});
  for (uint64_t x = 0; x < 8; ++x)
    observe(m, x, {x == 7 ? 6u : x});
  auto f = fitLinear(m);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().message, "not F2-linear: register 1, lane 3 -> (6), but the XOR of its "
                               "bits' images is (7)");
}

TEST(HwLayoutFit, RefusesMissingAndConflictingInputs) {
  ObservedMap m = emptyMap({{dims::kLane, 1}}, {{"dim0", 2}});
  observe(m, 0, {0});
  EXPECT_EQ(fitLinear(m).error().message, "lane 1: nothing arrived");
  observe(m, 1, {1});
  observe(m, 1, {0});
  EXPECT_EQ(fitLinear(m).error().message, "not a function: lane 1 received both (1) and (0)");
}

TEST(HwLayoutFit, FitsALinearMap) {
  ObservedMap m = emptyMap({{dims::kRegister, 1}, {dims::kLane, 2}}, {{"dim0", 4}, {"dim1", 2}});
  for (uint64_t x = 0; x < 8; ++x)
    observe(m, x, {(x >> 1) ^ ((x & 1) * 2), x & 1});
  auto f = fitLinear(m);
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_EQ(f->getBasis(dims::kRegister, 0), (std::vector<uint64_t>{2, 1}));
  EXPECT_EQ(f->getBasis(dims::kLane, 1), (std::vector<uint64_t>{2, 0}));
}

// ---- The emulation: llcheck against the PTX ISA -----------------------------------------------

TEST(HwLayoutEmulation, TheFragmentTablesAreBijections) {
  for (const Probe& p : kProbes) {
    if (p.family != kMmaSync)
      continue;
    std::set<std::pair<int, int>> a, b, c;
    for (int lane = 0; lane < 32; ++lane) {
      for (int e = 0; e < mmaAElems(p); ++e)
        a.insert({ptx::mmaA(p, lane, e).row, ptx::mmaA(p, lane, e).col});
      for (int e = 0; e < mmaBElems(p); ++e)
        b.insert({ptx::mmaB(p, lane, e).row, ptx::mmaB(p, lane, e).col});
      for (int e = 0; e < mmaDElems(p); ++e)
        c.insert({ptx::mmaC(p, lane, e).row, ptx::mmaC(p, lane, e).col});
    }
    EXPECT_EQ(a.size(), static_cast<std::size_t>(p.m * p.k)) << p.id;
    EXPECT_EQ(b.size(), static_cast<std::size_t>(p.k * p.n)) << p.id;
    EXPECT_EQ(c.size(), static_cast<std::size_t>(p.m * p.n)) << p.id;
  }
}

TEST(HwLayoutEmulation, EveryLayoutEqualsLlchecksEncodings) {
  const Report& r = emulatedReport();
  EXPECT_TRUE(passed(r)) << text(r);
  EXPECT_TRUE(r.missing.empty());
  EXPECT_EQ(r.probes.size(), static_cast<std::size_t>(kProbeCount));
  int layouts = 0;
  for (const ProbeReport& p : r.probes) {
    EXPECT_TRUE(p.ran && p.error.empty()) << p.id << ": " << p.error;
    for (const LayoutComparison& c : p.layouts) {
      ++layouts;
      EXPECT_TRUE(c.read) << p.id << " " << c.what << ": " << c.problem;
      EXPECT_TRUE(c.equal || !c.hasCounterpart) << p.id << " " << c.what << ": " << c.problem;
    }
  }
  // 10 mma.sync x 3 operands, 25 wgmma, ldmatrix and stmatrix at 8/16/32 bits (8/16 with
  // .trans) for x1, x2, x4: 15 each, 12 + 12 (read transposed) + 6 TMA, 4 cp.async.
  EXPECT_EQ(layouts, 30 + 25 + 15 + 15 + 30 + 4);
  for (const FamilySummary& f : summarize(r)) {
    EXPECT_EQ(f.differ, 0) << f.family;
    EXPECT_EQ(f.tilingsOk, f.tilings) << f.family;
  }
  EXPECT_EQ(r.tilings.size(), 580u + 285u);
}

TEST(HwLayoutEmulation, Mma16816AccumulatorIsThePtxTable) {
  const Report& r = emulatedReport();
  for (const ProbeReport& p : r.probes)
    if (p.id == "mma.m16n8k16.f16") {
      const LinearLayout& c = *p.layouts[0].hardware;
      // c0, c1 side by side; c2 eight rows down; lanes: 4 along columns (2 apart), 8 rows.
      EXPECT_EQ(c.getBasis(dims::kRegister, 0), (std::vector<uint64_t>{0, 1}));
      EXPECT_EQ(c.getBasis(dims::kRegister, 1), (std::vector<uint64_t>{8, 0}));
      EXPECT_EQ(c.getBasis(dims::kLane, 0), (std::vector<uint64_t>{0, 2}));
      EXPECT_EQ(c.getBasis(dims::kLane, 2), (std::vector<uint64_t>{1, 0}));
    }
}

// ---- Mutations: a wrong record is caught ------------------------------------------------------

TEST(HwLayoutMutation, AMissingProductIsCaught) {
  nlohmann::json j = emulated();
  auto& hits = observedOf(j, "mma.m16n8k16.f16")["hits"];
  hits.erase(hits.begin() + 17);
  Report r = check(j, /*tilings=*/false);
  EXPECT_FALSE(passed(r));
  EXPECT_NE(text(r).find("mma.m16n8k16.f16"), std::string::npos);
}

TEST(HwLayoutMutation, SwappedAccumulatorSlotsAreCaught) {
  // The GPU swapping two elements of C: both slots get the other's products.
  nlohmann::json j = emulated();
  for (auto& h : observedOf(j, "mma.m16n8k8.tf32")["hits"]) {
    if (h[1] == 0)
      h[1] = 5;
    else if (h[1] == 5)
      h[1] = 0;
  }
  Report r = check(j, /*tilings=*/false);
  EXPECT_FALSE(passed(r));
  std::string t = text(r);
  EXPECT_NE(t.find("DIFFERS mma.m16n8k8.tf32 accumulator"), std::string::npos) << t;
  EXPECT_NE(t.find("not F2-linear"), std::string::npos) << t;
}

TEST(HwLayoutMutation, ALinearButDifferentAccumulatorNamesTheBasis) {
  // Rows 8 apart exchanged with columns 4 apart for every slot: still linear, but not llcheck's.
  nlohmann::json j = emulated();
  auto& q = observedOf(j, "wgmma.ss.m64n16k16.f16")["quantities"];
  for (std::size_t s = 0; s < q["m"].size(); ++s) {
    int64_t m = q["m"][s], n = q["n"][s];
    int64_t bm = (m >> 3) & 1, bn = (n >> 2) & 1;
    q["m"][s] = (m & ~int64_t{8}) | (bn << 3);
    q["n"][s] = (n & ~int64_t{4}) | (bm << 2);
    q["k"][s] = q["m"][s].get<int64_t>() % 16;
  }
  Report r = check(j, /*tilings=*/false);
  EXPECT_FALSE(passed(r));
  std::string t = text(r);
  EXPECT_NE(t.find("DIFFERS wgmma.ss.m64n16k16.f16 accumulator (D)"), std::string::npos) << t;
  EXPECT_NE(t.find("register 2: the GPU (0, 4), llcheck (8, 0)"), std::string::npos) << t;
}

TEST(HwLayoutMutation, ASwizzleOffByOneBitIsCaught) {
  nlohmann::json j = emulated();
  auto& shared = observedOf(j, "tma.2d.sw128.u16")["shared"];
  // The 64-bit swizzle's pattern where the 128-bit one belongs: bits 4-5 only.
  std::vector<int> bytes(shared.size());
  for (int lin = 0; lin < static_cast<int>(shared.size()); ++lin)
    bytes[static_cast<std::size_t>(lin ^ (((lin >> 7) & 3) << 4))] = lin;
  shared = bytes;
  Report r = check(j, /*tilings=*/false);
  EXPECT_FALSE(passed(r));
  EXPECT_NE(text(r).find("DIFFERS tma.2d.sw128.u16 shared layout"), std::string::npos);
}

TEST(HwLayoutMutation, LdmatrixBytesFromTheWrongRowAreCaught) {
  nlohmann::json j = emulated();
  auto& regs = observedOf(j, "ldmatrix.x4")["registers"];
  regs[40] = regs[40].get<int>() + 16;
  Report r = check(j, /*tilings=*/false);
  EXPECT_FALSE(passed(r));
}

TEST(HwLayoutMutation, AFailedProbeFailsUnlessKnown) {
  nlohmann::json j = emulated();
  for (auto& p : j["probes"])
    if (p["id"] == "cp.async.ca.4") {
      p["ok"] = false;
      p["error"] = "illegal instruction";
      p.erase("observed");
    }
  EXPECT_FALSE(passed(check(j, /*tilings=*/false)));
  CheckOptions o;
  o.tilings = false;
  o.known = {{"cp.async.ca.4", "no such instruction on this GPU"}};
  auto r = checkResults(j, o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(passed(*r)) << text(*r);
}

/// A sanitizer section as merge.py writes it: every family clean.
nlohmann::json cleanSanitizer() {
  nlohmann::json families = nlohmann::json::object();
  for (const Probe& p : kProbes) {
    nlohmann::json& f = families[familyName(p.family)];
    if (f.is_null())
      f = {{"exit", 0}, {"errors", 0}, {"probes", nlohmann::json::array()}, {"log_tail", ""}};
    f["probes"].push_back(p.id);
  }
  return {{"tool", "memcheck"}, {"version", "test"}, {"families", families}};
}

/// The emulation dressed as a GPU's results (a clean sanitizer section).
nlohmann::json asGpuResults() {
  nlohmann::json j = emulated();
  j.erase("emulated");
  j["gpu"] = "NVIDIA H200";
  j["sanitizer"] = cleanSanitizer();
  return j;
}

TEST(HwLayoutMutation, SanitizerErrorsFail) {
  nlohmann::json j = asGpuResults();
  ASSERT_TRUE(passed(check(j, /*tilings=*/false)));
  j["sanitizer"]["families"]["tma"]["exit"] = 9;
  j["sanitizer"]["families"]["tma"]["errors"] = 2;
  Report r = check(j, /*tilings=*/false);
  EXPECT_FALSE(passed(r));
  EXPECT_NE(text(r).find("PROBLEM compute-sanitizer memcheck, tma: 2 errors (exit 9)"),
            std::string::npos)
      << text(r);
}

// ---- The schema: a record that lies is refused or fails, never read as something else --------

std::string schemaError(const nlohmann::json& j) {
  CheckOptions o;
  o.tilings = false;
  auto r = checkResults(j, o);
  return r.ok() ? std::string("accepted") : r.error().str();
}

TEST(HwLayoutSchema, TypesAndRangesAreChecked) {
  nlohmann::json j = asGpuResults();
  j["probes"][3]["ok"] = "yes";
  EXPECT_EQ(schemaError(j), "probes[3].ok: expected true or false, got \"yes\"");
  j = asGpuResults();
  j["sanitizer"]["families"]["mma_sync"]["errors"] = uint64_t{1} << 32;
  EXPECT_NE(schemaError(j).find("sanitizer.families.mma_sync.errors: expected an integer"),
            std::string::npos)
      << schemaError(j);
  j = asGpuResults();
  observedOf(j, "stmatrix.x1")["shared"][5] = -16; // a negative index wrote before the vector
  EXPECT_NE(schemaError(j).find("probes[41].observed.shared[5]: expected an integer from 0"),
            std::string::npos)
      << schemaError(j);
  j = asGpuResults();
  j["probes"][0]["observed"]["extra"] = 1;
  EXPECT_NE(schemaError(j).find("probes[0].observed.extra: unknown field"), std::string::npos);
}

TEST(HwLayoutSchema, EveryProbeOnce) {
  nlohmann::json j = asGpuResults();
  nlohmann::json failed = {{"id", "cp.async.ca.4"},
                           {"family", "cp_async"},
                           {"ok", false},
                           {"error", "illegal instruction"}};
  for (auto& p : j["probes"])
    if (p["id"] == "cp.async.ca.4")
      std::swap(p, failed); // the failed record first, the good one after it
  j["probes"].push_back(failed);
  EXPECT_NE(schemaError(j).find("'cp.async.ca.4' again"), std::string::npos) << schemaError(j);
}

TEST(HwLayoutSchema, AGpuFilePassesOnlyWithMemcheckClean) {
  nlohmann::json j = asGpuResults();
  j.erase("sanitizer");
  Report r = check(j, /*tilings=*/false);
  EXPECT_FALSE(passed(r));
  EXPECT_NE(text(r).find("no sanitizer section"), std::string::npos) << text(r);
  j = asGpuResults();
  j["sanitizer"]["families"].erase("tma");
  EXPECT_FALSE(passed(check(j, /*tilings=*/false)));
  j = asGpuResults();
  j["sanitizer"]["families"]["tma"]["probes"].erase(0);
  EXPECT_FALSE(passed(check(j, /*tilings=*/false)));
  j = asGpuResults();
  j["sanitizer"]["families"]["tma"]["errors"] = nullptr;
  EXPECT_FALSE(passed(check(j, /*tilings=*/false)));
}

TEST(HwLayoutSchema, ControlBytesArePrintedEscaped) {
  nlohmann::json j = asGpuResults();
  j["gpu"] = "H200\x1b]0;owned\x07\n";
  std::string t = text(check(j, /*tilings=*/false));
  EXPECT_NE(t.find("H200\\x1b]0;owned\\x07\\x0a"), std::string::npos) << t;
  EXPECT_EQ(t.find('\x1b'), std::string::npos);
}

TEST(HwLayoutMutation, AMissingProbeFails) {
  nlohmann::json j = emulated();
  j["probes"].erase(j["probes"].begin());
  Report r = check(j, /*tilings=*/false);
  EXPECT_FALSE(passed(r));
  ASSERT_EQ(r.missing.size(), 1u);
  EXPECT_EQ(r.missing[0], kProbes[0].id);
}

// ---- The committed results --------------------------------------------------------------------

/// corpus/oracle/instructions.json, measured on a GPU, against today's encodings. Until a GPU
/// run is committed, the emulation stands in for it, so that this test is never vacuous.
TEST(HwLayoutCommitted, TheResultsStillAgree) {
  std::filesystem::path dir = std::filesystem::path(LLCHECK_SOURCE_DIR) / "corpus" / "oracle";
  std::filesystem::path file = dir / "instructions.json", known = dir / "instructions_known.json";
  nlohmann::json results = emulated();
  CheckOptions options;
  if (std::filesystem::exists(file)) {
    auto parsed = readJsonFile(file.string());
    ASSERT_TRUE(parsed.ok()) << parsed.error().str();
    results = *parsed;
    if (std::filesystem::exists(known)) {
      auto kj = readJsonFile(known.string());
      ASSERT_TRUE(kj.ok()) << kj.error().str();
      options.known = *kj;
    }
    EXPECT_FALSE(results.value("emulated", false));
  } else {
    std::cout << "[ NOTE     ] " << file << " does not exist yet: checking the PTX-formula "
              << "emulation instead\n";
  }
  auto r = checkResults(results, options);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(passed(*r)) << text(*r);
}

} // namespace
