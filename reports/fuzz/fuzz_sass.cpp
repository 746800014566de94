// Fuzz target: a `cuobjdump -sass` listing -> the report's SASS functions (issue 31: a 50 KB line
// overflowed std::regex's recursion). Whatever is read must be consistent with the text: no
// more loads than lines, no more loads after the exit than loads, names non-empty and no longer
// than the input, the stores outside loops among the stores, in order, of known widths and
// warps, and a second read of the same text gives the same functions.
#include "llcheck/reports/Sass.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
  std::abort();
}

bool same(const llcheck::reports::SassFunction& a, const llcheck::reports::SassFunction& b) {
  return a.name == b.name && a.lds == b.lds && a.ldsm == b.ldsm &&
         a.predicatedExit == b.predicatedExit && a.exitAddress == b.exitAddress &&
         a.ldsAfterExit == b.ldsAfterExit && a.ldsmAfterExit == b.ldsmAfterExit &&
         a.straightLine == b.straightLine && a.notStraightLine == b.notStraightLine &&
         a.storesNotReadable == b.storesNotReadable &&
         a.storesOutsideLoops.size() == b.storesOutsideLoops.size() &&
         a.lastPredicatedExit == b.lastPredicatedExit;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llcheck::reports;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto functions = parseSass(text, "fuzz.sass");
  if (!functions.ok()) {
    if (functions.error().str().empty())
      fail("an error without a message");
    return 0;
  }
  std::size_t lines = 1;
  for (char c : text)
    lines += c == '\n';
  if (functions->empty())
    fail("success without a function");
  uint64_t loads = 0;
  for (const SassFunction& f : *functions) {
    if (f.name.empty() || f.name.size() > size)
      fail("a function name that is empty or longer than the input");
    if (f.ldsAfterExit > f.lds || f.ldsmAfterExit > f.ldsm)
      fail("more loads after the exit than loads");
    if (f.predicatedExit.empty() && (f.ldsAfterExit != 0 || f.ldsmAfterExit != 0))
      fail("loads after an exit that is not there");
    if (f.straightLine != f.notStraightLine.empty())
      fail("straight_line and the branch that breaks it disagree");
    if (f.storesOutsideLoops.size() > f.stg)
      fail("more stores outside loops than stores");
    if (!f.storesNotReadable.empty() && !f.storesOutsideLoops.empty())
      fail("stores read where the reading gave up");
    uint64_t previous = 0;
    for (const SassStore& s : f.storesOutsideLoops) {
      if (s.executedBy != 'e' && s.executedBy != 'x' && s.executedBy != 'b')
        fail("a store executed by no known set of warps");
      if (s.bits != 8 && s.bits != 16 && s.bits != 32 && s.bits != 64 && s.bits != 128)
        fail("a store of an unknown width");
      if (s.executedBy == 'x' && !f.lastPredicatedExit)
        fail("a store after an exit that is not there");
      if (s.address < previous)
        fail("stores out of program order");
      previous = s.address;
    }
    loads += f.lds + f.ldsm;
  }
  if (loads + functions->size() > lines)
    fail("more loads and functions than lines");
  auto again = parseSass(text, "fuzz.sass");
  if (!again.ok() || again->size() != functions->size())
    fail("a second read differs");
  for (std::size_t i = 0; i < functions->size(); ++i)
    if (!same((*functions)[i], (*again)[i]))
      fail("a second read differs");
  return 0;
}
