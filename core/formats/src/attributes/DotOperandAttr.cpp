// The reader of #ttg.dot_op<{opIdx = 0, parent = #..., kWidth = 2}>: it checks the fields every
// parent shares and hands the rest to the parent's family (NVIDIA or AMD).
#include "AttrReading.h"

namespace llcheck::encodings {

Result<LinearLayout> dotOperandEncoding(const AttrValue& attr, const LayoutContext& options,
                                        const std::string& source) {
  const std::string name = "ttg.dot_op";
  auto dict = encodingDict(attr, name, {"opIdx", "parent", "kWidth"}, {"opIdx", "parent"}, source);
  if (!dict.ok())
    return dict.error();
  const AttrValue* opIdx = (*dict)->find("opIdx");
  if (opIdx->kind != AttrValue::Kind::Integer || (opIdx->integer != 0 && opIdx->integer != 1))
    return makeError("opIdx must be 0 (operand A) or 1 (operand B)", attrLocation(source, *opIdx));
  int64_t kWidth = 0;
  if (const AttrValue* k = (*dict)->find("kWidth")) {
    if (k->kind != AttrValue::Kind::Integer || k->integer <= 0 || k->integer > 4096)
      return makeError("kWidth must be a positive integer of at most 4096",
                       attrLocation(source, *k));
    kWidth = k->integer;
  }
  const AttrValue* parent = (*dict)->find("parent");
  if (parent->kind != AttrValue::Kind::Attribute)
    return makeError("parent must be an encoding attribute (#ttg.nvidia_mma, #ttg.amd_mfma, "
                     "#ttg.amd_wmma or #ttg.blocked), got a " +
                         std::string(parent->kindName()),
                     attrLocation(source, *parent));
  std::string parentName = parent->text;
  if (parentName.rfind("triton_gpu.", 0) == 0)
    parentName = "ttg." + parentName.substr(11);
  if (parentName == "ttg.nvidia_mma" || parentName == "ttg.blocked")
    return nvidiaDotOperandEncoding(attr, *parent, opIdx->integer, kWidth, options, source);
  if (parentName == "ttg.amd_mfma" || parentName == "ttg.amd_wmma")
    return amdDotOperandEncoding(attr, *parent, opIdx->integer, kWidth, options, source);
  return makeError("#ttg.dot_op cannot have the parent #" + parent->text +
                       " (expected #ttg.nvidia_mma, #ttg.amd_mfma, #ttg.amd_wmma or #ttg.blocked)",
                   attrLocation(source, *parent));
}

} // namespace llcheck::encodings
