#!/usr/bin/env python3
"""Reads the ncu CSVs of run.sh (one launch per line of patterns.txt) and scores candidate rules
for the shared-memory wavefronts of one warp-wide cp.async (LDGSTS) against the measured counts;
writes measured.json (the committed data) with --write, the predictions of the rules with
--predict.

usage: analyze.py CSV_DIR [--write measured.json] [--prefix]
       (--prefix: the run measured only the first lines of patterns.txt, as the first run did)
       analyze.py --predict [ID_PREFIX]      (no measurement needed)

What is measured (README.md): smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,
the per-instruction count ncu's source view shows (the target of the rules), and the hardware
counter l1tex__data_pipe_lsu_wavefronts_mem_shared.sum less the ld/st.shared wavefronts of the
kernel and a constant baseline (reported, not the target: it never counts LDGSTS.BYPASS).

Per lane t: g[t] the global byte offset (the buffer is 128-byte aligned), s[t] the shared byte
offset, V the bytes per lane (4, 8, 16); a unit is V bytes, 128/V units make a 128-byte row.

Rules:
- shared: the st.shared rule on the shared side alone (phases of 32, 16, 8 lanes for 4, 8, 16
  bytes; per phase the most distinct shared units in one bank group, unit mod 128/V);
- global: the same phases, per phase the most LANES whose global unit falls in one bank group
  (lanes reading the same address count once each: no broadcast);
- max: per phase the larger of the two, summed (a lower bound; the rule predicted.txt used);
- sum: per phase the sum of the two (an upper bound);
- access (the rule for cp.async.ca, LDGSTS.ACCESS): per phase, the most lanes that one lane
  meets in its global bank group or in its shared bank group, itself included (the largest
  closed neighbourhood of the conflict graph: two lanes conflict when their global units share a
  bank group, or their shared units do), summed over the phases. It is max when one side has no
  conflict, and g + s - 1 when the two sides' conflicts are independent (F2-linear maps whose
  conflicting lane bits differ); every measured shared destination is distinct, so whether
  lanes writing one shared address count once is not measured;
- bypass (the rule for cp.async.cg, LDGSTS.BYPASS, 16 bytes): no phases; the lanes group by
  (global 128-byte line, shared 128-byte row); within a group a transfer is one global 32-byte
  sector to one shared 32-byte sector: the two lanes of a whole sector (halves kept, or halves
  swapped) make one transfer, any other lane is a transfer of its own, of class (global half,
  shared half). A wavefront carries transfers of one group and one class whose sector maps
  (global sector index gs -> shared sector index ss, 0..3 within the line and row) agree on one
  element of the dihedral group of the square: a rotation ss = gs + k or a reflection
  ss = k - gs (mod 4). Transfers are placed greedily in lane order.
- bypass_rot / bypass_xor: the same with only rotations, or only XORs ss = gs ^ k.
"""
import csv
import json
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SASS = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
SASS_CONFLICTS = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"
HW_TOTAL = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
HW_LD = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
HW_ST = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
INST = "smsp__inst_executed_op_ldgsts.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum"


def read_patterns(path=os.path.join(HERE, "patterns.txt")):
    out = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            vals = [int(x) for x in parts[3:]]
            if len(vals) != 64:
                raise ValueError(f"bad pattern line: {line.strip()}")
            out.append({"id": parts[0], "op": parts[1], "bytes": int(parts[2]),
                        "g": vals[:32], "s": vals[32:]})
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
        value = float(rec["Metric Value"].replace(",", ""))
        launches.setdefault(int(rec["ID"]), {})[rec["Metric Name"]] = value
    return [launches[k] for k in sorted(launches)]


# ---------------------------------------------------------------------------------------------
# Rules


def phase_lanes(width):
    return {4: 32, 8: 16, 16: 8}[width]


def _most(units, per_row, distinct):
    banks = defaultdict(list)
    for u in units:
        banks[u % per_row].append(u)
    return max(len(set(b)) if distinct else len(b) for b in banks.values())


def _phases(g, s, width):
    lanes = phase_lanes(width)
    per_row = 128 // width
    for p in range(0, 32, lanes):
        gu = [x // width for x in g[p:p + lanes]]
        su = [x // width for x in s[p:p + lanes]]
        yield _most(gu, per_row, False), _most(su, per_row, True)


def shared_rule(g, s, width):
    return sum(b for _, b in _phases(g, s, width))


def global_rule(g, s, width):
    return sum(a for a, _ in _phases(g, s, width))


def max_rule(g, s, width):
    return sum(max(a, b) for a, b in _phases(g, s, width))


def access_rule(g, s, width):
    """cp.async.ca (LDGSTS.ACCESS): per phase, the most lanes one lane meets in its global bank
    group or its shared bank group (itself included), summed over the phases."""
    lanes = phase_lanes(width)
    per_row = 128 // width
    total = 0
    for p in range(0, 32, lanes):
        gb = [x // width % per_row for x in g[p:p + lanes]]
        sb = [x // width % per_row for x in s[p:p + lanes]]
        total += max(sum(1 for u in range(lanes) if gb[u] == gb[t] or sb[u] == sb[t])
                     for t in range(lanes))
    return total


def sum_rule(g, s, width):
    return sum(a + b for a, b in _phases(g, s, width))


def _maps(gs, ss, kind):
    if kind == "d4":
        return {("rot", (ss - gs) % 4), ("refl", (ss + gs) % 4)}
    if kind == "rot":
        return {("rot", (ss - gs) % 4)}
    return {("xor", ss ^ gs)}


def bypass_rule(g, s, width=16, kind="d4"):
    """cp.async.cg (LDGSTS.BYPASS), 16 bytes a lane."""
    if width != 16:
        raise ValueError("cp.async.cg copies 16 bytes")
    transfers, order = {}, []
    for a, b in zip(g, s):
        key = (a // 128, b // 128, a // 32, b // 32)
        if key not in transfers:
            transfers[key] = []
            order.append(key)
        transfers[key].append(((a % 32) // 16, (b % 32) // 16))
    items = []
    for key in order:
        halves = sorted(transfers[key])
        group = key[:2]
        maps = _maps(key[2] % 4, key[3] % 4, kind)
        if halves == [(0, 0), (1, 1)]:
            items.append((group, "same", maps))
        elif halves == [(0, 1), (1, 0)]:
            items.append((group, "swap", maps))
        else:
            items.extend((group, h, maps) for h in halves)
    waves = []
    for group, cls, maps in items:
        for w in waves:
            if w[0] == group and w[1] == cls and w[2] & maps:
                w[2] &= maps
                break
        else:
            waves.append([group, cls, set(maps)])
    return len(waves)


def rule_for(op):
    """The rule this experiment found for an op of patterns.txt."""
    return bypass_rule if op.startswith("cg") else access_rule


def found_rule(g, s, width, op):
    return rule_for(op)(g, s, width)


RULES = {
    "found": None,  # max for ca, bypass for cg: rule_for(op)
    "shared": shared_rule,
    "global": global_rule,
    "max": max_rule,
    "sum": sum_rule,
    "access": access_rule,
    "bypass": bypass_rule,
    "bypass_rot": lambda g, s, w: bypass_rule(g, s, w, "rot"),
    "bypass_xor": lambda g, s, w: bypass_rule(g, s, w, "xor"),
}


# ---------------------------------------------------------------------------------------------


def collect(src, patterns, prefix=False):
    """The committed rows: one per pattern, the counters of the none pass (and, where the all
    pass measured the pattern, of that pass)."""
    none = read_csv(os.path.join(src, "ldgsts_none.csv"))
    if prefix:
        patterns[:] = patterns[:len(none)]
    if len(none) != len(patterns):
        raise SystemExit(f"analyze: {len(none)} launches, {len(patterns)} patterns")
    flushed = {}
    all_csv = os.path.join(src, "ldgsts_all.csv")
    if os.path.exists(all_csv):
        sub_path = os.path.join(src, "ldgsts_all.txt")
        sub = read_patterns(sub_path) if os.path.exists(sub_path) else patterns
        launches = read_csv(all_csv)
        if len(launches) != len(sub):
            raise SystemExit(f"analyze: {all_csv}: {len(launches)} launches, {len(sub)} patterns")
        where = defaultdict(list)
        for i, p in enumerate(patterns):
            where[(p["id"], p["op"], tuple(p["g"]), tuple(p["s"]))].append(i)
        for p, x in zip(sub, launches):
            flushed[where[(p["id"], p["op"], tuple(p["g"]), tuple(p["s"]))].pop(0)] = x
    # The hardware counter's baseline: what the kernel's other instructions add; BYPASS copies
    # add nothing to it, so it is the value of every cg launch.
    base = {}
    for cc, launches in (("none", dict(enumerate(none))), ("all", flushed)):
        vals = {x[HW_TOTAL] - x[HW_LD] - x[HW_ST]
                for i, x in launches.items() if patterns[i]["op"].startswith("cg")}
        if len(vals) > 1:
            raise SystemExit(f"analyze: the cg baseline is not constant in {cc}: {sorted(vals)}")
        if vals:
            base[cc] = vals.pop()
    rows = []
    for i, p in enumerate(patterns):
        x = none[i]
        row = {"id": p["id"], "op": p["op"], "bytes": p["bytes"], "g": p["g"], "s": p["s"],
               "wavefronts": int(x[SASS]), "conflicts": int(x[SASS_CONFLICTS]),
               "instructions": int(x[INST]),
               "hw_wavefronts": int(x[HW_TOTAL] - x[HW_LD] - x[HW_ST] - base["none"]),
               "l1_hit_sectors": int(x[HITS])}
        if i in flushed:
            y = flushed[i]
            row["wavefronts_flushed"] = int(y[SASS])
            row["hw_wavefronts_flushed"] = int(y[HW_TOTAL] - y[HW_LD] - y[HW_ST] - base["all"])
        rows.append(row)
    return rows, base


def kind(row):
    return (row["bytes"], row["op"])


def score(rows, value="wavefronts"):
    table = {}
    misses = defaultdict(list)
    for name, rule in RULES.items():
        for r in rows:
            if name.startswith("bypass") and not r["op"].startswith("cg"):
                continue
            want = (found_rule(r["g"], r["s"], r["bytes"], r["op"]) if rule is None
                    else rule(r["g"], r["s"], r["bytes"]))
            ok, total = table.get((name, kind(r)), (0, 0))
            hit = want == r[value]
            table[(name, kind(r))] = (ok + hit, total + 1)
            if not hit:
                misses[name].append((r["id"], r["op"], want, r[value]))
    return table, misses


def print_table(rows, value, title):
    table, misses = score(rows, value)
    kinds = sorted({kind(r) for r in rows}, key=lambda k: (k[1].startswith("cg"), k[1], k[0]))
    print(f"\n{title}\n")
    print("| rule | " + " | ".join(f"{b} B {op}" for b, op in kinds) + " |")
    print("| --- |" + " --- |" * len(kinds))
    for name in RULES:
        cells = []
        for k in kinds:
            ok, total = table.get((name, k), (None, None))
            cells.append("" if ok is None else f"{ok}/{total}")
        if any(cells):
            print(f"| {name} | " + " | ".join(cells) + " |")
    for m in misses["found"][:40]:
        print(f"    found-rule miss: {m[0]} {m[1]}: rule {m[2]}, measured {m[3]}")


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    patterns = read_patterns()
    if args[0] == "--predict":
        prefix = args[1] if len(args) > 1 else ""
        for p in patterns:
            if p["id"].startswith(prefix):
                print(p["id"], p["op"], p["bytes"], rule_for(p["op"])(p["g"], p["s"], p["bytes"]))
        return 0
    src = args[0]
    write = args[args.index("--write") + 1] if "--write" in args else None
    rows, base = collect(src, patterns, "--prefix" in args)
    print(f"{len(rows)} launches; hardware baseline {base}")
    bad = [r["id"] for r in rows if r["instructions"] != 1]
    if bad:
        print(f"analyze: launches without exactly one LDGSTS: {bad[:5]}", file=sys.stderr)
        return 1
    first = [r for r in rows if not r["id"].startswith("h-")]
    hold = [r for r in rows if r["id"].startswith("h-")]
    print_table(first, "wavefronts", "ncu's LDGSTS wavefronts (source view), first patterns")
    if hold:
        print_table(hold, "wavefronts", "the same, holdout patterns (h-*)")
        pred_path = os.path.join(HERE, "predicted.txt")
        if os.path.exists(pred_path):
            pred = [line.split() for line in open(pred_path) if line.strip()]
            if [(x[0], x[1]) for x in pred] != [(r["id"], r["op"]) for r in hold]:
                raise SystemExit("analyze: predicted.txt does not list the holdout patterns")
            tally = defaultdict(lambda: [0, 0])
            for x, r in zip(pred, hold):
                tally[kind(r)][0] += int(x[3]) == r["wavefronts"]
                tally[kind(r)][1] += 1
            print("\npredicted.txt (the first run's rules, max for ca and bypass for cg, written"
                  " before the second run): " + ", ".join(
                      f"{b} B {op} {ok}/{n}" for (b, op), (ok, n) in sorted(tally.items())))
    print_table([r for r in rows if not r["op"].startswith("cg")], "hw_wavefronts",
                "the hardware counter, cp.async.ca only (BYPASS is not in it)")
    both = [r for r in rows if "wavefronts_flushed" in r]
    if both:
        diff = sum(r["wavefronts"] != r["wavefronts_flushed"] for r in both)
        hdiff = sum(r["hw_wavefronts"] != r["hw_wavefronts_flushed"] for r in both)
        print(f"\n--cache-control all vs none, {len(both)} launches: {diff} source-view counts"
              f" differ, {hdiff} hardware counts")
    if write:
        meta = {}
        meta_path = os.path.join(src, "ldgsts_rule.meta")
        if os.path.exists(meta_path):
            for line in open(meta_path):
                k, _, v = line.partition(":")
                meta[k.strip()] = v.strip()
        with open(write, "w") as f:
            json.dump({**meta, "hw_baseline": base, "patterns": rows}, f, separators=(",", ":"))
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
