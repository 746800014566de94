"""Triton's own shared-memory stores and loads through a shared layout the kernel chooses: for
each case a Gluon kernel loads a tensor in register layout A, stores it with
`gl.allocate_shared_memory(dtype, shape, S, x)` into shared layout S, loads it back with
`.load(B)` into layout B and stores it out. One CTA of 4 warps, so the counters are per CTA as
`llcheck report`'s predictions for the local_alloc and local_load ops of the TTGIR are.

On the GPU machine (run_shared.sh does this, under ncu):
    python3 probe_shared.py OUT_DIR [--compile-only]
writes OUT_DIR/cases.json: per case the layouts, whether the data came through, the TTGIR and
the shared-memory instructions of the PTX.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "gpu_oracle", "triton_convert"))

import triton  # noqa: E402
from triton.experimental import gluon  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402

import probe  # noqa: E402  (the register layouts and the PTX instruction count)


@gluon.jit
def shared_kernel(src_ptr, dst_ptr, M: gl.constexpr, N: gl.constexpr, A: gl.constexpr,
                  S: gl.constexpr, B: gl.constexpr):
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, A))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, A))
    x = gl.load(src_ptr + rows[:, None] * N + cols[None, :])
    smem = gl.allocate_shared_memory(src_ptr.dtype.element_ty, [M, N], S, x)
    y = smem.load(B)
    rows2 = gl.arange(0, M, layout=gl.SliceLayout(1, B))
    cols2 = gl.arange(0, N, layout=gl.SliceLayout(0, B))
    gl.store(dst_ptr + rows2[:, None] * N + cols2[None, :], y)


BITS = {"float16": 16, "float32": 32}


def shared_layouts(dtype):
    sw = gl.SwizzledSharedLayout
    return {
        "row": sw(1, 1, 1, [1, 0]),
        "col": sw(1, 1, 1, [0, 1]),
        "sw8": sw(8, 1, 8, [1, 0]),
        "sw4p2": sw(4, 2, 4, [1, 0]),
        "colsw8": sw(8, 1, 8, [0, 1]),
        "nvmma128": gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=BITS[dtype],
                                         rank=2),
    }


PAIRS = [("row8", "row8"), ("row8", "col8"), ("col8", "row8"), ("row4", "dotA"),
         ("row8", "dotB"), ("scalar", "mma2"), ("mma2", "row4"), ("row8", "dotA"),
         ("col8", "dotB")]


def cases():
    out = []
    for dtype in ["float16", "float32"]:
        ls = probe.layouts(dtype)
        for sname, s in shared_layouts(dtype).items():
            for a, b in PAIRS:
                out.append({"id": f"{a}_via_{sname}_to_{b}-{dtype}", "src": ls[a], "shared": s,
                            "dst": ls[b], "shape": [64, 64], "dtype": dtype})
    return out


def compile_for_sm90(c):
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    ptr = {"float16": "*fp16", "float32": "*fp32"}[c["dtype"]]
    M, N = c["shape"]
    src = GluonASTSource(fn=shared_kernel, signature={"src_ptr": ptr, "dst_ptr": ptr,
                                                      "M": "constexpr", "N": "constexpr",
                                                      "A": "constexpr", "S": "constexpr",
                                                      "B": "constexpr"},
                         constexprs={"M": M, "N": N, "A": c["src"], "S": c["shared"],
                                     "B": c["dst"]})
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})


def main():
    compile_only = "--compile-only" in sys.argv
    out_dir = [a for a in sys.argv[1:] if not a.startswith("--")][0]
    os.makedirs(out_dir, exist_ok=True)
    results = []
    for c in cases():
        rec = {"id": c["id"], "shape": c["shape"], "dtype": c["dtype"], "src": repr(c["src"]),
               "shared": repr(c["shared"]), "dst": repr(c["dst"])}
        try:
            M, N = c["shape"]
            if compile_only:
                k = compile_for_sm90(c)
            else:
                import torch
                dt = getattr(torch, c["dtype"])
                x = torch.randn(M, N, device="cuda").to(dt)
                y = torch.full((M, N), float("nan"), device="cuda").to(dt)
                k = shared_kernel[(1,)](x, y, M, N, c["src"], c["shared"], c["dst"], num_warps=4)
                torch.cuda.synchronize()
                rec["correct"] = bool(torch.equal(x, y))
            rec["ttgir"] = k.asm["ttgir"]
            rec["ptx_shared"] = probe.shared_instructions(k.asm.get("ptx", ""))
        except Exception as e:  # noqa: BLE001 - a case Triton refuses is recorded, not fatal
            rec["error"] = f"{type(e).__name__}: {str(e)[:500]}"
        results.append(rec)
        print(rec["id"], rec.get("correct"), rec.get("error", "")[:160], flush=True)
        with open(os.path.join(out_dir, "cases.json"), "w") as f:
            json.dump({"triton": triton.__version__, "cases": results}, f)


if __name__ == "__main__":
    main()
