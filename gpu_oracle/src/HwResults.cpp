// The schema of the instruction probes' results file (instructions.json, written by
// gpu_oracle/instructions/merge.py from probes.cu's records, or by --emulate): every field's
// type and range is checked before any decoder reads it (HwLayout.h, checkResults). The file
// comes from a GPU machine and may be cut, edited or forged; a field the decoders would read as
// something else ("ok": "yes", "errors": 2^32 read as 0, a negative byte index) is refused with
// the path of the field, never guessed at.
#include "HwInternal.h"

#include "llcheck/core/JsonFields.h"

#include <map>

namespace llcheck::hwlayout::detail {

using namespace hwprobe;
using json::FieldReader;

namespace {

/// Returns from the enclosing function with the Error of a failed Result.
#define LLCHECK_SCHEMA_TRY(var, expr)                                                              \
  auto var = (expr);                                                                               \
  if (!var.ok())                                                                                   \
  return var.error()

/// Entries of the probes' byte and index tables: 16-bit values (probes.cu's combineBytes and
/// row addresses; kUntouched is 0xEEEE). Anything else is no record a probe writes.
constexpr uint64_t kMaxTableValue = 0xFFFF;
/// Hits and anomalies: a probe records at most one per (A slot, D slot) pair; 2^20 is above
/// the largest (wgmma.rs: 8,192 hits) and keeps the decoding in milliseconds.
constexpr std::size_t kMaxRecords = std::size_t{1} << 20;
/// The relation's codes and the wgmma quantities are small integers (digit codes, rows).
constexpr uint64_t kMaxCode = uint64_t{1} << 32;
/// memcheck's error count (a C int in its summary line).
constexpr uint64_t kMaxErrors = (uint64_t{1} << 31) - 1;

Result<bool> table(const FieldReader& o, std::string_view key, std::size_t size, int64_t min,
                   int64_t max) {
  LLCHECK_SCHEMA_TRY(a, o.arrayField(key, size));
  if ((*a)->size() != size)
    return makeError("expected " + std::to_string(size) + " entries, got " +
                         std::to_string((*a)->size()),
                     o.path(key));
  for (std::size_t i = 0; i < size; ++i) {
    LLCHECK_SCHEMA_TRY(v, json::asSigned((**a)[i], json::elementPath(o.path(key), i), min, max));
  }
  return true;
}

/// "hits": [[a, d, code]...], "anomalies": [...], "digits": n (mma.sync, wgmma.rs).
Result<bool> relation(const FieldReader& o) {
  LLCHECK_SCHEMA_TRY(only, o.onlyFields({"digits", "hits", "anomalies"}));
  LLCHECK_SCHEMA_TRY(digits, o.unsignedField("digits", 1, 16));
  LLCHECK_SCHEMA_TRY(hits, o.arrayField("hits", kMaxRecords));
  for (std::size_t i = 0; i < (*hits)->size(); ++i) {
    std::string path = json::elementPath(o.path("hits"), i);
    LLCHECK_SCHEMA_TRY(h, json::asArray((**hits)[i], path, 3));
    if ((*h)->size() != 3)
      return makeError(
          "expected [A slot, D slot, code], got " + std::to_string((*h)->size()) + " values", path);
    for (std::size_t j = 0; j < 3; ++j) {
      LLCHECK_SCHEMA_TRY(v, json::asUnsigned((**h)[j], json::elementPath(path, j), 0, kMaxCode));
    }
  }
  LLCHECK_SCHEMA_TRY(anomalies, o.arrayField("anomalies", kMaxRecords));
  return true;
}

Result<bool> observed(const Probe& p, const FieldReader& o) {
  switch (p.family) {
  case kMmaSync:
  case kWgmmaRS:
    return relation(o);
  case kWgmmaSS: {
    LLCHECK_SCHEMA_TRY(only, o.onlyFields({"quantities", "anomalies"}));
    LLCHECK_SCHEMA_TRY(q, o.objectField("quantities"));
    LLCHECK_SCHEMA_TRY(qOnly, q->onlyFields({"m", "n", "k"}));
    // One code per accumulator slot (128 threads x the registers), -1 where none came back.
    auto slots = static_cast<std::size_t>(wgmmaDElems(p)) * 128;
    for (const char* name : {"m", "n", "k"}) {
      LLCHECK_SCHEMA_TRY(t, table(*q, name, slots, -1, static_cast<int64_t>(kMaxCode)));
    }
    LLCHECK_SCHEMA_TRY(anomalies, o.arrayField("anomalies", kMaxRecords));
    return true;
  }
  case kLdmatrix:
  case kStmatrix: {
    const char* data = p.family == kLdmatrix ? "registers" : "shared";
    LLCHECK_SCHEMA_TRY(only, o.onlyFields({"row_addresses", data}));
    LLCHECK_SCHEMA_TRY(rows, table(o, "row_addresses", 32, 0, kMatrixBytes));
    std::size_t size = p.family == kLdmatrix ? static_cast<std::size_t>(32 * p.x * 4)
                                             : static_cast<std::size_t>(kMatrixBytes);
    return table(o, data, size, 0, static_cast<int64_t>(kMaxTableValue));
  }
  case kTma: {
    LLCHECK_SCHEMA_TRY(only, o.onlyFields({"shared"}));
    return table(o, "shared", static_cast<std::size_t>(tmaBoxBytes(p)), 0,
                 static_cast<int64_t>(kMaxTableValue));
  }
  default: {
    LLCHECK_SCHEMA_TRY(only, o.onlyFields({"shared"}));
    return table(o, "shared", 512, 0, static_cast<int64_t>(kMaxTableValue));
  }
  }
}

const Probe* catalogueProbe(const std::string& id) {
  for (const Probe& p : kProbes)
    if (id == p.id)
      return &p;
  return nullptr;
}

bool isFamily(const std::string& name) {
  for (Family f : {kMmaSync, kWgmmaSS, kWgmmaRS, kLdmatrix, kStmatrix, kTma, kCpAsync})
    if (name == familyName(f))
      return true;
  return false;
}

/// An optional field that may also be null (merge.py copies what the probe process reported).
Result<bool> nullable(const FieldReader& r, std::string_view key, bool integer) {
  if (!r.has(key))
    return true;
  LLCHECK_SCHEMA_TRY(v, r.field(key));
  if ((*v)->is_null())
    return true;
  if (integer) {
    LLCHECK_SCHEMA_TRY(x, r.unsignedField(key, 0, kMaxCode));
  } else {
    LLCHECK_SCHEMA_TRY(x, r.stringField(key, 256));
  }
  return true;
}

Result<bool> sanitizerSchema(const FieldReader& s) {
  LLCHECK_SCHEMA_TRY(only, s.onlyFields({"tool", "version", "families"}));
  LLCHECK_SCHEMA_TRY(tool, s.stringField("tool", 64));
  if (*tool != "memcheck")
    return makeError("expected \"memcheck\" (the only tool run.sh runs)", s.path("tool"));
  LLCHECK_SCHEMA_TRY(version, s.stringField("version", 1024));
  LLCHECK_SCHEMA_TRY(families, s.objectField("families"));
  for (const auto& [name, value] : families->value().items()) {
    std::string path = families->path(name);
    if (!isFamily(name))
      return makeError("no probe family of that name (see llcheck hwlayout --list)", path);
    LLCHECK_SCHEMA_TRY(f, FieldReader::of(value, path));
    LLCHECK_SCHEMA_TRY(fOnly, f->onlyFields({"exit", "errors", "probes", "log_tail"}));
    // exit and errors are null where run.sh found no status or no "ERROR SUMMARY" line.
    for (const char* key : {"exit", "errors"}) {
      LLCHECK_SCHEMA_TRY(v, f->field(key));
      if (!(*v)->is_null()) {
        LLCHECK_SCHEMA_TRY(
            x, f->unsignedField(key, 0, std::string_view(key) == "exit" ? 255 : kMaxErrors));
      }
    }
    LLCHECK_SCHEMA_TRY(probes, f->arrayField("probes", 1024));
    for (std::size_t i = 0; i < (*probes)->size(); ++i) {
      LLCHECK_SCHEMA_TRY(
          id, json::asString((**probes)[i], json::elementPath(f->path("probes"), i), 200));
    }
    LLCHECK_SCHEMA_TRY(tail, f->stringField("log_tail", 1 << 16));
  }
  return true;
}

} // namespace

Result<bool> checkSchema(const nlohmann::json& results) {
  LLCHECK_SCHEMA_TRY(top, FieldReader::of(results, ""));
  LLCHECK_SCHEMA_TRY(only, top->onlyFields({"format", "gpu", "driver", "nvcc", "date", "probes",
                                            "compute_capability", "cuda_runtime", "cuda_driver_api",
                                            "sanitizer", "build_error", "emulated"}));
  for (const char* key : {"gpu", "driver", "date"}) {
    LLCHECK_SCHEMA_TRY(v, top->stringField(key, 256));
  }
  if (top->has("nvcc")) {
    LLCHECK_SCHEMA_TRY(v, top->stringField("nvcc", 256));
  }
  LLCHECK_SCHEMA_TRY(cc, nullable(*top, "compute_capability", false));
  LLCHECK_SCHEMA_TRY(rt, nullable(*top, "cuda_runtime", true));
  LLCHECK_SCHEMA_TRY(da, nullable(*top, "cuda_driver_api", true));
  if (top->has("emulated")) {
    LLCHECK_SCHEMA_TRY(v, top->boolField("emulated"));
  }
  if (top->has("build_error")) {
    LLCHECK_SCHEMA_TRY(v, top->stringField("build_error", 1 << 16));
  }
  if (top->has("sanitizer")) {
    LLCHECK_SCHEMA_TRY(s, top->objectField("sanitizer"));
    LLCHECK_SCHEMA_TRY(ok, sanitizerSchema(*s));
  }
  LLCHECK_SCHEMA_TRY(probes, top->arrayField("probes", 1024));
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < (*probes)->size(); ++i) {
    LLCHECK_SCHEMA_TRY(r, FieldReader::of((**probes)[i], json::elementPath("probes", i)));
    LLCHECK_SCHEMA_TRY(rOnly, r->onlyFields({"id", "family", "ok", "observed", "error"}));
    LLCHECK_SCHEMA_TRY(id, r->stringField("id", 200));
    const Probe* p = catalogueProbe(*id);
    if (!p)
      return makeError("no probe '" + utf8Prefix(*id, 80) +
                           "' in this llcheck's catalogue (llcheck hwlayout --list)",
                       r->path("id"));
    // Every probe once: a second record of a failed probe must not stand in for it.
    auto [first, fresh] = seen.emplace(*id, i);
    if (!fresh)
      return makeError("probe '" + *id + "' again (its first record is probes[" +
                           std::to_string(first->second) + "])",
                       r->path("id"));
    LLCHECK_SCHEMA_TRY(family, r->stringField("family", 64));
    if (*family != familyName(p->family))
      return makeError("expected \"" + std::string(familyName(p->family)) + "\" (probe " + *id +
                           "'s family)",
                       r->path("family"));
    LLCHECK_SCHEMA_TRY(ran, r->boolField("ok"));
    if (*ran) {
      if (r->has("error"))
        return makeError("a probe that ran (\"ok\": true) has no error", r->path("error"));
      LLCHECK_SCHEMA_TRY(o, r->objectField("observed"));
      LLCHECK_SCHEMA_TRY(ok, observed(*p, *o));
    } else {
      if (r->has("observed"))
        return makeError("a probe that did not run (\"ok\": false) has no observations",
                         r->path("observed"));
      LLCHECK_SCHEMA_TRY(e, r->stringField("error", 1 << 16));
    }
  }
  return true;
}

#undef LLCHECK_SCHEMA_TRY

} // namespace llcheck::hwlayout::detail
