// The answers of `llcheck convert`, `llcheck bank-conflicts` and `llcheck gather`: the conversion
// plan of two layouts (with its properties, ConvertProofs.h), the shared-memory bank model and
// the gather plan, as text or as JSON. The command line and the Python module both print
// through these, so they give the same answers.
#pragma once

#include "llcheck/core/Spec.h"
#include "llcheck/core/TritonVersion.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include "llcheck/verdict/ConvertProperties.h"

#include <iosfwd>
#include <string>

namespace llcheck::verdict {

struct ConversionRequest {
  LoadedLayout src, dst;
  std::string dtype;
  int elementBits = 16;
  SharedMemoryModel model;
  bool json = false;
  /// --triton: the release whose encodings SRC and DST were read with, whose
  /// invertAndCompose picks the conversion, and whose lowering --lowering triton models.
  TritonVersion triton = kNewestTriton;
  /// convert: checks and proves the plan's properties (the command line's proveConvert); empty
  /// leaves "properties" out.
  ConvertProver properties = nullptr;
  /// --lowering triton: store and load are what Triton `triton` emits, llcheck's beside them.
  bool tritonLowering = false;
};

/// Each returns the exit status (0 ok, 1 a check failed or Z3 could not decide one, 2 bad
/// input); a bad-input message (one line) goes to errorMessage, an "unknown" line to stderr.
int runConvert(const ConversionRequest& request, std::ostream& out, std::string& errorMessage);
int runBankConflicts(const ConversionRequest& request, std::ostream& out,
                     std::string& errorMessage);

/// `llcheck gather SPEC --axis A` (paper 5.5): does a gather along A stay within a warp, and
/// how many shuffle rounds it takes.
int runGather(const LoadedLayout& layout, int axis, bool json, std::ostream& out,
              std::string& errorMessage);

} // namespace llcheck::verdict
