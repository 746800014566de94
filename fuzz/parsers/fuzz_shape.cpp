// Fuzz target: --shape text ("64x16").
#include "llcheck/core/Formats.h"

#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto shape = llcheck::parseShape(text);
  if (shape.ok())
    for (uint64_t s : *shape)
      if (s == 0 || (s & (s - 1)) != 0)
        std::abort(); // accepted a non-power-of-two size
  return 0;
}
