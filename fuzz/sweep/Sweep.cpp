#include "Sweep.h"

#include "check/PlanCheck.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/ConversionPlan.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <functional>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

namespace llcheck::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

/// One encoding of a group: either attribute text for loadSpec, or #ttg.blocked's parameters
/// (built directly: the blocked space is the large one, and its parameters need no reading).
struct Encoding {
  std::string attr;
  std::optional<BlockedParams> blocked;
  /// What the layout must be: its kind's legality (Def. 4.10 / 4.14), or
  ///  - Padded: #ttg.nvmma_shared with fp4Padded, where every 16 offsets hold 8 elements and 8
  ///    of padding that map onto them (not injective by design);
  ///  - Bijective: #ttg.swizzled_shared with a vec, perPhase or maxPhase that is not a power of
  ///    two, which Triton accepts; the XOR of vec * phase can set several bits in one column,
  ///    so the layout is a bijection but not a memory layout in Def. 4.14's sense.
  enum class Expect { Legal, Padded, Bijective } expect = Expect::Legal;
};

/// The encodings over one tensor shape with one number of lanes and warps: the conversions
/// between them are the ones Triton could be asked for.
struct Group {
  std::vector<uint64_t> shape;
  uint64_t lanes = 32, warps = 1;
  std::vector<Encoding> encodings;
};

std::string list(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string shapeText(const std::vector<uint64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

std::string blockedText(const BlockedParams& p) {
  return "#ttg.blocked<{sizePerThread = " + list(p.sizePerThread) +
         ", threadsPerWarp = " + list(p.threadsPerWarp) + ", warpsPerCTA = " + list(p.warpsPerCTA) +
         ", order = " + list(p.order) + "}>";
}

/// Every way to write 2^bits as a product of `rank` powers of two, as the factors.
std::vector<std::vector<uint64_t>> splits(int bits, std::size_t rank) {
  std::vector<std::vector<uint64_t>> out;
  std::vector<uint64_t> cur(rank, 1);
  std::function<void(std::size_t, int)> go = [&](std::size_t d, int left) {
    if (d + 1 == rank) {
      cur[d] = uint64_t{1} << left;
      out.push_back(cur);
      return;
    }
    for (int b = 0; b <= left; ++b) {
      cur[d] = uint64_t{1} << b;
      go(d + 1, left - b);
    }
  };
  if (rank > 0)
    go(0, bits);
  return out;
}

std::vector<std::vector<uint64_t>> orders(std::size_t rank) {
  std::vector<uint64_t> p(rank);
  std::iota(p.begin(), p.end(), 0);
  std::vector<std::vector<uint64_t>> out;
  do
    out.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return out;
}

/// Every shape of `rank` dims, each 2^minLog2 .. 2^maxLog2.
std::vector<std::vector<uint64_t>> shapes(std::size_t rank, int minLog2, int maxLog2) {
  std::vector<std::vector<uint64_t>> out = {{}};
  for (std::size_t d = 0; d < rank; ++d) {
    std::vector<std::vector<uint64_t>> next;
    for (const auto& s : out)
      for (int b = minLog2; b <= maxLog2; ++b) {
        auto t = s;
        t.push_back(uint64_t{1} << b);
        next.push_back(t);
      }
    out = std::move(next);
  }
  return out;
}

/// Every sizePerThread with each entry at most the tensor's size in that dim.
std::vector<std::vector<uint64_t>> sizesPerThread(const std::vector<uint64_t>& shape) {
  std::vector<std::vector<uint64_t>> out = {{}};
  for (uint64_t s : shape) {
    std::vector<std::vector<uint64_t>> next;
    for (const auto& v : out)
      for (uint64_t x = 1; x <= s; x *= 2) {
        auto t = v;
        t.push_back(x);
        next.push_back(t);
      }
    out = std::move(next);
  }
  return out;
}

int log2Of(uint64_t v) {
  return std::countr_zero(v);
}

/// The groups of a family, one at a time, in a fixed order (shards take every N-th).
void forEachGroup(const SweepOptions& o, const std::function<void(Group&)>& visit) {
  const std::vector<uint64_t>& warpCounts = o.numWarps;
  const std::string& f = o.family;
  if (f == "blocked") {
    for (std::size_t rank = 1; rank <= 3; ++rank)
      for (const auto& shape : shapes(rank, 0, o.maxLog2))
        for (uint64_t lanes : {32, 64})
          for (uint64_t w : warpCounts) {
            Group g{shape, lanes, w, {}};
            for (const auto& spt : sizesPerThread(shape))
              for (const auto& tpw : splits(log2Of(lanes), rank))
                for (const auto& wpc : splits(log2Of(w), rank))
                  for (const auto& ord : orders(rank))
                    g.encodings.push_back({"", BlockedParams{spt, tpw, wpc, ord, {}}});
            visit(g);
          }
    return;
  }
  if (f == "swizzled_shared" || f == "nvmma_shared") {
    for (const auto& shape : shapes(2, 0, o.maxLog2)) {
      Group g{shape, 32, 1, {}};
      if (f == "swizzled_shared") {
        for (uint64_t vec = 0; vec <= 16; ++vec)
          for (uint64_t perPhase = 1; perPhase <= 16; ++perPhase)
            for (uint64_t maxPhase = 1; maxPhase <= 16; ++maxPhase)
              for (const char* ord : {"[0, 1]", "[1, 0]"}) {
                bool powers = std::has_single_bit(vec) && std::has_single_bit(perPhase) &&
                              std::has_single_bit(maxPhase);
                g.encodings.push_back(
                    {"#ttg.swizzled_shared<{vec = " + std::to_string(vec) +
                         ", perPhase = " + std::to_string(perPhase) +
                         ", maxPhase = " + std::to_string(maxPhase) + ", order = " + ord + "}>",
                     std::nullopt, powers ? Encoding::Expect::Legal : Encoding::Expect::Bijective});
              }
      } else {
        for (int swizzle : {0, 32, 64, 128})
          for (const char* transposed : {"false", "true"})
            for (int bits : {8, 16, 32, 64})
              for (const char* fp4 : {"false", "true"})
                g.encodings.push_back(
                    {"#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(swizzle) +
                         ", transposed = " + transposed + ", elementBitWidth = " +
                         std::to_string(bits) + ", fp4Padded = " + fp4 + "}>",
                     std::nullopt,
                     std::string(fp4) == "true" ? Encoding::Expect::Padded
                                                : Encoding::Expect::Legal});
      }
      visit(g);
    }
    return;
  }
  // The matrix-core families: rank 2 (and 3, a leading batch dim, where Triton allows it).
  auto nvidiaMma = [](std::size_t rank, const std::vector<uint64_t>& wpc, int major, uint64_t n) {
    std::string instr =
        major == 3 ? "[16, " + std::to_string(n) + ", 16]" : (rank == 3 ? "[1, 16, 8]" : "[16, 8]");
    return "#ttg.nvidia_mma<{versionMajor = " + std::to_string(major) +
           ", versionMinor = 0, warpsPerCTA = " + list(wpc) + ", instrShape = " + instr + "}>";
  };
  auto amdMfma = [](const std::vector<uint64_t>& wpc, int version, const char* instr,
                    const char* transposed) {
    return "#ttg.amd_mfma<{version = " + std::to_string(version) + ", warpsPerCTA = " + list(wpc) +
           ", instrShape = " + instr + ", isTransposed = " + transposed + "}>";
  };
  const char* mfmaInstr[] = {"[32, 32, 8]", "[16, 16, 16]", "[64, 4, 4]", "[4, 64, 4]"};
  for (std::size_t rank = 2; rank <= 3; ++rank)
    for (const auto& shape : shapes(rank, 0, o.maxLog2))
      for (uint64_t lanes : {32, 64})
        for (uint64_t w : warpCounts) {
          Group g{shape, lanes, w, {}};
          auto add = [&](std::string a) { g.encodings.push_back({std::move(a), std::nullopt}); };
          for (const auto& wpc : splits(log2Of(w), rank)) {
            if (f == "nvidia_mma" && lanes == 32) {
              add(nvidiaMma(rank, wpc, 2, 8));
              for (uint64_t n = 8; n <= 256; n *= 2)
                add(nvidiaMma(rank, wpc, 3, n));
            }
            if (f == "amd_mfma" && lanes == 64)
              for (int version = 0; version <= 4; ++version)
                for (const char* instr : mfmaInstr)
                  for (const char* t : {"false", "true"})
                    add(amdMfma(wpc, version, instr, t));
            if (f == "dot_op")
              for (int opIdx = 0; opIdx <= 1; ++opIdx) {
                std::string op = "#ttg.dot_op<{opIdx = " + std::to_string(opIdx) + ", parent = ";
                if (lanes == 32) {
                  for (uint64_t k = 1; k <= 8; k *= 2) {
                    std::string kw = ", kWidth = " + std::to_string(k) + "}>";
                    add(op + nvidiaMma(rank, wpc, 2, 8) + kw);
                    for (uint64_t n = 8; n <= 256; n *= 2)
                      add(op + nvidiaMma(rank, wpc, 3, n) + kw);
                  }
                } else {
                  for (uint64_t k = 1; k <= 16; k *= 2)
                    for (int version = 0; version <= 4; ++version)
                      for (const char* instr : mfmaInstr)
                        for (const char* t : {"false", "true"})
                          add(op + amdMfma(wpc, version, instr, t) +
                              ", kWidth = " + std::to_string(k) + "}>");
                }
                // The FMA operand: a #ttg.blocked parent, one element per thread.
                for (const auto& tpw : splits(log2Of(lanes), rank))
                  for (const auto& ord : orders(rank))
                    add(op + blockedText({std::vector<uint64_t>(rank, 1), tpw, wpc, ord, {}}) +
                        "}>");
              }
          }
          if (!g.encodings.empty())
            visit(g);
        }
}

/// A layout's identity for de-duplication: the out sizes and every basis.
std::vector<uint64_t> key(const LinearLayout& l) {
  std::vector<uint64_t> k;
  for (const DimSize& d : l.getOutDims())
    k.push_back(d.size);
  for (const DimBases& b : l.getBases()) {
    k.push_back(b.bases.size());
    for (const auto& v : b.bases)
      k.insert(k.end(), v.begin(), v.end());
  }
  return k;
}

std::string firstProblem(const VerifyReport& r) {
  if (!r.disagreements.empty())
    return "disagreement: " + r.disagreements[0];
  for (const PropertyResult& p : r.properties)
    if (p.required && !p.holds)
      return p.name() + ": " + p.detail;
  return verdictText(r);
}

/// fp4Padded: the algebra and the enumeration agree, every element has a place, and exactly
/// two offsets hold each (2^(out bits + 1) offsets, rank = out bits).
std::string paddedProblem(const VerifyReport& r) {
  if (!r.disagreements.empty())
    return "disagreement: " + r.disagreements[0];
  const PropertyResult* surjective = r.find(Property::Surjective);
  if (!surjective || !surjective->holds)
    return "fp4Padded: not surjective: " + (surjective ? surjective->detail : std::string());
  int in = r.layout.getTotalInDimSizeLog2(), out = r.layout.getTotalOutDimSizeLog2();
  if (in != out + 1)
    return "fp4Padded: 2^" + std::to_string(in) + " offsets for 2^" + std::to_string(out) +
           " elements; the padding should double them";
  return "";
}

/// The algebra and the enumeration agree, and the layout is a bijection.
std::string bijectiveProblem(const VerifyReport& r) {
  if (!r.disagreements.empty())
    return "disagreement: " + r.disagreements[0];
  const PropertyResult* p = r.find(Property::Invertible);
  if (!p || !p->holds)
    return "not a bijection: " + (p ? p->detail : std::string());
  return "";
}

} // namespace

const std::vector<std::string>& sweepFamilies() {
  static const std::vector<std::string> f = {"blocked",    "swizzled_shared", "nvmma_shared",
                                             "nvidia_mma", "amd_mfma",        "dot_op"};
  return f;
}

Result<SweepReport> runSweep(const SweepOptions& options) {
  const auto& fams = sweepFamilies();
  if (std::find(fams.begin(), fams.end(), options.family) == fams.end())
    return makeError("unknown family '" + utf8Prefix(options.family, 60) +
                         "' (known: blocked, swizzled_shared, nvmma_shared, nvidia_mma, "
                         "amd_mfma, dot_op)",
                     "FAMILY");
  if (options.maxLog2 < 0 || options.maxLog2 > 12)
    return makeError("--max-log2 must be in [0, 12]", "--max-log2");
  SweepOptions o = options;
  if (o.numWarps.empty())
    o.numWarps = {1, 2, 4, 8, 16};
  for (uint64_t w : o.numWarps)
    if (w == 0 || w > 1024 || !std::has_single_bit(w))
      return makeError("--num-warps " + std::to_string(w) + " is not a power of two in [1, 1024]",
                       "--num-warps");
  bool distributed = o.family != "swizzled_shared" && o.family != "nvmma_shared";

  SweepReport report;
  report.family = o.family;
  report.triton = o.triton;
  report.shardIndex = o.shardIndex;
  report.shardCount = o.shardCount;
  auto start = Clock::now();
  auto lastProgress = start;
  auto fail = [&](const char* what, const std::string& attr, const std::vector<uint64_t>& shape,
                  const std::string& message) {
    if (report.failures.size() < o.maxFailuresKept)
      report.failures.push_back({what, attr, shapeText(shape), message});
  };
  uint64_t groupIndex = 0;
  forEachGroup(o, [&](Group& g) {
    if (groupIndex++ % static_cast<uint64_t>(o.shardCount) != static_cast<uint64_t>(o.shardIndex))
      return;
    ++report.groups;
    SpecOptions spec;
    spec.shape = g.shape;
    spec.triton = o.triton;
    if (distributed) {
      spec.numWarps = g.warps;
      spec.threadsPerWarp = g.lanes;
    }
    std::set<std::vector<uint64_t>> seen;
    std::vector<std::pair<LinearLayout, std::string>> layouts; // distinct, with an attribute
    for (const Encoding& e : g.encodings) {
      ++report.enumerated;
      Result<LinearLayout> l =
          e.blocked ? blockedToLinearLayout(*e.blocked, g.shape) : [&]() -> Result<LinearLayout> {
        auto s = loadSpec(e.attr, spec);
        if (!s.ok())
          return s.error();
        return s->layout;
      }();
      if (!l.ok()) {
        ++report.rejected;
        continue;
      }
      if (!seen.insert(key(*l)).second)
        continue;
      std::string attr = e.blocked ? blockedText(*e.blocked) : e.attr;
      auto r = verify(*l, VerifyOptions{});
      ++report.verified;
      std::string problem;
      if (!r.ok())
        problem = r.error().str();
      else if (e.expect == Encoding::Expect::Padded)
        problem = paddedProblem(*r);
      else if (e.expect == Encoding::Expect::Bijective)
        problem = bijectiveProblem(*r);
      else if (!r->ok())
        problem = firstProblem(*r);
      if (!problem.empty()) {
        ++report.verifyFailures;
        fail("verify", attr, g.shape, problem);
      }
      layouts.emplace_back(std::move(*l), std::move(attr));
    }
    report.distinct += layouts.size();
    uint64_t elements = 1;
    for (uint64_t s : g.shape)
      elements *= s;
    if (distributed && o.pairMaxLog2 >= 0 && log2Of(elements) <= o.pairMaxLog2)
      for (const auto& [a, attrA] : layouts)
        for (const auto& [b, attrB] : layouts) {
          if (&a == &b)
            continue;
          ++report.pairs;
          auto plan = planConversion(a, b, o.triton);
          if (!plan.ok()) {
            ++report.unplanned;
            continue;
          }
          if (auto v = planViolation(plan->src, plan->dst, plan->conversion)) {
            ++report.planFailures;
            fail("plan", attrA + " -> " + attrB, g.shape, *v);
          }
        }
    if (o.progress && Clock::now() - lastProgress > std::chrono::milliseconds(250)) {
      lastProgress = Clock::now();
      char line[200];
      std::snprintf(line, sizeof line,
                    "\r[%6.1fs] %s: %llu groups, %llu encodings, %llu verified, %llu pairs, "
                    "%llu failures",
                    std::chrono::duration<double>(Clock::now() - start).count(), o.family.c_str(),
                    static_cast<unsigned long long>(report.groups),
                    static_cast<unsigned long long>(report.enumerated),
                    static_cast<unsigned long long>(report.verified),
                    static_cast<unsigned long long>(report.pairs),
                    static_cast<unsigned long long>(report.verifyFailures + report.planFailures));
      *o.progress << line << std::flush;
    }
  });
  if (o.progress)
    *o.progress << "\r" << std::string(100, ' ') << "\r" << std::flush;
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

nlohmann::json toJson(const SweepReport& r) {
  nlohmann::json failures = nlohmann::json::array();
  for (const SweepFailure& f : r.failures)
    failures.push_back({{"check", f.what},
                        {"attribute", f.attribute},
                        {"shape", f.shape},
                        {"message", f.message}});
  return {{"family", r.family},
          {"triton", tritonVersionName(r.triton)},
          {"shard", std::to_string(r.shardIndex) + "/" + std::to_string(r.shardCount)},
          {"groups", r.groups},
          {"encodings", r.enumerated},
          {"rejected", r.rejected},
          {"distinct_layouts", r.distinct},
          {"verified", r.verified},
          {"pairs", r.pairs},
          {"unplanned", r.unplanned},
          {"verify_failures", r.verifyFailures},
          {"plan_failures", r.planFailures},
          {"failures", r.verifyFailures + r.planFailures},
          {"failed", failures},
          {"seconds", r.seconds}};
}

std::string toText(const SweepReport& r) {
  std::ostringstream out;
  out << "sweep " << r.family << " (Triton " << tritonVersionName(r.triton) << ", shard "
      << r.shardIndex << "/" << r.shardCount << "): " << r.groups << " groups, " << r.enumerated
      << " encodings, " << r.rejected << " rejected by the attribute reader\n";
  out << "  verified " << r.verified << " distinct layouts: " << r.verifyFailures << " failures\n";
  out << "  checked " << r.pairs << " conversion plans against enumeration (" << r.unplanned
      << " not planned): " << r.planFailures << " failures\n";
  for (const SweepFailure& f : r.failures)
    out << "FAILED " << f.what << " " << f.attribute << " --shape " << f.shape << "\n  "
        << f.message << "\n";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", r.seconds);
  out << (r.verifyFailures + r.planFailures) << " failures in " << secs << " s\n";
  return out.str();
}

} // namespace llcheck::fuzz
