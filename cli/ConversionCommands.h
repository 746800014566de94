// `llcheck convert` and `llcheck bank-conflicts`: the conversion plan of two layouts and the
// shared-memory bank model, printed as text or as the JSON of the design doc's contract.
#pragma once

#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <iosfwd>
#include <string>

namespace llcheck::cli {

struct ConversionRequest {
  LoadedLayout src, dst;
  std::string dtype;
  int elementBits = 16;
  SharedMemoryModel model;
  bool json = false;
};

/// Each returns the exit status (0 ok, 1 a check failed, 2 bad input); a bad-input message
/// (one line) goes to errorMessage.
int runConvert(const ConversionRequest& request, std::ostream& out, std::string& errorMessage);
int runBankConflicts(const ConversionRequest& request, std::ostream& out,
                     std::string& errorMessage);

} // namespace llcheck::cli
