// The four forms of a conformance report (Report.h): report.json (the schema is in docs/report.md,
// "llcheck report"), report.md (short enough for a CI step summary), junit.xml (one test case per
// op, a finding is a failure) and report.html (one self-contained page with an SVG picture of
// every layout; Html.cpp).
//
// # Streaming and the output folder
//
// `llcheck report` never holds a whole report: writeReport(files, ...) reads, reports and writes
// one kernel at a time, and each op's entry is written out (report.json, junit.xml, report.html)
// as soon as it is made. Text beyond 256 KiB goes to unnamed scratch files inside the
// output folder, so memory stays proportional to one kernel's layouts and the findings (kept for
// the summary), not to the ops or the size of the files written (docs/report.md, "Limits").
//
// The folder is written safely (docs/report.md, "The output folder"): it must be a real folder
// (not a symbolic link); every output name must be absent or a regular file (a symbolic link there
// is refused, never followed); a lock file `.llcheck-report.lock` (flock, non-blocking) keeps a
// second report out of the folder while one is writing, and names its holder; each file is written
// under a temporary name in the folder (created with O_EXCL | O_NOFOLLOW) and renamed over the old
// one, so a reader, a crash or Ctrl-C sees the previous complete file or the new one, never half.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/reports/Report.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace llcheck::reports {

[[nodiscard]] nlohmann::json toJson(const Report& report);
/// The summary object of report.json (also the basis of report.md).
[[nodiscard]] nlohmann::json summaryJson(const Report& report);
[[nodiscard]] std::string toMarkdown(const Report& report);
[[nodiscard]] std::string toJunit(const Report& report);
[[nodiscard]] std::string toHtml(const Report& report);
/// Text made safe inside XML and HTML elements and attributes (junit.xml, report.html): the five
/// markup characters escaped, control characters but tab and newline replaced by '?'.
[[nodiscard]] std::string xmlEscape(const std::string& s);
/// Text made inert inside report.md (a table cell or the middle of a sentence), which GitHub,
/// GitLab and other CI systems render as Markdown with inline HTML: `&`, `<`, `>` become HTML
/// entities (no tag, comment, entity or autolink can open), the Markdown punctuation
/// \ ` * _ [ ] | ~ $ is backslash-escaped (no code span, emphasis, link, image, table cell,
/// strikethrough or math can form), and line breaks and other control characters become spaces.
[[nodiscard]] std::string mdEscape(const std::string& s);

/// Pictures larger than this many cells per side show their top-left corner.
inline constexpr uint64_t kMaxPictureSide = 32;

/// The SVG picture of one layout: for a distributed layout the warp (colour), lane and register
/// that hold each element of the tensor (of its two minor dims; the first slice of the others),
/// for a shared layout the bank of each element (with `banks` banks of 4 bytes).
/// Returns the picture's body (to go in a <symbol>), and its width and height.
struct Picture {
  std::string body, caption;
  int width = 0, height = 0;
};
[[nodiscard]] Picture layoutPicture(const LayoutEntry& layout, int banks);

/// What a written report holds, for the command line's summary line and exit status.
struct ReportTotals {
  std::size_t files = 0, layouts = 0, ops = 0, opsChecked = 0, findings = 0;
  double seconds = 0;
};

/// The name of the lock file in the output folder.
inline constexpr const char* kReportLockName = ".llcheck-report.lock";

/// `llcheck report`: reads each file, reports it and writes it into the folder `dir` (created if
/// missing) before the next (`options.threads` files at a time), then puts report.json, report.md,
/// junit.xml and report.html in place. An Error (bad input: a file that is not TTGIR, an unsafe or
/// busy output folder) leaves the folder's previous files as they were.
[[nodiscard]] Result<ReportTotals> writeReport(const std::vector<std::string>& files,
                                               const ReportOptions& options,
                                               const std::string& dir);
/// The same for a report already made (the tests).
[[nodiscard]] Result<ReportTotals> writeReport(const Report& report, const std::string& dir);

} // namespace llcheck::reports
