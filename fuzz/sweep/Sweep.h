// Exhaustive sweeps (`llcheck sweep FAMILY`): every encoding of one Triton family in a bounded
// parameter space, written as the attribute text Triton prints and built by core's own
// attribute reader (loadSpec), so what Triton (and llcheck's reader) rejects is counted, not
// checked. Each accepted encoding is verified (verify(): its kind's legality, with the algebra
// and the enumeration agreeing), and, for the distributed families, every ordered pair of
// distinct layouts of one group (same shape, lanes and warps) up to a size bound gets a
// conversion plan whose correctness is checked against enumeration (check/PlanCheck.h). Random
// cases find bugs; a sweep shows their absence within its bound.
//
// A large sweep is a job for many processes: planSweep deals the groups to N shards by their
// estimated cost, the same way in every process; a shard can keep its progress in a checkpoint
// file and go on from it when started again; and mergeSweepReports adds the shards' results up
// to what one unsharded run reports.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace llcheck::fuzz {

/// blocked, swizzled_shared, nvmma_shared, nvidia_mma, amd_mfma, amd_wmma, dot_op, slice.
[[nodiscard]] const std::vector<std::string>& sweepFamilies();

/// The name of the way planSweep deals groups to shards, recorded in every result and
/// checkpoint: results dealt another way (another release's estimate) do not add up with these,
/// so merge and resume refuse them.
inline constexpr const char* kSweepBalance = "cost-greedy-1";
/// The same deal over groups of which some are cut into parts (SweepParameters::partMinLog2).
/// A sweep with no part is dealt as kSweepBalance and named so, as before parts existed.
inline constexpr const char* kSweepBalanceParts = "cost-greedy-2";

struct SweepReport;
struct SweepGroup;

/// A shard's position, after each group it finishes (for a progress line).
struct SweepProgress {
  /// The group just finished; its index in the plan and its rank in the deal's order (0: the
  /// estimated costliest); the seconds it took (for --group-times).
  const SweepGroup* group = nullptr;
  uint64_t groupIndex = 0, groupRank = 0;
  uint64_t groupVerified = 0, groupAlgebraOnly = 0; ///< what it added to the report's counts
  double groupSeconds = 0;
  uint64_t groupsDone = 0, groupsTotal = 0; ///< this shard's, resumed groups included
  uint64_t costDone = 0, costTotal = 0;     ///< the same in estimated cost (SweepGroup::cost)
  uint64_t costResumed = 0;                 ///< of costDone, what a checkpoint had done before
  uint64_t setsResumed = 0;                 ///< the parameter sets a checkpoint had done before
  double seconds = 0;                       ///< this process's time so far
  const SweepReport* report = nullptr;      ///< the counts so far
};

/// The sweep's parameters, said once: what a run is given (SweepOptions) and what its result
/// records, which merge and resume compare (SweepReport).
/// The largest --pair-max-log2: a group whose plans are checked is dealt whole and its layouts
/// paired, and the deal of --max-log2 12 --pair-max-log2 8 takes 76 s (12 would take minutes).
inline constexpr int kMaxPairMaxLog2 = 8;

struct SweepParameters {
  std::string family;
  /// Every tensor dim is at most 2^maxLog2.
  int maxLog2 = 3;
  /// Warps per CTA (powers of two); empty: 1, 2, 4, 8, 16 (a report has the default written
  /// out).
  std::vector<uint64_t> numWarps;
  /// Conversion plans only in groups whose tensor has at most 2^pairMaxLog2 elements (-1: none).
  int pairMaxLog2 = 3;
  /// This process runs the groups planSweep deals to shard shardIndex of shardCount.
  int shardIndex = 0, shardCount = 1;
  /// The Triton release whose encodings are swept (--triton).
  TritonVersion triton = kNewestTriton;
  /// Check each layout once up to renaming the tensor's dims (false: --no-reduce): a #ttg.blocked
  /// group whose shape is a permutation of a non-increasing one stands for its renamings, and
  /// within a group a layout (or a pair) whose dims renamed give one already checked is
  /// skipped. Why that is sound: docs/sweep.md, "Doing less work". A report against Triton
  /// records false: no reduction applies there.
  bool reduce = true;
  /// A #ttg.blocked group of rank 2 or 3 whose tensor has at least 2^partMinLog2 elements (and
  /// whose plans are not checked) is cut into parts, one per multiset of sizePerThread, each
  /// dealt and run as a group of its own: one shape's group at --max-log2 5 is minutes, and no
  /// shard can take less time than its largest group. Why that is sound: docs/sweep.md,
  /// "Parts of a large group".
  static constexpr int kDefaultPartMinLog2 = 13;
  int partMinLog2 = kDefaultPartMinLog2;
};

struct SweepOptions : SweepParameters {
  /// At most this many failures are kept in the report (all are counted).
  std::size_t maxFailuresKept = 20;
  /// Non-empty: the shard's checkpoint file. When it exists, the sweep goes on from it (an
  /// Error if it was written for other parameters); it is rewritten (a temporary file renamed
  /// over it, so a killed process leaves the old one whole) at the start, after a group when
  /// checkpointSeconds have passed since the last write, and at the end.
  std::string checkpoint;
  /// 0: after every group.
  double checkpointSeconds = 5;
  /// Called after each group this shard finishes, before the checkpoint write that would
  /// follow it.
  std::function<void(const SweepProgress&)> progress;
  /// Asked after each group and, within a group, every `stopCheckEvery` encodings or pairs
  /// (a signal handler's flag): true stops the sweep, its checkpoint written. A group it stops
  /// inside is dropped, its partial counts with it, and runs whole on resume: the report and the
  /// checkpoint hold whole groups only. So a job engine's grace period after SIGTERM need not
  /// cover a group, which at --max-log2 5 can take minutes.
  std::function<bool()> stop;
  uint64_t stopCheckEvery = 256;
  /// Called with each layout the sweep verifies (tests: what a sweep covers).
  std::function<void(const LinearLayout&)> verifiedLayout;
  /// --against triton: instead of verifying, compare every encoding with `triton`'s own
  /// to_linear_layout (TritonPeer: `python` running `tritonHelper`, `jobs` processes, asked
  /// `tritonBatch` encodings at a time). No reduction applies: Triton is what is checked.
  bool againstTriton = false;
  std::string python = "python3", tritonHelper;
  int jobs = 1;
  /// Seconds a helper may stay silent while an answer is awaited (TritonPeer::start).
  int tritonTimeoutSeconds = 600;
  std::size_t tritonBatch = 4096;
};

/// One (shape, lanes, warps) group of a sweep, as planSweep deals it.
struct SweepGroup {
  std::vector<uint64_t> shape;
  uint64_t lanes = 32, warps = 1;
  /// Its parameter sets (the encodings written out), counted without writing them.
  uint64_t sets = 0;
  /// What it is estimated to cost, in units of about a microsecond (see planSweep).
  uint64_t cost = 0;
  /// The shard it is dealt to.
  int shard = 0;
  /// Not run (reduce): a renaming of the tensor's dims maps it onto a group that is, whose
  /// verdicts stand for its own (docs/sweep.md, "Doing less work").
  bool renamed = false;
  /// A part of a large #ttg.blocked group (partMinLog2): its encodings are those whose
  /// sizePerThread, sorted, is this. Empty: the whole group.
  std::vector<uint64_t> sizePerThreadSorted = {};
};

/// "cost-greedy-2" when some group of the plan is a part, else "cost-greedy-1".
[[nodiscard]] std::string balanceOf(const std::vector<SweepGroup>& plan);

/// Every group of the sweep `options` describes, in the sweep's fixed order (a group's index is
/// its position), each with its estimated cost and shard. The groups are dealt greedily, the
/// costliest first (ties: the lower index), each to the shard with the least estimated cost so
/// far (ties: the lower shard), so that every process computes the same deal from the options
/// alone. An Error for an unknown family or bad bounds.
[[nodiscard]] Result<std::vector<SweepGroup>> planSweep(const SweepOptions& options);

/// What a sweep would cost, from planSweep's deal, without sweeping (`--estimate`): for sizing a
/// job before submitting it. The costs are the deal's estimates, in seconds of one core of the
/// 2-core development machine; docs/sweep.md gives how they compare with measured times.
struct SweepEstimate : SweepParameters {
  std::string balance;
  uint64_t groups = 0;        ///< dealt, parts counted one by one
  uint64_t parts = 0;         ///< of those, parts of a large group
  uint64_t renamedGroups = 0; ///< of those, not run (reduce)
  uint64_t sets = 0;          ///< parameter sets, in every group
  double seconds = 0;         ///< estimated, over every shard
  struct Shard {
    uint64_t groups = 0, sets = 0;
    double seconds = 0;
  };
  std::vector<Shard> shards; ///< by index
  SweepGroup costliest;      ///< the group (or part) estimated dearest: no shard takes less
};

/// The deal of the sweep `options` describes (every shard of options.shardCount), estimated.
[[nodiscard]] Result<SweepEstimate> estimateSweep(const SweepOptions& options);
[[nodiscard]] nlohmann::json toJson(const SweepEstimate& estimate);
[[nodiscard]] std::string toText(const SweepEstimate& estimate);

struct SweepFailure {
  std::string what; ///< "verify", "plan", "triton" (layouts differ) or "accept" (one rejects)
  std::string attribute, shape, message;
  uint64_t group = 0; ///< the index of its group (merge orders failures by it)
};

inline constexpr std::size_t kMaxAcceptReasons = 100;
inline constexpr const char* kOtherAcceptReasons = "(other reasons)";

struct SweepReport : SweepParameters {
  /// The failures counted, of every kind.
  [[nodiscard]] uint64_t failureCount() const {
    return verifyFailures + planFailures + tritonFailures + acceptFailures;
  }
  // With SweepParameters, what merge and resume compare.
  std::string balance = kSweepBalance;
  std::string
      against; ///< "" or "triton-3.9": whose to_linear_layout every encoding is compared with
  // The counts, over the groups done.
  uint64_t enumerated = 0;           ///< parameter sets of this shard's groups
  uint64_t rejected = 0;             ///< of those, the attribute reader rejected (as Triton does)
  uint64_t verified = 0;             ///< layouts verified by this shard
  uint64_t groups = 0, distinct = 0; ///< (shape, lanes, warps) groups; distinct layouts in them
  uint64_t pairs = 0;                ///< conversion plans checked by this shard
  uint64_t unplanned = 0;            ///< pairs planConversion refused (e.g. across CTAs)
  uint64_t verifyFailures = 0, planFailures = 0;
  /// Of the layouts verified, those with more inputs than the enumeration takes (2^24): checked
  /// by the algebra alone, without the second opinion.
  uint64_t algebraOnly = 0;
  /// Doing less work (reduce): groups not run, and their parameter sets, because a renaming of
  /// the dims maps them onto a group that is run; layouts and pairs of a group not checked
  /// because a renaming maps them onto ones that are.
  uint64_t renamedGroups = 0, renamedSets = 0, renamedLayouts = 0, renamedPairs = 0;
  /// Against Triton: encodings both answered and compared basis by basis; both rejected;
  /// disagreements (layouts that differ; one answers, the other rejects).
  uint64_t compared = 0, bothRejected = 0, tritonFailures = 0, acceptFailures = 0;
  /// acceptFailures by reason ("Triton rejects: ...", "llcheck rejects: ..."): a sweep keeps
  /// only its first failures, and a user must see what all of them are. At most
  /// kMaxAcceptReasons reasons; the rest are counted under kOtherAcceptReasons.
  std::map<std::string, uint64_t> acceptReasons;
  /// The first maxFailuresKept, in group order.
  std::vector<SweepFailure> failures;
  /// The time spent sweeping these groups, planning not included (a resumed shard: over every
  /// run; merged: over every shard).
  double seconds = 0;
  /// A merged report: how many shard results it adds up (0: a run's own).
  int mergedShards = 0;
};

/// Counts n encodings that one side rejected for `reason` (capped as acceptReasons says).
void countAcceptReason(SweepReport& report, const std::string& reason, uint64_t n = 1);

/// Runs this shard's groups (options.shardIndex of options.shardCount, going on from
/// options.checkpoint when it exists). An Error for an unknown family, bad bounds, an unreadable
/// checkpoint or one of other parameters, or a checkpoint that cannot be written.
[[nodiscard]] Result<SweepReport> runSweep(const SweepOptions& options);

/// The result (`--format json`): the parameters, the counts and the kept failures.
[[nodiscard]] nlohmann::json toJson(const SweepReport& report);
[[nodiscard]] std::string toText(const SweepReport& report);
/// Bounds on what a result or a checkpoint read back may say (docs/limits.md): shards, the
/// seconds of a result (one shard's or a merge's sum over every shard: about 317 years of one
/// core, far past any real sweep, and finite however many shards add up), the failures kept,
/// the groups of a deal.
inline constexpr int kMaxSweepShards = 1000000;
inline constexpr double kMaxSweepSeconds = 1e10;
inline constexpr std::size_t kMaxSweepFailuresKept = 100000;
inline constexpr uint64_t kMaxSweepGroups = uint64_t{1} << 24;

/// A result read back (what toJson wrote); `source` names it in errors. The one schema reader
/// for results and checkpoints (SweepResult.cpp): every field's type and range checked, a
/// missing or unknown field named by its path ("a.json: verify_failures: ..."), and the counts
/// checked against one another (what is part of another count is not more than it, the failure
/// total is the sum of its kinds, none of it wraps). What only the deal can check (each shard's
/// groups and parameter sets) merge and resume check.
[[nodiscard]] Result<SweepReport> sweepReportFromJson(const nlohmann::json& j,
                                                      const std::string& source);

inline constexpr const char* kSweepCheckpointFormat = "llcheck sweep checkpoint 1";

/// A shard's checkpoint: its report so far and the groups done (indices in the plan).
struct SweepCheckpoint {
  SweepReport report;
  std::vector<uint64_t> doneGroups;
};
/// A checkpoint read back (a result's fields, "checkpoint" and "done_groups"), checked as
/// sweepReportFromJson checks a result, each group listed once and "groups" counting them.
[[nodiscard]] Result<SweepCheckpoint> sweepCheckpointFromJson(const nlohmann::json& j,
                                                              const std::string& source);

/// The shards' results (sources name them in errors) added up as one run over every group: the
/// counts summed (checked: a total that would pass 2^64 is an Error naming the field), the kept
/// failures in group order, shard 0/1. An Error, naming the file, when the results are of
/// different sweeps (family, bounds, Triton release, balance, shard count), when a shard is
/// missing or given twice, or when a result does not add up to what the deal, computed again
/// from the parameters, gave its shard: its groups, their parameter sets ("encodings"), the
/// groups and sets not run as renamings, and the groups its failures name. So a merge succeeds
/// only when the union is exactly the deal.
[[nodiscard]] Result<SweepReport> mergeSweepReports(const std::vector<SweepReport>& shards,
                                                    const std::vector<std::string>& sources);

} // namespace llcheck::fuzz
