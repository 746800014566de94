// Fuzz target: Triton's printed form -> layout.
#include "RoundTrip.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto l = parseTritonString(text, "fuzz");
  if (l.ok())
    fuzz::checkLayout(*l);
  else
    fuzz::checkMessage(text, l.error());
  return 0;
}
