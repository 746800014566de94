// Fuzz target: Layout JSON v1 text -> layout.
#include "RoundTrip.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto j = parseJsonText(text, "fuzz");
  if (!j.ok()) {
    fuzz::checkMessage(text, j.error());
    return 0;
  }
  auto l = layoutFromJson(*j);
  if (l.ok())
    fuzz::checkLayout(*l);
  else
    fuzz::checkMessage(text, l.error());
  return 0;
}
