// A family's sweep (Sweep.h): the groups dealt to shards, each encoding read and verified, the
// conversion plans of each group checked, the checkpoint, and the shards' reports merged.
#include "Sweep.h"

#include "AgainstTriton.h"
#include "Spaces.h"
#include "TritonPeer.h"
#include "check/PlanCheck.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/JsonFields.h"
#include "llcheck/core/OutputFile.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/ConversionPlan.h"

#include <fcntl.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <queue>
#include <set>
#include <sstream>

namespace llcheck::fuzz {

using namespace sweep;

namespace {

using Clock = std::chrono::steady_clock;

bool pairsChecked(const SweepGroup& g, const SweepOptions& o) {
  return !o.againstTriton && distributedFamily(o.family) && o.pairMaxLog2 >= 0 &&
         log2Of(elementsOf(g.shape)) <= o.pairMaxLog2;
}

/// The renamings of a tensor's dims that keep its shape (the identity not among them): each a
/// permutation pi of the dims with shape[pi[d]] == shape[d].
std::vector<std::vector<std::size_t>> shapeRenamings(const std::vector<uint64_t>& shape) {
  std::vector<std::size_t> pi(shape.size());
  std::iota(pi.begin(), pi.end(), std::size_t{0});
  std::vector<std::vector<std::size_t>> out;
  while (std::next_permutation(pi.begin(), pi.end())) {
    bool keeps = true;
    for (std::size_t d = 0; d < shape.size(); ++d)
      keeps = keeps && shape[pi[d]] == shape[d];
    if (keeps)
      out.push_back(pi);
  }
  return out;
}

/// key() of the layout whose out dim d is the layout's out dim pi[d] (the dims renamed; the
/// sizes are kept, as pi keeps the shape): every basis's coordinates permuted.
std::vector<uint64_t> renamedKey(const std::vector<uint64_t>& k, const std::vector<std::size_t>& pi,
                                 std::size_t outs) {
  std::vector<uint64_t> r = k;
  std::size_t at = outs;
  while (at < k.size()) {
    std::size_t n = k[at++];
    for (std::size_t b = 0; b < n; ++b, at += outs)
      for (std::size_t d = 0; d < outs; ++d)
        r[at + d] = k[at + pi[d]];
  }
  return r;
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

/// a * b, or the largest uint64_t when that overflows: costs saturate rather than wrap, so a
/// huge bound cannot make a costly group look cheap.
uint64_t times(uint64_t a, uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
uint64_t plus(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/// 2^(x/4), in integers (a table for the quarter powers), so that every machine computes the
/// same costs: a libm's pow may round differently, and one differing cost can change the deal.
uint64_t quarterPower(uint64_t x) {
  static const uint64_t kFraction[4] = {1000, 1189, 1414, 1682}; // 2^(k/4), times 1000
  if (x / 4 >= 50)
    return UINT64_MAX;
  return times(uint64_t{1} << (x / 4), kFraction[x % 4]) / 1000;
}

/// Per family, what one parameter set costs, in nanoseconds: `base` (writing, building and
/// de-duplicating it) plus `perSize` times 2^((3e + t)/4), e = log2 of the tensor's elements and
/// t = log2 of lanes * warps (verifying the distinct layouts, whose share and enumeration grow
/// with both). The constants are least-squares fits to per-group times on the 2-core development
/// machine (blocked --max-log2 3, swizzled_shared --max-log2 7, the others at their defaults):
/// of blocked's groups over 50 ms, 80% are estimated within 0.68 to 1.29 times their time
/// (docs/sweep.md). Only each family's ratios matter: a sweep deals one family's groups.
struct SetCost {
  uint64_t base, perSize;
};
SetCost setCost(const std::string& f) {
  if (f == "blocked" || f == "nvmma_shared")
    return {1000, 90};
  if (f == "swizzled_shared")
    return {2500, 18};
  return {6000, 90}; // the matrix families' attributes are parsed: a dearer base
}

/// Per ordered pair of distinct layouts: planning the conversion (kPair ns) and checking it
/// over every input of its source (kPairInput ns each), fitted like SetCost.
constexpr uint64_t kPair = 4200, kPairInput = 25;

/// What group `g` is estimated to cost, in microseconds. Verification is estimated from the
/// group's size; a group whose pairs are checked also has its layouts built once here (not
/// verified), since its pairs cost the square of its distinct layouts, which nothing cheaper
/// predicts: D distinct layouts of I inputs in all cost (D - 1) * (D * kPair + I * kPairInput).
uint64_t estimatedCost(const SweepGroup& g, const SweepOptions& o) {
  SetCost c = setCost(o.family);
  uint64_t e = static_cast<uint64_t>(log2Of(elementsOf(g.shape)));
  uint64_t t = distributedFamily(o.family) ? static_cast<uint64_t>(log2Of(g.lanes * g.warps)) : 0;
  uint64_t ns = times(g.sets, plus(c.base, times(c.perSize, quarterPower(3 * e + t))));
  if (pairsChecked(g, o)) {
    std::set<std::vector<uint64_t>> seen;
    uint64_t inputs = 0;
    for (const Encoding& enc : encodingsOf(g, o)) {
      Result<LinearLayout> l = layoutOf(enc, g, o);
      if (l.ok() && seen.insert(key(*l)).second)
        inputs = plus(inputs, uint64_t{1} << std::min(l->getTotalInDimSizeLog2(), 63));
    }
    uint64_t distinct = seen.size();
    if (distinct > 1)
      ns = plus(ns, times(distinct - 1, plus(times(distinct, kPair), times(inputs, kPairInput))));
  }
  return std::max<uint64_t>(ns / 1000, 1);
}

/// The groups' indices in the order deal() takes them: the costliest first, ties by index.
std::vector<std::size_t> dealOrder(const std::vector<SweepGroup>& groups) {
  std::vector<std::size_t> byCost(groups.size());
  std::iota(byCost.begin(), byCost.end(), std::size_t{0});
  std::stable_sort(byCost.begin(), byCost.end(),
                   [&](std::size_t a, std::size_t b) { return groups[a].cost > groups[b].cost; });
  return byCost;
}

/// Longest processing time first: the costliest group goes to the least loaded shard. Costs are
/// integers and every tie is broken by an index, so every process deals the same way.
void deal(std::vector<SweepGroup>& groups, int shardCount) {
  std::vector<std::size_t> byCost = dealOrder(groups);
  using Load = std::pair<uint64_t, int>; // (cost so far, shard): the least first
  std::priority_queue<Load, std::vector<Load>, std::greater<>> loads;
  for (int s = 0; s < shardCount; ++s)
    loads.push({0, s});
  for (std::size_t i : byCost) {
    auto [load, shard] = loads.top();
    loads.pop();
    groups[i].shard = shard;
    loads.push({plus(load, groups[i].cost), shard});
  }
}

/// The sweep's parameters, said once: what a report records of its options (reportOf) and the
/// options that a report's sweep was run with (optionsOf, for merge's re-planning).
SweepReport reportOf(const SweepOptions& o) {
  SweepReport r;
  static_cast<SweepParameters&>(r) = o;
  r.reduce = o.reduce && !o.againstTriton;
  r.against = o.againstTriton ? "triton-" + tritonVersionName(o.triton) : "";
  return r;
}

SweepOptions optionsOf(const SweepReport& r) {
  SweepOptions o;
  static_cast<SweepParameters&>(o) = r;
  o.againstTriton = !r.against.empty();
  return o;
}

Result<SweepOptions> checkedOptions(const SweepOptions& options) {
  const auto& fams = sweepFamilies();
  if (std::find(fams.begin(), fams.end(), options.family) == fams.end()) {
    std::string known;
    for (const std::string& f : fams)
      known += (known.empty() ? "" : ", ") + f;
    return makeError(
        "unknown family '" + utf8Prefix(options.family, 60) + "' (known: " + known + ")", "FAMILY");
  }
  if (options.maxLog2 < 0 || options.maxLog2 > 12)
    return makeError("--max-log2 must be in [0, 12]", "--max-log2");
  // Plans pair every two layouts of a group, and a group whose plans are checked is dealt whole:
  // past 2^8 elements the deal alone takes minutes (--max-log2 6 --pair-max-log2 12: 115 s), and
  // merge and resume compute the deal again from a shard's parameters (docs/limits.md).
  if (options.pairMaxLog2 < -1 || options.pairMaxLog2 > kMaxPairMaxLog2)
    return makeError("--pair-max-log2 must be in [-1, " + std::to_string(kMaxPairMaxLog2) + "]",
                     "--pair-max-log2");
  if (options.partMinLog2 < 0 || options.partMinLog2 > 64)
    return makeError("--part-min-log2 must be in [0, 64]", "--part-min-log2");
  if (options.shardCount < 1 || options.shardIndex < 0 || options.shardIndex >= options.shardCount)
    return makeError("shard " + std::to_string(options.shardIndex) + "/" +
                         std::to_string(options.shardCount) + " is not I/N with 0 <= I < N",
                     "--shard");
  if (options.againstTriton && options.triton < TritonVersion::v3_9 && options.family == "amd_wmma")
    return makeError("Triton " + tritonVersionName(options.triton) +
                         "'s Gluon AMDWMMALayout takes warpsPerCTA and tilesPerWarp, not the "
                         "warp bases this family's encodings are written with (Triton 3.9's "
                         "form): the conformance grid (tests/triton) checks 3.6's own form",
                     "--against");
  if (options.againstTriton && options.triton < TritonVersion::v3_9 &&
      !distributedFamily(options.family))
    return makeError("Triton " + tritonVersionName(options.triton) +
                         "'s Gluon to_linear_layout answers distributed encodings only (it "
                         "aborts on a shared one): there is no Triton answer to compare " +
                         options.family + " with",
                     "--against");
  SweepOptions o = options;
  if (o.againstTriton)
    o.reduce = false; // Triton is what is checked: every parameter set is asked
  if (o.numWarps.empty())
    o.numWarps = {1, 2, 4, 8, 16};
  for (uint64_t w : o.numWarps)
    if (w == 0 || w > 1024 || !std::has_single_bit(w))
      return makeError("--num-warps " + std::to_string(w) + " is not a power of two in [1, 1024]",
                       "--num-warps");
  return o;
}

/// Verifies every distinct layout of group `index` and checks the plans between them, adding to
/// `report`; false when options.stop asked to stop inside the group (the caller then drops what
/// it added).
bool runGroup(const SweepGroup& g, uint64_t index, const SweepOptions& o, SweepReport& report) {
  auto fail = [&](const char* what, const std::string& attr, const std::string& message) {
    if (report.failures.size() < o.maxFailuresKept)
      report.failures.push_back({what, attr, shapeText(g.shape), message, index});
  };
  uint64_t steps = 0;
  auto stopAsked = [&] {
    return o.stop && o.stopCheckEvery > 0 && ++steps % o.stopCheckEvery == 0 && o.stop();
  };
  ++report.groups;
  if (g.renamed) {
    ++report.renamedGroups;
    report.renamedSets += g.sets;
    report.enumerated += g.sets;
    return true;
  }
  std::vector<std::vector<std::size_t>> perms =
      o.reduce ? shapeRenamings(g.shape) : std::vector<std::vector<std::size_t>>{};
  std::map<std::vector<uint64_t>, std::size_t> seen; // key -> index in layouts
  std::set<std::vector<uint64_t>> verifiedOrbits;
  std::vector<std::vector<uint64_t>> keys;
  std::vector<std::pair<LinearLayout, std::string>> layouts; // distinct, with an attribute
  for (const Encoding& e : encodingsOf(g, o)) {
    if (stopAsked())
      return false;
    ++report.enumerated;
    Result<LinearLayout> l = layoutOf(e, g, o);
    if (!l.ok()) {
      ++report.rejected;
      continue;
    }
    std::vector<uint64_t> k = key(*l);
    if (!seen.emplace(k, layouts.size()).second)
      continue;
    std::string attr = e.blocked ? blockedAttributeText(*e.blocked) : e.attr;
    keys.push_back(k);
    if (!perms.empty()) {
      // One layout of each orbit under the renamings is verified: the verdict is the same for
      // all of them (docs/sweep.md, "Doing less work"); what it must be (expect) is part of it.
      std::vector<uint64_t> orbit = k;
      for (const auto& pi : perms)
        orbit = std::min(orbit, renamedKey(k, pi, static_cast<std::size_t>(l->getNumOutDims())));
      orbit.push_back(static_cast<uint64_t>(e.expect));
      if (!verifiedOrbits.insert(orbit).second) {
        ++report.renamedLayouts;
        layouts.emplace_back(std::move(*l), std::move(attr));
        continue;
      }
    }
    auto r = verify(*l, VerifyOptions{});
    ++report.verified;
    if (o.verifiedLayout)
      o.verifiedLayout(*l);
    if (r.ok() && !r->enumerationSkipped.empty())
      ++report.algebraOnly;
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
      fail("verify", attr, problem);
    }
    layouts.emplace_back(std::move(*l), std::move(attr));
  }
  report.distinct += layouts.size();
  if (!pairsChecked(g, o))
    return true;
  // renamedIndex[p][i]: the index of layout i with its dims renamed by perms[p], if it is one of
  // the group's (always, for #ttg.blocked: its parameters renamed give it).
  std::vector<std::vector<std::optional<std::size_t>>> renamedIndex;
  for (const auto& pi : perms) {
    std::vector<std::optional<std::size_t>> idx(layouts.size());
    for (std::size_t i = 0; i < layouts.size(); ++i) {
      auto it = seen.find(
          renamedKey(keys[i], pi, static_cast<std::size_t>(layouts[i].first.getNumOutDims())));
      if (it != seen.end())
        idx[i] = it->second;
    }
    renamedIndex.push_back(std::move(idx));
  }
  for (std::size_t i = 0; i < layouts.size(); ++i)
    for (std::size_t j = 0; j < layouts.size(); ++j) {
      if (i == j)
        continue;
      if (stopAsked())
        return false;
      const auto& [a, attrA] = layouts[i];
      const auto& [b, attrB] = layouts[j];
      // The pair is checked in the renaming that brings it first in the group's order: (i, j)
      // stands for (pi(i), pi(j)), and the first of an orbit is never skipped.
      bool renamed = false;
      for (const auto& idx : renamedIndex)
        if (idx[i] && idx[j] && std::pair(*idx[i], *idx[j]) < std::pair(i, j))
          renamed = true;
      if (renamed) {
        ++report.renamedPairs;
        continue;
      }
      ++report.pairs;
      auto plan = planConversion(a, b, o.triton);
      if (!plan.ok()) {
        ++report.unplanned;
        continue;
      }
      if (auto v = planViolation(plan->src, plan->dst, plan->conversion)) {
        ++report.planFailures;
        fail("plan", attrA + " -> " + attrB, *v);
      }
    }
  return true;
}

std::string shardName(int index, int count) {
  return std::to_string(index) + "/" + std::to_string(count);
}

std::string warpsText(const std::vector<uint64_t>& w) {
  std::string s;
  for (uint64_t x : w)
    s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

/// The parameters two results or a result and a checkpoint must share, as the options that set
/// them (`--max-log2 2`), in a fixed order; `withShard` adds the shard itself.
std::vector<std::pair<std::string, std::string>> parameters(const SweepReport& r, bool withShard) {
  std::vector<std::pair<std::string, std::string>> p = {
      {"FAMILY", r.family},
      {"--max-log2", std::to_string(r.maxLog2)},
      {"--num-warps", warpsText(r.numWarps)},
      {"--pair-max-log2", std::to_string(r.pairMaxLog2)},
      {"--part-min-log2", std::to_string(r.partMinLog2)},
      {"--triton", tritonVersionName(r.triton)},
      {"--against", r.against.empty() ? "(none)" : r.against},
      {"reduce", r.reduce ? "on" : "off (--no-reduce)"},
      {"balance", r.balance}};
  if (withShard)
    p.push_back({"--shard", shardName(r.shardIndex, r.shardCount)});
  else
    p.push_back({"shard count", std::to_string(r.shardCount)});
  return p;
}

/// "" when a and b are of the same sweep, else which parameters differ ("--max-log2 2 there,
/// 3 here").
std::string differences(const SweepReport& there, const SweepReport& here, bool withShard,
                        const std::string& thereName, const std::string& hereName) {
  auto a = parameters(there, withShard), b = parameters(here, withShard);
  std::string out;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].second != b[i].second)
      out += (out.empty() ? "" : "; ") + a[i].first + " " + a[i].second + " " + thereName + ", " +
             b[i].second + " " + hereName;
  return out;
}

nlohmann::json checkpointJson(const SweepReport& r, const std::vector<uint64_t>& done) {
  nlohmann::json j = toJson(r);
  j["checkpoint"] = kSweepCheckpointFormat;
  j["done_groups"] = done;
  return j;
}

/// "" when `r` adds up to what the deal `plan` gave its shard (or, for a checkpoint, to the
/// groups `done` lists): the groups, their parameter sets, the groups and sets not run as
/// renamings, and the groups its failures name. Else what does not, with the field ("encodings:
/// 0, but ..."). These are what the deal computes again from the parameters alone; a result that
/// holds fewer groups or sets than it was dealt did not sweep them, however it says it did.
std::optional<Error> checkAgainstDeal(const SweepReport& r, const std::vector<SweepGroup>& plan,
                                      const std::vector<uint64_t>* done) {
  std::vector<bool> mine(plan.size(), false);
  if (done) {
    for (uint64_t d : *done) {
      if (d >= plan.size() || plan[d].shard != r.shardIndex)
        return makeError("holds " + std::to_string(d) + ", not a group of shard " +
                             shardName(r.shardIndex, r.shardCount) + " (the deal has " +
                             std::to_string(plan.size()) + " groups)",
                         "done_groups");
      mine[d] = true;
    }
  } else {
    for (std::size_t i = 0; i < plan.size(); ++i)
      mine[i] = plan[i].shard == r.shardIndex;
  }
  uint64_t groups = 0, sets = 0, renamedGroups = 0, renamedSets = 0;
  for (std::size_t i = 0; i < plan.size(); ++i)
    if (mine[i]) {
      // The deal's own counts: sets saturate (plus) only past any bound a sweep accepts.
      ++groups;
      sets = plus(sets, plan[i].sets);
      if (plan[i].renamed) {
        ++renamedGroups;
        renamedSets = plus(renamedSets, plan[i].sets);
      }
    }
  std::string whose = done ? "the groups \"done_groups\" lists"
                           : "the groups dealt to shard " + shardName(r.shardIndex, r.shardCount);
  auto differs = [&](const char* field, uint64_t said, uint64_t dealt,
                     const char* what) -> std::optional<Error> {
    if (said == dealt)
      return std::nullopt;
    return makeError(std::to_string(said) + ", but " + whose + " have " + std::to_string(dealt) +
                         " " + what + " (the deal, computed again from the sweep's parameters)",
                     field);
  };
  if (auto e = differs("groups", r.groups, groups, "groups"))
    return e;
  if (auto e = differs("encodings", r.enumerated, sets, "parameter sets"))
    return e;
  if (auto e = differs("renamed_groups", r.renamedGroups, renamedGroups, "renamed groups"))
    return e;
  if (auto e =
          differs("renamed_sets", r.renamedSets, renamedSets, "parameter sets in renamed groups"))
    return e;
  for (std::size_t i = 0; i < r.failures.size(); ++i) {
    uint64_t g = r.failures[i].group;
    if (g >= plan.size() || !mine[g])
      return makeError("group " + std::to_string(g) + " is not one of " + whose,
                       "failed[" + std::to_string(i) + "].group");
  }
  return std::nullopt;
}

/// The checkpoint at `path` for the sweep `fresh` describes: the report so far and the groups
/// done. Nothing (an empty report) when the file does not exist or is empty.
Result<std::pair<SweepReport, std::vector<uint64_t>>>
readCheckpoint(const std::string& path, const SweepReport& fresh,
               const std::vector<SweepGroup>& groups) {
  std::pair<SweepReport, std::vector<uint64_t>> state{fresh, {}};
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) || std::filesystem::file_size(path, ec) == 0)
    return state;
  auto text = readInputFile(path);
  if (!text.ok())
    return text.error();
  auto j = parseJsonText(*text, path);
  if (!j.ok())
    return j.error();
  auto saved = sweepCheckpointFromJson(*j, path);
  if (!saved.ok())
    return saved.error();
  std::string diff = differences(saved->report, fresh, true, "there", "here");
  if (!diff.empty())
    return makeError("the checkpoint is of another sweep: " + diff, path);
  if (auto e = checkAgainstDeal(saved->report, groups, &saved->doneGroups))
    return e->within(path);
  state.first = std::move(saved->report);
  state.second = std::move(saved->doneGroups);
  return state;
}

} // namespace

Result<std::vector<SweepGroup>> planSweep(const SweepOptions& options) {
  auto o = checkedOptions(options);
  if (!o.ok())
    return o.error();
  std::vector<SweepGroup> groups;
  for (SweepGroup& g : groupsOf(*o)) {
    g.renamed = o->reduce && o->family == "blocked" &&
                !std::is_sorted(g.shape.begin(), g.shape.end(), std::greater<>());
    // A large group is dealt as its parts (docs/sweep.md, "Parts of a large group"); one whose
    // plans are checked stays whole, as a plan pairs layouts from anywhere in the group.
    bool cut = o->family == "blocked" && !g.renamed && g.shape.size() >= 2 &&
               log2Of(elementsOf(g.shape)) >= o->partMinLog2 && !pairsChecked(g, *o);
    for (SweepGroup& part : cut ? partsOf(g) : std::vector<SweepGroup>{g}) {
      part.sets = setsOf(part, o->family);
      part.cost = part.renamed ? 1 : estimatedCost(part, *o);
      groups.push_back(std::move(part));
    }
  }
  deal(groups, o->shardCount);
  return groups;
}

std::string balanceOf(const std::vector<SweepGroup>& plan) {
  bool parts = std::any_of(plan.begin(), plan.end(),
                           [](const SweepGroup& g) { return !g.sizePerThreadSorted.empty(); });
  return parts ? kSweepBalanceParts : kSweepBalance;
}

Result<SweepEstimate> estimateSweep(const SweepOptions& options) {
  auto o = checkedOptions(options);
  if (!o.ok())
    return o.error();
  auto plan = planSweep(*o);
  if (!plan.ok())
    return plan.error();
  SweepEstimate e;
  static_cast<SweepParameters&>(e) = *o;
  e.balance = balanceOf(*plan);
  e.shards.resize(static_cast<std::size_t>(o->shardCount));
  for (const SweepGroup& g : *plan) {
    SweepEstimate::Shard& s = e.shards[static_cast<std::size_t>(g.shard)];
    double seconds = static_cast<double>(g.cost) / 1e6;
    ++e.groups;
    e.parts += g.sizePerThreadSorted.empty() ? 0 : 1;
    e.renamedGroups += g.renamed ? 1 : 0;
    e.sets = plus(e.sets, g.sets);
    e.seconds += seconds;
    ++s.groups;
    s.sets = plus(s.sets, g.sets);
    s.seconds += seconds;
    if (g.cost > e.costliest.cost)
      e.costliest = g;
  }
  return e;
}

Result<SweepReport> runSweep(const SweepOptions& options) {
  auto checked = checkedOptions(options);
  if (!checked.ok())
    return checked.error();
  const SweepOptions& o = *checked;
  auto plan = planSweep(o);
  if (!plan.ok())
    return plan.error();
  const std::vector<SweepGroup>& groups = *plan;

  SweepReport report = reportOf(o);
  report.balance = balanceOf(groups);
  std::unique_ptr<TritonPeer> peer;
  if (o.againstTriton) {
    auto started = TritonPeer::start(o.python, o.tritonHelper, o.triton, std::max(o.jobs, 1),
                                     o.tritonTimeoutSeconds);
    if (!started.ok())
      return started.error();
    peer = std::move(*started);
  }
  std::vector<uint64_t> done;
  // Two sweeps on one checkpoint would both run every group and overwrite each other's
  // progress: CHECKPOINT.lock, held for the whole run, keeps the second out at once.
  std::optional<FileLock> lock;
  if (!o.checkpoint.empty()) {
    auto locked = FileLock::acquire(AT_FDCWD, o.checkpoint + ".lock", lockHolderLine());
    if (!locked.ok())
      return makeError(locked.error().message + ": another sweep is using the checkpoint " +
                           o.checkpoint,
                       locked.error().where);
    lock.emplace(std::move(*locked));
    auto state = readCheckpoint(o.checkpoint, report, groups);
    if (!state.ok())
      return state.error();
    report = state->first;
    done = state->second;
  }
  std::vector<bool> isDone(groups.size(), false);
  for (uint64_t d : done)
    isDone[d] = true;

  auto start = Clock::now();
  double resumedSeconds = report.seconds;
  auto save = [&]() -> std::optional<Error> {
    if (o.checkpoint.empty())
      return std::nullopt;
    report.seconds = resumedSeconds + std::chrono::duration<double>(Clock::now() - start).count();
    // OutputFile: a private temporary name beside it, renamed over it (a killed process leaves
    // the old checkpoint whole; nothing planted under a temporary name is written through).
    auto written = writeFileAtomically(o.checkpoint, dumpJson(checkpointJson(report, done)) + "\n");
    if (!written.ok())
      return written.error();
    return std::nullopt;
  };
  // At the start too: a checkpoint that cannot be written fails before any work is lost.
  if (auto e = save())
    return *e;
  auto lastSave = Clock::now();

  SweepProgress progress;
  progress.report = &report;
  for (std::size_t i = 0; i < groups.size(); ++i)
    if (groups[i].shard == o.shardIndex) {
      ++progress.groupsTotal;
      progress.costTotal += groups[i].cost;
      if (isDone[i]) {
        ++progress.groupsDone;
        progress.costDone += groups[i].cost;
      }
    }
  progress.costResumed = progress.costDone;
  progress.setsResumed = report.enumerated;

  // Each group's rank in the deal's order (for --group-times).
  std::vector<std::size_t> byCost = dealOrder(groups);
  std::vector<uint64_t> rank(groups.size());
  for (std::size_t r = 0; r < byCost.size(); ++r)
    rank[byCost[r]] = r;

  // In group order, so that the failures kept are the first ones, as in an unsharded run.
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].shard != o.shardIndex || isDone[i])
      continue;
    auto groupStart = Clock::now();
    const uint64_t verifiedBefore = report.verified, algebraOnlyBefore = report.algebraOnly;
    if (peer) {
      if (auto e = runGroupAgainstTriton(groups[i], i, o, report, *peer))
        return *e;
    } else {
      // A group stopped inside leaves no trace: the report and the checkpoint hold whole groups.
      SweepReport before = report;
      if (!runGroup(groups[i], i, o, report)) {
        report = std::move(before);
        break;
      }
    }
    done.push_back(i);
    ++progress.groupsDone;
    progress.costDone += groups[i].cost;
    progress.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    progress.group = &groups[i];
    progress.groupIndex = i;
    progress.groupRank = rank[i];
    progress.groupSeconds = std::chrono::duration<double>(Clock::now() - groupStart).count();
    progress.groupVerified = report.verified - verifiedBefore;
    progress.groupAlgebraOnly = report.algebraOnly - algebraOnlyBefore;
    if (o.progress)
      o.progress(progress);
    if (o.stop && o.stop())
      break;
    if (!o.checkpoint.empty() &&
        std::chrono::duration<double>(Clock::now() - lastSave).count() >= o.checkpointSeconds) {
      if (auto e = save())
        return *e;
      lastSave = Clock::now();
    }
  }
  if (auto e = save())
    return *e;
  report.seconds = resumedSeconds + std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

void countAcceptReason(SweepReport& report, const std::string& reason, uint64_t n) {
  auto& reasons = report.acceptReasons;
  if (reasons.count(reason) == 0 && reasons.size() >= kMaxAcceptReasons)
    reasons[kOtherAcceptReasons] += n;
  else
    reasons[reason] += n;
}

std::string toText(const SweepReport& r) {
  std::ostringstream out;
  out << "sweep " << r.family << " (Triton " << tritonVersionName(r.triton) << ", ";
  if (r.mergedShards > 0)
    out << r.mergedShards << (r.mergedShards == 1 ? " shard merged" : " shards merged");
  else
    out << "shard " << shardName(r.shardIndex, r.shardCount);
  out << "): " << r.groups << " groups, " << r.enumerated << " encodings, " << r.rejected
      << " rejected by the attribute reader\n";
  if (!r.against.empty()) {
    out << "  against Triton " << r.against.substr(7) << "'s to_linear_layout: " << r.compared
        << " compared basis by basis: " << r.tritonFailures << " differ; " << r.bothRejected
        << " rejected by both; " << r.acceptFailures << " rejected by one only\n";
    // The reasons, the commonest first.
    std::vector<std::pair<std::string, uint64_t>> reasons(r.acceptReasons.begin(),
                                                          r.acceptReasons.end());
    std::stable_sort(reasons.begin(), reasons.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [reason, n] : reasons)
      out << "    " << n << " " << reason << "\n";
  } else {
    out << "  verified " << r.verified << " distinct layouts: " << r.verifyFailures
        << " failures\n";
    if (r.algebraOnly > 0)
      out << "    " << r.algebraOnly << " of them by the algebra alone: more inputs than the "
          << "enumeration takes (2^" << kDefaultMaxEnumerationBits << ")\n";
    out << "  checked " << r.pairs << " conversion plans against enumeration (" << r.unplanned
        << " not planned): " << r.planFailures << " failures\n";
    if (r.renamedGroups + r.renamedLayouts + r.renamedPairs > 0)
      out << "  reduced (docs/sweep.md): " << r.renamedGroups << " groups (" << r.renamedSets
          << " parameter sets), " << r.renamedLayouts << " layouts and " << r.renamedPairs
          << " plans not checked: renamings of checked ones\n";
  }
  for (const SweepFailure& f : r.failures)
    out << "FAILED " << f.what << " " << f.attribute << " --shape " << f.shape << "\n  "
        << f.message << "\n";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", r.seconds);
  out << r.failureCount() << " failures in " << secs << " s\n";
  return out.str();
}

namespace {

std::string groupText(const SweepGroup& g) {
  std::string s = shapeText(g.shape) + ", " + std::to_string(g.lanes) + " lanes, " +
                  std::to_string(g.warps) + " warps";
  if (!g.sizePerThreadSorted.empty()) {
    s += ", sizePerThread a permutation of [";
    for (std::size_t i = 0; i < g.sizePerThreadSorted.size(); ++i)
      s += (i ? ", " : "") + std::to_string(g.sizePerThreadSorted[i]);
    s += "]";
  }
  return s;
}

} // namespace

nlohmann::json toJson(const SweepEstimate& e) {
  nlohmann::json shards = nlohmann::json::array();
  for (std::size_t i = 0; i < e.shards.size(); ++i)
    shards.push_back({{"shard", shardName(static_cast<int>(i), e.shardCount)},
                      {"groups", e.shards[i].groups},
                      {"encodings", e.shards[i].sets},
                      {"estimated_seconds", e.shards[i].seconds}});
  const SweepGroup& c = e.costliest;
  return {{"estimate", true},
          {"family", e.family},
          {"triton", tritonVersionName(e.triton)},
          {"max_log2", e.maxLog2},
          {"num_warps", e.numWarps},
          {"pair_max_log2", e.pairMaxLog2},
          {"part_min_log2", e.partMinLog2},
          {"reduce", e.reduce},
          {"balance", e.balance},
          {"shard_count", e.shardCount},
          {"groups", e.groups},
          {"parts", e.parts},
          {"renamed_groups", e.renamedGroups},
          {"encodings", e.sets},
          {"estimated_seconds", e.seconds},
          {"shards", shards},
          {"costliest",
           {{"shape", shapeText(c.shape)},
            {"lanes", c.lanes},
            {"warps", c.warps},
            {"size_per_thread_sorted", c.sizePerThreadSorted},
            {"encodings", c.sets},
            {"estimated_seconds", static_cast<double>(c.cost) / 1e6}}}};
}

std::string toText(const SweepEstimate& e) {
  std::ostringstream out;
  char buf[160];
  out << "sweep " << e.family << " (Triton " << tritonVersionName(e.triton) << "), estimate for "
      << e.shardCount << " shards, dealt " << e.balance << ": " << e.groups << " groups ("
      << e.parts << " of them parts of large groups, " << e.renamedGroups << " renamed, not run), "
      << e.sets << " encodings\n";
  double most = 0, least = e.shards.empty() ? 0 : e.shards[0].seconds;
  for (const auto& s : e.shards) {
    most = std::max(most, s.seconds);
    least = std::min(least, s.seconds);
  }
  std::snprintf(buf, sizeof buf,
                "  estimated %.1f s in all; per shard %.1f s to %.1f s (an even share: %.1f s)\n",
                e.seconds, least, most, e.seconds / std::max(e.shardCount, 1));
  out << buf;
  std::snprintf(buf, sizeof buf, "  the costliest group, %.1f s (no shard takes less): ",
                static_cast<double>(e.costliest.cost) / 1e6);
  out << buf << groupText(e.costliest) << "\n";
  out << "  (seconds of one core of the development machine: docs/sweep.md, \"Sizing a job\")\n";
  return out.str();
}

Result<SweepReport> mergeSweepReports(const std::vector<SweepReport>& shards,
                                      const std::vector<std::string>& sources) {
  if (shards.empty())
    return makeError("no shard results to merge");
  auto name = [&](std::size_t i) {
    return i < sources.size() ? sources[i] : "result " + std::to_string(i);
  };
  const SweepReport& first = shards[0];
  for (std::size_t i = 1; i < shards.size(); ++i) {
    std::string diff = differences(shards[i], first, false, "here", "in " + name(0));
    if (!diff.empty())
      return makeError("a result of another sweep: " + diff, name(i));
  }
  // Every shard exactly once.
  std::vector<std::optional<std::size_t>> seen(static_cast<std::size_t>(first.shardCount));
  for (std::size_t i = 0; i < shards.size(); ++i) {
    auto& slot = seen[static_cast<std::size_t>(shards[i].shardIndex)];
    if (slot)
      return makeError("shard " + shardName(shards[i].shardIndex, shards[i].shardCount) +
                           " again (also " + name(*slot) + ")",
                       name(i));
    slot = i;
  }
  for (std::size_t s = 0; s < seen.size(); ++s)
    if (!seen[s])
      return makeError("shard " + shardName(static_cast<int>(s), first.shardCount) +
                       " is missing (" + std::to_string(shards.size()) + " of " +
                       std::to_string(first.shardCount) + " shard results given)");
  // Every group each shard was dealt: the deal is computed again from the parameters.
  auto plan = planSweep(optionsOf(first));
  if (!plan.ok())
    return plan.error().within(name(0));
  if (first.balance != balanceOf(*plan))
    return makeError("dealt as \"" + utf8Prefix(first.balance, 40) +
                         "\", but this llcheck deals this sweep as \"" + balanceOf(*plan) +
                         "\" (run the shards and the merge with one release)",
                     name(0));
  SweepReport m = first;
  m.groups = m.enumerated = m.rejected = m.verified = m.distinct = m.pairs = m.unplanned = 0;
  m.verifyFailures = m.planFailures = 0;
  m.renamedGroups = m.renamedSets = m.renamedLayouts = m.renamedPairs = m.algebraOnly = 0;
  m.compared = m.bothRejected = m.tritonFailures = m.acceptFailures = 0;
  m.acceptReasons.clear();
  m.seconds = 0;
  m.failures.clear();
  m.shardIndex = 0;
  m.shardCount = 1;
  m.mergedShards = 0;
  uint64_t mergedShards = 0;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const SweepReport& r = shards[i];
    if (auto e = checkAgainstDeal(r, *plan, nullptr))
      return e->within(name(i));
    // Every total checked: counts read from a file may be forged, and a wrapped failure count
    // would print "0 failures".
    std::optional<Error> error;
    auto add = [&](uint64_t& total, uint64_t v, const char* field) {
      if (error)
        return;
      auto s = json::checkedAdd(total, v, field);
      if (s.ok())
        total = *s;
      else
        error = s.error().within(name(i));
    };
    add(m.groups, r.groups, "groups");
    add(m.enumerated, r.enumerated, "encodings");
    add(m.rejected, r.rejected, "rejected");
    add(m.verified, r.verified, "verified");
    add(m.distinct, r.distinct, "distinct_layouts");
    add(m.pairs, r.pairs, "pairs");
    add(m.unplanned, r.unplanned, "unplanned");
    add(m.verifyFailures, r.verifyFailures, "verify_failures");
    add(m.planFailures, r.planFailures, "plan_failures");
    add(m.renamedGroups, r.renamedGroups, "renamed_groups");
    add(m.renamedSets, r.renamedSets, "renamed_sets");
    add(m.renamedLayouts, r.renamedLayouts, "renamed_layouts");
    add(m.renamedPairs, r.renamedPairs, "renamed_pairs");
    add(m.algebraOnly, r.algebraOnly, "algebra_only");
    add(m.compared, r.compared, "compared");
    add(m.bothRejected, r.bothRejected, "both_rejected");
    add(m.tritonFailures, r.tritonFailures, "triton_failures");
    add(m.acceptFailures, r.acceptFailures, "accept_failures");
    // The failure total too: each kind may fit and their sum not.
    uint64_t failures = m.verifyFailures;
    add(failures, m.planFailures, "failures");
    add(failures, m.tritonFailures, "failures");
    add(failures, m.acceptFailures, "failures");
    add(mergedShards, static_cast<uint64_t>(std::max(r.mergedShards, 1)), "merged_shards");
    if (error)
      return *error;
    // The reasons add up to accept_failures in each result (the reader checks), so their sums
    // are at most the checked total.
    for (const auto& [reason, n] : r.acceptReasons)
      countAcceptReason(m, reason, n);
    m.seconds += r.seconds;
    if (!(m.seconds <= kMaxSweepSeconds))
      return makeError("the shards' seconds add up past the bound, " +
                           std::to_string(static_cast<uint64_t>(kMaxSweepSeconds)) +
                           " s (docs/limits.md)",
                       "seconds")
          .within(name(i));
    m.failures.insert(m.failures.end(), r.failures.begin(), r.failures.end());
  }
  if (mergedShards > static_cast<uint64_t>(kMaxSweepShards))
    return makeError("the results add up to " + std::to_string(mergedShards) +
                     " shards merged, more than " + std::to_string(kMaxSweepShards) +
                     " (docs/limits.md)");
  m.mergedShards = static_cast<int>(mergedShards);
  // Every shard added up to its deal, so the union is the deal: said once more, as a merged
  // result is what a nightly job reads.
  uint64_t dealtSets = 0;
  for (const SweepGroup& g : *plan)
    dealtSets = plus(dealtSets, g.sets);
  if (m.groups != plan->size() || m.enumerated != dealtSets)
    return makeError("the shards add up to " + std::to_string(m.groups) + " groups and " +
                     std::to_string(m.enumerated) + " parameter sets, not the deal's " +
                     std::to_string(plan->size()) + " and " + std::to_string(dealtSets));
  // Each shard kept its first failures in group order; the first of all of them are among
  // those, so sorted by group they are what an unsharded run keeps.
  std::stable_sort(m.failures.begin(), m.failures.end(),
                   [](const SweepFailure& a, const SweepFailure& b) { return a.group < b.group; });
  if (m.failures.size() > SweepOptions{}.maxFailuresKept)
    m.failures.resize(SweepOptions{}.maxFailuresKept);
  return m;
}

} // namespace llcheck::fuzz
