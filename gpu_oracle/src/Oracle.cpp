// The oracle's host side (see Oracle.h): predictions, runner tables, ncu's CSV, results.
#include "llcheck/gpu_oracle/Oracle.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/core/conversion/Ldmatrix.h"
#include "llcheck/core/conversion/WarpShuffle.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <ostream>
#include <sstream>

namespace llcheck::oracle {

namespace {

/// The runner's limits (registers in a per-thread array, dynamic shared memory of one CTA).
constexpr int kMaxRegisterBits = 8;
constexpr uint64_t kMaxSharedBytes = 128 * 1024;

Result<SharedInstruction> instructionFromName(const std::string& s) {
  if (s == "vector")
    return SharedInstruction::Vector;
  if (s == "matrix")
    return SharedInstruction::Matrix;
  if (s == "matrix_trans")
    return SharedInstruction::MatrixTrans;
  return makeError("'" + utf8Prefix(s, 32) +
                   "' is not an instruction (vector, matrix, matrix_trans)");
}

std::vector<uint64_t> columns(const LinearLayout& l, DimName d) {
  auto c = l.inDimColumns(d);
  return {c.begin(), c.end()};
}

template <class... Lists> std::vector<uint64_t> concat(const Lists&... lists) {
  std::vector<uint64_t> out;
  (out.insert(out.end(), lists.begin(), lists.end()), ...);
  return out;
}

uint64_t original(uint64_t p, const std::vector<int>& perm) {
  uint64_t r = 0;
  for (std::size_t b = 0; b < perm.size(); ++b)
    if ((p >> b) & 1)
      r |= uint64_t{1} << perm[b];
  return r;
}

Result<SideTables> sideTables(const OffsetMap& map, const LinearLayout& reg,
                              const LinearLayout& shared, SharedInstruction instruction,
                              SharedAccessKind kind, const SharedMemoryModel& model,
                              int elementBits, uint64_t warps, AccessCount& prediction,
                              std::string& name) {
  SideTables t;
  t.instruction = instruction;
  bool store = kind == SharedAccessKind::Store;
  if (instruction == SharedInstruction::Vector) {
    SharedAccessOptions options{elementBits, -1};
    int v = vectorLog2(map, model, options);
    auto count = predictSharedAccess(map, model, kind, options);
    if (!count.ok())
      return count.error();
    prediction = *count;
    if (prediction.vectorBits != (1 << v) * elementBits)
      return makeError("internal: the model's vector and its count disagree");
    name = sharedInstructionName(model, kind, instruction, prediction.vectorBits, 0);
    t.vectorLog2 = v;
    t.slotsPerInstruction = 1 << v;
    std::map<uint64_t, int> instructionOf;
    uint64_t registers = uint64_t{1} << map.registers.size();
    for (uint64_t r = 0; r < registers; ++r) {
      uint64_t o = xorOf(map.registers, r);
      uint64_t start = o >> v;
      auto [it, added] = instructionOf.emplace(start, static_cast<int>(instructionOf.size()));
      if (added)
        t.slots.resize(t.slots.size() + static_cast<std::size_t>(t.slotsPerInstruction), -1);
      int& slot = t.slots[static_cast<std::size_t>(it->second * t.slotsPerInstruction) +
                          static_cast<std::size_t>(o & ((uint64_t{1} << v) - 1))];
      if (slot < 0)
        slot = static_cast<int>(r);
    }
    t.instructions = static_cast<int>(instructionOf.size());
    if (std::count(t.slots.begin(), t.slots.end(), -1) != 0 ||
        static_cast<uint64_t>(t.instructions) * warps != prediction.instructions)
      return makeError("internal: the vector accesses do not cover the registers as counted");
    return t;
  }
  if (store ? !model.stmatrix : !model.ldmatrix)
    return makeError(std::string(store ? "stmatrix" : "ldmatrix") + " does not exist on " +
                     model.arch);
  auto plan = ldmatrix(reg, shared, {elementBits, instruction == SharedInstruction::MatrixTrans});
  if (!plan.ok())
    return plan.error();
  if (!plan->divides)
    return makeError(std::string(store ? "stmatrix" : "ldmatrix") +
                     " does not fit: " + plan->reason);
  prediction = toAccessCount(*plan, warps);
  name = sharedInstructionName(model, kind, instruction, prediction.vectorBits,
                               plan->matricesPerInstruction);
  int tb = plan->tileRegisterBits, mb = plan->matrixRegisterBits;
  t.matrices = plan->matricesPerInstruction;
  t.instructions = static_cast<int>(plan->instructionsPerWarp);
  int perWord = 1 << tb;
  t.slotsPerInstruction = t.matrices * perWord;
  for (int i = 0; i < t.instructions; ++i) {
    for (int m = 0; m < t.matrices; ++m)
      for (int e = 0; e < perWord; ++e)
        t.slots.push_back(
            static_cast<int>(original(uint64_t(e) | uint64_t(m) << tb | uint64_t(i) << (tb + mb),
                                      plan->registerPermutation)));
    for (int m = 0; m < t.matrices; ++m)
      for (int j = 0; j < 8; ++j) {
        uint64_t e = instruction == SharedInstruction::MatrixTrans ? uint64_t(j & 1) : 0;
        t.rows.push_back(static_cast<int>(
            original(e | uint64_t(m) << tb | uint64_t(i) << (tb + mb), plan->registerPermutation)));
      }
  }
  return t;
}

/// The parts of a plan both kinds share: the threads, and SRC's and DST's element columns.
Result<bool> fillLayouts(PlannedCase& p, const LinearLayout& src, const LinearLayout& dst) {
  p.laneBits = 5;
  p.warpBits = src.getInDimSizeLog2(dims::kWarp);
  p.srcRegBits = src.getInDimSizeLog2(dims::kRegister);
  p.dstRegBits = dst.getInDimSizeLog2(dims::kRegister);
  p.indexBits = src.getTotalOutDimSizeLog2();
  if (p.srcRegBits > kMaxRegisterBits || p.dstRegBits > kMaxRegisterBits)
    return makeError("more than 256 registers per thread: the runner holds at most 256");
  if (p.warpBits > 5)
    return makeError("more than 32 warps in a CTA");
  if (src.getInDimSize(dims::kBlock) != 1)
    return makeError("the runner runs one CTA: layouts over several CTAs are not measured yet");
  p.srcCols =
      concat(columns(src, dims::kRegister), columns(src, dims::kLane), columns(src, dims::kWarp));
  p.dstCols =
      concat(columns(dst, dims::kRegister), columns(dst, dims::kLane), columns(dst, dims::kWarp));
  return true;
}

/// A warp-shuffle case: the schedule of WarpShuffle.h, lane by lane and round by round.
Result<PlannedCase> planShuffleCase(PlannedCase p, const LinearLayout& src,
                                    const LinearLayout& dst) {
  if (auto f = fillLayouts(p, src, dst); !f.ok())
    return f.error();
  auto plan = planWarpShuffles(src, dst, p.input.elementBits);
  if (!plan.ok())
    return plan.error();
  if (!plan->scheduled)
    return makeError("the shuffle plan is too large to schedule lane by lane");
  ShuffleTables& t = p.shuffle;
  t.rounds = static_cast<int>(plan->rounds);
  t.vectorElements = static_cast<int>(plan->vectorElements);
  t.shufflesPerVector = plan->shufflesPerVector;
  if (t.vectorElements * p.input.elementBits > 32 * t.shufflesPerVector || t.rounds > 4096)
    return makeError("internal: a shuffled vector wider than its shfl instructions");
  uint64_t warps = uint64_t{1} << p.warpBits;
  auto rounds = static_cast<uint64_t>(t.rounds);
  t.start.assign(warps * rounds * 32, -1);
  for (const WarpSchedule& schedule : plan->schedules)
    for (uint64_t w : schedule.warps) {
      if (w >= warps)
        return makeError("internal: a schedule for a warp past the CTA");
      for (uint64_t q = 0; q < rounds; ++q) {
        const ShuffleRound& round = schedule.rounds[q];
        for (std::size_t lane = 0; lane < 32; ++lane) {
          t.start[(w * rounds + q) * 32 + lane] = static_cast<int>(t.pool.size());
          t.pool.push_back(round.from[lane]);
          const std::vector<int>& send = round.send[lane];
          for (std::size_t k = 0; k < static_cast<std::size_t>(t.vectorElements); ++k)
            t.pool.push_back(send.empty() ? -1 : send[k]);
          for (std::size_t k = 0; k < static_cast<std::size_t>(t.vectorElements); ++k) {
            std::vector<int> regs;
            if (round.from[lane] >= 0)
              regs = round.recv[lane][k];
            t.pool.push_back(static_cast<int>(regs.size()));
            t.pool.insert(t.pool.end(), regs.begin(), regs.end());
          }
        }
      }
    }
  if (std::count(t.start.begin(), t.start.end(), -1) != 0)
    return makeError("internal: a warp without a shuffle schedule");
  p.predictedShuffles = warps * plan->rounds * static_cast<uint64_t>(plan->shufflesPerVector);
  p.storeName = p.loadName = "none";
  return p;
}

} // namespace

Result<OracleCase> caseFromJson(const nlohmann::json& j) {
  if (!j.is_object())
    return makeError("a case is a JSON object");
  OracleCase c;
  auto text = [&](const char* key, bool required, std::string& into) -> Result<bool> {
    if (!j.contains(key)) {
      if (required)
        return makeError(std::string("missing \"") + key + "\"");
      return false;
    }
    if (!j[key].is_string())
      return makeError(std::string("\"") + key + "\" must be a string");
    into = j[key].get<std::string>();
    return true;
  };
  for (auto [key, required, into] : std::vector<std::tuple<const char*, bool, std::string*>>{
           {"id", true, &c.id}, {"origin", false, &c.origin}, {"dtype", true, &c.dtype}})
    if (auto r = text(key, required, *into); !r.ok())
      return r.error();
  if (c.id.empty() || c.id.size() > 200 ||
      std::any_of(c.id.begin(), c.id.end(), [](char ch) { return ch <= ' ' || ch == 127; }))
    return makeError("\"id\" must be 1 to 200 printable characters without spaces");
  auto bits = dtypeBits(c.dtype);
  if (!bits.ok())
    return bits.error().within("case " + c.id);
  c.elementBits = *bits;
  std::string kind = "shared_memory";
  if (auto r = text("kind", false, kind); !r.ok())
    return r.error().within("case " + c.id);
  if (kind != "shared_memory" && kind != "warp_shuffle")
    return makeError("case " + c.id + ": \"kind\" must be shared_memory or warp_shuffle, not '" +
                     utf8Prefix(kind, 32) + "'");
  c.warpShuffle = kind == "warp_shuffle";
  for (auto [key, into] : std::vector<std::pair<const char*, LinearLayout*>>{
           {"src", &c.src}, {"dst", &c.dst}, {"shared", &c.shared}}) {
    if (c.warpShuffle && std::string(key) == "shared")
      continue;
    if (!j.contains(key))
      return makeError(std::string("case ") + c.id + ": missing \"" + key + "\"");
    auto l = layoutFromJson(j[key]);
    if (!l.ok())
      return l.error().within("case " + c.id + " \"" + key + "\"");
    *into = *l;
  }
  for (auto [key, into] : std::vector<std::pair<const char*, SharedInstruction*>>{
           {"store", &c.storeInstruction}, {"load", &c.loadInstruction}}) {
    std::string name;
    auto has = text(key, false, name);
    if (!has.ok())
      return has.error().within("case " + c.id);
    if (*has) {
      auto i = instructionFromName(name);
      if (!i.ok())
        return i.error().within("case " + c.id + " \"" + key + "\"");
      *into = *i;
    }
  }
  return c;
}

Result<PlannedCase> planCase(const OracleCase& c, const SharedMemoryModel& model) {
  if (model.warpSize != 32)
    return makeError("the runner executes NVIDIA's 32-lane warps; " + model.arch +
                     " is not measured by the oracle yet");
  auto plan = planConversion(c.src, c.dst);
  if (!plan.ok())
    return plan.error();
  const LinearLayout &src = plan->src, &dst = plan->dst;
  PlannedCase p;
  p.input = c;
  if (c.warpShuffle)
    return planShuffleCase(std::move(p), src, dst);
  auto srcMap = offsetMap(src, c.shared, {}, model);
  if (!srcMap.ok())
    return srcMap.error().within("SRC");
  auto dstMap = offsetMap(dst, c.shared, {}, model);
  if (!dstMap.ok())
    return dstMap.error().within("DST");
  if (auto f = fillLayouts(p, src, dst); !f.ok())
    return f.error();
  p.offsetBits = srcMap->offsetBits;
  if ((uint64_t{1} << p.offsetBits) * static_cast<uint64_t>(c.elementBits / 8) > kMaxSharedBytes)
    return makeError("the shared layout needs more than 128 KiB: the runner uses one CTA");
  p.srcOffs = concat(srcMap->registers, srcMap->lanes, srcMap->warps);
  p.dstOffs = concat(dstMap->registers, dstMap->lanes, dstMap->warps);
  uint64_t warps = uint64_t{1} << p.warpBits;
  auto store = sideTables(*srcMap, src, c.shared, c.storeInstruction, SharedAccessKind::Store,
                          model, c.elementBits, warps, p.storePrediction, p.storeName);
  if (!store.ok())
    return store.error().within("store");
  auto load = sideTables(*dstMap, dst, c.shared, c.loadInstruction, SharedAccessKind::Load, model,
                         c.elementBits, warps, p.loadPrediction, p.loadName);
  if (!load.ok())
    return load.error().within("load");
  p.store = *store;
  p.load = *load;
  // Each DST register copies the loaded register at its offset (itself when it was loaded).
  std::map<uint64_t, int> loadedAt;
  for (int r : p.load.slots)
    loadedAt.emplace(xorOf(dstMap->registers, static_cast<uint64_t>(r)), r);
  for (uint64_t r = 0; r < (uint64_t{1} << p.dstRegBits); ++r) {
    auto it = loadedAt.find(xorOf(dstMap->registers, r));
    if (it == loadedAt.end())
      return makeError("internal: DST register " + std::to_string(r) + " is never loaded");
    p.dup.push_back(it->second);
  }
  return p;
}

void writeRunnerInput(std::ostream& out, const std::vector<PlannedCase>& cases) {
  auto list = [&](const auto& v) {
    for (const auto& x : v)
      out << ' ' << x;
    out << '\n';
  };
  auto side = [&](const char* name, const SideTables& t) {
    int mode = t.instruction == SharedInstruction::Vector   ? 0
               : t.instruction == SharedInstruction::Matrix ? 1
                                                            : 2;
    out << name << ' ' << mode << ' ' << t.vectorLog2 << ' ' << t.matrices << ' ' << t.instructions
        << ' ' << t.slotsPerInstruction;
    list(t.slots);
    if (mode != 0)
      list(t.rows);
  };
  out << "llcheck-oracle-runner 1 " << cases.size() << '\n';
  for (const PlannedCase& c : cases) {
    bool shuffle = c.input.warpShuffle;
    out << "case " << c.input.id << ' ' << (shuffle ? 1 : 0) << ' ' << c.input.elementBits / 8
        << ' ' << c.offsetBits << ' ' << c.laneBits << ' ' << c.warpBits << ' ' << c.srcRegBits
        << ' ' << c.dstRegBits << ' ' << c.indexBits << '\n';
    // A shuffle has no shared-memory offsets: zeros keep the format one shape.
    auto offsets = [&](const std::vector<uint64_t>& cols, const std::vector<uint64_t>& offs) {
      return shuffle ? std::vector<uint64_t>(cols.size(), 0) : offs;
    };
    out << "src";
    list(concat(c.srcCols, offsets(c.srcCols, c.srcOffs)));
    out << "dst";
    list(concat(c.dstCols, offsets(c.dstCols, c.dstOffs)));
    if (shuffle) {
      const ShuffleTables& t = c.shuffle;
      out << "shuffle " << t.rounds << ' ' << t.vectorElements << ' ' << t.shufflesPerVector << ' '
          << t.start.size();
      list(t.start);
      out << t.pool.size();
      list(t.pool);
      continue;
    }
    side("store", c.store);
    side("load", c.load);
    out << "dup";
    list(c.dup);
  }
}

const std::vector<std::string>& oracleMetrics() {
  // The SASS-level instruction counters: smsp__inst_executed_op_shared_* counts a 128-bit
  // access (and most 32-bit ones, and ldmatrix/stmatrix .x4) twice on the H100, the sass_
  // counters once per warp-level instruction, as the model does (measured: gpu_oracle/README.md).
  static const std::vector<std::string> m = {
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "smsp__sass_inst_executed_op_shared_st.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
      "smsp__sass_inst_executed_op_shared_stsm.sum", "smsp__sass_inst_executed_op_ldsm.sum",
      // Thread-level: 32 per warp-level SHFL of a full warp. Hopper has no warp-level shuffle
      // counter, and the per-opcode counter (sass__inst_executed_per_opcode) costs 0.5 s a case.
      "smsp__sass_thread_inst_executed_op_inter_thread_communication_pred_on.sum"};
  return m;
}

namespace {

/// One CSV record's fields (ncu quotes every field; a field holds no newline).
std::vector<std::string> csvFields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"')
      quoted = !quoted;
    else if (ch == ',' && !quoted) {
      out.push_back(cur);
      cur.clear();
    } else
      cur += ch;
  }
  out.push_back(cur);
  return out;
}

uint64_t counter(const std::map<std::string, double>& c, const std::string& name) {
  auto it = c.find(name);
  return it == c.end() ? 0 : static_cast<uint64_t>(it->second + 0.5);
}

} // namespace

Result<std::vector<std::map<std::string, double>>> parseNcuCsv(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, double>> launches;
  std::map<std::string, std::size_t> indexOfId;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty() || line[0] != '"')
      continue; // the runner's own output and ncu's ==PROF== lines
    std::vector<std::string> f = csvFields(line);
    if (header.empty()) {
      header = f;
      continue;
    }
    if (f.size() != header.size())
      return makeError("ncu CSV: a row has " + std::to_string(f.size()) + " fields, the header " +
                       std::to_string(header.size()));
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < f.size(); ++i)
      row[header[i]] = f[i];
    if (!row.count("ID") || !row.count("Metric Name") || !row.count("Metric Value"))
      return makeError("ncu CSV: no ID / Metric Name / Metric Value column");
    std::string value = row["Metric Value"];
    std::erase(value, ',');
    auto [it, added] = indexOfId.emplace(row["ID"], launches.size());
    if (added)
      launches.emplace_back();
    auto number = [](const std::string& v) -> std::optional<double> {
      std::size_t used = 0;
      try {
        double d = std::stod(v, &used);
        return used == v.size() ? std::optional<double>(d) : std::nullopt;
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
    std::map<std::string, double>& launch = launches[it->second];
    const std::string& name = row["Metric Name"];
    auto v = value.empty() ? std::optional<double>(0.0) : number(value);
    if (!v)
      return makeError("ncu CSV: metric value '" + utf8Prefix(value, 32) + "' is not a number");
    launch[name] = *v;
  }
  return launches;
}

Measured measuredStore(const std::map<std::string, double>& c) {
  return {counter(c, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
          counter(c, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
          counter(c, "smsp__sass_inst_executed_op_shared_st.sum") +
              counter(c, "smsp__sass_inst_executed_op_shared_stsm.sum")};
}

Measured measuredLoad(const std::map<std::string, double>& c) {
  return {counter(c, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
          counter(c, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
          counter(c, "smsp__sass_inst_executed_op_shared_ld.sum") +
              counter(c, "smsp__sass_inst_executed_op_ldsm.sum")};
}

uint64_t measuredShuffles(const std::map<std::string, double>& c) {
  uint64_t threads =
      counter(c, "smsp__sass_thread_inst_executed_op_inter_thread_communication_pred_on.sum");
  // Not a whole number of full-warp instructions: report it so that it cannot equal a prediction.
  return threads % 32 == 0 ? threads / 32 : kPartialWarpShuffles;
}

Agreement agreement(const AccessCount& predicted, const Measured& m) {
  if (m.instructions != predicted.instructions || m.wavefronts < predicted.wavefronts ||
      m.wavefronts - m.bankConflicts != predicted.wavefronts - predicted.bankConflicts)
    return Agreement::Mismatch;
  uint64_t extra = m.wavefronts - predicted.wavefronts;
  return extra == 0                  ? Agreement::Exact
         : extra <= kNoiseWavefronts ? Agreement::Noise
                                     : Agreement::Mismatch;
}

const char* agreementName(Agreement a) {
  switch (a) {
  case Agreement::Exact:
    return "exact";
  case Agreement::Noise:
    return "noise";
  case Agreement::Mismatch:
    break;
  }
  return "mismatch";
}

nlohmann::json resultJson(const PlannedCase& c, const std::string& verdict,
                          const Measured& storeMeasured, const Measured& loadMeasured,
                          uint64_t shuffles) {
  auto predicted = [](const AccessCount& a, const std::string& name) {
    nlohmann::json j = toJson(a);
    j["instruction"] = name;
    return j;
  };
  auto measured = [](const Measured& m) {
    return nlohmann::json{{"wavefronts", m.wavefronts},
                          {"bank_conflicts", m.bankConflicts},
                          {"instructions", m.instructions}};
  };
  Agreement store = agreement(c.storePrediction, storeMeasured);
  Agreement load = agreement(c.loadPrediction, loadMeasured);
  nlohmann::json j = {
      {"id", c.input.id},
      {"origin", c.input.origin},
      {"src", toJson(c.input.src)},
      {"dst", toJson(c.input.dst)},
      {"shared", toJson(c.input.shared)},
      {"dtype", c.input.dtype},
      {"correct", verdict == "correct"},
      {"predicted",
       {{"store", predicted(c.storePrediction, c.storeName)},
        {"load", predicted(c.loadPrediction, c.loadName)}}},
      {"measured", {{"store", measured(storeMeasured)}, {"load", measured(loadMeasured)}}},
      {"match", store == Agreement::Exact && load == Agreement::Exact},
      {"agreement", agreementName(std::max(store, load))},
      {"kind", c.input.warpShuffle ? "warp_shuffle" : "shared_memory"}};
  if (c.input.warpShuffle) {
    j["shared"] = nullptr;
    j["predicted"]["shuffles"] = c.predictedShuffles;
    j["measured"]["shuffles"] = shuffles;
    if (shuffles != c.predictedShuffles) {
      j["match"] = false;
      j["agreement"] = agreementName(Agreement::Mismatch);
    }
  }
  if (verdict != "correct")
    j["error"] = verdict;
  return j;
}

} // namespace llcheck::oracle
