// `llcheck sweep FAMILY --against triton` (AgainstTriton.cpp): one group's encodings compared
// with Triton's own layouts.
#pragma once

#include "Sweep.h"
#include "TritonPeer.h"

#include "llcheck/core/Error.h"

#include <cstdint>
#include <optional>

namespace llcheck::fuzz::sweep {

/// Compares every encoding of group `index` with Triton's own layout for it (asked of `peer` in
/// batches of options.tritonBatch), adding the counts and failures to `report`. An Error when
/// the peer fails or answers no layout.
std::optional<Error> runGroupAgainstTriton(const SweepGroup& g, uint64_t index,
                                           const SweepOptions& o, SweepReport& report,
                                           TritonPeer& peer);

} // namespace llcheck::fuzz::sweep
