"""Every conversion of Triton's measured on a GPU (data/, see README.md) against `llcheck
convert` today: where both go through shared memory, llcheck's optimal plan must take no more
store + load wavefronts than Triton's lowering took on the hardware, except the cases listed in
known_differences.json with their reason (an entry that no longer matches fails too). Needs
only the committed data and the llcheck binary (LLCHECK, default build/cli/llcheck)."""
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402


@pytest.fixture(scope="module")
def rows():
    llcheck = os.environ.get("LLCHECK", compare.DEFAULT_LLCHECK)
    if not os.access(llcheck, os.X_OK):
        pytest.exit(f"no llcheck binary at {llcheck}: build first (make build) or set LLCHECK",
                    returncode=2)
    return compare.compare(llcheck)


def test_every_measured_conversion_delivered_its_data(rows):
    assert rows, "no measured cases under data/"
    assert [r["id"] for r in rows if r["correct"] is not True] == []


def test_optimal_plan_never_takes_more_wavefronts_than_triton(rows):
    with open(os.path.join(HERE, "known_differences.json")) as f:
        known = json.load(f)["cases"]
    worse, stale, unexplained = [], [], []
    shared = [r for r in rows if r["kind"] == "shared_memory"]
    for r in shared:
        o, t = r["llcheck"], r["triton"]
        ours = o["store_wavefronts"] + o["load_wavefronts"]
        theirs = t["store_wavefronts"] + t["load_wavefronts"]
        line = f"{r['id']}: llcheck {o['store_wavefronts']}+{o['load_wavefronts']}, Triton " \
               f"{t['store_wavefronts']}+{t['load_wavefronts']}"
        if r["id"] in known:
            if ours <= theirs:
                stale.append(line)
            elif t["model_floor_store"] < o["store_wavefronts"] or \
                    t["model_floor_load"] < o["load_wavefronts"]:
                # The explanation ("the hardware took fewer than the model counts") holds only
                # if, under the model, Triton's lowering cannot be cheaper than llcheck's plan:
                # its PTX instructions, every warp issuing each at one wavefront per phase,
                # already take at least what the plan takes.
                unexplained.append(line + f" (the model's floor for Triton's PTX: "
                                   f"{t['model_floor_store']}+{t['model_floor_load']})")
        elif ours > theirs:
            worse.append(line)
    ids = {r["id"] for r in shared}
    stale += [f"{k}: not a measured shared-memory conversion" for k in known if k not in ids]
    verdicts = {}
    for r in rows:
        key = r["verdict"] if r["kind"] == "shared_memory" else f"llcheck plans {r['kind']}"
        verdicts[key] = verdicts.get(key, 0) + 1
    compare.SUMMARY.append(f"{len(rows)} conversions measured, {len(shared)} through shared memory by "
                   f"llcheck's plan: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())) +
                   f"; Triton fewer only where known_differences.json explains ({len(known)})")
    assert worse == [], "llcheck's optimal plan takes more wavefronts than Triton's:\n" + \
        "\n".join(worse)
    assert stale == [], "known_differences.json entries that no longer apply:\n" + "\n".join(stale)
    assert unexplained == [], "\n".join(unexplained)


def test_every_plan_attains_its_lower_bound(rows):
    assert [r["id"] for r in rows if r["kind"] == "shared_memory"
            and not r["llcheck"]["attained"]] == []


def test_hardware_never_beats_the_models_floor_except_known(rows):
    """A check of the model itself: what Triton's PTX must take under the model (every warp
    issues every instruction, one wavefront per phase at least) is never more than the H100
    measured, except in the known cases, where it measured fewer instructions executed."""
    with open(os.path.join(HERE, "known_differences.json")) as f:
        known = json.load(f)["cases"]
    below = [f"{r['id']}: floor {r['triton']['model_floor_store']}+"
             f"{r['triton']['model_floor_load']}, measured {r['triton']['store_wavefronts']}+"
             f"{r['triton']['load_wavefronts']}"
             for r in rows if r["id"] not in known and
             (r["triton"]["model_floor_store"] > r["triton"]["store_wavefronts"] or
              r["triton"]["model_floor_load"] > r["triton"]["load_wavefronts"])]
    assert below == []
