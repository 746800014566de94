// The pieces of HwLayout.cpp the family decoders (HwDecode.cpp) share; not a public interface.
#pragma once

#include "llcheck/gpu_oracle/HwLayout.h"
#include "llcheck/gpu_oracle/InstructionProbes.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llcheck::hwlayout::detail {

/// The layout of an encoding attribute over `shape`, as `llcheck layout ATTR --shape` gives it.
[[nodiscard]] Result<LinearLayout> encodingLayout(const std::string& attr,
                                                  const std::vector<uint64_t>& shape);

/// L at the given inputs (by name; inputs L lacks must be 0, the others are 0), one value per
/// out dim of L.
[[nodiscard]] std::vector<uint64_t> evalAt(const LinearLayout& layout,
                                           const std::vector<std::pair<DimName, uint64_t>>& in);

/// `layout` on the inputs `ins` (the first 2^sizeLog2 values of each, every other input 0),
/// as an ObservedMap over `outs`; values outside `outs` make the fit fail with that input.
[[nodiscard]] ObservedMap sampleLayout(const LinearLayout& layout, const std::vector<Dim>& ins,
                                       const std::vector<DimSize>& outs);

/// llcheck's encoding restricted to one instruction: sampleLayout, fitted.
[[nodiscard]] Result<LinearLayout> restrictedEncoding(const std::string& attr,
                                                      const std::vector<uint64_t>& shape,
                                                      const std::vector<Dim>& ins,
                                                      const std::vector<DimSize>& outs);

/// Fits `hardware` and compares it with `expected`.
[[nodiscard]] LayoutComparison compareMaps(std::string what, std::string encoding,
                                           const ObservedMap& hardware,
                                           const Result<LinearLayout>& expected);

[[nodiscard]] std::vector<DimSize> tileOuts(const std::vector<uint64_t>& sizes);
[[nodiscard]] int log2Exact(uint64_t v);
[[nodiscard]] std::string attrText(const char* name, const std::string& body);
[[nodiscard]] std::string mmaV2Parent(const std::vector<uint64_t>& warps);
/// Rank 3 (a batch dim first): instrShape [1, 16, 8].
[[nodiscard]] std::string mmaV2ParentRank3(const std::vector<uint64_t>& warps);
[[nodiscard]] std::string mmaV3Parent(const std::vector<uint64_t>& warps, int n, int k);
[[nodiscard]] std::string dotOperand(int opIdx, const std::string& parent, int kWidth);
/// The native kWidth of an mma operand type: 32 bits of K per thread (1 for tf32 and f64).
[[nodiscard]] int nativeKWidth(hwprobe::Elem e);
[[nodiscard]] std::string instructionText(const hwprobe::Probe& p);

/// What the decoders keep, by probe id: the measured tiles equal to llcheck's (the tiling
/// checks start from these), and every wgmma accumulator read (the A-in-registers probes read
/// rows through it, equal to llcheck's or not).
struct Tiles {
  std::map<std::string, LinearLayout> accumulator, operandA, operandB;
  std::map<std::string, LinearLayout> wgmmaAccumulatorRead;
};

void decodeMma(const hwprobe::Probe& p, const nlohmann::json& observed, ProbeReport& report,
               Tiles& tiles);
void decodeWgmmaSS(const hwprobe::Probe& p, const nlohmann::json& observed, ProbeReport& report,
                   Tiles& tiles);
void decodeWgmmaRS(const hwprobe::Probe& p, const nlohmann::json& observed, ProbeReport& report,
                   Tiles& tiles);
void decodeMatrix(const hwprobe::Probe& p, const nlohmann::json& observed, ProbeReport& report);
void decodeTma(const hwprobe::Probe& p, const nlohmann::json& observed, ProbeReport& report);
void decodeCpAsync(const hwprobe::Probe& p, const nlohmann::json& observed, ProbeReport& report);

/// The results file against its schema (HwResults.cpp): types, ranges, sizes, every field
/// known, every probe of the catalogue at most once. An Error names the path of the bad field.
[[nodiscard]] Result<bool> checkSchema(const nlohmann::json& results);

/// The tiling checks of every measured tile (see HwLayout.h).
[[nodiscard]] std::vector<TilingCheck> tilingChecks(const Tiles& tiles);

} // namespace llcheck::hwlayout::detail
