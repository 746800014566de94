// Global-memory coalescing: how many 32-byte sectors, 128-byte lines and requests a warp's
// load or store of a distributed layout takes, for a tensor with given strides, element type
// and base alignment. The shared-memory side of a layout is BankConflicts.h; this is the other
// half of its cost (issue 23).
//
// # The access
//
// With REG : (register, lane, warp, block) -> tensor and integer strides s_d (in elements), the
// element of input x lies at byte  base + elementBytes * sum_d s_d * REG(x)_d  (CTA 0: block 0;
// every CTA repeats the same pattern on its own part of the tensor). A warp moves its data in
// warp-wide instructions (ld.global / st.global), each lane moving one vector of 2^v elements:
//
// - the vector is the largest 2^v elements that every thread holds at consecutive addresses,
//   starting at a multiple of 2^v elements from the base, with the registers renumbered as
//   needed (paper 5.1 "Contiguous elements" and 5.3 "Generalized Vectorization"), capped at 16
//   bytes (ld.global.v4.b32) and at the base's alignment (a vector must be aligned to its size).
//   The strides limit it too: a row stride that is not a multiple of the vector misaligns rows.
// - registers that duplicate others (zero columns) move no new data; a warp issues
//   2^(register bits holding distinct elements - v) instructions, and every warp issues them.
//
// # The count (NVIDIA sm80/sm90; the assumptions gpu_oracle/coalescing measures)
//
// - one warp-level instruction is one request (l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}),
//   whatever its width: a 128-bit access of 32 lanes (512 bytes) is still one request;
// - a request touches the distinct 32-byte aligned sectors that its lanes' byte ranges fall in
//   (l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}); lanes that read the same bytes share
//   them. A vector is at most 16 bytes and aligned, so it lies in one sector;
// - lines: the distinct 128-byte aligned lines a request touches (not a counter of its own; the
//   number of L1 tag lookups a request needs);
// - the ideal is the same bytes in the fewest sectors: ceil(distinct bytes / 32) per request.
// Loads and stores of the same layout touch the same addresses, so the counts are the same.
//
// Where the address is an F2-linear function of the input bits (every stride a power of two,
// the dims' bit ranges disjoint, e.g. any dim order of a contiguous tensor) and the base is
// line-aligned, a request's sectors form a coset of the lane columns' image >> 5, so every
// request takes 2^rank(lane columns in sector units) sectors: a rank, as the bank model's
// wavefronts are. Otherwise (other strides, a misaligned base) the addresses are summed as
// integers and each request is counted by enumerating its 32 lanes.
#pragma once

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/TritonVersion.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

/// The global-memory constants of an architecture.
struct GlobalMemoryModel {
  std::string arch; ///< "sm90", "sm80"
  int sectorBytes = 32;
  int lineBytes = 128;
  int warpSize = 32;
  /// The widest access one lane makes in one instruction (ld.global.v4.b32).
  int maxAccessBytes = 16;
};

/// The model for an architecture name (sm80, sm90), or an Error naming the accepted ones.
[[nodiscard]] Result<GlobalMemoryModel> globalMemoryModel(std::string_view arch);

/// The most requests the enumerating count walks (each over every lane): 2^20 requests x 32
/// lanes take about a second.
inline constexpr int kMaxEnumeratedRequestsLog2 = 20;

struct CoalescingOptions {
  int elementBits = 16;
  /// Elements between consecutive indices of dim0, dim1, ...; empty: the tensor is contiguous
  /// and row-major (the last dim fastest). Non-negative.
  std::vector<int64_t> strides;
  /// The tensor's first byte lies baseAlignment bytes past a 128-byte line boundary, or on one
  /// when baseAlignment >= 128 (a power of two, at least one element).
  uint64_t baseAlignment = 128;
  /// At most 2^maxVectorLog2 elements per access; -1: as wide as layout and hardware allow.
  int maxVectorLog2 = -1;
  /// Triton's lowering only (predictTritonGlobalAccess): what Triton's AxisInfo proves of the
  /// pointers along the layout's fastest dim, in elements: min(alignment, the mask's constancy)
  /// (AxisInfo.h). Absent: what AxisInfo proves of base + sum_d index_d * stride_d with a
  /// 16-byte aligned base and the strides above (row-major when none are given).
  std::optional<uint64_t> tritonAlignment;
};

/// What stopped the vector from being wider.
enum class VectorLimit { Contiguity, Strides, BaseAlignment, Hardware, Requested, Compiler };
[[nodiscard]] const char* vectorLimitName(VectorLimit l);

/// One warp-wide access pattern (a load and a store alike), per CTA, summed over warps and
/// instructions.
struct GlobalAccess {
  int elementBits = 16;
  int vectorBits = 0; ///< bits each lane moves per instruction
  uint64_t vectorElements = 1;
  VectorLimit vectorLimit = VectorLimit::Contiguity;
  uint64_t instructionsPerWarp = 0;
  uint64_t warps = 0;
  uint64_t requests = 0; ///< = instructions, one request each
  uint64_t sectors = 0;
  uint64_t idealSectors = 0;
  uint64_t lines = 0;
  uint64_t maxSectorsPerRequest = 0; ///< the costliest request (all equal when counted by rank)
  uint64_t maxLinesPerRequest = 0;
  uint64_t bytesPerRequest = 0; ///< distinct bytes a request moves
  bool byRank = false;          ///< counted by ranks (true) or by enumerating lanes
  /// The PTX access Triton would emit for this vector, less its opcode: b16, v4.b32, ...
  [[nodiscard]] std::string ptxSuffix() const;
  /// The whole instruction: ld.global.v4.b32 for a load, st.global.v4.b32 for a store.
  [[nodiscard]] std::string ptx(bool load) const;
};

/// REG's columns for CTA 0 as element offsets (integers) and, where the address is F2-linear,
/// as flat address bits: what the count and the prover start from.
struct GlobalAddressMap {
  std::vector<uint64_t> registers, lanes, warps; ///< element offset of each input bit
  /// Whether each register bit holds an element of its own (a nonzero column).
  std::vector<bool> registerHoldsData;
  bool linear = false; ///< offset(x) = XOR of the columns (else: their integer sum)
  uint64_t baseOffset = 0;
  int elementBytes = 2;
};

/// REG's address map, every precondition checked: REG distributed with model.warpSize lanes,
/// out dims dim0 .. dim<rank-1>, strides (if given) one per dim; for strides that make the
/// address non-linear, every nonzero column a single tensor bit and no two equal.
[[nodiscard]] Result<GlobalAddressMap> globalAddressMap(const LinearLayout& reg,
                                                        const CoalescingOptions& options,
                                                        const GlobalMemoryModel& model);

/// The coalescing of REG's loads and stores.
[[nodiscard]] Result<GlobalAccess> predictGlobalAccess(const LinearLayout& reg,
                                                       const CoalescingOptions& options,
                                                       const GlobalMemoryModel& model);

/// {"vector_bits", "vector_elements", "vector_limit", "ptx", "instructions_per_warp",
///  "warps", "instructions", "requests", "sectors", "ideal_sectors", "excess_sectors",
///  "lines", "max_sectors_per_request", "max_lines_per_request", "bytes_per_request",
///  "counted_by"}
[[nodiscard]] nlohmann::json toJson(const GlobalAccess& a);

/// The JSON answer of a coalescing analysis as the command line prints it (less "dtype" and the
/// proof): toJson(a) with "arch", "shape", "strides" (the ones used: row-major when options.strides
/// is empty), "base_alignment", and the PTX of the "load" and the "store" (ld.global.v4.b32, ...).
[[nodiscard]] nlohmann::json coalescingJson(const GlobalAccess& a, const LinearLayout& reg,
                                            const CoalescingOptions& options,
                                            const GlobalMemoryModel& model);

/// What Triton emits for a `tt.load` and a `tt.store` of REG (Triton's lowering), where the
/// two differ from each other and from the widest vector above (gpu_oracle/triton_coalescing:
/// 800 kernels per release compiled for sm90, 400 measured on an H100):
/// - the vector is the run of REG's leading register bases along the dim of its first nonzero
///   register basis (Triton's getOrder), 1, 2, 4, ... elements in order, capped at 16 bytes and,
///   unless that dim is the contiguous (last) one, at one element: AxisInfo knows contiguity
///   along the last dim only;
/// - the load: every warp issues it; registers that copy others load once (3.9 emits them once;
///   3.6 emits each and ptxas drops the repeats);
/// - the store: only the warps that hold no copy of another warp's data (a zero warp basis:
///   Triton masks the others, and ptxas branches around their stores), and in 3.6 every
///   register, copies included.
/// The vector's cap along that dim is options.tritonAlignment when given (the report computes
/// it from the kernel's own TTGIR); otherwise AxisInfo's answer for a tensor with the given
/// strides (row-major when none) whose base is 16-byte aligned (Triton's divisibility of its
/// pointer arguments): the dim's extent if its stride is 1 (else 1 element), at most the
/// largest power of two dividing 16 bytes and every other dim's stride in bytes. An Error for a
/// base below 16 bytes. options.maxVectorLog2 caps the vector too: where Triton cannot prove a
/// pointer aligned (no tt.divisibility), it moves one element at a time.
struct TritonGlobalAccess {
  GlobalAccess load, store;
};
[[nodiscard]] Result<TritonGlobalAccess> predictTritonGlobalAccess(const LinearLayout& reg,
                                                                   const CoalescingOptions& options,
                                                                   const GlobalMemoryModel& model,
                                                                   TritonVersion version);

/// The #ttg.blocked layout that moves a contiguous row-major tensor of `shape` in the fewest
/// requests and sectors: each thread holds a run of the last dim of up to model.maxAccessBytes
/// (no more than its share of the tensor), lanes and then warps fill the dims from the last one
/// on, and what is left over (a tensor smaller than the CTA's threads) goes to dim0. Triton's
/// coalescing pass builds its layout for contiguous pointers the same way; `llcheck report`
/// offers it for a tt.load / tt.store above the ideal. An Error for a shape or count that is
/// not a power of two.
/// `order` (fastest dim first, as in #ttg.blocked) puts the run along another dim, for a tensor
/// whose contiguous dim is not the last; empty: row-major.
[[nodiscard]] Result<BlockedParams> coalescedBlocked(const std::vector<uint64_t>& shape,
                                                     int elementBits, uint64_t numWarps,
                                                     const GlobalMemoryModel& model,
                                                     const std::vector<uint64_t>& order = {});

/// The dim Triton vectorizes REG's global accesses along (its getOrder()[0]): that of REG's
/// first nonzero register basis, or the last dim when there is none. -1 when REG is not a
/// distributed layout.
[[nodiscard]] int tritonFastestDim(const LinearLayout& reg);

/// The strides the count uses: options.strides, or the row-major strides of REG's tensor.
[[nodiscard]] std::vector<int64_t> effectiveStrides(const LinearLayout& reg,
                                                    const CoalescingOptions& options);

} // namespace llcheck
