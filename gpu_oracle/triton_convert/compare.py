"""Joins what run.sh measured on the GPU (data/) with `llcheck convert` on the same layouts.

For each case: the layouts of the ttg.convert_layout op in the TTGIR Triton produced (read by
`llcheck layout --ops`), llcheck's plan for them (kind, optimal shared layout, predicted store
and load wavefronts), and Nsight Compute's shared-memory wavefronts and bank conflicts for
Triton's own lowering of the same conversion, plus the shared-memory instructions in its PTX.
Writes data/comparison.json and prints a table.

    python gpu_oracle/triton_convert/compare.py [--llcheck build/cli/llcheck]
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def ncu_rows(path):
    """{launch id: {metric: value}} from ncu's --csv output (other lines skipped)."""
    with open(path) as f:
        lines = [ln for ln in f if ln.startswith('"')]
    out = {}
    for row in csv.DictReader(io.StringIO("".join(lines))):
        value = row["Metric Value"].replace(",", "")
        out.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(value) if value else 0.0
    return out


def shared_instructions(ptx):
    counts = {}
    for m in re.findall(r"\b(ld\.shared\S*|st\.shared\S*|ldmatrix\S*|stmatrix\S*)", ptx):
        counts[m] = counts.get(m, 0) + 1
    return counts


def llcheck_convert(llcheck, ttgir):
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
        proc = subprocess.run([llcheck, "convert", *files, "--dtype", op["dtype"], "--format",
                               "json"], capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            return {"error": proc.stderr.strip()}
        return json.loads(proc.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llcheck", default=os.path.join(HERE, "..", "..", "build", "cli", "llcheck"))
    args = ap.parse_args()
    with open(os.path.join(DATA, "cases.json")) as f:
        cases = json.load(f)["cases"]
    counters = ncu_rows(os.path.join(DATA, "ncu.csv"))
    launched = [c for c in cases if "error" not in c]
    rows = []
    print(f"{'case':32} {'kind':14} {'llcheck st+ld wf':>17} {'Triton st+ld wf':>16} "
          f"{'Triton confl':>12}  Triton's shared-memory instructions")
    for i, c in enumerate(launched):
        m = counters.get(i, {})
        ours = llcheck_convert(args.llcheck, c["ttgir"])
        measured_st = m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0)
        measured_ld = m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0)
        total = m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 0)
        conflicts = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 0)
        predicted = None
        if ours.get("store"):
            predicted = ours["store"]["wavefronts"] + ours["load"]["wavefronts"]
        rec = {"id": c["id"], "correct": c.get("correct"), "kind": ours.get("kind"),
               "llcheck": {k: ours.get(k) for k in ("vector_bits", "store", "load",
                                                    "lower_bound")},
               "triton_measured": {"wavefronts_all": total, "wavefronts_st": measured_st,
                                   "wavefronts_ld": measured_ld, "bank_conflicts": conflicts,
                                   "ldsm": m.get("smsp__inst_executed_op_ldsm.sum", 0),
                                   "stsm": m.get("smsp__inst_executed_op_shared_stsm.sum", 0)},
               "triton_ptx": shared_instructions(c.get("ptx", ""))}
        rows.append(rec)
        print(f"{c['id']:32} {str(rec['kind']):14} {str(predicted):>17} {int(total):>16} "
              f"{int(conflicts):>12}  {rec['triton_ptx']}")
    with open(os.path.join(DATA, "comparison.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
