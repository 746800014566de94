// Fuzz target: a whole TTGIR module -> aliases, types, layouts, ops, and the axis analysis of
// its pointers. Whatever reads must be consistent: every index points into its list, every
// layout computed passes verify, and every fact of the analysis is a positive power of two
// (contiguity and constancy positive) in a vector of the tensor's rank. A launch of it is run
// too (report --launches): within its limits, each access it hands over as long as its type
// says, and every line it names one of the module's.
#include "RoundTrip.h"

#include "llcheck/core/AxisInfo.h"
#include "llcheck/core/LaunchEvaluation.h"
#include "llcheck/core/Ttgir.h"

#include <algorithm>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)looksLikeTtgir(text);
  auto m = readTtgir(text, "fuzz.ttgir");
  if (!m.ok()) {
    fuzz::checkMessage(text, m.error());
    return 0;
  }
  // What the reader took from the input is as well-formed as the input was: locations
  // (resolved through aliases, however they refer to each other), the target, not-understood
  // items.
  if (fuzz::isUtf8(text)) {
    for (const TtgirOp& op : m->ops)
      if (!fuzz::isUtf8(op.location))
        fuzz::fail("an op's location is not UTF-8 though the input was");
    for (const auto& n : m->notUnderstood)
      if (!fuzz::isUtf8(n.text) || !fuzz::isUtf8(n.reason))
        fuzz::fail("a not-understood item is not UTF-8 though the input was");
  }
  auto inRange = [&](int i) { return i >= -1 && i < static_cast<int>(m->layouts.size()); };
  for (const TtgirType& t : m->types)
    if (!inRange(t.layout))
      fuzz::fail("a type's layout index is out of range");
  for (const TtgirOp& op : m->ops)
    if (!inRange(op.dst.layout) || (op.src && !inRange(op.src->layout)))
      fuzz::fail("an op's layout index is out of range");
  for (const TtgirLayout& l : m->layouts) {
    if (l.layout.has_value() == !l.error.empty())
      fuzz::fail("a layout must have either a value or an error");
    if (l.layout)
      fuzz::checkLayout(*l.layout);
  }
  auto axis = analyzeAxisInfo(m->text, "fuzz.ttgir");
  if (!axis.ok())
    fuzz::fail("the axis analysis failed on a module the reader accepted");
  for (const TtgirAccessFacts& a : axis->accesses) {
    auto facts = {&a.pointer, a.mask ? &*a.mask : &a.pointer};
    for (const AxisInfo* f : facts) {
      if (f->divisibility.size() != f->contiguity.size() ||
          f->constancy.size() != f->contiguity.size() || f->contiguity.empty())
        fuzz::fail("an access's axis facts have vectors of different lengths");
      for (std::size_t d = 0; d < f->contiguity.size(); ++d)
        if (f->contiguity[d] < 1 || f->constancy[d] < 1 || f->divisibility[d] < 1)
          fuzz::fail("an axis fact below 1");
    }
    if (a.offsets.affine && a.offsets.strides.empty())
      fuzz::fail("affine offsets without strides");
  }
  LaunchArguments launch;
  launch.grid = {2, 1, 1};
  launch.integers = {{"N", 100}, {"K", 64}, {"M", 7}};
  LaunchLimits limits;
  limits.maxElementOps = 1 << 18;
  limits.maxTensorElements = 1 << 16;
  auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (bool programIds : {true, false}) {
    launch.programIdsKnown = programIds;
    auto run = evaluateLaunch(
        m->text, "fuzz.ttgir", launch,
        [&](const AccessRun& r) {
          uint64_t n = 1;
          for (uint64_t d : *r.shape)
            n = d != 0 && n > (uint64_t{1} << 20) / d ? uint64_t{1} << 21 : n * d;
          if ((!r.bytes.empty() && r.bytes.size() != n) ||
              (!r.active.empty() && r.active.size() != n))
            fuzz::fail("an access handed over with another number of elements than its type");
          if (r.line < 1 || r.line > lines)
            fuzz::fail("an access at a line the module does not have");
        },
        limits);
    if (!run.ok())
      fuzz::fail("a launch of a 2-program grid failed");
    if (run->elementOps > limits.maxElementOps + limits.maxTensorElements + 1)
      fuzz::fail("the launch ran past its limit");
  }
  return 0;
}
