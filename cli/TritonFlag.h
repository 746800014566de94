// --triton VERSION, shared by every command that reads encodings or TTGIR: which Triton
// release's semantics an attribute has (llcheck/core/TritonVersion.h).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/TritonVersion.h"

#include <CLI/CLI.hpp>

#include <string>

namespace llcheck::cli {

/// The version `text` names, or an Error located at `where` ("--triton", or a batch line's
/// "triton" key) that lists the supported ones.
inline Result<TritonVersion> parseTritonOption(const std::string& text, const std::string& where) {
  return parseTritonVersionOrError(text, where);
}

/// Adds --triton to `cmd`, storing the text in `into` (checked by parseTritonOption when used).
inline CLI::Option* addTritonOption(CLI::App* cmd, std::string& into) {
  into = tritonVersionName(kNewestTriton);
  return cmd
      ->add_option("--triton", into,
                   "Triton release whose semantics the encodings and TTGIR have: " +
                       supportedTritonList() + " (default " + tritonVersionName(kNewestTriton) +
                       ", the newest; docs/triton-versions.md lists the differences)")
      ->type_name("VERSION");
}

} // namespace llcheck::cli
