// Pieces of `llcheck report` that its files share: see ReportParts.h.
#include "ReportParts.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/BankConflicts.h"

#include <cstdlib>
#include <map>
#include <mutex>

namespace llcheck::reports::detail {

using json = nlohmann::json;

bool startsWith(const std::string& s, const std::string& p) {
  return s.rfind(p, 0) == 0;
}
bool endsWith(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

namespace {

// ---- Caches shared by the worker threads ------------------------------------------------------
//
// The same layouts recur across the kernels of a corpus (one kernel compiled for several targets,
// one blocked layout in every elementwise kernel); their proofs and optimal swizzles are computed
// once per run. Each cache starts afresh when it holds kMaxCached entries (a few KB each), so that
// a corpus of ever new layouts does not grow memory file after file (report streams files).

constexpr std::size_t kMaxCached = 4096;

std::string layoutKey(const LinearLayout& l) {
  return dumpJson(toJson(l));
}

struct Caches {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const VerifyReport>> verify;
  std::map<std::string, std::shared_ptr<const Result<OptimalSwizzle>>> swizzle;
};

Caches& caches() {
  static Caches c;
  return c;
}

} // namespace

std::shared_ptr<const VerifyReport> verifyCached(const LinearLayout& l, const ReportOptions& o,
                                                 std::string& error) {
  // The options that change the answer are part of the key (the tests vary them in one process).
  std::string key =
      layoutKey(l) + "|" + std::to_string(o.maxEnumerationBits) +
      (o.z3 ? "|z3:" + std::to_string(o.prover.timeoutMs) + ":" + std::to_string(o.prover.rlimit)
            : "");
  {
    std::lock_guard<std::mutex> lock(caches().mutex);
    if (auto it = caches().verify.find(key); it != caches().verify.end())
      return it->second;
  }
  VerifyOptions vopts;
  vopts.maxEnumerationBits = o.maxEnumerationBits;
  auto r = verify(l, vopts);
  if (!r.ok()) {
    error = r.error().str();
    return nullptr;
  }
  if (o.z3)
    prover::addProofs(*r, o.prover);
  auto shared = std::make_shared<const VerifyReport>(std::move(*r));
  std::lock_guard<std::mutex> lock(caches().mutex);
  if (caches().verify.size() >= kMaxCached)
    caches().verify.clear();
  caches().verify.emplace(key, shared);
  return shared;
}

std::shared_ptr<const Result<OptimalSwizzle>> swizzleCached(const LinearLayout& src,
                                                            const LinearLayout& dst, int bits,
                                                            const SharedMemoryModel& model) {
  std::string key =
      layoutKey(src) + "|" + layoutKey(dst) + "|" + std::to_string(bits) + "|" + model.arch;
  {
    std::lock_guard<std::mutex> lock(caches().mutex);
    if (auto it = caches().swizzle.find(key); it != caches().swizzle.end())
      return it->second;
  }
  // A suggestion is checked as `llcheck verify` and `bank-conflicts` would check it before
  // anything shows it; one that fails is llcheck's bug, said as such, never advice.
  auto found = checkedOptimalSwizzle(src, dst, bits, model);
  auto r = std::make_shared<const Result<OptimalSwizzle>>(std::move(found));
  std::lock_guard<std::mutex> lock(caches().mutex);
  if (caches().swizzle.size() >= kMaxCached)
    caches().swizzle.clear();
  caches().swizzle.emplace(key, r);
  return r;
}

// ---- The bank model chosen for a module ------------------------------------------------------

/// The model for the module's ttg.target ("cuda:90", "hip:gfx942"); `note` says when it is
/// a stand-in.
SharedMemoryModel modelFor(const TtgirModule& m, const ReportOptions& o, std::string& note) {
  std::string arch;
  if (o.arch) {
    arch = *o.arch;
  } else if (!m.target) {
    arch = "sm90";
    note = "the module has no ttg.target; sm90's bank model is used";
  } else if (startsWith(*m.target, "cuda:")) {
    int cc = std::atoi(m.target->c_str() + 5);
    arch = cc >= 90 ? "sm90" : "sm80";
    if (cc > 90)
      note = "target " + *m.target +
             ": sm90's bank model is used (32 banks of 4 bytes, as "
             "sm90; not measured on this architecture)";
    else if (cc != 90 && cc != 80)
      note = "target " + *m.target + ": sm80's bank model is used";
  } else if (startsWith(*m.target, "hip:")) {
    arch = m.target->substr(4) == "gfx950" ? "gfx950" : "gfx942";
    if (m.target->substr(4) != arch)
      note = "target " + *m.target + ": " + arch + "'s LDS model is used";
  } else {
    arch = "sm90";
    note = "unknown target " + *m.target + ": sm90's bank model is used";
  }
  auto model = sharedMemoryModel(arch);
  SharedMemoryModel chosen = model.ok() ? *model : *sharedMemoryModel("sm90");
  if (!o.hardware || *o.hardware == chosen.arch)
    return chosen;
  auto hw = sharedMemoryModel(*o.hardware);
  if (!hw.ok() || (chosen.arch != "sm80" && chosen.arch != "sm90")) {
    note += std::string(note.empty() ? "" : "; ") + "--hardware " + *o.hardware +
            " not applied: the target is " + chosen.arch;
    return chosen;
  }
  // The hardware's banks and phases; the target's instructions.
  hw->ldmatrix = chosen.ldmatrix;
  hw->stmatrix = chosen.stmatrix;
  note += std::string(note.empty() ? "" : "; ") + "code for " + chosen.arch + " run on " +
          *o.hardware + " (--hardware): " + *o.hardware + "'s bank model, " + chosen.arch +
          "'s instructions";
  return *hw;
}

// ---- The layouts a consumer accepts ----------------------------------------------------------
//
// A store into a shared layout that no local_load reads is read by something else: wgmma
// (ttng.warp_group_dot), tcgen05 (ttng.tc_gen5_mma[_scaled]) or a TMA store. Comparing the
// store with the best shared layout of any kind would name layouts those readers cannot take.
// Each of them reads #ttg.nvmma_shared: any swizzle width (0, 32, 64, 128 bytes) that fits
// the contiguous dimension, with the operand's major order fixed except for 16-bit MMA
// operands, which wgmma and tcgen05 read K- or MN-major alike (PTX ISA, wgmma and tcgen05.mma
// matrix descriptors); a TMA copy cannot transpose, so it keeps the order. The admissible set
// is small (at most 8 layouts), so its optimum is found, and proven, by trying every one.

Consumers consumersOf(const std::vector<std::string>& users) {
  Consumers c;
  for (const std::string& u : users) {
    bool mma = u == "ttng.warp_group_dot" || startsWith(u, "ttng.tc_gen5_mma");
    bool tma = startsWith(u, "ttng.async_tma_copy_local_to_global") ||
               startsWith(u, "ttng.async_tma_store") || startsWith(u, "ttng.async_tma_reduce") ||
               startsWith(u, "ttng.async_tma_scatter");
    if (mma || tma)
      c.names.push_back(u);
    c.mma = c.mma || mma;
    c.tma = c.tma || tma;
  }
  return c;
}

std::string consumerInstruction(const std::string& op) {
  if (op == "ttng.warp_group_dot")
    return " (wgmma)";
  if (startsWith(op, "ttng.tc_gen5_mma"))
    return " (tcgen05.mma)";
  if (startsWith(op, "ttng.async_tma"))
    return " (TMA: cp.async.bulk.tensor)";
  return "";
}

/// The value of `key = ...` in an attribute's text, or "".
std::string attrField(const std::string& attr, const std::string& key) {
  std::size_t at = attr.find(key + " = ");
  if (at == std::string::npos)
    return "";
  std::size_t start = at + key.size() + 3, end = attr.find_first_of(",}", start);
  return attr.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

/// `attr` with `key`'s value replaced (or the field added after the first '{').
std::string withField(const std::string& attr, const std::string& key, const std::string& value) {
  std::size_t at = attr.find(key + " = ");
  if (at == std::string::npos) {
    std::size_t brace = attr.find('{');
    return attr.substr(0, brace + 1) + key + " = " + value + ", " + attr.substr(brace + 1);
  }
  std::size_t start = at + key.size() + 3, end = attr.find_first_of(",}", start);
  return attr.substr(0, start) + value + attr.substr(end);
}

/// The #ttg.nvmma_shared layouts `consumers` accept in place of `attr` over `shape` (attr
/// itself among them), in a fixed order.
std::vector<std::string> admissibleNvmma(const std::string& attr,
                                         const std::vector<uint64_t>& shape, int elementBits,
                                         const Consumers& consumers) {
  std::vector<std::string> out;
  if (!startsWith(attr, "#ttg.nvmma_shared<") || shape.size() < 2)
    return out;
  std::string given = attrField(attr, "transposed");
  bool transposed = given == "true";
  std::vector<bool> orders = {transposed};
  if (consumers.mma && !consumers.tma && elementBits == 16)
    orders = {false, true};
  for (bool t : orders) {
    // The contiguous dimension: the last, or the one before it when transposed.
    uint64_t contiguousBytes =
        shape[shape.size() - (t ? 2 : 1)] * static_cast<uint64_t>(elementBits) / 8;
    for (uint64_t swizzle : {0, 32, 64, 128}) {
      if (swizzle > contiguousBytes)
        continue;
      out.push_back(withField(withField(attr, "swizzlingByteWidth", std::to_string(swizzle)),
                              "transposed", t ? "true" : "false"));
    }
  }
  return out;
}

json accessJson(const AccessCount& a, const std::string& instruction) {
  json j = toJson(a);
  if (!instruction.empty())
    j["instruction"] = instruction;
  return j;
}

std::string accessName(const SharedMemoryModel& model, SharedAccessKind kind,
                       const AccessCount& a) {
  return sharedInstructionName(model, kind, SharedInstruction::Vector, a.vectorBits, 0);
}

json swizzleSummary(const OptimalSwizzle& s) {
  return {{"construction", s.construction},
          {"store", accessJson(s.store.count, s.store.name)},
          {"load", accessJson(s.load.count, s.load.name)},
          {"wavefronts", s.store.count.wavefronts + s.load.count.wavefronts},
          {"lower_bound",
           {{"store_wavefronts", s.bound.storeWavefronts},
            {"load_wavefronts", s.bound.loadWavefronts},
            {"attained", s.bound.attainedBy(s.store.count, s.load.count)}}},
          {"shared", toJson(s.shared)}};
}

const LayoutEntry* layoutAt(const KernelReport& k, int id) {
  if (id < 0 || static_cast<std::size_t>(id) >= k.layouts.size())
    return nullptr;
  return &k.layouts[static_cast<std::size_t>(id)];
}

void putLoop(json& e, int loopDepth, const std::optional<uint64_t>& trips,
             const std::string& tripsFormula) {
  if (loopDepth <= 0)
    return;
  e["loop_depth"] = loopDepth;
  e["trips"] = trips ? json(*trips) : json(nullptr);
  if (!trips && !tripsFormula.empty())
    e["trips_formula"] = tripsFormula;
}

void putBranch(json& e, const TtgirBranch& branch) {
  if (branch.line > 0)
    e["under_if"] = {{"line", branch.line}, {"branch", branch.elseBranch ? "else" : "then"}};
}

json legalityOf(const LayoutEntry* l) {
  if (!l)
    return nullptr;
  json j = {{"layout", l->id},
            {"property", l->legality.empty() ? json(nullptr) : json(l->legality)}};
  if (!l->layout)
    j["holds"] = nullptr;
  else
    j["holds"] = l->legality.empty() ? json(nullptr) : json(l->legal);
  return j;
}

bool isStoreOp(const std::string& name) {
  return name == "ttg.local_alloc" || name == "ttg.local_store" ||
         name == "ttg.async_copy_global_to_local";
}
bool isLoadOp(const std::string& name) {
  return name == "ttg.local_load";
}
bool isView(const std::string& name) {
  return startsWith(name, "ttg.memdesc_");
}

/// Oracle counters of `side` ("store"/"load") for the case of `origin`, compared with
/// `predicted` wavefronts: fills `measured` and adds a finding when they differ beyond the
/// oracle's own noise classification.
void attachMeasured(OpEntry& e, const OracleResults* oracle, const std::string& origin,
                    const std::vector<std::pair<std::string, uint64_t>>& predicted,
                    const std::string& what) {
  if (!oracle)
    return;
  auto it = oracle->byOrigin.find(origin);
  if (it == oracle->byOrigin.end())
    return;
  const json& c = it->second;
  json m = {{"origin", origin}, {"case", c.value("id", "")}, {"of", what}};
  m["correct"] = c.value("correct", false);
  m["agreement"] = c.value("agreement", "");
  bool noise = c.value("agreement", "") == "noise";
  for (const auto& [side, want] : predicted) {
    if (!c.contains("measured") || !c["measured"].contains(side))
      continue;
    const json& s = c["measured"][side];
    m[side] = s;
    uint64_t got = s.value("wavefronts", uint64_t{0});
    if (got == want)
      continue;
    uint64_t diff = got > want ? got - want : want - got;
    if (noise && got > want && diff <= 4) {
      m["note"] = "measured " + side + " " + std::to_string(got) + " wavefronts, predicted " +
                  std::to_string(want) + ": within the counter's noise (the oracle's verdict)";
      continue;
    }
    e.findings.push_back({"measured_mismatch",
                          side + ": measured " + std::to_string(got) +
                              " wavefronts on the GPU, predicted " + std::to_string(want),
                          1e6 + static_cast<double>(diff)});
  }
  if (!m["correct"].get<bool>())
    e.findings.push_back(
        {"measured_mismatch", "the GPU oracle found the data did not arrive intact", 2e6});
  e.measured = m;
}

} // namespace llcheck::reports::detail
