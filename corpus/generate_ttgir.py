#!/usr/bin/env python3
"""Compiles a suite of small Triton kernels for several targets, without a GPU, and stores the
TTGIR Triton prints for each: corpus/ttgir/<triton version>/<target>/<kernel>.ttgir.

Triton 3.9.0 (the version llcheck's encodings are checked against). Run from the repository root:

    python3 -m venv /tmp/tvenv && /tmp/tvenv/bin/pip install -q triton==3.9.0
    TRITON_DEFAULT_FP_FUSION=1 /tmp/tvenv/bin/python corpus/generate_ttgir.py

triton.compile() runs the whole pipeline (down to cubin / hsaco, using the ptxas and ld.lld
shipped in the wheel); no GPU is needed because the target is given explicitly. The TTGIR is
taken from the compiled kernel's asm["ttgir"], exactly as Triton prints it (with its debug
locations), nothing stripped. A kernel a target cannot compile (e.g. an fp8 type the
architecture lacks) is skipped and reported on stdout; corpus/README.md lists what is there.
"""
import os
import sys
import tempfile

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
# A private cache: a stale entry from another Triton build must not stand in for a compile.
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="llcheck-ttgir-cache-")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

TARGETS = {
    "cuda-sm80": GPUTarget("cuda", 80, 32),
    "cuda-sm90": GPUTarget("cuda", 90, 32),
    "cuda-sm100": GPUTarget("cuda", 100, 32),
    "hip-gfx942": GPUTarget("hip", "gfx942", 64),
    "hip-gfx950": GPUTarget("hip", "gfx950", 64),
}


@triton.jit
def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
           PRECISION: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc, input_precision=PRECISION)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(c.dtype.element_ty))


@triton.jit
def attention_fwd(q, k, v, o, N_CTX, scale, BM: tl.constexpr, BN: tl.constexpr,
                  D: tl.constexpr):
    start_m = tl.program_id(0)
    rm = start_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    qt = tl.load(q + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM,), float("-inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start_n in range(0, N_CTX, BN):
        kt = tl.load(k + (start_n + rn)[None, :] * D + rd[:, None])
        s = tl.dot(qt, kt) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        vt = tl.load(v + (start_n + rn)[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(vt.dtype), vt)
        m_i = m_new
    tl.store(o + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(o.dtype.element_ty))


@triton.jit
def softmax(x, y, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x + row * stride + cols, mask=mask, other=float("-inf"))
    v = v - tl.max(v, 0)
    e = tl.exp(v)
    tl.store(y + row * stride + cols, e / tl.sum(e, 0), mask=mask)


@triton.jit
def layernorm(x, y, w, b, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    v = tl.load(x + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(v, 0) / N
    d = tl.where(mask, v - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(d * d, 0) / N + eps)
    out = d * rstd * tl.load(w + cols, mask=mask) + tl.load(b + cols, mask=mask)
    tl.store(y + row * stride + cols, out.to(y.dtype.element_ty), mask=mask)


@triton.jit
def transpose(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    t = tl.load(x + rm[:, None] * N + rn[None, :])
    tl.store(y + rn[:, None] * M + rm[None, :], tl.trans(t))


@triton.jit
def reduce_rows_cols(x, rows, cols, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    t = tl.load(x + rm[:, None] * BN + rn[None, :])
    tl.store(rows + rm, tl.sum(t, 1))
    tl.store(cols + rn, tl.max(t, 0))


@triton.jit
def cumsum(x, y, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    t = tl.load(x + rm[:, None] * BN + rn[None, :])
    tl.store(y + rm[:, None] * BN + rn[None, :], tl.cumsum(t, 1))


@triton.jit
def gather(x, idx, y, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    t = tl.load(x + rm[:, None] * BN + rn[None, :])
    i = tl.load(idx + rm[:, None] * BN + rn[None, :])
    tl.store(y + rm[:, None] * BN + rn[None, :], tl.gather(t, i, 1))


@triton.jit
def reshape_permute(x, y, B: tl.constexpr):
    r = tl.arange(0, B * B * 4)
    t = tl.load(x + r)
    t = tl.reshape(t, (B, B, 4))
    t = tl.permute(t, (2, 0, 1))
    s = tl.sum(t, 0)
    u = tl.broadcast_to(s[None, :, :], (2, B, B))
    u = tl.reshape(u, (2 * B * B,))
    tl.store(y + tl.arange(0, 2 * B * B), u)


def fp8_type(target):
    """The fp8 type the target's dots take, or None (sm80 has no fp8 MMA)."""
    if target.backend == "cuda":
        return "fp8e4nv" if target.arch >= 89 else None
    return "fp8e4b8" if target.arch == "gfx942" else "fp8e4nv"


def kernels(target):
    """(name, fn, signature, constexprs, options) for every kernel of the suite on `target`."""
    out = []
    mm_sig = lambda a, c: {"a": f"*{a}", "b": f"*{a}", "c": f"*{c}", "M": "i32", "N": "i32",
                           "K": "i32"}
    tiles = [(64, 64, 32), (128, 128, 64)]
    dtypes = [("fp16", "fp16", "ieee"), ("bf16", "bf16", "ieee"),
              ("fp32", "fp32", "tf32" if target.backend == "cuda" else "ieee")]
    fp8 = fp8_type(target)
    if fp8:
        dtypes.append((fp8, "fp16", "ieee"))
    for a, c, prec in dtypes:
        for bm, bn, bk in tiles:
            if a != "fp16" and bm == 128:
                continue  # the large tile for fp16 only keeps the corpus small
            out.append((f"matmul-{a}-{bm}x{bn}x{bk}", matmul, mm_sig(a, c),
                        {"BM": bm, "BN": bn, "BK": bk, "PRECISION": prec},
                        {"num_warps": 4, "num_stages": 3}))
    out.append(("attention-fwd-fp16", attention_fwd,
                {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "N_CTX": "i32",
                 "scale": "fp32"}, {"BM": 64, "BN": 64, "D": 64},
                {"num_warps": 4, "num_stages": 2}))
    out.append(("softmax-fp32", softmax, {"x": "*fp32", "y": "*fp32", "stride": "i32",
                                          "n_cols": "i32"}, {"BLOCK": 1024}, {"num_warps": 4}))
    out.append(("layernorm-fp16", layernorm,
                {"x": "*fp16", "y": "*fp16", "w": "*fp32", "b": "*fp32", "stride": "i32",
                 "N": "i32", "eps": "fp32"}, {"BLOCK": 512}, {"num_warps": 4}))
    out.append(("transpose-fp16", transpose, {"x": "*fp16", "y": "*fp16", "M": "i32", "N": "i32"},
                {"BM": 64, "BN": 64}, {"num_warps": 4}))
    out.append(("reduce-fp32", reduce_rows_cols, {"x": "*fp32", "rows": "*fp32", "cols": "*fp32"},
                {"BM": 32, "BN": 64}, {"num_warps": 4}))
    out.append(("cumsum-fp32", cumsum, {"x": "*fp32", "y": "*fp32"}, {"BM": 16, "BN": 64},
                {"num_warps": 4}))
    out.append(("gather-fp32", gather, {"x": "*fp32", "idx": "*i32", "y": "*fp32"},
                {"BM": 32, "BN": 32}, {"num_warps": 4}))
    out.append(("reshape-permute-fp32", reshape_permute, {"x": "*fp32", "y": "*fp32"}, {"B": 16},
                {"num_warps": 4}))
    return out


def main():
    root = os.path.dirname(os.path.abspath(__file__))
    base = os.path.join(root, "ttgir", triton.__version__)
    made, skipped = 0, []
    for tname, target in TARGETS.items():
        os.makedirs(os.path.join(base, tname), exist_ok=True)
        for name, fn, sig, constexprs, options in kernels(target):
            src = ASTSource(fn=fn, signature=sig, constexprs=constexprs)
            try:
                k = triton.compile(src, target=target, options=options)
            except Exception as e:  # a target that cannot compile this kernel: report, go on
                skipped.append(f"{tname}/{name}: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
                continue
            with open(os.path.join(base, tname, name + ".ttgir"), "w") as f:
                f.write(k.asm["ttgir"])
            made += 1
            print(f"wrote {tname}/{name}.ttgir", flush=True)
    print(f"{made} files written under {base}")
    for s in skipped:
        print("skipped", s)


if __name__ == "__main__":
    sys.exit(main())
