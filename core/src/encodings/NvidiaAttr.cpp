// The readers of the NVIDIA encodings: #ttg.nvidia_mma and #ttg.dot_op of it or of #ttg.blocked.
#include "AttrReading.h"

namespace llcheck::encodings {

Result<LinearLayout> nvidiaDotOperandEncoding(const AttrValue& attr, const AttrValue& parent,
                                              int64_t /*opIdx*/, int64_t /*kWidth*/,
                                              const SpecOptions& /*options*/,
                                              const std::string& source) {
  return makeError("#ttg.dot_op with parent #" + parent.text + " is not supported yet",
                   attrLocation(source, attr));
}

} // namespace llcheck::encodings
