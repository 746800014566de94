// Triton itself as the peer of a sweep (`llcheck sweep FAMILY --against triton-VERSION`): its
// own `to_linear_layout`, asked through the Python helper fuzz/sweep/triton_layouts.py, run by
// the Python of a virtualenv that has that Triton release. The helper answers JSON lines in
// batches (the protocol is at the top of triton_layouts.py); several helpers answer one batch
// side by side, each a share of it.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/TritonVersion.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace llcheck::fuzz {

class TritonPeer {
public:
  /// Starts `jobs` helpers (`python helper --expect 3.9`) and reads each one's greeting. An
  /// Error naming `python` when it cannot be run, cannot import Triton's Gluon, or has another
  /// Triton release than `version`.
  [[nodiscard]] static Result<std::unique_ptr<TritonPeer>>
  start(const std::string& python, const std::string& helper, TritonVersion version, int jobs);
  /// Closes the helpers' input and waits for them.
  ~TritonPeer();
  TritonPeer(const TritonPeer&) = delete;
  TritonPeer& operator=(const TritonPeer&) = delete;

  /// Triton's answer for each request ({"id", "spec", "shape"}), in order: {"id", "ins", "outs"}
  /// or {"id", "error", "stage"}. An Error when a helper dies or breaks the protocol.
  [[nodiscard]] Result<std::vector<nlohmann::json>>
  ask(const std::vector<nlohmann::json>& requests);

  /// The release the helpers imported ("3.9.0").
  [[nodiscard]] const std::string& version() const { return version_; }

private:
  struct Helper {
    pid_t pid = -1;
    int in = -1;         ///< its stdin
    FILE* out = nullptr; ///< its stdout
  };
  TritonPeer() = default;
  std::vector<Helper> helpers_;
  std::string version_, python_;
};

} // namespace llcheck::fuzz
