// The shared-memory bank model: how a warp-wide shared-memory access is split into wavefronts,
// for NVIDIA's shared memory and AMD's LDS. One model, different constants per architecture.
//
// # The rule (NVIDIA, measured on an H200; see ../shared/docs/design.md)
//
// Shared memory has `banks` banks of `bankBytes` bytes; a 4-byte word w lies in bank
// w mod banks. A warp-wide instruction in which every lane accesses `bytesPerLane` bytes is
// served in *phases*: the lanes of one phase are looked at together, the phases one after the
// other. Within a phase each bank serves one distinct word per wavefront; lanes reading or
// writing the same word share it (broadcast). So a phase takes as many wavefronts as the
// largest number of distinct words any one bank is asked for, and an instruction takes the sum
// over its phases. The ideal is one wavefront per phase; bank conflicts = wavefronts - ideal.
//
//   NVIDIA (sm80, sm90): 32 banks of 4 bytes, 32 lanes. Up to 4 bytes per lane the warp is one
//   phase; 8 bytes per lane: 2 phases of 16 lanes (0-15, 16-31); 16 bytes: 4 phases of 8 lanes.
//
//   Paired lanes (sm90 loads): where every lane reads the same address as lane^1, or every lane
//   the same as lane^2, an 8- or 16-byte *load* serves twice as many lanes per phase: one phase
//   of 32 lanes for 8 bytes, two of 16 for 16 bytes. Measured on an H200 with one-warp
//   ld/st.shared patterns (gpu_oracle/wavefront_rule: 1,622 patterns, every count as this rule
//   says; stores never pair, and neither does lane^3 or any other lane mask). A layout's lanes
//   pair exactly when its lane 1 or lane 2 column is zero (a broadcast lane). sm80 (Ampere) is
//   not measured here and keeps the unpaired rule.
//
// # AMD (assumptions, from AMD's published LDS descriptions; not measured by llcheck)
//
//   gfx942 (CDNA3, also CDNA1/2): 32 banks of 4 bytes, 64-lane waves, 128 bytes per cycle.
//   Up to 4 bytes per lane: 2 phases of 32 lanes; ds_read/write_b64: 4 phases of 16 lanes;
//   ds_write_b128: 8 phases of 8 consecutive lanes; ds_read_b128: 8 phases of lanes
//   {0-3, 20-23}, {4-7, 16-19}, {8-11, 28-31}, {12-15, 24-27} and the same plus 32.
//   gfx950 (CDNA4): 64 banks of 4 bytes, 256 bytes per cycle: 1 phase of 64 lanes up to 4 bytes,
//   2 phases of 32 lanes for b64, 4 phases of 16 consecutive lanes for b128 (reads and writes
//   alike: the b128 read grouping of gfx950 is not published; consecutive lanes are assumed).
//
// Every phase rule above is a *linear* one: the lanes of a phase are a coset of a subspace of
// the lane indices (e.g. {0-3, 20-23} is the span of 1, 2 and 20). `phaseLanes` returns a basis
// of that subspace; this is what makes the bank-conflict count a rank computation (see
// BankConflicts.h).
#pragma once

#include "llcheck/core/Error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

enum class SharedAccessKind { Store, Load };

struct SharedMemoryModel {
  std::string arch; ///< "sm90", "sm80", "gfx942", "gfx950"
  int banks = 32;
  int bankBytes = 4;
  int warpSize = 32;
  /// The widest access one lane may make in one instruction (ld.shared.v4.b32, ds_read_b128).
  int maxAccessBytes = 16;
  /// Warp-wide 8x8 matrix loads (ldmatrix, sm75+) and stores (stmatrix, sm90+) of 16-byte rows:
  /// the optimal-swizzle search considers them where the architecture has them.
  bool ldmatrix = false;
  bool stmatrix = false;
  /// Loads of 8 and 16 bytes whose lanes pair up on one address serve twice the lanes per
  /// phase (see "Paired lanes" above).
  bool pairedLaneLoads = false;

  /// A basis of the lane indices served together in one phase, for an access of bytesPerLane
  /// (a power of two up to maxAccessBytes) in which lane 2^i moves the address by
  /// laneColumns[i] (any nonzero value where it moves it; only which are zero matters). The
  /// phases of an instruction are the cosets.
  [[nodiscard]] std::vector<uint64_t> phaseLanes(int bytesPerLane, SharedAccessKind kind,
                                                 const std::vector<uint64_t>& laneColumns) const;
  /// Bytes one wavefront can serve: banks * bankBytes.
  [[nodiscard]] int rowBytes() const { return banks * bankBytes; }
};

/// The model for an architecture name ("sm90"); an Error naming the accepted values otherwise.
[[nodiscard]] Result<SharedMemoryModel> sharedMemoryModel(std::string_view arch);
/// The accepted architecture names, the default first.
[[nodiscard]] const std::vector<std::string>& sharedMemoryArchs();
/// One paragraph per architecture, for a front end's help: the constants and phase rules assumed.
[[nodiscard]] std::string sharedMemoryAssumptions();

/// Element widths in bits for an element type name (f16 -> 16, f8E4M3FN -> 8, ...), or an Error.
[[nodiscard]] Result<int> dtypeBits(std::string_view dtype);

} // namespace llcheck
