// report.json, report.md and junit.xml (see Outputs.h); report.html is in Html.cpp.
#include "llcheck/reports/Outputs.h"

#include "llcheck/core/Formats.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace llcheck::reports {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

json findingJson(const Finding& f) {
  return {{"kind", f.kind}, {"message", f.message}, {"severity", f.severity}};
}

json layoutJson(const LayoutEntry& l) {
  json j = {{"id", l.id},        {"encoding", l.encoding}, {"attribute", l.attribute},
            {"shape", l.shape},  {"kind", l.kind},         {"line", l.line},
            {"layout", nullptr}, {"properties", nullptr},  {"legality", nullptr},
            {"error", nullptr}};
  if (l.layout)
    j["layout"] = toJson(*l.layout);
  if (!l.padding.empty()) {
    json pads = json::array();
    for (const IntervalPad& p : l.padding)
      pads.push_back({{"interval", p.interval}, {"pad", p.pad}});
    j["padding"] = pads;
  }
  if (l.verify) {
    json v = toJson(*l.verify);
    v.erase("layout");
    j["properties"] = v;
    j["legality"] = {{"property", l.legality.empty() ? json(nullptr) : json(l.legality)},
                     {"holds", l.legality.empty() ? json(nullptr) : json(l.legal)}};
  }
  if (!l.error.empty())
    j["error"] = l.error;
  return j;
}

json opJson(const OpEntry& op) {
  json findings = json::array();
  for (const Finding& f : op.findings)
    findings.push_back(findingJson(f));
  json j = {{"op", op.op},
            {"location", op.location},
            {"line", op.line},
            {"src", op.src < 0 ? json(nullptr) : json(op.src)},
            {"dst", op.dst < 0 ? json(nullptr) : json(op.dst)},
            {"shape", op.shape},
            {"dtype", op.dtype},
            {"legality", op.legality},
            {"plan", op.plan},
            {"predicted", op.predicted},
            {"optimum", op.optimum},
            {"findings", findings}};
  if (!op.measured.is_null())
    j["measured"] = op.measured;
  return j;
}

template <class T> json optional(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

struct Located {
  const KernelReport* kernel;
  const OpEntry* op; // null: a module-level finding
  const Finding* finding;
};

std::vector<Located> allFindings(const Report& r) {
  std::vector<Located> all;
  for (const KernelReport& k : r.kernels) {
    for (const Finding& f : k.findings)
      all.push_back({&k, nullptr, &f});
    for (const OpEntry& op : k.ops)
      for (const Finding& f : op.findings)
        all.push_back({&k, &op, &f});
  }
  std::stable_sort(all.begin(), all.end(), [](const Located& a, const Located& b) {
    return a.finding->severity > b.finding->severity;
  });
  return all;
}

std::string mdEscape(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

} // namespace

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // XML 1.0 allows no control characters but tab and newline.
      out += (c < 0x20 && c != '\t' && c != '\n') ? '?' : static_cast<char>(c);
    }
  }
  return out;
}

json summaryJson(const Report& r) {
  std::size_t layouts = 0, illegal = 0, ops = 0, checked = 0, notUnderstood = 0;
  std::map<std::string, std::size_t> byKind, findingsByKind;
  for (const KernelReport& k : r.kernels) {
    layouts += k.layouts.size();
    for (const LayoutEntry& l : k.layouts)
      illegal += l.layout && !l.legal ? 1 : 0;
    notUnderstood += k.notUnderstood.size();
    for (const OpEntry& op : k.ops) {
      ++ops;
      std::string kind = op.plan.is_object() ? op.plan.value("kind", "none") : "none";
      ++byKind[kind];
      if (op.notAnalysed.empty())
        ++checked;
      else
        ++notUnderstood;
    }
  }
  json worst = json::array();
  for (const Located& l : allFindings(r)) {
    ++findingsByKind[l.finding->kind];
    worst.push_back({{"file", l.kernel->file},
                     {"location", l.op ? json(l.op->location) : json(nullptr)},
                     {"line", l.op ? json(l.op->line) : json(nullptr)},
                     {"op", l.op ? json(l.op->op) : json(nullptr)},
                     {"kind", l.finding->kind},
                     {"message", l.finding->message},
                     {"severity", l.finding->severity}});
  }
  json oracle = nullptr;
  if (!r.oracleSource.empty())
    oracle = {{"source", r.oracleSource}, {"gpu", r.oracleGpu}, {"date", r.oracleDate}};
  return {{"files", r.kernels.size()},
          {"layouts", layouts},
          {"illegal_layouts", illegal},
          {"ops", ops},
          {"ops_checked", checked},
          {"ops_by_plan", byKind},
          {"not_understood", notUnderstood},
          {"findings", worst.size()},
          {"findings_by_kind", findingsByKind},
          {"worst", worst},
          {"arch", r.arch.empty() ? json(nullptr) : json(r.arch)},
          {"triton", tritonVersionName(r.triton)},
          {"z3", r.z3},
          {"oracle", oracle},
          {"seconds", r.seconds}};
}

json toJson(const Report& r) {
  json kernels = json::array();
  for (const KernelReport& k : r.kernels) {
    json layouts = json::array(), ops = json::array(), nu = json::array(), findings = json::array();
    for (const LayoutEntry& l : k.layouts)
      layouts.push_back(layoutJson(l));
    for (const OpEntry& op : k.ops)
      ops.push_back(opJson(op));
    for (const TtgirNotUnderstood& n : k.notUnderstood)
      nu.push_back({{"what", n.what}, {"text", n.text}, {"where", n.where}, {"reason", n.reason}});
    for (const OpEntry& op : k.ops)
      if (!op.notAnalysed.empty())
        nu.push_back(
            {{"what", "op"}, {"text", op.op}, {"where", op.location}, {"reason", op.notAnalysed}});
    for (const Finding& f : k.findings)
      findings.push_back(findingJson(f));
    kernels.push_back({{"file", k.file},
                       {"target", k.target.empty() ? json(nullptr) : json(k.target)},
                       {"arch", k.arch},
                       {"arch_note", k.archNote.empty() ? json(nullptr) : json(k.archNote)},
                       {"num_warps", optional(k.numWarps)},
                       {"threads_per_warp", optional(k.threadsPerWarp)},
                       {"num_ctas", optional(k.numCtas)},
                       {"layouts", layouts},
                       {"ops", ops},
                       {"not_understood", nu},
                       {"findings", findings},
                       {"seconds", k.seconds}});
  }
  return {{"version", 1},
          {"tool", "llcheck report"},
          {"kernels", kernels},
          {"summary", summaryJson(r)}};
}

std::string toMarkdown(const Report& r) {
  json s = summaryJson(r);
  std::ostringstream os;
  os << "## llcheck conformance report\n\n";
  os << s["files"].get<std::size_t>()
     << (s["files"].get<std::size_t>() == 1 ? " kernel, " : " kernels, ")
     << s["layouts"].get<std::size_t>() << " layouts, " << s["ops_checked"].get<std::size_t>()
     << " of " << s["ops"].get<std::size_t>() << " data-moving ops checked"
     << (r.z3 ? " (properties proven by Z3)" : " (without Z3)")
     << (r.oracleSource.empty() ? "" : ", measured on " + r.oracleGpu) << ", "
     << fixed(r.seconds, 1) << " s; encodings read with Triton " << tritonVersionName(r.triton)
     << "'s semantics.\n\n";
  os << "| check | count |\n| --- | ---: |\n";
  os << "| illegal layouts | " << s["illegal_layouts"].get<std::size_t>() << " |\n";
  std::map<std::string, std::size_t> fk = s["findings_by_kind"];
  for (const char* k : {"illegal_layout", "above_optimum", "above_optimum_side",
                        "measured_mismatch", "unknown_property", "not_understood"})
    os << "| findings: " << k << " | " << (fk.count(k) ? fk[k] : 0) << " |\n";
  os << "| **findings** | **" << s["findings"].get<std::size_t>() << "** |\n\n";
  std::map<std::string, std::size_t> plans = s["ops_by_plan"];
  os << "Ops by plan:";
  for (const auto& [k, n] : plans)
    os << " " << k << " " << n << ";";
  os << "\n\n";
  const json& worst = s["worst"];
  if (!worst.empty()) {
    std::size_t shown = std::min<std::size_t>(worst.size(), 15);
    os << "### Worst findings (" << shown << " of " << worst.size() << ")\n\n";
    os << "| file | where | kind | finding |\n| --- | --- | --- | --- |\n";
    for (std::size_t i = 0; i < shown; ++i) {
      const json& w = worst[i];
      fs::path file(w["file"].get<std::string>());
      os << "| " << mdEscape((file.parent_path().filename() / file.filename()).generic_string())
         << " | "
         << mdEscape(w["line"].is_null() ? "module"
                                         : "line " + std::to_string(w["line"].get<int>()) + " (" +
                                               w["location"].get<std::string>() + ")")
         << " | " << w["kind"].get<std::string>() << " | "
         << mdEscape(w["message"].get<std::string>().substr(0, 240)) << " |\n";
    }
    os << "\n";
  }
  os << "Full details: report.html, report.json; per op: junit.xml.\n";
  return os.str();
}

std::string toJunit(const Report& r) {
  std::ostringstream os;
  std::size_t tests = 0, failures = 0;
  std::ostringstream suites;
  for (const KernelReport& k : r.kernels) {
    std::size_t t = 1 + k.ops.size(), f = k.findings.empty() ? 0 : 1;
    for (const OpEntry& op : k.ops)
      f += op.findings.empty() ? 0 : 1;
    tests += t;
    failures += f;
    suites << "  <testsuite name=\"" << xmlEscape(k.file) << "\" tests=\"" << t << "\" failures=\""
           << f << "\" errors=\"0\" time=\"" << fixed(k.seconds, 3) << "\">\n";
    auto testcase = [&](const std::string& name, const std::vector<Finding>& findings) {
      suites << "    <testcase classname=\"" << xmlEscape(k.file) << "\" name=\"" << xmlEscape(name)
             << "\"";
      if (findings.empty()) {
        suites << "/>\n";
        return;
      }
      std::string body;
      for (const Finding& fd : findings)
        body += fd.kind + ": " + fd.message + "\n";
      suites << ">\n      <failure type=\"" << xmlEscape(findings.front().kind) << "\" message=\""
             << xmlEscape(findings.front().message.substr(0, 300)) << "\">" << xmlEscape(body)
             << "</failure>\n    </testcase>\n";
    };
    testcase("module: layouts and not-understood items", k.findings);
    for (const OpEntry& op : k.ops)
      testcase("line " + std::to_string(op.line) + ": " + op.op + " (" + op.location + ")",
               op.findings);
    suites << "  </testsuite>\n";
  }
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"llcheck report\" tests=\""
     << tests << "\" failures=\"" << failures << "\" errors=\"0\" time=\"" << fixed(r.seconds, 3)
     << "\">\n"
     << suites.str() << "</testsuites>\n";
  return os.str();
}

Result<bool> writeReport(const Report& r, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    return makeError("cannot create the output folder" + (ec ? ": " + ec.message() : ""), dir);
  const std::pair<const char*, std::string> files[] = {{"report.json", toJson(r).dump(1) + "\n"},
                                                       {"report.md", toMarkdown(r)},
                                                       {"junit.xml", toJunit(r)},
                                                       {"report.html", toHtml(r)}};
  for (const auto& [name, text] : files) {
    fs::path p = fs::path(dir) / name;
    std::ofstream out(p, std::ios::binary);
    out << text;
    out.close();
    if (!out)
      return makeError("cannot write the file", p.string());
  }
  return true;
}

} // namespace llcheck::reports
