// Which Triton's semantics an answer follows. Encodings and the compiler's lowering changed
// between releases (docs/triton-versions.md lists every difference llcheck knows, each with a
// minimal example); a TTGIR dump or an attribute means what the Triton that wrote it says.
#pragma once

#include "llcheck/core/Error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

/// The Triton releases llcheck follows: 3.6 (what PyTorch 2.11 ships) and 3.9 (the newest on
/// PyPI). The newest is the default.
enum class TritonVersion { v3_6, v3_9 };

inline constexpr TritonVersion kNewestTriton = TritonVersion::v3_9;

/// "3.6", "3.9".
[[nodiscard]] inline std::string tritonVersionName(TritonVersion v) {
  switch (v) {
  case TritonVersion::v3_6:
    return "3.6";
  case TritonVersion::v3_9:
    return "3.9";
  }
  return "?";
}

[[nodiscard]] inline std::vector<TritonVersion> supportedTritonVersions() {
  return {TritonVersion::v3_6, TritonVersion::v3_9};
}

/// "3.6", "3.6.0", "3.6.x", "3.9", "3.9.0", "3.9.x" (any patch number); nullopt otherwise.
[[nodiscard]] inline std::optional<TritonVersion> parseTritonVersion(std::string_view text) {
  for (TritonVersion v : supportedTritonVersions()) {
    std::string name = tritonVersionName(v);
    if (text == name)
      return v;
    if (text.size() > name.size() + 1 && text.substr(0, name.size()) == name &&
        text[name.size()] == '.') {
      std::string_view patch = text.substr(name.size() + 1);
      bool digits = patch == "x";
      if (!digits) {
        digits = !patch.empty() && patch.size() <= 4;
        for (char c : patch)
          digits = digits && c >= '0' && c <= '9';
      }
      if (digits)
        return v;
    }
  }
  return std::nullopt;
}

/// "3.6, 3.9".
[[nodiscard]] inline std::string supportedTritonList() {
  std::string s;
  for (TritonVersion v : supportedTritonVersions())
    s += (s.empty() ? "" : ", ") + tritonVersionName(v);
  return s;
}

/// The version `text` names, or an Error located at `where` (the option or key that gave it)
/// that lists the supported ones.
[[nodiscard]] inline Result<TritonVersion> parseTritonVersionOrError(const std::string& text,
                                                                     const std::string& where) {
  if (auto v = parseTritonVersion(text))
    return *v;
  return makeError("unknown Triton version '" + text.substr(0, 32) +
                       "'; supported: " + supportedTritonList(),
                   where);
}

} // namespace llcheck
