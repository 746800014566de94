// The bounded encoding spaces of `llcheck sweep` (Spaces.cpp), for the sweep's runner: each
// family's groups, their sizes and their encodings in a fixed order.
#pragma once

#include "Sweep.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/LinearLayout.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llcheck::fuzz::sweep {

/// One encoding of a group: either attribute text for loadSpec, or #ttg.blocked's parameters
/// (built directly: the blocked space is the large one, and its parameters need no reading).
struct Encoding {
  std::string attr;
  std::optional<BlockedParams> blocked;
  /// What the layout must be: its kind's legality (Def. 4.10 / 4.14), or
  ///  - Padded: #ttg.nvmma_shared with fp4Padded, where every 16 offsets hold 8 elements and 8
  ///    of padding that map onto them (not injective by design);
  ///  - Bijective: #ttg.swizzled_shared with a vec, perPhase or maxPhase that is not a power of
  ///    two, which Triton accepts; the XOR of vec * phase can set several bits in one column,
  ///    so the layout is a bijection but not a memory layout in Def. 4.14's sense.
  enum class Expect { Legal, Padded, Bijective } expect = Expect::Legal;
  /// Against Triton only: the encoding as Gluon's layout class takes it ({"encoding", "args"},
  /// for fuzz/sweep/triton_layouts.py); #ttg.blocked's is written from `blocked` when asked.
  nlohmann::json spec;
};

int log2Of(uint64_t v);
/// Every family but the shared ones (swizzled_shared, nvmma_shared).
bool distributedFamily(const std::string& family);
uint64_t elementsOf(const std::vector<uint64_t>& shape);
/// "4x8".
std::string shapeText(const std::vector<uint64_t>& v);
/// #ttg.blocked as Gluon's spec.
nlohmann::json blockedSpec(const BlockedParams& p);

/// The groups of a family in the sweep's fixed order, without their encodings: one per tensor
/// shape, lane count and warp count that the family has encodings for.
std::vector<SweepGroup> groupsOf(const SweepOptions& o);
/// A #ttg.blocked group cut into its parts, one per multiset of sizePerThread (each as the
/// sorted sizePerThread), in increasing order of it: every encoding of `g` is in exactly one.
std::vector<SweepGroup> partsOf(const SweepGroup& g);
/// How many encodings encodingsOf writes for `g`, counted from the loops' bounds.
uint64_t setsOf(const SweepGroup& g, const std::string& family);
/// The encodings of one group, in a fixed order.
std::vector<Encoding> encodingsOf(const SweepGroup& g, const SweepOptions& o);
/// A layout's identity for de-duplication: the out sizes and every basis.
std::vector<uint64_t> key(const LinearLayout& l);
/// The layout of one encoding over its group, or the reader's Error (Triton rejects it too).
Result<LinearLayout> layoutOf(const Encoding& e, const SweepGroup& g, const SweepOptions& o);

} // namespace llcheck::fuzz::sweep
