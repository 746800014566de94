"""Triton 3.6's shared-memory layouts as an H200 laid them out (gpu_shared_readback.py, run on
the GPU machine with its Triton 3.6 and the GPU's own lowering, stmatrix included; committed as
data/gpu_shared_readback-3.6.json.xz) against `llcheck --triton 3.6`: every offset of every case
must hold the element llcheck's layout names, except the cases Triton 3.6 itself miscompiles
(data/gpu_readback_known-3.6.json), which must still differ. No GPU or Triton needed."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def test_h200_readback_equals_llcheck_triton_36():
    llcheck = os.environ.get("LLCHECK", os.path.join(REPO, "build", "cli", "llcheck"))
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "compare_readback.py"),
         os.path.join(HERE, "data", "gpu_shared_readback-3.6.json.xz"), "--llcheck", llcheck,
         "--known", os.path.join(HERE, "data", "gpu_readback_known-3.6.json")],
        capture_output=True, text=True)
    summary = [line for line in proc.stdout.splitlines() if line[:1].isalpha()]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    counts = {tuple(line.split()[:2]): int(line.split()[-1]) for line in summary
              if line.split()[-1].isdigit() and not line.startswith("llcheck")}
    assert counts[("nvmma_shared", "agree")] >= 900
    assert counts[("swizzled_shared", "agree")] >= 900
    assert counts[("shared_linear", "agree")] >= 400
