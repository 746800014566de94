"""Writes a TTGIR module with N identical 2048x2048 f16 `ttg.local_load` lines (issue 31,
finding 6): each costed 0.18-0.47 s, so report time grew with the number of repeats of one
access. Usage: repeated-local-load.py OUT N"""
import sys

out, n = sys.argv[1], int(sys.argv[2])
mem = "!ttg.memdesc<2048x2048xf16, #shared, #smem, mutable>"
lines = [
    "#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
    "#smem = #ttg.shared_memory",
    'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {',
    "  tt.func public @k() attributes {noinline = false} {",
    f"    %a = ttg.local_alloc : () -> {mem}",
]
lines += [f"    %w{i} = ttg.local_load %a : {mem} -> tensor<2048x2048xf16, #blocked>" for i in range(n)]
lines += ["    tt.return", "  }", "}"]
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
