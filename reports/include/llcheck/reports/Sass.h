// What ptxas kept of a kernel, read from its SASS, as far as a report needs it: where warps can
// leave the kernel early, and how many shared-memory loads they then skip.
//
// Why: Triton masks the global stores of the warps that only hold copies of other warps' data
// (a zero warp basis of the stored layout). Their last shared-memory loads then feed nothing,
// and ptxas puts a predicated `@P0 EXIT` before them: those warps never execute the loads after
// it. The layouts cannot tell how many loads ptxas moved behind the EXIT (it is its schedule),
// the SASS can. The report reads the SASS beside each TTGIR file (Triton's cache keeps
// NAME.ttgir and NAME.cubin together): NAME.sass (`cuobjdump -sass` text) or NAME.cubin, which
// is disassembled with cuobjdump.
//
// The reading is positional: the code from the predicated EXIT on must run once, in order
// (Triton unrolls every shared-memory access): a branch after the EXIT (other than the final
// self-loop), or one before it whose target lies past it, makes "after the EXIT" meaningless,
// and the kernel says so instead of a count. Branches that stay before the EXIT (a K loop, a
// skipped loop of Inductor's looped reductions) do not matter. Instructions predicated on !PT
// are never executed and are not counted.
#pragma once

#include "llcheck/core/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck::reports {

/// One STG, and which warps execute it as ptxas placed it.
struct SassStore {
  uint64_t address = 0;
  /// The access width: 8, 16, 32, 64 or 128.
  unsigned bits = 32;
  /// 'e': every warp that gets there (predicated or not); 'x': after a predicated EXIT that
  /// every path to it passes (only the warps that stay); 'b': inside a predicated forward BRA's
  /// jump (only the warps that do not take it: Triton 3.9's scalar stores of Liger's layer norm,
  /// branched around in every warp but thread 0's).
  char executedBy = 'e';
};

/// One LDG before the function's first loop, and whether the loop's zero-trip test jumps over
/// it (a predicated forward BRA past the whole loop): then only the programs whose loop runs
/// a trip execute it (fla's norm backward, its weights' load sunk there by the compiler).
struct SassLoad {
  uint64_t address = 0;
  unsigned bits = 32;
  bool underLoopGuard = false;
};

/// One LDGSTS (cp.async), inside the function's loops or not, and whether a predicated forward
/// BRA jumps over it ('b': the warps that take the branch, those holding only copies, skip
/// it; Triton 3.9's fla copies in a loop) or every warp executes it, predicated ('e').
struct SassCopy {
  uint64_t address = 0;
  unsigned bits = 32;
  bool bypass = false, inLoop = false;
  char executedBy = 'e';
  /// The shared destination `[R9+0x800]`: its register ("R9"; "" where the operand is another
  /// form) and offset (0x800). The offsets of one op's LDGSTS differ as its instructions'
  /// shared addresses do, which is how the report tells which LDGSTS is which of its
  /// instructions.
  std::string sharedBase;
  int64_t sharedOffset = 0;
  /// The zero-fill predicate, the last operand ("P2", "!P0", "!PT"; "" where there is none):
  /// a lane for which it is false copies no byte (Triton's masked-off lanes, src-size 0; a copy
  /// on `!PT` reads nothing: fla's delta rule on the H200, 80 executions, 0 requests).
  std::string zeroFill;
};

struct SassFunction {
  std::string name;
  /// Shared-memory loads in the function: LDS (ld.shared) and LDSM (ldmatrix).
  uint64_t lds = 0, ldsm = 0;
  /// The first EXIT with a predicate (not @PT / @!PT), as written ("@P0 EXIT"), and its address.
  std::string predicatedExit;
  uint64_t exitAddress = 0;
  /// LDS and LDSM after that EXIT in program order (what the warps that take it skip).
  uint64_t ldsAfterExit = 0, ldsmAfterExit = 0;
  /// Unpredicated LDS between a predicated forward BRA and its target: loads ptxas branched
  /// around instead of predicating them, which a warp none of whose lanes takes part skips
  /// (Triton 3.6's predicated reduce combining loads, in some kernels).
  uint64_t ldsBranchedAround = 0;
  /// Global stores (STG) in the function and after the predicated EXIT: a store before it is
  /// executed by every warp (predicated), one after it only by the warps that stay.
  uint64_t stg = 0, stgAfterExit = 0;
  /// False when a branch or call makes the code from the predicated EXIT on run otherwise than
  /// once in program order (see above); `notStraightLine` names the first one.
  bool straightLine = true;
  /// Whether any branch goes forward (a BRA to a later address, BSSY, an indirect branch, a
  /// call). Without one every branch of the code goes back (its loops), so ptxas if-converted
  /// the kernel's scf.ifs: every op under one executes, predicated, whenever its region does.
  bool branchesForward = false;
  /// The LDGs in the function (not @!PT), by width in bits: what is left of the kernel's
  /// global loads once LLVM deleted those its masks turn off (an unrolled loop's last trip).
  std::map<unsigned, uint64_t> ldgByBits;
  /// Of those, the unpredicated ones between a predicated forward BRA and its target: a warp
  /// none of whose lanes takes part jumps over them (Inductor's loads of a padded view, masked
  /// per program: 400 of 416 executions on the H100).
  std::map<unsigned, uint64_t> ldgBranchedAround;
  /// Whether any branch goes back (a loop; the self-branch after the final EXIT is none).
  /// Without one, ptxas's code has every loop of the kernel unrolled (Inductor's reductions
  /// over a constant range), so each trip's masks are its own instructions'.
  bool branchesBack = false;
  std::string notStraightLine;
  /// The STGs outside the kernel's loops (outside every range from a branch back's target to
  /// the branch), in program order, each with the warps that execute it (see SassStore).
  /// Liger's cross entropy shows why a kernel with loops needs them: after its loops, one scalar
  /// store predicated in every warp and the next after `@P0 EXIT`; `straightLine` says nothing
  /// there.
  std::vector<SassStore> storesOutsideLoops;
  /// The STGs inside them, in program order: 'b' where a predicated forward BRA inside the loop
  /// jumps over it, else 'e' (every warp that runs the loop executes it, predicated: FlagGems'
  /// topk and sort, whose scalar stores in a loop are executed by all 4 warps on the H200).
  std::vector<SassStore> storesInsideLoops;
  /// Why those cannot be read ("" when they can): an indirect branch, call or return.
  std::string storesNotReadable;
  /// The address of the last predicated EXIT before the final one, if any (an EXIT at 0x0000,
  /// the kernel's first instruction, is one: the fuzzer found that 0 cannot mean "none").
  std::optional<uint64_t> lastPredicatedExit;
  /// The address of the first instruction that reads or writes memory (global, shared or
  /// local; none: the listing's end). A predicated EXIT before it is taken on values computed
  /// from indices alone: where the kernel returns early (a cf.cond_br to tt.return on program
  /// ids and arguments, CTA-wide), that is the return, not the exit of warps with nothing to
  /// store.
  uint64_t firstMemoryAccess = ~uint64_t{0};
  /// The LDGs before the first loop's head (empty when the function has no loop, or its
  /// control flow is not read: storesNotReadable).
  std::vector<SassLoad> loadsBeforeLoops;
  /// Every LDGSTS before the final EXIT, in program order (empty: storesNotReadable).
  std::vector<SassCopy> copies;
  /// Whether the kernel returns early (parseSass's `returnsEarly`).
  bool returnsEarly = false;
};

/// The functions of a `cuobjdump -sass` listing. An Error when no function or instruction can
/// be read from it (not a SASS listing); `where` names the file. `returnsEarly`: the kernel's
/// TTGIR returns early (a tt.return before the function's last), so that a predicated EXIT
/// before the first memory access is that CTA-wide return (SassFunction::firstMemoryAccess).
[[nodiscard]] Result<std::vector<SassFunction>>
parseSass(std::string_view text, const std::string& where, bool returnsEarly = false);

/// The default of `llcheck report --cuobjdump-timeout`: a real cuobjdump reads a kernel's cubin in
/// well under a second.
inline constexpr int kCuobjdumpTimeoutSeconds = 60;

/// `cuobjdump -sass CUBIN` with the cuobjdump at `cuobjdump` (run directly, no shell, in a
/// process group of its own). One that runs past `timeoutSeconds` is killed with everything it
/// started, and an Error says so; once it has exited, a child it left holding its output open is
/// not waited for.
[[nodiscard]] Result<std::string> disassembleCubin(const std::string& cubin,
                                                   const std::string& cuobjdump,
                                                   int timeoutSeconds = kCuobjdumpTimeoutSeconds);

/// The cuobjdump to use: `explicitPath` when given, else $CUOBJDUMP, else `cuobjdump` on $PATH,
/// else /usr/local/cuda/bin/cuobjdump; "" when none is executable.
[[nodiscard]] std::string findCuobjdump(const std::string& explicitPath);

/// The SASS of the kernel beside one TTGIR file.
struct SassBeside {
  std::string path; ///< STEM.sass or STEM.cubin
  std::vector<SassFunction> functions;
  /// Why it could not be read (then `functions` is empty).
  std::string error;
};

/// STEM.sass, else STEM.cubin (disassembled with `cuobjdump`, see findCuobjdump) beside
/// `ttgirPath` (STEM.ttgir / STEM.mlir); nullopt when neither exists. `returnsEarly`: as
/// parseSass's.
[[nodiscard]] std::optional<SassBeside> sassBeside(const std::string& ttgirPath,
                                                   const std::string& cuobjdump,
                                                   int cuobjdumpSeconds = kCuobjdumpTimeoutSeconds,
                                                   bool returnsEarly = false);

} // namespace llcheck::reports
