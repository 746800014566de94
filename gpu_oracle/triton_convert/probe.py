"""Triton's own layout conversions, measured: for each case, a Gluon kernel loads a tensor in
layout SRC, converts it to DST with gl.convert_layout (which Triton lowers with its own
optimal swizzling when the conversion goes through shared memory) and stores it back. One CTA,
so the hardware counters are per CTA, as llcheck's predictions are.

On the GPU machine (run.sh does this):
    ncu --metrics <shared-memory wavefront and conflict counters> --kernel-name regex:convert_kernel \
        python3 probe.py OUT_DIR
writes OUT_DIR/cases.json: per case the layouts, shape, dtype, whether the data survived the
round trip, and the TTGIR / PTX Triton produced. compare.py joins it with ncu's CSV and with
`llcheck convert` on the same layouts (read from the TTGIR).
With --compile-only it only compiles (no GPU needed) to check the cases build.
"""
import json
import os
import sys

import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def convert_kernel(src_ptr, dst_ptr, M: gl.constexpr, N: gl.constexpr, SRC: gl.constexpr,
                   DST: gl.constexpr):
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, SRC))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, SRC))
    x = gl.load(src_ptr + rows[:, None] * N + cols[None, :])
    y = gl.convert_layout(x, DST)
    rows2 = gl.arange(0, M, layout=gl.SliceLayout(1, DST))
    cols2 = gl.arange(0, N, layout=gl.SliceLayout(0, DST))
    gl.store(dst_ptr + rows2[:, None] * N + cols2[None, :], y)


def blocked(spt, tpw, wpc, order):
    return gl.BlockedLayout(size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc,
                            order=order)


def mma(version, warps, instr):
    return gl.NVMMADistributedLayout(version=version, warps_per_cta=warps, instr_shape=instr)


K_WIDTH = {"float16": 2, "float32": 1, "int8": 4}


def layouts(dtype):
    """The layouts the sweep pairs up (4 warps each): blocked layouts along either dim with 1 to
    8 elements per thread, warps split along one dim or both, mma v2/v3 accumulators and the
    mma v2 dot operands of the element type."""
    mma2 = mma([2, 0], [2, 2], [16, 8])
    return {
        "row8": blocked([1, 8], [4, 8], [4, 1], [1, 0]),
        "col8": blocked([8, 1], [8, 4], [1, 4], [0, 1]),
        "row4": blocked([1, 4], [2, 16], [4, 1], [1, 0]),
        "col4": blocked([4, 1], [16, 2], [1, 4], [0, 1]),
        "row8w": blocked([1, 8], [4, 8], [2, 2], [1, 0]),
        "row2": blocked([1, 2], [1, 32], [2, 2], [1, 0]),
        "col1": blocked([1, 1], [32, 1], [1, 4], [0, 1]),
        "scalar": blocked([1, 1], [1, 32], [4, 1], [1, 0]),
        "sq2": blocked([2, 2], [4, 8], [2, 2], [1, 0]),
        "mma2": mma2,
        "mma2w": mma([2, 0], [4, 1], [16, 8]),
        "mma3": mma([3, 0], [4, 1], [16, 64, 16]),
        "dotA": gl.DotOperandLayout(operand_index=0, parent=mma2, k_width=K_WIDTH[dtype]),
        "dotB": gl.DotOperandLayout(operand_index=1, parent=mma2, k_width=K_WIDTH[dtype]),
    }


def cases():
    """Every ordered pair of distinct layouts for f16 and f32 on 64x64, the pairs among a
    smaller set for int8, and the transposes on larger shapes (the first probe's cases are
    among them)."""
    out = []
    for dtype in ["float16", "float32", "int8"]:
        ls = layouts(dtype)
        names = list(ls) if dtype != "int8" else ["row8", "col8", "row4", "col4", "scalar",
                                                   "mma2", "dotA", "dotB"]
        for a in names:
            for b in names:
                if a != b:
                    out.append({"id": f"{a}_to_{b}-{dtype}", "src": ls[a], "dst": ls[b],
                                "shape": [64, 64], "dtype": dtype})
        for (a, b, shape) in [("row8", "col8", [128, 128]), ("mma2", "row4", [128, 64]),
                              ("col8", "row8", [128, 128]), ("mma3", "col8", [128, 128]),
                              ("dotA", "col8", [128, 64]), ("row4", "dotB", [64, 128])]:
            out.append({"id": f"{a}_to_{b}_{shape[0]}x{shape[1]}-{dtype}", "src": ls[a],
                        "dst": ls[b], "shape": shape, "dtype": dtype})
    return out


def compile_for_sm90(c):
    """Compile without a GPU (to check the cases build, and for the TTGIR)."""
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    ptr = {"float16": "*fp16", "float32": "*fp32", "int8": "*i8"}[c["dtype"]]
    M, N = c["shape"]
    src = GluonASTSource(fn=convert_kernel, signature={"src_ptr": ptr, "dst_ptr": ptr,
                                                       "M": "constexpr", "N": "constexpr",
                                                       "SRC": "constexpr", "DST": "constexpr"},
                         constexprs={"M": M, "N": N, "SRC": c["src"], "DST": c["dst"]})
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})


def shared_instructions(ptx):
    """How often each shared-memory instruction appears in the PTX (per thread, statically)."""
    import re
    counts = {}
    for m in re.findall(r"\b(ld\.shared\S*|st\.shared\S*|ldmatrix\S*|stmatrix\S*)", ptx):
        m = m.rstrip(";,")
        counts[m] = counts.get(m, 0) + 1
    return counts


def main():
    compile_only = "--compile-only" in sys.argv
    out_dir = [a for a in sys.argv[1:] if not a.startswith("--")][0]
    os.makedirs(out_dir, exist_ok=True)
    results = []
    only = os.environ.get("PROBE_ONLY")  # a regex of case ids, to try a few
    todo = [c for c in cases() if not only or __import__("re").search(only, c["id"])]
    for c in todo:
        rec = {"id": c["id"], "shape": c["shape"], "dtype": c["dtype"], "src": repr(c["src"]),
               "dst": repr(c["dst"])}
        try:
            M, N = c["shape"]
            if compile_only:
                k = compile_for_sm90(c)
            else:
                import torch  # the GPU machine launches through torch tensors
                dt = getattr(torch, c["dtype"])
                if dt.is_floating_point:
                    x = torch.randn(M, N, device="cuda").to(dt)
                    y = torch.full((M, N), float("nan"), device="cuda").to(dt)
                else:
                    x = torch.randint(-128, 127, (M, N), device="cuda", dtype=dt)
                    y = torch.full((M, N), -128, device="cuda", dtype=dt)
                    x[x == -128] = 0  # -128 marks an element the kernel did not write
                k = convert_kernel[(1,)](x, y, M, N, c["src"], c["dst"], num_warps=4)
                torch.cuda.synchronize()
                rec["correct"] = bool(torch.equal(x, y))
            rec["ttgir"] = k.asm["ttgir"]
            rec["ptx_shared"] = shared_instructions(k.asm.get("ptx", ""))
        except Exception as e:  # noqa: BLE001 - a case Triton refuses is recorded, not fatal
            rec["error"] = f"{type(e).__name__}: {str(e)[:500]}"
        results.append(rec)
        print(rec["id"], rec.get("correct"), rec.get("error", "")[:120], flush=True)
        if len(results) % 25 == 0 or len(results) == len(todo):
            # Written as it goes: a run cut short by its time limit still leaves its cases.
            with open(os.path.join(out_dir, "cases.json"), "w") as f:
                json.dump({"triton": triton.__version__, "cases": results}, f)


if __name__ == "__main__":
    main()
