"""TMA copies and descriptor-reading MMAs in `llcheck report` (issue 32), on the TTGIR this
environment's Triton (3.9 or 3.6) compiles for sm90 from kernels with host-side tensor
descriptors: a 64 x 64 tile copied in and out, and a matmul whose K loop Triton pipelines over
three stages (TMA loads, warp_group_dot, a TMA store). Every TMA copy is read, none is a
not-understood item, each descriptor's encoding is its buffer's, and every mbarrier's
barrier_expect (Triton's own count of the bytes it waits for) equals the bytes llcheck computes
for the copies arriving on it; the warp_group_dot is listed as reading its shared operands
through descriptors."""

import json
import subprocess

import pytest

triton = pytest.importorskip("triton")
tl = pytest.importorskip("triton.language")
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from conftest import llcheck_binary, triton_version  # noqa: E402


@triton.jit
def tma_copy(a_desc, c_desc, BM: tl.constexpr):
    pid = tl.program_id(0)
    t = a_desc.load([pid * BM, 0])
    c_desc.store([pid * BM, 0], t + 1)


@triton.jit
def tma_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


def desc(dtype, shape):
    return f"tensordesc<{dtype}[{shape[0]}, {shape[1]}]>"


CASES = [  # (id, fn, signature, constexprs, options)
    ("copy-64x64-fp16", tma_copy,
     {"a_desc": desc("fp16", (64, 64)), "c_desc": desc("fp16", (64, 64)), "BM": "constexpr"},
     {"BM": 64}, {"num_warps": 4}),
    ("copy-32x128-fp32", tma_copy,
     {"a_desc": desc("fp32", (32, 128)), "c_desc": desc("fp32", (32, 128)), "BM": "constexpr"},
     {"BM": 32}, {"num_warps": 4}),
    ("matmul-128x128x64-fp16-3stages", tma_matmul,
     {"a_desc": desc("fp16", (128, 64)), "b_desc": desc("fp16", (64, 128)),
      "c_desc": desc("fp16", (128, 128)), "K": "i32", "BM": "constexpr", "BN": "constexpr",
      "BK": "constexpr"},
     {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": 8, "num_stages": 3}),
    ("matmul-64x128x32-bf16-4stages", tma_matmul,
     {"a_desc": desc("bf16", (64, 32)), "b_desc": desc("bf16", (32, 128)),
      "c_desc": desc("bf16", (64, 128)), "K": "i32", "BM": "constexpr", "BN": "constexpr",
      "BK": "constexpr"},
     {"BM": 64, "BN": 128, "BK": 32}, {"num_warps": 4, "num_stages": 4}),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_tma_copies_are_read_and_their_barriers_agree(case, tmp_path):
    _, fn, sig, constexprs, options = case
    kernel = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=constexprs),
                            target=GPUTarget("cuda", 90, 32), options=options)
    ttgir = kernel.asm["ttgir"]
    (tmp_path / "k.ttgir").write_text(ttgir)
    proc = subprocess.run([llcheck_binary(), "report", str(tmp_path / "k.ttgir"), "--out",
                           str(tmp_path / "out"), "--no-z3", "--no-sass", "--quiet", "--triton",
                           triton_version()], capture_output=True, text=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    k = json.loads((tmp_path / "out" / "report.json").read_text())["kernels"][0]
    assert not [n for n in k["not_understood"] if "tma" in n["text"]], k["not_understood"]
    copies = k["tma_copies"]
    written = ttgir.count("ttng.async_tma_copy_global_to_local ") + ttgir.count(
        "ttng.async_tma_copy_local_to_global ")
    assert len(copies) == written > 0
    for c in copies:
        assert c["bytes"] > 0 and c["swizzle_bytes"] in (32, 64, 128), c
        assert c["matches_buffer_layout"], c
    expects = [b for b in k["barriers"]]
    assert expects and all(b["agree"] for b in expects), expects
    assert not [f for f in k["findings"] if f["kind"].startswith("tma_")], k["findings"]
    if fn is tma_matmul:
        dots = [d for d in k["descriptor_reads"] if d["op"] == "ttng.warp_group_dot"]
        assert dots, k["descriptor_reads"]
        for d in dots:
            assert d["operands"] and all("nvmma_shared" in (o["encoding"] or "")
                                         for o in d["operands"]), d
