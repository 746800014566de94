"""Triton's own global loads and stores (data/, see README.md) against `llcheck coalescing`
today, without a GPU: the committed PTX records of Triton 3.6 and 3.9 and the counters an H100
measured for Triton 3.6's kernels and an H200 for Triton 3.9's. Every difference must fall in a class of
known_differences.json that lists its case (a listed case that no longer differs so fails too),
and each class is checked, not assumed (compare.classify: Triton's own vectorization rule must
give the PTX's vector). Needs only the committed data and the llcheck binary (LLCHECK, default
build/cli/llcheck)."""
import json
import os

import pytest

from . import compare

KNOWN = os.path.join(compare.HERE, "known_differences.json")


@pytest.fixture(scope="module")
def llcheck():
    path = os.environ.get("LLCHECK", compare.DEFAULT_LLCHECK)
    if not os.access(path, os.X_OK):
        pytest.exit(f"no llcheck binary at {path}: build first (make build) or set LLCHECK",
                    returncode=2)
    return path


@pytest.fixture(scope="module")
def static(llcheck):
    rows = compare.static_rows(llcheck)
    compare.SUMMARY.extend(compare.static_summary(rows))
    return rows


@pytest.fixture(scope="module")
def measured(llcheck):
    rows = compare.all_measured_rows(llcheck)
    compare.SUMMARY.extend(compare.measured_summary(rows))
    return rows


@pytest.fixture(scope="module")
def known():
    with open(KNOWN) as f:
        return json.load(f)


def test_both_releases_recorded(static):
    for v in compare.VERSIONS:
        assert sum(r["version"] == v for r in static) >= 500, f"Triton {v}: too few kernels"


def test_llcheck_reads_every_attribute_triton_printed(static):
    assert [(r["version"], r["id"], r["llcheck_error"]) for r in static
            if "llcheck_error" in r] == []


def test_every_static_difference_is_a_known_class(static, known):
    listed = {}
    for name, cls in known["classes"].items():
        assert cls["reason"] and "TODO" not in cls["reason"], name
        for v, ops in cls["cases"].items():
            for op, ids in ops.items():
                for i in ids:
                    listed[(v, op, i)] = name
    found = {(r["version"], op, r["id"]): r[op]["class"] for r in static if "llcheck" in r
             for op in ("ld", "st") if r[op]["class"]}
    unexplained = [f"Triton {v} {op} {i}" for (v, op, i), k in found.items()
                   if k == "unexplained"]
    assert unexplained == [], "Triton's PTX differs from llcheck and from Triton's own rule:\n" \
        + "\n".join(unexplained)
    unlisted = [f"Triton {v} {op} {i}: {k}" for (v, op, i), k in found.items()
                if listed.get((v, op, i)) != k]
    stale = [f"Triton {v} {op} {i}: listed as {k}, now {found.get((v, op, i))}"
             for (v, op, i), k in listed.items() if found.get((v, op, i)) != k]
    assert unlisted == [], "differences not in known_differences.json:\n" + "\n".join(unlisted)
    assert stale == [], "known_differences.json entries that no longer apply:\n" + \
        "\n".join(stale)


def test_triton_never_wider_than_llcheck(static):
    """llcheck's vector is the widest any code can use: Triton's never exceeds it."""
    assert [(r["version"], r["id"]) for r in static if "llcheck" in r for op in ("ld", "st")
            if r[op]["bits"] is not None and r[op]["bits"] > r["llcheck"]["vector_bits"]] == []


def test_names_differ_only_in_64_bit_words(static):
    """Where the width and count agree, the PTX names agree too, except that llcheck spells a
    64-bit element's vector in 32-bit words (ld.global.v2.b32 / .v4.b32) where Triton writes
    ld.global.b64 / .v2.b64: the same access (LDG.E.64 / LDG.E.128 in the SASS)."""
    words = {("v2.b32", "b64"), ("v4.b32", "v2.b64")}
    odd = []
    for r in static:
        if "llcheck" not in r:
            continue
        for op, key in (("ld", "load"), ("st", "store")):
            if r[op]["class"] is None and not r[op]["same_name"]:
                ours = r["llcheck"][key].split(".global.")[1]
                theirs = list(r[op]["names"])[0].split(".global.")[1]
                if r["dtype"] != "float64" or (ours, theirs) not in words:
                    odd.append(f"Triton {r['version']} {r['id']}: {r['llcheck'][key]} vs "
                               f"{list(r[op]['names'])}")
    assert odd == []


@pytest.mark.parametrize("version", compare.VERSIONS)
def test_every_measured_kernel_delivered_its_data(measured, version):
    rows = [r for r in measured if r["version"] == version]
    assert len(rows) >= 400, f"Triton {version}: {len(rows)} measured cases"
    assert [r["id"] for r in rows if r["correct"] is not True] == []
    # The GPU machine's Triton emitted the PTX recorded here.
    assert [r["id"] for r in rows if not r["same_ptx_as_static"]] == []


def measured_listed(known):
    """{(version, id, op): class} of known_differences.json's "measured" classes."""
    return {(v, i, op): name for name, cls in known.get("measured", {}).items()
            for v, ops in cls["cases"].items() for op, ids in ops.items() for i in ids}


def test_measured_counters(measured, static, known):
    """Where Triton's code is llcheck's plan (no static difference on that side), the GPU
    measured exactly llcheck's sectors, requests and instructions; where Triton's code differs,
    it measured what the same model gives for Triton's own code. A case that is neither must be
    listed in known_differences.json's "measured" classes (compare.measured_class checks that
    the model applied to Triton's code, with its stores' mask, gives the counters)."""
    classes = {(r["version"], r["id"], op): r[op]["class"] for r in static
               if "llcheck" in r for op in ("ld", "st")}
    listed = measured_listed(known)
    for name, cls in known.get("measured", {}).items():
        assert cls["reason"] and "TODO" not in cls["reason"], name
    found = {}
    for r in measured:
        for op in ("ld", "st"):
            k = compare.measured_class(r, op, classes[(r["version"], r["id"], op)])
            if k:
                found[(r["version"], r["id"], op)] = (k, r)
    unexplained = [f"Triton {v} {i} {op}: measured {r['measured']}, llcheck {r['llcheck']}, "
                   f"the model on Triton's code {r['model_on_triton'][op]}"
                   for (v, i, op), (k, r) in found.items() if k == "unexplained"]
    unlisted = [f"Triton {v} {i} {op}: {k}" for (v, i, op), (k, _) in found.items()
                if listed.get((v, i, op)) != k]
    stale = [f"Triton {v} {i} {op}: listed as {k}" for (v, i, op), k in listed.items()
             if found.get((v, i, op), (None,))[0] != k]
    assert unexplained == [], "\n".join(unexplained)
    assert unlisted == [], "measured differences not in known_differences.json:\n" + \
        "\n".join(unlisted)
    assert stale == [], "listed measured differences that no longer apply:\n" + "\n".join(stale)


def test_lowering_triton_is_tritons_code(static):
    """`llcheck coalescing --lowering triton` gives Triton's own vector and instruction count
    per thread, for loads and stores, in every kernel of both releases (a 3.6 load as ptxas
    leaves it: the repeated loads of copies in registers dropped)."""
    wrong = [(r["version"], r["id"], op) for r in static if "llcheck" in r
             for op in ("ld", "st") if r[op]["lowering"] is None]
    assert wrong == []
    assert sum(r["version"] == "3.9" and r["ld"]["lowering"] == "ptx" for r in static) >= 500


def test_lowering_triton_is_what_the_gpu_measured(measured, known):
    """The counters of Triton's kernels (3.6 on an H100, 3.9 on an H200) equal `--lowering
    triton`'s sectors, requests and instructions on every side (stores issued only by the warps
    without copies) but the loads of known_differences.json's copy_warps_exit_before_loading,
    where ptxas also exits the copy warps before their one load (the SASS decides it, not the
    layout)."""
    exits = {(v, i) for v, ops in
             known["measured"]["copy_warps_exit_before_loading"]["cases"].items()
             for i in ops.get("ld", [])}
    wrong = [(r["version"], r["id"], op) for r in measured for op in ("ld", "st")
             if not all(r["checks"][op]["lowering"].values())
             and not (op == "ld" and (r["version"], r["id"]) in exits)]
    assert wrong == []
    stale = [(r["version"], r["id"]) for r in measured if (r["version"], r["id"]) in exits
             and all(r["checks"]["ld"]["lowering"].values())]
    assert stale == []
