"""The axis analysis of `llcheck report` (issue 32) against Triton itself, on kernels written as
people write them: the tutorial matmul with its K loop, `% M` offsets and masks; attention's
transposed K tile; softmax and layer norm with column masks and a loop; a column-major copy; the
hints tl.multiple_of / tl.max_contiguous; an offset that breaks the alignment. Each is compiled
here by this environment's Triton (3.9 in .venv, 3.6 in .venv-triton-3.6; no GPU needed) for sm80
and sm90, and the PTX is the reference:

- every tt.load / tt.store entry's predicted access (ld.global.v4.b32, ...) and its count per
  thread, summed per instruction over the kernel, equal the PTX's;
- no entry rests on row-major strides it did not establish: a column-major tile gets strides with
  1 along dim0 and no global_above_ideal;
- where Triton pipelines a loop (num_stages 3 on sm80/sm90), the contiguity llcheck's analysis
  gives each async copy's pointers equals the `{contiguity = N}` Triton's pipeliner wrote on it
  from its own AxisInfo."""

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
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  GROUP_M: tl.constexpr):
    # Triton's tutorial 03, as written there.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def attention_scores(q_ptr, k_ptr, o_ptr, N_CTX, stride_qm, stride_kn, BM: tl.constexpr,
                     BN: tl.constexpr, D: tl.constexpr):
    # The first product of fused attention: Q K^T with K read transposed (dim0 contiguous).
    start_m = tl.program_id(0)
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + offs_m[:, None] * stride_qm + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    for start_n in range(0, N_CTX, BN):
        offs_n = start_n + tl.arange(0, BN)
        kt = tl.load(k_ptr + offs_d[:, None] + offs_n[None, :] * stride_kn)
        s = tl.dot(q, kt)
        m_i = tl.maximum(m_i, tl.max(s, 1))
    tl.store(o_ptr + offs_m, m_i)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols,
                   BLOCK: tl.constexpr):
    # Triton's tutorial 02, one row per iteration.
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in range(row_start, n_rows, row_step):
        row_start_ptr = in_ptr + row_idx * in_row_stride
        col_offsets = tl.arange(0, BLOCK)
        mask = col_offsets < n_cols
        row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        softmax_output = numerator / tl.sum(numerator, axis=0)
        out_row_start_ptr = out_ptr + row_idx * out_row_stride
        tl.store(out_row_start_ptr + col_offsets, softmax_output, mask=mask)


@triton.jit
def layer_norm_mean(X, Mean, stride, N, BLOCK: tl.constexpr):
    # The first loop of Triton's tutorial 05.
    row = tl.program_id(0)
    X += row * stride
    _mean = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    tl.store(Mean + row, tl.sum(_mean, axis=0) / N)


@triton.jit
def column_major_copy(src, dst, stride_src, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    x = tl.load(src + offs_m[:, None] + offs_n[None, :] * stride_src)
    tl.store(dst + offs_m[:, None] * BN + offs_n[None, :], x)


@triton.jit
def hinted_gather(src, idx_ptr, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    base = tl.load(idx_ptr + offs // 8) * 8 + offs % 8
    base = tl.max_contiguous(tl.multiple_of(base, 8), 8)
    tl.store(dst + offs, tl.load(src + base))


@triton.jit
def shifted_copy(src, dst, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs + 1))


def div16(*names):
    return set(names)


# (id, fn, signature, constexprs, the arguments marked tt.divisibility = 16, num_warps)
KERNELS = [
    ("matmul", matmul_kernel,
     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
      "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
      "stride_cm": "i32", "stride_cn": "constexpr"},
     {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BM": 64, "BN": 64, "BK": 32, "GROUP_M": 8},
     div16("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), 4),
    ("matmul-odd-strides", matmul_kernel,
     {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
      "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
      "stride_cm": "i32", "stride_cn": "constexpr"},
     {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BM": 64, "BN": 32, "BK": 32, "GROUP_M": 8},
     div16("a_ptr", "b_ptr", "c_ptr", "M"), 4),
    ("attention-kt", attention_scores,
     {"q_ptr": "*fp16", "k_ptr": "*fp16", "o_ptr": "*fp32", "N_CTX": "i32", "stride_qm": "i32",
      "stride_kn": "i32"},
     {"BM": 64, "BN": 64, "D": 64},
     div16("q_ptr", "k_ptr", "o_ptr", "N_CTX", "stride_qm", "stride_kn"), 4),
    ("softmax", softmax_kernel,
     {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32", "out_row_stride": "i32",
      "n_rows": "i32", "n_cols": "i32"},
     {"BLOCK": 1024},
     div16("out_ptr", "in_ptr", "in_row_stride", "out_row_stride", "n_cols"), 4),
    ("softmax-unaligned-rows", softmax_kernel,
     {"out_ptr": "*fp16", "in_ptr": "*fp16", "in_row_stride": "i32", "out_row_stride": "i32",
      "n_rows": "i32", "n_cols": "i32"},
     {"BLOCK": 256},
     div16("out_ptr", "in_ptr"), 8),
    ("layer-norm-mean", layer_norm_mean,
     {"X": "*fp16", "Mean": "*fp32", "stride": "i32", "N": "i32"}, {"BLOCK": 512},
     div16("X", "Mean", "stride", "N"), 4),
    ("column-major-copy", column_major_copy,
     {"src": "*fp16", "dst": "*fp16", "stride_src": "i32"}, {"BM": 64, "BN": 32},
     div16("src", "dst", "stride_src"), 4),
    ("hinted-gather", hinted_gather,
     {"src": "*fp32", "idx_ptr": "*i32", "dst": "*fp32"}, {"BLOCK": 256},
     div16("src", "idx_ptr", "dst"), 4),
    ("shifted-copy", shifted_copy, {"src": "*fp32", "dst": "*fp32"}, {"BLOCK": 512},
     div16("src", "dst"), 4),
]

PTX_GLOBAL = re.compile(r"^\s*(?:@!?%p\d+\s+)?((?:ld|st)\.global[\w.:]*)", re.M)


def ptx_global(ptx):
    """{"ld.global.v4.b32": 4, ...}: Triton's global loads and stores per thread, cache and
    eviction qualifiers dropped (llcheck predicts the width, not the cache policy)."""
    counts = {}
    for m in PTX_GLOBAL.finditer(ptx):
        parts = [p for p in m.group(1).split(".") if "::" not in p and p not in
                 ("nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "L1", "L2")]
        key = ".".join(parts)
        counts[key] = counts.get(key, 0) + 1
    return counts


def compile_kernel(case, arch, num_stages):
    _, fn, sig, constexprs, marked, warps = case
    names = list(sig)
    attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in marked}
    src = ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=attrs)
    return triton.compile(src, target=GPUTarget("cuda", arch, 32),
                          options={"num_warps": warps, "num_stages": num_stages})


def run_report(ttgir, tmp_path):
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "k.ttgir"
    path.write_text(ttgir)
    proc = subprocess.run([llcheck_binary(), "report", str(path), "--out", str(tmp_path / "out"),
                           "--no-z3", "--no-sass", "--quiet", "--triton", triton_version()],
                          capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads((tmp_path / "out" / "report.json").read_text())["kernels"][0]


@pytest.mark.parametrize("arch", [80, 90])
@pytest.mark.parametrize("case", KERNELS, ids=[k[0] for k in KERNELS])
def test_global_accesses_match_the_ptx(case, arch, tmp_path):
    kernel = compile_kernel(case, arch, num_stages=1)
    report = run_report(kernel.asm["ttgir"], tmp_path)
    accesses = report["global_accesses"]
    assert accesses, "no tt.load / tt.store entries"
    predicted = {}
    for a in accesses:
        assert "predicted" in a, a
        p = a["predicted"]
        # A scalar pointer has no layout and no axis facts; its one value is predicted alone.
        assert p.get("scalar") or "axis_info" in a, a
        predicted[p["ptx"]] = predicted.get(p["ptx"], 0) + p["instructions_per_warp"]
    ptx = ptx_global(kernel.asm["ptx"])
    # Scalar accesses (tt.store of a reduction's result, a loaded index) are entries of their
    # own; what the PTX has beyond the entries is only in the kernels listed below.
    scalar_ops = {k: v for k, v in ptx.items() if k not in predicted}
    assert predicted == {k: ptx.get(k, 0) for k in predicted}, (predicted, ptx)
    for k in scalar_ops:
        assert case[0] in ("attention-kt", "layer-norm-mean", "hinted-gather"), (k, ptx)
    for a in accesses:
        if a.get("finding") == "global_above_ideal":
            assert "strides_not_established" not in a, a


def test_column_major_tiles_are_read_as_such(tmp_path):
    case = next(k for k in KERNELS if k[0] == "column-major-copy")
    kernel = compile_kernel(case, 90, num_stages=1)
    report = run_report(kernel.asm["ttgir"], tmp_path)
    load = next(a for a in report["global_accesses"] if a["op"] == "tt.load")
    assert load["strides"] == "[1, %stride_src]", load
    assert load["axis_info"]["pointer"]["contiguity"][0] == 64, load
    # Triton's coalescing pass put the registers down dim0 (order [0, 1]) and vectorized 8
    # halves; the coalesced layout of a column-major tile is the same, so no finding.
    assert load["predicted"]["vector_elements"] == 8, load
    assert load.get("finding") != "global_above_ideal"
    kt = compile_kernel(next(k for k in KERNELS if k[0] == "attention-kt"), 90, num_stages=1)
    report = run_report(kt.asm["ttgir"], tmp_path / "kt")
    loads = [a for a in report["global_accesses"] if a["op"] == "tt.load"]
    assert any(a["strides"] == "[1, %stride_kn]" for a in loads), loads
    assert not any(a.get("finding") == "global_above_ideal" for a in loads), loads


CONTIGUITY = re.compile(r"^\s*(%\S+) = ttg\.async_copy_global_to_local .*\{contiguity = (\d+)"
                        r" : i32\}", re.M)


@pytest.mark.parametrize("arch", [80, 90])
@pytest.mark.parametrize("name", ["matmul", "matmul-odd-strides", "attention-kt"])
def test_async_copy_contiguity_is_tritons(name, arch, tmp_path):
    case = next(k for k in KERNELS if k[0] == name)
    kernel = compile_kernel(case, arch, num_stages=3)
    ttgir = kernel.asm["ttgir"]
    stated = {}
    for i, line in enumerate(ttgir.splitlines(), 1):
        m = re.search(r"ttg\.async_copy_global_to_local .*\{contiguity = (\d+) : i32\}", line)
        if m:
            stated[i] = int(m.group(1))
    if not stated:
        pytest.skip("this Triton pipelines no async copy here")
    report = run_report(ttgir, tmp_path)
    copies = {o["line"]: o for o in report["ops"] if o["op"] == "ttg.async_copy_global_to_local"}
    for line, n in stated.items():
        o = copies[line]
        axis = o["predicted"]["pointer_contiguity"]
        assert axis.get("axis_info_elements") == n, (line, n, axis)


@pytest.mark.parametrize("row_stride,per_instruction", [(32, 4), (64, 8), (4096, 8)])
def test_async_copy_wavefronts_follow_the_source(row_stride, per_instruction, tmp_path):
    """The A tile (128 x 32 f16, 16-byte cp.async.cg) of the tutorial matmul pipelined for
    sm90, with the row stride fixed: the H200 measured 4 LDGSTS wavefronts per instruction
    where the tile is contiguous in global memory (K = BK) and 8 where each row of 64 bytes
    sits in a line of its own (issue 32; gpu_oracle/ldgsts_rule reproduces both), whatever the
    destination; report's source-aware count must say the same, and keep the destination's
    own count beside it."""
    name, fn, sig, constexprs, marked, warps = next(k for k in KERNELS if k[0] == "matmul")
    sig = dict(sig, stride_am="constexpr")
    constexprs = dict(constexprs, BM=128, BN=128, BK=32, stride_am=row_stride)
    kernel = compile_kernel((name, fn, sig, constexprs, set(marked) - {"stride_am"}, warps), 90,
                            num_stages=3)
    report = run_report(kernel.asm["ttgir"], tmp_path)
    a_tiles = [o for o in report["ops"] if o["op"] == "ttg.async_copy_global_to_local"
               and o["shape"] == [128, 32]]
    if not a_tiles:
        pytest.skip("this Triton pipelines no async copy of the A tile here")
    for o in a_tiles:
        p = o["predicted"]
        assert p["source"]["strides"] == f"[{row_stride}, 1]", p["source"]
        assert p["store"]["instruction"] == "cp.async.cg.shared.global", p["store"]
        assert p["wavefronts"] == per_instruction * p["store"]["instructions"], p
        assert p["destination_wavefronts"] == 4 * p["store"]["instructions"], p
