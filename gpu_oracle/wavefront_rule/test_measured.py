"""The committed H200 measurement of one-warp ld/st.shared patterns (measured.json, made by
run.sh and analyze.py) against the wavefront rule, twice: as analyze.py states it over raw
addresses (every pattern), and as llcheck's bank model computes it from a layout (every F2-linear
pattern, each given to `llcheck bank-conflicts` as a register layout over an identity shared
layout). No GPU needed."""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import analyze  # noqa: E402

MEASURED = json.load(open(os.path.join(HERE, "measured.json")))


def llcheck():
    path = os.environ.get("LLCHECK", os.path.join(REPO, "build", "cli", "llcheck"))
    if not os.access(path, os.X_OK):
        pytest.skip(f"no llcheck binary at {path}")
    return path


def test_every_pattern_measured():
    assert len(MEASURED["patterns"]) == len(analyze.read_patterns()) == 1622
    assert MEASURED["gpu"].startswith("NVIDIA H")


def test_rule_matches_every_count():
    misses = [(p["id"], p["op"], analyze.paired_rule(p["offsets"], p["bytes"], p["op"]),
               p["wavefronts"])
              for p in MEASURED["patterns"]
              if analyze.paired_rule(p["offsets"], p["bytes"], p["op"]) != p["wavefronts"]]
    assert not misses, misses[:10]
    # The rule is not the old one in disguise: the per-phase rule misses loads that pair.
    old = sum(analyze.per_phase(p["offsets"], p["bytes"]) != p["wavefronts"]
              for p in MEASURED["patterns"])
    assert old >= 100
    assert all(p["instructions"] == 1 for p in MEASURED["patterns"])


def linear_basis(p):
    unit = max(p["bytes"], 4)
    units = [o // unit for o in p["offsets"]]
    basis = [units[1 << k] ^ units[0] for k in range(5)]
    for t in range(32):
        x = units[0]
        for k in range(5):
            if t >> k & 1:
                x ^= basis[k]
        if x != units[t]:
            return None
    return basis


def test_llcheck_bank_model_on_linear_patterns(tmp_path):
    binary = llcheck()
    elems = 8192  # 32 KB of 32-bit elements
    shared = {"ins": [{"name": "offset", "size": elems, "bases": [[1 << i] for i in range(13)]},
                      {"name": "block", "size": 1, "bases": []}],
              "outs": [{"name": "dim0", "size": elems}]}
    shared_path = tmp_path / "shared.json"
    shared_path.write_text(json.dumps(shared))
    by_offsets = {}
    for p in MEASURED["patterns"]:
        if p["id"].startswith("linear-"):
            by_offsets.setdefault((p["id"], p["bytes"]), {})[p["op"]] = p["wavefronts"]
    patterns = {(p["id"], p["bytes"]): p for p in MEASURED["patterns"]}
    checked = 0
    for key, measured in sorted(by_offsets.items()):
        p = patterns[key]
        basis = linear_basis(p)
        assert basis is not None, key
        per_unit = max(p["bytes"], 4) // 4
        reg = {"ins": [{"name": "register", "size": per_unit,
                        "bases": [[1 << i] for i in range(per_unit.bit_length() - 1)]},
                       {"name": "lane", "size": 32, "bases": [[b * per_unit] for b in basis]},
                       {"name": "warp", "size": 1, "bases": []},
                       {"name": "block", "size": 1, "bases": []}],
               "outs": [{"name": "dim0", "size": elems}]}
        reg_path = tmp_path / "reg.json"
        reg_path.write_text(json.dumps(reg))
        out = subprocess.run([binary, "bank-conflicts", str(reg_path), str(shared_path),
                              "--dtype", "i32", "--arch", "sm90", "--format", "json"],
                             capture_output=True, text=True, check=True)
        answer = json.loads(out.stdout)
        for op, side in (("st", "store"), ("ld", "load")):
            assert answer[side]["vector_bits"] == 8 * max(p["bytes"], 4), key
            assert answer[side]["instructions"] == 1, key
            assert answer[side]["wavefronts"] == measured[op], (key, op, answer[side])
        checked += 1
    assert checked == 270
