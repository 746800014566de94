// Internal to reports/: what Outputs.cpp and Html.cpp share to write a report one kernel at a
// time (see Outputs.h, "Streaming and the output folder"). Each op's entry is written as soon as
// it is made into the kernel's KernelStream; a finished kernel is appended, in file order, to the
// ReportStream, which keeps only the summary (counts and findings) in memory and writes the four
// files at the end.
#pragma once

#include "llcheck/reports/Outputs.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace llcheck::reports::detail {

/// Text beyond this many bytes leaves memory for a scratch file (8 buffers at a time per kernel
/// in progress and for the report: a few MiB at most).
inline constexpr std::size_t kSpillBytes = std::size_t{256} << 10;

/// Text written through out(): kept in memory up to `limit` bytes, then moved to an unnamed
/// scratch file in the folder `dirfd` (created with O_EXCL | O_NOFOLLOW and unlinked at once, so
/// nothing is left behind, whatever ends the process). With dirfd < 0 it stays in memory.
class SpillBuffer : public std::streambuf {
public:
  explicit SpillBuffer(int dirfd = -1, std::size_t limit = kSpillBytes);
  ~SpillBuffer() override;
  SpillBuffer(const SpillBuffer&) = delete;
  SpillBuffer& operator=(const SpillBuffer&) = delete;

  std::ostream& out() { return os_; }
  /// Writes everything written so far to `to`.
  void copyTo(std::ostream& to);
  [[nodiscard]] uint64_t size() const { return size_; }
  /// The first error of the scratch file ("" if none).
  [[nodiscard]] const std::string& error() const { return error_; }

protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

private:
  void append(const char* s, std::size_t n);
  void flushPending();
  int dirfd_;
  std::size_t limit_;
  std::string mem_;
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string error_;
  std::ostream os_{this};
};

/// A finding as the summary keeps it.
struct FindingRecord {
  std::size_t kernel = 0;
  bool module = true; ///< a module-level finding (no op)
  std::string location, op;
  int line = 0;
  std::string kind, message;
  double severity = 0;
  nlohmann::json fix;
  /// The ops at the same source location with the same finding (the stages of a software
  /// pipeline, a tile loaded in several places): one record, their lines in program order.
  std::vector<int> lines;
};

/// Adds `f` to one kernel's findings, or, where one of them has the same kind and message at the
/// same source location (a pipelined loop's stages), adds its lines to that one.
/// `index` maps (location, kind, message) to its record in kernelFindings.
void addFinding(std::vector<FindingRecord>& kernelFindings,
                std::unordered_map<std::string, std::size_t>& index, FindingRecord f);

/// Counts and findings of the kernels added so far, and the report's own fields: report.json's
/// "summary", report.md, and the head of report.html.
struct SummaryData {
  std::vector<std::string> files; ///< one per kernel
  std::size_t layouts = 0, illegal = 0, ops = 0, checked = 0, notUnderstood = 0;
  std::map<std::string, std::size_t> byPlan;
  /// Kernel by kernel, module findings first, then the ops' in op order; sorted() orders them.
  std::vector<FindingRecord> findings;
  std::string arch;
  bool z3 = true;
  TritonVersion triton = kNewestTriton; ///< whose semantics the layouts were read with
  std::string oracleSource, oracleGpu, oracleDate;
  double seconds = 0;

  /// The findings, worst first (stable).
  [[nodiscard]] std::vector<const FindingRecord*> sorted() const;
  /// The summary object; "worst" holds `worstMarker()` when withWorst is false.
  [[nodiscard]] nlohmann::json object(const std::vector<const FindingRecord*>& worst,
                                      bool withWorst) const;
  [[nodiscard]] static nlohmann::json worstJson(const SummaryData& s, const FindingRecord& f);
};

/// One kernel's op entries, written as they are made.
struct KernelStream {
  KernelStream(std::size_t index, int dirfd);
  /// Writes the op's report.json entry, junit.xml test case and report.html row.
  void op(const KernelReport& k, const OpEntry& op);

  std::size_t index;
  SpillBuffer jsonOps, notUnderstood, junitCases, htmlRows, htmlFixes;
  std::size_t htmlFixCount = 0; ///< fixes in htmlFixes
  std::size_t ops = 0, withFindings = 0, opFindings = 0, checked = 0, notAnalysed = 0;
  std::map<std::string, std::size_t> byPlan;
  std::vector<FindingRecord> findings;
  std::unordered_map<std::string, std::size_t> findingIndex;
};

/// The whole report, kernel by kernel.
class ReportStream {
public:
  explicit ReportStream(int dirfd = -1);
  /// Appends a finished kernel (in file order): `k` with its layouts and module findings (its
  /// ops, if any, are ignored: they went through `s`).
  void add(const KernelReport& k, KernelStream& s);
  /// Writes each file; the summary is computed once on the first call.
  void writeJson(std::ostream& os);
  void writeMarkdown(std::ostream& os);
  void writeJunit(std::ostream& os);
  void writeHtml(std::ostream& os);
  [[nodiscard]] ReportTotals totals() const;
  /// The first error of a scratch file ("" if none).
  [[nodiscard]] std::string error() const;

  /// The findings, worst first (sorted once).
  const std::vector<const FindingRecord*>& worst();

  SummaryData summary;

private:
  int dirfd_;
  std::size_t kernels_ = 0, tests_ = 0, failures_ = 0;
  SpillBuffer json_, junit_, htmlBody_, htmlDefs_;
  std::size_t pictures_ = 0;
  std::map<std::string, std::string> drawn_; // picture key -> symbol id
  std::vector<const FindingRecord*> worst_;
  bool sorted_ = false;

  friend void htmlKernel(ReportStream& r, const KernelReport& k, KernelStream& s);
  friend void htmlPage(ReportStream& r, std::ostream& os);
};

/// Streams a whole in-memory report into `s`, each kernel's scratch files in `kernelDirfd`
/// (-1: in memory).
void streamReport(ReportStream& s, const Report& r, int kernelDirfd);

// Html.cpp
/// A finding's fix in report.html: its text, and the layout now and the suggested one drawn side
/// by side ("" for a finding without one).
/// `anchor` is the element id of the fix.
[[nodiscard]] std::string htmlFix(const KernelReport& k, const Finding& f,
                                  const std::string& anchor);
/// The op's row of the kernel's table in report.html.
/// Its findings' fixes go to `fixes`, numbered from `fixCount` on, each linked from the row.
void htmlOpRow(std::ostream& os, std::ostream& fixes, std::size_t& fixCount, const KernelReport& k,
               std::size_t kernelIndex, const OpEntry& op);
/// The kernel's section of report.html (its rows are in s.htmlRows), appended to r's body.
void htmlKernel(ReportStream& r, const KernelReport& k, KernelStream& s);
/// The page: head, pictures, summary and every kernel's section.
void htmlPage(ReportStream& r, std::ostream& os);

/// "%.*f".
[[nodiscard]] std::string fixed(double v, int digits);
/// JSON text as nlohmann's dump(1) writes it, every line after the first indented by `indent`
/// more spaces (a value nested that deep); invalid UTF-8 is replaced, never thrown on.
[[nodiscard]] std::string dumpAt(const nlohmann::json& j, int indent);

} // namespace llcheck::reports::detail
