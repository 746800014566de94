// The readers of the AMD encodings: #ttg.amd_mfma, #ttg.amd_wmma and #ttg.dot_op of either.
#include "AttrReading.h"

namespace llcheck::encodings {

Result<LinearLayout> amdDotOperandEncoding(const AttrValue& attr, const AttrValue& parent,
                                           int64_t /*opIdx*/, int64_t /*kWidth*/,
                                           const SpecOptions& /*options*/,
                                           const std::string& source) {
  return makeError("#ttg.dot_op with parent #" + parent.text + " is not supported yet",
                   attrLocation(source, attr));
}

} // namespace llcheck::encodings
