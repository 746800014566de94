// A sweep's result and checkpoint read back (Sweep.h: sweepReportFromJson,
// sweepCheckpointFromJson): the one schema reader for both. A result comes from another process,
// another machine or an edited file, and a merged "0 failures" is the line a nightly job reads,
// so every field is read through json::FieldReader (type and range checked, a missing or unknown
// field named) and the counts must add up with one another; what only the deal can say (each
// shard's groups and parameter sets) is checked by merge and resume (Sweep.cpp). Kept apart from
// Sweep.cpp so that its fuzz target (fuzz/parsers/fuzz_sweep_result.cpp) links core alone.
#include "Sweep.h"

#include "llcheck/core/JsonFields.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <set>

namespace llcheck::fuzz {

const std::vector<std::string>& sweepFamilies() {
  static const std::vector<std::string> f = {
      "blocked",  "swizzled_shared", "nvmma_shared", "nvidia_mma",
      "amd_mfma", "amd_wmma",        "dot_op",       "slice"};
  return f;
}

namespace {

using json::FieldReader;

/// The fields of a result, as toJson writes them.
#define LLCHECK_SWEEP_RESULT_FIELDS                                                                \
  "family", "triton", "shard", "max_log2", "num_warps", "pair_max_log2", "part_min_log2",          \
      "balance", "merged_shards", "groups", "encodings", "rejected", "distinct_layouts",           \
      "verified", "pairs", "unplanned", "verify_failures", "plan_failures", "reduce",              \
      "renamed_groups", "renamed_sets", "renamed_layouts", "renamed_pairs", "algebra_only",        \
      "against", "compared", "both_rejected", "triton_failures", "accept_failures",                \
      "accept_reasons", "failures", "failed", "seconds"

/// Reads fields one after the other, keeping the first error (each read is one line below).
class Fields {
public:
  explicit Fields(const FieldReader& f) : f_(f) {}

  [[nodiscard]] bool ok() const { return !error_; }
  [[nodiscard]] const Error& error() const { return *error_; }
  void fail(Error e) {
    if (!error_)
      error_ = std::move(e);
  }
  void fail(std::string_view key, const std::string& message) {
    fail(makeError(message, f_.path(key)));
  }

  /// Absent optional fields keep their default (results of releases before the field: the
  /// sweep they describe had none of what it counts).
  void count(std::string_view key, uint64_t& v, bool optional = false) {
    if (error_ || (optional && !f_.has(key)))
      return;
    take(f_.unsignedField(key), v);
  }
  void integer(std::string_view key, int& v, int lo, int hi, bool optional = false) {
    if (error_ || (optional && !f_.has(key)))
      return;
    auto r = f_.signedField(key, lo, hi);
    if (r.ok())
      v = static_cast<int>(*r);
    else
      fail(r.error());
  }
  void text(std::string_view key, std::string& v, std::size_t maxBytes = 1 << 20) {
    if (!error_)
      take(f_.stringField(key, maxBytes), v);
  }
  void boolean(std::string_view key, bool& v, bool optional = false) {
    if (error_ || (optional && !f_.has(key)))
      return;
    take(f_.boolField(key), v);
  }
  void real(std::string_view key, double& v, double lo, double hi) {
    if (!error_)
      take(f_.realField(key, lo, hi), v);
  }

  /// `a` <= `b` (a count of what is part of another count), else an error at `key`.
  void atMost(std::string_view key, uint64_t a, uint64_t b, const std::string& what) {
    if (!error_ && a > b)
      fail(key, std::to_string(a) + " is more than " + what + " (" + std::to_string(b) + ")");
  }
  /// `a` == `b`, else an error at `key`.
  void equal(std::string_view key, uint64_t a, uint64_t b, const std::string& what) {
    if (!error_ && a != b)
      fail(key, std::to_string(a) + ", but " + what + " is " + std::to_string(b));
  }
  /// a + b, checked; an overflow is an error at `key`.
  uint64_t sum(std::string_view key, uint64_t a, uint64_t b) {
    auto s = json::checkedAdd(a, b, f_.path(key));
    if (s.ok())
      return *s;
    fail(s.error());
    return 0;
  }

private:
  template <class T> void take(Result<T> r, T& v) {
    if (r.ok())
      v = std::move(*r);
    else
      fail(r.error());
  }
  const FieldReader& f_;
  std::optional<Error> error_;
};

/// "I/N" with 0 <= I < N <= 1000000.
bool readShard(const std::string& s, int& index, int& count) {
  std::size_t slash = s.find('/');
  auto digits = [](std::string_view t) {
    return !t.empty() && t.size() <= 7 &&
           std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (slash == std::string::npos || !digits(std::string_view(s).substr(0, slash)) ||
      !digits(std::string_view(s).substr(slash + 1)))
    return false;
  long i = std::stol(s.substr(0, slash)), n = std::stol(s.substr(slash + 1));
  if (n < 1 || n > kMaxSweepShards || i >= n)
    return false;
  index = static_cast<int>(i);
  count = static_cast<int>(n);
  return true;
}

/// The fields a result and a checkpoint share, into `r`, every count checked against the others
/// it is part of.
Result<SweepReport> readReport(const FieldReader& f) {
  SweepReport r;
  Fields in(f);
  in.text("family", r.family, 64);
  std::string triton, shard;
  in.text("triton", triton, 64);
  in.text("shard", shard, 64);
  in.text("balance", r.balance, 64);
  in.integer("max_log2", r.maxLog2, 0, 12);
  in.integer("pair_max_log2", r.pairMaxLog2, -1, kMaxPairMaxLog2);
  // Absent from the results of releases before parts: theirs cut no group, as the default
  // bound cuts none of the sweeps they could run in time (their balance says which deal).
  in.integer("part_min_log2", r.partMinLog2, 0, 64, true);
  in.integer("merged_shards", r.mergedShards, 0, kMaxSweepShards);
  if (in.ok()) {
    auto warps = f.arrayField("num_warps", 64);
    if (!warps.ok()) {
      in.fail(warps.error());
    } else {
      for (std::size_t i = 0; i < (*warps)->size() && in.ok(); ++i) {
        auto w = json::asUnsigned((**warps)[i], json::elementPath(f.path("num_warps"), i), 1, 1024);
        if (!w.ok())
          in.fail(w.error());
        else if (!std::has_single_bit(*w))
          in.fail(makeError(std::to_string(*w) + " is not a power of two",
                            json::elementPath(f.path("num_warps"), i)));
        else
          r.numWarps.push_back(*w);
      }
    }
  }
  in.count("groups", r.groups);
  in.count("encodings", r.enumerated);
  in.count("rejected", r.rejected);
  in.count("distinct_layouts", r.distinct);
  in.count("verified", r.verified);
  in.count("pairs", r.pairs);
  in.count("unplanned", r.unplanned);
  in.count("verify_failures", r.verifyFailures);
  in.count("plan_failures", r.planFailures);
  in.count("renamed_groups", r.renamedGroups, true);
  in.count("renamed_sets", r.renamedSets, true);
  in.count("renamed_layouts", r.renamedLayouts, true);
  in.count("renamed_pairs", r.renamedPairs, true);
  in.count("algebra_only", r.algebraOnly, true);
  in.count("compared", r.compared, true);
  in.count("both_rejected", r.bothRejected, true);
  in.count("triton_failures", r.tritonFailures, true);
  in.count("accept_failures", r.acceptFailures, true);
  r.reduce = false;
  in.boolean("reduce", r.reduce, true);
  if (in.ok() && f.has("against")) {
    in.text("against", r.against, 64);
    if (in.ok() && !r.against.empty() && r.against != "triton-3.6" && r.against != "triton-3.9")
      in.fail("against", "expected \"\", \"triton-3.6\" or \"triton-3.9\", got \"" +
                             utf8Prefix(r.against, 20) + "\"");
  }
  in.real("seconds", r.seconds, 0, kMaxSweepSeconds);
  uint64_t failures = 0;
  in.count("failures", failures);
  if (!in.ok())
    return in.error();

  const auto& fams = sweepFamilies();
  if (std::find(fams.begin(), fams.end(), r.family) == fams.end())
    return makeError("unknown family '" + utf8Prefix(r.family, 60) + "'", f.path("family"));
  // Quoted cut at a character boundary (the message quotes at most 32 bytes of it).
  auto version = parseTritonVersionOrError(utf8Prefix(triton, 32), f.path("triton"));
  if (!version.ok())
    return version.error();
  r.triton = *version;
  if (!readShard(shard, r.shardIndex, r.shardCount))
    return makeError("'" + utf8Prefix(shard, 20) +
                         "' is not I/N with 0 <= I < N <= " + std::to_string(kMaxSweepShards),
                     f.path("shard"));
  if (!r.against.empty() && r.against != "triton-" + tritonVersionName(r.triton))
    return makeError("\"" + r.against + "\", but the encodings swept are Triton " +
                         tritonVersionName(r.triton) + "'s (\"triton\")",
                     f.path("against"));

  // The counts are parts of one another, as a run counts them (Sweep.cpp's runGroup and
  // AgainstTriton.cpp): a count that is more than what it is part of was not counted by a run.
  in.atMost("rejected", r.rejected, r.enumerated, "the encodings");
  in.atMost("distinct_layouts", r.distinct, r.enumerated - std::min(r.rejected, r.enumerated),
            "the encodings the attribute reader accepted");
  in.atMost("renamed_groups", r.renamedGroups, r.groups, "the groups");
  in.atMost("renamed_sets", r.renamedSets, r.enumerated, "the encodings");
  in.atMost("unplanned", r.unplanned, r.pairs, "the pairs");
  in.atMost("plan_failures", r.planFailures, r.pairs - std::min(r.unplanned, r.pairs),
            "the pairs planned");
  if (r.against.empty()) {
    // Every distinct layout is verified or stands for a renaming of one that is.
    in.equal("verified", in.sum("verified", r.verified, r.renamedLayouts), r.distinct,
             "\"distinct_layouts\"");
    in.atMost("verify_failures", r.verifyFailures, r.verified, "the layouts verified");
    in.atMost("algebra_only", r.algebraOnly, r.verified, "the layouts verified");
  } else {
    // Against Triton every encoding is compared, rejected by both, or rejected by one.
    uint64_t asked = in.sum("compared", r.compared, r.bothRejected);
    in.equal("encodings", r.enumerated, in.sum("accept_failures", asked, r.acceptFailures),
             "compared + both_rejected + accept_failures");
    in.atMost("both_rejected", r.bothRejected, r.rejected, "the encodings llcheck rejected");
    in.atMost("triton_failures", r.tritonFailures, r.compared, "the encodings compared");
    in.equal("verified", r.verified, 0, "what a sweep against Triton verifies");
  }
  uint64_t total = in.sum("failures", in.sum("failures", r.verifyFailures, r.planFailures),
                          in.sum("failures", r.tritonFailures, r.acceptFailures));
  in.equal("failures", failures, total,
           "verify_failures + plan_failures + triton_failures + accept_failures");
  if (!in.ok())
    return in.error();

  if (f.has("accept_reasons")) {
    auto reasons = f.objectField("accept_reasons");
    if (!reasons.ok())
      return reasons.error();
    const nlohmann::json& o = reasons->value();
    if (o.size() > kMaxAcceptReasons + 1)
      return makeError("more than " + std::to_string(kMaxAcceptReasons + 1) + " reasons",
                       f.path("accept_reasons"));
    uint64_t sum = 0;
    for (auto it = o.begin(); it != o.end(); ++it) {
      std::string path = json::fieldPath(f.path("accept_reasons"), utf8Prefix(it.key(), 60));
      auto n = json::asUnsigned(it.value(), path);
      if (!n.ok())
        return n.error();
      auto s = json::checkedAdd(sum, *n, path);
      if (!s.ok())
        return s.error();
      sum = *s;
      r.acceptReasons[it.key()] = *n;
    }
    if (sum != r.acceptFailures)
      return makeError("add up to " + std::to_string(sum) + ", not \"accept_failures\" (" +
                           std::to_string(r.acceptFailures) + ")",
                       f.path("accept_reasons"));
  }

  auto failed = f.arrayField("failed", kMaxSweepFailuresKept);
  if (!failed.ok())
    return failed.error();
  std::map<std::string, uint64_t> kept;
  for (std::size_t i = 0; i < (*failed)->size(); ++i) {
    std::string path = json::elementPath(f.path("failed"), i);
    auto e = FieldReader::of((**failed)[i], path);
    if (!e.ok())
      return e.error();
    if (auto only = e->onlyFields({"check", "attribute", "shape", "message", "group"}); !only.ok())
      return only.error();
    SweepFailure sf;
    Fields fe(*e);
    fe.text("check", sf.what, 16);
    fe.text("attribute", sf.attribute);
    fe.text("shape", sf.shape, 4096);
    fe.text("message", sf.message);
    fe.count("group", sf.group);
    if (!fe.ok())
      return fe.error();
    if (sf.what != "verify" && sf.what != "plan" && sf.what != "triton" && sf.what != "accept")
      return makeError("\"" + utf8Prefix(sf.what, 16) +
                           "\" is not a check (verify, plan, triton or accept)",
                       e->path("check"));
    ++kept[sf.what];
    r.failures.push_back(std::move(sf));
  }
  // Each failure kept is one of those counted.
  const std::pair<const char*, uint64_t> counted[] = {{"verify", r.verifyFailures},
                                                      {"plan", r.planFailures},
                                                      {"triton", r.tritonFailures},
                                                      {"accept", r.acceptFailures}};
  for (const auto& [what, n] : counted)
    if (kept[what] > n)
      return makeError("lists " + std::to_string(kept[what]) + " " + what +
                           " failures, more than counted (" + std::to_string(n) + ")",
                       f.path("failed"));
  return r;
}

} // namespace

// The writer of the schema the reader reads, beside it.
nlohmann::json toJson(const SweepReport& r) {
  nlohmann::json failures = nlohmann::json::array();
  for (const SweepFailure& f : r.failures)
    failures.push_back({{"check", f.what},
                        {"attribute", f.attribute},
                        {"shape", f.shape},
                        {"message", f.message},
                        {"group", f.group}});
  return {{"family", r.family},
          {"triton", tritonVersionName(r.triton)},
          {"shard", std::to_string(r.shardIndex) + "/" + std::to_string(r.shardCount)},
          {"max_log2", r.maxLog2},
          {"num_warps", r.numWarps},
          {"pair_max_log2", r.pairMaxLog2},
          {"part_min_log2", r.partMinLog2},
          {"balance", r.balance},
          {"merged_shards", r.mergedShards},
          {"groups", r.groups},
          {"encodings", r.enumerated},
          {"rejected", r.rejected},
          {"distinct_layouts", r.distinct},
          {"verified", r.verified},
          {"pairs", r.pairs},
          {"unplanned", r.unplanned},
          {"verify_failures", r.verifyFailures},
          {"plan_failures", r.planFailures},
          {"reduce", r.reduce},
          {"renamed_groups", r.renamedGroups},
          {"renamed_sets", r.renamedSets},
          {"renamed_layouts", r.renamedLayouts},
          {"renamed_pairs", r.renamedPairs},
          {"algebra_only", r.algebraOnly},
          {"against", r.against},
          {"compared", r.compared},
          {"both_rejected", r.bothRejected},
          {"triton_failures", r.tritonFailures},
          {"accept_failures", r.acceptFailures},
          {"accept_reasons", r.acceptReasons},
          {"failures", r.failureCount()},
          {"failed", failures},
          {"seconds", r.seconds}};
}

Result<SweepReport> sweepReportFromJson(const nlohmann::json& j, const std::string& source) {
  auto f = FieldReader::of(j, "");
  if (!f.ok())
    return makeError("not a sweep result (a JSON object)", source);
  if (f->has("checkpoint"))
    return makeError("a checkpoint, not a shard's result", source);
  if (auto only = f->onlyFields({LLCHECK_SWEEP_RESULT_FIELDS}); !only.ok())
    return only.error().within(source);
  auto r = readReport(*f);
  if (!r.ok())
    return r.error().within(source);
  return r;
}

Result<SweepCheckpoint> sweepCheckpointFromJson(const nlohmann::json& j,
                                                const std::string& source) {
  auto f = FieldReader::of(j, "");
  if (!f.ok() || !f->has("checkpoint") || f->value()["checkpoint"] != kSweepCheckpointFormat)
    return makeError("not a sweep checkpoint (no \"checkpoint\": \"" +
                         std::string(kSweepCheckpointFormat) + "\")",
                     source);
  if (auto only = f->onlyFields({LLCHECK_SWEEP_RESULT_FIELDS, "checkpoint", "done_groups"});
      !only.ok())
    return only.error().within(source);
  auto r = readReport(*f);
  if (!r.ok())
    return r.error().within(source);
  SweepCheckpoint c;
  c.report = std::move(*r);
  auto done = f->arrayField("done_groups", kMaxSweepGroups);
  if (!done.ok())
    return done.error().within(source);
  std::set<uint64_t> unique;
  for (std::size_t i = 0; i < (*done)->size(); ++i) {
    std::string path = json::elementPath("done_groups", i);
    auto d = json::asUnsigned((**done)[i], path, 0, kMaxSweepGroups - 1);
    if (!d.ok())
      return d.error().within(source);
    if (!unique.insert(*d).second)
      return makeError("group " + std::to_string(*d) + " is listed twice", path).within(source);
    c.doneGroups.push_back(*d);
  }
  if (unique.size() != c.report.groups)
    return makeError("lists " + std::to_string(unique.size()) + " groups, \"groups\" counts " +
                         std::to_string(c.report.groups),
                     "done_groups")
        .within(source);
  return c;
}

} // namespace llcheck::fuzz
