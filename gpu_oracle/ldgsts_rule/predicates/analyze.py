#!/usr/bin/env python3
"""Reads run.sh's output (OUT) for launches.txt and tells, per LDGSTS form and predicate register,
which model of masked lanes gives ncu's source-view wavefronts
(smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum) and, for cp.async.ca, the
hardware's own count (l1tex__data_pipe_lsu_wavefronts_mem_shared.sum less its _op_ld and _op_st
parts less the constant the .cg launches show: BYPASS copies are not in it, ../README.md).

usage: analyze.py OUT [--write measured.json] [--detail]   tables on stdout
       analyze.py --json measured.json            the same tables from the committed data
       analyze.py --sass-table SASS > sass.txt    each kernel's LDGSTS line (cuobjdump -sass)
       analyze.py --predict SASS > predicted.txt  each launch's count under every model

Models, per warp (phases and groups as in ../analyze.py's access and bypass rules; a lane in
state c copies, z zero-fills, o does not execute the copy):
- active: only the c lanes, at their sources and destinations;
- z_dest: c lanes as they are, z lanes at their destinations alone (a .ca lane with no global
  unit, a .cg lane in a line of its own: what llcheck counts for a masked-off lane);
- z_src: c and z lanes alike, at their computed sources (the zero-fill predicate ignored);
- dest: every executing lane (c and z) at its destination alone (the destination's wavefronts,
  what llcheck counts for a P0 BYPASS copy);
- all_src: every lane, o lanes too, at its source (the guard ignored as well).
"""
import csv
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SASS = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
SASS_CONFLICTS = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"
SASS_INST = "smsp__sass_inst_executed_op_ldgsts.sum"
HW_TOTAL = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
HW_LD = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
HW_ST = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
INST = "smsp__inst_executed_op_ldgsts.sum"
REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum"
SECT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"
NOSRC = 1 << 40  # a lane with no global side: its "source" is NOSRC + its shared offset
MODELS = ("active", "z_dest", "z_src", "dest", "all_src")


def read_launches(path=None):
    """launches.txt (run.sh's input, made by launches.py), or launches.py's lines."""
    if path is None:
        sys.path.insert(0, HERE)
        import launches
        lines = launches.all_launches()
    else:
        lines = open(path).read().splitlines()
    out = []
    for line in lines:
        p = line.split()
        if not p or p[0].startswith("#"):
            continue
        T = int(p[2])
        vals = [int(x) for x in p[4:]]
        assert len(vals) == 2 * T and len(p[3]) == T, p[0]
        op = p[1].split("_")[0]
        out.append({"id": p[0], "kernel": p[1], "op": op, "bytes": int(op[2:]), "T": T,
                    "states": p[3], "g": vals[:T], "s": vals[T:]})
    return out


# ---------------------------------------------------------------------------------------------
# The rules over a subset of lanes (../analyze.py's access_rule and bypass_rule when every lane
# of the warp copies; checked against them in test_predicates.py).


def access_lanes(lanes, width):
    """lanes: (lane index in the warp, global offset or None, shared offset)."""
    n = {4: 32, 8: 16, 16: 8}[width]
    per_row = 128 // width
    phases = defaultdict(list)
    for t, g, s in lanes:
        phases[t // n].append((None if g is None else g // width % per_row, s // width % per_row))
    total = 0
    for ph in phases.values():
        total += max(sum(1 for gu, su in ph
                         if (gu is not None and gu == gt) or su == st) for gt, st in ph)
    return total


def bypass_lanes(lanes):
    transfers, order = {}, []
    for _, a, b in lanes:
        if a is None:
            a = NOSRC + b
        key = (a // 128, b // 128, a // 32, b // 32)
        if key not in transfers:
            transfers[key] = []
            order.append(key)
        transfers[key].append(((a % 32) // 16, (b % 32) // 16))
    items = []
    for key in order:
        halves = sorted(transfers[key])
        group = key[:2]
        gs, ss = key[2] % 4, key[3] % 4
        maps = {("rot", (ss - gs) % 4), ("refl", (ss + gs) % 4)}
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


def model(launch, name):
    """The model's wavefronts for a launch: the sum over its warps."""
    total = 0
    for w in range(launch["T"] // 32):
        lanes = []
        for t in range(32):
            i = 32 * w + t
            st, g, s = launch["states"][i], launch["g"][i], launch["s"][i]
            if name == "active" and st != "c":
                continue
            if name in ("z_dest", "z_src", "dest") and st == "o":
                continue
            if (name == "z_dest" and st == "z") or name == "dest":
                g = None
            lanes.append((t, g, s))
        if not lanes:
            continue
        total += (bypass_lanes(lanes) if launch["op"] == "cg16"
                  else access_lanes(lanes, launch["bytes"]))
    return total


# ---------------------------------------------------------------------------------------------
# Reading run.sh's files


def read_sass(path):
    """kernel name -> (LDGSTS line, guard register or None, zero-fill register or None,
    branched around: a BRA between the function start and the LDGSTS)."""
    out, name, bra = {}, None, False
    for line in open(path):
        m = re.search(r"Function : (\S+)", line)
        if m:
            name, bra = m.group(1), False
            continue
        if name is None:
            continue
        text = re.sub(r"/\*[^*]*\*/", "", line).strip().rstrip(";").strip()
        if re.search(r"\bBRA\b", text) and name not in out:
            bra = True
        if "LDGSTS" in text and name not in out:
            guard = re.match(r"@(!?P[0-6T])\s", text)
            ops = [x.strip() for x in text.split(",")]
            zf = ops[-1] if re.fullmatch(r"!?P[0-6T]", ops[-1]) else None
            out[name] = {"sass": re.sub(r"\s+", " ", text), "guard": guard.group(1) if guard
                         else None, "zfill": zf, "branched": bra}
    return out


def read_csv_chunks(path):
    """Launches in file order: the chunks' launches, each a dict metric -> value."""
    chunks, cur, header = [], None, None
    for raw in open(path):
        if raw.startswith("== chunk"):
            cur = {}
            chunks.append((raw.split()[2], cur))
            header = None
            continue
        if cur is None:
            continue
        r = next(csv.reader([raw]))
        if "ID" in r and "Metric Name" in r:
            header = r
            continue
        if header is None or len(r) != len(header):
            continue
        rec = dict(zip(header, r))
        cur.setdefault(int(rec["ID"]), {})[rec["Metric Name"]] = float(
            rec["Metric Value"].replace(",", ""))
    out = []
    for name, launches in chunks:
        out.extend(launches[k] for k in sorted(launches))
    return out


def read_checks(path):
    """Per section of the log (plain, each ncu chunk): launch index -> 'ok' or the message."""
    sections, cur = [], None
    for line in open(path):
        if line.startswith("== "):
            cur = {}
            sections.append((line[3:].strip(), cur))
            continue
        m = re.match(r"launch (\d+) (\S+) (\S+) (ok|.*)$", line.strip())
        if m and cur is not None:
            cur[int(m.group(1))] = (m.group(2), "ok" if m.group(4) == "ok" else m.group(4))
    return sections


def collect(src):
    launches = read_launches()
    sass = read_sass(os.path.join(src, "predicates.sass"))
    meas = read_csv_chunks(os.path.join(src, "ncu_main.csv"))
    checks = read_checks(os.path.join(src, "predicates.log"))
    plain = dict(checks[0][1]) if checks and checks[0][0].startswith("plain") else {}
    under = []  # per measured launch, the check under ncu
    for name, sec in checks:
        if name.startswith("ncu chunk"):
            under.extend(sec[k] for k in sorted(sec))
    meta = {}
    for line in open(os.path.join(src, "predicates.meta")):
        k, _, v = line.partition(":")
        meta[k.strip()] = v.strip()
    rows = []
    for i, (L, x) in enumerate(zip(launches, meas)):
        row = {k: L[k] for k in ("id", "kernel", "op", "bytes", "T", "states", "g", "s")}
        row.update(sass[L["kernel"]])
        row["wavefronts"] = int(x[SASS])
        for key, name in (("conflicts", SASS_CONFLICTS), ("sass_inst", SASS_INST),
                          ("inst", INST), ("requests", REQ), ("sectors", SECT)):
            if name in x:
                row[key] = int(x[name])
        row["hw_raw"] = int(x[HW_TOTAL] - x[HW_LD] - x[HW_ST])
        row["check_plain"] = plain.get(i, (None, "not run"))[1]
        if i < len(under):
            assert under[i][0] == L["id"], (i, under[i], L["id"])
            row["check_ncu"] = under[i][1]
        rows.append(row)
    # The baseline: what the kernel's other instructions add to the hardware count, from the .cg
    # launches (BYPASS copies are not in it) of each thread count.
    base = {}
    for T in (32, 128):
        vals = Counter(r["hw_raw"] for r in rows if r["op"] == "cg16" and r["T"] == T)
        if vals:
            base[T] = vals.most_common(1)[0][0]
            meta[f"hw_baseline_T{T}"] = dict(vals)
    for r in rows:
        if r["T"] in base:
            r["hw_wavefronts"] = r["hw_raw"] - base[r["T"]]
    meta["launches_listed"] = len(launches)
    meta["launches_measured"] = len(rows)
    return meta, rows


# ---------------------------------------------------------------------------------------------
# Tables


def pred_class(r):
    """The predicate shape of the LDGSTS: guard part and zero-fill part."""
    g = r["guard"] or ("BRA" if r["branched"] else "-")
    return f"{g} / {r['zfill'] or '-'}"


def matches(r, value):
    return [m for m in MODELS if model(r, m) == r[value]]


def summary(rows, value, title):
    print(f"\n## {title}\n")
    groups = defaultdict(list)
    for r in rows:
        if value in r:
            groups[(r["op"], pred_class(r), r["T"])].append(r)
    print("| op | guard / zero-fill | T | launches | " + " | ".join(MODELS) + " |")
    print("| --- | --- | --- | --- |" + " --- |" * len(MODELS))
    for key in sorted(groups):
        rs = groups[key]
        cells = [f"{sum(model(r, m) == r[value] for r in rs)}" for m in MODELS]
        print(f"| {key[0]} | {key[1]} | {key[2]} | {len(rs)} | " + " | ".join(cells) + " |")


def detail(rows, ops=("cg16", "ca16", "ca4", "ca8")):
    print("\n## Per launch (measured source view / hardware; the models)\n")
    for r in rows:
        if r["op"] not in ops:
            continue
        ms = " ".join(f"{m}={model(r, m)}" for m in MODELS)
        hw = r.get("hw_wavefronts", "")
        print(f"{r['id']:44s} {pred_class(r):14s} sass={r['wavefronts']:3d} hw={hw!s:>4s} "
              f"req={r.get('requests', '')} sect={r.get('sectors', '')} | {ms} | "
              f"{r['check_plain']}/{r.get('check_ncu', '-')}")


def llcheck_now(r):
    """What report --launches counts today (reports/src/LaunchCounts.cpp, countCopy and
    matchCopiesToSass): a BYPASS copy on zero-fill P0 at every lane's destination, on !P0 every
    lane at its computed source, any other LDGSTS by its mask (a masked lane at its destination
    alone); lanes not executing the copy are not counted."""
    if r["op"] == "cg16" and r["zfill"] == "P0":
        return model(r, "dest")
    if r["op"] == "cg16" and r["zfill"] == "!P0":
        return model(r, "z_src")
    return model(r, "z_dest")


def p0_false(r):
    """The hypothesis "ncu reads P0 as false whatever the kernel put there", for every use of P0
    (zero fill and guard), and every other predicate as the kernel set it."""
    guard, zf = r["guard"], r["zfill"]
    states = list(r["states"])
    for i, st in enumerate(states):
        executes = st != "o"
        if guard in ("P0", "!P0"):
            executes = guard == "!P0"
        if not executes:
            states[i] = "o"
            continue
        # The zero-fill predicate: true copies. A thread that the guard alone kept off (state
        # o) has m = 0 in the zero-fill forms (predicates.cu), and no zero fill in the others.
        if zf in ("P0", "!P0"):
            copies = zf == "!P0"
        elif zf is None:
            copies = True
        else:
            copies = st == "c"
        states[i] = "c" if copies else "z"
    return model(dict(r, states="".join(states)), "z_dest")


def predict(sass_path):
    sass = read_sass(sass_path)
    print("# id kernel sass-class " + " ".join(MODELS) + " llcheck_now p0_false")
    for L in read_launches():
        r = dict(L, **sass[L["kernel"]])
        cls = pred_class(r).replace(" ", "")
        print(L["id"], L["kernel"], cls, *[model(r, m) for m in MODELS], llcheck_now(r),
              p0_false(r))


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    if args[0] == "--sass-table":
        for name, x in sorted(read_sass(args[1]).items()):
            print(f"{name}\t{x['sass']}\t{'branched' if x['branched'] else '-'}")
        return 0
    if args[0] == "--predict":
        predict(args[1])
        return 0
    if args[0] == "--json":
        data = json.load(open(args[1]))
        meta, rows = {k: v for k, v in data.items() if k != "launches"}, data["launches"]
    else:
        meta, rows = collect(args[0])
    print({k: v for k, v in meta.items() if k != "metrics"})
    bad = [r["id"] for r in rows if r["check_plain"] != "ok" or r.get("check_ncu", "ok") != "ok"]
    print(f"{len(rows)} launches measured; data wrong in {len(bad)}: {bad[:10]}")
    summary(rows, "wavefronts", "ncu's source-view wavefronts: launches each model gives exactly")
    summary([r for r in rows if r["op"] != "cg16"], "hw_wavefronts",
            "the hardware's count (cp.async.ca): launches each model gives exactly")
    if "--detail" in args:
        detail(rows)
    if "--write" in args:
        path = args[args.index("--write") + 1]
        with open(path, "w") as f:
            json.dump({**meta, "launches": rows}, f, separators=(",", ":"))
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
