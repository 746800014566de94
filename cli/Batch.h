// `llcheck batch FILE`: many attribute conversions in one process, for conformance runs against
// Triton and for scripts. FILE holds one JSON object per line:
//   {"id": <any>, "attr": "#ttg.blocked<...>", "shape": [64, 16], "num_warps": 4,
//    "threads_per_warp": 32, "triton": "3.6"}
// (all but "attr" optional; null means not given; "triton" defaults to --triton's version).
// Each line is answered on stdout, in order, by
//   {"id": <same>, "layout": <Layout JSON v1>}   or   {"id": <same>, "error": "<message>"}
// exactly as `llcheck layout ATTR --shape ... --format json` would answer it. A line that is not
// such an object stops the run with exit status 2 and its line number.
#pragma once

#include "llcheck/core/TritonVersion.h"

#include <iosfwd>
#include <string>

namespace llcheck::cli {

/// Runs the batch in `path` ("-" for stdin). Returns the exit status; a fatal problem is
/// written to `errorMessage` (one line, caller prints it).
int runBatch(const std::string& path, std::ostream& out, std::string& errorMessage,
             TritonVersion triton = kNewestTriton);

} // namespace llcheck::cli
