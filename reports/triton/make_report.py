#!/usr/bin/env python3
"""Triton conformance report: Triton's own layout conversions, measured on a GPU, next to
llcheck's proven optimum and llcheck's own GPU-oracle measurement of that optimum.

Inputs (all committed):
- gpu_oracle/triton_convert/data/<part>/cases.json and ncu.csv: the Gluon kernels of probe.py
  (load in layout A, ttgl.convert_layout to B, store), the TTGIR Triton produced for each, the
  data check, and Nsight Compute's shared-memory wavefront counters of Triton's generated code
  (ldmatrix/stmatrix included: the wavefront counters count them); gpu.txt: GPU, driver, date.
- corpus/oracle/results.json: `llcheck oracle`'s measurements of llcheck's own plans, among them
  the sweep of the same named layouts (row8, col8, ..., mma2) on 64x64 and 32x128.
- reports/triton/data/shared/: the Gluon kernels of probe_shared.py (load in A,
  `gl.allocate_shared_memory(dtype, shape, S, x)`, `.load(B)`, store), measured the same way.

What it does:
1. writes every case's TTGIR to WORK/ttgir/<id>.ttgir and runs
   `llcheck report WORK/ttgir --out WORK/llcheck --arch sm90` on them (today's llcheck: every
   layout proven, every convert_layout planned, the optimum's store and load wavefronts);
2. joins, per conversion, Triton's measured store + load wavefronts, llcheck's optimum from that
   report, and the oracle's measured counters for the same pair of layouts (joined only when the
   oracle case's SRC and DST layouts are identical to the report's, bit for bit);
3. for the shared-memory kernels, runs `llcheck report` on their TTGIR too and joins, per kernel,
   Triton's measured store and load wavefronts with llcheck's prediction for the kernel's own
   shared layout S (the local_alloc and local_load ops) and llcheck's optimum for the same A and
   B; a side that differs from the prediction must be explained (within the counter's noise, or
   fewer instructions executed than the PTX issues, each executed one as predicted), or --check
   fails;
4. writes OUT/conformance.json and OUT/README.md (GPU, driver, date, the summary tables, every
   conversion where Triton is not at llcheck's optimum, every shared kernel not as predicted).

    python3 reports/triton/make_report.py [--llcheck build/cli/llcheck] [--out reports/triton-3.6.x]
    python3 reports/triton/make_report.py --extract DIR   # only write the TTGIR files
    python3 reports/triton/make_report.py --check         # the committed report is today's
"""
import argparse
import collections
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "gpu_oracle", "triton_convert"))
import compare  # noqa: E402  (the counters' reader and the model floor of Triton's PTX)

DTYPES = {"float16": "f16", "float32": "f32", "int8": "i8"}


def load_parts():
    """[(case, counters)] of every launched case, and the Triton version."""
    versions = set()
    for part in glob.glob(os.path.join(compare.DATA, "*", "cases.json")):
        with open(part) as f:
            versions.add(json.load(f)["triton"])
    if len(versions) != 1:
        raise SystemExit(f"the parts were measured with different Triton versions: {versions}")
    return compare.measured_cases(), versions.pop()


def extract(cases, folder):
    os.makedirs(folder, exist_ok=True)
    for c, _ in cases:
        with open(os.path.join(folder, c["id"] + ".ttgir"), "w") as f:
            f.write(c["ttgir"])


def gpu_info(folder=compare.DATA):
    info = {}
    with open(os.path.join(folder, "gpu.txt")) as f:
        lines = [ln.strip() for ln in f if ln.strip()]
    gpu, _, driver = lines[0].partition(", ")
    info["gpu"], info["driver"] = gpu, driver
    for ln in lines:
        if ln.startswith("Version "):
            info["ncu"] = ln
        elif ln.startswith("triton "):
            info["triton"] = ln.split()[1]
        elif ln.startswith("torch "):
            info["torch"] = ln
        elif ln.startswith("date "):
            info["date"] = ln.split()[1]
    return info


def oracle_index(path):
    """llcheck's own measured optimal plans, keyed by (src layout, dst layout, dtype)."""
    with open(path) as f:
        results = json.load(f)
    index = {}
    for c in results["cases"]:
        if not c["origin"].endswith(":optimal") and not c["origin"].endswith(":shuffle"):
            continue
        key = (json.dumps(c["src"], sort_keys=True), json.dumps(c["dst"], sort_keys=True),
               c["dtype"])
        index[key] = c
    return results, index


SHARED_DATA = os.path.join(HERE, "data", "shared")
# The wavefront counter's excess over the prediction that llcheck's own oracle sees on its own
# kernels, not repeatable from run to run (gpu_oracle: "within noise", 1 to 4 wavefronts).
COUNTER_NOISE = 4
WARPS = 4  # every probe kernel is one CTA of 4 warps
EXECUTED = {"store": ("smsp__inst_executed_op_shared_st.sum",
                      "smsp__inst_executed_op_shared_stsm.sum"),
            "load": ("smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_ldsm.sum")}


def load_shared():
    """[(case, counters)] of the shared-memory kernels, and their Triton version."""
    with open(os.path.join(SHARED_DATA, "cases.json")) as f:
        doc = json.load(f)
    counters = compare.ncu_rows(os.path.join(SHARED_DATA, "ncu.csv"))
    launched = [c for c in doc["cases"] if "error" not in c]
    if len(counters) != len(launched):
        raise SystemExit(f"{SHARED_DATA}: {len(launched)} launches but {len(counters)} in ncu.csv")
    return [(c, counters[i]) for i, c in enumerate(launched)], doc["triton"]


def side_verdict(measured, executed, issued, predicted):
    """How Triton's measured wavefronts on one side relate to llcheck's prediction."""
    if measured == predicted:
        return "as predicted"
    if 0 < measured - predicted <= COUNTER_NOISE:
        return "within the counter's noise"
    if executed < issued and measured * issued == predicted * executed:
        return "fewer instructions executed"
    return "differs"


def oracle_measurement(index, src, dst, dtype):
    """What llcheck's oracle measured for its own plan of SRC -> DST (or None): joined only when
    the oracle case's layouts are identical to these, bit for bit."""
    oc = index.get((json.dumps(src, sort_keys=True), json.dumps(dst, sort_keys=True), dtype))
    if oc is None:
        return None
    return {"case": oc["id"], "origin": oc["origin"], "correct": oc["correct"],
            "agreement": oc.get("agreement"),
            "store": oc.get("measured", {}).get("store", {}).get("wavefronts", 0),
            "load": oc.get("measured", {}).get("load", {}).get("wavefronts", 0)}


def shared_rows(cases, report, index):
    """One row per shared-memory kernel: Triton measured, llcheck's prediction for the kernel's
    shared layout, llcheck's optimum for the same pair of register layouts, and llcheck's oracle
    measurement of that optimum where it ran the same pair."""
    kernels = {os.path.basename(k["file"])[:-len(".ttgir")]: k for k in report["kernels"]}
    rows = []
    for c, m in cases:
        k = kernels[c["id"]]
        layouts = {entry["id"]: entry for entry in k["layouts"]}
        ops = {o["op"]: o for o in k["ops"]}
        alloc, load = ops["ttg.local_alloc"], ops["ttg.local_load"]
        conversion = alloc["optimum"]["conversions"][0]
        optimal = conversion["optimal"]
        ptx = c.get("ptx_shared", {})
        row = {"id": c["id"], "shape": c["shape"], "dtype": DTYPES.get(c["dtype"], c["dtype"]),
               "correct": c.get("correct") in (True, "True"),
               "shared": layouts[alloc["plan"]["shared_layout"]]["attribute"],
               "legal": all(layouts[i]["legality"]["holds"] for i in
                            (alloc["plan"]["register_layout"], alloc["plan"]["shared_layout"],
                             load["plan"]["register_layout"])),
               "ptx": ptx, "triton": {}, "llcheck": {},
               "optimum": {"store": optimal["store"]["wavefronts"],
                           "load": optimal["load"]["wavefronts"],
                           "store_instruction": optimal["store"]["instruction"],
                           "load_instruction": optimal["load"]["instruction"]}}
        row["llcheck_measured"] = oracle_measurement(
            index, layouts[alloc["plan"]["register_layout"]]["layout"],
            layouts[load["plan"]["register_layout"]]["layout"], row["dtype"])
        verdicts = []
        for side, prefix, op, metric in (("store", "st", alloc, compare.ST),
                                         ("load", "ld", load, compare.LD)):
            predicted = op["predicted"][side]
            executed = int(sum(m.get(name, 0) for name in EXECUTED[side]))
            issued = WARPS * sum(n for name, n in ptx.items() if name.startswith(prefix))
            measured = int(m.get(metric, 0))
            verdict = side_verdict(measured, executed, issued, predicted["wavefronts"])
            row["triton"][side] = {"wavefronts": measured, "instructions_executed": executed,
                                   "instructions_in_ptx": issued}
            row["llcheck"][side] = {"wavefronts": predicted["wavefronts"],
                                    "instruction": predicted["instruction"],
                                    "instructions": predicted["instructions"]}
            row[side + "_verdict"] = verdict
            verdicts.append(verdict)
        row["verdict"] = ("as predicted" if all(v == "as predicted" for v in verdicts) else
                          ", ".join(sorted({v for v in verdicts if v != "as predicted"})))
        row["excess_over_optimum"] = (row["triton"]["store"]["wavefronts"]
                                      + row["triton"]["load"]["wavefronts"]
                                      - row["optimum"]["store"] - row["optimum"]["load"])
        rows.append(row)
    return rows


def run_report(llcheck, work, folder, out_name, version):
    """`llcheck report` on WORK/FOLDER (run from WORK so the report names FOLDER/<id>.ttgir),
    reading the dumps with the semantics of the Triton that wrote them (--triton)."""
    report_dir = os.path.join(work, out_name)
    proc = subprocess.run([os.path.abspath(llcheck), "report", folder, "--out",
                           os.path.abspath(report_dir), "--arch", "sm90", "--quiet",
                           "--triton", ".".join(version.split(".")[:2])],
                          cwd=work, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"llcheck report failed ({proc.returncode}): {proc.stderr.strip()}")
    with open(os.path.join(report_dir, "report.json")) as f:
        return report_dir, json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llcheck", default=os.path.join(REPO, "build", "cli", "llcheck"))
    ap.add_argument("--oracle", default=os.path.join(REPO, "corpus", "oracle", "results.json"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--work", default=os.path.join(REPO, "build", "triton-report"))
    ap.add_argument("--extract", default=None, help="only write the TTGIR files to this folder")
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temporary folder and compare with the committed "
                         "report (CTest reports_triton_conformance)")
    args = ap.parse_args()
    if args.check:
        return check(args)

    cases, version = load_parts()
    if args.extract:
        extract(cases, args.extract)
        print(f"{len(cases)} TTGIR files written to {args.extract}")
        return
    out = args.out or os.path.join(REPO, "reports", "triton-" + ".".join(version.split(".")[:2])
                                   + ".x")
    ttgir = os.path.join(args.work, "ttgir")
    shutil.rmtree(ttgir, ignore_errors=True)
    extract(cases, ttgir)
    # The full reports (~25 MB of JSON, ~9 MB of HTML) stay in the work folder; their Markdown
    # summaries are committed next to the conformance tables.
    report_dir, report = run_report(args.llcheck, args.work, "ttgir", "llcheck", version)
    shared_cases, shared_version = load_shared()
    if shared_version != version:
        raise SystemExit(f"the shared-memory kernels were measured with Triton {shared_version}, "
                         f"the conversions with {version}")
    shared_ttgir = os.path.join(args.work, "ttgir-shared")
    shutil.rmtree(shared_ttgir, ignore_errors=True)
    extract(shared_cases, shared_ttgir)
    shared_dir, shared_report = run_report(args.llcheck, args.work, "ttgir-shared",
                                           "llcheck-shared", version)
    os.makedirs(out, exist_ok=True)
    shutil.copy(os.path.join(report_dir, "report.md"), os.path.join(out, "llcheck-report.md"))
    shutil.copy(os.path.join(shared_dir, "report.md"),
                os.path.join(out, "llcheck-report-shared.md"))
    kernels = {os.path.basename(k["file"])[:-len(".ttgir")]: k for k in report["kernels"]}
    oracle, index = oracle_index(args.oracle)

    rows = []
    for c, m in cases:
        k = kernels[c["id"]]
        op = next(o for o in k["ops"] if o["op"] == "ttg.convert_layout")
        layouts = {entry["id"]: entry for entry in k["layouts"]}
        src, dst = layouts[op["src"]]["layout"], layouts[op["dst"]]["layout"]
        kind = op["plan"]["kind"]
        opt = op["optimum"] or {}
        ours = {"kind": kind,
                "store": opt.get("store", {}).get("wavefronts", 0),
                "load": opt.get("load", {}).get("wavefronts", 0),
                "store_instruction": opt.get("store", {}).get("instruction"),
                "load_instruction": opt.get("load", {}).get("instruction"),
                "attained": opt.get("lower_bound", {}).get("attained"),
                "legal": all(layouts[i]["legality"]["holds"] for i in (op["src"], op["dst"]))}
        ptx = c.get("ptx_shared", {})
        if isinstance(ptx, str):
            ptx = json.loads(ptx.replace("'", '"'))
        triton = {"store": int(m.get(compare.ST, 0)), "load": int(m.get(compare.LD, 0)),
                  "ptx": ptx, "model_floor_store": compare.model_floor(ptx, False),
                  "model_floor_load": compare.model_floor(ptx, True)}
        dtype = DTYPES.get(c["dtype"], c["dtype"])
        measured = oracle_measurement(index, src, dst, dtype)
        t_total, o_total = triton["store"] + triton["load"], ours["store"] + ours["load"]
        verdict = ("at the optimum" if t_total == o_total else
                   "above the optimum" if t_total > o_total else "below llcheck's optimum")
        rows.append({"id": c["id"], "shape": c["shape"], "dtype": dtype,
                     "correct": c.get("correct") in (True, "True"), "verdict": verdict,
                     "excess": t_total - o_total, "triton": triton, "llcheck": ours,
                     "llcheck_measured": measured})

    info = gpu_info()
    info["triton"] = version
    doc = {"triton": version, "gpu": info, "llcheck_oracle": {
        "source": os.path.relpath(args.oracle, REPO), "gpu": oracle.get("gpu"),
        "date": oracle.get("date")}, "report": report["summary"], "conversions": rows,
        "shared": {"source": os.path.relpath(SHARED_DATA, REPO), "gpu": gpu_info(SHARED_DATA),
                   "report": shared_report["summary"],
                   "kernels": shared_rows(shared_cases, shared_report, index)}}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "conformance.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    write_readme(out, doc)
    counts = collections.Counter(r["verdict"] for r in rows)
    print(f"{len(rows)} conversions: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    shared = doc["shared"]["kernels"]
    counts = collections.Counter(r["verdict"] for r in shared)
    print(f"{len(shared)} shared-memory kernels: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    unexplained = [r["id"] for r in shared if "differs" in r["verdict"] or not r["correct"]]
    if unexplained:
        print("measured differently from llcheck's prediction, unexplained: "
              + ", ".join(unexplained))
        return 1
    return 0


def check(args):
    """Exit 1 when the committed report differs from what today's llcheck produces."""
    cases, version = load_parts()
    committed = os.path.join(REPO, "reports", "triton-" + ".".join(version.split(".")[:2]) + ".x")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, os.path.abspath(__file__), "--llcheck", args.llcheck, "--oracle",
               args.oracle, "--out", os.path.join(tmp, "out"), "--work", os.path.join(tmp, "work")]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout + proc.stderr)
            return 1

        def load(folder):
            with open(os.path.join(folder, "conformance.json")) as f:
                doc = json.load(f)
            doc["report"].pop("seconds", None)
            doc["shared"]["report"].pop("seconds", None)
            with open(os.path.join(folder, "README.md")) as f:
                return doc, f.read()

        new, old = load(os.path.join(tmp, "out")), load(committed)
    if new != old:
        print(f"{committed} is not what today's llcheck produces: run "
              "python3 reports/triton/make_report.py")
        return 1
    print(f"{committed}: up to date ({len(new[0]['conversions'])} conversions, "
          f"{len(new[0]['shared']['kernels'])} shared-memory kernels)")
    return 0


def summary_table(rows):
    lines = ["| | conversions | Triton store + load wavefronts | llcheck's optimum |",
             "| --- | ---: | ---: | ---: |"]
    groups = collections.OrderedDict()
    for verdict in ("at the optimum", "above the optimum", "below llcheck's optimum"):
        for kind in ("shared_memory", "warp_shuffle", "register_permutation", "no_op"):
            sel = [r for r in rows if r["verdict"] == verdict and r["llcheck"]["kind"] == kind]
            if sel:
                groups[(verdict, kind)] = sel
    for (verdict, kind), sel in groups.items():
        t = sum(r["triton"]["store"] + r["triton"]["load"] for r in sel)
        o = sum(r["llcheck"]["store"] + r["llcheck"]["load"] for r in sel)
        lines.append(f"| Triton {verdict}, llcheck plans {kind.replace('_', ' ')} | {len(sel)} "
                     f"| {t} | {o} |")
    t = sum(r["triton"]["store"] + r["triton"]["load"] for r in rows)
    o = sum(r["llcheck"]["store"] + r["llcheck"]["load"] for r in rows)
    lines.append(f"| **all** | **{len(rows)}** | **{t}** | **{o}** |")
    return "\n".join(lines)


def shared_summary_table(rows):
    lines = ["| Triton's measured store + load wavefronts, against llcheck's prediction for the "
             "kernel's shared layout | kernels |", "| --- | ---: |"]
    for verdict, n in sorted(collections.Counter(r["verdict"] for r in rows).items(),
                             key=lambda kv: (kv[0] != "as predicted", kv[0])):
        lines.append(f"| {verdict} | {n} |")
    lines += ["", "| shared layout S | kernels | Triton measured | llcheck predicted for S | "
              "llcheck's optimum (any shared layout) |", "| --- | ---: | ---: | ---: | ---: |"]
    by_layout = collections.OrderedDict()
    for r in rows:
        by_layout.setdefault(r["shared"], []).append(r)
    for shared, sel in by_layout.items():
        t = sum(r["triton"]["store"]["wavefronts"] + r["triton"]["load"]["wavefronts"]
                for r in sel)
        p = sum(r["llcheck"]["store"]["wavefronts"] + r["llcheck"]["load"]["wavefronts"]
                for r in sel)
        o = sum(r["optimum"]["store"] + r["optimum"]["load"] for r in sel)
        lines.append(f"| `{shared}` | {len(sel)} | {t} | {p} | {o} |")
    return lines


def shared_section(shared):
    rows = shared["kernels"]
    g = shared["gpu"]
    s = shared["report"]
    fewer = [r for r in rows if "fewer instructions executed" in r["verdict"]]
    joined = [r for r in rows if r["llcheck_measured"]]
    oracle_cases = {r["llcheck_measured"]["case"]: r for r in joined}
    off = sorted((case, r) for case, r in oracle_cases.items()
                 if (r["llcheck_measured"]["store"], r["llcheck_measured"]["load"])
                 != (r["optimum"]["store"], r["optimum"]["load"]))
    off_text = "".join(f"; {case} ({r['llcheck_measured']['origin']}) measured "
                       f"{r['llcheck_measured']['store']} + {r['llcheck_measured']['load']} "
                       f"against {r['optimum']['store']} + {r['optimum']['load']} (the oracle's "
                       f"verdict: {r['llcheck_measured']['agreement']})" for case, r in off)
    text = ["## Shared memory through the kernel's own layout (`allocate_shared_memory` + `.load`)",
            "",
            f"{len(rows)} Gluon kernels (`reports/triton/probe_shared.py`; one CTA of 4 warps): "
            "load a 64x64 tensor in register layout A, `gl.allocate_shared_memory(dtype, shape, "
            "S, x)` into the shared layout S the kernel names, `.load(B)`, store. Measured on "
            f"{g['gpu']} (driver {g['driver']}), Triton {g.get('triton', '')}, {g.get('date', '')}"
            " with the same counters. Beside Triton's measurement: the bank model's prediction "
            "for S (`llcheck report`'s `predicted` on the `local_alloc` and `local_load` ops of "
            "Triton's TTGIR, with llcheck's choice of instruction), and llcheck's optimum for A "
            "and B over every shared layout. A side not as predicted must be within the "
            "counter's noise (1 to 4 extra wavefronts, as llcheck's oracle sees on its own "
            "kernels) or have executed fewer warp-level instructions than the PTX issues with "
            "each executed one as predicted; anything else fails `make_report.py --check`.", "",
            *shared_summary_table(rows), "",
            f"All {len(rows)} kernels delivered their data intact: "
            f"{all(r['correct'] for r in rows)}. Every layout legal: "
            f"{all(r['legal'] for r in rows)}. `llcheck report` on their TTGIR: "
            f"{s['ops_checked']} ops checked, {s['findings']} findings "
            f"({', '.join(f'{k} {v}' for k, v in s['findings_by_kind'].items()) or 'none'}; "
            "summary in `llcheck-report-shared.md`): the shared layouts these kernels name are "
            "fixed by the probe, not chosen by Triton, so \"above the optimum\" says what "
            "another layout would save.", "",
            f"llcheck's oracle ran its own optimal plan for the A and B of {len(joined)} of these "
            f"kernels ({len(oracle_cases)} oracle cases: the same layouts and element type, bit "
            f"for bit) and measured the optimum's wavefronts in "
            f"{len(oracle_cases) - len(off)} of the {len(oracle_cases)}{off_text}.", ""]
    if fewer:
        counts = sorted({f"{r['triton']['load']['instructions_executed']} of "
                         f"{r['triton']['load']['instructions_in_ptx']}" for r in fewer})
        text += [f"\"Fewer instructions executed\": {len(fewer)} loads into a layout two warps "
                 "hold copies of (the mma v2 dot operands, warps [2, 2]), where the H100 executed "
                 f"2 fewer warp-level shared loads than the PTX issues ({', '.join(counts)}); "
                 "the wavefronts measured are exactly the prediction's share of the executed "
                 "ones. The same effect as the conversions into `row8w` above.", ""]
    text += ["### Every kernel not as predicted", "",
             "| kernel | Triton measured: store + load | llcheck predicted for S | verdict | "
             "instructions executed / in the PTX (load) | Triton's PTX (per thread) |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if r["verdict"] == "as predicted":
            continue
        t, p = r["triton"], r["llcheck"]
        ptx = ", ".join(f"{k} x{v}" for k, v in r["ptx"].items())
        text.append(f"| {r['id']} | {t['store']['wavefronts']} + {t['load']['wavefronts']} | "
                    f"{p['store']['wavefronts']} + {p['load']['wavefronts']} "
                    f"({p['store']['instruction']}, {p['load']['instruction']}) | {r['verdict']} "
                    f"| {t['load']['instructions_executed']} / {t['load']['instructions_in_ptx']} "
                    f"| {ptx} |")
    text.append("")
    return text


def write_readme(out, doc):
    rows = doc["conversions"]
    g = doc["gpu"]
    joined = [r for r in rows if r["llcheck_measured"]]
    oracle_equal = sum(1 for r in joined if r["llcheck_measured"]["store"] == r["llcheck"]["store"]
                       and r["llcheck_measured"]["load"] == r["llcheck"]["load"])
    s = doc["report"]
    text = [f"# Triton {doc['triton']} conformance report (layout conversions and shared-memory "
            "kernels, measured)", "",
            "Generated by `python3 reports/triton/make_report.py` from the committed measurements "
            "of `gpu_oracle/triton_convert/` (see its README for the kernels and how they were "
            "run), `reports/triton/data/shared/` (the shared-memory kernels, last section) and "
            "`corpus/oracle/results.json`. Do not edit by hand.", "",
            f"- GPU: {g['gpu']}, driver {g['driver']}; {g.get('ncu', '')}; {g.get('torch', '')}",
            f"- Triton {doc['triton']}, measured {g.get('date', '')}",
            f"- llcheck's own oracle: {doc['llcheck_oracle']['gpu']}, "
            f"{doc['llcheck_oracle']['date']}", "",
            "Per conversion (one Gluon kernel: load in layout A, `ttgl.convert_layout` to B, store; "
            "one CTA of 4 warps): the shared-memory store + load wavefronts Nsight Compute measured "
            "for Triton's generated code (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{st,ld}`,"
            " ldmatrix/stmatrix included), next to llcheck's optimum for the same two layouts "
            "(`llcheck report` on Triton's TTGIR: summary in `llcheck-report.md`; the full report is "
            "written to `build/triton-report/llcheck/`), and, where llcheck's GPU oracle ran "
            "the same pair, the wavefronts it measured for llcheck's plan.", "",
            summary_table(rows), "",
            f"All {len(rows)} conversions delivered their data intact: "
            f"{all(r['correct'] for r in rows)}. Every layout legal (proven by Z3): "
            f"{all(r['llcheck']['legal'] for r in rows)}. "
            f"`llcheck report` on the {s['files']} TTGIR modules: {s['layouts']} layouts, "
            f"{s['ops_checked']} ops checked, {s['findings']} findings "
            f"({', '.join(f'{k} {v}' for k, v in s['findings_by_kind'].items()) or 'none'}).", "",
            f"llcheck's own measurement of its optimum is available for {len(joined)} of the "
            f"conversions (the oracle's sweep ran the same layout pairs); it equals the predicted "
            f"optimum on {oracle_equal} of them"
            + "".join(f"; {r['id']}: measured {r['llcheck_measured']['store']} + "
                      f"{r['llcheck_measured']['load']} against {r['llcheck']['store']} + "
                      f"{r['llcheck']['load']} (the oracle's verdict: "
                      f"{r['llcheck_measured']['agreement']})"
                      for r in joined
                      if (r['llcheck_measured']['store'], r['llcheck_measured']['load'])
                      != (r['llcheck']['store'], r['llcheck']['load'])) + ".", "",
            "\"Below llcheck's optimum\" are the conversions into `row8w`, whose elements are held "
            "by two warps: the H100 executed fewer warp-level loads than the model's \"every warp "
            "issues every instruction\" (see gpu_oracle/triton_convert/README.md).", "",
            "## Every conversion where Triton is not at llcheck's optimum", "",
            "| conversion | Triton: store + load | llcheck optimum | llcheck measured | "
            "Triton's PTX (per thread) |",
            "| --- | --- | --- | --- | --- |"]
    for r in sorted(rows, key=lambda r: -abs(r["excess"])):
        if r["verdict"] == "at the optimum":
            continue
        o, t, lm = r["llcheck"], r["triton"], r["llcheck_measured"]
        plan = (f"{o['store']} + {o['load']} ({o['store_instruction']}, {o['load_instruction']})"
                if o["kind"] == "shared_memory" else f"0 + 0 ({o['kind']})")
        meas = f"{lm['store']} + {lm['load']}" if lm else "-"
        ptx = ", ".join(f"{k} x{v}" for k, v in t["ptx"].items())
        text.append(f"| {r['id']} | {t['store']} + {t['load']} | {plan} | {meas} | {ptx} |")
    text.append("")
    text += shared_section(doc["shared"])
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(text))


if __name__ == "__main__":
    sys.exit(main())
