#!/usr/bin/env python3
"""Reads wavefront_rule.csv (ncu, one launch per pattern of patterns.txt) and scores candidate
wavefront rules against the measured counts; writes measured.json (the committed data) with
--write.

usage: analyze.py CSV_DIR [--write measured.json]

The rules, for one warp-wide access of W bytes per lane (unit = max(W, 4) bytes; a bank row is
128 bytes, so 128/unit units share no bank; a unit's bank group is unit mod (128/unit)):
- per_phase: the lanes split into 32/(128/unit) phases of consecutive lanes (1, 2 or 4 for 4,
  8, 16 bytes); each phase takes as many wavefronts as the most distinct units one bank group
  serves within it; the instruction takes the sum (llcheck's model before issue 19);
- whole_warp: the most distinct units one bank group serves over all 32 lanes;
- max: the larger of whole_warp and the phases needed to carry the warp's distinct bytes
  (ceil(distinct units * unit / 128));
- paired (the rule llcheck follows, SharedMemory.h): per_phase, except that a load of 8 or 16
  bytes in which every lane reads the same address as lane^1, or every lane the same as
  lane^2, has phases of twice as many lanes (32 for 8 bytes, 16 for 16 bytes).
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "ld_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "st_wavefronts",
    "smsp__inst_executed_op_shared_ld.sum": "ld_instructions",
    "smsp__inst_executed_op_shared_st.sum": "st_instructions",
}


def read_patterns():
    out = []
    with open(os.path.join(HERE, "patterns.txt")) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            out.append({"id": parts[0], "op": parts[1], "bytes": int(parts[2]),
                        "offsets": [int(x) for x in parts[3:]]})
    return out


def read_csv(path):
    launches = {}
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r]
    header = None
    for r in rows:
        if "ID" in r and "Metric Name" in r:
            header = r
            continue
        if header is None or len(r) != len(header):
            continue
        rec = dict(zip(header, r))
        name = METRICS.get(rec["Metric Name"])
        if name is None:
            continue
        launches.setdefault(int(rec["ID"]), {})[name] = int(float(rec["Metric Value"].replace(",", "")))
    return [launches[k] for k in sorted(launches)]


def groups(offsets, width):
    unit = max(width, 4)
    per_row = 128 // unit
    return [(o // unit) for o in offsets], per_row


def most_per_bank(units, per_row):
    banks = {}
    for u in set(units):
        banks.setdefault(u % per_row, set()).add(u)
    return max(len(s) for s in banks.values())


def per_phase(offsets, width):
    units, per_row = groups(offsets, width)
    lanes = per_row if width >= 4 else 32
    lanes = min(lanes, 32)
    return sum(most_per_bank(units[p:p + lanes], per_row) for p in range(0, 32, lanes))


def whole_warp(offsets, width):
    units, per_row = groups(offsets, width)
    return most_per_bank(units, per_row)


def max_rule(offsets, width):
    units, per_row = groups(offsets, width)
    unit = max(width, 4)
    carried = -(-len(set(units)) * unit // 128)
    return max(most_per_bank(units, per_row), carried)


def paired_rule(offsets, width, op="ld"):
    units, per_row = groups(offsets, width)
    lanes = min(per_row, 32)
    paired = any(all(units[t] == units[t ^ m] for t in range(32)) for m in (1, 2))
    if op == "ld" and width > 4 and paired:
        lanes = min(2 * lanes, 32)
    return sum(most_per_bank(units[p:p + lanes], per_row) for p in range(0, 32, lanes))


RULES = {"per_phase": per_phase, "whole_warp": whole_warp, "max": max_rule,
         "paired": lambda offsets, width: None}


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    src = args[0]
    write = args[args.index("--write") + 1] if "--write" in args else None
    patterns = read_patterns()
    measured = read_csv(os.path.join(src, "wavefront_rule.csv"))
    if len(measured) != len(patterns):
        print(f"analyze: {len(measured)} launches measured, {len(patterns)} patterns", file=sys.stderr)
        return 1
    score = {r: {} for r in RULES}
    misses = {r: [] for r in RULES}
    rows = []
    for p, m in zip(patterns, measured):
        got = m[f"{p['op']}_wavefronts"]
        inst = m[f"{p['op']}_instructions"]
        row = {"id": p["id"], "op": p["op"], "bytes": p["bytes"], "offsets": p["offsets"],
               "wavefronts": got, "instructions": inst}
        rows.append(row)
        for name, rule in RULES.items():
            key = (p["bytes"], p["op"])
            ok, total = score[name].get(key, (0, 0))
            want = (paired_rule(p["offsets"], p["bytes"], p["op"]) if name == "paired"
                    else rule(p["offsets"], p["bytes"]))
            hit = want == got
            score[name][key] = (ok + hit, total + 1)
            if not hit:
                misses[name].append((p["id"], p["op"], want, got))
    for name in RULES:
        print(f"{name}:")
        for key in sorted(score[name]):
            ok, total = score[name][key]
            print(f"  {key[0]:2d}-byte {key[1]}: {ok}/{total}")
        for miss in misses[name][:8]:
            print("    miss", miss)
    if write:
        meta = {}
        meta_path = os.path.join(src, "wavefront_rule.meta")
        if os.path.exists(meta_path):
            for line in open(meta_path):
                k, _, v = line.partition(":")
                meta[k.strip()] = v.strip()
        with open(write, "w") as f:
            json.dump({**meta, "patterns": rows}, f, separators=(",", ":"))
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
