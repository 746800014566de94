// report.json, report.md and junit.xml, written one kernel at a time (Streaming.h), and the output
// folder: its checks, its lock, the temporary names and the renames (see Outputs.h);
// report.html is in Html.cpp.
#include "llcheck/reports/Outputs.h"

#include "Fix.h"
#include "ReportParts.h"
#include "Streaming.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace llcheck::reports {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace detail {

// ---- Text
// ----------------------------------------------------------------------------------------

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string dumpAt(const json& j, int indent) {
  std::string s = j.dump(1, ' ', false, json::error_handler_t::replace);
  if (indent == 0)
    return s;
  // A JSON string never holds a raw newline, so every newline is one of dump's line breaks.
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    out += c;
    if (c == '\n')
      out.append(static_cast<std::size_t>(indent), ' ');
  }
  return out;
}

namespace {

/// A finding's message for a Markdown table: whole (the numbers that matter come last, issue
/// 33), up to 4 KiB; a longer one (an attribute of a hostile input quoted in it) is cut there and
/// says so, since report.json holds it whole.
std::string mdMessage(const std::string& message) {
  constexpr std::size_t kMost = 4096;
  if (message.size() <= kMost)
    return message;
  std::string cut = utf8Prefix(message, kMost);
  return cut + " ... (" + std::to_string(message.size() - cut.size()) +
         " more bytes: report.json holds the whole message)";
}

std::string errnoText(int e) {
  return std::strerror(e);
}

/// Writes everything or says why not.
bool writeAll(int fd, const char* p, std::size_t n, std::string& error) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      error = errnoText(errno);
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

std::atomic<unsigned> gScratchCounter{0};

} // namespace

// ---- SpillBuffer
// ---------------------------------------------------------------------------------

SpillBuffer::SpillBuffer(int dirfd, std::size_t limit) : dirfd_(dirfd), limit_(limit) {}

SpillBuffer::~SpillBuffer() {
  if (fd_ >= 0)
    ::close(fd_);
}

SpillBuffer::int_type SpillBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof()))
    return traits_type::not_eof(c);
  char ch = traits_type::to_char_type(c);
  append(&ch, 1);
  return c;
}

std::streamsize SpillBuffer::xsputn(const char* s, std::streamsize n) {
  append(s, static_cast<std::size_t>(n));
  return n;
}

void SpillBuffer::append(const char* s, std::size_t n) {
  if (!error_.empty())
    return; // the report fails at the end (ReportStream::error); nothing is kept meanwhile
  size_ += n;
  mem_.append(s, n);
  if (mem_.size() < limit_ || dirfd_ < 0)
    return;
  if (fd_ < 0) {
    // An unnamed file in the folder (O_TMPFILE), or where the file system has none, a fresh name
    // (this process, a counter) made with O_EXCL | O_NOFOLLOW and unlinked at once: it lives on
    // as long as the descriptor, and nothing is left behind however the process ends.
#ifdef O_TMPFILE
    fd_ = ::openat(dirfd_, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd_ < 0) {
      std::string name = ".llcheck-report." + std::to_string(::getpid()) + ".scratch" +
                         std::to_string(gScratchCounter++) + ".tmp";
      fd_ =
          ::openat(dirfd_, name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
      if (fd_ < 0) {
        error_ = "cannot create a scratch file in the output folder: " + errnoText(errno);
        return;
      }
      ::unlinkat(dirfd_, name.c_str(), 0);
    }
  }
  flushPending();
}

void SpillBuffer::flushPending() {
  if (fd_ < 0 || mem_.empty() || !error_.empty())
    return;
  std::string why;
  if (!writeAll(fd_, mem_.data(), mem_.size(), why))
    error_ = "cannot write a scratch file in the output folder: " + why;
  mem_.clear();
  if (mem_.capacity() > 2 * limit_)
    mem_.shrink_to_fit();
}

void SpillBuffer::copyTo(std::ostream& to) {
  if (fd_ < 0) {
    to.write(mem_.data(), static_cast<std::streamsize>(mem_.size()));
    return;
  }
  flushPending();
  std::string chunk(std::size_t{1} << 20, '\0');
  for (off_t at = 0;;) {
    ssize_t got = ::pread(fd_, chunk.data(), chunk.size(), at);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      if (error_.empty())
        error_ = "cannot read back a scratch file: " + errnoText(errno);
      return;
    }
    if (got == 0)
      return;
    to.write(chunk.data(), got);
    at += got;
  }
}

// ---- Pieces of report.json
// -----------------------------------------------------------------------

namespace {

json findingJson(const Finding& f) {
  json j = {{"kind", f.kind}, {"message", f.message}, {"severity", f.severity}};
  if (!f.location.empty())
    j["where"] = {{"op", f.op}, {"location", f.location}, {"line", f.line}};
  if (!f.fix.is_null())
    j["fix"] = f.fix;
  return j;
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
  if (!op.partition.is_null())
    j["partition"] = op.partition;
  if (!op.launches.is_null())
    j["launches"] = op.launches;
  putLoop(j, op.loopDepth, op.trips, op.tripsFormula);
  putBranch(j, op.branch);
  return j;
}

json notUnderstoodJson(const std::string& what, const std::string& text, const std::string& where,
                       const std::string& reason) {
  return {{"what", what}, {"text", text}, {"where", where}, {"reason", reason}};
}

template <class T> json optional(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

/// Stands for a member streamed in later: a string dump writes as "\u0001NAME".
json marker(const std::string& name) {
  return json("\x01" + name);
}

/// Writes `text` (a dumped object whose members are at `indent`, some of them markers) with each
/// marker replaced by `fill(name)`, in the order of `names` (the members' order). A marker is
/// found as the whole member line, `\n<indent>"NAME": "\u0001NAME"`: a string from the input
/// could equal the marker's text, but no JSON string holds a raw newline.
template <class Fill>
void writeWithMarkers(std::ostream& os, const std::string& text, int indent,
                      const std::vector<std::string>& names, Fill fill) {
  std::size_t at = 0;
  for (const std::string& name : names) {
    std::string value = "\"\\u0001" + name + "\"";
    std::string member =
        "\n" + std::string(static_cast<std::size_t>(indent), ' ') + "\"" + name + "\": " + value;
    std::size_t m = text.find(member, at);
    if (m == std::string::npos)
      throw std::logic_error("report.json: no place for \"" + name + "\"");
    m += member.size() - value.size();
    os.write(text.data() + at, static_cast<std::streamsize>(m - at));
    fill(name);
    at = m + value.size();
  }
  os.write(text.data() + at, static_cast<std::streamsize>(text.size() - at));
}

/// A JSON array at `indent` whose `count` elements (each at indent + 1, joined by ",\n") are in
/// `body`.
void writeArray(std::ostream& os, int indent, std::size_t count, SpillBuffer& body) {
  if (count == 0) {
    os << "[]";
    return;
  }
  os << "[\n";
  body.copyTo(os);
  os << "\n" << std::string(static_cast<std::size_t>(indent), ' ') << "]";
}

void element(std::ostream& os, std::size_t index, const json& j, int indent) {
  if (index > 0)
    os << ",\n";
  os << std::string(static_cast<std::size_t>(indent), ' ') << dumpAt(j, indent);
}

} // namespace

// ---- The summary --------------------------------------------------------------------------------

void addFinding(std::vector<FindingRecord>& kernelFindings,
                std::unordered_map<std::string, std::size_t>& index, FindingRecord f) {
  // A software-pipelined kernel repeats an op once per stage at one source location, with the
  // same layouts and so the same finding: one record says it once, with every line.
  if (!f.location.empty()) {
    std::string key = f.location + '\0' + f.kind + '\0' + f.message;
    auto [it, added] = index.emplace(std::move(key), kernelFindings.size());
    if (!added) {
      FindingRecord& r = kernelFindings[it->second];
      r.lines.insert(r.lines.end(), f.lines.begin(), f.lines.end());
      r.severity = std::max(r.severity, f.severity);
      return;
    }
  }
  kernelFindings.push_back(std::move(f));
}

std::vector<const FindingRecord*> SummaryData::sorted() const {
  std::vector<const FindingRecord*> all;
  all.reserve(findings.size());
  for (const FindingRecord& f : findings)
    all.push_back(&f);
  std::stable_sort(all.begin(), all.end(), [](const FindingRecord* a, const FindingRecord* b) {
    return a->severity > b->severity;
  });
  return all;
}

json SummaryData::worstJson(const SummaryData& s, const FindingRecord& f) {
  return {{"file", s.files[f.kernel]},
          {"location", f.module ? json(nullptr) : json(f.location)},
          {"line", f.module ? json(nullptr) : json(f.line)},
          {"op", f.module ? json(nullptr) : json(f.op)},
          {"kind", f.kind},
          {"message", f.message},
          {"severity", f.severity},
          {"count", std::max<std::size_t>(f.lines.size(), 1)},
          {"lines", f.lines},
          {"fix", f.fix}};
}

json SummaryData::object(const std::vector<const FindingRecord*>& worst, bool withWorst) const {
  std::map<std::string, std::size_t> findingsByKind;
  for (const FindingRecord& f : findings)
    ++findingsByKind[f.kind];
  nlohmann::json worstJ = marker("worst");
  if (withWorst) {
    worstJ = nlohmann::json::array();
    for (const FindingRecord* f : worst)
      worstJ.push_back(worstJson(*this, *f));
  }
  nlohmann::json oracle = nullptr;
  if (!oracleSource.empty())
    oracle = {{"source", oracleSource}, {"gpu", oracleGpu}, {"date", oracleDate}};
  return {{"files", files.size()},
          {"layouts", layouts},
          {"illegal_layouts", illegal},
          {"ops", ops},
          {"ops_checked", checked},
          {"ops_by_plan", byPlan},
          {"not_understood", notUnderstood},
          {"findings", findings.size()},
          {"findings_by_kind", findingsByKind},
          {"worst", worstJ},
          {"arch", arch.empty() ? nlohmann::json(nullptr) : nlohmann::json(arch)},
          {"triton", tritonVersionName(triton)},
          {"z3", z3},
          {"oracle", oracle},
          {"seconds", seconds}};
}

// ---- One kernel ---------------------------------------------------------------------------------

KernelStream::KernelStream(std::size_t i, int dirfd)
    : index(i), jsonOps(dirfd), notUnderstood(dirfd), junitCases(dirfd), htmlRows(dirfd),
      htmlFixes(dirfd) {}

void KernelStream::op(const KernelReport& k, const OpEntry& op) {
  // report.json: the op's entry in "ops" (indent 4), and one in "not_understood" if it was not
  // analysed.
  element(jsonOps.out(), ops, opJson(op), 4);
  if (!op.notAnalysed.empty())
    element(notUnderstood.out(), notAnalysed++,
            notUnderstoodJson("op", op.op, op.location, op.notAnalysed), 4);
  // junit.xml: one test case.
  std::ostream& ju = junitCases.out();
  ju << "    <testcase classname=\"" << xmlEscape(k.file) << "\" name=\""
     << xmlEscape("line " + std::to_string(op.line) + ": " + op.op + " (" + op.location + ")")
     << "\"";
  if (op.findings.empty()) {
    ju << "/>\n";
  } else {
    std::string body;
    for (const Finding& fd : op.findings)
      body += fd.kind + ": " + fd.message + "\n";
    ju << ">\n      <failure type=\"" << xmlEscape(op.findings.front().kind) << "\" message=\""
       << xmlEscape(utf8Prefix(op.findings.front().message, 300)) << "\">" << xmlEscape(body)
       << "</failure>\n    </testcase>\n";
  }
  // report.html: the op's row.
  htmlOpRow(htmlRows.out(), htmlFixes.out(), htmlFixCount, k, index, op);
  // The summary.
  ++ops;
  std::string kind = op.plan.is_object() ? op.plan.value("kind", "none") : "none";
  ++byPlan[kind];
  if (op.notAnalysed.empty())
    ++checked;
  withFindings += op.findings.empty() ? 0 : 1;
  opFindings += op.findings.size();
  for (const Finding& f : op.findings)
    addFinding(findings, findingIndex,
               {index,
                false,
                op.location,
                op.op,
                op.line,
                f.kind,
                f.message,
                f.severity,
                f.fix,
                {op.line}});
}

// ---- The report ---------------------------------------------------------------------------------

ReportStream::ReportStream(int dirfd)
    : dirfd_(dirfd), json_(dirfd), junit_(dirfd), htmlBody_(dirfd), htmlDefs_(dirfd) {}

void ReportStream::add(const KernelReport& k, KernelStream& s) {
  // The summary.
  summary.files.push_back(k.file);
  summary.layouts += k.layouts.size();
  for (const LayoutEntry& l : k.layouts)
    summary.illegal += l.layout && !l.legal ? 1 : 0;
  summary.notUnderstood += k.notUnderstood.size() + s.notAnalysed;
  summary.ops += s.ops;
  summary.checked += s.checked;
  for (const auto& [kind, n] : s.byPlan)
    summary.byPlan[kind] += n;
  std::vector<FindingRecord> mine;
  std::unordered_map<std::string, std::size_t> index;
  for (const Finding& f : k.findings)
    addFinding(mine, index,
               {kernels_, f.location.empty(), f.location, f.op, f.line, f.kind, f.message,
                f.severity, f.fix, f.line > 0 ? std::vector<int>{f.line} : std::vector<int>{}});
  for (FindingRecord& f : s.findings)
    addFinding(mine, index, std::move(f));
  s.findingIndex.clear();
  for (FindingRecord& f : mine)
    summary.findings.push_back(std::move(f));
  s.findings.clear();
  s.findings.shrink_to_fit();

  // report.json: the kernel's entry in "kernels" (indent 2).
  json layouts = json::array(), findings = json::array();
  for (const Finding& f : k.findings)
    findings.push_back(findingJson(f));
  json head = {{"file", k.file},
               {"target", k.target.empty() ? json(nullptr) : json(k.target)},
               {"arch", k.arch},
               {"arch_note", k.archNote.empty() ? json(nullptr) : json(k.archNote)},
               {"num_warps", optional(k.numWarps)},
               {"threads_per_warp", optional(k.threadsPerWarp)},
               {"num_ctas", optional(k.numCtas)},
               {"layouts", marker("layouts")},
               {"ops", marker("ops")},
               {"not_understood", marker("not_understood")},
               {"findings", findings},
               {"global_accesses", k.globalAccesses},
               {"scratch_ops", k.scratchOps},
               {"tma_copies", k.tmaCopies},
               {"partitions", k.partitions},
               {"barriers", k.barriers},
               {"descriptor_reads", k.descriptorReads},
               {"launches", k.launches},
               {"seconds", k.seconds}};
  if (!k.sass.is_null())
    head["sass"] = k.sass;
  std::ostream& js = json_.out();
  if (kernels_ > 0)
    js << ",\n";
  js << "  ";
  writeWithMarkers(js, dumpAt(head, 2), 3, {"layouts", "not_understood", "ops"},
                   [&](const std::string& name) {
                     if (name == "layouts") {
                       if (k.layouts.empty()) {
                         js << "[]";
                         return;
                       }
                       js << "[\n";
                       for (std::size_t i = 0; i < k.layouts.size(); ++i)
                         element(js, i, layoutJson(k.layouts[i]), 4);
                       js << "\n   ]";
                     } else if (name == "not_understood") {
                       std::size_t n = k.notUnderstood.size() + s.notAnalysed;
                       if (n == 0) {
                         js << "[]";
                         return;
                       }
                       js << "[\n";
                       for (std::size_t i = 0; i < k.notUnderstood.size(); ++i) {
                         const TtgirNotUnderstood& u = k.notUnderstood[i];
                         element(js, i, notUnderstoodJson(u.what, u.text, u.where, u.reason), 4);
                       }
                       if (!k.notUnderstood.empty() && s.notAnalysed > 0)
                         js << ",\n";
                       s.notUnderstood.copyTo(js);
                       js << "\n   ]";
                     } else {
                       writeArray(js, 3, s.ops, s.jsonOps);
                     }
                   });

  // junit.xml: the kernel's test suite.
  std::ostream& ju = junit_.out();
  std::size_t tests = 1 + s.ops, failures = (k.findings.empty() ? 0 : 1) + s.withFindings;
  tests_ += tests;
  failures_ += failures;
  ju << "  <testsuite name=\"" << xmlEscape(k.file) << "\" tests=\"" << tests << "\" failures=\""
     << failures << "\" errors=\"0\" time=\"" << fixed(k.seconds, 3) << "\">\n";
  ju << "    <testcase classname=\"" << xmlEscape(k.file) << "\" name=\""
     << xmlEscape("module: layouts and not-understood items") << "\"";
  if (k.findings.empty()) {
    ju << "/>\n";
  } else {
    std::string body;
    for (const Finding& fd : k.findings)
      body += fd.kind + ": " + fd.message + "\n";
    ju << ">\n      <failure type=\"" << xmlEscape(k.findings.front().kind) << "\" message=\""
       << xmlEscape(utf8Prefix(k.findings.front().message, 300)) << "\">" << xmlEscape(body)
       << "</failure>\n    </testcase>\n";
  }
  s.junitCases.copyTo(ju);
  ju << "  </testsuite>\n";

  // report.html: the kernel's section.
  htmlKernel(*this, k, s);
  ++kernels_;
}

const std::vector<const FindingRecord*>& ReportStream::worst() {
  if (!sorted_) {
    worst_ = summary.sorted();
    sorted_ = true;
  }
  return worst_;
}

void ReportStream::writeJson(std::ostream& os) {
  os << "{\n \"kernels\": ";
  writeArray(os, 1, kernels_, json_);
  os << ",\n \"summary\": ";
  const auto& w = worst();
  writeWithMarkers(os, dumpAt(summary.object(w, false), 1), 2, {"worst"}, [&](const std::string&) {
    if (w.empty()) {
      os << "[]";
      return;
    }
    os << "[\n";
    for (std::size_t i = 0; i < w.size(); ++i)
      element(os, i, SummaryData::worstJson(summary, *w[i]), 3);
    os << "\n  ]";
  });
  os << ",\n \"tool\": \"llcheck report\",\n \"version\": 1\n}\n";
}

namespace {

std::string shortFile(const std::string& path) {
  fs::path file(path);
  return (file.parent_path().filename() / file.filename()).generic_string();
}

/// "line 40 (kernel.py:40:20)", or for a finding of several ops "lines 40, 52, 64
/// (kernel.py:40:20; 3 ops)".
std::string whereText(const FindingRecord& f) {
  if (f.module)
    return "module";
  if (f.lines.size() <= 1)
    return "line " + std::to_string(f.line) + " (" + f.location + ")";
  std::string s = "lines ";
  for (std::size_t i = 0; i < f.lines.size(); ++i)
    s += (i ? ", " : "") + std::to_string(f.lines[i]);
  return s + " (" + f.location + "; " + std::to_string(f.lines.size()) + " ops)";
}

/// Text one pastes, as a code span; text from the input that a code span cannot hold (a
/// backtick, a line break) is escaped instead.
std::string mdCode(const std::string& s) {
  if (s.size() > 4096 || s.find_first_of("`\n\r") != std::string::npos)
    return mdEscape(mdMessage(s));
  return "`" + s + "`";
}

void markdownFix(std::ostream& os, std::size_t n, const FindingRecord& f, const std::string& file) {
  const json& x = f.fix;
  os << "**" << n << ". " << mdEscape(shortFile(file)) << ", " << mdEscape(whereText(f)) << ", "
     << mdEscape(f.op.empty() ? x.value("op", std::string()) : f.op) << "** (" << f.kind << ")\n\n";
  if (x.contains("error")) {
    os << "- no fix shown: " << mdEscape(x["error"].get<std::string>()) << "\n\n";
    return;
  }
  const json& now = x["now"];
  os << "- now: " << mdEscape(fixCostText(now));
  if (now.contains("attribute") && now["attribute"].is_string())
    os << " with " << mdCode(now["attribute"].get<std::string>());
  os << "\n";
  const json& sug = x["suggested"];
  os << "- suggested: " << mdEscape(fixCostText(sug)) << "\n";
  os << "  - TTGIR: " << mdCode(sug["attribute"].get<std::string>()) << "\n";
  os << "  - Gluon: " << mdCode(sug["gluon"].get<std::string>()) << "\n";
  if (x.contains("bound") && x["bound"].is_object())
    os << "- bound (any layout, no consumer's constraint): " << mdEscape(fixCostText(x["bound"]))
       << "\n";
  for (const char* key : {"accepted_by", "why", "how"})
    if (x.contains(key) && x[key].is_string())
      os << "- " << (std::string(key) == "accepted_by" ? "accepted by" : key) << ": "
         << mdEscape(x[key].get<std::string>()) << "\n";
  os << "\n";
}

} // namespace

void ReportStream::writeMarkdown(std::ostream& os) {
  const auto& w = worst();
  std::map<std::string, std::size_t> fk;
  for (const FindingRecord& f : summary.findings)
    ++fk[f.kind];
  std::size_t files = summary.files.size();
  os << "## llcheck conformance report\n\n";
  os << files << (files == 1 ? " kernel, " : " kernels, ") << summary.layouts << " layouts, "
     << summary.checked << " of " << summary.ops << " data-moving ops checked"
     << (summary.z3 ? " (properties proven by Z3)" : " (without Z3)")
     << (summary.oracleSource.empty() ? "" : ", measured on " + mdEscape(summary.oracleGpu)) << ", "
     << fixed(summary.seconds, 1) << " s; encodings read with Triton "
     << tritonVersionName(summary.triton) << "'s semantics.\n\n";
  os << "| check | count |\n| --- | ---: |\n";
  os << "| illegal layouts | " << summary.illegal << " |\n";
  for (const char* k : {"illegal_layout", "misaligned_access", "above_optimum",
                        "above_admissible_optimum", "above_optimum_side", "global_above_ideal",
                        "measured_mismatch", "unknown_property", "not_understood"})
    os << "| findings: " << k << " | " << (fk.count(k) ? fk[k] : 0) << " |\n";
  os << "| **findings** | **" << summary.findings.size() << "** |\n\n";
  os << "Ops by plan:";
  for (const auto& [k, n] : summary.byPlan)
    os << " " << k << " " << n << ";";
  os << "\n\n";
  if (!w.empty()) {
    std::size_t shown = std::min<std::size_t>(w.size(), 15);
    os << "### Worst findings (" << shown << " of " << w.size() << ")\n\n";
    os << "| file | where | kind | finding |\n| --- | --- | --- | --- |\n";
    std::vector<std::size_t> withFix;
    for (std::size_t i = 0; i < shown; ++i) {
      const FindingRecord& f = *w[i];
      os << "| " << mdEscape(shortFile(summary.files[f.kernel])) << " | " << mdEscape(whereText(f))
         << " | " << f.kind << " | " << mdEscape(mdMessage(f.message))
         << (f.fix.is_object() ? " (fix " + std::to_string(withFix.size() + 1) + " below)" : "")
         << " |\n";
      if (f.fix.is_object())
        withFix.push_back(i);
    }
    os << "\n";
    if (!withFix.empty()) {
      os << "### Fixes\n\nEach layout below was read back by llcheck, verified as a layout of the "
            "same tensor, and costed again before it was printed. Gluon: `"
         << kGluonImport << "`.\n\n";
      for (std::size_t n = 0; n < withFix.size(); ++n)
        markdownFix(os, n + 1, *w[withFix[n]], summary.files[w[withFix[n]]->kernel]);
    }
  }
  os << "Full details: report.html, report.json; per op: junit.xml.\n";
}

void ReportStream::writeJunit(std::ostream& os) {
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"llcheck report\" tests=\""
     << tests_ << "\" failures=\"" << failures_ << "\" errors=\"0\" time=\""
     << fixed(summary.seconds, 3) << "\">\n";
  junit_.copyTo(os);
  os << "</testsuites>\n";
}

void ReportStream::writeHtml(std::ostream& os) {
  htmlPage(*this, os);
}

ReportTotals ReportStream::totals() const {
  ReportTotals t;
  t.files = summary.files.size();
  t.layouts = summary.layouts;
  t.ops = summary.ops;
  t.opsChecked = summary.checked;
  t.findings = summary.findings.size();
  t.seconds = summary.seconds;
  return t;
}

std::string ReportStream::error() const {
  for (const SpillBuffer* b : {&json_, &junit_, &htmlBody_, &htmlDefs_})
    if (!b->error().empty())
      return b->error();
  return "";
}

void streamReport(ReportStream& s, const Report& r, int kernelDirfd) {
  s.summary.arch = r.arch;
  s.summary.z3 = r.z3;
  s.summary.triton = r.triton;
  s.summary.oracleSource = r.oracleSource;
  s.summary.oracleGpu = r.oracleGpu;
  s.summary.oracleDate = r.oracleDate;
  s.summary.seconds = r.seconds;
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    KernelStream k(i, kernelDirfd);
    for (const OpEntry& op : r.kernels[i].ops)
      k.op(r.kernels[i], op);
    s.add(r.kernels[i], k);
  }
}

} // namespace detail

using detail::KernelStream;
using detail::ReportStream;

// ---- Escaping
// ------------------------------------------------------------------------------------

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

std::string mdEscape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
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
    case '\\':
    case '`':
    case '*':
    case '_':
    case '[':
    case ']':
    case '|':
    case '~':
    case '$':
      out += '\\';
      out += static_cast<char>(c);
      break;
    default:
      // A line break would end the table row (or the paragraph): every control character is a
      // space.
      out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
    }
  }
  return out;
}

// ---- In memory (the tests)
// -----------------------------------------------------------------------

json toJson(const Report& r) {
  ReportStream s;
  streamReport(s, r, -1);
  std::ostringstream os;
  s.writeJson(os);
  return json::parse(os.str());
}

json summaryJson(const Report& r) {
  ReportStream s;
  streamReport(s, r, -1);
  return s.summary.object(s.summary.sorted(), true);
}

std::string toMarkdown(const Report& r) {
  ReportStream s;
  streamReport(s, r, -1);
  std::ostringstream os;
  s.writeMarkdown(os);
  return os.str();
}

std::string toJunit(const Report& r) {
  ReportStream s;
  streamReport(s, r, -1);
  std::ostringstream os;
  s.writeJunit(os);
  return os.str();
}

std::string toHtml(const Report& r) {
  ReportStream s;
  streamReport(s, r, -1);
  std::ostringstream os;
  s.writeHtml(os);
  return os.str();
}

} // namespace llcheck::reports
