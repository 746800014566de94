// A progress line on stderr for long enumerations (`verify --max-enumeration-bits` up to 28):
// stdout, and so the text and JSON results, never sees it.
#pragma once

#include "llcheck/core/Enumeration.h"

#include <chrono>
#include <string>

namespace llcheck::cli {

/// On a terminal, one line rewritten in place once the enumeration has run a second, erased when
/// it ends; elsewhere (a CI log), a line every 10 s once it has run 5 s. Quick enumerations print
/// nothing.
class EnumerationProgressLine {
public:
  /// `what` names the layout ("layout.json, 2^28 inputs").
  explicit EnumerationProgressLine(std::string what);
  ~EnumerationProgressLine();
  EnumerationProgressLine(const EnumerationProgressLine&) = delete;
  EnumerationProgressLine& operator=(const EnumerationProgressLine&) = delete;

  /// The callback for VerifyOptions::progress; valid while this object lives.
  [[nodiscard]] EnumerationProgress callback();
  /// Ends the line (on a terminal: erases it).
  void done();

private:
  void update(std::string_view phase, uint64_t doneSteps, uint64_t total);

  std::string what_;
  bool terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

} // namespace llcheck::cli
