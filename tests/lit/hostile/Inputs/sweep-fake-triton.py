"""A Triton helper that lies (sweep-helper.test): it greets as fuzz/sweep/triton_layouts.py does,
then answers every request with $SWEEP_FAKE_ANSWER, a JSON
object with "id" filled in (e.g. {"error": "x", "stage": 5}: a number where a string belongs).
"""
import json
import os
import sys

answer = json.loads(os.environ["SWEEP_FAKE_ANSWER"])
sys.stdout.write(json.dumps({"triton": "3.9.0"}) + "\n")
sys.stdout.flush()
for line in sys.stdin:
    req = json.loads(line)
    if req.get("flush"):
        sys.stdout.write(json.dumps({"flushed": True, "children": 0}) + "\n")
        sys.stdout.flush()
        continue
    sys.stdout.write(json.dumps(dict(answer, id=req["id"])) + "\n")
