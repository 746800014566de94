// The counts of global accesses in given launches (LaunchCounts.h).
//
// A warp-wide instruction of a tt.load / tt.store is a group of `vector_elements` consecutive
// registers of the pointers' layout in one warp (Coalescing.h: the same instructions the
// per-CTA prediction counts, copies and warps dropped as it drops them). In one run of the
// access by one program, each of its lanes moves vector_bits / 8 bytes from the address of its
// group's first element, if the mask lets that element through (AxisInfo proved the mask
// constant over the vector). The instruction touches the distinct 32-byte sectors of those
// bytes: L2's theoretical sectors of a global request (gpu_oracle/coalescing). The instructions
// executed stay the prediction's per run, times the runs the evaluation counted: a lane the
// mask turns off still executes the instruction, predicated off.
#include "LaunchCounts.h"
#include "ReportParts.h"

#include "llcheck/core/LaunchEvaluation.h"
#include "llcheck/core/conversion/TritonLowering.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace llcheck::reports::detail {

using json = nlohmann::json;

namespace {

constexpr uint32_t kNoLane = ~uint32_t{0};

/// One access's instructions and what each launch gave them.
struct AccessCounter {
  json* entry = nullptr;
  int line = 0;
  std::vector<uint64_t> shape;
  uint64_t laneBytes = 0;
  uint64_t instructionsPerRun = 0;
  /// Per instruction, 32 row-major element indices (kNoLane: a lane Triton masks as a copy).
  std::vector<uint32_t> lanes;
  /// Each instruction's group (its place among its warp's) and warp.
  std::vector<uint32_t> groups, warps;
  /// Each instruction's warp's instructions (groups).
  std::vector<uint32_t> groupsInWarp;
  uint64_t groupsPerWarp = 0;
  /// Instructions whose mask the compiler knows is off in every lane (removed from `lanes`).
  uint64_t removed = 0;
  /// In a loop the SASS has unrolled: the instructions a program's trips lose so (each trip
  /// its own; `lanes` keeps them, with no lane on), and the trips the evaluation ran.
  uint64_t unrolledRemoved = 0, unrolledTrips = 0;
  /// Every LDG of the load's width is unpredicated behind a predicated forward branch
  /// (SassFunction::ldgBranchedAround): only the instructions with a lane on execute.
  bool branchedAround = false;
  /// The last `afterExit` groups of each warp are STGs ptxas put after a predicated EXIT that
  /// the threads with nothing to store take (`@P0 EXIT; STG`): a warp none of whose lanes
  /// stores there has left and does not execute them.
  uint64_t afterExit = 0;
  uint64_t runs = 0, sectors = 0, withActiveLanes = 0, exited = 0;
  /// Warps (over the runs) none of whose lanes stores in the groups after the EXIT: they take
  /// it, and skip the shared loads after it too (SassFunction::ldsAfterExit).
  uint64_t warpsExited = 0;
};

/// The instructions of `layout` as the prediction counts them, or why they cannot be listed.
std::string instructionsOf(const LinearLayout& layout, const json& predicted, bool store,
                           TritonVersion version, AccessCounter& c) {
  DimName reg("register"), lane("lane"), warp("warp");
  if (!layout.hasInDim(reg) || !layout.hasInDim(lane) || layout.getInDimSize(lane) != 32)
    return "the pointers' layout is not a distributed layout of 32 lanes";
  uint64_t vector = predicted.value("vector_elements", uint64_t{0});
  if (vector == 0 || layout.getInDimSize(reg) % vector != 0)
    return "the prediction has no vector";
  std::vector<DimName> outs = layout.getOutDimNames();
  if (outs.size() != c.shape.size())
    return "the layout's rank is not the tensor's";
  auto zeroMask = [&](DimName d) {
    uint64_t m = 0;
    for (int i = 0; layout.hasInDim(d) && i < layout.getInDimSizeLog2(d); ++i) {
      std::vector<uint64_t> b = layout.getBasis(d, i);
      if (std::all_of(b.begin(), b.end(), [](uint64_t v) { return v == 0; }))
        m |= uint64_t{1} << i;
    }
    return m;
  };
  uint64_t copyRegisters = zeroMask(reg), copyLanes = zeroMask(lane), copyWarps = zeroMask(warp);
  bool dropCopyRegisters = !store || version != TritonVersion::v3_6;
  uint64_t warps = layout.hasInDim(warp) ? layout.getInDimSize(warp) : 1;
  uint64_t elements = 1;
  for (uint64_t d : c.shape)
    elements *= d;
  if (elements > kNoLane)
    return "the tensor has more than 2^32 elements";
  for (uint64_t r = 0; r < layout.getInDimSize(reg); r += vector)
    c.groupsPerWarp += dropCopyRegisters && (r & copyRegisters) ? 0 : 1;
  for (uint64_t w = 0; w < warps; ++w) {
    if (store && (w & copyWarps))
      continue;
    uint32_t group = 0;
    for (uint64_t r = 0; r < layout.getInDimSize(reg); r += vector) {
      if (dropCopyRegisters && (r & copyRegisters))
        continue;
      c.groups.push_back(group++);
      c.warps.push_back(static_cast<uint32_t>(w));
      for (uint64_t l = 0; l < 32; ++l) {
        if (store && (l & copyLanes)) {
          c.lanes.push_back(kNoLane);
          continue;
        }
        Point in = {{reg, r}, {lane, l}};
        if (layout.hasInDim(warp))
          in.push_back({warp, w});
        for (DimName d : layout.getInDimNames())
          if (d != reg && d != lane && d != warp)
            in.push_back({d, 0});
        auto out = layout.apply(in);
        if (!out.ok())
          return out.error().message;
        uint64_t flat = 0;
        for (std::size_t k = 0; k < c.shape.size(); ++k)
          flat = flat * c.shape[k] + (*out)[k].second;
        c.lanes.push_back(static_cast<uint32_t>(flat));
      }
    }
  }
  return {};
}

void count(AccessCounter& c, const AccessRun& run) {
  ++c.runs;
  std::vector<int64_t> sectors;
  std::map<uint32_t, bool> storesAfterExit; // warp -> whether a lane of it stores after the EXIT
  for (std::size_t i = 0; i < c.lanes.size(); i += 32) {
    sectors.clear();
    for (std::size_t l = i; l < i + 32; ++l) {
      uint32_t e = c.lanes[l];
      if (e == kNoLane || e >= run.bytes.size() || (!run.active.empty() && !run.active[e]))
        continue;
      int64_t first = run.bytes[e], last = first + static_cast<int64_t>(c.laneBytes) - 1;
      for (int64_t s = first >> 5; s <= last >> 5; ++s)
        sectors.push_back(s);
    }
    bool afterExit = c.groups[i / 32] + c.afterExit >= c.groupsInWarp[i / 32];
    if (afterExit)
      storesAfterExit[c.warps[i / 32]] |= !sectors.empty();
    if (sectors.empty()) {
      c.exited += afterExit ? 1 : 0;
      continue;
    }
    ++c.withActiveLanes;
    std::sort(sectors.begin(), sectors.end());
    c.sectors +=
        static_cast<uint64_t>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
  }
  for (const auto& [warp, stores] : storesAfterExit)
    c.warpsExited += stores ? 0 : 1;
}

/// How ncu's source counters take an LDGSTS's lanes: by the copy's mask, as if every lane were
/// masked off (zero-fill predicate P0), as if none were (!P0). See matchCopiesToSass.
constexpr char kByMask = 0, kNoLaneCopies = 1, kEveryLaneCopies = 2;

/// One async copy's LDGSTS instructions and what each launch gave them (sm90: the LDGSTS rules
/// of TritonLowering.h were measured there).
struct CopyCounter {
  OpEntry* op = nullptr;
  std::vector<uint64_t> shape;
  int copyBytes = 0;
  std::vector<AsyncCopyInstruction> instructions;
  /// Per instruction, per lane: the row-major index of its first element.
  std::vector<std::vector<uint64_t>> flat;
  /// Instructions per run: every warp's, as the prediction counts them (`instructions` lists
  /// the owner warps' alone; a warp holding only copies executes its LDGSTS predicated off:
  /// fla's 1-D gate vectors in all 8 warps of a slice of #mma, 8 times the owner's).
  uint64_t instructionsPerRun = 0;
  /// Per instruction: how ncu counts its LDGSTS's lanes (kByMask, kNoLaneCopies,
  /// kEveryLaneCopies: matchCopiesToSass); empty: by the mask.
  std::vector<char> ncuLanes;
  uint64_t runs = 0, wavefronts = 0, maskedOff = 0;
};

/// Each run's LDGSTS wavefronts. A lane whose mask is off copies no byte (src-size 0: zero
/// fill), so it has no global side: it stands at kLdgstsNoSource plus its own shared address,
/// far above every real global byte, where it conflicts only as its destination does (a copy
/// masked off in every lane takes the destination's wavefronts, as on the H200:
/// gpu_oracle/ldgsts_rule/matmul).
void countCopy(CopyCounter& c, const AccessRun& run) {
  if (run.bytes.empty())
    return;
  ++c.runs;
  std::vector<uint64_t> g, s;
  for (std::size_t i = 0; i < c.instructions.size(); ++i) {
    g.clear();
    s.clear();
    bool any = false;
    for (std::size_t t = 0; t < c.flat[i].size(); ++t) {
      uint64_t e = c.flat[i][t], shared = c.instructions[i].sharedBytes[t];
      bool on = e < run.bytes.size() && (run.active.empty() || run.active[e]);
      any = any || on;
      // ncu counts an LDGSTS whose zero-fill predicate is P0 as if every lane were masked off,
      // and one on !P0 as if none were (matchCopiesToSass says why this is ncu's count, not a
      // rule of the data stage).
      char zeroFill = i < c.ncuLanes.size() ? c.ncuLanes[i] : kByMask;
      bool counted = zeroFill == kNoLaneCopies      ? false
                     : zeroFill == kEveryLaneCopies ? e < run.bytes.size()
                                                    : on;
      g.push_back(counted ? static_cast<uint64_t>(run.bytes[e]) : kLdgstsNoSource + shared);
      s.push_back(shared);
    }
    c.maskedOff += any ? 0 : 1;
    c.wavefronts += ldgstsWavefronts(g, s, c.copyBytes, c.copyBytes == 16);
  }
}

/// Which of the SASS's LDGSTS are one copy's instructions: an op's instructions are the same
/// in every warp, and in each warp they write at one shared address plus a constant each, so
/// ptxas gives them one base register and those constants as offsets ([R9], [R9+0x800], ...).
/// The first LDGSTS in program order (of the op's width, on its side of the loops, not taken by
/// an earlier op) from which every one of those offsets is found on the same register is
/// taken. Returns, per instruction, how ncu takes its lanes (kByMask, kNoLaneCopies on P0,
/// kEveryLaneCopies on !P0); empty where the instructions are not base-plus-constant or no such
/// LDGSTS are found.
///
/// Why P0: on the H200, ncu's source counters gave every LDGSTS.BYPASS predicated on `P0` its
/// destination's wavefronts (what a copy masked off in every lane takes), however many of its
/// lanes copied, and every other LDGSTS the rule's for its lanes' sources: 240 of 240
/// instruction-launches of gpu_oracle/ldgsts_rule/concurrency, the real-kernels corpus's cp.async
/// sides in both releases (gpu_oracle/real_kernels). No other register does this and the data
/// were right; ncu collects these counts by instrumenting the SASS, and the hardware's own
/// LDGSTS counter does not count `.BYPASS` copies, so whether the data stage does it too is not
/// observable. It is what ncu shows, so it is what the launch count predicts. Not so for the
/// 4-byte LDGSTS (cp.async.ca) of fla's GLA on P0: those took the rule's wavefronts. The
/// converse, on fewer data: FlagGems' bmm (4 x 128 x 128 x 64) copies past K in its loop on
/// `!P0`, every lane masked off, and ncu gave them the rule's 8 wavefronts an instruction for
/// their lanes' computed sources, not their destination's 4, in both releases; as if ncu read
/// P0 as false (a lane copies where its zero-fill predicate is true) whatever the kernel put
/// there.
std::vector<char> matchCopiesToSass(const CopyCounter& c, const SassFunction& sass,
                                    std::vector<bool>& taken, bool inLoop) {
  if (c.instructions.empty())
    return {};
  uint64_t firstWarp = c.instructions.front().warp;
  std::size_t perWarp = 0;
  while (perWarp < c.instructions.size() && c.instructions[perWarp].warp == firstWarp)
    ++perWarp;
  if (c.instructions.size() % perWarp != 0)
    return {};
  // Each instruction's offset from the warp's first, the same in every lane and warp.
  std::vector<int64_t> offsets(perWarp);
  for (std::size_t i = 0; i < c.instructions.size(); ++i) {
    const AsyncCopyInstruction& first = c.instructions[i - i % perWarp];
    const AsyncCopyInstruction& ins = c.instructions[i];
    if (ins.sharedBytes.size() != first.sharedBytes.size() || ins.sharedBytes.empty())
      return {};
    int64_t d =
        static_cast<int64_t>(ins.sharedBytes[0]) - static_cast<int64_t>(first.sharedBytes[0]);
    for (std::size_t t = 0; t < ins.sharedBytes.size(); ++t)
      if (static_cast<int64_t>(ins.sharedBytes[t]) - static_cast<int64_t>(first.sharedBytes[t]) !=
          d)
        return {};
    if (i < perWarp)
      offsets[i] = d;
    else if (offsets[i % perWarp] != d)
      return {};
  }
  auto fits = [&](const SassCopy& x, std::size_t at) {
    return !taken[at] && !x.sharedBase.empty() &&
           x.bits == static_cast<unsigned>(c.copyBytes * 8) && x.bypass == (c.copyBytes == 16) &&
           x.inLoop == inLoop;
  };
  for (std::size_t a = 0; a < sass.copies.size(); ++a) {
    const SassCopy& anchor = sass.copies[a];
    if (!fits(anchor, a))
      continue;
    std::vector<std::size_t> found;
    for (int64_t d : offsets) {
      std::size_t at = sass.copies.size();
      for (std::size_t y = 0; y < sass.copies.size(); ++y)
        if (fits(sass.copies[y], y) && sass.copies[y].sharedBase == anchor.sharedBase &&
            sass.copies[y].sharedOffset == anchor.sharedOffset + d) {
          at = y;
          break;
        }
      if (at == sass.copies.size())
        break;
      found.push_back(at);
    }
    if (found.size() != perWarp)
      continue;
    std::vector<char> lanes(c.instructions.size());
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      const SassCopy& x = sass.copies[found[i % perWarp]];
      lanes[i] = !x.bypass             ? kByMask
                 : x.zeroFill == "P0"  ? kNoLaneCopies
                 : x.zeroFill == "!P0" ? kEveryLaneCopies
                                       : kByMask;
    }
    for (std::size_t y : found)
      taken[y] = true;
    return lanes;
  }
  return {};
}

/// The copies whose LDGSTS a launch counts: sm90 async copies of a tensor of pointers that the
/// report predicted as cp.async.
std::vector<CopyCounter> copyCounters(const TtgirModule& module, const ReportOptions& options,
                                      KernelReport& k, const SassFunction* sass) {
  std::vector<CopyCounter> out;
  std::string note;
  SharedMemoryModel model = modelFor(module, options, note);
  if (model.arch != "sm90")
    return out;
  std::vector<bool> taken(sass ? sass->copies.size() : 0);
  for (OpEntry& op : k.ops) {
    if (op.op != "ttg.async_copy_global_to_local" || !op.predicted.is_object() ||
        !op.predicted.contains("store") || op.elementBits < 8)
      continue;
    const json& store = op.predicted["store"];
    std::string instruction = store.value("instruction", "");
    const LayoutEntry* src = layoutAt(k, op.src);
    const LayoutEntry* dst = layoutAt(k, op.dst);
    op.launches = json::array();
    if (instruction.rfind("cp.async", 0) != 0 || !src || !src->layout || !dst || !dst->layout)
      continue;
    CopyCounter c;
    c.op = &op;
    c.shape = op.shape;
    c.copyBytes = static_cast<int>(store.value("copy_bytes", 0));
    c.instructionsPerRun = store.value("instructions", uint64_t{0});
    auto instructions = tritonAsyncCopyInstructions(
        *src->layout, *dst->layout, dst->padding, c.copyBytes * 8 / op.elementBits, model,
        TritonLoweringOptions{options.triton, op.elementBits});
    if (!instructions.ok() || c.copyBytes == 0)
      continue;
    c.instructions = std::move(*instructions);
    // Where ptxas branches around every LDGSTS of this width on the op's side of the loops
    // (in them or not), the warps holding only copies skip them: the owners' alone execute.
    if (sass) {
      bool any = false, all = true;
      for (const SassCopy& x : sass->copies)
        if (x.bits == static_cast<unsigned>(c.copyBytes * 8) && x.bypass == (c.copyBytes == 16) &&
            x.inLoop == (op.loopDepth > 0)) {
          any = true;
          all = all && x.executedBy == 'b';
        }
      if (any && all && c.instructions.size() < c.instructionsPerRun) {
        c.instructionsPerRun = c.instructions.size();
        op.predicted["sass_branches_around_copies"] = true;
      }
    }
    if (sass) {
      c.ncuLanes = matchCopiesToSass(c, *sass, taken, op.loopDepth > 0);
      auto counted = [&](char how) {
        return static_cast<uint64_t>(std::count(c.ncuLanes.begin(), c.ncuLanes.end(), how));
      };
      if (counted(kNoLaneCopies) > 0)
        op.predicted["launch_ldgsts_on_p0"] = counted(kNoLaneCopies);
      if (counted(kEveryLaneCopies) > 0)
        op.predicted["launch_ldgsts_on_not_p0"] = counted(kEveryLaneCopies);
      if (c.ncuLanes.empty())
        op.predicted["launch_ldgsts_not_matched"] =
            "no LDGSTS of the SASS were told to be this copy's (its instructions are not one "
            "shared address plus a constant each, or no such set of LDGSTS is left): each "
            "counts the rule's wavefronts";
    }
    bool inShape = true;
    for (const AsyncCopyInstruction& ins : c.instructions) {
      std::vector<uint64_t> lanes;
      for (const std::vector<uint64_t>& at : ins.coordinates) {
        uint64_t flat = 0;
        inShape = inShape && at.size() == c.shape.size();
        for (std::size_t d = 0; inShape && d < at.size(); ++d) {
          inShape = at[d] < c.shape[d];
          flat = flat * c.shape[d] + at[d];
        }
        lanes.push_back(flat);
      }
      c.flat.push_back(std::move(lanes));
    }
    if (inShape)
      out.push_back(std::move(c));
  }
  return out;
}

std::string kernelName(const std::string& text) {
  std::size_t at = text.find("tt.func public @");
  if (at == std::string::npos)
    return {};
  at += 16;
  std::size_t end = text.find_first_of("( ", at);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

} // namespace

const std::vector<ReportLaunch>* launchesOf(const TtgirModule& module,
                                            const ReportOptions& options) {
  if (options.launches.empty())
    return nullptr;
  auto it = options.launches.find(std::filesystem::path(module.source).stem().string());
  if (it == options.launches.end())
    it = options.launches.find(kernelName(module.text));
  return it == options.launches.end() ? nullptr : &it->second;
}

void reportLaunches(const TtgirModule& module, const ReportOptions& options, KernelReport& k,
                    const SassFunction* sass) {
  const std::vector<ReportLaunch>* launches = launchesOf(module, options);
  if (!launches)
    return;
  std::map<int, std::vector<AccessCounter>> byLine;
  std::map<int, std::string> cannot; // accesses whose instructions cannot be listed
  std::vector<json*> scalars;        // loads and stores of one value
  for (json& e : k.globalAccesses) {
    e["launches"] = json::array();
    const json& p = e.contains("predicted") ? e["predicted"] : json();
    int line = e.value("line", 0);
    if (p.is_object() && p.value("scalar", false)) {
      scalars.push_back(&e); // one sector a run: counted by the evaluation's runs
      continue;
    }
    if (!p.is_object() || !p.contains("vector_bits")) {
      cannot[line] = "not analysed";
      continue;
    }
    const LayoutEntry* l = layoutAt(k, e.value("layout", -1));
    AccessCounter c;
    c.entry = &e;
    c.line = line;
    c.shape = e.value("shape", std::vector<uint64_t>{});
    c.laneBytes = std::max<uint64_t>(p.value("vector_bits", uint64_t{8}) / 8, 1);
    c.instructionsPerRun = p.contains("instructions_executed")
                               ? p["instructions_executed"].value("instructions", uint64_t{0})
                               : p.value("instructions", uint64_t{0});
    std::string why =
        !l || !l->layout
            ? "the pointers' layout could not be read"
            : instructionsOf(*l->layout, p, e.value("op", "") == "tt.store", options.triton, c);
    if (!why.empty()) {
      cannot[line] = why;
      continue;
    }
    byLine[line].push_back(std::move(c));
  }
  // Masks the compiler knows: evaluated with no argument and no program id, an instruction of
  // an access outside loops whose lanes are all off in every warp is deleted (LLVM folds the
  // predicate: FlagGems' embedding at a constexpr N, 6 of 8 STGs left per warp on the H200).
  LaunchArguments none;
  none.programIdsKnown = false;
  auto known = evaluateLaunch(module.text, module.source, none, [&](const AccessRun& run) {
    auto it = byLine.find(run.line);
    if (it == byLine.end() || run.active.empty())
      return;
    for (AccessCounter& c : it->second) {
      bool inLoop = c.entry->contains("loop_depth");
      // In a loop only where the SASS has none left: unrolled, each trip is code of its own.
      if (c.shape != *run.shape || c.removed > 0 || (inLoop && (!sass || sass->branchesBack)))
        continue;
      // A group is one instruction in the code every warp runs: the compiler deletes it only
      // where its lanes are off in every warp (a warp's id is a value only the GPU knows).
      std::map<uint32_t, bool> groupOn;
      for (std::size_t i = 0; i < c.lanes.size(); i += 32) {
        bool& on = groupOn[c.groups[i / 32]];
        for (std::size_t l = i; l < i + 32; ++l)
          on = on ||
               (c.lanes[l] != kNoLane && c.lanes[l] < run.active.size() && run.active[c.lanes[l]]);
      }
      if (inLoop) {
        // Inductor's cross entropy over 7,180 columns in 1,024-column trips: the last trip's
        // second load a thread is past the end in every lane, 15 LDGs a warp, not 16.
        ++c.unrolledTrips;
        for (std::size_t i = 0; i < c.lanes.size(); i += 32)
          c.unrolledRemoved += groupOn[c.groups[i / 32]] ? 0 : 1;
        continue;
      }
      std::vector<uint32_t> lanes, groups, warps;
      for (std::size_t i = 0; i < c.lanes.size(); i += 32) {
        if (!groupOn[c.groups[i / 32]]) {
          ++c.removed;
          continue;
        }
        lanes.insert(lanes.end(), c.lanes.begin() + static_cast<std::ptrdiff_t>(i),
                     c.lanes.begin() + static_cast<std::ptrdiff_t>(i + 32));
        groups.push_back(c.groups[i / 32]);
        warps.push_back(c.warps[i / 32]);
      }
      if (c.removed == 0)
        continue;
      c.lanes = std::move(lanes);
      c.groups = std::move(groups);
      c.warps = std::move(warps);
      c.instructionsPerRun -= std::min(c.removed, c.instructionsPerRun);
      (*c.entry)["launch_instructions_masked_at_compile_time"] = c.removed;
    }
  });
  // Whether LLVM unrolled the loops (their masks then fold, trip by trip) or ptxas did (the
  // masks stay run-time values) the SASS tells by its LDGs: each width's count must be the
  // loads' instructions with the deletions gone (Inductor's cross entropy over 7,180 columns:
  // 15 a warp, as deleted; its var_mean over 100 rows: 16, none deleted). Where some load of
  // a width cannot be counted so, or the count is another, nothing is deleted in loops.
  if (sass) {
    std::map<unsigned, uint64_t> perWarp, removedPerWarp;
    std::set<unsigned> uncounted;
    for (const json& e : k.globalAccesses)
      if (e.value("op", "") == "tt.load" && e.contains("predicted") && e["predicted"].is_object())
        if (auto line = e.value("line", 0); !byLine.count(line) || cannot.count(line))
          uncounted.insert(e["predicted"].value("vector_bits", 0u));
    for (auto& [line, counters] : byLine)
      for (AccessCounter& c : counters) {
        if (c.entry->value("op", "") != "tt.load")
          continue;
        unsigned bits = (*c.entry)["predicted"].value("vector_bits", 0u);
        std::set<uint32_t> warps(c.warps.begin(), c.warps.end());
        uint64_t groups = warps.empty() ? 0 : c.lanes.size() / 32 / warps.size();
        bool inLoop = c.entry->contains("loop_depth");
        if (inLoop && c.unrolledTrips == 0) {
          uncounted.insert(bits);
          continue;
        }
        perWarp[bits] += (inLoop ? c.unrolledTrips : 1) * groups;
        removedPerWarp[bits] += warps.empty() ? 0 : c.unrolledRemoved / warps.size();
      }
    for (auto& [line, counters] : byLine)
      for (AccessCounter& c : counters) {
        if (c.unrolledRemoved == 0)
          continue;
        unsigned bits = (*c.entry)["predicted"].value("vector_bits", 0u);
        auto found = sass->ldgByBits.find(bits);
        bool deleted = c.entry->value("op", "") == "tt.load" && !uncounted.count(bits) &&
                       found != sass->ldgByBits.end() &&
                       found->second + removedPerWarp[bits] == perWarp[bits];
        if (deleted)
          (*c.entry)["launch_instructions_masked_at_compile_time"] = c.unrolledRemoved;
        else
          c.unrolledRemoved = 0;
      }
    for (auto& [line, counters] : byLine)
      for (AccessCounter& c : counters) {
        unsigned bits = (*c.entry)["predicted"].value("vector_bits", 0u);
        auto all = sass->ldgByBits.find(bits), around = sass->ldgBranchedAround.find(bits);
        // Not under a run-time scf.if: ptxas branches on its condition there, and a warp
        // that takes the region runs the load predicated, whatever its mask.
        c.branchedAround = c.entry->value("op", "") == "tt.load" &&
                           !c.entry->contains("loop_depth") && !c.entry->contains("under_if") &&
                           all != sass->ldgByBits.end() &&
                           around != sass->ldgBranchedAround.end() && around->second == all->second;
        if (c.branchedAround)
          (*c.entry)["launch_branched_around"] = true;
      }
  }
  // Loads the compiler may sink under their loop's zero-trip test: the SASS says whether it
  // did. Sunk where every LDG of the load's width before the first loop is jumped over by a
  // branch past the whole loop; where one is not, the load runs in every program.
  std::set<int> sunk;
  if (known.ok() && sass)
    for (const auto& [line, loopLine] : known->sinkableLoads) {
      json* entry = nullptr;
      for (json& e : k.globalAccesses)
        if (e.value("line", 0) == line && e.contains("predicted") && e["predicted"].is_object())
          entry = &e;
      if (!entry)
        continue;
      unsigned bits = (*entry)["predicted"].value("vector_bits", 0u);
      bool any = false, all = true;
      for (const SassLoad& l : sass->loadsBeforeLoops)
        if (l.bits == bits) {
          any = true;
          all = all && l.underLoopGuard;
        }
      if (any && all) {
        sunk.insert(line);
        (*entry)["launch_sunk_under_loop"] = loopLine;
      }
    }
  for (auto& [line, counters] : byLine)
    for (AccessCounter& c : counters) {
      // Renumber each warp's groups that are left, in order; each knows its warp's count.
      std::map<uint32_t, uint32_t> count;
      for (std::size_t i = 0; i < c.groups.size(); ++i)
        c.groups[i] = count[c.warps[i]]++;
      c.groupsInWarp.resize(c.groups.size());
      for (std::size_t i = 0; i < c.groups.size(); ++i)
        c.groupsInWarp[i] = count[c.warps[i]];
      c.groupsPerWarp = 0;
      for (const auto& [w, n] : count)
        c.groupsPerWarp = std::max<uint64_t>(c.groupsPerWarp, n);
    }
  // The kernel's last store, if it is a tile's outside its loops, and the STGs of its width
  // that end the SASS after a predicated EXIT (SassStore 'x'): the last of its groups.
  AccessCounter* last = nullptr;
  int lastLine = 0;
  for (const json& e : k.globalAccesses)
    if (e.value("op", "") == "tt.store")
      lastLine = std::max(lastLine, e.value("line", 0));
  if (auto it = byLine.find(lastLine); it != byLine.end() && it->second.size() == 1 &&
                                       !it->second.front().entry->contains("loop_depth"))
    last = &it->second.front();
  if (last && sass) {
    unsigned bits = (*last->entry)["predicted"].value("vector_bits", 0u);
    uint64_t n = 0;
    for (auto s = sass->storesOutsideLoops.rbegin();
         s != sass->storesOutsideLoops.rend() && s->executedBy == 'x' && s->bits == bits; ++s)
      ++n;
    last->afterExit = std::min(n, last->groupsPerWarp);
    if (last->afterExit > 0)
      (*last->entry)["launch_stores_after_exit"] = last->afterExit;
  }
  std::vector<CopyCounter> copies = copyCounters(module, options, k, sass);
  // The op whose loads ptxas put after that EXIT (its `early_exit`): in a launch, the warps that
  // take it are those with nothing to store there, which the masks decide (fla's chunked
  // kernels at T = 300: the last chunk's warps past T skip the last 2 LDS).
  OpEntry* loadsAfterExit = nullptr;
  if (last && last->afterExit > 0)
    for (OpEntry& op : k.ops)
      if (op.predicted.is_object() && op.predicted.contains("early_exit") &&
          op.predicted["early_exit"].value("loads_after_exit", uint64_t{0}) > 0 &&
          op.predicted["early_exit"].value("wavefronts_executed", json()).is_number() &&
          !op.predicted["early_exit"].contains("lanes_exit") && op.predicted.contains("load"))
        loadsAfterExit = &op;
  for (const ReportLaunch& launch : *launches) {
    for (auto& [line, counters] : byLine)
      for (AccessCounter& c : counters)
        c.runs = c.sectors = c.withActiveLanes = c.exited = c.warpsExited = 0;
    for (CopyCounter& c : copies)
      c.runs = c.wavefronts = c.maskedOff = 0;
    LaunchArguments arguments = launch.arguments;
    arguments.sunkLoads = sunk;
    // No forward branch in the SASS: every scf.if was if-converted (HGRN's backward: the
    // `if i > 0` load of its time loop is `@!P1 LDG`, executed in every trip).
    arguments.ifConverted = sass && !sass->branchesForward && sass->storesNotReadable.empty();
    auto evaluation =
        evaluateLaunch(module.text, module.source, arguments, [&](const AccessRun& run) {
          for (CopyCounter& c : copies)
            if (c.op->line == run.line && c.shape == *run.shape)
              countCopy(c, run);
          auto it = byLine.find(run.line);
          if (it == byLine.end())
            return;
          for (AccessCounter& c : it->second)
            if (c.shape == *run.shape)
              count(c, run);
        });
    json summary = {{"launch", launch.id}};
    std::string stopped = evaluation.ok() ? evaluation->stopped : evaluation.error().message;
    if (evaluation.ok())
      summary["programs"] = evaluation->programs;
    if (!stopped.empty())
      summary["stopped"] = stopped;
    k.launches.push_back(summary);
    for (json& e : k.globalAccesses) {
      int line = e.value("line", 0);
      json entry = {{"launch", launch.id}};
      auto counters = byLine.find(line);
      AccessCounter* c = nullptr;
      if (counters != byLine.end())
        for (AccessCounter& x : counters->second)
          if (x.entry == &e)
            c = &x;
      std::string why = !stopped.empty()                       ? stopped
                        : cannot.count(line)                   ? cannot[line]
                        : evaluation->notEvaluated.count(line) ? evaluation->notEvaluated.at(line)
                        : std::find(evaluation->accesses.begin(), evaluation->accesses.end(),
                                    line) == evaluation->accesses.end()
                            ? "not in the kernel function"
                            : std::string();
      bool scalar = std::find(scalars.begin(), scalars.end(), &e) != scalars.end();
      if (scalar && why.empty() && evaluation->runsUnknown.count(line))
        why = evaluation->runsUnknown.at(line);
      if (scalar && why.empty()) {
        // Every run is the prediction's instructions, each one sector (one address).
        const json& p = e["predicted"];
        uint64_t runs = evaluation->runs.count(line) ? evaluation->runs.at(line) : 0;
        uint64_t n = p.contains("instructions_executed")
                         ? p["instructions_executed"].value("instructions", uint64_t{0})
                         : p.value("instructions", uint64_t{0});
        entry["runs"] = runs;
        entry["instructions"] = runs * n;
        entry["sectors"] = runs * p.value("sectors", uint64_t{0});
        entry["instructions_with_active_lanes"] = runs * n;
      } else if (!why.empty() || !c) {
        entry["not_evaluated"] = why.empty() ? "not counted" : why;
      } else {
        entry["runs"] = c->runs;
        uint64_t all = c->runs * c->instructionsPerRun;
        // An unrolled loop's deletions, once for each program that ran its trips.
        uint64_t unrolled = c->unrolledTrips > 0 && c->runs % c->unrolledTrips == 0
                                ? c->runs / c->unrolledTrips * c->unrolledRemoved
                                : 0;
        // Branched around: a warp with no lane on jumps over the load.
        entry["instructions"] =
            c->branchedAround ? c->withActiveLanes : all - std::min(c->exited + unrolled, all);
        entry["sectors"] = c->sectors;
        entry["instructions_with_active_lanes"] = c->withActiveLanes;
      }
      e["launches"].push_back(std::move(entry));
    }
    // Every other op that touches shared memory, and every scratch op: how many times it ran
    // in the launch. The per-CTA trips hold for every program; a program that returns early
    // (fla's `if i_i <= i_j: return`, a cf.cond_br to tt.return) or a loop whose bound is an
    // argument runs the op fewer or more times, which only the launch's own values tell.
    auto runsEntry = [&](int line) {
      json entry = {{"launch", launch.id}};
      std::string why = !stopped.empty() ? stopped
                        : line <= evaluation->firstLine || line > evaluation->lastLine
                            ? "not in the kernel function"
                        : evaluation->runsUnknown.count(line) ? evaluation->runsUnknown.at(line)
                                                              : std::string();
      if (!why.empty())
        entry["not_evaluated"] = why;
      else
        entry["runs"] = evaluation->runs.count(line) ? evaluation->runs.at(line) : 0;
      return entry;
    };
    for (OpEntry& op : k.ops)
      if (op.op != "ttg.async_copy_global_to_local" && op.predicted.is_object() &&
          (op.predicted.contains("store") || op.predicted.contains("load"))) {
        if (!op.launches.is_array())
          op.launches = json::array();
        json entry = runsEntry(op.line);
        if (&op == loadsAfterExit && entry.contains("runs") && last->runs == entry["runs"]) {
          const json& load = op.predicted["load"];
          uint64_t runs = entry["runs"], n = load.value("instructions", uint64_t{0}),
                   w = load.value("wavefronts", uint64_t{0}),
                   after = op.predicted["early_exit"].value("loads_after_exit", uint64_t{0});
          // The warps holding only copies of the stored values have no instruction listed (the
          // prediction drops them): they exit in every run, as the per-CTA count has it.
          uint64_t exited = last->warpsExited +
                            runs * op.predicted["early_exit"].value("exiting_warps", uint64_t{0});
          uint64_t skipped = std::min(exited * after, runs * n);
          entry["load_warps_exited"] = exited;
          entry["load_instructions_executed"] = runs * n - skipped;
          entry["load_wavefronts_executed"] = runs * w - skipped * (n ? w / n : 0);
        }
        op.launches.push_back(std::move(entry));
      }
    for (json& e : k.scratchOps) {
      if (!e.contains("predicted"))
        continue;
      if (!e.contains("launches"))
        e["launches"] = json::array();
      e["launches"].push_back(runsEntry(e.value("line", 0)));
    }
    for (OpEntry& op : k.ops) {
      if (!op.launches.is_array() || op.op != "ttg.async_copy_global_to_local")
        continue;
      json entry = {{"launch", launch.id}};
      auto c = std::find_if(copies.begin(), copies.end(),
                            [&](const CopyCounter& x) { return x.op == &op; });
      std::string why =
          !stopped.empty()                          ? stopped
          : c == copies.end()                       ? "the copy's instructions could not be listed"
          : evaluation->notEvaluated.count(op.line) ? evaluation->notEvaluated.at(op.line)
          : evaluation->runsUnknown.count(op.line)  ? evaluation->runsUnknown.at(op.line)
                                                    : std::string();
      if (!why.empty()) {
        entry["not_evaluated"] = why;
      } else {
        entry["runs"] = c->runs;
        entry["instructions"] = c->runs * c->instructionsPerRun;
        entry["wavefronts"] = c->wavefronts;
        entry["instructions_masked_off"] = c->maskedOff;
      }
      op.launches.push_back(std::move(entry));
    }
  }
}

} // namespace llcheck::reports::detail
