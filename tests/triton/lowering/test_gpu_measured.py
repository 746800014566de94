"""Triton 3.6's and 3.9's own kernels as an H200 ran them (data/gpu-h200.json, gpu_check.py
collect) against llcheck's model of their lowering: every measured side exact, or of a kind
gpu_check.py names (the counter varying between launches of the one kernel, a stable offset of
at most 4, a difference listed with its reason), and every faulting kernel predicted as a
misaligned access. No GPU or Triton needed."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def run_check(*extra):
    """gpu_check.py check over every measured batch and its isolated re-measurement."""
    llcheck = os.environ.get("LLCHECK", os.path.join(REPO, "build", "cli", "llcheck"))
    data = os.path.join(HERE, "data")
    proc = subprocess.run([sys.executable, os.path.join(HERE, "gpu_check.py"), "check",
                           os.path.join(data, "gpu-h200.json"),
                           os.path.join(data, "gpu-h200-more.json"), "--isolated",
                           os.path.join(data, "gpu-h200-isolated.json"),
                           os.path.join(data, "gpu-h200-isolated-more.json"),
                           "--instruction-level", os.path.join(data, "gpu-h200-sass.json"),
                           "--llcheck", llcheck, *extra],
                          capture_output=True, text=True)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    return proc.stdout


def test_h200_counters_against_the_lowering_model():
    out = run_check()
    assert "async load" in out and "22 faulted" in out
    assert "1086 kernels measured" in out and "1085 kernels measured" in out
    assert "isolated re-measurement" in out
    assert "get_shared_bank_conflicts, local load" in out


def test_h200_counters_through_the_report(tmp_path):
    """The same sides predicted by `llcheck report --hardware sm90` of each kernel's own TTGIR
    (data/ttgir-V.tar.xz, as Triton wrote it) instead of the layouts: the report's `predicted`
    per op is what the GPU measured, sorted the same way. The committed Triton report of each
    release (reports/triton-lowering-V/) is what today's llcheck makes of the data."""
    out = run_check("--through-report", "--report-dir", str(tmp_path))
    assert out.count("Through `llcheck report`") == 2
    for version in ("3.6", "3.9"):
        for name in ("conformance.json", "README.md"):
            made = (tmp_path / f"triton-lowering-{version}" / name).read_text()
            committed = os.path.join(REPO, "reports", f"triton-lowering-{version}", name)
            with open(committed) as f:
                assert made == f.read(), (
                    f"{committed} is not what today's llcheck makes of the data: run "
                    "gpu_check.py check --through-report --report-dir reports (see its README)")


def test_h200_early_exit_through_the_report():
    """Kernels ending in Triton's own masked store (cases-exit.json): `llcheck report` of each
    kernel's TTGIR with its SASS beside it predicts the warps that exit early and the loads they
    skip (`predicted.early_exit`), and the counters agree (data/gpu-h200-exit.json)."""
    llcheck = os.environ.get("LLCHECK", os.path.join(REPO, "build", "cli", "llcheck"))
    proc = subprocess.run([sys.executable, os.path.join(HERE, "gpu_check.py"), "check-exit",
                           os.path.join(HERE, "data", "gpu-h200-exit.json"),
                           "--llcheck", llcheck], capture_output=True, text=True)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.stdout.count("early-exit kernels") == 2


def test_h200_instruction_level_counts():
    """One more run of every case (data/gpu-h200-sass.json, run_gpu_batch.sh SASS=1) read both
    the hardware counters and ncu's instruction-level counts (the SASS patched: each executed
    instruction's wavefronts from its threads' addresses). The prediction equals the
    instruction-level count on every side but the static differences of known_differences.json,
    where the hardware counter does not: the rest of the hardware's count is the pipeline's."""
    llcheck = os.environ.get("LLCHECK", os.path.join(REPO, "build", "cli", "llcheck"))
    proc = subprocess.run([sys.executable, os.path.join(HERE, "gpu_check.py"), "check-sass",
                           os.path.join(HERE, "data", "gpu-h200-sass.json"),
                           "--llcheck", llcheck], capture_output=True, text=True)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.stdout.count("one run with both counts") == 2
    # Every conversion through shared memory by both releases' choice (3.6: 350 of the 398
    # launched; 3.9: 344 of 389, the other 25 with warp shuffles), each side exact.
    assert "convert load    350 sides (398 launches): instruction-level exact 350" in proc.stdout
    assert "convert load    344 sides (389 launches): instruction-level exact 344" in proc.stdout
