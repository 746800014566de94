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


def cases():
    row8 = blocked([1, 8], [4, 8], [4, 1], [1, 0])
    col8 = blocked([8, 1], [8, 4], [1, 4], [0, 1])
    row4 = blocked([1, 4], [2, 16], [4, 1], [1, 0])
    col4 = blocked([4, 1], [16, 2], [1, 4], [0, 1])
    row8w = blocked([1, 8], [4, 8], [2, 2], [1, 0])
    scalar = blocked([1, 1], [1, 32], [4, 1], [1, 0])
    mma2 = mma([2, 0], [2, 2], [16, 8])
    mma3 = mma([3, 0], [4, 1], [16, 64, 16])
    out = []
    for dtype in ["float16", "float32"]:
        for (name, src, dst, shape) in [
            ("row8_to_col8", row8, col8, [64, 64]),
            ("col8_to_row8", col8, row8, [64, 64]),
            ("row4_to_col4", row4, col4, [64, 64]),
            ("row8_to_row8w", row8, row8w, [64, 64]),
            ("scalar_to_row8", scalar, row8, [64, 64]),
            ("row8_to_mma2", row8, mma2, [64, 64]),
            ("mma2_to_row8", mma2, row8, [64, 64]),
            ("mma2_to_col8", mma2, col8, [64, 64]),
            ("mma3_to_row8", mma3, row8, [64, 64]),
            ("row8_to_col8_128", row8, col8, [128, 128]),
            ("mma2_to_row4_128x64", mma2, row4, [128, 64]),
        ]:
            out.append({"id": f"{name}-{dtype}", "src": src, "dst": dst, "shape": shape,
                        "dtype": dtype})
    return out


def compile_for_sm90(c):
    """Compile without a GPU (to check the cases build, and for the TTGIR)."""
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    ptr = {"float16": "*fp16", "float32": "*fp32"}[c["dtype"]]
    M, N = c["shape"]
    src = GluonASTSource(fn=convert_kernel, signature={"src_ptr": ptr, "dst_ptr": ptr,
                                                       "M": "constexpr", "N": "constexpr",
                                                       "SRC": "constexpr", "DST": "constexpr"},
                         constexprs={"M": M, "N": N, "SRC": c["src"], "DST": c["dst"]})
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})


def main():
    compile_only = "--compile-only" in sys.argv
    out_dir = [a for a in sys.argv[1:] if not a.startswith("--")][0]
    os.makedirs(out_dir, exist_ok=True)
    results = []
    for c in cases():
        rec = {"id": c["id"], "shape": c["shape"], "dtype": c["dtype"], "src": repr(c["src"]),
               "dst": repr(c["dst"])}
        try:
            M, N = c["shape"]
            if compile_only:
                k = compile_for_sm90(c)
            else:
                import torch  # the GPU machine launches through torch tensors
                dt = getattr(torch, c["dtype"])
                x = torch.randn(M, N, device="cuda").to(dt)
                y = torch.full((M, N), float("nan"), device="cuda").to(dt)
                k = convert_kernel[(1,)](x, y, M, N, c["src"], c["dst"], num_warps=4)
                torch.cuda.synchronize()
                rec["correct"] = bool(torch.equal(x, y))
            rec["ttgir"] = k.asm["ttgir"]
            rec["ptx"] = k.asm.get("ptx", "")
        except Exception as e:  # noqa: BLE001 - a case Triton refuses is recorded, not fatal
            rec["error"] = f"{type(e).__name__}: {str(e)[:500]}"
        results.append(rec)
        print(rec["id"], rec.get("correct"), rec.get("error", "")[:120], flush=True)
    with open(os.path.join(out_dir, "cases.json"), "w") as f:
        json.dump({"triton": triton.__version__, "cases": results}, f)


if __name__ == "__main__":
    main()
