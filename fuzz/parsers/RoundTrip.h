// Shared checks for the parser fuzz targets: whatever parses must print and parse back to the
// same layout, and must survive verify() without an internal error.
#pragma once

#include "llcheck/core/Formats.h"
#include "llcheck/core/Properties.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace llcheck::fuzz {

inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
  std::abort();
}

/// Whether `s` is well-formed UTF-8 (no stray continuation byte, no cut sequence, no overlong
/// or surrogate forms).
inline bool isUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size())
      return false;
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
      auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80)
        return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}

/// An error about input that was well-formed UTF-8 must be too: messages quote input, and a
/// quote cut through a character would make every JSON answer that carries it invalid.
inline void checkMessage(std::string_view input, const Error& e) {
  if (isUtf8(input) && !isUtf8(e.str()))
    fail("an error message about UTF-8 input is not UTF-8 (a quote cut through a character?)");
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
