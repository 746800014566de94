// Progress lines on stderr for long enumerations (`verify --max-enumeration-bits` up to 28) and
// sweeps: stdout, and so the text and JSON results, never sees them.
#pragma once

#include "llcheck/core/Enumeration.h"

#include "sweep/Sweep.h"

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

/// `sweep`'s line, for a terminal only (a job engine's log would fill with it): the groups done
/// of this shard's, the rate and the time left, rewritten at most every 250 ms and erased at the
/// end. The time left is this run's rate over the estimated cost still to do (planSweep), so a
/// resumed shard's earlier groups do not count as this run's speed.
class SweepProgressLine {
public:
  /// `what` names the sweep ("blocked 1/3").
  explicit SweepProgressLine(std::string what);
  ~SweepProgressLine();
  SweepProgressLine(const SweepProgressLine&) = delete;
  SweepProgressLine& operator=(const SweepProgressLine&) = delete;

  void update(const fuzz::SweepProgress& p);
  /// Erases the line.
  void done();

private:
  std::string what_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

/// A line for commands that work through a known number of items (`report`: files), for a
/// terminal only: done/total, the rate and the time left, rewritten at most every 250 ms once
/// the run has taken a second, erased at the end.
class CountProgressLine {
public:
  /// `what` names the command, `unit` the items ("files").
  CountProgressLine(std::string what, std::string unit);
  ~CountProgressLine();
  CountProgressLine(const CountProgressLine&) = delete;
  CountProgressLine& operator=(const CountProgressLine&) = delete;

  void update(std::size_t done, std::size_t total);
  /// Erases the line.
  void done();

private:
  std::string what_, unit_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

} // namespace llcheck::cli
