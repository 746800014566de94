// Reading a whole TTGIR module as Triton prints it (the `ttgir` stage of triton.compile, or
// MLIR_ENABLE_DUMP output; Triton 3.6's or 3.9's, TtgirOptions::triton): the attribute aliases
// (`#blocked1 = #ttg.blocked<{...}>`, aliases that refer to aliases), the module attributes
// (target, warps, threads per warp, CTAs), every `tensor<...>` and `!ttg.memdesc<...>` type, the
// ops that move data between layouts and the tt.load / tt.store of tensors of pointers (global
// memory), each with its source location. Every distinct (encoding,
// shape) is turned into its linear layout with attributeToLayout. This is a reader for what Triton
// prints, not an MLIR parser: it reads the text line by line and understands only the pieces above;
// whatever it meets that looks relevant but that it cannot interpret is listed in `notUnderstood`
// instead of being dropped. A file that is not well-formed TTGIR (cut short, an unterminated type,
// an alias used but never defined) is an Error. No printing here; the command line prints.
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/TritonVersion.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

/// One distinct `tensor<...>` or `!ttg.memdesc<...>` type of the module.
struct TtgirType {
  enum class Kind { Tensor, MemDesc };
  Kind kind = Kind::Tensor;
  /// The type as written (whitespace as in the file).
  std::string text;
  std::vector<uint64_t> shape;
  /// "f16", "i32", "!tt.ptr<f16>", ...
  std::string elementType;
  /// The encoding as written ("#blocked1", "#ttg.slice<{dim = 1, parent = #blocked}>"); empty
  /// when the type has none.
  std::string encoding;
  /// memdesc only: the memory space as written ("#smem"), `mutable`, and the allocation shape
  /// when it is printed (a view into a larger buffer).
  std::string memorySpace;
  bool isMutable = false;
  std::vector<uint64_t> allocShape;
  /// Index into TtgirModule::layouts, -1 when the type has no readable encoding.
  int layout = -1;
  /// First occurrence, and how many times the type is written.
  int line = 0;
  int column = 0;
  int count = 0;
};

/// One distinct (encoding, shape) and its linear layout.
struct TtgirLayout {
  /// The encoding as first written, and with every alias substituted (what was read).
  std::string encoding;
  std::string attribute;
  std::vector<uint64_t> shape;
  /// "tensor" or "memdesc": the kind of the first type that used it.
  std::string kind;
  /// The layout, or nothing when it could not be computed (the reason is in notUnderstood).
  std::optional<LinearLayout> layout;
  std::string error;
  int line = 0;
  int column = 0;
  /// The names of the ops (any op, data-moving or not) whose line uses a type with this layout,
  /// sorted: for a shared layout, who else reads it (ttng.warp_group_dot, a TMA copy, ...).
  std::vector<std::string> users;
};

/// One operand or result of a data-moving op.
struct TtgirOperand {
  std::string type;
  /// Index into TtgirModule::layouts, -1 when the type has no readable encoding.
  int layout = -1;
};

/// The innermost scf.if an op is in, and which of its regions. Its condition is a value the
/// kernel computes (Triton's canonicalizer folds the constant ones away): whether the op runs
/// is not known from the TTGIR (FlagGems' mm picks its TMA or its cp.async kernel so).
struct TtgirBranch {
  int line = 0; ///< the scf.if's line; 0: in none
  bool elseBranch = false;
};

/// One op that moves data between layouts (ttg.convert_layout, ttg.local_alloc, ...).
struct TtgirOp {
  std::string name;
  /// The data's source and destination; local_alloc without an initial value has no source.
  std::optional<TtgirOperand> src;
  TtgirOperand dst;
  /// The destination's shape and element type (a pointer tensor's copy uses the memdesc's).
  std::vector<uint64_t> shape;
  std::string elementType;
  /// "file.py:40:12" from the op's loc(...), or "FILE.ttgir:LINE" when it has none.
  std::string location;
  int line = 0;
  /// The op's `{contiguity = N : i32}` (Triton's pipeliner writes on an async copy what its axis
  /// analysis proved of the source pointers: N consecutive elements per thread along their
  /// fastest dim); nullopt when the op has none.
  std::optional<uint64_t> contiguity;
  /// The warp-specialize region the op is in (an index into TtgirModule::partitions), or -1.
  int partition = -1;
  /// How many scf.for and scf.while loops enclose it, and how many times it runs per program:
  /// the product of their trip counts where every scf.for bound is an arith.constant (nullopt
  /// where one is not, and inside an scf.while, which runs until a run-time condition fails).
  int loopDepth = 0;
  std::optional<uint64_t> trips = 1;
  /// Where `trips` is nullopt: its runs per program as a formula over the kernel's integer
  /// arguments (by name), the program ids (`pid_x`, `pid_y`, `pid_z`), `num_programs_x` ...
  /// and integers, with + - * and the calls div (C's truncating division), cdiv, rem, min, max
  /// and trips(LB, UB, STEP) (an scf.for's runs: max(0, cdiv(UB - LB, STEP))); "" where a
  /// bound is not such a formula (a loop-carried value, a tensor's element, a comparison) and
  /// inside an scf.while.
  std::string tripsFormula;
  TtgirBranch branch;
};

/// A region of a ttg.warp_specialize: its default region (the module's warps) or one of its
/// partitions, each run by its own warps (`partition0(...) num_warps(4) {`). Warp-specialized
/// pipelines split a loop's producers (TMA or cp.async copies) and consumers (MMAs) among them,
/// and each op's layouts are over its region's warps.
struct TtgirPartition {
  std::string name;      ///< "default", "partition0", ...
  uint64_t numWarps = 0; ///< 0: the module's (the default region)
  int line = 0;
};

/// One tt.load or tt.store of a tensor of pointers (registers <-> global memory in one layout)
/// or of a scalar pointer.
struct TtgirGlobalAccess {
  std::string op; ///< "tt.load" or "tt.store"
  /// The pointer tensor's type as written, and its layout (-1 when it has no readable encoding).
  TtgirOperand pointers;
  std::vector<uint64_t> shape;
  /// The pointee ("f16" of "!tt.ptr<f16>").
  std::string elementType;
  std::string location;
  int line = 0;
  /// The warp-specialize region it is in (an index into TtgirModule::partitions), or -1.
  int partition = -1;
  /// A tt.load / tt.store of one value through a scalar `!tt.ptr<T>` (no layout): Triton's
  /// scalar store is made by one thread, its scalar load by every thread.
  bool scalar = false;
  /// How many scf.for and scf.while loops enclose it, and how many times it runs per program:
  /// the product of their trip counts where every scf.for bound is an arith.constant (nullopt
  /// where one is not, and inside an scf.while, which runs until a run-time condition fails).
  int loopDepth = 0;
  std::optional<uint64_t> trips = 1;
  /// Where `trips` is nullopt: its runs per program as a formula over the kernel's integer
  /// arguments (by name), the program ids (`pid_x`, `pid_y`, `pid_z`), `num_programs_x` ...
  /// and integers, with + - * and the calls div (C's truncating division), cdiv, rem, min, max
  /// and trips(LB, UB, STEP) (an scf.for's runs: max(0, cdiv(UB - LB, STEP))); "" where a
  /// bound is not such a formula (a loop-carried value, a tensor's element, a comparison) and
  /// inside an scf.while.
  std::string tripsFormula;
  TtgirBranch branch;
};

/// An op whose lowering may go through shared-memory scratch that is not a tensor's layout: a
/// reduction or scan (across warps), tt.histogram, tt.gather, an atomic whose scalar result
/// every thread reads. llcheck does not predict these accesses yet; the report lists each with
/// why it does or does not touch shared memory, so that none is skipped silently.
struct TtgirScratchOp {
  std::string name;
  /// The operand the lowering reads (the reduced or scanned tensor, the gathered source, the
  /// atomic's pointers): its type as written and its layout (-1 when it has no readable one).
  TtgirOperand src;
  /// The element type of each operand the op reads (tt.reduce of an argmax reads two), in
  /// order; for an atomic with a scalar result, that result's type.
  std::vector<std::string> operandElementTypes;
  /// The first tensor result (its type and layout); text empty when the result is a scalar.
  TtgirOperand result;
  /// The SSA name of its results ("%2" of `%2:2 = "tt.reduce"(...)`) and how many there are;
  /// empty when the op is not bound to a name.
  std::string resultName;
  int resultCount = 0;
  /// The op's `axis` (reduce, scan, gather); -1 when it has none.
  int axis = -1;
  /// A scan's `reverse = true` (it runs from the last element along the axis).
  bool reverse = false;
  /// An atomic whose result is a scalar (every thread of the CTA receives it).
  bool scalarResult = false;
  std::string location;
  int line = 0;
  /// The warp-specialize region it is in (an index into TtgirModule::partitions), or -1.
  int partition = -1;
  /// How many scf.for and scf.while loops enclose it, and how many times it runs per program:
  /// the product of their trip counts where every scf.for bound is an arith.constant (nullopt
  /// where one is not, and inside an scf.while, which runs until a run-time condition fails).
  int loopDepth = 0;
  std::optional<uint64_t> trips = 1;
  /// Where `trips` is nullopt: its runs per program as a formula over the kernel's integer
  /// arguments (by name), the program ids (`pid_x`, `pid_y`, `pid_z`), `num_programs_x` ...
  /// and integers, with + - * and the calls div (C's truncating division), cdiv, rem, min, max
  /// and trips(LB, UB, STEP) (an scf.for's runs: max(0, cdiv(UB - LB, STEP))); "" where a
  /// bound is not such a formula (a loop-carried value, a tensor's element, a comparison) and
  /// inside an scf.while.
  std::string tripsFormula;
  TtgirBranch branch;
};

/// A TMA copy (ttng.async_tma_copy_global_to_local / _local_to_global): the tensor memory
/// accelerator moves one box of the tensor a descriptor describes between global memory and a
/// shared buffer, in the swizzle the descriptor's encoding gives; no thread issues ld/st.shared.
struct TtgirTmaCopy {
  std::string name;
  std::string descriptor; ///< its SSA name ("%a_desc")
  /// The descriptor's type: the box (block shape), its element and its encoding as written
  /// (`!tt.tensordesc<tensor<128x64xf16, #shared>>` in 3.6, `!tt.tensordesc<128x64xf16,
  /// #shared>` in 3.9); box empty when the type could not be read.
  std::vector<uint64_t> box;
  std::string elementType;
  std::string encoding;
  /// The shared buffer written (global_to_local) or read (local_to_global).
  TtgirOperand buffer;
  /// global_to_local: the mbarrier the copy arrives on (SSA name).
  std::string barrier;
  std::string location;
  int line = 0;
  /// The warp-specialize region it is in (an index into TtgirModule::partitions), or -1.
  int partition = -1;
};

/// ttng.barrier_expect %bar, BYTES: the bytes the TMA copies arriving on %bar must bring.
struct TtgirBarrierExpect {
  std::string barrier;
  uint64_t bytes = 0;
  int line = 0;
};

/// An MMA that reads operands from shared memory through matrix descriptors (Hopper's
/// ttng.warp_group_dot, Blackwell's ttng.tc_gen5_mma): no ld.shared is issued for them.
struct TtgirDescriptorRead {
  std::string name;
  /// Every shared-memory operand (memdesc) on the op's line, in order.
  std::vector<TtgirOperand> sharedOperands;
  std::string location;
  int line = 0;
};

/// A pointer argument of a tt.func, with the divisibility Triton knows of it (the JIT marks
/// 16-byte aligned tensors `{tt.divisibility = 16 : i32}`; 0 when unmarked): what AxisInfo, and
/// so the vector of every tt.load / tt.store through it, starts from.
struct TtgirPointerArgument {
  std::string name;
  uint64_t divisibility = 0;
};

/// Something the reader met and could not interpret.
struct TtgirNotUnderstood {
  /// "alias", "type", "encoding", "op" or "module attribute".
  std::string what;
  /// The item as written.
  std::string text;
  /// "file.ttgir:12:7".
  std::string where;
  std::string reason;
  /// The only problem is an encoding llcheck does not support yet (attributeToLayout says so).
  bool unsupportedEncoding = false;
};

struct TtgirAlias {
  std::string name;
  std::string text;
  int line = 0;
};

struct TtgirModule {
  std::string source;
  /// The module's text as read: what the axis analysis (llcheck/core/AxisInfo.h) reads the ops'
  /// operands and attributes from.
  std::string text;
  /// Module attributes: ttg.target, ttg.num-warps, ttg.threads-per-warp, ttg.num-ctas.
  std::optional<std::string> target;
  std::optional<uint64_t> numWarps;
  std::optional<uint64_t> threadsPerWarp;
  std::optional<uint64_t> numCtas;
  /// The Triton release whose semantics the layouts follow (TtgirOptions::triton).
  TritonVersion triton = kNewestTriton;
  /// Attribute aliases in file order (location aliases `#loc3 = loc(...)` are not listed).
  std::vector<TtgirAlias> aliases;
  std::vector<TtgirType> types;
  std::vector<TtgirLayout> layouts;
  std::vector<TtgirOp> ops;
  /// tt.load / tt.store of tensors of pointers, in file order (scalar ones have no layout).
  std::vector<TtgirGlobalAccess> globalAccesses;
  /// Reductions, scans, histograms, gathers and atomics, in file order.
  std::vector<TtgirScratchOp> scratchOps;
  /// TMA copies, the barriers' expected bytes, and descriptor reads of MMAs, in file order.
  std::vector<TtgirTmaCopy> tmaCopies;
  std::vector<TtgirBarrierExpect> barrierExpects;
  std::vector<TtgirDescriptorRead> descriptorReads;
  /// The regions of every ttg.warp_specialize, in file order.
  std::vector<TtgirPartition> partitions;
  /// Every tt.func's pointer arguments, in file order.
  std::vector<TtgirPointerArgument> pointerArguments;
  std::vector<TtgirNotUnderstood> notUnderstood;
};

struct TtgirOptions {
  /// The numbers of warps and threads per warp: used where the module does not fix them,
  /// checked where it does.
  std::optional<uint64_t> numWarps;
  std::optional<uint64_t> threadsPerWarp;
  /// The Triton release that wrote the module: its encodings mean what that release computes.
  TritonVersion triton = kNewestTriton;
};

/// True when `text` looks like a TTGIR module rather than a single attribute: its first
/// non-blank line starts with `module` or is an alias definition `#name = ...`.
[[nodiscard]] bool looksLikeTtgir(std::string_view text);

/// Reads a TTGIR module; `source` (the file name) prefixes every location.
[[nodiscard]] Result<TtgirModule> readTtgir(std::string_view text, const std::string& source,
                                            const TtgirOptions& options = {});

/// The value of attribute `key` in an op's attribute dictionary (`{key = 8 : i32}`) or
/// properties (`<{key = 1 : i32}>`), as written ("8 : i32", "dense<16> : tensor<2xi32>"):
/// outside strings and types, preceded by `{` or `,`. nullopt when absent.
[[nodiscard]] std::optional<std::string_view> ttgirOpAttribute(std::string_view opText,
                                                               std::string_view key);

/// The data-moving ops the reader interprets (ttg.convert_layout, ttg.local_alloc, ...).
[[nodiscard]] const std::vector<std::string>& ttgirDataMovingOps();

} // namespace llcheck
