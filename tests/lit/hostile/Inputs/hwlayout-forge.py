"""Writes a forged copy of the committed hwlayout results (corpus/oracle/instructions.json).

    hwlayout-forge.py RESULTS OUT KIND

KIND: ok-yes ("ok": "yes"), errors-2-32 (memcheck's error count 2^32, which was read as 0),
no-sanitizer (the sanitizer section dropped), duplicate (a failed record of a probe, then its
good record again), gpu-escape (terminal escape bytes in "gpu").
"""
import json
import sys

results, out, kind = sys.argv[1], sys.argv[2], sys.argv[3]
j = json.load(open(results))
if kind == "ok-yes":
    j["probes"][0]["ok"] = "yes"
elif kind == "errors-2-32":
    j["sanitizer"]["families"]["mma_sync"]["errors"] = 2**32
elif kind == "no-sanitizer":
    del j["sanitizer"]
elif kind == "duplicate":
    good = j["probes"][0]
    j["probes"][0] = {"id": good["id"], "family": good["family"], "ok": False,
                      "error": "illegal instruction"}
    j["probes"].append(good)
elif kind == "gpu-escape":
    j["gpu"] = "NVIDIA H200\x1b[2J\x1b]0;owned\x07"
else:
    sys.exit("unknown kind " + kind)
json.dump(j, open(out, "w"))
