#!/usr/bin/env python3
"""Triton's own kernels on an H200 (tests/triton/lowering, run_gpu.sh and run_gpu_extra.sh)
against llcheck's model of Triton's lowering (`--lowering triton --triton V --hardware sm90`).

    gpu_check.py collect RUN --padded DIR --repeats DIR... -o data/gpu-h200.json
                                               (after a GPU run: the counters)
    gpu_check.py collect-isolated RUN -o data/gpu-h200-isolated.json
                                               (after run_gpu_isolate.sh: both variants)
    gpu_check.py check data/gpu-h200.json [data/gpu-h200-more.json ...]
                       [--isolated data/gpu-h200-isolated.json ...] [--through-report]
                       [--llcheck build/cli/llcheck]
                                               (every batch of cases measured)
    gpu_check.py check-exit data/gpu-h200-exit.json [--version V]
                                               (the early-exit cases, through `llcheck report`)
    gpu_check.py check-sass data/gpu-h200-sass.json
                                               (a run with ncu's instruction-level counts too:
                                               run_gpu_batch.sh SASS=1)

`collect` keeps, per version and kernel, what ncu measured (store and load wavefronts and
warp-level instructions; every repeat of the kernels launched again), whether the data came
through, and the kernels that faulted. `check` predicts every side with llcheck and sorts it:
  exact       the prediction equals the first measurement;
  a repeat    a later launch of the same kernel measured exactly the prediction;
  varies      the launches of the kernel disagree with each other (the counter changes from
              run to run, so no count can match every run): at or above the prediction;
  offset      a stable excess of 1 to 4 wavefronts in every launch (the oracle's "within the
              counter's noise");
  listed      a difference with its reason in gpu_known_differences.json;
  isolated    (with --isolated) not exact as launched, but every launch of the same kernel
              with ISOLATE (kernels.py: each phase's shared-memory accesses finish, then a CTA
              barrier, before the next phase's global traffic) measured exactly the prediction.
              The extra wavefronts came from the kernel's own global loads and stores overlapping
              other warps' shared-memory accesses in the L1TEX pipeline, not from the layouts;
and fails on any other difference, on a listed reason that no longer differs, and on a faulted
kernel the model does not predict as misaligned.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_compare as gc  # noqa: E402

ST = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"
LD = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"
SASS = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"


def measured(m):
    """One launch's counters: per side, [wavefronts, warp-level instructions] from the hardware
    counters, and where the SASS-patched metrics were read (run_gpu_batch.sh SASS=1), the same
    pair as ncu's instruction-level counts ("store_sass", "load_sass"; gpu_env.sh)."""
    def total(*names):
        return sum(gc.metric(m, n) or 0 for n in names)
    out = {"store": [gc.metric(m, ST), total("smsp__inst_executed_op_shared_st",
                                             "smsp__inst_executed_op_shared_stsm")],
           "load": [gc.metric(m, LD), total("smsp__inst_executed_op_shared_ld",
                                            "smsp__inst_executed_op_ldsm")]}
    if gc.metric(m, SASS + "ld") is not None:
        out["store_sass"] = [total(SASS + "st", SASS + "stsm"),
                             total("smsp__sass_inst_executed_op_shared_st",
                                   "smsp__sass_inst_executed_op_shared_stsm")]
        out["load_sass"] = [total(SASS + "ld", SASS + "ldsm"),
                            total("smsp__sass_inst_executed_op_shared_ld",
                                  "smsp__sass_inst_executed_op_ldsm")]
    return out


def jsonl(path):
    return [json.loads(line) for line in open(path)] if os.path.exists(path) else []


def collect(args):
    out = {"gpu": open(os.path.join(args.run, "gpu.txt")).read().strip().splitlines(),
           "versions": {}}
    for v in ("3.6", "3.9"):
        run = json.load(open(os.path.join(args.run, f"run-{v}.json")))
        rows = gc.ncu_rows(os.path.join(args.run, f"ncu-{v}.csv"))
        launched = [r for r in run["launches"] if r.get("launched")]
        kernels = {}
        for r, m in zip(launched, rows):
            kernels[r["id"]] = {"correct": r.get("correct"), "runs": [measured(m)]}
        recs = [r for r in jsonl(os.path.join(args.padded, f"padded-{v}.jsonl"))
                if "start" not in r]
        ok = [r for r in recs if r.get("launched") and "error" not in r]
        for r, m in zip(ok, gc.ncu_rows(os.path.join(args.padded, f"ncu-{v}-padded.csv"))):
            kernels[r["id"]] = {"correct": r.get("correct"), "runs": [measured(m)]}
        faulted = [r["id"] for r in jsonl(os.path.join(args.padded, f"faults-{v}.jsonl"))
                   if "start" not in r and "error" in r]
        for repeats in args.repeats:
            if not os.path.exists(os.path.join(repeats, f"repeat-{v}.jsonl")):
                continue
            reps = [r for r in jsonl(os.path.join(repeats, f"repeat-{v}.jsonl"))
                    if "start" not in r and r.get("launched")]
            for r, m in zip(reps, gc.ncu_rows(os.path.join(repeats, f"ncu-{v}-repeat.csv"))):
                if r["id"] in kernels:
                    kernels[r["id"]]["runs"].append(measured(m))
        out["versions"][v] = {"kernels": kernels, "faulted": sorted(set(faulted))}
    with open(args.o, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.o}: " + ", ".join(f"{v}: {len(d['kernels'])} kernels, "
                                           f"{len(d['faulted'])} faulted"
                                           for v, d in out["versions"].items()))


def collect_isolated(args):
    out = {"gpu": open(os.path.join(args.run, "gpu.txt")).read().strip().splitlines()
           if os.path.exists(os.path.join(args.run, "gpu.txt")) else args.gpu, "versions": {}}
    for v in ("3.6", "3.9"):
        kernels = defaultdict(lambda: {"plain": [], "isolated": []})
        for variant in ("plain", "isolated"):
            recs = [r for r in jsonl(os.path.join(args.run, f"{variant}-{v}.jsonl"))
                    if "start" not in r and r.get("launched")]
            rows = gc.ncu_rows(os.path.join(args.run, f"ncu-{v}-{variant}.csv"))
            if len(recs) != len(rows):
                sys.exit(f"{v} {variant}: {len(recs)} launches, {len(rows)} ncu rows")
            for r, m in zip(recs, rows):
                if r.get("correct") is False:
                    sys.exit(f"{v} {variant} {r['id']}: the data came out wrong")
                kernels[r["id"]][variant].append(measured(m))
        if kernels:
            out["versions"][v] = {"kernels": dict(kernels)}
    with open(args.o, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.o}: " + ", ".join(f"{v}: {len(d['kernels'])} kernels"
                                           for v, d in out["versions"].items()))


def exact_isolated(pred, isolated, side):
    """Every isolated launch measured exactly the prediction (wavefronts and instructions)."""
    return bool(isolated) and all(r[side] == [pred["wavefronts"], pred["instructions"]]
                                  for r in isolated)


def score_predictor(tally, answer, pred, first, side, llcheck_exact):
    """Triton's predictor on one measured side, on its own measure: the excess wavefronts per
    phase, i.e. the measured wavefronts over the phases of the instructions the GPU executed
    (llcheck's ideal for Triton's emitted instruction, where its instruction count is the
    measured one), minus 1."""
    if answer is None:
        return
    tally["sides"] += 1
    if "error" in answer or side not in answer:
        tally["refused"] += 1
        return
    tally["answered"] += 1
    tally["llcheck exact"] += llcheck_exact
    wavefronts, instructions = first
    ideal = pred.get("ideal_wavefronts")
    if ideal and instructions == pred["instructions"] and wavefronts == ideal * (1 + answer[side]):
        tally["triton exact"] += 1


def instruction_level(pred, kernel, side):
    """The instruction-level counts (wavefronts, instructions executed) of every launch of the
    SASS=1 run (ncu's patched SASS) equal the prediction."""
    runs = (kernel or {}).get("runs", [])
    want = [pred["wavefronts"], pred["instructions"]]
    return bool(runs) and all(r.get(f"{side}_sass") == want for r in runs)


def classify(pred, runs, side):
    first = runs[0][side]
    values = [r[side][0] for r in runs]
    if [pred["wavefronts"], pred["instructions"]] == first:
        return "exact"
    if pred["instructions"] != first[1]:
        return None
    if pred["wavefronts"] in values:
        return "a repeat"
    if len(set(values)) > 1 and min(values) >= pred["wavefronts"]:
        return "varies"
    if len(runs) > 1 and len(set(values)) == 1 and 1 <= values[0] - pred["wavefronts"] <= 4:
        return "offset"
    return None


def load_data(paths):
    """One or more collect outputs (batches of cases measured in separate GPU sessions) as one:
    their kernels and faults per version; the GPU lines of the first."""
    data = {"gpu": None, "versions": {}}
    for path in paths:
        d = json.load(open(path))
        data["gpu"] = data["gpu"] or d["gpu"]
        for v, dv in d["versions"].items():
            into = data["versions"].setdefault(v, {"kernels": {}, "faulted": []})
            for cid, k in dv["kernels"].items():
                if cid in into["kernels"]:
                    sys.exit(f"{path}: {v} {cid} measured twice")
                into["kernels"][cid] = k
            into["faulted"] += dv.get("faulted", [])
    return data


def predictions(llcheck, version, ids, cases, recorded):
    """gc.predict for each case id that has recorded layouts, in parallel: {id: prediction}. Each
    prediction is one or two llcheck processes, so threads keep every core busy."""
    ids = [cid for cid in ids if "layouts" in recorded.get(cid, {})]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return dict(zip(ids, pool.map(lambda cid: gc.predict(
            llcheck, cases[cid], recorded[cid]["layouts"], version, "sm90"), ids)))


def check(args):
    data = load_data(args.data)
    cases = {c["id"]: c for c in json.load(open(os.path.join(HERE, "data", "cases.json")))["cases"]}
    known = json.load(open(os.path.join(HERE, "gpu_known_differences.json")))["differences"]
    # Sides whose instruction the model already gets wrong statically (the PTX and SASS, checked
    # by core/tests/tritonLowering_test.cpp): their counts differ for that reason.
    static = {side: name for name, cls in json.load(open(os.path.join(
        HERE, "known_differences.json")))["classes"].items() for side in cls["cases"]}
    iso = {}
    for path in args.isolated or []:
        for v, dv in json.load(open(path))["versions"].items():
            kernels = iso.setdefault(v, {"kernels": {}})["kernels"]
            for cid, k in dv["kernels"].items():
                if cid in kernels:
                    sys.exit(f"{path}: {v} {cid} re-measured twice")
                kernels[cid] = k
    # The SASS=1 run's instruction-level counts (check-sass): a side whose hardware counter is
    # above the prediction in every launch but whose executed instructions' own wavefronts equal
    # it, as in check-sass, is the pipeline's residual, not the layout's.
    sass = ({v: dv["kernels"] for v, dv in load_data([args.instruction_level])["versions"].items()}
            if args.instruction_level else {})
    failures, used = [], set()
    for v, d in data["versions"].items():
        iso_kernels = iso.get(v, {}).get("kernels", {})
        iso_tally = defaultdict(int)
        predictor_path = os.path.join(HERE, "data", f"triton-predictor-{v}.json")
        predictor = (json.load(open(predictor_path))["cases"] if os.path.exists(predictor_path)
                     else {})
        scored = defaultdict(lambda: defaultdict(int))
        recorded = {r["id"]: r for r in json.load(open(os.path.join(HERE, "data",
                                                                    f"triton-{v}.json")))["cases"]}
        tally = defaultdict(lambda: defaultdict(int))
        sides = []
        report = (report_of(args.llcheck, os.path.join(HERE, "data", f"ttgir-{v}.tar.xz"), v,
                            ["--hardware", "sm90"]) if args.through_report else None)
        predicted = ({} if report is not None else
                     predictions(args.llcheck, v, list(d["kernels"]) + list(d["faulted"]), cases,
                                 recorded))
        for cid, k in sorted(d["kernels"].items()):
            case, rec = cases[cid], recorded.get(cid, {})
            if "layouts" not in rec:
                continue
            if k["correct"] is False:
                failures.append(f"{v} {cid}: the kernel's data came out wrong")
            if report is not None:
                pred = (predict_from_report(report[cid], case) if cid in report
                        else {"error": "not in the report"})
                if "error" in pred:
                    failures.append(f"{v} {cid}: through the report: {pred['error']}")
                    continue
            else:
                pred = predicted[cid]
            for side in ("store", "load"):
                p = (pred or {}).get(side)
                if not isinstance(p, dict) or "wavefronts" not in p:
                    continue
                model = p
                if case["kind"] == "async" and side == "load":
                    # ptxas puts 3 never-executed `@!PT LDS` after the cp.async group: the
                    # instruction counter counts them (issued), the wavefront counter does not.
                    p = dict(p, instructions=p["instructions"] + 3 * case["num_warps"])
                if case["kind"] == "async" and side == "store":
                    continue  # cp.async's shared side: no ncu metric on this GPU
                # The isolated re-measurement's launches as emitted are more launches of the
                # same kernel: they tell a counter that varies from a model that is wrong.
                runs = k["runs"] + iso_kernels.get(cid, {}).get("plain", [])
                kind = classify(p, runs, side)
                key = f"{v}/{cid}/{side}"
                score_predictor(scored[f"{case['kind']} {side}"], predictor.get(cid), p,
                                k["runs"][0][side], side, kind == "exact")
                if cid in iso_kernels:
                    again = iso_kernels[cid]
                    iso_tally["sides"] += 1
                    iso_tally["exact as launched"] += kind == "exact"
                    iso_tally["exact isolated"] += exact_isolated(p, again["isolated"], side)
                    iso_tally["plain exact again"] += exact_isolated(p, again["plain"], side)
                    if kind == "exact" and not exact_isolated(p, again["isolated"], side):
                        iso_tally["exact, not isolated"] += 1
                    if kind != "exact" and exact_isolated(p, again["isolated"], side):
                        kind = "isolated"
                if kind is None and instruction_level(model, sass.get(v, {}).get(cid), side):
                    kind = "instruction-level"
                if kind is None and key in static:
                    kind = "listed"
                    used.add(key)
                elif kind is None and key in known:
                    kind = "listed"
                    used.add(key)
                elif kind is not None and key in known:
                    failures.append(f"{key}: listed in gpu_known_differences.json but {kind}")
                tally[f"{case['kind']} {side}"][kind or "DIFFERS"] += 1
                sides.append({"kernel": cid, "op": OP_OF[case["kind"], side], "side": side,
                              "kind": case["kind"], "arch": case["arch"],
                              "dtype": case["dtype"], "shape": case["shape"],
                              "warps": case["num_warps"], "instruction": p.get("instruction"),
                              "predicted": [model["wavefronts"], model["instructions"]],
                              "issued": p["instructions"],
                              "measured": [r[side] for r in runs],
                              "instruction_level": [r.get(f"{side}_sass") for r in
                                                    (sass.get(v, {}).get(cid) or {}).get(
                                                        "runs", [])],
                              "verdict": kind or "DIFFERS",
                              "reason": static.get(key) or known.get(key)})
                if kind is None:
                    failures.append(f"{key} ({case['kind']}, {case['arch']}, {case['dtype']} "
                                    f"{case['shape']}): predicted {p['wavefronts']} wavefronts / "
                                    f"{p['instructions']} instructions ({p.get('instruction')}), "
                                    f"measured {k['runs'][0][side]}")
        for cid in d["faulted"]:
            case, rec = cases[cid], recorded.get(cid, {})
            pred = (predict_from_report(report[cid], case) if report is not None
                    else predicted[cid])
            if not any((pred.get(s) or {}).get("misaligned_accesses") for s in ("store", "load")):
                failures.append(f"{v} {cid}: faulted on the GPU, the model predicts no misaligned "
                                "access")
        print(("Through `llcheck report` of each kernel's TTGIR: " if report is not None
               else "") +
              f"Triton {v} on {data['gpu'][0]}: {len(d['kernels'])} kernels measured, "
              f"{len(d['faulted'])} faulted (misaligned vectors in padded layouts, each predicted)")
        for side, counts in sorted(tally.items()):
            n = sum(counts.values())
            row = ", ".join(f"{c} {counts[c]}" for c in ("exact", "isolated", "a repeat",
                                                          "varies", "offset",
                                                          "instruction-level", "listed",
                                                          "DIFFERS") if counts[c])
            both = counts["exact"] + counts["isolated"]
            print(f"  {side:<14} {n:4d} sides: {row} "
                  f"({100.0 * counts['exact'] / n:.1f}% exact as launched"
                  + (f", {100.0 * both / n:.1f}% with the isolated launches" if iso_kernels
                     else "") + ")")
        for side, t in sorted(scored.items()):
            if not t["sides"]:
                continue
            print(f"  Triton's get_shared_bank_conflicts, {side}: answers {t['answered']} of "
                  f"{t['sides']} sides ({t['refused']} refused: padded layouts, nvmma blocks too "
                  f"small for the swizzle); equals the measured excess per phase on "
                  f"{t['triton exact']} ({100.0 * t['triton exact'] / max(t['answered'], 1):.1f}%)"
                  f"; llcheck exact (as launched) on the same {t['answered']}: {t['llcheck exact']} "
                  f"({100.0 * t['llcheck exact'] / max(t['answered'], 1):.1f}%)")
        if args.report_dir and report is not None:
            write_conformance(os.path.join(args.report_dir, f"triton-lowering-{v}"), v, data["gpu"],
                              len(d["kernels"]), d["faulted"], sides, tally)
        if iso_kernels:
            t = iso_tally
            print(f"  isolated re-measurement: {len(iso_kernels)} kernels, {t['sides']} sides, "
                  f"each launched again as emitted and with ISOLATE: exact in every launch "
                  f"{t['plain exact again']} as emitted, {t['exact isolated']} isolated; "
                  f"{t['exact, not isolated']} sides exact as first launched are not exact in "
                  f"every isolated launch")
    for key in sorted(set(known) - used - set(static)):
        failures.append(f"{key}: listed in gpu_known_differences.json, not measured or no longer "
                        "different")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


OP_OF = {("local", "store"): "ttg.local_alloc", ("local", "load"): "ttg.local_load",
         ("convert", "store"): "ttg.convert_layout", ("convert", "load"): "ttg.convert_layout",
         ("async", "load"): "ttg.local_load"}

VERDICTS = {
    "exact": "the first launch measured the prediction (wavefronts and instructions)",
    "isolated": "every launch with the kernel's other warps held back (ISOLATE) measured it",
    "a repeat": "another launch of the same kernel measured it",
    "varies": "the instruction count is predicted; the wavefronts vary between launches, "
              "never below the prediction",
    "offset": "the instruction count is predicted; the wavefronts are 1 to 4 above it in every "
              "launch",
    "instruction-level": "ncu's instruction-level counts (each executed instruction's own "
                         "wavefronts, and the instructions executed) equal the prediction in "
                         "every launch of the SASS run",
    "listed": "a static difference of known_differences.json (Triton's code is not the "
              "model's)",
    "DIFFERS": "unexplained",
}


def instruction_family(name):
    """ld.shared / st.shared (any width), ldmatrix / stmatrix, with .trans apart."""
    name = name or "none"
    for family in ("ldmatrix", "stmatrix"):
        if family in name:
            return family + (".trans" if ".trans" in name else "")
    return ".".join(name.split(".")[:2])


def write_conformance(folder, version, gpu, kernels, faulted, sides, tally):
    """The committed Triton report of one release: every measured side of every kernel with the
    op `llcheck report` predicted it for, the prediction, every launch's counters and the
    verdict (conformance.json), and a summary per op (README.md)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "conformance.json"), "w") as f:
        f.write('{"triton": %s, "gpu": %s, "kernels": %d, "faulted": %s, "sides": [\n' % (
            json.dumps(version), json.dumps(gpu), kernels, json.dumps(sorted(faulted))))
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in sides))
        f.write("\n]}\n")
    lines = [f"# Triton {version}'s own kernels: predicted and measured, per op", "",
             "Generated from the committed measurements of tests/triton/lowering/ (do not "
             "edit; `test_gpu_measured.py` regenerates it and fails when it differs): in "
             "tests/triton/lowering, `python3 gpu_check.py check data/gpu-h200.json "
             "data/gpu-h200-more.json --isolated data/gpu-h200-isolated.json "
             "data/gpu-h200-isolated-more.json --instruction-level data/gpu-h200-sass.json "
             "--through-report --report-dir ../../../reports`.",
             "", f"GPU: {'; '.join(gpu)}. {kernels} kernels measured (Gluon round trips through "
             f"shared memory, `convert_layout`s and async copies over random layouts, "
             f"Triton {version}'s own PTX and SASS), {len(faulted)} faulted (misaligned vectors "
             "into padded layouts, each predicted by the report as misaligned).", "",
             "Each side's prediction is the `predicted` of its op in `llcheck report --triton "
             f"{version} --hardware sm90 --no-z3` of the kernel's own TTGIR as Triton wrote it; "
             "the measured counts are the L1TEX shared-memory wavefronts and the warp-level "
             "instructions executed (ldmatrix/stmatrix included), per launch, from "
             "`conformance.json`.", "",
             "| op | side | sides | exact as launched | instruction-level exact | "
             "explained otherwise | differs |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for key, counts in sorted(tally.items()):
        kind, side = key.split()
        n = sum(counts.values())
        other = n - counts["exact"] - counts["DIFFERS"]
        level = sum(1 for r in sides if (r["kind"], r["side"]) == (kind, side)
                    and r["instruction_level"]
                    and all(x == r["predicted"] for x in r["instruction_level"]))
        lines.append(f"| {OP_OF[kind, side]} ({kind}) | {side} | {n} | {counts['exact']} "
                     f"({100.0 * counts['exact'] / n:.1f}%) | {level} ({100.0 * level / n:.1f}%) "
                     f"| {other} | {counts['DIFFERS']} |")
    lines += ["", "Per instruction (Triton's PTX instruction as the report predicts it):", "",
              "| instruction | sides | exact as launched | instruction-level exact |",
              "| --- | --- | ---: | ---: |"]
    for family in sorted({instruction_family(r["instruction"]) for r in sides}):
        rows = [r for r in sides if instruction_family(r["instruction"]) == family]
        exact = sum(r["verdict"] == "exact" for r in rows)
        level = sum(1 for r in rows if r["instruction_level"]
                    and all(x == r["predicted"] for x in r["instruction_level"]))
        lines.append(f"| {family} | {len(rows)} | {exact} ({100.0 * exact / len(rows):.1f}%) | "
                     f"{level} ({100.0 * level / len(rows):.1f}%) |")
    lines += ["", "Verdicts:", ""]
    lines += [f"- `{k}`: {text}" for k, text in VERDICTS.items()]
    lines += ["", "Every side that is not `exact`:", "",
              "| kernel | op | side | instruction | predicted | first launch | verdict |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in sides:
        if r["verdict"] != "exact":
            first = [int(x) for x in r["measured"][0]]
            verdict = r["verdict"] + (f" ({r['reason']})" if r["reason"] else "")
            lines.append(f"| {r['kernel']} | {r['op']} | {r['side']} | {r['instruction']} | "
                         f"{r['predicted'][0]} / {r['predicted'][1]} | {first[0]} / {first[1]} | "
                         f"{verdict} |")
    with open(os.path.join(folder, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def report_of(llcheck, tar, version, extra=()):
    """`llcheck report` of every TTGIR in the tarball `tar` (record.py --keep's files: each
    case's TTGIR, with its SASS beside it where kept), as {case id: the kernel's entry of
    report.json}."""
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(tar) as t:
            t.extractall(tmp, filter="data")
        out = os.path.join(tmp, "report")
        proc = subprocess.run([llcheck, "report", tmp, "--out", out, "--triton", version,
                               "--no-z3", "--quiet", *extra], capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            sys.exit(f"llcheck report {tar}: exit {proc.returncode}: {proc.stderr.strip()}")
        with open(os.path.join(out, "report.json")) as f:
            kernels = json.load(f)["kernels"]
    return {os.path.splitext(os.path.basename(k["file"]))[0]: k for k in kernels}


def predict_from_report(kernel, case):
    """The sides of one kernel as `llcheck report` predicts them from Triton's TTGIR (its ops'
    `predicted`), in gc.predict's form; an {"error"} when the report has no such op."""
    ops = {}
    for o in kernel["ops"]:
        ops.setdefault(o["op"], []).append(o)

    def one(name):
        found = ops.get(name, [])
        return found[0]["predicted"] if len(found) == 1 else None

    if case["kind"] == "convert":
        p = one("ttg.convert_layout")
        if not isinstance(p, dict):
            return {"error": f"{len(ops.get('ttg.convert_layout', []))} convert_layout ops"}
        if not p.get("shared_memory"):
            return {"store": None, "load": None}
        return {"store": p["store"], "load": p["load"]}
    load = one("ttg.local_load")
    store = one("ttg.local_alloc") if case["kind"] == "local" else None
    if not isinstance(load, dict) or (case["kind"] == "local" and not isinstance(store, dict)):
        return {"error": "no single local_alloc / local_load op in the report"}
    return {"store": (store or {}).get("store"), "load": load.get("load")}


def check_exit(args):
    """The early-exit cases (cases-exit.json, kernels ending in Triton's own masked store): the
    load side as `llcheck report` predicts it from the TTGIR and the SASS beside it
    (`predicted.early_exit`), the store side as the report's local_alloc predicts it, against
    the counters. Sorted as in `check` (exact, a repeat, varies, offset); anything else fails."""
    data = load_data([args.data])
    cases = {c["id"]: c for c in json.load(open(os.path.join(HERE, "data",
                                                              "cases-exit.json")))["cases"]}
    static = {side: name for name, cls in json.load(open(os.path.join(
        HERE, "known_differences.json")))["classes"].items() for side in cls["cases"]}
    failures = []
    for v, d in sorted(data["versions"].items()):
        if args.version and v != args.version:
            continue
        report = report_of(args.llcheck, os.path.join(HERE, "data", f"exit-{v}.tar.xz"), v)
        tally = defaultdict(lambda: defaultdict(int))
        exits = defaultdict(int)
        for cid, k in sorted(d["kernels"].items()):
            case = cases[cid]
            if k["correct"] is False:
                failures.append(f"{v} {cid}: the kernel's data came out wrong")
            kernel = report.get(cid)
            if kernel is None:
                failures.append(f"{v} {cid}: measured, but not in the report")
                continue
            pred = predict_from_report(kernel, case)
            if "error" in pred:
                failures.append(f"{v} {cid}: {pred['error']}")
                continue
            if pred["load"] is None:
                exits["no shared memory"] += 1  # a convert_layout Triton does without it
                continue
            ops = [o for o in kernel["ops"] if isinstance(o.get("predicted"), dict)]
            last = [o for o in ops if "early_exit" in o["predicted"]]
            if not last:
                failures.append(f"{v} {cid}: the report predicts no early exit")
                continue
            x = last[-1]["predicted"]["early_exit"]
            if "note" in x:
                failures.append(f"{v} {cid}: {x['note']}")
                continue
            issued = pred["load"]
            preds = {"load": {"wavefronts": x["wavefronts_executed"],
                              "instructions": x["instructions_executed"]},
                     "store": pred["store"]}
            exits["kernels"] += 1
            exits["with exiting warps"] += x["exiting_warps"] > 0
            exits["count changed"] += x["instructions_executed"] != issued["instructions"]
            for side, p in preds.items():
                if p is None:
                    continue
                key = f"{v}/c{cid[1:]}/{side}"  # the probe case it was drawn from
                first = k["runs"][0][side]
                if side == "load" and p["wavefronts"] is None:
                    # Lanes exit too (see the report's `lanes_exit`): the instruction count is
                    # predicted, the wavefronts only bounded.
                    values = [r[side][0] for r in k["runs"]]
                    bound = x["wavefronts_executed_at_most"]
                    kind = None
                    if first[1] == p["instructions"] and min(values) <= bound:
                        kind = "lanes exit (bound)"
                    elif first[1] == p["instructions"] and len(set(values)) > 1:
                        kind = "varies"
                else:
                    kind = classify(p, k["runs"], side)
                if kind is None and key in static:
                    kind = "listed"
                tally[f"{case['kind']} {side}"][kind or "DIFFERS"] += 1
                if side == "load" and x["instructions_executed"] != issued["instructions"]:
                    exits["changed and exact"] += kind == "exact"
                    if kind != "exact":
                        exits[f"changed, {kind or 'DIFFERS'}"] += 1
                    exits["issued would be exact"] += (
                        [issued["wavefronts"], issued["instructions"]] == first)
                if kind is None:
                    failures.append(f"{v}/{cid}/{side} ({case['kind']}, {case['dtype']} "
                                    f"{case['shape']}): predicted {p['wavefronts']} wavefronts / "
                                    f"{p['instructions']} instructions, measured "
                                    f"{k['runs'][0][side]}" + (
                                        f" (early exit: {x})" if side == "load" else ""))
        print(f"Triton {v} early-exit kernels on {data['gpu'][0]}: {exits['kernels']} kernels, "
              f"{exits['with exiting warps']} with warps that exit early; the executed loads "
              f"differ from the issued ones in {exits['count changed']}: predicted exactly in "
              f"{exits['changed and exact']} (the issued count would be exact in "
              f"{exits['issued would be exact']}"
              + "".join(f"; {n[len('changed, '):]} {c}" for n, c in sorted(exits.items())
                        if n.startswith("changed, "))
              + f"); {exits['no shared memory']} conversions without shared memory")
        for side, counts in sorted(tally.items()):
            n = sum(counts.values())
            row = ", ".join(f"{c} {counts[c]}" for c in ("exact", "a repeat", "varies", "offset",
                                                          "lanes exit (bound)", "listed",
                                                          "DIFFERS") if counts[c])
            print(f"  {side:<14} {n:4d} sides: {row} ({100.0 * counts['exact'] / n:.1f}% exact)")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


def check_sass(args):
    """One run of every case with the hardware counters and ncu's instruction-level counts side
    by side (run_gpu_batch.sh SASS=1, collected): per side, how often the prediction equals the
    hardware counter in every launch, and how often it equals the instruction-level count in
    every launch. The instruction-level count is the wavefronts of each executed instruction
    from the addresses its threads used; where it equals the prediction and the hardware counter
    does not, the extra wavefronts are the pipeline's, not the layout's. Fails on a side whose
    instruction-level count differs from the prediction unless a static difference of
    known_differences.json explains it."""
    data = load_data([args.data])
    cases = {c["id"]: c for c in json.load(open(os.path.join(HERE, "data", "cases.json")))["cases"]}
    static = {side: name for name, cls in json.load(open(os.path.join(
        HERE, "known_differences.json")))["classes"].items() for side in cls["cases"]}
    failures = []
    for v, d in sorted(data["versions"].items()):
        recorded = {r["id"]: r for r in json.load(open(os.path.join(HERE, "data",
                                                                    f"triton-{v}.json")))["cases"]}
        tally = defaultdict(lambda: defaultdict(int))
        predicted = predictions(args.llcheck, v, list(d["kernels"]), cases, recorded)
        for cid, k in sorted(d["kernels"].items()):
            case, rec = cases[cid], recorded.get(cid, {})
            if "layouts" not in rec:
                continue
            pred = predicted[cid]
            for side in ("store", "load"):
                p = (pred or {}).get(side)
                if not isinstance(p, dict) or "wavefronts" not in p:
                    continue
                if case["kind"] == "async" and side == "store":
                    continue  # cp.async's shared side: no ncu metric on this GPU
                runs = k["runs"]
                if any(f"{side}_sass" not in r for r in runs):
                    failures.append(f"{v}/{cid}: no instruction-level counts in every launch")
                    continue
                want = [p["wavefronts"], p["instructions"]]
                hw_want = want
                if case["kind"] == "async" and side == "load":
                    # The three never-executed `@!PT LDS` after the cp.async group are issued
                    # (the hardware counter counts them), never executed (the patch does not).
                    hw_want = [want[0], want[1] + 3 * case["num_warps"]]
                key = f"{v}/{cid}/{side}"
                t = tally[f"{case['kind']} {side}"]
                t["sides"] += 1
                t["launches"] += len(runs)
                t["hardware exact"] += all(r[side] == hw_want for r in runs)
                sass_exact = all(r[f"{side}_sass"] == want for r in runs)
                t["instruction-level exact"] += sass_exact
                if sass_exact:
                    continue
                if all(r[side] == hw_want for r in runs):
                    # The patch computes wavefronts by its own rule, which is not the
                    # hardware's everywhere: c0654 loads 8 bytes a lane where lanes n and n^1
                    # read one address, which an sm90 serves in half the wavefronts (the paired
                    # lanes of docs/bank-conflicts.md, as the model predicts); the patch does not.
                    t["hardware only"] += 1
                    print(f"  {key}: the hardware counter equals the prediction {want} in every "
                          f"launch; the instruction-level count is "
                          f"{[r[side + '_sass'] for r in runs]}")
                elif key in static:
                    t["listed"] += 1
                else:
                    failures.append(f"{key} ({case['kind']}, {case['dtype']} {case['shape']}): "
                                    f"predicted {want} ({p.get('instruction')}), instruction-level "
                                    f"{[r[side + '_sass'] for r in runs]}, hardware "
                                    f"{[r[side] for r in runs]}")
        print(f"Triton {v} on {data['gpu'][0]}, one run with both counts: {len(d['kernels'])} "
              f"kernels, {len(d['faulted'])} faulted")
        for side, t in sorted(tally.items()):
            n = t["sides"]
            either = t["instruction-level exact"] + t["hardware only"]
            print(f"  {side:<14} {n:4d} sides ({t['launches']} launches): instruction-level exact "
                  f"{t['instruction-level exact']} ({100.0 * t['instruction-level exact'] / n:.1f}%)"
                  f"; hardware counter exact {t['hardware exact']} "
                  f"({100.0 * t['hardware exact'] / n:.1f}%); either {either} "
                  f"({100.0 * either / n:.1f}%)"
                  + (f"; listed static differences {t['listed']}" if t["listed"] else ""))
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("run")
    c.add_argument("--padded", required=True, help="run_gpu_extra.sh's output with the padded cases")
    c.add_argument("--repeats", nargs="+", required=True,
                   help="outputs with repeated launches (repeat-V.jsonl, ncu-V-repeat.csv)")
    c.add_argument("-o", required=True)
    ci = sub.add_parser("collect-isolated")
    ci.add_argument("run")
    ci.add_argument("--gpu", nargs="*", default=[], help="the GPU's lines when RUN has no gpu.txt")
    ci.add_argument("-o", required=True)
    k = sub.add_parser("check")
    k.add_argument("data", nargs="+", help="collect's outputs (one per batch of cases)")
    k.add_argument("--isolated", nargs="+",
                   help="run_gpu_isolate.sh's re-measurements (collect-isolated), one per batch")
    k.add_argument("--instruction-level",
                   help="a SASS=1 run (data/gpu-h200-sass.json): a side whose instruction-level "
                        "counts equal the prediction in every launch is sorted as such")
    k.add_argument("--report-dir",
                   help="with --through-report: write each release's committed Triton report, "
                        "DIR/triton-lowering-V/ (conformance.json, README.md)")
    k.add_argument("--through-report", action="store_true",
                   help="predict each side with `llcheck report --hardware sm90` of the kernel's "
                        "own TTGIR (data/ttgir-V.tar.xz) instead of bank-conflicts / convert on "
                        "its layouts")
    k.add_argument("--llcheck", default=os.path.join(HERE, "..", "..", "..", "build", "cli",
                                                     "llcheck"))
    s = sub.add_parser("check-sass")
    s.add_argument("data", help="collect's output of a run with SASS=1 (data/gpu-h200-sass.json)")
    s.add_argument("--llcheck", default=os.path.join(HERE, "..", "..", "..", "build", "cli",
                                                     "llcheck"))
    x = sub.add_parser("check-exit")
    x.add_argument("data", help="collect's output for the cases of cases-exit.json")
    x.add_argument("--version", help="only this Triton release")
    x.add_argument("--llcheck", default=os.path.join(HERE, "..", "..", "..", "build", "cli",
                                                     "llcheck"))
    args = ap.parse_args()
    if args.cmd == "check-exit":
        return check_exit(args)
    if args.cmd == "collect":
        return collect(args)
    if args.cmd == "collect-isolated":
        return collect_isolated(args)
    if args.cmd == "check-sass":
        return check_sass(args)
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
