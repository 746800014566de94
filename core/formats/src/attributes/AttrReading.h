// Private to core/formats: the pieces every encoding reader shares (checked dictionaries, integer
// arrays, bases, the shape), and the reader of each encoding family. A reader takes the parsed
// attribute, checks every field with its position in the text, and calls the pure algorithm in
// llcheck/core/Encodings.h. EncodingAttr.cpp dispatches on the attribute name.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/LayoutContext.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/encodings/Shared.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck::encodings {

/// The one dictionary of `#NAME<{...}>`, its keys checked against `known` (each at most once)
/// and `required` present.
[[nodiscard]] Result<const AttrValue*>
encodingDict(const AttrValue& attr, const std::string& name,
             std::initializer_list<std::string_view> known,
             std::initializer_list<std::string_view> required, const std::string& source);

/// encodingDict's checks of the dictionary itself, for an attribute whose form the caller has
/// checked (no copy of the attribute needed to call encodingDict).
[[nodiscard]] Result<const AttrValue*> checkedDict(const AttrValue& dict, const std::string& name,
                                                   std::initializer_list<std::string_view> known,
                                                   std::initializer_list<std::string_view> required,
                                                   const std::string& source);

/// [a, b, ...] of non-negative integers (at most 2^32), exactly `rank` of them.
[[nodiscard]] Result<std::vector<uint64_t>> readIntArray(const AttrValue& v, const std::string& key,
                                                         std::size_t rank, bool powerOfTwo,
                                                         const std::string& source);

/// [[a, b], [c, d], ...] -> bases, every inner array of the same length (the rank); `rank` is
/// set from the first basis when not given.
[[nodiscard]] Result<std::vector<std::vector<uint64_t>>>
readBasesArray(const AttrValue& v, const std::string& key, std::optional<std::size_t>& rank,
               const std::string& source);

/// CGALayout = [[...], ...] (v may be null: no CGA layout, one CTA): one basis per block bit,
/// each with `rank` entries, each 0 or a power of two (the block -> dims bases Triton prints).
[[nodiscard]] Result<std::vector<std::vector<uint64_t>>>
readCgaBases(const AttrValue* v, std::size_t rank, const std::string& source);

/// options.shape, which the encodings whose layout depends on it require (rank >= 1, powers of
/// two).
[[nodiscard]] Result<std::vector<uint64_t>> requireShape(const AttrValue& attr,
                                                         const std::string& name,
                                                         const LayoutContext& options,
                                                         const std::string& source);

// The readers, one per encoding (the name without '#', "ttg.blocked").
[[nodiscard]] Result<LinearLayout>
linearEncoding(const AttrValue& attr, const LayoutContext& options, const std::string& source);
[[nodiscard]] Result<LinearLayout> genericLinearEncoding(const AttrValue& attr,
                                                         const LayoutContext& options,
                                                         const std::string& source);
[[nodiscard]] Result<LinearLayout>
blockedEncoding(const AttrValue& attr, const LayoutContext& options, const std::string& source);
[[nodiscard]] Result<LinearLayout>
sliceEncoding(const AttrValue& attr, const LayoutContext& options, const std::string& source);
/// #ttg.nvidia_mma (NvidiaAttr.cpp).
[[nodiscard]] Result<LinearLayout>
nvidiaMmaEncoding(const AttrValue& attr, const LayoutContext& options, const std::string& source);

} // namespace llcheck::encodings

namespace llcheck::encodings {

/// #ttg.dot_op<{opIdx, parent, kWidth}>: DotOperandAttr.cpp reads and checks the three fields
/// and hands the parent to its family's reader below. kWidth is 0 where the attribute has none.
[[nodiscard]] Result<LinearLayout>
dotOperandEncoding(const AttrValue& attr, const LayoutContext& options, const std::string& source);

/// dot_op of #ttg.nvidia_mma (versionMajor 2 or 3) or #ttg.blocked (NvidiaAttr.cpp).
[[nodiscard]] Result<LinearLayout>
nvidiaDotOperandEncoding(const AttrValue& attr, const AttrValue& parent, int64_t opIdx,
                         int64_t kWidth, const LayoutContext& options, const std::string& source);

/// #ttg.amd_mfma and #ttg.amd_wmma (AmdAttr.cpp).
[[nodiscard]] Result<LinearLayout>
amdMfmaEncoding(const AttrValue& attr, const LayoutContext& options, const std::string& source);
[[nodiscard]] Result<LinearLayout>
amdWmmaEncoding(const AttrValue& attr, const LayoutContext& options, const std::string& source);

/// dot_op of #ttg.amd_mfma or #ttg.amd_wmma (AmdAttr.cpp).
[[nodiscard]] Result<LinearLayout>
amdDotOperandEncoding(const AttrValue& attr, const AttrValue& parent, int64_t opIdx, int64_t kWidth,
                      const LayoutContext& options, const std::string& source);

} // namespace llcheck::encodings

namespace llcheck::encodings {

// The shared-memory and tensor-memory encodings (SharedAttr.cpp; algorithms in Shared.cpp).
[[nodiscard]] Result<LinearLayout> swizzledSharedEncoding(const AttrValue& attr,
                                                          const LayoutContext& options,
                                                          const std::string& source);
[[nodiscard]] Result<LinearLayout> amdRotatingSharedEncoding(const AttrValue& attr,
                                                             const LayoutContext& options,
                                                             const std::string& source);
[[nodiscard]] Result<LinearLayout>
nvmmaSharedEncoding(const AttrValue& attr, const LayoutContext& options, const std::string& source);
[[nodiscard]] Result<LinearLayout> sharedLinearEncoding(const AttrValue& attr,
                                                        const LayoutContext& options,
                                                        const std::string& source);
/// The linear component of #ttg.padded_shared; its padding comes from paddedSharedPadding.
[[nodiscard]] Result<LinearLayout> paddedSharedEncoding(const AttrValue& attr,
                                                        const LayoutContext& options,
                                                        const std::string& source);
[[nodiscard]] Result<std::vector<IntervalPad>>
paddedSharedPadding(const AttrValue& attr, const LayoutContext& options, const std::string& source);
[[nodiscard]] Result<LinearLayout> tensorMemoryEncoding(const AttrValue& attr,
                                                        const LayoutContext& options,
                                                        const std::string& source);

} // namespace llcheck::encodings
