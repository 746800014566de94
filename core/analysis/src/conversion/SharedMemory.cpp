// The per-architecture constants and phase rules of the bank model (see SharedMemory.h).
#include "llcheck/core/conversion/SharedMemory.h"

#include <array>
#include <utility>

namespace llcheck {

namespace {

/// Lane indices 1, 2, 4, ... 2^(bits-1): phases of 2^bits consecutive lanes.
std::vector<uint64_t> consecutiveLanes(int bits) {
  std::vector<uint64_t> lanes;
  for (int i = 0; i < bits; ++i)
    lanes.push_back(uint64_t{1} << i);
  return lanes;
}

int log2Exact(int v) {
  int l = 0;
  while ((1 << l) < v)
    ++l;
  return l;
}

} // namespace

std::vector<uint64_t>
SharedMemoryModel::phaseLanes(int bytesPerLane, SharedAccessKind kind,
                              const std::vector<uint64_t>& laneColumns) const {
  int laneBits = log2Exact(warpSize);
  // One phase serves at most rowBytes(): the lanes of a phase together cover one row of banks
  // when each accesses at least one bank's width.
  int perPhaseBits = log2Exact(rowBytes() / std::max(bytesPerLane, bankBytes));
  auto broadcast = [&](std::size_t i) { return i < laneColumns.size() && laneColumns[i] == 0; };
  if (pairedLaneLoads && kind == SharedAccessKind::Load && bytesPerLane > bankBytes &&
      (broadcast(0) || broadcast(1)))
    ++perPhaseBits;
  perPhaseBits = std::min(perPhaseBits, laneBits);
  // gfx942's ds_read_b128 pairs two groups of 4 lanes 20 apart (published by AMD, see header).
  if (arch == "gfx942" && bytesPerLane == 16 && kind == SharedAccessKind::Load)
    return {1, 2, 20};
  return consecutiveLanes(perPhaseBits);
}

const std::vector<std::string>& sharedMemoryArchs() {
  static const std::vector<std::string> archs = {"sm90", "sm80", "gfx942", "gfx950"};
  return archs;
}

Result<SharedMemoryModel> sharedMemoryModel(std::string_view arch) {
  if (arch == "sm90")
    return SharedMemoryModel{"sm90",
                             32,
                             4,
                             32,
                             16,
                             /*ldmatrix=*/true,
                             /*stmatrix=*/true,
                             /*pairedLaneLoads=*/true};
  if (arch == "sm80")
    return SharedMemoryModel{"sm80", 32, 4, 32, 16, /*ldmatrix=*/true, /*stmatrix=*/false};
  if (arch == "gfx942")
    return SharedMemoryModel{"gfx942", 32, 4, 64, 16, false, false};
  if (arch == "gfx950")
    return SharedMemoryModel{"gfx950", 64, 4, 64, 16, false, false};
  std::string names;
  for (const std::string& a : sharedMemoryArchs())
    names += (names.empty() ? "" : ", ") + a;
  return contextError(ContextItem::Arch,
                      "unknown architecture '" + utf8Prefix(arch, 32) + "' (expected " + names +
                          ")",
                      contextName(ContextItem::Arch));
}

std::string sharedMemoryAssumptions() {
  return "Bank model: 4-byte banks; within a phase each bank serves one distinct word per "
         "wavefront, equal words are broadcast; bank conflicts = wavefronts - phases.\n"
         "  sm90, sm80: 32 banks, 32 lanes; <=4 B/lane 1 phase, 8 B 2 phases of 16 lanes, 16 B 4 "
         "phases of 8 lanes (measured on an H200); sm90 loads of 8 or 16 B whose lanes pair up "
         "(every lane reads lane^1's address, or every lane lane^2's) serve twice the lanes per "
         "phase (measured on an H200; sm80 not measured: unpaired); ldmatrix (sm80, sm90) and "
         "stmatrix (sm90): one phase of 8 lanes x 16 bytes per 8x8 matrix.\n"
         "  gfx942: 32 banks, 64 lanes; <=4 B 2 phases of 32, b64 4 of 16, ds_write_b128 8 of 8 "
         "consecutive lanes, ds_read_b128 8 of {0-3,20-23},{4-7,16-19},{8-11,28-31},{12-15,24-27}"
         " (+32) (AMD's published rules; not measured).\n"
         "  gfx950: 64 banks, 64 lanes; <=4 B 1 phase, b64 2 of 32, b128 4 of 16 consecutive lanes "
         "(assumed; not measured).";
}

Result<int> dtypeBits(std::string_view dtype) {
  static const std::array<std::pair<std::string_view, int>, 22> kWidths = {{
      {"i8", 8},         {"u8", 8},         {"f8", 8},   {"f8E4M3FN", 8}, {"f8E5M2", 8},
      {"f8E4M3FNUZ", 8}, {"f8E5M2FNUZ", 8}, {"i16", 16}, {"u16", 16},     {"f16", 16},
      {"bf16", 16},      {"i32", 32},       {"u32", 32}, {"f32", 32},     {"tf32", 32},
      {"i64", 64},       {"u64", 64},       {"f64", 64}, {"fp8", 8},      {"fp16", 16},
      {"fp32", 32},      {"fp64", 64},
  }};
  for (const auto& [name, bits] : kWidths)
    if (name == dtype)
      return bits;
  return contextError(ContextItem::Dtype,
                      "unknown dtype '" + utf8Prefix(dtype, 32) +
                          "' (expected one of i8, u8, f8, f8E4M3FN, f8E5M2, i16, f16, bf16, i32, "
                          "f32, tf32, i64, f64)",
                      contextName(ContextItem::Dtype));
}

} // namespace llcheck
