// One launch of a TTGIR kernel, run: its integer and pointer arithmetic evaluated for every
// program of the grid with the launch's own arguments (issue 32).
//
// # Why
//
// The report's counts hold per CTA for a tile whose rows start on a sector and whose mask lets
// every element through (AxisInfo.h, Coalescing.h): what the kernel's text proves for every
// launch. A real launch is more particular. FlagGems' layer norm of a 333 x 777 fp16 tensor
// starts each row 1,554 bytes after the last, so a warp's 64 bytes fall in three sectors
// instead of two, and its last column block is mostly masked off; an addmm's tile past M
// touches nothing. How many sectors the launch takes depends on values the IR does not print:
// N = 777, the grid, the pointers' alignment. Given them (a recorded launch), the sectors are a
// computation, not an estimate: this file runs the kernel's address arithmetic for each
// program and hands each executed access (every element's byte address, and whether its mask
// lets it through) to a visitor that counts what the hardware would touch.
//
// # What is run
//
// The kernel function (the module's `tt.func public`, or its only function), op by op:
// constants, tt.make_range / splat / broadcast / expand_dims / reshape / trans, the arith ops
// on integers (at their width: i32 wraps as the GPU's does), tt.addptr (offsets times the
// pointee's bytes), tt.get_program_id / get_num_programs, and the control flow: scf.for with
// its iteration count and carried values, scf.if on the branch the values take. A value the
// launch does not fix (anything loaded from memory, a float, the result of a tt.reduce, an op
// not listed here) is unknown, with the reason; an access whose pointers or mask are unknown
// is not evaluated, and says why, and so is every access inside a region that is not run
// (scf.while, tt.reduce's combiner). Pointers are byte offsets from their kernel argument's
// base; the base itself is LaunchArguments::pointerOffsets bytes past a 128-byte boundary
// (0 when not given: PyTorch's allocator hands out 512-byte aligned blocks).
//
// A launch is bounded (LaunchLimits): a grid of millions of programs over wide tiles would take
// minutes, and the evaluation then stops and says so instead.
#pragma once

#include "llcheck/core/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

struct LaunchArguments {
  std::array<uint64_t, 3> grid{1, 1, 1};
  /// Integer (and bool: 0 / 1) arguments by name, without the '%': {"N": 777}.
  std::map<std::string, int64_t> integers;
  /// Where a pointer argument's first byte lies past a 128-byte boundary: {"x_ptr": 16}.
  std::map<std::string, uint64_t> pointerOffsets;
  /// False: the program ids and the grid are unknown too, and an access whose pointers are
  /// unknown but whose mask is known is still visited (AccessRun::bytes empty). With no
  /// arguments either, this finds the masks the compiler knows (FlagGems' embedding masks at a
  /// constexpr N: LLVM deletes the accesses they turn off in every lane).
  bool programIdsKnown = true;
  /// Loads (by line; LaunchEvaluation::sinkableLoads) that the compiled kernel executes only
  /// where their loop runs a trip: the compiler sank them under the loop's zero-trip test,
  /// which the SASS shows (reports' Sass.h). Any other load runs where it stands.
  std::set<int> sunkLoads;
  /// The compiled kernel has no forward branch (reports' Sass.h: SassFunction::branchesForward):
  /// ptxas if-converted its scf.ifs, so the region a condition does not take runs too, its
  /// accesses visited with every lane off (AccessRun::bytes and active empty: no byte moves,
  /// the instructions execute) and its ops counted in `runs`. A region holding a loop or
  /// another region cannot be if-converted and is not run.
  bool ifConverted = false;
};

struct LaunchLimits {
  /// Element operations (one op on one tensor element) over the whole launch.
  uint64_t maxElementOps = uint64_t{1} << 28;
  /// Programs of the grid.
  uint64_t maxPrograms = uint64_t{1} << 22;
  /// Elements of one tensor (a real tile has at most 2^16; 2^22 int64 take 32 MiB).
  uint64_t maxTensorElements = uint64_t{1} << 22;
};

/// One access (tt.load, tt.store, tt.atomic_rmw, tt.atomic_cas,
/// ttg.async_copy_global_to_local of a tensor of pointers) as one program executed it.
struct AccessRun {
  int line = 0;
  /// The pointer tensor's shape; bytes and active are in its row-major order.
  const std::vector<uint64_t>* shape = nullptr;
  /// Each element's byte address: its offset from the pointer argument's base plus the base's
  /// offset past a 128-byte boundary (empty where only the mask is known, see
  /// LaunchArguments::programIdsKnown).
  std::span<const int64_t> bytes;
  /// Whether the mask lets each element through (1) or not (0); empty: no mask. Without
  /// program ids (LaunchArguments::programIdsKnown false) 1 means "may": an element of a mask
  /// `a & b` whose `b` needs a program id is 0 only where `a` is known false.
  std::span<const uint8_t> active;
  std::array<uint64_t, 3> program{0, 0, 0};
};

struct LaunchEvaluation {
  /// How many times each op ran over the launch, by its line (every op the evaluation reached;
  /// an op under a branch no program took is absent).
  std::map<int, uint64_t> runs;
  /// The accesses that could not be evaluated in some program, by line, with the first reason.
  /// Every other access of the kernel function was evaluated in every program that reached it.
  std::map<int, std::string> notEvaluated;
  /// Lines of every access of the kernel function (evaluated or not; a scalar one is never
  /// visited, and is in notEvaluated when it has a mask or is an atomic).
  std::vector<int> accesses;
  /// The tt.loads (by line) that could be sunk under the zero-trip test of the function's
  /// first scf.for (the loop's line): every use of their results lies in its body, or in ops
  /// that are themselves only used there, and their mask is absent or made of constants (a
  /// load masked on an argument stays where it is: Liger's norms' backward on the H200).
  std::map<int, int> sinkableLoads;
  /// The first and last line of the kernel function's body: an op outside them (in another
  /// function) is not run by the evaluation, which says nothing of its runs.
  int firstLine = 0, lastLine = 0;
  /// Lines of the ops whose runs are not known (inside a region that is not run, or under a
  /// loop or branch the launch does not fix), with the reason.
  std::map<int, std::string> runsUnknown;
  /// Non-empty when the evaluation stopped (a limit, no kernel function): then nothing above
  /// holds for the launch.
  std::string stopped;
  uint64_t programs = 0;
  uint64_t elementOps = 0;
};

/// Evaluates one launch of the kernel in `text` (TTGIR; `source` names it in reasons), calling
/// `visit` for every access each program executes whose pointers and mask are known. An Error
/// only for a grid that is empty; everything the evaluation cannot follow is a reason in the
/// answer.
[[nodiscard]] Result<LaunchEvaluation>
evaluateLaunch(std::string_view text, const std::string& source, const LaunchArguments& arguments,
               const std::function<void(const AccessRun&)>& visit, const LaunchLimits& limits = {});

} // namespace llcheck
