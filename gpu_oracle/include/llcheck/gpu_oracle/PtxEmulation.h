// The GPU's part of `llcheck hwlayout`, played from the PTX ISA: what each probe of
// InstructionProbes.h would record on a GPU that does exactly what the PTX ISA's fragment
// tables, the matrix-descriptor canonical layout, ldmatrix/stmatrix's description and the TMA
// swizzle patterns say. The formulas here are written from those documents, not from llcheck's
// encodings, so `llcheck hwlayout --emulate` checks llcheck against the manual, and the tests
// check the decoder (it must rebuild every layout from these records) before any GPU run.
#pragma once

#include "llcheck/gpu_oracle/InstructionProbes.h"

#include <nlohmann/json.hpp>

namespace llcheck::hwlayout {

/// Row and column of an element in a matrix.
struct RowCol {
  int row = 0, col = 0;
  friend bool operator==(const RowCol&, const RowCol&) = default;
};

namespace ptx {
/// mma.sync (m16n8k4/k8/k16/k32): element e of lane `lane`'s fragment of A (m, k), B (k, n)
/// and C/D (m, n), as the PTX ISA's "Matrix fragments for mma.m16n8kK" tables give them.
[[nodiscard]] RowCol mmaA(const hwprobe::Probe& p, int lane, int e);
[[nodiscard]] RowCol mmaB(const hwprobe::Probe& p, int lane, int e);
[[nodiscard]] RowCol mmaC(const hwprobe::Probe& p, int lane, int e);
/// wgmma m64nNkK: element e of thread t (0..127) of the accumulator (m, n) and of A in
/// registers (m, k).
[[nodiscard]] RowCol wgmmaD(int t, int e);
[[nodiscard]] RowCol wgmmaA(const hwprobe::Probe& p, int t, int e);
/// The shared-memory byte a K-major, unswizzled matrix descriptor reads element (row, k) from.
[[nodiscard]] uint32_t descriptorAddress(uint64_t descriptor, int row, int k, int elemBytes);
/// ldmatrix: the shared byte that byte `byte` of register `reg` of lane `lane` receives, given
/// the row address each lane supplied.
[[nodiscard]] int ldmatrixSource(const int* rowAddress, bool trans, int lane, int reg, int byte);
/// TMA: the shared-memory byte (from a 1024-byte aligned base) that byte `linear` of the box,
/// stored row-major, lands on under a `swizzle`-byte swizzle (0: none).
[[nodiscard]] int tmaSwizzle(int linear, int swizzle);
} // namespace ptx

/// The records of one probe, as probes.cu writes them (the "observed" object).
[[nodiscard]] nlohmann::json emulateProbe(const hwprobe::Probe& p);

/// A whole results file in run.sh's format, with "emulated": true and no GPU fields.
[[nodiscard]] nlohmann::json emulateResults();

} // namespace llcheck::hwlayout
