// Shared checks for the parser fuzz targets: whatever parses must print and parse back to the
// same layout, and must survive verify() without an internal error.
#pragma once

#include "llcheck/core/Formats.h"
#include "llcheck/core/Properties.h"

#include <cstdio>
#include <cstdlib>

namespace llcheck::fuzz {

inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
  std::abort();
}

inline void checkLayout(const LinearLayout& l) {
  auto fromText = parseTritonString(l.toString(), "roundtrip");
  if (!fromText.ok() || !(*fromText == l))
    fail("toString -> parseTritonString did not round-trip");
  auto fromJson = layoutFromJson(toJson(l));
  if (!fromJson.ok() || !(*fromJson == l))
    fail("toJson -> layoutFromJson did not round-trip");
  VerifyOptions options;
  options.maxEnumerationBits = 12;  // keep each input fast
  auto report = verify(l, options); // throws LayoutError on an unconfirmed counterexample
  if (!report.ok())
    fail("verify() rejected a layout that parsed");
  if (!report->disagreements.empty())
    fail("algebra and enumeration disagree");
}

} // namespace llcheck::fuzz
