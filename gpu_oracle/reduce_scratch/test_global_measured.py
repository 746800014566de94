"""llcheck report's global-memory predictions against the H200 (issue 32): for each release and
case of measured.json (and the Inductor launches of measured_inductor.json), the LDG / STG the
kernel executed, summed by kind and width (vector bits per lane), are compared with what
`llcheck report --triton V --hardware sm90` predicts for its tt.load / tt.store ops:
instructions executed (each a request: the report's requests are warp instructions) and
sectors (ncu's L2 theoretical sectors). ncu's L1 tag requests (128-byte lines looked up) are
kept in the data but not predicted.
A masked access whose mask the TTGIR does not fix (the row's length is a kernel argument) is
predicted for its whole tile: its measured instructions (ptxas branches around the stores of
warps whose lanes are all masked off) and sectors may then be fewer, never more.
An op inside scf.for loops runs once per trip: its prediction is per run, times the report's
`trips` (the loops' trip counts, where their bounds are constants). Sides that differ
otherwise are listed with their reason in known_differences.json
("global_sides"); table-global.md is the committed summary, regenerated here
(LLCHECK_UPDATE_TABLE=1 rewrites it). No GPU needed: the measurements are data."""
import collections
import json
import os
import subprocess

import pytest

from test_reduce_measured import FOLDERS, HERE, KNOWN, MEASURED, llcheck, provenance

# (instructions, sectors) each; `masked`: a runtime mask (bounds); `open`: the sectors are not
# established (pointers not affine in the tensor's indices: only the instructions are told).
Side = collections.namedtuple("Side", "pred meas masked open")


@pytest.fixture(scope="module")
def global_sides(tmp_path_factory):
    out = {}
    for release, cases in MEASURED["releases"].items():
        folder = os.path.join(HERE, "ttgir", FOLDERS[release])
        rep = tmp_path_factory.mktemp("global" + FOLDERS[release])
        r = subprocess.run([llcheck(), "report", "--triton", release.split("-")[-1],
                            "--hardware", "sm90", "--no-z3", "--quiet", "--out", str(rep),
                            folder], capture_output=True, text=True)
        assert r.returncode in (0, 1), r.stderr
        by_id = {os.path.basename(k["file"])[:-len(".ttgir")]: k
                 for k in json.load(open(rep / "report.json"))["kernels"]}
        for case in cases:
            if "global" not in case:
                continue
            pred, meas, masked, open_ = (collections.Counter(), collections.Counter(), set(),
                                         set())
            unknown_trips = set()
            for g in by_id[case["id"]]["global_accesses"]:
                p = g.get("predicted")
                if not isinstance(p, dict) or "requests" not in p:
                    continue
                key = ("ld" if g["op"] == "tt.load" else "st", p["vector_bits"])
                # Per run of the op: times its runs per program (its loops' trip counts).
                trips = g.get("trips", 1)
                if trips is None:
                    unknown_trips.add(key)
                    trips = 1
                # A store before the predicated EXIT: every warp executes it.
                executed = p.get("instructions_executed", {}).get("instructions")
                counts = (executed if executed is not None else p["instructions"], p["sectors"])
                for i, value in enumerate(counts):
                    pred[key + (i,)] += (value or 0) * case["grid"] * trips
                if p["sectors"] is None:
                    open_.add(key)
                if g.get("axis_info", {}).get("mask"):
                    masked.add(key)
            for i in case["global"]:
                key = (i["kind"], i["bits"])
                for n, field in enumerate(("executed", "sectors")):
                    meas[key + (n,)] += i[field]
            for key in {k[:2] for k in list(pred) + list(meas)}:
                out[(release, case["id"], f"{key[0]}.global {key[1]}-bit")] = Side(
                    tuple(pred[key + (i,)] for i in range(2)),
                    tuple(meas[key + (i,)] for i in range(2)), key in masked, key in open_)
    return out


def agrees(s):
    told = 1 if s.open else 2
    if s.masked:
        return all(m <= p for p, m in zip(s.pred[:told], s.meas[:told]))
    return s.pred[:told] == s.meas[:told]


def known(release, case, side):
    return next((d for d in KNOWN.get("global_sides", []) if (d["release"], d["case"], d["side"])
                 == (release, case, side)), None)


def test_every_global_side_is_predicted_or_listed_with_its_reason(global_sides):
    wrong, stale = [], []
    for (release, case, side), s in sorted(global_sides.items()):
        listed = known(release, case, side)
        if not agrees(s) and not listed:
            wrong.append(f"{release} {case} {side}: predicted {s.pred} (instructions, sectors"
                         f"{', a masked tile' if s.masked else ''}), measured {s.meas}")
        if agrees(s) and listed:
            stale.append(f"{release} {case} {side} now agrees")
    assert not wrong, "\n".join(wrong)
    assert not stale, "known_differences.json lists global sides that agree:\n" + "\n".join(stale)


def global_table(sides):
    lines = ["# Global accesses on the H200: predicted and measured", "",
             provenance() + "Sides: per case, the LDG / STG of one kind and width, summed over the launch: "
             "instructions executed and L2 sectors against llcheck report's tt.load / tt.store "
             "predictions (a runtime-masked tile: the prediction bounds them). "
             "Written by test_global_measured.py: do not edit.", "",
             "| release | cases | sides | agree | instructions agree | sectors agree | "
             "listed (known_differences.json) |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for release in MEASURED["releases"]:
        mine = {k: v for k, v in sides.items() if k[0] == release}
        ok = sum(agrees(v) for v in mine.values())
        n = sum(agrees(v._replace(pred=(v.pred[0], v.meas[1]))) for v in mine.values())
        s = sum(agrees(v._replace(pred=(v.meas[0], v.pred[1]))) for v in mine.values())
        listed = collections.Counter(d["category"] for d in KNOWN.get("global_sides", [])
                                     if d["release"] == release)
        pct = 100.0 * ok / max(1, len(mine))
        lines.append(f"| {release} | {len(MEASURED['releases'][release])} | {len(mine)} | "
                     f"{ok} ({pct:.1f}%) | {n} | {s} | "
                     f"{', '.join(f'{c} {k}' for c, k in sorted(listed.items())) or '-'} |")
    lines += ["", "| release | case | side | predicted (instructions, sectors) | measured |",
              "| --- | --- | --- | --- | --- |"]
    for (release, case, side), v in sorted(sides.items()):
        mark = "" if agrees(v) else " **differs**"
        bound = " (bound)" if v.masked else ""
        lines.append(f"| {release} | {case} | {side} | {v.pred[0]}, "
                     f"{'?' if v.open else v.pred[1]}{bound} | {v.meas[0]}, {v.meas[1]}{mark} |")
    return "\n".join(lines) + "\n"


def test_the_committed_global_table_is_current(global_sides):
    path = os.path.join(HERE, "table-global.md")
    text = global_table(global_sides)
    if os.environ.get("LLCHECK_UPDATE_TABLE"):
        with open(path, "w") as f:
            f.write(text)
    assert open(path).read() == text, "table-global.md is stale: rerun with LLCHECK_UPDATE_TABLE=1"
