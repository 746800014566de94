"""Joins what run_gpu.sh measured with the model's prediction (here, after the run):

    python3 tests/triton/lowering/gpu_compare.py RUN_DIR [--llcheck build/cli/llcheck] \\
        [-o RUN_DIR/compare.json]

RUN_DIR holds run_gpu.sh's output (run-<v>.json, ncu-<v>.csv for v in 3.6, 3.9). For each
launched kernel: its data check; ncu's shared-memory wavefronts and warp-level instructions of
the store side (st.shared + stmatrix, or LDGSTS) and the load side (ld.shared + ldmatrix); and
`llcheck bank-conflicts` / `convert` --lowering triton --triton <v> on the kernel's layouts (the
async copies' store side has no command: its instructions come from the static SASS). Prints,
per version and op, how many sides measured the predicted wavefronts and instructions; writes
every case to the output JSON.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPE = {"int8": "i8", "float16": "f16", "float32": "f32", "int64": "i64"}


def ncu_rows(path):
    """ID -> {metric: value}, in launch order."""
    rows = defaultdict(dict)
    with open(path, newline="") as f:
        lines = [ln for ln in f if ln.startswith('"')]
    for r in csv.DictReader(lines):
        try:
            rows[int(r["ID"])][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            continue
    return [rows[i] for i in sorted(rows)]


def ncu_rows_by_pid(path):
    """Process ID -> [{metric: value}, ...] (one per launch of that process, in order)."""
    rows = defaultdict(dict)
    pids = {}
    with open(path, newline="") as f:
        lines = [ln for ln in f if ln.startswith('"')]
    for r in csv.DictReader(lines):
        try:
            i = int(r["ID"])
            rows[i][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
            pids[i] = int(r["Process ID"])
        except (KeyError, ValueError):
            continue
    out = defaultdict(list)
    for i in sorted(rows):
        out[pids[i]].append(rows[i])
    return out


def metric(m, name):
    return m.get(name + ".sum", m.get(name))


def llcheck_json(binary, args):
    r = subprocess.run([binary] + args + ["--format", "json"], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        return {"error": r.stderr.strip()[:300]}
    return json.loads(r.stdout)


def shim_36(attr, version):
    # As the recorded comparison does: 3.6 lays out an unswizzled nvmma_shared as not
    # transposed (see README.md), until llcheck's encodings take --triton.
    if version.startswith("3.6"):
        return attr.replace("swizzlingByteWidth = 0, transposed = true",
                            "swizzlingByteWidth = 0, transposed = false")
    return attr


def hardware_of(gpu):
    """The bank model of the GPU the kernels ran on: a kernel built for sm80 and run on an
    H100/H200 takes Hopper's wavefronts (--hardware), with sm80's instructions."""
    return "sm90" if any(h in gpu for h in ("H100", "H200", "GH200")) else None


def predict(binary, case, layouts, version, hardware=None):
    shape = "x".join(str(s) for s in case["shape"])
    common = ["--shape", shape, "--dtype", DTYPE[case["dtype"]], "--arch", case["arch"],
              "--lowering", "triton", "--triton", version[:3]]
    if hardware:
        common += ["--hardware", hardware]
    if case["kind"] == "convert":
        j = llcheck_json(binary, ["convert", layouts["src"]["attr"], layouts["dst"]["attr"],
                                  "--no-z3"] + common)
        if "error" in j:
            return j
        if not j.get("triton", {}).get("shared_memory"):
            return {"store": None, "load": None}
        return {"store": j["store"], "load": j["load"]}
    shared = shim_36(layouts["shared"]["attr"], version)
    out = {}
    if case["kind"] == "local":
        st = llcheck_json(binary, ["bank-conflicts", layouts["src"]["attr"], shared] + common)
        out["store"] = st.get("store", st)
    ld = llcheck_json(binary, ["bank-conflicts", layouts["dst"]["attr"], shared] + common)
    out["load"] = ld.get("load", ld)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run_dir")
    p.add_argument("--llcheck", default=os.path.join(HERE, "..", "..", "..", "build", "cli",
                                                     "llcheck"))
    p.add_argument("-o", "--out")
    args = p.parse_args()
    cases = {c["id"]: c for c in json.load(open(os.path.join(HERE, "data", "cases.json")))["cases"]}
    report = {}
    for version in ("3.6", "3.9"):
        run_path = os.path.join(args.run_dir, f"run-{version}.json")
        csv_path = os.path.join(args.run_dir, f"ncu-{version}.csv")
        if not (os.path.exists(run_path) and os.path.exists(csv_path)):
            continue
        run = json.load(open(run_path))
        recorded = {r["id"]: r for r in json.load(open(
            os.path.join(HERE, "data", f"triton-{version}.json")))["cases"]}
        rows = ncu_rows(csv_path)
        launched = [r for r in run["launches"] if r.get("launched")]
        if len(rows) != len(launched):
            print(f"{version}: {len(rows)} ncu rows for {len(launched)} launches: the join is "
                  "by order, check ncu-*.err", file=sys.stderr)
        # The padded-layout cases, one process each: joined by process id. A case whose
        # process died (its launch faulted) has no record, or no row, and is reported so.
        padded_run = os.path.join(args.run_dir, f"run-{version}-padded.jsonl")
        padded_csv = os.path.join(args.run_dir, f"ncu-{version}-padded.csv")
        faulted = []
        if os.path.exists(padded_run) and os.path.exists(padded_csv):
            by_pid = ncu_rows_by_pid(padded_csv)
            for line in open(padded_run):
                r = json.loads(line)
                got = by_pid.get(r.get("pid"), [])
                if r.get("launched") and len(got) == 1:
                    launched.append(r)
                    rows.append(got[0])
                else:
                    faulted.append(r["id"])
        report.setdefault("faulted", {})[version] = faulted
        tally = defaultdict(lambda: [0, 0, 0])  # op side -> [wavefronts as predicted,
        out = []                                #   instructions as predicted, measured]
        for launch, m in zip(launched, rows):
            case = cases[launch["id"]]
            rec = recorded.get(launch["id"], {})
            entry = {"id": launch["id"], "kind": case["kind"], "arch": case["arch"],
                     "correct": launch.get("correct"),
                     "measured": {
                         "store": {"wavefronts": metric(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"),
                                   "instructions": (metric(m, "smsp__inst_executed_op_shared_st") or 0)
                                   + (metric(m, "smsp__inst_executed_op_shared_stsm") or 0)
                                   + (metric(m, "smsp__inst_executed_op_ldgsts") or 0)},
                         "load": {"wavefronts": metric(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"),
                                  "instructions": (metric(m, "smsp__inst_executed_op_shared_ld") or 0)
                                  + (metric(m, "smsp__inst_executed_op_ldsm") or 0)}},
                     "sass": rec.get("sass", {}).get("totals")}
            if "layouts" in rec:
                entry["predicted"] = predict(args.llcheck, case, rec["layouts"], version,
                                             hardware_of(run.get("gpu", "")))
            for side in ("store", "load"):
                pred = (entry.get("predicted") or {}).get(side)
                meas = entry["measured"][side]
                if not isinstance(pred, dict) or "wavefronts" not in pred:
                    continue
                t = tally[f"{case['kind']} {side}"]
                t[2] += 1
                t[0] += pred["wavefronts"] == meas["wavefronts"]
                t[1] += pred["instructions"] == meas["instructions"]
            out.append(entry)
        report[version] = out
        bad = sum(1 for e in out if e["correct"] is False)
        print(f"Triton {version}: {len(out)} kernels measured, {bad} with wrong data, "
              f"{len(faulted)} padded cases not measured (their process ended: {faulted[:10]})")
        for k, (w, i, n) in sorted(tally.items()):
            print(f"  {k}: wavefronts as predicted {w} / {n}, instructions {i} / {n}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f)


if __name__ == "__main__":
    main()
