// The enumeration's progress line (see Progress.h).
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

} // namespace llcheck::cli
