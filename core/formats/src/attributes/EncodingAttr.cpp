// The dispatch from an encoding attribute's name to its reader (the other files of attributes/;
// the layout algorithms are in core/encodings/). A reader whose attribute holds another (a slice's
// or a dot operand's parent) reads it back through here, by the public header: the readers and
// the dispatch are one unit, which nothing else in formats/ includes but through EncodingAttr.h.
#include "llcheck/core/EncodingAttr.h"

#include "AttrReading.h"

#include <string>
#include <string_view>

namespace llcheck {

Result<LinearLayout> attributeToLayout(const AttrValue& attr, const LayoutContext& options,
                                       const std::string& source) {
  if (attr.kind == AttrValue::Kind::Alias)
    return makeError("#" + attr.text +
                         " is an alias; a standalone SPEC must spell the attribute out "
                         "(aliases are resolved inside TTGIR files)",
                     attrLocation(source, attr));
  // Older Triton printed the dialect as triton_gpu; only that spelling needs a new string.
  std::string renamed;
  std::string_view name = attr.text;
  if (name.starts_with("triton_gpu.")) {
    renamed = "ttg." + std::string(name.substr(11));
    name = renamed;
  }
  using Reader =
      Result<LinearLayout> (*)(const AttrValue&, const LayoutContext&, const std::string&);
  struct Entry {
    const char* name;
    Reader read;
  };
  // One row per encoding; the readers live in encodings/.
  // clang-format off
  static constexpr Entry kReaders[] = {
      {"ttg.linear", encodings::linearEncoding},
      {"ttg.generic_linear", encodings::genericLinearEncoding},
      {"ttg.blocked", encodings::blockedEncoding},
      {"ttg.slice", encodings::sliceEncoding},
      {"ttg.dot_op", encodings::dotOperandEncoding},
      {"ttg.amd_mfma", encodings::amdMfmaEncoding},
      {"ttg.amd_wmma", encodings::amdWmmaEncoding},
      {"ttg.nvidia_mma", encodings::nvidiaMmaEncoding},
      {"ttg.swizzled_shared", encodings::swizzledSharedEncoding},
      {"ttg.amd_rotating_shared", encodings::amdRotatingSharedEncoding},
      {"ttg.nvmma_shared", encodings::nvmmaSharedEncoding},
      {"ttg.shared_linear", encodings::sharedLinearEncoding},
      {"ttg.padded_shared", encodings::paddedSharedEncoding},
      {"ttng.tensor_memory_encoding", encodings::tensorMemoryEncoding},
  };
  // clang-format on
  for (const Entry& e : kReaders)
    if (name == e.name)
      return e.read(attr, options, source);
  std::string supported;
  for (const Entry& e : kReaders)
    supported += (supported.empty() ? "#" : ", #") + std::string(e.name);
  return makeError("encoding #" + attr.text + " is not supported yet (supported: " + supported +
                       ")",
                   attrLocation(source, attr));
}

} // namespace llcheck
