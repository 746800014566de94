"""Async copies of a tile whose contiguous dim is not the last one (issue 32): the K-major B
tile of a matmul, read as the transpose of a row-major N x K tensor, as attention reads K^T and
fp8 matmuls read B. Triton's pipeliner writes what its axis analysis proved of the pointers on
the copy (`{contiguity = 8 : i32}`), and Triton emits 16-byte cp.async for both tiles; llcheck
used to assume a row-major tensor there, refused Triton's copy ("the pointers allow 2 bytes")
and predicted st.shared.v4.b32 instead. Compiled here by this environment's Triton for sm80 and
sm90 (no GPU needed); the PTX is the reference."""

import json
import os
import re
import subprocess

import pytest

triton = pytest.importorskip("triton")
tl = pytest.importorskip("triton.language")
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from conftest import llcheck_binary, triton_version  # noqa: E402

NUM_WARPS = 4


@triton.jit
def transposed_b_matmul(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bn, BM: tl.constexpr,
                        BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    # B is N x K row-major, read as its K x N transpose: the tile's dim0 is contiguous.
    b_ptrs = b_ptr + offs_k[:, None] + offs_n[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK
    c_ptrs = c_ptr + offs_m[:, None] * BN + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16))


def compile_for(arch):
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "K": "i32", "stride_am": "i32",
           "stride_bn": "i32"}
    # The JIT marks 16-divisible arguments so; K and the strides are multiples of the tiles.
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(len(sig))}
    src = ASTSource(fn=transposed_b_matmul, signature=sig,
                    constexprs={"BM": 128, "BN": 128, "BK": 64}, attrs=attrs)
    return triton.compile(src, target=GPUTarget("cuda", arch, 32),
                          options={"num_warps": NUM_WARPS, "num_stages": 3})


@pytest.mark.parametrize("arch", [80, 90])
def test_async_copies_follow_the_stated_contiguity(arch, tmp_path):
    kernel = compile_for(arch)
    ttgir, ptx = kernel.asm["ttgir"], kernel.asm["ptx"]
    assert "{contiguity = 8 : i32}" in ttgir, "this Triton states no contiguity on its copies"
    # Triton's code: every cp.async of the kernel moves 16 bytes (per thread, unrolled).
    sizes = re.findall(r"cp\.async\.c[ag]\.shared\.global \[[^\]]*\], \[[^\]]*\], (0x[0-9a-f]+)",
                       ptx)
    assert sizes and set(sizes) == {"0x10"}, sizes
    (tmp_path / "k.ttgir").write_text(ttgir)
    subprocess.run([llcheck_binary(), "report", str(tmp_path / "k.ttgir"), "--out",
                    str(tmp_path / "out"), "--no-z3", "--no-sass", "--quiet", "--triton",
                    triton_version()], check=False)
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    copies = [o for o in report["kernels"][0]["ops"] if o["op"] == "ttg.async_copy_global_to_local"]
    assert copies
    per_thread = 0
    for o in copies:
        p = o["predicted"]
        assert p["lowering"] == "triton", (o["line"], p)
        assert p["store"]["instruction"] == "cp.async.cg.shared.global", (o["line"], p["store"])
        assert p["pointer_contiguity"]["elements"] == 8, p["pointer_contiguity"]
        per_thread += p["store"]["instructions"] // NUM_WARPS
    # The same number of copies per thread as the PTX holds.
    assert per_thread == len(sizes)
