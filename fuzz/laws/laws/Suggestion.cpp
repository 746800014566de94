// The law that llcheck shows no shared layout its own checks refuse (issue 33): for the
// conversions TTGIR holds on NVIDIA and AMD — #ttg.blocked, #ttg.nvidia_mma v2/v3, #ttg.amd_mfma
// and #ttg.dot_op over them, as Triton writes them, over 2-D tiles of 16 to 64 — what `report`
// suggests (checkedOptimalSwizzle, for a conversion and for one side alone) is checked again
// from its bases alone: a memory layout (Def. 4.14, by enumeration) of the same tensor whose
// ld/st.shared sides take, in the address simulator, the instructions and wavefronts stated.
// A case is a list of integers (the architecture, the element width, the shape, the warps and
// each encoding's parameters), so a regression file holds the attributes' recipe, and a failure
// prints the attributes themselves.
#include "Catalog.h"
#include "Support.h"

#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"

#include <bit>
#include <string>
#include <vector>

namespace llcheck::fuzz::laws {

namespace {

const std::vector<std::string> kSuggestionArchs = {"sm80", "sm90", "gfx942", "gfx950"};
constexpr std::size_t kEncodingParams = 6, kHeadParams = 5;
constexpr std::size_t kSuggestionParams = kHeadParams + 2 * kEncodingParams;

/// What one case's integers stand for.
struct SuggestionCase {
  std::string arch;
  int bits = 16;
  std::vector<uint64_t> shape;
  std::string src, dst; ///< the encodings' attribute text
};

std::string listText(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

uint64_t pow2(int64_t log2) {
  return uint64_t{1} << log2;
}

/// One encoding from six integers q (any values: each is taken modulo its range).
std::string encodingText(bool amd, int warpsLog2, const int64_t* q) {
  int lanesLog2 = amd ? 6 : 5;
  int64_t w0 = q[5] % (warpsLog2 + 1);
  std::string wpc = listText({pow2(w0), pow2(warpsLog2 - w0)});
  auto matrix = [&](int64_t a, int64_t b) {
    if (amd)
      return "#ttg.amd_mfma<{version = 3, warpsPerCTA = " + wpc +
             ", instrShape = " + (b % 2 ? "[16, 16, 16]" : "[32, 32, 8]") +
             ", isTransposed = " + (a % 2 ? "true" : "false") + "}>";
    bool hopper = a % 2 == 1;
    std::string instr = hopper ? listText({16, pow2(3 + b % 6), 16}) : "[16, 8]";
    return "#ttg.nvidia_mma<{versionMajor = " + std::string(hopper ? "3" : "2") +
           ", versionMinor = 0, warpsPerCTA = " + wpc + ", instrShape = " + instr + "}>";
  };
  switch (q[0] % 3) {
  case 0: {
    int64_t t0 = q[3] % (lanesLog2 + 1);
    return "#ttg.blocked<{sizePerThread = " + listText({pow2(q[1] % 4), pow2(q[2] % 4)}) +
           ", threadsPerWarp = " + listText({pow2(t0), pow2(lanesLog2 - t0)}) +
           ", warpsPerCTA = " + wpc + ", order = " + (q[4] % 2 ? "[0, 1]" : "[1, 0]") + "}>";
  }
  case 1:
    return matrix(q[1], q[2]);
  default:
    return "#ttg.dot_op<{opIdx = " + std::to_string(q[4] % 2) + ", parent = " + matrix(q[1], q[2]) +
           ", kWidth = " + std::to_string(pow2(q[3] % (amd ? 5 : 4))) + "}>";
  }
}

Result<SuggestionCase> suggestionCase(const std::vector<int64_t>& p) {
  if (p.size() != kSuggestionParams)
    return makeError("suggestion params: expected " + std::to_string(kSuggestionParams) +
                     " values");
  for (int64_t v : p)
    if (v < 0 || v > (1 << 12))
      return makeError("suggestion params: value " + std::to_string(v) + " out of range");
  SuggestionCase c;
  c.arch = kSuggestionArchs[static_cast<std::size_t>(p[0]) % kSuggestionArchs.size()];
  c.bits = 8 << (p[1] % 3);
  c.shape = {pow2(4 + p[2] % 3), pow2(4 + p[3] % 3)}; // 16 to 64: at most 2^12, what --replay takes
  int warpsLog2 = static_cast<int>(p[4] % 4);
  bool amd = c.arch.rfind("gfx", 0) == 0;
  c.src = encodingText(amd, warpsLog2, &p[kHeadParams]);
  c.dst = encodingText(amd, warpsLog2, &p[kHeadParams + kEncodingParams]);
  return c;
}

Result<LinearLayout> load(const SuggestionCase& c, const std::string& attr) {
  LayoutContext context;
  context.shape = c.shape;
  auto l = loadSpec(attr, context);
  if (!l.ok())
    return l.error();
  return l->layout;
}

/// The suggestion for SRC -> shared -> DST, checked from its bases; `what` names the case.
Verdict checkSuggestion(const LinearLayout& src, const LinearLayout& dst, const SuggestionCase& c,
                        const SharedMemoryModel& model, const std::string& what) {
  auto s = checkedOptimalSwizzle(src, dst, c.bits, model);
  if (!s.ok()) {
    // A stated reason to suggest nothing is fine; a suggestion refused by the check is a bug.
    LAW_REQUIRE(s.error().str().find("a bug in llcheck") == std::string::npos,
                what + ": " + s.error().str());
    return {};
  }
  std::string violation = memoryViolation(s->shared);
  LAW_REQUIRE(violation.empty(), what + ": the suggested shared layout is no memory layout: " +
                                     violation + "\n" + str(s->shared));
  LAW_REQUIRE(s->shared.getOutDims() == src.getOutDims(),
              what + ": the suggested shared layout covers another tensor\n" + str(s->shared));
  for (bool isLoad : {false, true}) {
    const SideAccess& side = isLoad ? s->load : s->store;
    if (side.instruction != SharedInstruction::Vector)
      continue; // ldmatrix / stmatrix: the simulator moves ld/st.shared vectors only
    int v = std::countr_zero(static_cast<uint64_t>(side.count.vectorBits / c.bits));
    SimulatedAccess sim =
        simulateSharedAccess(isLoad ? dst : src, s->shared, {}, c.arch, c.bits, v, isLoad);
    LAW_REQUIRE(sim.vectorValid && sim.instructions == side.count.instructions &&
                    sim.wavefronts == side.count.wavefronts,
                what + ": " + side.name + " is stated as " +
                    std::to_string(side.count.instructions) + " instructions, " +
                    std::to_string(side.count.wavefronts) + " wavefronts; the simulator gives " +
                    std::to_string(sim.instructions) + ", " + std::to_string(sim.wavefronts) +
                    (sim.vectorValid ? "" : " (and the vector is not valid)") + "\nSHARED" +
                    str(s->shared));
  }
  return {};
}

} // namespace

rc::Gen<Case> suggestionIsVerifiedCases() {
  return fromDraws([]() {
    Case c;
    // Draw until both encodings are ones Triton (and so llcheck) accepts for the shape and
    // warps; a blocked pair, always accepted, after too many tries.
    for (int attempt = 0; attempt < 32; ++attempt) {
      c.params.clear();
      c.layouts.clear();
      for (std::size_t i = 0; i < kSuggestionParams; ++i)
        c.params.push_back(attempt == 31 && i >= kHeadParams ? 0 : pick(0, 63));
      auto sc = suggestionCase(c.params);
      if (!sc.ok())
        continue;
      auto src = load(*sc, sc->src);
      auto dst = load(*sc, sc->dst);
      // At most what --replay reads back (docs/limits.md): broadcasting layouts over small
      // tiles can have more register bits than the tensor.
      auto fits = [](const Result<LinearLayout>& l) {
        return l.ok() && l->getTotalInDimSizeLog2() <= kMaxGeneratedBits + 2;
      };
      if (fits(src) && fits(dst)) {
        c.layouts = {*src, *dst};
        return c;
      }
    }
    return c;
  });
}

Verdict suggestionIsVerified(const Case& c) {
  LAW_TRY(sc, suggestionCase(c.params), "the case");
  LAW_TRY(model, sharedMemoryModel(sc->arch), "model");
  LAW_TRY(src, load(*sc, sc->src), sc->src);
  LAW_TRY(dst, load(*sc, sc->dst), sc->dst);
  std::string what = sc->arch + ", " + std::to_string(sc->bits) + "-bit elements, " +
                     listText(sc->shape) + ": " + sc->src + " -> " + sc->dst;
  if (Verdict v = checkSuggestion(*src, *dst, *sc, *model, what))
    return v;
  // What report shows for a store whose shared layout no register layout reads: SRC alone.
  return checkSuggestion(*src, *src, *sc, *model, what + " (SRC alone)");
}

} // namespace llcheck::fuzz::laws
