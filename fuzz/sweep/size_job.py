#!/usr/bin/env python3
"""How many shards bring a large sweep under a wall-clock limit, from measured parts.

`llcheck sweep --estimate` deals the groups by a cost model fitted at small bounds; at
--max-log2 8 that model predicts single parts poorly (a part whose layouts have more than 2^24
inputs is checked by the algebra alone and costs little), so a shard count cannot come from it
alone. This script takes parts that were run and timed (SAMPLES, e.g.
fuzz/sweep/results/scale/blocked-max-log2-8-parts.json: part `rank` is the one `--shard
rank/GROUPS` runs, the deal giving each shard of GROUPS one part, costliest first), gives every
part of the deal a cost (its model estimate times the measured/model ratio of a sample near it
in rank, drawn at random), deals the parts to N shards as llcheck does (by the model) and prints
the total and the slowest shard, over several draws. Each shard also plans the deal once
(`wall_seconds - seconds` of the samples that ran alone). The parts of a shard run with
`--group-times` are samples too (their lines carry `rank`, `encodings` and `seconds`).

usage: size_job.py LLCHECK SAMPLES.json N [N ...] [--draws D] [--limit SECONDS]
Exit status: 0; 2 for bad input (samples that are not of this llcheck's deal).
"""
import argparse
import heapq
import json
import math
import random
import subprocess
import sys


def fail(message):
    print(f"size_job.py: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("llcheck")
    ap.add_argument("samples")
    ap.add_argument("shards", type=int, nargs="+")
    ap.add_argument("--draws", type=int, default=10)
    ap.add_argument("--limit", type=float, default=3600.0, help="the wall-clock limit (s)")
    a = ap.parse_args()
    with open(a.samples) as f:
        s = json.load(f)
    groups = s["groups"]
    proc = subprocess.run([a.llcheck, "sweep", *s["sweep"], "--estimate", "--shard-count",
                           str(groups), "--format", "json"], capture_output=True, text=True)
    if proc.returncode != 0:
        fail(proc.stderr.strip())
    est = json.loads(proc.stdout)
    if est["groups"] != groups:
        fail(f"this llcheck deals {est['groups']} groups, the samples were of {groups}")
    model = [sh["estimated_seconds"] for sh in est["shards"]]
    for p in s["parts"]:
        if est["shards"][p["rank"]]["encodings"] != p["encodings"]:
            fail(f"part {p['rank']}: {p['encodings']} encodings measured, "
                 f"{est['shards'][p['rank']]['encodings']} in this llcheck's deal")
    samples = sorted(s["parts"], key=lambda p: p["rank"])
    ratio = {p["rank"]: (p["seconds"] / model[p["rank"]] if model[p["rank"]] > 1e-5 else 0.0)
             for p in samples}
    plan = max((p["wall_seconds"] - p["seconds"] for p in samples if "wall_seconds" in p),
               default=0.0)
    ranks = [p["rank"] for p in samples]
    near = {}  # the 4 samples nearest in log rank, per bucket of ranks

    def neighbours(r):
        b = int(math.log(r + 1) * 20)
        if b not in near:
            lr = math.log(r + 1)
            near[b] = sorted(ranks, key=lambda k: abs(math.log(k + 1) - lr))[:4]
        return near[b]

    rng = random.Random(1)
    print(f"{len(model)} parts of `llcheck sweep {' '.join(s['sweep'])}`, {len(samples)} of them "
          f"measured on {s['machine']}; planning {plan:.0f} s per shard")
    for n in a.shards:
        worst, totals = [], []
        for _ in range(a.draws):
            loads = [(0.0, i) for i in range(n)]
            real = [0.0] * n
            total = 0.0
            for r, m in enumerate(model):  # ranks are the deal's order: costliest first
                cost = m * ratio[rng.choice(neighbours(r))] if m > 1e-5 else 0.0
                load, i = heapq.heappop(loads)
                heapq.heappush(loads, (load + m, i))
                real[i] += cost
                total += cost
            worst.append(max(real) + plan)
            totals.append(total)
        worst.sort()
        verdict = "under" if worst[-1] <= a.limit else "over"
        print(f"{n} shards: {sum(totals) / len(totals) / 3600:.0f} core-hours in all; slowest shard "
              f"{worst[len(worst) // 2]:.0f} s (median of {a.draws} draws), {worst[-1]:.0f} s at "
              f"worst: {verdict} {a.limit:.0f} s")


if __name__ == "__main__":
    main()
