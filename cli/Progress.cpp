// The enumeration's and the sweep's progress lines (see Progress.h).
#include "Progress.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace llcheck::cli {

namespace {
using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kTerminalAfter{1000}, kTerminalEvery{250};
constexpr std::chrono::seconds kLogAfter{5}, kLogEvery{10};
} // namespace

EnumerationProgressLine::EnumerationProgressLine(std::string what)
    : what_(std::move(what)), terminal_(::isatty(STDERR_FILENO) == 1), start_(Clock::now()),
      last_(start_) {}

EnumerationProgressLine::~EnumerationProgressLine() {
  done();
}

EnumerationProgress EnumerationProgressLine::callback() {
  return [this](std::string_view phase, uint64_t doneSteps, uint64_t total) {
    update(phase, doneSteps, total);
  };
}

void EnumerationProgressLine::update(std::string_view phase, uint64_t doneSteps, uint64_t total) {
  auto now = Clock::now();
  auto after = terminal_ ? Clock::duration(kTerminalAfter) : Clock::duration(kLogAfter);
  auto every = terminal_ ? Clock::duration(kTerminalEvery) : Clock::duration(kLogEvery);
  if (now - start_ < after || (shown_ && now - last_ < every))
    return;
  last_ = now;
  shown_ = true;
  // A pass split for memory visits some inputs again: never past 99% before the end.
  int percent = total ? std::min(99, static_cast<int>(100.0 * static_cast<double>(doneSteps) /
                                                      static_cast<double>(total)))
                      : 0;
  long seconds = static_cast<long>(std::chrono::duration<double>(now - start_).count());
  std::string line = "llcheck: enumerating " + what_ + ": " + std::string(phase) + " " +
                     std::to_string(percent) + "% (" + std::to_string(seconds) + " s)";
  if (terminal_)
    std::cerr << "\r" << line << "\033[K" << std::flush;
  else
    std::cerr << line << "\n" << std::flush;
}

void EnumerationProgressLine::done() {
  if (shown_ && terminal_)
    std::cerr << "\r\033[K" << std::flush;
  shown_ = false;
}

SweepProgressLine::SweepProgressLine(std::string what)
    : what_(std::move(what)), last_(Clock::now()) {}

SweepProgressLine::~SweepProgressLine() {
  done();
}

void SweepProgressLine::update(const fuzz::SweepProgress& p) {
  auto now = Clock::now();
  // As the enumeration's line: nothing for a quick sweep, then at most 4 lines a second.
  if (p.seconds < std::chrono::duration<double>(kTerminalAfter).count() ||
      (shown_ && now - last_ < kTerminalEvery))
    return;
  last_ = now;
  shown_ = true;
  double costThisRun = static_cast<double>(p.costDone - p.costResumed);
  double sets = static_cast<double>(p.report->enumerated - p.setsResumed);
  std::string left = "?";
  if (costThisRun > 0) {
    double s = p.seconds * static_cast<double>(p.costTotal - p.costDone) / costThisRun;
    left = s < 120 ? std::to_string(static_cast<long>(s)) + " s"
                   : std::to_string(static_cast<long>(s / 60)) + " min";
  }
  char line[240];
  std::snprintf(line, sizeof line,
                "llcheck: sweep %s: %llu/%llu groups, %.0f parameter sets/s, about %s left",
                what_.c_str(), static_cast<unsigned long long>(p.groupsDone),
                static_cast<unsigned long long>(p.groupsTotal), sets / p.seconds, left.c_str());
  std::cerr << "\r" << line << "\033[K" << std::flush;
}

void SweepProgressLine::done() {
  if (shown_)
    std::cerr << "\r\033[K" << std::flush;
  shown_ = false;
}

CountProgressLine::CountProgressLine(std::string what, std::string unit)
    : what_(std::move(what)), unit_(std::move(unit)), start_(Clock::now()), last_(start_) {}

CountProgressLine::~CountProgressLine() {
  done();
}

void CountProgressLine::update(std::size_t done, std::size_t total) {
  auto now = Clock::now();
  if (now - start_ < kTerminalAfter || (shown_ && now - last_ < kTerminalEvery))
    return;
  last_ = now;
  shown_ = true;
  double seconds = std::chrono::duration<double>(now - start_).count();
  double rate = static_cast<double>(done) / seconds;
  std::string left = "?";
  if (done > 0) {
    double s = static_cast<double>(total - done) / rate;
    left = s < 120 ? std::to_string(static_cast<long>(s)) + " s"
                   : std::to_string(static_cast<long>(s / 60)) + " min";
  }
  char line[240];
  std::snprintf(line, sizeof line, "llcheck: %s: %zu/%zu %s, %.1f %s/s, about %s left",
                what_.c_str(), done, total, unit_.c_str(), rate, unit_.c_str(), left.c_str());
  std::cerr << "\r" << line << "\033[K" << std::flush;
}

void CountProgressLine::done() {
  if (shown_)
    std::cerr << "\r\033[K" << std::flush;
  shown_ = false;
}

} // namespace llcheck::cli
