// The four forms of a conformance report (Report.h): report.json (the schema is in README.md,
// "llcheck report"), report.md (short enough for a CI step summary), junit.xml (one test case per
// op, a finding is a failure) and report.html (one self-contained page with an SVG picture of
// every layout; Html.cpp).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/reports/Report.h"

#include <nlohmann/json.hpp>

#include <string>

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

/// Writes report.json, report.md, junit.xml and report.html into `dir` (created if missing).
[[nodiscard]] Result<bool> writeReport(const Report& report, const std::string& dir);

} // namespace llcheck::reports
