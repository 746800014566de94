"""llcheck report's scratch predictions against the H200 (issue 32): for each release and case
of measured.json, the shared-memory instructions the reductions, scans, histograms, gathers and
atomics own, summed by kind (ld / st / atom) and width, are compared with what `llcheck report --triton V --hardware sm90` predicts from
the TTGIR that ran (with the SASS beside it, for warps that exit early): instructions executed
and L1 shared wavefronts, both exact (within the bounds, where the data decide the addresses).
Sides that differ are listed with their reason in
known_differences.json; table.md is the committed summary, regenerated here
(LLCHECK_UPDATE_TABLE=1 rewrites it). No GPU needed: the measurements are data."""
import collections
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
MEASURED = json.load(open(os.path.join(HERE, "measured.json")))
# The kernels PyTorch Inductor generated on the GPU machine (Triton 3.6), as another "release"
# of the table: inductor.py, analyze.py --inductor.
INDUCTOR = json.load(open(os.path.join(HERE, "measured_inductor.json")))
MEASURED["releases"]["inductor-3.6"] = INDUCTOR["releases"]["3.6"]
FOLDERS = {"3.6": "36", "3.9": "39", "inductor-3.6": "inductor36"}
KNOWN = json.load(open(os.path.join(HERE, "known_differences.json")))


def llcheck():
    path = os.environ.get("LLCHECK")
    if not path or not os.path.exists(path):
        pytest.skip("LLCHECK (the llcheck binary) is not set")
    return path


def side_name(key):
    return f"{key[0]}.shared {key[1]}-bit"


@pytest.fixture(scope="module")
def sides(tmp_path_factory):
    """{(release, case, side): (predicted instructions, wavefronts, measured ..., ...)}"""
    out = {}
    for release, cases in MEASURED["releases"].items():
        folder = os.path.join(HERE, "ttgir", FOLDERS[release])
        rep = tmp_path_factory.mktemp("report" + FOLDERS[release])
        triton = release.split("-")[-1]
        r = subprocess.run([llcheck(), "report", "--triton", triton, "--hardware", "sm90",
                            "--no-z3", "--quiet", "--out", str(rep), folder],
                           capture_output=True, text=True)
        assert r.returncode in (0, 1), r.stderr
        report = json.load(open(rep / "report.json"))
        by_id = {os.path.basename(k["file"])[:-len(".ttgir")]: k for k in report["kernels"]}
        for case in cases:
            k = by_id[case["id"]]
            pred = collections.Counter()
            for op in k["scratch_ops"]:
                assert "predicted_error" not in op, (case["id"], op["predicted_error"])
                for step in op.get("predicted", []):
                    ex = step.get("early_exit", step.get("branched_around", {}))
                    n = ex.get("instructions_executed", step["instructions"])
                    w = ex.get("wavefronts_executed", step["wavefronts"])
                    key = (step["instruction"].split(".")[0], step["vector_bits"])
                    runs = case["grid"] * (op.get("trips") or 1)  # per run, times its runs
                    pred[key + ("n",)] += n * runs
                    pred[key + ("w",)] += w * runs
                    # Addresses the data decide: the most instructions, and wavefront bounds.
                    pred[key + ("wmin",)] += step.get("wavefronts_min", w) * runs
                    pred[key + ("dd",)] |= "data_dependent" in step
            meas = collections.Counter()
            for i in case["instructions"]:
                meas[(i["kind"], i["bits"], "n")] += i["executed"]
                meas[(i["kind"], i["bits"], "w")] += i["wavefronts"]
            if not pred and not meas:  # both say: no shared memory (within warps)
                out[(release, case["id"], "no shared memory")] = Side(0, 0, 0, 0)
            for key in {k[:2] for k in list(pred) + list(meas)}:
                out[(release, case["id"], side_name(key))] = Side(
                    pred[key + ("n",)], pred[key + ("w",)], meas[key + ("n",)], meas[key + ("w",)],
                    pred[key + ("wmin",)], bool(pred[key + ("dd",)]))
    return out


class Side(collections.namedtuple("Side", "pn pw mn mw wmin dd", defaults=(0, False))):
    """Predicted and measured instructions and wavefronts of one side; `dd`: its addresses
    are the data's, so the prediction is the most instructions and wavefronts from `wmin` to
    `pw`."""

    def agrees(self):
        if self.dd:
            return self.mn <= self.pn and self.wmin <= self.mw <= self.pw
        return (self.pn, self.pw) == (self.mn, self.mw)

    def predicted(self):
        return f"<= {self.pn}, {self.wmin}..{self.pw}" if self.dd else f"{self.pn}, {self.pw}"


def known(release, case, side):
    return next((d for d in KNOWN["sides"] if (d["release"], d["case"], d["side"]) ==
                 (release, case, side)), None)


def test_every_side_is_predicted_or_listed_with_its_reason(sides):
    wrong, stale = [], []
    for (release, case, side), v in sorted(sides.items()):
        listed = known(release, case, side)
        if not v.agrees() and not listed:
            wrong.append(f"{release} {case} {side}: predicted {v.predicted()} (instructions, "
                         f"wavefronts), measured {v.mn} {v.mw}")
        if v.agrees() and listed:
            stale.append(f"{release} {case} {side} now matches")
    assert not wrong, "\n".join(wrong)
    assert not stale, "known_differences.json lists sides that match:\n" + "\n".join(stale)


def test_every_output_was_checked_against_the_reference():
    bad = [(r, c["id"]) for r, cases in MEASURED["releases"].items() for c in cases
           if not c["output_ok"] and not any((d["release"], d["case"]) == (r, c["id"])
                                             for d in KNOWN["outputs"])]
    assert not bad, bad
    assert not INDUCTOR["outputs_not_ok"], INDUCTOR["outputs_not_ok"]


def provenance():
    """The GPU, ncu, software and date the measurements come from: a table's first words."""
    return (f"{MEASURED['gpu']}; ncu {MEASURED['ncu']}; {MEASURED['software']} (3.9's cubins "
            f"compiled for sm90 by Triton {MEASURED['triton_3.9']}); {MEASURED['date']}. ")


def table(sides):
    lines = ["# Reduce scratch on the H200: predicted and measured", "",
             provenance() +
             "Sides: per case, the scratch ops' shared-memory instructions of one kind and width, "
             "summed over the launch; where the data decide the addresses (a gather's loads, "
             "3.9's histogram atomics) the prediction is the most instructions and a range of "
             "wavefronts, and agrees when the measurement lies within. inductor-3.6: the kernels PyTorch Inductor "
             f"(torch {INDUCTOR['torch']}) generated there for {len(INDUCTOR['models'])} "
             "reductions of small models (inductor.py), one row per launch. "
             "Written by test_reduce_measured.py: do not edit.", "",
             "| release | cases | sides | agree | instructions executed agree | "
             "wavefronts agree |", "| --- | --- | --- | --- | --- | --- |"]
    for release in MEASURED["releases"]:
        mine = {k: v for k, v in sides.items() if k[0] == release}
        exact = sum(v.agrees() for v in mine.values())
        n = sum(v.pn == v.mn or (v.dd and v.mn <= v.pn) for v in mine.values())
        w = sum(v.pw == v.mw or (v.dd and v.wmin <= v.mw <= v.pw) for v in mine.values())
        cases = len(MEASURED["releases"][release])
        pct = 100.0 * exact / max(1, len(mine))
        lines.append(f"| {release} | {cases} | {len(mine)} | {exact} ({pct:.1f}%) | {n} | {w} |")
    lines += ["", "| release | case | side | predicted (instructions, wavefronts) | measured |",
              "| --- | --- | --- | --- | --- |"]
    for (release, case, side), v in sorted(sides.items()):
        mark = "" if v.agrees() else " **differs**"
        lines.append(f"| {release} | {case} | {side} | {v.predicted()} | {v.mn}, {v.mw}{mark} |")
    return "\n".join(lines) + "\n"


def test_the_committed_table_is_current(sides):
    path = os.path.join(HERE, "table.md")
    text = table(sides)
    if os.environ.get("LLCHECK_UPDATE_TABLE"):
        with open(path, "w") as f:
            f.write(text)
    assert open(path).read() == text, "table.md is stale: rerun with LLCHECK_UPDATE_TABLE=1"
