// The analysis behind `llcheck report` (see Report.h for what each op is compared with): the
// inputs, the oracle's results, and the modules reported on worker threads. One module's
// analysis is ModuleReporter.cpp; the pieces both use are ReportParts.h.
#include "llcheck/reports/Report.h"

#include "ModuleReporter.h"
#include "ReportParts.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/JsonFields.h"
#include "llcheck/core/Spec.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <filesystem>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

namespace llcheck::reports {

namespace fs = std::filesystem;
using json = nlohmann::json;
namespace json_fields = llcheck::json;
using detail::endsWith;
using detail::startsWith;

std::string OracleResults::pathFor(const std::string& file) const {
  std::string f = fs::path(file).lexically_normal().generic_string();
  for (const std::string& p : paths)
    if (f == p || endsWith(f, "/" + p))
      return p;
  return "";
}

namespace {

/// Counters past this are no GPU's (a CTA runs far fewer than 2^40 shared-memory wavefronts).
constexpr uint64_t kMaxCounter = uint64_t{1} << 40;

/// One ttgir case's fields the report reads, each checked (JsonFields.h): a forged type or a
/// fractional counter is an error naming the field, never read as 0 or cut to an integer.
Result<bool> checkTtgirCase(const json_fields::FieldReader& c) {
  if (auto id = c.stringField("id", 256); !id.ok())
    return id.error();
  if (auto correct = c.boolField("correct"); !correct.ok())
    return correct.error();
  if (c.has("agreement"))
    if (auto a = c.stringField("agreement", 64); !a.ok())
      return a.error();
  if (!c.has("measured"))
    return true;
  auto measured = c.objectField("measured");
  if (!measured.ok())
    return measured.error();
  for (const char* side : {"store", "load"}) {
    if (!measured->has(side))
      continue;
    auto s = measured->objectField(side);
    if (!s.ok())
      return s.error();
    if (auto known = s->onlyFields({"wavefronts", "bank_conflicts", "instructions"}); !known.ok())
      return known.error();
    if (auto w = s->unsignedField("wavefronts", 0, kMaxCounter); !w.ok())
      return w.error();
    for (const char* counter : {"bank_conflicts", "instructions"})
      if (s->has(counter))
        if (auto v = s->unsignedField(counter, 0, kMaxCounter); !v.ok())
          return v.error();
  }
  return true;
}

} // namespace

Result<OracleResults> readOracleResults(const std::string& path) {
  auto text = readInputFile(path);
  if (!text.ok())
    return text.error();
  const std::string what = "not GPU oracle results (a JSON object with \"cases\", as `llcheck "
                           "oracle --out` writes)";
  auto j = parseJsonText(*text, path);
  if (!j.ok())
    return makeError(what + ": " + j.error().message, path);
  if (!j->is_object() || !j->contains("cases"))
    return makeError(what, path);
  auto top = json_fields::FieldReader::of(*j, "");
  if (!top.ok())
    return top.error().within(path);
  if (auto known = top->onlyFields({"gpu", "driver", "cuda", "ncu", "date", "arch", "cases"});
      !known.ok())
    return known.error().within(path);
  OracleResults r;
  r.source = path;
  for (auto [key, field] : {std::pair{"gpu", &r.gpu},
                            {"cuda", &r.cuda},
                            {"ncu", &r.ncu},
                            {"date", &r.date},
                            {"arch", &r.arch},
                            {"driver", nullptr}}) {
    if (!top->has(key))
      continue;
    auto v = top->stringField(key, 1024);
    if (!v.ok())
      return v.error().within(path);
    if (field)
      *field = std::move(*v);
  }
  auto cases = top->arrayField("cases");
  if (!cases.ok())
    return cases.error().within(path);
  std::set<std::string> paths;
  for (std::size_t index = 0; index < (*cases)->size(); ++index) {
    auto c =
        json_fields::FieldReader::of((**cases)[index], json_fields::elementPath("cases", index));
    if (!c.ok())
      return c.error().within(path);
    auto origin = c->stringField("origin", 4096);
    if (!origin.ok())
      return origin.error().within(path);
    if (!startsWith(*origin, "ttgir:"))
      continue;
    // ttgir:PATH:LINE:OP[:VARIANT]; PATH has no ':' in the corpus.
    std::size_t colon = origin->find(':', 6);
    if (colon == std::string::npos)
      return makeError("origin '" + *origin + "' is not ttgir:PATH:LINE:OP", c->path("origin"))
          .within(path);
    if (auto ok = checkTtgirCase(*c); !ok.ok())
      return ok.error().within(path);
    paths.insert(origin->substr(6, colon - 6));
    r.byOrigin[*origin] = c->value();
  }
  r.paths.assign(paths.begin(), paths.end());
  return r;
}

Result<std::map<std::string, std::vector<ReportLaunch>>> readLaunches(const std::string& path) {
  auto text = readInputFile(path);
  if (!text.ok())
    return text.error();
  const std::string what = "not a launches file (a JSON object with \"launches\": [{\"id\", "
                           "\"kernel\", \"grid\", \"integers\", \"pointer_offsets\"}])";
  auto j = parseJsonText(*text, path);
  if (!j.ok())
    return makeError(what + ": " + j.error().message, path);
  auto top = json_fields::FieldReader::of(*j, "");
  if (!top.ok() || !top->has("launches"))
    return makeError(what, path);
  if (auto known = top->onlyFields({"launches", "note"}); !known.ok())
    return known.error().within(path);
  auto list = top->arrayField("launches", 1 << 20);
  if (!list.ok())
    return list.error().within(path);
  std::map<std::string, std::vector<ReportLaunch>> out;
  std::set<std::string> ids;
  for (std::size_t index = 0; index < (*list)->size(); ++index) {
    auto l =
        json_fields::FieldReader::of((**list)[index], json_fields::elementPath("launches", index));
    if (!l.ok())
      return l.error().within(path);
    if (auto known = l->onlyFields({"id", "kernel", "grid", "integers", "pointer_offsets"});
        !known.ok())
      return known.error().within(path);
    ReportLaunch launch;
    auto id = l->stringField("id", 4096);
    auto kernel = id.ok() ? l->stringField("kernel", 4096) : id;
    if (!kernel.ok())
      return kernel.error().within(path);
    if (!ids.insert(*id).second)
      return makeError("the launch id '" + *id + "' is given twice", l->path("id")).within(path);
    launch.id = *id;
    auto grid = l->arrayField("grid", 3);
    if (!grid.ok())
      return grid.error().within(path);
    if ((*grid)->empty())
      return makeError("expected 1 to 3 program counts, got none", l->path("grid")).within(path);
    for (std::size_t d = 0; d < (*grid)->size(); ++d) {
      auto g = json_fields::asUnsigned((**grid)[d], json_fields::elementPath(l->path("grid"), d), 1,
                                       uint64_t{1} << 31);
      if (!g.ok())
        return g.error().within(path);
      launch.arguments.grid[d] = *g;
    }
    for (const char* key : {"integers", "pointer_offsets"}) {
      if (!l->has(key))
        continue;
      auto fields = l->objectField(key);
      if (!fields.ok())
        return fields.error().within(path);
      for (const auto& [name, value] : fields->value().items()) {
        std::string at = fields->path(name);
        if (name.empty() || name.size() > 256)
          return makeError("an argument name of 1 to 256 characters", at).within(path);
        if (std::string(key) == "integers") {
          if (value.is_boolean()) {
            launch.arguments.integers[name] = value.get<bool>() ? 1 : 0;
            continue;
          }
          auto v = json_fields::asSigned(value, at, std::numeric_limits<int64_t>::min(),
                                         std::numeric_limits<int64_t>::max());
          if (!v.ok())
            return v.error().within(path);
          launch.arguments.integers[name] = *v;
        } else {
          auto v = json_fields::asUnsigned(value, at, 0, 127);
          if (!v.ok())
            return v.error().within(path);
          launch.arguments.pointerOffsets[name] = *v;
        }
      }
    }
    out[*kernel].push_back(std::move(launch));
  }
  return out;
}

std::size_t Report::findingCount() const {
  std::size_t n = 0;
  for (const KernelReport& k : kernels) {
    n += k.findings.size();
    for (const OpEntry& op : k.ops)
      n += op.findings.size();
  }
  return n;
}

Result<std::vector<std::string>> collectInputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    std::error_code ec;
    fs::file_status st = fs::status(in, ec);
    if (ec || !fs::exists(st))
      return makeError("no such file or folder", in);
    if (!fs::is_directory(st)) {
      files.push_back(in);
      continue;
    }
    std::vector<std::string> found;
    for (fs::recursive_directory_iterator it(in, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_regular_file())
        continue;
      std::string ext = it->path().extension().string();
      if (ext == ".ttgir" || ext == ".mlir")
        found.push_back(it->path().generic_string());
    }
    if (ec)
      return makeError("cannot list the folder: " + ec.message(), in);
    if (found.empty())
      return makeError("the folder holds no .ttgir or .mlir file", in);
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

KernelReport reportModule(const TtgirModule& module, const ReportOptions& options,
                          const OpSink& sink) {
  auto start = std::chrono::steady_clock::now();
  KernelReport k = detail::reportOneModule(module, options, sink);
  k.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return k;
}

KernelReport reportModule(const TtgirModule& module, const ReportOptions& options) {
  return reportModule(module, options, nullptr);
}

Result<TtgirModule> readModule(const std::string& f, TritonVersion triton) {
  auto text = readInputFile(f);
  if (!text.ok())
    return text.error();
  if (!looksLikeTtgir(*text))
    return makeError("not a TTGIR module (its first line is neither `module` nor an alias "
                     "definition `#name = ...`)",
                     f);
  TtgirOptions ttgirOptions;
  ttgirOptions.triton = triton;
  return readTtgir(*text, f, ttgirOptions);
}

Result<Report> buildReport(const std::vector<std::string>& files, const ReportOptions& options) {
  auto start = std::chrono::steady_clock::now();
  std::vector<TtgirModule> modules;
  modules.reserve(files.size());
  for (const std::string& f : files) {
    auto m = readModule(f, options.triton);
    if (!m.ok())
      return m.error();
    modules.push_back(std::move(*m));
  }
  Report report;
  report.kernels.resize(modules.size());
  report.arch = options.arch.value_or("");
  report.z3 = options.z3;
  report.triton = options.triton;
  if (options.oracle) {
    report.oracleSource = options.oracle->source;
    report.oracleGpu = options.oracle->gpu;
    report.oracleDate = options.oracle->date;
  }
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(modules.size())));
  std::atomic<std::size_t> next{0};
  std::mutex failedMutex;
  std::exception_ptr failed;
  // An exception is a bug in llcheck (LayoutError); it is rethrown on this thread so that the
  // command line reports it as an internal error instead of terminating.
  auto work = [&] {
    try {
      for (std::size_t i = next++; i < modules.size(); i = next++)
        report.kernels[i] = reportModule(modules[i], options);
    } catch (...) {
      std::lock_guard<std::mutex> lock(failedMutex);
      failed = std::current_exception();
      next = modules.size();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread& t : pool)
    t.join();
  if (failed)
    std::rethrow_exception(failed);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

} // namespace llcheck::reports
