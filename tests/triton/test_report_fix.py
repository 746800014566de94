"""Every fix `llcheck report` suggests, checked against this environment's Triton (issue 33): the
Gluon constructor it prints builds, through Gluon, the very attribute it prints beside it, and
(Triton 3.9, whose to_linear_layout answers shared layouts) the linear layout Triton computes for
that attribute is llcheck's (`llcheck layout`), which the report checked is the one it costed. The fixes come from the TTGIR corpus (every target) and
from a pipelined matmul this Triton compiles for sm80 and sm90, whose report must also list each
finding once per source location, with its count."""

import collections
import json
import os
import re
import subprocess

import pytest

triton = pytest.importorskip("triton")
lt = pytest.importorskip("triton._C.libtriton")
gl = pytest.importorskip("triton.experimental.gluon.language")

from conftest import REPO, llcheck_binary, triton_version  # noqa: E402
from test_async_copy_contiguity import compile_for  # noqa: E402

CORPUS = os.path.join(REPO, "corpus", "ttgir", "3.9.0")
# Its tt.load has a global_above_ideal finding, whose fix is a #ttg.blocked.
SMALL = os.path.join(REPO, "tests", "lit", "Inputs", "good", "small.ttgir")


def report(inputs, out):
    proc = subprocess.run([llcheck_binary(), "report", *inputs, "--out", str(out), "--no-z3",
                           "--quiet", "--triton", triton_version()],
                          capture_output=True, text=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def fixes_of(rep):
    for k in rep["kernels"]:
        for f in k["findings"] + [f for o in k["ops"] for f in o["findings"]]:
            if isinstance(f.get("fix"), dict):
                yield k["file"], f


@pytest.fixture(scope="module")
def pipelined(tmp_path_factory):
    """The pipelined matmul (num_stages 3) compiled here for sm80 and sm90, and its report."""
    d = tmp_path_factory.mktemp("pipelined")
    files = []
    for arch in (80, 90):
        path = d / f"matmul-sm{arch}.ttgir"
        path.write_text(compile_for(arch).asm["ttgir"])
        files.append(str(path))
    return report(files, d / "out"), d / "out"


@pytest.fixture(scope="module")
def fixes(pipelined, tmp_path_factory):
    rep = report([CORPUS, SMALL], tmp_path_factory.mktemp("corpus") / "out")
    found = list(fixes_of(rep)) + list(fixes_of(pipelined[0]))
    assert found, "no finding with a fix: nothing to check"
    return found


def normalized(attr):
    return re.sub(r"\s+", " ", attr).strip()


def triton_attribute(b, layout, fix):
    attr = layout._to_ir(b)
    shape = fix["shape"]
    if fix["suggested"]["attribute"].startswith("#ttg.blocked"):
        text = str(b.get_distributed_ty(b.get_float_ty(), shape, attr))
    else:
        ety = {8: b.get_int8_ty, 16: b.get_half_ty, 32: b.get_float_ty}[
            min(max(fix["element_bits"], 8), 32)]()
        text = str(b.get_shared_mem_desc_ty(ety, shape, attr, shape))
    i = text.index("#")
    depth = 0
    for j in range(i, len(text)):
        depth += {"<": 1, ">": -1}.get(text[j], 0)
        if depth == 0 and text[j] == ">":
            return attr, text[i:j + 1]
    raise AssertionError("unbalanced type text: " + text)


def test_every_gluon_fix_builds_the_attribute_it_shows(fixes):
    ctx = lt.ir.context()
    lt.ir.load_dialects(ctx)
    b = lt.gluon_ir.GluonOpBuilder(ctx)
    kinds = collections.Counter()
    for file, f in fixes:
        fix = f["fix"]
        assert "error" not in fix, f"{file}: {f['kind']}: {fix['error']}"
        sug = fix["suggested"]
        assert sug["gluon_import"] == "from triton.experimental.gluon import language as gl"
        layout = eval(sug["gluon"], {"gl": gl})  # noqa: S307 - llcheck's own output
        _, printed = triton_attribute(b, layout, fix)
        assert normalized(printed) == normalized(sug["attribute"]), (file, sug["gluon"], printed)
        kinds[sug["attribute"].split("<")[0]] += 1
    print(f"Triton {triton.__version__}: {sum(kinds.values())} fixes build their attribute: "
          + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))


@pytest.mark.skipif(triton_version() == "3.6",
                    reason="Triton 3.6's to_linear_layout aborts on shared layouts")
def test_every_fix_is_the_layout_triton_computes(fixes):
    ctx = lt.ir.context()
    lt.ir.load_dialects(ctx)
    b = lt.gluon_ir.GluonOpBuilder(ctx)
    for file, f in fixes:
        fix = f["fix"]
        sug = fix["suggested"]
        layout = eval(sug["gluon"], {"gl": gl})  # noqa: S307
        attr, _ = triton_attribute(b, layout, fix)
        res = b.to_linear_layout(attr, fix["shape"])
        shape = "x".join(str(n) for n in fix["shape"])
        # llcheck's layout of the attribute, which the report checked is the one it costed.
        proc = subprocess.run([llcheck_binary(), "layout", sug["attribute"], "--shape", shape,
                               "--triton", triton_version(), "--format", "json"],
                              capture_output=True, text=True, check=True)
        ours = {d["name"]: d["bases"] for d in json.loads(proc.stdout)["ins"]}
        if hasattr(res, "offset_bases"):
            theirs = {"offset": [list(x) for x in res.offset_bases],
                      "block": [list(x) for x in res.block_bases]}
        else:
            theirs = {"register": [list(x) for x in res.reg_bases],
                      "lane": [list(x) for x in res.lane_bases],
                      "warp": [list(x) for x in res.warp_bases],
                      "block": [list(x) for x in res.block_bases]}
        for name in set(ours) | set(theirs):
            assert ours.get(name, []) == theirs.get(name, []), (file, sug["attribute"], name)


def test_a_pipelined_matmul_lists_each_finding_once_per_location(pipelined):
    rep, out = pipelined
    worst = rep["summary"]["worst"]
    keys = [(w["file"], w["location"], w["kind"], w["message"]) for w in worst]
    assert len(keys) == len(set(keys)), "a finding listed twice at one source location"
    per_op = sum(len(k["findings"]) + sum(len(o["findings"]) for o in k["ops"])
                 for k in rep["kernels"])
    assert sum(w["count"] for w in worst) == per_op
    md = (out / "report.md").read_text()
    for w in worst:
        if w["count"] > 1:
            assert f"{w['count']} ops)" in md
        if isinstance(w.get("fix"), dict) and "error" not in w["fix"]:
            assert "TTGIR: `" + w["fix"]["suggested"]["attribute"] + "`" in md
            assert "Gluon: `" + w["fix"]["suggested"]["gluon"] + "`" in md
    print(f"pipelined matmul: {len(worst)} findings over {per_op} op findings; "
          f"{sum(1 for w in worst if w['count'] > 1)} at locations with several ops")
