"""Joins what run.sh measured on the GPU (data/<part>/) with `llcheck convert` on the same layouts.

For each case: the layouts of the ttg.convert_layout op in the TTGIR Triton produced (read by
`llcheck layout --ops`), llcheck's plan for them (kind, optimal shared layout and instructions,
predicted store and load wavefronts), and Nsight Compute's shared-memory wavefronts and bank
conflicts for Triton's own lowering of the same conversion, with the shared-memory
instructions in its PTX. Writes data/comparison.json and prints a summary; test_measured.py
recomputes the same join on every `make test`.

    python gpu_oracle/triton_convert/compare.py [--llcheck build/cli/llcheck]
"""
import argparse
import concurrent.futures
import csv
import glob
import io
import json
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
DEFAULT_LLCHECK = os.path.join(HERE, "..", "..", "build", "cli", "llcheck")

ST = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
LD = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
# Lines test_measured.py leaves for pytest's terminal summary (conftest.py prints them).
SUMMARY = []


def ncu_rows(path):
    """{launch id: {metric: value}} from ncu's --csv output (the probe's own lines skipped)."""
    with open(path) as f:
        lines = [ln for ln in f if ln.startswith('"')]
    out = {}
    for row in csv.DictReader(io.StringIO("".join(lines))):
        value = row["Metric Value"].replace(",", "")
        out.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(value) if value else 0.0
    return out


def measured_cases():
    """Every launched case of every part, with its counters: (case, {metric: value})."""
    out = []
    for part in sorted(glob.glob(os.path.join(DATA, "*", "cases.json"))):
        with open(part) as f:
            cases = json.load(f)["cases"]
        counters = ncu_rows(os.path.join(os.path.dirname(part), "ncu.csv"))
        launched = [c for c in cases if "error" not in c]
        if len(counters) != len(launched):
            raise SystemExit(f"{part}: {len(launched)} launches but {len(counters)} in ncu.csv")
        out += [(c, counters[i]) for i, c in enumerate(launched)]
    return out


def llcheck_convert(llcheck, ttgir):
    """`llcheck convert` on the layouts of the TTGIR's convert_layout op, as JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.ttgir")
        with open(path, "w") as f:
            f.write(ttgir)
        mod = json.loads(subprocess.run([llcheck, "layout", path, "--ops", "--format", "json"],
                                        capture_output=True, text=True, check=True).stdout)
        op = next(o for o in mod["ops"] if o["op"] == "ttg.convert_layout")
        layouts = {entry["id"]: entry["layout"] for entry in mod["layouts"]}
        files = []
        for side in ("src", "dst"):
            p = os.path.join(tmp, side + ".json")
            with open(p, "w") as f:
                json.dump(layouts[op[side]["layout"]], f)
            files.append(p)
        # Only the plan and its costs are compared here; Z3's proofs of the plan are convert's
        # own tests (and would triple this comparison's time).
        proc = subprocess.run([llcheck, "convert", *files, "--dtype", op["dtype"], "--no-z3",
                               "--format", "json"], capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            return {"error": proc.stderr.strip()}
        return json.loads(proc.stdout)


def model_floor(ptx_counts, load, warps=4):
    """The fewest wavefronts llcheck's bank model allows Triton's lowering, from the shared-memory
    instructions in its PTX (per thread, unrolled): every warp issues each, and each takes at
    least one wavefront per phase (16 bytes per lane: 4 phases of 8 lanes, 8 bytes: 2, up to 4
    bytes: 1; ldmatrix / stmatrix: one per matrix)."""
    floor = 0
    for name, count in ptx_counts.items():
        if name.startswith("ld" if load else "st") and "shared" in name:
            if "matrix" in name:
                phases = int(re.search(r"\.x(\d)", name).group(1))
            else:
                width = re.search(r"\.(?:v(\d)\.)?[bsuf](\d+)$", name)
                lanes_bytes = int(width.group(1) or 1) * int(width.group(2)) // 8
                phases = max(1, lanes_bytes // 4)
            floor += count * warps * phases
    return floor


def compare(llcheck):
    """One record per measured case: llcheck's optimum next to Triton's measured counts."""
    rows = []
    cases = measured_cases()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        answers = list(pool.map(lambda cm: llcheck_convert(llcheck, cm[0]["ttgir"]), cases))
    for (c, m), ours in zip(cases, answers):
        shared = ours.get("kind") == "shared_memory"
        rec = {"id": c["id"], "correct": c.get("correct"), "kind": ours.get("kind"),
               "error": ours.get("error"),
               "llcheck": {"construction": ours.get("construction"),
                           "store": ours["store"]["instruction"] if shared else None,
                           "load": ours["load"]["instruction"] if shared else None,
                           "store_wavefronts": ours["store"]["wavefronts"] if shared else 0,
                           "load_wavefronts": ours["load"]["wavefronts"] if shared else 0,
                           "attained": ours["lower_bound"]["attained"] if shared else None,
                           "bank_conflicts": (ours["store"]["bank_conflicts"] +
                                              ours["load"]["bank_conflicts"]) if shared else 0,
                           "store_instructions": ours["store"]["instructions"] if shared else 0,
                           "load_instructions": ours["load"]["instructions"] if shared else 0},
               "triton": {"store_wavefronts": int(m.get(ST, 0)),
                          "load_wavefronts": int(m.get(LD, 0)),
                          "bank_conflicts": int(m.get(
                              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 0)),
                          # warp-level instructions executed, ldmatrix / stmatrix included
                          "load_instructions": int(m.get("smsp__inst_executed_op_shared_ld.sum", 0)
                                                   + m.get("smsp__inst_executed_op_ldsm.sum", 0)),
                          "store_instructions": int(
                              m.get("smsp__inst_executed_op_shared_st.sum", 0)
                              + m.get("smsp__inst_executed_op_shared_stsm.sum", 0)),
                          "ptx": c.get("ptx_shared", {}),
                          "model_floor_store": model_floor(c.get("ptx_shared", {}), False),
                          "model_floor_load": model_floor(c.get("ptx_shared", {}), True)}}
        ours_total = rec["llcheck"]["store_wavefronts"] + rec["llcheck"]["load_wavefronts"]
        theirs = rec["triton"]["store_wavefronts"] + rec["triton"]["load_wavefronts"]
        rec["verdict"] = ("equal" if ours_total == theirs else
                          "llcheck fewer" if ours_total < theirs else "Triton fewer")
        rows.append(rec)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llcheck", default=DEFAULT_LLCHECK)
    args = ap.parse_args()
    rows = compare(args.llcheck)
    with open(os.path.join(DATA, "comparison.json"), "w") as f:
        json.dump(rows, f, indent=1)
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print(f"{len(rows)} conversions, all data correct: {all(r['correct'] for r in rows)}; "
          + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    for r in rows:
        if r["verdict"] != "equal":
            o, t = r["llcheck"], r["triton"]
            print(f"  {r['verdict']:14} {r['id']:34} llcheck {o['store_wavefronts']}+"
                  f"{o['load_wavefronts']} ({o['store']}, {o['load']})  Triton "
                  f"{t['store_wavefronts']}+{t['load_wavefronts']} {t['ptx']}")


if __name__ == "__main__":
    main()
