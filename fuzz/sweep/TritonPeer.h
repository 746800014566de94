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

/// The default of `sweep --triton-timeout`: importing Triton takes seconds and an answer
/// milliseconds; ten minutes of silence is a helper that hangs.
inline constexpr int kTritonHelperTimeoutSeconds = 600;

class TritonPeer {
public:
  /// Starts `jobs` helpers (`python helper --expect 3.9`) and reads each one's greeting. An
  /// Error naming `python` when it cannot be run, cannot import Triton's Gluon, or has another
  /// Triton release than `version`.
  /// A helper that sends nothing for `timeoutSeconds` while llcheck waits for an answer (its
  /// greeting included) is killed and the sweep ends with an Error that says so.
  [[nodiscard]] static Result<std::unique_ptr<TritonPeer>>
  start(const std::string& python, const std::string& helper, TritonVersion version, int jobs,
        int timeoutSeconds = kTritonHelperTimeoutSeconds);
  /// Closes the helpers' input and waits for them (a few seconds, then kills them).
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
    int out = -1;        ///< its stdout
    std::string pending; ///< read from `out`, not yet returned as a line
    bool timedOut = false;
  };
  TritonPeer() = default;
  /// One line of `h`'s, without its newline: an Error when it ends, sends a line past 16 MiB,
  /// or sends nothing for timeoutSeconds_ (then it is killed).
  Result<std::string> readLine(Helper& h);
  std::vector<Helper> helpers_;
  std::string version_, python_;
  int timeoutSeconds_ = kTritonHelperTimeoutSeconds;
};

} // namespace llcheck::fuzz
