// Fuzz target: bytes -> JSON -> the hwlayout results reader (its schema, then the decoders of
// every probe it accepts, and the printed report). It must never crash, abort or throw: a bad
// file is an Error, anything else a report.
#include "llcheck/core/Formats.h"
#include "llcheck/gpu_oracle/HwLayout.h"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto j = parseJsonText(text, "fuzz");
  if (!j.ok())
    return 0;
  hwlayout::CheckOptions options;
  options.tilings = false; // the tilings read only llcheck's own encodings, never the file
  auto report = hwlayout::checkResults(*j, options);
  if (!report.ok()) {
    if (report.error().str().empty())
      std::abort(); // an error must say what is wrong
    return 0;
  }
  std::ostringstream out;
  hwlayout::printReport(out, *report);
  (void)dumpJson(hwlayout::reportJson(*report));
  return 0;
}
