// The fix a finding proposes, spelled out so that an engineer can paste it (issue 33): the
// better layout as the TTGIR attribute Triton prints and as the Gluon constructor that builds
// it. Each text is read back by llcheck's own attribute reader and compared with the layout it
// stands for before it is shown; one that does not read back is a bug in llcheck, said so.
#pragma once

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llcheck::reports::detail {

/// The module Gluon's layout classes are spelled from (Triton's own tutorials name it `gl`).
inline constexpr const char* kGluonImport = "from triton.experimental.gluon import language as gl";

struct SpelledLayout {
  std::string attribute; ///< TTGIR: #ttg.shared_linear<...>, #ttg.nvmma_shared<...>, ...
  std::string gluon;     ///< gl.SharedLinearLayout(...), gl.NVMMASharedLayout(...), ...
  LinearLayout layout;   ///< what the attribute reads back as
};

/// A shared layout (offset [, block] -> dim0, dim1, ...) over `shape` as #ttg.shared_linear and
/// gl.SharedLinearLayout. An error when the attribute, read back over `shape` with `triton`'s
/// semantics, is not the same layout.
[[nodiscard]] Result<SpelledLayout> spellSharedLinear(const LinearLayout& shared,
                                                      const std::vector<uint64_t>& shape,
                                                      TritonVersion triton);

/// An #ttg.nvmma_shared attribute (as admissibleNvmma writes it) and its gl.NVMMASharedLayout
/// over a tensor of `shape`; an error when a field is missing or the attribute does not read.
[[nodiscard]] Result<SpelledLayout>
spellNvmma(const std::string& attribute, const std::vector<uint64_t>& shape, TritonVersion triton);

/// A #ttg.blocked of one CTA and its gl.BlockedLayout.
[[nodiscard]] SpelledLayout spellBlocked(const BlockedParams& params);

/// The wavefronts an MMA reader (wgmma, tcgen05.mma) takes to read a shared layout (offset ->
/// dim0, dim1, ...) through its matrix descriptor, modelled: the operand is read as core
/// matrices of 8 rows x 16 contiguous bytes (PTX ISA, "Matrix Descriptor"), each one 128-byte
/// request whose wavefronts are the most of its 8 rows that fall in one 16-byte bank group.
/// No hardware counter measures these reads (ncu's shared wavefronts are the LSU's). nullopt
/// where the layout is not made of such core matrices (its 16-byte pieces not contiguous) or is
/// too large to enumerate (over 2^20 elements).
[[nodiscard]] std::optional<uint64_t> coreMatrixReadWavefronts(const LinearLayout& shared,
                                                               int elementBits);

/// A fix's cost as one line: "128 + 256 = 384 wavefronts (st.shared.b16, ld.shared.b16)", or
/// "16 requests, 256 sectors (ld.global.v4.b32)" for a global access.
[[nodiscard]] std::string fixCostText(const nlohmann::json& cost);

/// Whether `a` and `b` map every input alike (input dims of size 1 aside).
[[nodiscard]] bool sameLayout(const LinearLayout& a, const LinearLayout& b);

} // namespace llcheck::reports::detail
