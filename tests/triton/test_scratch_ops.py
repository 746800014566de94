"""Reductions, scans and atomics in `llcheck report` (issue 32): each is listed in the kernel's
`scratch_ops` with whether Triton's lowering goes through shared memory; reduces and scans
across warps are predicted instruction by instruction (checked here against the PTX), the
others that use shared memory are not-understood items instead of being skipped.
Whether one does is read from the operand's layout (a reduce or scan whose axis spans warps);
the reference is Triton's own PTX for the same kernel, compiled here for sm80 and sm90 by this
environment's Triton (3.9 and 3.6): shared memory there means ld.shared / st.shared in the PTX,
which these kernels use for nothing else but the convert_layout ops the report predicts through
shared memory (a reduction's result often changes layout before its store)."""

import json
import re
import subprocess

import pytest

triton = pytest.importorskip("triton")
tl = pytest.importorskip("triton.language")
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from conftest import llcheck_binary, triton_version  # noqa: E402


@triton.jit
def reduce_tile(x, out, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    t = tl.load(x + offs_m[:, None] * N + offs_n[None, :])
    if AXIS == 0:
        tl.store(out + offs_n, tl.sum(t, axis=0))
    else:
        tl.store(out + offs_m, tl.max(t, axis=1))


@triton.jit
def sum_row(x, out, N: tl.constexpr):
    # One row reduced to one value: no layout change after the reduction.
    tl.store(out, tl.sum(tl.load(x + tl.arange(0, N)), axis=0))


@triton.jit
def cumsum_row(x, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out + offs, tl.cumsum(tl.load(x + offs), 0))


@triton.jit
def cumsum_tile(x, out, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
                REV: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out + offs, tl.cumsum(tl.load(x + offs), AXIS, reverse=REV))


@triton.jit
def atomic_counter(counter, out, N: tl.constexpr):
    old = tl.atomic_add(counter, 1)
    tl.store(out + tl.arange(0, N), tl.full([N], 0, tl.int32) + old)


CASES = [  # (id, fn, constexprs, num_warps)
    ("sum-axis0-64x64-w4", reduce_tile, {"M": 64, "N": 64, "AXIS": 0}, 4),
    ("max-axis1-64x64-w4", reduce_tile, {"M": 64, "N": 64, "AXIS": 1}, 4),
    ("max-axis1-8x1024-w4", reduce_tile, {"M": 8, "N": 1024, "AXIS": 1}, 4),
    ("sum-axis0-1024x8-w8", reduce_tile, {"M": 1024, "N": 8, "AXIS": 0}, 8),
    ("max-axis1-32x32-w1", reduce_tile, {"M": 32, "N": 32, "AXIS": 1}, 1),
    ("sum-1024-w4", sum_row, {"N": 1024}, 4),
    ("sum-1024-w1", sum_row, {"N": 1024}, 1),
    ("cumsum-1024-w4", cumsum_row, {"N": 1024}, 4),
    ("cumsum-32-w1", cumsum_row, {"N": 32}, 1),
    ("cumsum-4096-w4", cumsum_row, {"N": 4096}, 4),
    ("cumsum-256x16-axis0-w8", cumsum_tile, {"M": 256, "N": 16, "AXIS": 0, "REV": False}, 8),
    ("cumsum-16x256-axis1-w4-rev", cumsum_tile, {"M": 16, "N": 256, "AXIS": 1, "REV": True}, 4),
    ("cumsum-4x1024-axis1-w8", cumsum_tile, {"M": 4, "N": 1024, "AXIS": 1, "REV": False}, 8),
    ("atomic-scalar-w4", atomic_counter, {"N": 128}, 4),
]
SIGNATURES = {reduce_tile: {"x": "*fp32", "out": "*fp32"},
              cumsum_row: {"x": "*fp32", "out": "*fp32"},
              cumsum_tile: {"x": "*fp32", "out": "*fp32"},
              sum_row: {"x": "*fp32", "out": "*fp32"},
              atomic_counter: {"counter": "*i32", "out": "*i32"}}
PTX_SHARED = re.compile(r"^\s*(?:@!?%p\d+\s+)?(?:ld|st|atom|red)\.shared", re.M)


def kernel_report(kernel, tmp_path):
    """`llcheck report` of a compiled kernel's TTGIR, in this environment's Triton release."""
    (tmp_path / "k.ttgir").write_text(kernel.asm["ttgir"])
    proc = subprocess.run([llcheck_binary(), "report", str(tmp_path / "k.ttgir"), "--out",
                           str(tmp_path / "out"), "--no-z3", "--no-sass", "--quiet", "--triton",
                           triton_version()], capture_output=True, text=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads((tmp_path / "out" / "report.json").read_text())["kernels"][0]


@pytest.mark.parametrize("arch", [80, 90])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_scratch_ops_say_whether_triton_uses_shared_memory(case, arch, tmp_path):
    _, fn, constexprs, warps = case
    sig = dict(SIGNATURES[fn], **{k: "constexpr" for k in constexprs})
    attrs = {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]]}
    kernel = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=attrs),
                            target=GPUTarget("cuda", arch, 32), options={"num_warps": warps})
    k = kernel_report(kernel, tmp_path)
    ops = k["scratch_ops"]
    assert ops, "no reduction, scan or atomic listed"
    uses_shared = bool(PTX_SHARED.search(kernel.asm["ptx"]))
    said = [o["shared_memory"] for o in ops]
    assert None not in said, ops
    converts = [o for o in k["ops"] if o["op"] == "ttg.convert_layout"
                and isinstance(o.get("predicted"), dict) and o["predicted"].get("shared_memory")]
    assert (any(said) or bool(converts)) == uses_shared, (ops, converts, uses_shared)
    # Where no conversion touches shared memory, the PTX's shared accesses are the scratch ops'
    # alone: the classification is checked exactly (most cases here: sum along dim0, the scans,
    # the atomic).
    # A reduce across warps is predicted (TritonReduce.h); the other ops that use shared
    # memory stay not-understood items.
    listed = [n for n in k["not_understood"] if n["text"] in ("tt.reduce", "tt.scan",
                                                              "tt.atomic_rmw")]
    unpredicted = [o for o in ops if o["shared_memory"] and "predicted" not in o]
    assert len(listed) == len(unpredicted), (listed, ops)
    for o in ops:
        if o["op"] == "tt.reduce" and o["shared_memory"]:
            assert "predicted" in o, o
            assert reduce_shared(kernel.asm["ptx"]) == predicted_shared(o), (
                o, reduce_shared(kernel.asm["ptx"]))
        if o["op"] == "tt.scan" and o["shared_memory"]:
            # The PTX's loads, before ptxas merges the broadcast ones further (the steps count
            # the SASS, measured on the H200 in gpu_oracle/reduce_scratch).
            assert "predicted" in o, o
            want = {k: v for k, v in predicted_shared(o).items() if k[0] == "st"}
            for widths in o["ptx_load_widths_per_warp"]:
                for bits, n in widths.items():
                    want[("ld", int(bits))] = want.get(("ld", int(bits)), 0) + n
            assert reduce_shared(kernel.asm["ptx"]) == {k: v for k, v in want.items() if v}, (
                o, reduce_shared(kernel.asm["ptx"]))


def reduce_shared(ptx):
    """The PTX's ld/st.shared that Triton's reductions and scans emit, by (ld|st, bits per lane): those
    whose .loc is in Triton's language/standard.py (tl.sum, tl.max, ... are written there; the
    convert_layout ops the kernels also have carry the kernel's own lines)."""
    files = dict(re.findall(r'^\s*\.file\s+(\d+)\s+"([^"]+)"', ptx, re.M))
    counts, here = {}, None
    for line in ptx.splitlines():
        loc = re.match(r"\s*\.loc\s+(\d+)\s", line)
        if loc:
            here = files.get(loc.group(1), "")
            continue
        m = re.match(r"\s*(?:@!?%p\d+\s+)?(ld|st)\.shared(?:::cta)?(?:\.v(\d))?\.[a-z](\d+)",
                     line)
        if m and here and here.endswith("language/standard.py"):
            key = (m.group(1), int(m.group(2) or 1) * int(m.group(3)))
            counts[key] = counts.get(key, 0) + 1
    return counts


def predicted_shared(op):
    """llcheck's prediction of the same: per step, its instructions per warp by width."""
    counts = {}
    for step in op["predicted"]:
        kind = step["instruction"].split(".")[0]
        widths = step.get("widths_per_warp", {str(step["vector_bits"]): step["instructions_per_warp"]})
        for bits, n in widths.items():
            counts[(kind, int(bits))] = counts.get((kind, int(bits)), 0) + n
    return {k: v for k, v in counts.items() if v}


@triton.jit
def histogram(x, out, N: tl.constexpr, B: tl.constexpr):
    tl.store(out + tl.arange(0, B), tl.histogram(tl.load(x + tl.arange(0, N)), B))


@triton.jit
def atomic_max_scalar(counter, out, N: tl.constexpr):
    old = tl.atomic_max(counter, 3)
    tl.store(out + tl.arange(0, N), tl.full([N], 0, tl.int32) + old)


@triton.jit
def atomic_unread(counter, out, N: tl.constexpr):
    tl.atomic_add(counter, 1)
    tl.store(out + tl.arange(0, N), tl.full([N], 0, tl.int32))


OWN_CASES = [  # kernels whose only shared-memory accesses are the scratch op's
    ("histogram-1024-b64-w4", histogram, {"N": 1024, "B": 64}, 4),
    ("histogram-1024-b256-w4", histogram, {"N": 1024, "B": 256}, 4),
    ("histogram-4096-b128-w8", histogram, {"N": 4096, "B": 128}, 8),
    ("histogram-256-b16-w2", histogram, {"N": 256, "B": 16}, 2),
    ("atomic-max-w8", atomic_max_scalar, {"N": 512}, 8),
    ("atomic-unread-w4", atomic_unread, {"N": 128}, 4),
]
PTX_ANY_SHARED = re.compile(
    r"^\s*(?:@!?%p\d+\s+)?(ld|st|atom)(?:\.relaxed\.sys)?\.shared(?:::cta)?"
    r"(?:\.add\.u32|\.v(\d)\.[a-z](\d+)|\.[a-z](\d+))", re.M)


@pytest.mark.parametrize("arch", [80, 90])
@pytest.mark.parametrize("case", OWN_CASES, ids=[c[0] for c in OWN_CASES])
def test_histograms_and_scalar_atomics_are_predicted_as_the_ptx_has_them(case, arch, tmp_path):
    """Per warp, by (ld|st|atom, bits per lane): the PTX's shared-memory instructions against
    the scratch op's predicted steps (Triton 3.6 counts bins with one atomic per lane and bin
    group, 3.9 with one per element; an atomic whose result is unread has no broadcast)."""
    _, fn, constexprs, warps = case
    ptr = "*i32"
    sig = {"x" if fn is histogram else "counter": ptr, "out": ptr,
           **{k: "constexpr" for k in constexprs}}
    kernel = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=constexprs),
                            target=GPUTarget("cuda", arch, 32), options={"num_warps": warps})
    k = kernel_report(kernel, tmp_path)
    assert not [n for n in k["not_understood"] if n["what"] == "op"], k["not_understood"]
    ptx = {}
    for m in PTX_ANY_SHARED.finditer(kernel.asm["ptx"]):
        bits = int(m.group(2)) * int(m.group(3)) if m.group(2) else int(m.group(4) or 32)
        ptx[(m.group(1), bits)] = ptx.get((m.group(1), bits), 0) + 1
    predicted = {}
    for o in k["scratch_ops"]:
        if o["shared_memory"]:
            for kind_bits, n in predicted_shared(o).items():
                predicted[kind_bits] = predicted.get(kind_bits, 0) + n
    assert predicted == ptx, (k["scratch_ops"], ptx)
