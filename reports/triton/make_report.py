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
   Triton's measured store and load wavefronts with llcheck's prediction of what Triton emits
   for the kernel's own shared layout S (`predicted` of the local_alloc and local_load ops:
   Triton's lowering, TritonLowering.h) and llcheck's optimum for the same A and B;
4. for every kernel of both sets and each side, compares the measured wavefronts with that
   prediction (for a conversion, `predicted` of its convert_layout op): a side that differs must
   be explained (within the counter's noise, or redundant warps that exit early, below), or
   --check fails;
5. writes OUT/conformance.json and OUT/README.md (GPU, driver, date, the summary tables, every
   conversion where Triton is not at llcheck's optimum, every kernel not as predicted).

Redundant warps that exit early: where the layout the kernel stores to global memory (the
convert's DST, the local_load's result) holds copies in some warps (a zero warp basis), Triton
masks those warps' global stores; their last shared loads are then dead and ptxas places a
predicated EXIT before them, so the GPU executes warps x N - exiting x L warp-level loads (N per
warp in the PTX, L after the EXIT). The exiting warps are counted from the layout (warp ids with
a bit on a zero basis); L is not in the committed data (no SASS was kept), so it is inferred as
(issued - executed) / exiting and must be a whole number from 1 to N, and the wavefronts must be
the prediction's share of the executed loads.

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


def exiting_warps(layout, warps=WARPS):
    """Warps of the CTA whose id has a bit on a zero warp basis of `layout` (Layout JSON): they
    hold only copies of what other warps hold, so Triton masks their global stores."""
    bases = next((d["bases"] for d in layout["ins"] if d["name"] == "warp"), [])
    zero = sum(1 << i for i, b in enumerate(bases) if not any(b))
    return sum(1 for w in range(warps) if w & zero)


def side_verdict(measured, executed, issued, predicted, exiting):
    """How Triton's measured wavefronts on one side relate to llcheck's prediction: the verdict
    and, for redundant warps that exit early, {"exiting_warps", "loads_after_exit"}."""
    if measured == predicted:
        return "as predicted", None
    if 0 < measured - predicted <= COUNTER_NOISE:
        return "within the counter's noise", None
    if executed < issued and exiting and (issued - executed) % exiting == 0:
        after = (issued - executed) // exiting
        if 1 <= after <= issued // WARPS and measured * issued == predicted * executed:
            return "redundant warps exit early", {"exiting_warps": exiting,
                                                  "loads_after_exit": after}
    return "differs", None


def overall(verdicts):
    return ("as predicted" if all(v == "as predicted" for v in verdicts) else
            ", ".join(sorted({v for v in verdicts if v != "as predicted"})))


def executed_count(m, side):
    return int(sum(m.get(name, 0) for name in EXECUTED[side]))


def ptx_count(ptx, side):
    """Warp-level shared-memory instructions the PTX issues on one side (every warp issues each
    per-thread instruction)."""
    prefix = "st" if side == "store" else "ld"
    return WARPS * sum(n for name, n in ptx.items() if name.startswith(prefix))


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
               "ptx": ptx, "triton": {}, "predicted": {}, "llcheck": {},
               "optimum": {"store": optimal["store"]["wavefronts"],
                           "load": optimal["load"]["wavefronts"],
                           "store_instruction": optimal["store"]["instruction"],
                           "load_instruction": optimal["load"]["instruction"]}}
        row["llcheck_measured"] = oracle_measurement(
            index, layouts[alloc["plan"]["register_layout"]]["layout"],
            layouts[load["plan"]["register_layout"]]["layout"], row["dtype"])
        # The layout the kernel stores to global memory: the local_load's result.
        exiting = exiting_warps(layouts[load["plan"]["register_layout"]]["layout"])
        verdicts = []
        for side, op, metric in (("store", alloc, compare.ST), ("load", load, compare.LD)):
            predicted = op["predicted"][side]
            mine = op["predicted"]["llcheck"][side]
            executed = executed_count(m, side)
            issued = ptx_count(ptx, side)
            measured = int(m.get(metric, 0))
            verdict, exit_ = side_verdict(measured, executed, issued, predicted["wavefronts"],
                                          exiting)
            row["triton"][side] = {"wavefronts": measured, "instructions_executed": executed,
                                   "instructions_in_ptx": issued}
            row["predicted"][side] = {"wavefronts": predicted["wavefronts"],
                                      "instruction": predicted["instruction"],
                                      "instructions": predicted["instructions"]}
            row["llcheck"][side] = {"wavefronts": mine["wavefronts"],
                                    "instruction": mine["instruction"],
                                    "instructions": mine["instructions"]}
            row[side + "_verdict"] = verdict
            if exit_:
                row[side + "_exit"] = exit_
            verdicts.append(verdict)
        row["lowering"] = alloc["predicted"]["lowering"]
        row["verdict"] = overall(verdicts)
        row["excess_over_optimum"] = (row["triton"]["store"]["wavefronts"]
                                      + row["triton"]["load"]["wavefronts"]
                                      - row["optimum"]["store"] - row["optimum"]["load"])
        rows.append(row)
    return rows


def predicted_conversion(op, layouts, ptx, m):
    """What llcheck predicts Triton's lowering of a convert_layout measures (`predicted` of the
    op), side by side with the counters, and the verdict of each side."""
    p = op["predicted"] or {}
    through = bool(p.get("shared_memory"))
    out = {"lowering": p.get("lowering"), "shared_memory": through, "rounds": p.get("rounds"),
           "store": {}, "load": {}}
    exiting = exiting_warps(layouts[op["dst"]]["layout"])
    verdicts = []
    for side, metric in (("store", compare.ST), ("load", compare.LD)):
        a = p.get(side, {}) if through else {}
        predicted = a.get("wavefronts", 0)
        executed, issued = executed_count(m, side), ptx_count(ptx, side)
        verdict, exit_ = side_verdict(int(m.get(metric, 0)), executed, issued, predicted,
                                      exiting)
        out[side] = {"wavefronts": predicted, "instruction": a.get("instruction"),
                     "instructions": a.get("instructions", 0), "instructions_executed": executed,
                     "instructions_in_ptx": issued, "verdict": verdict}
        if exit_:
            out[side]["exit"] = exit_
        verdicts.append(verdict)
    out["verdict"] = overall(verdicts)
    return out


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
                     "predicted": predicted_conversion(op, layouts, ptx, m),
                     "llcheck_measured": measured})

    def without_fixes(summary):
        # Each worst finding's fix (attributes, Gluon text, costs) is in report.json; kept here
        # it would double this file.
        return {**summary, "worst": [{k: v for k, v in w.items() if k != "fix"}
                                     for w in summary["worst"]]}

    info = gpu_info()
    info["triton"] = version
    doc = {"triton": version, "gpu": info, "llcheck_oracle": {
        "source": os.path.relpath(args.oracle, REPO), "gpu": oracle.get("gpu"),
        "date": oracle.get("date")}, "report": without_fixes(report["summary"]), "conversions": rows,
        "shared": {"source": os.path.relpath(SHARED_DATA, REPO), "gpu": gpu_info(SHARED_DATA),
                   "report": without_fixes(shared_report["summary"]),
                   "kernels": shared_rows(shared_cases, shared_report, index)}}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "conformance.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    write_readme(out, doc)
    counts = collections.Counter(r["verdict"] for r in rows)
    print(f"{len(rows)} conversions: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    counts = collections.Counter(r["predicted"]["verdict"] for r in rows)
    print(f"{len(rows)} conversions against Triton's predicted lowering: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    shared = doc["shared"]["kernels"]
    counts = collections.Counter(r["verdict"] for r in shared)
    print(f"{len(shared)} shared-memory kernels: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    unexplained = [r["id"] for r in shared if "differs" in r["verdict"] or not r["correct"]]
    unexplained += [r["id"] for r in rows if "differs" in r["predicted"]["verdict"]
                    or not r["correct"]]
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


def access_kind(name):
    """An instruction's kind and width, whoever spells it: ("matrix", "x4") for
    "ldmatrix.x4.b16" and "ldmatrix.sync.aligned.m8n8.x4.shared.b16", ("vector", 64) for
    "st.shared.v4.b16" and "st.shared.v2.b32"."""
    if "matrix" in name:
        return ("matrix.trans" if ".trans" in name else "matrix",
                next(p for p in name.split(".") if p in ("x1", "x2", "x4")))
    parts = name.split(".")
    if not parts[-1][1:].isdigit():
        return ("other", name)  # e.g. cp.async
    lanes = next((int(p[1:]) for p in parts if p in ("v2", "v4", "v8")), 1)
    return ("vector", lanes * int(parts[-1][1:]))


def verdict_counts(verdicts):
    return sorted(collections.Counter(verdicts).items(),
                  key=lambda kv: (kv[0] != "as predicted", kv[0]))


def exit_text(rows, side_of):
    """'executed of issued (exiting warps x loads after the exit)' for each distinct case."""
    seen = set()
    for r in rows:
        side = side_of(r)
        e = side.get("exit")
        if e:
            seen.add(f"{side['instructions_executed']} of {side['instructions_in_ptx']} "
                     f"({e['exiting_warps']} x {e['loads_after_exit']})")
    return ", ".join(sorted(seen))


EXIT_CAUSE = ("Triton masks the global stores of the warps that hold only copies (a zero warp "
              "basis of the stored layout), so their last shared loads are dead and ptxas puts "
              "a predicated `@P0 EXIT` before them: the GPU executes warps x N - exiting warps x "
              "(loads after the EXIT) warp-level loads, each with the predicted wavefronts. "
              "The exiting warps are counted from the layout; the loads after the EXIT are "
              "inferred from the counters (the committed data has no SASS) and must be a whole "
              "number from 1 to N")


def shared_summary_table(rows, version):
    lines = ["| Triton's measured store + load wavefronts, against llcheck's prediction of "
             f"Triton {version}'s lowering for the kernel's shared layout | kernels |",
             "| --- | ---: |"]
    for verdict, n in verdict_counts(r["verdict"] for r in rows):
        lines.append(f"| {verdict} | {n} |")
    lines += ["", "| shared layout S | kernels | Triton measured | llcheck's prediction of "
              "Triton's lowering for S | llcheck's own instruction for S | llcheck's optimum "
              "(any shared layout) |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    by_layout = collections.OrderedDict()
    for r in rows:
        by_layout.setdefault(r["shared"], []).append(r)
    for shared, sel in by_layout.items():
        def total(key):
            return sum(r[key]["store"]["wavefronts"] + r[key]["load"]["wavefronts"] for r in sel)
        o = sum(r["optimum"]["store"] + r["optimum"]["load"] for r in sel)
        lines.append(f"| `{shared}` | {len(sel)} | {total('triton')} | {total('predicted')} | "
                     f"{total('llcheck')} | {o} |")
    return lines


def shared_section(shared, version):
    rows = shared["kernels"]
    g = shared["gpu"]
    s = shared["report"]
    exits = [r for r in rows if "redundant warps exit early" in r["verdict"]]
    joined = [r for r in rows if r["llcheck_measured"]]
    oracle_cases = {r["llcheck_measured"]["case"]: r for r in joined}
    off = sorted((case, r) for case, r in oracle_cases.items()
                 if (r["llcheck_measured"]["store"], r["llcheck_measured"]["load"])
                 != (r["optimum"]["store"], r["optimum"]["load"]))
    off_text = "".join(f"; {case} ({r['llcheck_measured']['origin']}) measured "
                       f"{r['llcheck_measured']['store']} + {r['llcheck_measured']['load']} "
                       f"against {r['optimum']['store']} + {r['optimum']['load']} (the oracle's "
                       f"verdict: {r['llcheck_measured']['agreement']})" for case, r in off)
    sides = [(r, side) for r in rows for side in ("store", "load")]
    same_count = sum(1 for r, side in sides
                     if r["predicted"][side]["instructions"]
                     == r["triton"][side]["instructions_in_ptx"])
    other_instr = sum(1 for r, side in sides
                      if access_kind(r["predicted"][side]["instruction"])
                      != access_kind(r["llcheck"][side]["instruction"]))
    other_cost = sum(1 for r, side in sides
                     if r["predicted"][side]["wavefronts"] != r["llcheck"][side]["wavefronts"])
    text = ["## Shared memory through the kernel's own layout (`allocate_shared_memory` + `.load`)",
            "",
            f"{len(rows)} Gluon kernels (`reports/triton/probe_shared.py`; one CTA of 4 warps): "
            "load a 64x64 tensor in register layout A, `gl.allocate_shared_memory(dtype, shape, "
            "S, x)` into the shared layout S the kernel names, `.load(B)`, store. Measured on "
            f"{g['gpu']} (driver {g['driver']}), Triton {g.get('triton', '')}, {g.get('date', '')}"
            " with the same counters. Beside Triton's measurement: llcheck's prediction of what "
            f"Triton {version} emits for S (`llcheck report --triton {version}`'s `predicted` on "
            "the `local_alloc` and `local_load` ops of Triton's TTGIR: its lowering as "
            "`TritonLowering.h` models it), llcheck's own instruction for S (`predicted.llcheck`)"
            ", and llcheck's optimum for A and B over every shared layout. A side not as "
            "predicted must be within the counter's noise (1 to 4 extra wavefronts, as llcheck's "
            "oracle sees on its own kernels) or be explained by redundant warps that exit early "
            "(below); anything else fails `make_report.py --check`.", "",
            *shared_summary_table(rows, version), "",
            f"All {len(rows)} kernels delivered their data intact: "
            f"{all(r['correct'] for r in rows)}. Every layout legal: "
            f"{all(r['legal'] for r in rows)}. The predicted instruction count equals the PTX's "
            f"(per thread, times 4 warps) on {same_count} of {len(sides)} sides; Triton's "
            f"access differs from llcheck's own instruction on {other_instr} sides (another "
            "kind or width: e.g. `ldmatrix` where llcheck counts `ld.shared.b32`), its "
            f"wavefronts on {other_cost}. `llcheck report` on their TTGIR: "
            f"{s['ops_checked']} ops checked, {s['findings']} findings "
            f"({', '.join(f'{k} {v}' for k, v in s['findings_by_kind'].items()) or 'none'}; "
            "summary in `llcheck-report-shared.md`): the shared layouts these kernels name are "
            "fixed by the probe, not chosen by Triton, so \"above the optimum\" says what "
            "another layout would save, as global_above_ideal does for the register layouts the "
            "probe loads and stores in.", "",
            f"llcheck's oracle ran its own optimal plan for the A and B of {len(joined)} of these "
            f"kernels ({len(oracle_cases)} oracle cases: the same layouts and element type, bit "
            f"for bit) and measured the optimum's wavefronts in "
            f"{len(oracle_cases) - len(off)} of the {len(oracle_cases)}{off_text}.", ""]
    if exits:
        text += [f"\"Redundant warps exit early\": {len(exits)} loads into a layout two warps "
                 "hold copies of (the mma v2 dot operands, warps [2, 2]). " + EXIT_CAUSE + ". "
                 "Here: executed of issued (exiting warps x loads after the EXIT): "
                 f"{exit_text(exits, lambda r: dict(r['triton']['load'], exit=r.get('load_exit')))}"
                 ". The same effect as the conversions into `row8w` above.", ""]
    text += ["### Every kernel not as predicted", "",
             "| kernel | Triton measured: store + load | llcheck's prediction of Triton's "
             "lowering | verdict | load instructions executed / in the PTX | Triton's PTX (per "
             "thread) |", "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if r["verdict"] == "as predicted":
            continue
        t, p = r["triton"], r["predicted"]
        ptx = ", ".join(f"{k} x{v}" for k, v in r["ptx"].items())
        text.append(f"| {r['id']} | {t['store']['wavefronts']} + {t['load']['wavefronts']} | "
                    f"{p['store']['wavefronts']} + {p['load']['wavefronts']} "
                    f"({p['store']['instruction']}, {p['load']['instruction']}) | {r['verdict']} "
                    f"| {t['load']['instructions_executed']} / {t['load']['instructions_in_ptx']} "
                    f"| {ptx} |")
    text.append("")
    return text


def prediction_section(rows, version):
    """Triton's measured conversions against llcheck's prediction of Triton's lowering."""
    through = [r for r in rows if r["predicted"]["shared_memory"]]
    exits = [r for r in rows if "redundant warps exit early" in r["predicted"]["verdict"]]
    text = ["## Triton's measured cost against llcheck's prediction of its lowering", "",
            f"`predicted` of each `convert_layout` op (`llcheck report --triton {version}`): "
            f"Triton {version}'s lowering as `TritonLowering.h` models it, whether it goes "
            "through shared memory and, where it does, its own scratch layout and instructions. "
            f"Triton goes through shared memory in {len(through)} of the {len(rows)} (llcheck's "
            f"plan needs it in {sum(1 for r in rows if r['llcheck']['kind'] == 'shared_memory')})"
            ". Each side is as predicted, within the counter's noise, or explained by redundant "
            "warps that exit early; anything else fails `make_report.py --check`.", "",
            "| Triton measured, against llcheck's prediction of its lowering | conversions | "
            "Triton store + load wavefronts | predicted |", "| --- | ---: | ---: | ---: |"]
    for verdict, n in verdict_counts(r["predicted"]["verdict"] for r in rows):
        sel = [r for r in rows if r["predicted"]["verdict"] == verdict]
        t = sum(r["triton"]["store"] + r["triton"]["load"] for r in sel)
        p = sum(r["predicted"]["store"]["wavefronts"] + r["predicted"]["load"]["wavefronts"]
                for r in sel)
        text.append(f"| {verdict} | {n} | {t} | {p} |")
    if exits:
        text += ["", f"\"Redundant warps exit early\": {len(exits)} conversions into `row8w`, "
                 "which holds every element in two warps. " + EXIT_CAUSE + ". Here: executed "
                 "of issued (exiting warps x loads after the EXIT): "
                 f"{exit_text(exits, lambda r: r['predicted']['load'])}."]
    text += ["", "### Every conversion not as predicted", "",
             "| conversion | Triton measured: store + load | predicted (Triton's lowering) | "
             "verdict | load instructions executed / in the PTX |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        p = r["predicted"]
        if p["verdict"] == "as predicted":
            continue
        text.append(f"| {r['id']} | {r['triton']['store']} + {r['triton']['load']} | "
                    f"{p['store']['wavefronts']} + {p['load']['wavefronts']} "
                    f"({p['store']['instruction']}, {p['load']['instruction']}) | "
                    f"{p['verdict']} | {p['load']['instructions_executed']} / "
                    f"{p['load']['instructions_in_ptx']} |")
    text.append("")
    return text


def write_readme(out, doc):
    rows = doc["conversions"]
    g = doc["gpu"]
    version = ".".join(doc["triton"].split(".")[:2])
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
            f"({', '.join(f'{k} {v}' for k, v in s['findings_by_kind'].items()) or 'none'}; "
            f"above_optimum: Triton {version}'s predicted lowering above llcheck's optimum; "
            "global_above_ideal: the probe loads in layout A and stores in B, layouts it picks, "
            "and where one is not the coalesced layout, its global accesses take more requests "
            "or sectors than that layout's).", "",
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
            "by two warps: redundant warps exit early (next section), so the GPU executes fewer "
            "warp-level loads than the PTX issues.", "",
            *prediction_section(rows, version),
            "## Every conversion where Triton is not at llcheck's optimum", "",
            "| conversion | Triton: store + load | predicted (Triton's lowering) | llcheck optimum "
            "| llcheck measured | Triton's PTX (per thread) |",
            "| --- | --- | --- | --- | --- | --- |"]
    for r in sorted(rows, key=lambda r: -abs(r["excess"])):
        if r["verdict"] == "at the optimum":
            continue
        o, t, lm, p = r["llcheck"], r["triton"], r["llcheck_measured"], r["predicted"]
        plan = (f"{o['store']} + {o['load']} ({o['store_instruction']}, {o['load_instruction']})"
                if o["kind"] == "shared_memory" else f"0 + 0 ({o['kind']})")
        pred = (f"{p['store']['wavefronts']} + {p['load']['wavefronts']}"
                + (f", {p['rounds']} rounds" if (p["rounds"] or 1) > 1 else "")
                if p["shared_memory"] else "0 + 0 (no shared memory)")
        meas = f"{lm['store']} + {lm['load']}" if lm else "-"
        ptx = ", ".join(f"{k} x{v}" for k, v in t["ptx"].items())
        text.append(f"| {r['id']} | {t['store']} + {t['load']} | {pred} | {plan} | {meas} "
                    f"| {ptx} |")
    text.append("")
    text += shared_section(doc["shared"], version)
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(text))


if __name__ == "__main__":
    sys.exit(main())
