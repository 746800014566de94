"""`llcheck sweep FAMILY --against triton-VERSION` with this environment's Triton (the Python
running pytest): every encoding of a small space compared with Triton's own to_linear_layout,
through fuzz/sweep/triton_layouts.py, with no disagreement; and the refusals (no Triton in the
given Python; Triton 3.6 and a shared family or amd_wmma) exit 2 with one line."""

import json
import os
import subprocess
import sys

import pytest

from conftest import llcheck_binary, triton_version


def sweep(*args, env=None):
    return subprocess.run([llcheck_binary(), "sweep", *args, "--python", sys.executable],
                          capture_output=True, text=True, check=False, timeout=300, env=env)


# Gluon's Python classes refuse what the attribute (and llcheck) accepts: MFMA version 0,
# fp4Padded with another element width; Gluon's SharedLinearLayout refuses a layout of one
# element (no offset bases); llcheck refuses a dot operand of a parent that Triton refuses too,
# but Triton's to_linear_layout answers the dot operand without checking its parent: a 64x4 MFMA
# that is not transposed, a Hopper (version 3) MMA of rank 3.
KNOWN = ["version must be in the [1, 4] range",
         "fp4_padded is only supported for element_bitwidth=8",
         "SharedLinearLayout offset_bases must not be empty",
         "a 64x4 MFMA layout must have isTransposed = true",
         "version 3 (Hopper) supports rank 2 only"]

DISTRIBUTED = [("nvidia_mma", ["--max-log2", "2", "--num-warps", "4"]),
               ("amd_mfma", ["--max-log2", "1", "--num-warps", "2"]),
               ("dot_op", ["--max-log2", "1", "--num-warps", "1"]),
               ("blocked", ["--max-log2", "1", "--num-warps", "1", "-j", "2"]),
               ("slice", ["--max-log2", "1", "--num-warps", "1", "-j", "2"])]
SHARED = [("swizzled_shared", ["--max-log2", "1"]), ("nvmma_shared", ["--max-log2", "3"])]
# Written in Triton 3.9's form (warp bases); 3.6's Gluon class takes warpsPerCTA instead.
WMMA = [("amd_wmma", ["--max-log2", "1", "--num-warps", "4"])]


@pytest.mark.parametrize("family,args", DISTRIBUTED + SHARED + WMMA)
def test_sweep_agrees_with_triton(family, args):
    if (family, args) in SHARED + WMMA and triton_version() == "3.6":
        proc = sweep(family, *args, "--against", "triton-3.6")
        assert proc.returncode == 2, proc.stderr
        assert ("answers distributed encodings only" if family != "amd_wmma" else
                "AMDWMMALayout takes warpsPerCTA") in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
        return
    proc = sweep(family, *args, "--against", "triton-" + triton_version(), "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    r = json.loads(proc.stdout)
    assert r["against"] == "triton-" + triton_version()
    assert r["compared"] > 0
    assert r["compared"] + r["both_rejected"] + r["accept_failures"] == r["encodings"]
    assert r["triton_failures"] == 0, json.dumps(r["failed"], indent=1)
    # Where one rejects and the other answers, only the known differences (docs/sweep.md,
    # "Against Triton"); a new one fails here, printed with its attribute.
    for f in r["failed"]:
        assert f["check"] == "accept" and any(k in f["message"] for k in KNOWN), \
            json.dumps(f, indent=1)
    # Every one of them, not only the failures kept: each reason is counted.
    assert sum(r["accept_reasons"].values()) == r["accept_failures"]
    for reason in r["accept_reasons"]:
        assert any(k in reason for k in KNOWN), reason
    assert proc.returncode == (1 if r["accept_failures"] else 0)


def test_a_python_without_this_triton_is_refused():
    other = "3.6" if triton_version() == "3.9" else "3.9"
    proc = sweep("nvidia_mma", "--max-log2", "0", "--against", "triton-" + other)
    assert proc.returncode == 2, proc.stderr
    assert f"not {other}" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_child_past_its_memory_bound_is_replaced_and_answers_the_same():
    # A bound of 1 MiB replaces the helper's child every 256 requests (triton_layouts.py): the
    # answers, reasons and counts must not change with it.
    args = ["blocked", "--max-log2", "1", "--num-warps", "1", "--against",
            "triton-" + triton_version(), "--format", "json"]
    plain = sweep(*args)
    recycled = sweep(*args, env=dict(os.environ, LLCHECK_TRITON_CHILD_RSS_MB="1"))
    assert plain.returncode in (0, 1) and recycled.returncode == plain.returncode, recycled.stderr
    a, b = json.loads(plain.stdout), json.loads(recycled.stdout)
    assert a["encodings"] > 256 * 4
    for key in ("encodings", "compared", "both_rejected", "accept_failures", "accept_reasons",
                "triton_failures"):
        assert a[key] == b[key], key
    bad = sweep(*args, env=dict(os.environ, LLCHECK_TRITON_CHILD_RSS_MB="lots"))
    assert bad.returncode == 2 and "LLCHECK_TRITON_CHILD_RSS_MB must be a positive" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
