"""`llcheck report`'s entry for each tt.load / tt.store against the PTX Triton itself emits for
the same TTGIR: the copy kernel of probe.py over a few layouts, compiled here (sm90, no GPU)
with its pointers marked 16-byte divisible, as the JIT marks torch tensors, and unmarked, as
`triton.compile` leaves them without attrs. Triton vectorizes only the marked ones (3.6 and 3.9
alike: ld.global.b16 x 32 against v4.b32 x 4 for a [1, 8] blocked f16 layout); the report must
predict each PTX access and count, and give the finding global_above_ideal exactly where the
coalesced layout it offers moves the tensor in fewer requests or sectors. Runs with the
Triton of the Python running pytest."""
import json
import os
import subprocess

import pytest

from . import compare, probe

LAYOUTS = [  # (shape, dtype, layout args, num_warps)
    ([64, 64], "float16", {"size_per_thread": [1, 8], "threads_per_warp": [4, 8],
                           "warps_per_cta": [4, 1], "order": [1, 0]}, 4),
    ([64, 64], "float16", {"size_per_thread": [8, 1], "threads_per_warp": [8, 4],
                           "warps_per_cta": [1, 4], "order": [0, 1]}, 4),
    ([32, 128], "float32", {"size_per_thread": [1, 1], "threads_per_warp": [1, 32],
                            "warps_per_cta": [8, 1], "order": [1, 0]}, 8),
]


def compile_copy(shape, dtype, args, warps, marked):
    triton, _, _ = probe._gluon()
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    layout = probe.gluon_layout({"encoding": "blocked", "args": args})
    sig = {"src_ptr": probe.PTR[dtype], "dst_ptr": probe.PTR[dtype], "M": "constexpr",
           "N": "constexpr", "L": "constexpr"}
    attrs = {(0, ): [["tt.divisibility", 16]], (1, ): [["tt.divisibility", 16]]} if marked else {}
    src = GluonASTSource(fn=probe.kernel(), signature=sig, attrs=attrs,
                         constexprs={"M": shape[0], "N": shape[1], "L": layout})
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": warps})


@pytest.mark.parametrize("marked", [True, False], ids=["divisibility", "unmarked"])
@pytest.mark.parametrize("case", range(len(LAYOUTS)))
def test_report_predicts_tritons_global_accesses(tmp_path, case, marked):
    shape, dtype, args, warps = LAYOUTS[case]
    kernel = compile_copy(shape, dtype, args, warps, marked)
    ttgir = tmp_path / "copy.ttgir"
    ttgir.write_text(kernel.asm["ttgir"])
    llcheck = os.environ.get("LLCHECK", compare.DEFAULT_LLCHECK)
    version = probe._gluon()[0].__version__.rsplit(".", 1)[0]
    proc = subprocess.run([llcheck, "report", str(ttgir), "--out", str(tmp_path / "out"),
                           "--no-z3", "--quiet", "--triton", version],
                          capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    kernels = json.loads((tmp_path / "out" / "report.json").read_text())["kernels"]
    accesses = kernels[0]["global_accesses"]
    assert [a["op"] for a in accesses] == ["tt.load", "tt.store"]
    counts, _ = probe.ptx_global(kernel.asm["ptx"])
    for a in accesses:
        p = a["predicted"]
        # Per thread: the instructions of a warp; the store skips no warp here (no copies).
        assert counts.get(p["ptx"]) == p["instructions_per_warp"], (a["op"], p, counts)
        above = a["coalesced"] is not None and (
            p["requests"] > a["coalesced"]["requests"] or p["sectors"] > a["coalesced"]["sectors"])
        assert (a.get("finding") == "global_above_ideal") == above, a
    if not marked:
        assert all("tt.divisibility" in a["note"] for a in accesses)
        assert all(a["predicted"]["vector_elements"] == 1 for a in accesses)
