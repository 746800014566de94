"""Fixtures for the Triton conformance tests: Triton's answers for the grid (computed once per
session, in this process's Triton) and llcheck's answers for the same cases (one `llcheck batch`
run)."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import grid  # noqa: E402


def llcheck_binary():
    path = os.environ.get("LLCHECK", os.path.join(REPO, "build", "cli", "llcheck"))
    if not os.access(path, os.X_OK):
        pytest.exit(f"no llcheck binary at {path}: build first (make build) or set LLCHECK",
                    returncode=2)
    return path


def triton_version():
    """The Triton release of this environment as llcheck's --triton names it ("3.6", "3.9")."""
    return ".".join(grid.triton.__version__.split(".")[:2])


def batch_line(answer):
    """The `llcheck batch` request for one grid case: the attribute as Triton printed it, the
    shape, and (where Triton built a distributed layout) its warp and lane counts, which llcheck
    checks against the attribute as it checks --num-warps / --threads-per-warp."""
    return {"id": answer["id"], "attr": answer["attr"], "shape": answer["shape"],
            "num_warps": answer.get("num_warps"),
            "threads_per_warp": answer.get("threads_per_warp")}


def run_llcheck_batch(answers, tmp_dir):
    path = os.path.join(tmp_dir, "grid_batch.jsonl")
    with open(path, "w") as f:
        for a in answers:
            if "attr" in a:
                f.write(json.dumps(batch_line(a)) + "\n")
    proc = subprocess.run([llcheck_binary(), "batch", "--triton", triton_version(), path],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"llcheck batch failed ({proc.returncode}): {proc.stderr}"
    return {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}


@pytest.fixture(scope="session")
def triton_answers():
    # LLCHECK_TRITON_GRID=FILE reuses a grid written by `grid.py -o FILE` with this same Triton
    # (to rerun the comparison without asking Triton again); the default asks Triton.
    cached = os.environ.get("LLCHECK_TRITON_GRID")
    if cached:
        with open(cached) as f:
            return [json.loads(line) for line in f]
    return grid.triton_grid()


@pytest.fixture(scope="session")
def llcheck_answers(triton_answers, tmp_path_factory):
    return run_llcheck_batch(triton_answers, str(tmp_path_factory.mktemp("llcheck")))


SUMMARY = {}


def pytest_terminal_summary(terminalreporter):
    if not SUMMARY:
        return
    terminalreporter.section("llcheck vs Triton " + grid.triton.__version__)
    for line in SUMMARY.get("lines", []):
        terminalreporter.write_line(line)
    if SUMMARY.get("bank_lines"):
        terminalreporter.write_line("bank conflicts per phase (test_bank_conflicts.py):")
    for line in SUMMARY.get("bank_lines", []):
        terminalreporter.write_line(line)
    if SUMMARY.get("paired_line"):
        terminalreporter.write_line(SUMMARY["paired_line"])
