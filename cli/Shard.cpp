// Which shard this process is (Shard.h): `--shard I/N` read and checked, or the task index and
// count a job engine's variables give.
#include "Shard.h"

#include <cctype>
#include <cstdlib>
#include <vector>

namespace llcheck::cli {

namespace {

constexpr long long kMaxShards = 1000000;

/// A decimal number without a sign, at most 10^9 (an index or a count; Slurm task ids reach
/// 4·10^6); nullopt for anything else.
std::optional<long long> number(const char* s) {
  std::string t = s ? s : "";
  if (t.empty() || t.size() > 10)
    return std::nullopt;
  for (char c : t)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
  long long v = std::stoll(t);
  if (v > 1000000000)
    return std::nullopt;
  return v;
}

std::string quoted(const char* s) {
  return "'" + utf8Prefix(s ? s : "", 40) + "'";
}

std::string shardText(const Shard& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

/// A shard some engine's variables name, and which variables (for messages).
struct Found {
  Shard shard;
  std::string source;
};

Result<std::optional<Found>> fromGtest(const Environment& env) {
  const char* total = env("GTEST_TOTAL_SHARDS");
  if (!total)
    return std::optional<Found>();
  const char* i = env("GTEST_SHARD_INDEX");
  std::string s = std::string(i ? i : "") + "/" + total;
  Found f{{}, "GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS"};
  if (!parseShard(s, f.shard.index, f.shard.count))
    return makeError("'" + utf8Prefix(s, 40) + "' is not I/N with 0 <= I < N", f.source);
  return std::optional<Found>(f);
}

/// A Slurm job array (sbatch --array=A-B[:S]) runs one task per id; the ids need not start at 0,
/// so the shard is the task's position among them.
Result<std::optional<Found>> fromSlurm(const Environment& env) {
  const char* id = env("SLURM_ARRAY_TASK_ID");
  if (!id)
    return std::optional<Found>();
  auto value = [&](const char* name, long long unset) -> Result<long long> {
    const char* v = env(name);
    if (!v) {
      if (unset >= 0)
        return unset;
      return makeError("not set, but SLURM_ARRAY_TASK_ID is", name);
    }
    auto n = number(v);
    if (!n)
      return makeError(quoted(v) + " is not a number", name);
    return *n;
  };
  auto task = value("SLURM_ARRAY_TASK_ID", -1);
  if (!task.ok())
    return task.error();
  auto count = value("SLURM_ARRAY_TASK_COUNT", -1);
  if (!count.ok())
    return count.error();
  auto min = value("SLURM_ARRAY_TASK_MIN", 0);
  if (!min.ok())
    return min.error();
  auto step = value("SLURM_ARRAY_TASK_STEP", 1);
  if (!step.ok())
    return step.error();
  if (*count < 1 || *count > kMaxShards)
    return makeError(std::to_string(*count) + " is not a shard count in [1, 1000000]",
                     "SLURM_ARRAY_TASK_COUNT");
  if (*step < 1)
    return makeError("0 is not a step", "SLURM_ARRAY_TASK_STEP");
  long long offset = *task - *min;
  if (offset < 0 || offset % *step != 0 || offset / *step >= *count) {
    long long last = *min + *step * (*count - 1);
    return makeError("task " + std::to_string(*task) + " is not one of the " +
                         std::to_string(*count) + " tasks " + std::to_string(*min) + ", ..., " +
                         std::to_string(last) +
                         " (SLURM_ARRAY_TASK_MIN, _STEP, _COUNT); run the shards as --array=0-" +
                         std::to_string(*count - 1),
                     "SLURM_ARRAY_TASK_ID");
  }
  return std::optional<Found>(Found{{static_cast<int>(offset / *step), static_cast<int>(*count)},
                                    "SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT"});
}

/// A Kubernetes Indexed Job gives each pod JOB_COMPLETION_INDEX but not the Job's completions.
Result<std::optional<Found>> fromKubernetes(const Environment& env,
                                            const std::optional<Found>& expected) {
  const char* index = env("JOB_COMPLETION_INDEX");
  if (!index)
    return std::optional<Found>();
  auto i = number(index);
  if (!i)
    return makeError(quoted(index) + " is not a number", "JOB_COMPLETION_INDEX");
  if (!expected)
    return makeError("set, but no shard count: give --shard-count N or LLCHECK_SHARD_COUNT (the "
                     "Job's completions)",
                     "JOB_COMPLETION_INDEX");
  if (*i >= expected->shard.count)
    return makeError(std::to_string(*i) + " is not below the shard count " +
                         std::to_string(expected->shard.count) + " (" + expected->source + ")",
                     "JOB_COMPLETION_INDEX");
  return std::optional<Found>(Found{{static_cast<int>(*i), expected->shard.count},
                                    "JOB_COMPLETION_INDEX / " + expected->source});
}

} // namespace

bool parseShard(const std::string& s, int& index, int& count) {
  std::size_t slash = s.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == s.size() || s.size() > 20)
    return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (i != slash && !std::isdigit(static_cast<unsigned char>(s[i])))
      return false;
  long long i = std::stoll(s.substr(0, slash)), n = std::stoll(s.substr(slash + 1));
  if (n < 1 || n > kMaxShards || i >= n)
    return false;
  index = static_cast<int>(i);
  count = static_cast<int>(n);
  return true;
}

bool shardFromEnvironment(int& index, int& count, std::string& errorMessage) {
  auto found = fromGtest([](const char* name) { return std::getenv(name); });
  if (!found.ok()) {
    errorMessage = found.error().str();
    return false;
  }
  if (*found) {
    index = (*found)->shard.index;
    count = (*found)->shard.count;
  }
  return true;
}

Result<Shard> resolveShard(const std::optional<std::string>& shardFlag,
                           std::optional<int> countFlag, const Environment& env) {
  if (countFlag && (*countFlag < 1 || *countFlag > kMaxShards))
    return makeError(std::to_string(*countFlag) + " is not a shard count in [1, 1000000]",
                     "--shard-count");
  if (shardFlag) {
    Shard s;
    if (!parseShard(*shardFlag, s.index, s.count))
      return makeError("'" + utf8Prefix(*shardFlag, 40) + "' is not I/N with 0 <= I < N",
                       "--shard");
    if (countFlag && *countFlag != s.count)
      return makeError(std::to_string(*countFlag) + " shards, but --shard " + shardText(s) +
                           " says " + std::to_string(s.count),
                       "--shard-count");
    return s;
  }
  // The count the caller expects: --shard-count wins over LLCHECK_SHARD_COUNT, as an option
  // wins over the environment everywhere else.
  std::optional<Found> expected;
  if (countFlag) {
    expected = Found{{0, *countFlag}, "--shard-count"};
  } else if (const char* v = env("LLCHECK_SHARD_COUNT")) {
    auto n = number(v);
    if (!n || *n < 1 || *n > kMaxShards)
      return makeError(quoted(v) + " is not a shard count in [1, 1000000]", "LLCHECK_SHARD_COUNT");
    expected = Found{{0, static_cast<int>(*n)}, "LLCHECK_SHARD_COUNT"};
  }
  std::vector<Found> found;
  for (auto engine : {fromGtest(env), fromSlurm(env), fromKubernetes(env, expected)}) {
    if (!engine.ok())
      return engine.error();
    if (*engine)
      found.push_back(**engine);
  }
  if (found.empty()) {
    if (expected)
      return makeError("a shard count, but no shard index: give --shard I/N, or run where "
                       "JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or GTEST_SHARD_INDEX is set",
                       expected->source);
    return Shard{};
  }
  for (const Found& f : found) {
    if (f.shard.index != found[0].shard.index || f.shard.count != found[0].shard.count)
      return makeError("shard " + shardText(found[0].shard) + ", but " + f.source + " say " +
                           shardText(f.shard) + ": give --shard I/N",
                       found[0].source);
    if (expected && f.shard.count != expected->shard.count)
      return makeError(std::to_string(expected->shard.count) + " shards, but " + f.source +
                           " say " + shardText(f.shard),
                       expected->source);
  }
  return found[0].shard;
}

} // namespace llcheck::cli
