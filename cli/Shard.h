// Which shard of a sharded run this process is: `--shard I/N`, or the variables a job engine
// sets for each of its tasks (docs/sweep.md, "Running the shards"). A job engine starts the same
// command N times; only its environment tells the copies apart.
#pragma once

#include "llcheck/core/Error.h"

#include <functional>
#include <optional>
#include <string>

namespace llcheck::cli {

struct Shard {
  int index = 0, count = 1;
};

/// "I/N" with 0 <= I < N into index and count; false otherwise (`fuzz --shard`, `sweep --shard`).
[[nodiscard]] bool parseShard(const std::string& s, int& index, int& count);
/// GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS into index and count when set (else unchanged); false,
/// with errorMessage, when they do not make I/N (`fuzz`).
[[nodiscard]] bool shardFromEnvironment(int& index, int& count, std::string& errorMessage);

/// One environment variable's value, or null when unset (std::getenv in the tool).
using Environment = std::function<const char*(const char*)>;

/// `sweep`'s shard. `--shard I/N` (shardFlag) wins over the environment. Without it, each job
/// engine whose variables are set names a shard:
///  - GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS (ctest, Bazel);
///  - SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT tasks, counted from SLURM_ARRAY_TASK_MIN by
///    SLURM_ARRAY_TASK_STEP (so --array=1-8 and --array=0-14:2 are shards 0..7 of 8);
///  - JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), whose count Kubernetes does not pass on:
///    it comes from --shard-count (countFlag) or LLCHECK_SHARD_COUNT.
/// When several are set they must agree, and a given --shard-count / LLCHECK_SHARD_COUNT must be
/// every engine's count; an Error (naming the variable) otherwise, or when a value is not a
/// number, a count is missing or an index is out of range. None set: shard 0 of 1.
[[nodiscard]] Result<Shard> resolveShard(const std::optional<std::string>& shardFlag,
                                         std::optional<int> countFlag, const Environment& env);

} // namespace llcheck::cli
