// Fuzz target: an MLIR attribute (#ttg.linear<...> and friends) -> layout.
#include "RoundTrip.h"

#include "llcheck/core/Spec.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto attr = parseAttribute(text, "attribute");
  if (!attr.ok()) {
    fuzz::checkMessage(text, attr.error());
    return 0;
  }
  auto l = attributeToLayout(*attr, LayoutContext{}, "attribute");
  if (!l.ok()) {
    fuzz::checkMessage(text, l.error());
    return 0;
  }
  fuzz::checkLayout(*l);
  auto printed = toLinearAttr(*l);
  if (printed.ok()) {
    auto again = parseAttribute(*printed, "attribute");
    if (!again.ok())
      fuzz::fail("toLinearAttr output does not parse");
    auto l2 = attributeToLayout(*again, LayoutContext{}, "attribute");
    if (!l2.ok() || !(*l2 == *l))
      fuzz::fail("toLinearAttr -> parse did not round-trip");
  }
  return 0;
}
