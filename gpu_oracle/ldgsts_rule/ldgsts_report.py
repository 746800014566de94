"""For the tests of gpu_oracle/ldgsts_rule's kernels: `llcheck report` of a committed TTGIR as
Triton 3.6 on sm90, optionally with launches (`--launches`), its first kernel's report. A plain
module, not a conftest.py: tests/triton imports its own conftest by that name in the same run."""
import json
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def report_kernel(tmp_path, ttgir, launches=None):
    llcheck = os.environ.get("LLCHECK", os.path.join(REPO, "build", "cli", "llcheck"))
    args = [llcheck, "report", ttgir, "--out", str(tmp_path), "--no-z3", "--no-sass",
            "--quiet", "--triton", "3.6", "--arch", "sm90"]
    if launches is not None:
        file = tmp_path / "launches.json"
        file.write_text(json.dumps({"launches": launches}))
        args += ["--launches", str(file)]
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads((tmp_path / "report.json").read_text())["kernels"][0]
