// The host side of the GPU oracle: turns a case (SRC, DST, a shared layout, an element type
// and the instruction each side uses) into the bank model's prediction and into the tables the
// CUDA runner executes (gpu_oracle/runner/oracle_runner.cu), and joins the runner's verdicts
// and Nsight Compute's counters into the results `llcheck oracle` writes.
//
// # What a case executes
//
// Every thread of one CTA holds SRC's registers, stores them with the store instruction into
// SHARED, and after a barrier loads DST's registers from SHARED with the load instruction:
// the access the bank model counts (BankConflicts.h for st/ld.shared, Ldmatrix.h for
// stmatrix/ldmatrix), instruction for instruction. For st/ld.shared each side uses the widest
// vector the model finds; instruction i moves the registers whose offsets share all but the
// vector bits, slot k the register at offset start + k; registers that repeat an offset are
// copies and cost nothing (the load fills them by copying). For the matrix kinds the register
// permutation of Ldmatrix.h orders the tile, matrix and instruction bits.
//
// # Why a table, not a kernel per case
//
// The runner reads columns and tables as data, so one compiled kernel serves every case and
// 1,000 cases cost 1,000 launches, not 1,000 compilations.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/OptimalSwizzle.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace llcheck::oracle {

struct OracleCase {
  std::string id;
  /// Through shared memory (SHARED is then required) or by warp shuffles (the plan of
  /// WarpShuffle.h, no shared memory).
  bool warpShuffle = false;
  /// Where the case comes from: "ttgir:<file>:<line>", "sweep", "seed", ...
  std::string origin;
  LinearLayout src, dst, shared;
  std::string dtype;
  int elementBits = 0;
  SharedInstruction storeInstruction = SharedInstruction::Vector;
  SharedInstruction loadInstruction = SharedInstruction::Vector;
};

/// One line of a CASES file: {"id", "origin"?, "kind"?: "shared_memory" (default) |
/// "warp_shuffle", "src": L, "dst": L, "shared": L (shared_memory only), "dtype",
/// "store"?: "vector"|"matrix"|"matrix_trans", "load"?: ...} with L in llcheck's layout JSON.
[[nodiscard]] Result<OracleCase> caseFromJson(const nlohmann::json& j);

/// What the runner needs for one side.
struct SideTables {
  SharedInstruction instruction = SharedInstruction::Vector;
  int vectorLog2 = 0, matrices = 0, instructions = 0, slotsPerInstruction = 0;
  std::vector<int> slots, rows;
};

/// A warp-shuffle plan as the runner reads it: per (warp, round, lane) an entry of `pool` at
/// `start[(warp * rounds + round) * 32 + lane]`: the lane read (-1: none), the SRC registers
/// sent (vectorElements of them, -1 when the lane offers nothing), then per received element
/// the number of DST registers it is written to and those registers.
struct ShuffleTables {
  int rounds = 0, vectorElements = 0, shufflesPerVector = 0;
  std::vector<int> start, pool;
};

struct PlannedCase {
  OracleCase input;
  ShuffleTables shuffle;          ///< warp_shuffle cases
  uint64_t predictedShuffles = 0; ///< shfl instructions per CTA (every warp, every round)
  AccessCount storePrediction, loadPrediction;
  std::string storeName, loadName;
  // Runner tables.
  int offsetBits = 0, laneBits = 0, warpBits = 0, srcRegBits = 0, dstRegBits = 0, indexBits = 0;
  std::vector<uint64_t> srcCols, srcOffs, dstCols, dstOffs;
  SideTables store, load;
  std::vector<int> dup;
};

/// The prediction and the tables, or an Error saying why the case cannot run (layouts that do
/// not fit one another, more registers or shared memory than the runner holds, a matrix kind
/// the layouts do not divide, a model without those instructions).
[[nodiscard]] Result<PlannedCase> planCase(const OracleCase& c, const SharedMemoryModel& model);

/// The runner's input for all cases (format: gpu_oracle/README.md, "Runner input").
void writeRunnerInput(std::ostream& out, const std::vector<PlannedCase>& cases);

/// ncu --csv output: for each profiled launch in order, metric name -> value. An instanced
/// metric printed with --print-metric-instances details ("83,360 (LOP3: 14,384; SHFL: 128; ...)")
/// also gives one entry per instance, named "metric[INSTANCE]"
/// ("sass__inst_executed_per_opcode[SHFL]").
[[nodiscard]] Result<std::vector<std::map<std::string, double>>>
parseNcuCsv(const std::string& text);

/// The counters the oracle reads (ncu --metrics).
[[nodiscard]] const std::vector<std::string>& oracleMetrics();

/// One measured side: {"wavefronts", "bank_conflicts", "instructions"}.
struct Measured {
  uint64_t wavefronts = 0, bankConflicts = 0, instructions = 0;
};
[[nodiscard]] Measured measuredStore(const std::map<std::string, double>& counters);
[[nodiscard]] Measured measuredLoad(const std::map<std::string, double>& counters);
/// The warp-level SHFL instructions executed. Hopper's ncu has no shuffle counter (no
/// *_op_shfl metric on gh100): this is the inter-thread-communication thread count over 32,
/// which is SHFL alone in the oracle's kernels (no VOTE, MATCH or REDUX; checked against the
/// per-opcode counter, gpu_oracle/README.md). A count that is not a multiple of 32 gives
/// kPartialWarpShuffles, which no prediction equals.
inline constexpr uint64_t kPartialWarpShuffles = ~uint64_t{0};
[[nodiscard]] uint64_t measuredShuffles(const std::map<std::string, double>& counters);

/// How a measured side compares with its prediction. The H100's wavefront counter sometimes
/// reports a few wavefronts more than the accesses need (1 to 4 seen), on heavily conflicted or
/// sub-word accesses, and not the same cases from one run to the next (gpu_oracle/README.md):
/// that is `Noise`, kept apart from `Exact` and reported, never folded into it. Anything else
/// that differs (instructions, fewer wavefronts, more than 4 more) is a `Mismatch`.
enum class Agreement { Exact, Noise, Mismatch };
inline constexpr uint64_t kNoiseWavefronts = 4;
[[nodiscard]] Agreement agreement(const AccessCount& predicted, const Measured& measured);
[[nodiscard]] const char* agreementName(Agreement a);

/// The results entry of one case (the design doc's `llcheck oracle` schema, plus "agreement":
/// exact / noise / mismatch, and "match": both sides exact). A warp-shuffle case also compares
/// the measured SHFL count with `predictedShuffles`: instructions are counted exactly, so any
/// difference is a mismatch.
[[nodiscard]] nlohmann::json resultJson(const PlannedCase& c, const std::string& verdict,
                                        const Measured& store, const Measured& load,
                                        uint64_t shuffles = 0);

} // namespace llcheck::oracle
