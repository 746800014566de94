"""Writes forged `llcheck oracle` results into the folder argv[1] (issue 31, finding 4): one ttgir
case each, with one field of the wrong type or value."""
import copy
import json
import os
import sys

good = {
    "gpu": "NVIDIA H200", "cuda": "13.0", "ncu": "2025.3", "date": "2026-12-01", "arch": "sm90",
    "cases": [{
        "id": "c0", "origin": "ttgir:small.ttgir:3:ttg.local_alloc", "correct": True,
        "agreement": "exact",
        "measured": {"store": {"wavefronts": 128, "bank_conflicts": 0, "instructions": 128},
                     "load": {"wavefronts": 128, "bank_conflicts": 0, "instructions": 128}},
    }],
}


def write(name, edit):
    j = copy.deepcopy(good)
    edit(j)
    with open(os.path.join(sys.argv[1], name), "w") as f:
        json.dump(j, f)


write("correct-string.json", lambda j: j["cases"][0].update(correct="yes"))
write("wavefronts-null.json", lambda j: j["cases"][0]["measured"]["store"].update(wavefronts=None))
write("wavefronts-real.json", lambda j: j["cases"][0]["measured"]["load"].update(wavefronts=128.5))
write("gpu-number.json", lambda j: j.update(gpu=7))
write("unknown-field.json",
      lambda j: j["cases"][0]["measured"]["store"].update(wavefrnts=1))
