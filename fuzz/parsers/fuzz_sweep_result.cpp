// Fuzz target: bytes -> a sweep result or checkpoint (fuzz/sweep/SweepResult.cpp, what
// `sweep merge` and `sweep --checkpoint` read). Whatever the bytes, the reader answers a report
// or an Error, never crashes, aborts or throws; a report it accepts is written back (toJson) and
// read again to the same JSON.
#include "RoundTrip.h"
#include "sweep/Sweep.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto j = parseJsonText(text, "fuzz");
  if (!j.ok()) {
    fuzz::checkMessage(text, j.error());
    return 0;
  }
  auto r = fuzz::sweepReportFromJson(*j, "fuzz");
  if (r.ok()) {
    nlohmann::json written = fuzz::toJson(*r);
    auto again = fuzz::sweepReportFromJson(written, "fuzz");
    if (!again.ok() || fuzz::toJson(*again) != written)
      fuzz::fail("a sweep result read, written and read again is not the same");
  } else {
    fuzz::checkMessage(text, r.error());
  }
  auto c = fuzz::sweepCheckpointFromJson(*j, "fuzz");
  if (!c.ok())
    fuzz::checkMessage(text, c.error());
  return 0;
}
