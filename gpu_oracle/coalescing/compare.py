#!/usr/bin/env python3
"""Reads run.sh's output back: ncu's CSV (one launch per case, in cases.jsonl's order) and the
meta file; writes gpu_oracle/coalescing/measured.json and prints how many cases the predictions
of cases.jsonl match, with every mismatch.

    python3 gpu_oracle/coalescing/compare.py RUN_OUT [--write]

measured.json: {"gpu", "driver", "ncu", "cuda", "date", "cases": [{"id", "vector_bits",
"ld": {"sectors", "requests", "instructions"}, "st": {...}}]} (vector_bits: the width the
kernel used, the plan of the day). core/tests/coalescing_test.cpp checks today's model against it.
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": ("ld", "sectors"),
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": ("st", "sectors"),
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": ("ld", "requests"),
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": ("st", "requests"),
    "smsp__sass_inst_executed_op_global_ld.sum": ("ld", "instructions"),
    "smsp__sass_inst_executed_op_global_st.sum": ("st", "instructions"),
}


def read_csv(path):
    launches = {}
    with open(path) as f:
        rows = [line for line in f if line.startswith('"')]
    for row in csv.DictReader(rows):
        m = METRICS.get(row.get("Metric Name"))
        if m is None:
            continue
        launch = launches.setdefault(int(row["ID"]), {"ld": {}, "st": {}})
        launch[m[0]][m[1]] = int(float(row["Metric Value"].replace(",", "")))
    return [launches[k] for k in sorted(launches)]


def mismatches(pred, meas):
    out = []
    for side in ("ld", "st"):
        for key, want in (("sectors", pred["sectors"]), ("requests", pred["requests"]),
                          ("instructions", pred["instructions"])):
            if meas[side].get(key) != want:
                out.append("%s %s: predicted %d, measured %s" % (side, key, want, meas[side].get(key)))
    return out


def main():
    run_out = sys.argv[1]
    cases = [json.loads(line) for line in open(os.path.join(HERE, "cases.jsonl"))]
    launches = read_csv(os.path.join(run_out, "coalescing.csv"))
    if len(launches) != len(cases):
        raise SystemExit("compare: %d launches measured, %d cases" % (len(launches), len(cases)))
    meta = {}
    for line in open(os.path.join(run_out, "coalescing.meta")):
        k, _, v = line.partition(":")
        meta[k.strip()] = v.strip()
    data = dict(meta)
    data["cases"] = []
    good = 0
    for c, m in zip(cases, launches):
        data["cases"].append({"id": c["id"], "vector_bits": c["predicted"]["vector_bits"], **m})
        bad = mismatches(c["predicted"], m)
        good += not bad
        if bad:
            print("%s %s %s %s strides %s base %d: %s" % (c["id"], c["family"], c["dtype"], c["attr"],
                  c["strides"], c["base_alignment"], "; ".join(bad)))
    print("coalescing: %d/%d cases predicted exactly (%.2f%%) on %s" % (
        good, len(cases), 100.0 * good / len(cases), meta.get("gpu")))
    if "--write" in sys.argv:
        with open(os.path.join(HERE, "measured.json"), "w") as f:
            f.write("{\n")
            for k in meta:
                f.write(" %s: %s,\n" % (json.dumps(k), json.dumps(meta[k])))
            f.write(' "cases": [\n')
            f.write(",\n".join("  " + json.dumps(c, separators=(",", ":")) for c in data["cases"]))
            f.write("\n ]\n}\n")


if __name__ == "__main__":
    main()
