"""The committed results of whole sweeps against Triton (fuzz/sweep/results/triton-V/FAMILY.json,
`llcheck sweep FAMILY --max-log2 3 --against triton-V`, run as shards and merged; how and where
in docs/sweep.md, "Measured against Triton"): each is still a whole sweep to today's llcheck
(`sweep merge` plans the groups again and checks that the result did every one), no layout
differs, every encoding one side rejects has a known reason, and the docs' table states these
counts."""

import json
import pathlib
import re
import subprocess

import pytest

from conftest import llcheck_binary
from test_sweep_against import KNOWN

ROOT = pathlib.Path(__file__).resolve().parents[2]
RESULTS = sorted((ROOT / "fuzz" / "sweep" / "results").glob("triton-*/*.json"))


def table_rows():
    doc = (ROOT / "docs" / "sweep.md").read_text()
    table = doc.split("<!-- triton-table -->")[1].split("<!-- /triton-table -->")[0]
    return [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()
            if line.startswith("| 3.")]


def test_there_are_results():
    assert len(RESULTS) >= 3


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_committed_sweep_is_whole_and_in_the_docs(path):
    proc = subprocess.run([llcheck_binary(), "sweep", "merge", str(path), "--format", "json"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    r = json.loads(proc.stdout)
    assert r["against"] == path.parent.name and r["family"] == path.stem
    assert r["max_log2"] == 3 and r["num_warps"] == [1, 2, 4, 8, 16]
    assert r["triton_failures"] == 0
    assert r["compared"] + r["both_rejected"] + r["accept_failures"] == r["encodings"]
    reasons = r.get("accept_reasons", {})
    assert sum(reasons.values()) == r["accept_failures"]
    for reason in reasons:
        assert any(k in reason for k in KNOWN), reason
    version = path.parent.name.split("-")[1]
    numbers = [f"{r[k]:,}" for k in ("encodings", "compared", "both_rejected", "accept_failures")]
    rows = [row for row in table_rows()
            if row[0] == version and re.match(rf"`{path.stem}`, every dim up to 2\^3", row[1])]
    assert len(rows) == 1, f"docs/sweep.md has no one row for Triton {version}, {path.stem} 2^3"
    assert rows[0][2:6] == numbers, rows[0]


# The sweeps that size a large job (docs/sweep.md, "Sizing a job"): llcheck against itself, not
# against Triton, measured on the lent 64-core host.
SCALE = ROOT / "fuzz" / "sweep" / "results" / "scale"


def test_the_whole_max_log2_5_sweep_is_whole_and_in_the_docs():
    path = SCALE / "blocked-max-log2-5.json"
    proc = subprocess.run([llcheck_binary(), "sweep", "merge", str(path), "--format", "json"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0, proc.stderr  # every group done (merge deals them again), 0 failures
    r = json.loads(proc.stdout)
    assert (r["family"], r["max_log2"], r["balance"]) == ("blocked", 5, "cost-greedy-2")
    assert r["encodings"] == 95467890 and r["failures"] == 0
    row = [line for line in (ROOT / "docs" / "sweep.md").read_text().splitlines()
           if line.startswith("| `blocked --max-log2 5`, the whole space")]
    assert len(row) == 1
    for key in ("groups", "encodings", "verified", "algebra_only", "renamed_layouts", "pairs"):
        assert f"{r[key]:,}" in row[0], (key, row[0])


def test_the_measured_parts_are_of_this_deal_and_size_the_max_log2_8_job():
    # size_job.py exits 2 when a measured part is not the part this llcheck deals at its rank:
    # then the samples no longer describe the sweep and must be measured again.
    proc = subprocess.run(
        ["python3", str(ROOT / "fuzz" / "sweep" / "size_job.py"), llcheck_binary(),
         str(SCALE / "blocked-max-log2-8-parts.json"), "1024", "--draws", "3"],
        capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr
    line = [l for l in proc.stdout.splitlines() if l.startswith("1024 shards")]
    assert len(line) == 1 and "under 3600 s" in line[0], proc.stdout
