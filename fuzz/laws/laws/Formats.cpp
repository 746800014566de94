// The laws of the formats: each printer and its parser round-trip.
// Each law is one function; Laws.cpp registers them in one table (Catalog.h).
#include "Catalog.h"
#include "Support.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"

#include <bit>

namespace llcheck::fuzz::laws {

// ---- Formats -------------------------------------------------------------------------------

Verdict jsonRoundTrip(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  std::string text = toJson(l).dump();
  LAW_TRY(j, parseJsonText(text, "law"), "parseJsonText");
  LAW_TRY(back, layoutFromJson(*j), "layoutFromJson");
  LAW_REQUIRE(*back == l, "read back:" + str(*back) + "\nfrom " + text);
  return {};
}

Verdict tritonTextRoundTrip(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  std::string text = l.toString();
  LAW_TRY(back, parseTritonString(text, "law"), "parseTritonString");
  LAW_REQUIRE(*back == l, "read back:" + str(*back) + "\nfrom:" + text);
  return {};
}

rc::Gen<Case> linearAttrRoundTripCases() {
  return one(fromDraws([]() {
    // Distributed layouts onto dim0.. (what the attribute holds), registers unit-stride
    // first so Triton's register order is well defined.
    int lane = pick(0, 3), warp = pick(0, 2), reg = pick(0, 3);
    std::vector<int> outBits;
    int left = lane + warp + reg;
    for (int i = 0, n = pick(1, 2); i < n; ++i) {
      int b = i + 1 == n ? left : pick(0, left);
      outBits.push_back(b);
      left -= b;
    }
    return drawDistributedOn(reg, lane, warp, outBits);
  }));
}

Verdict linearAttrRoundTrip(const Case& c) {
  const LinearLayout& l = c.layouts.at(0);
  auto attr = toLinearAttr(l);
  if (!attr.ok())
    return {}; // no attribute holds it (the error says why); nothing to read back
  LayoutContext opts;
  std::vector<uint64_t> shape;
  for (const DimSize& d : l.getOutDims())
    shape.push_back(d.size);
  opts.shape = shape;
  LAW_TRY(back, loadSpec(*attr, opts), "reading " + *attr);
  LAW_REQUIRE(back->layout == l, "read back:" + str(back->layout) + "\nfrom " + *attr);
  return {};
}

rc::Gen<Case> shapeRoundTripCases() {
  return fromDraws([]() {
    Case c;
    for (int i = 0, n = pick(1, 4); i < n; ++i)
      c.params.push_back(pick(0, 1) ? (int64_t{1} << pick(0, 20)) : pick(0, 100));
    return c;
  });
}

Verdict shapeRoundTrip(const Case& c) {
  std::vector<uint64_t> shape;
  bool pow2 = true;
  for (int64_t v : c.params) {
    shape.push_back(static_cast<uint64_t>(v));
    pow2 = pow2 && v > 0 && std::has_single_bit(static_cast<uint64_t>(v));
  }
  std::string text = shapeText(shape);
  auto back = parseShape(text);
  LAW_REQUIRE(back.ok() == pow2,
              "parseShape('" + text + "') " + (back.ok() ? "accepted" : "refused") + " it");
  if (back.ok())
    LAW_REQUIRE(*back == shape, "parseShape('" + text + "') = " + vecStr(*back));
  return {};
}

} // namespace llcheck::fuzz::laws
