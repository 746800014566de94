// Exhaustive sweeps (`llcheck sweep FAMILY`): every encoding of one Triton family in a bounded
// parameter space, written as the attribute text Triton prints and built by core's own
// attribute reader (loadSpec), so what Triton (and llcheck's reader) rejects is counted, not
// checked. Each accepted encoding is verified (verify(): its kind's legality, with the algebra
// and the enumeration agreeing), and, for the distributed families, every ordered pair of
// distinct layouts of one group (same shape, lanes and warps) up to a size bound gets a
// conversion plan whose correctness is checked against enumeration (check/PlanCheck.h). Random
// cases find bugs; a sweep shows their absence within its bound.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/TritonVersion.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace llcheck::fuzz {

/// blocked, swizzled_shared, nvmma_shared, nvidia_mma, amd_mfma, dot_op.
[[nodiscard]] const std::vector<std::string>& sweepFamilies();

struct SweepOptions {
  std::string family;
  /// Every tensor dim is at most 2^maxLog2.
  int maxLog2 = 3;
  /// Warps per CTA (powers of two); empty: 1, 2, 4, 8, 16.
  std::vector<uint64_t> numWarps;
  /// Conversion plans only in groups whose tensor has at most 2^pairMaxLog2 elements (-1: none).
  int pairMaxLog2 = 3;
  /// Encoding e and pair p belong to shard e (p) modulo shardCount.
  int shardIndex = 0, shardCount = 1;
  /// A progress line on this stream, rewritten in place; null: none.
  std::ostream* progress = nullptr;
  /// At most this many failures are kept in the report (all are counted).
  std::size_t maxFailuresKept = 20;
  /// The Triton release whose encodings are swept (--triton).
  TritonVersion triton = kNewestTriton;
};

struct SweepFailure {
  std::string what; ///< "verify" or "plan"
  std::string attribute, shape, message;
};

struct SweepReport {
  std::string family;
  TritonVersion triton = kNewestTriton;
  uint64_t enumerated = 0;           ///< parameter sets of this shard's groups
  uint64_t rejected = 0;             ///< of those, the attribute reader rejected (as Triton does)
  uint64_t verified = 0;             ///< layouts verified by this shard
  uint64_t groups = 0, distinct = 0; ///< (shape, lanes, warps) groups; distinct layouts in them
  uint64_t pairs = 0;                ///< conversion plans checked by this shard
  uint64_t unplanned = 0;            ///< pairs planConversion refused (e.g. across CTAs)
  uint64_t verifyFailures = 0, planFailures = 0;
  std::vector<SweepFailure> failures;
  int shardIndex = 0, shardCount = 1;
  double seconds = 0;
};

/// An Error for an unknown family or bad bounds.
[[nodiscard]] Result<SweepReport> runSweep(const SweepOptions& options);

[[nodiscard]] nlohmann::json toJson(const SweepReport& report);
[[nodiscard]] std::string toText(const SweepReport& report);

} // namespace llcheck::fuzz
