"""A Triton helper that hangs (sweep-helper-timeout.test): with SWEEP_HANG=greeting it never
greets; with SWEEP_HANG=answer it greets as fuzz/sweep/triton_layouts.py does, then reads the
requests and never answers. Either way it ignores the end of its input."""
import json
import os
import signal
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
if os.environ.get("SWEEP_HANG") != "greeting":
    sys.stdout.write(json.dumps({"triton": "3.9.0"}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        pass
time.sleep(1000)
