"""The committed H200 measurement of one-warp cp.async patterns (measured.json, made by run.sh and
analyze.py) against the rules this experiment found for the shared-memory wavefronts of LDGSTS
(README.md): the access rule for cp.async.ca (4, 8, 16 bytes) and the bypass rule for
cp.async.cg (16 bytes), on every pattern. No GPU needed."""
import importlib.util
import json
import os
from collections import Counter

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
# By path, under a name of its own: gpu_oracle/wavefront_rule has an analyze.py too, and one
# pytest run collects both folders (a plain `import analyze` would get whichever came first).
_spec = importlib.util.spec_from_file_location("ldgsts_analyze", os.path.join(HERE, "analyze.py"))
analyze = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(analyze)

FIELDS = {"id": str, "op": str, "bytes": int, "g": list, "s": list, "wavefronts": int,
          "conflicts": int, "instructions": int, "hw_wavefronts": int, "l1_hit_sectors": int}


@pytest.fixture(scope="module")
def measured():
    path = os.path.join(HERE, "measured.json")
    assert os.path.exists(path), "measured.json is missing: run run.sh on a GPU, then analyze.py"
    with open(path) as f:
        data = json.load(f)
    for key in ("gpu", "driver", "ncu", "cuda", "date", "metrics", "patterns"):
        assert key in data, f"measured.json has no {key!r}"
    assert data["gpu"].startswith("NVIDIA H")
    assert analyze.SASS in data["metrics"]
    rows = data["patterns"]
    for r in rows:
        for key, typ in FIELDS.items():
            assert isinstance(r.get(key), typ), (r.get("id"), key)
        assert r["op"] in ("ca", "cg", "ca_warm", "cg_warm"), r["id"]
        assert r["bytes"] in (4, 8, 16) and (r["bytes"] == 16 or r["op"].startswith("ca")), r["id"]
        assert len(r["g"]) == len(r["s"]) == 32, r["id"]
        assert all(x % r["bytes"] == 0 for x in r["g"] + r["s"]), r["id"]
        assert len(set(r["s"])) == 32, r["id"]
    return rows


def test_every_pattern_measured(measured):
    patterns = analyze.read_patterns()
    assert len(measured) == len(patterns) == 1230
    assert [(r["id"], r["op"], r["g"], r["s"]) for r in measured] == \
        [(p["id"], p["op"], p["g"], p["s"]) for p in patterns]
    assert all(r["instructions"] == 1 for r in measured)
    kinds = Counter((r["bytes"], r["op"].split("_")[0]) for r in measured)
    assert kinds[(4, "ca")] > 200 and kinds[(8, "ca")] > 200
    assert kinds[(16, "ca")] > 300 and kinds[(16, "cg")] > 300


def test_access_rule_matches_every_ca_count(measured):
    rows = [r for r in measured if r["op"].startswith("ca")]
    misses = [(r["id"], r["op"], analyze.access_rule(r["g"], r["s"], r["bytes"]), r["wavefronts"])
              for r in rows if analyze.access_rule(r["g"], r["s"], r["bytes"]) != r["wavefronts"]]
    assert not misses, misses[:10]
    # Not the shared-side rule in disguise, nor the larger of the two sides: both miss many.
    assert sum(analyze.shared_rule(r["g"], r["s"], r["bytes"]) != r["wavefronts"]
               for r in rows) >= 300
    assert sum(analyze.max_rule(r["g"], r["s"], r["bytes"]) != r["wavefronts"] for r in rows) >= 50
    # ncu's bank-conflict count for .ca is the wavefronts past one a phase.
    for r in rows:
        assert r["conflicts"] == r["wavefronts"] - 32 // analyze.phase_lanes(r["bytes"]), r["id"]


def test_bypass_rule_matches_every_cg_count(measured):
    rows = [r for r in measured if r["op"].startswith("cg")]
    misses = [(r["id"], r["op"], analyze.bypass_rule(r["g"], r["s"]), r["wavefronts"])
              for r in rows if analyze.bypass_rule(r["g"], r["s"]) != r["wavefronts"]]
    assert not misses, misses[:10]
    # The reflections are needed: rotations alone, XORs alone or the .ca rule miss many.
    for other in (lambda r: analyze.bypass_rule(r["g"], r["s"], 16, "rot"),
                  lambda r: analyze.bypass_rule(r["g"], r["s"], 16, "xor"),
                  lambda r: analyze.access_rule(r["g"], r["s"], 16)):
        assert sum(other(r) != r["wavefronts"] for r in rows) >= 60
    # ncu counts no bank conflicts for LDGSTS.BYPASS, whatever its wavefronts.
    assert all(r["conflicts"] == 0 for r in rows)
    assert any(r["wavefronts"] == 32 for r in rows)


def test_matmul_tile_copy(measured):
    """The issue's A tile: 64-byte rows (32 f16), 16 bytes a lane, 8 rows a warp."""
    by = {(r["id"], r["op"]): r["wavefronts"] for r in measured}
    for op in ("ca", "cg"):
        assert by[("tile-16-w64-s64-b0-plain", op)] == 4  # K = BK: contiguous
        assert by[("tile-16-w64-s128-b0-plain", op)] == 8  # K = 2 BK
        assert by[("tile-16-w64-s256-b0-plain", op)] == 8  # K = 4 BK
        assert by[("tile-16-w64-s4096-b0-plain", op)] == 8
    assert by[("fp32-contiguous", "ca")] == 1


def test_source_view_count_ignores_cache_state(measured):
    flushed = [r for r in measured if "wavefronts_flushed" in r]
    assert len(flushed) >= 300
    assert all(r["wavefronts"] == r["wavefronts_flushed"] for r in flushed)
    warm = {(r["id"], tuple(r["g"]), tuple(r["s"]), r["op"].split("_")[0]): r["wavefronts"]
            for r in measured if r["op"].endswith("_warm")}
    cold = {(r["id"], tuple(r["g"]), tuple(r["s"]), r["op"]): r["wavefronts"]
            for r in measured if not r["op"].endswith("_warm")}
    assert len(warm) >= 100
    assert all(cold[k] == v for k, v in warm.items())


def test_hardware_counter(measured):
    """l1tex's own shared wavefronts: equal to the source-view count for .ca copies that hit in
    L1, never counting LDGSTS.BYPASS."""
    warm = [r for r in measured if r["op"] == "ca_warm"]
    assert warm and all(r["l1_hit_sectors"] > 0 for r in warm)
    assert all(r["hw_wavefronts"] == r["wavefronts"] for r in warm)
    assert all(r["hw_wavefronts"] == 0 for r in measured if r["op"].startswith("cg"))
