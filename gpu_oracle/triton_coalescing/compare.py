"""Triton's own global loads and stores (probe.py) next to `llcheck coalescing`'s prediction.

Two comparisons, both without a GPU (the measured counters are committed under data/gpu/):

- static, per Triton release (data/static-<v>.json): the vector width and the instructions per
  warp of the PTX's ld.global / st.global (per thread = per warp: Triton unrolls everything)
  against llcheck's `vector_bits` and `instructions_per_warp` (`--triton <v>`);
- measured (data/gpu/: Triton 3.6 on an H100, data/gpu-3.9/: Triton 3.9 on an H200, under
  Nsight Compute): the sectors, requests and
  SASS instructions of loads and stores per CTA against llcheck's `sectors`, `requests` and
  `instructions`, and against the same model applied to the code Triton emitted (its SASS
  vectors, every warp issuing each, a request's sectors the distinct 32-byte segments its lanes
  touch), so that a difference is told apart as Triton's code or the model.

Every difference is classified by `classify` from Triton's own linear layout (its register
bases, as probe.py recorded them) and Triton's vectorization rule, restated here:
the vector is the run of leading register bases along `order[0]` (the dim of the first
non-zero register basis; `LinearEncodingAttr::getOrder` / `getContigPerThread`), capped by the
pointer's alignment along that dim (16 bytes along dim 1; one element along dim 0, where the
offsets `rows * N + cols` are not contiguous) and 128 bits. known_differences.json lists the
classes with their reasons and cases; test_measured.py fails on any other difference.

    python gpu_oracle/triton_coalescing/compare.py [--llcheck build/cli/llcheck] [--write]

--write rewrites known_differences.json's case lists from today's classification (the reasons
stay; a new class gets "TODO", which the test refuses); --out FILE writes every row.
--import-run DIR first joins a GPU run (run.sh's run.json and ncu.csv) into the measured data
of the Triton release that ran it (gpu.txt says which: data/gpu/ for 3.6, data/gpu-3.9/).
"""
import argparse
import concurrent.futures
import csv
import io
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
DEFAULT_LLCHECK = os.path.join(HERE, "..", "..", "build", "cli", "llcheck")
VERSIONS = ["3.6", "3.9"]
# Where each release's measured counters are (data/gpu/ predates the second release).
MEASURED_DIRS = {"3.6": "gpu", "3.9": "gpu-3.9"}
BITS = {"int8": 8, "float16": 16, "float32": 32, "float64": 64}
LLCHECK_DTYPE = {"int8": "i8", "float16": "f16", "float32": "f32", "float64": "f64"}
METRICS = {
    "sectors_ld": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "sectors_st": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "requests_ld": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "requests_st": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "inst_ld": "smsp__sass_inst_executed_op_global_ld.sum",
    "inst_st": "smsp__sass_inst_executed_op_global_st.sum",
}
# Lines test_measured.py leaves for pytest's terminal summary (conftest.py prints them).
SUMMARY = []


def load(path):
    with open(path) as f:
        return json.load(f)


# ---- llcheck ------------------------------------------------------------------------------

def llcheck_coalescing(llcheck, attr, shape, dtype, version):
    proc = subprocess.run([llcheck, "coalescing", attr, "--shape", f"{shape[0]}x{shape[1]}",
                           "--dtype", LLCHECK_DTYPE[dtype], "--triton", version, "--no-z3",
                           "--lowering", "triton", "--format", "json"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout).strip()[:300]}
    return json.loads(proc.stdout)


def predictions(llcheck, queries):
    """{(attr, shape, dtype, version): llcheck's JSON} for each distinct query, in parallel."""
    keys = sorted({(a, tuple(s), d, v) for a, s, d, v in queries})
    with concurrent.futures.ThreadPoolExecutor(max(2, os.cpu_count() or 1)) as pool:
        got = pool.map(lambda k: llcheck_coalescing(llcheck, k[0], k[1], k[2], k[3]), keys)
        return dict(zip(keys, got))


# ---- Triton's code --------------------------------------------------------------------------

def ptx_bits(name):
    """ld.global.v4.b32 -> 128, st.global.b16 -> 16, ld.global.v2.b64 -> 128."""
    m = re.search(r"\.(?:v(\d)\.)?[bsuf](\d+)$", name)
    return int(m.group(1) or 1) * int(m.group(2))


def sass_bits(name):
    """LDG.E.128 -> 128, LDG.E.64 -> 64, LDG.E -> 32, LDG.E.U16 -> 16, STG.E.U8 -> 8."""
    for suffix, bits in ((".128", 128), (".64", 64), ("16", 16), ("8", 8)):
        if name.endswith(suffix):
            return bits
    return 32


def side(counts, prefix, bits_of):
    """The instructions of one side (loads or stores): {"bits": width or None when mixed,
    "count": per thread, "names": {...}}."""
    names = {k: v for k, v in counts.items() if k.startswith(prefix)}
    widths = {bits_of(k) for k in names}
    return {"bits": widths.pop() if len(widths) == 1 else None, "count": sum(names.values()),
            "names": names}


def triton_order(reg):
    """LinearEncodingAttr::getOrder: the dims in the order their first non-zero register
    basis appears, then the others from the last dim down."""
    order = []
    for b in reg:
        for d, x in enumerate(b):
            if x and d not in order:
                order.append(d)
    return order + [d for d in (1, 0) if d not in order]


def triton_vector(ll, shape, bits):
    """Triton's vector (elements) for a load or store of pointers `base + rows * N + cols` in
    this layout: the leading register bases along order[0] (getContigPerThread), capped by the
    alignment along order[0] (16 bytes and the N contiguous elements along dim 1; one element
    along dim 0) and by 128 bits."""
    reg = ll["register"]
    order = triton_order(reg)
    d = order[0]
    contig = 1
    for b in reg:
        want = [0, 0]
        want[d] = contig
        if b != want:
            break
        contig *= 2
    align = min(16 * 8 // bits, shape[1]) if d == 1 else 1
    return min(contig, align, 128 // bits)


def elements(ll):
    """(warp, lane, register) -> (row, col) for every input, by XOR of the bases."""
    def span(bases):
        out = [(0, 0)]
        for b in bases:
            out = out + [(r ^ b[0], c ^ b[1]) for r, c in out]
        return out
    return span(ll["warp"]), span(ll["lane"]), span(ll["register"])


def copy_warps(ll):
    """The warps that hold copies of another warp's data: those with a bit set on a zero warp
    basis (Triton's store masks them off; a load has no mask)."""
    zero = [i for i, b in enumerate(ll["warp"]) if b == [0, 0]]
    return {w for w in range(2 ** len(ll["warp"])) if any(w >> i & 1 for i in zero)}


def model_on_triton(ll, shape, bits, vec, count_sass, store=False):
    """The model applied to Triton's code: per warp, instruction k moves registers
    [k*vec, (k+1)*vec) of every lane (Triton's register order); its request's sectors are the
    distinct 32-byte segments the lanes touch. Where the SASS has fewer instructions than the
    PTX (ptxas dropped loads of the same addresses: copies in registers), the duplicates are
    dropped. With store=True the warps holding copies issue nothing (Triton's mask on them is
    uniform over the warp, and the SASS branches around their stores). Returns per CTA
    {"sectors", "requests"} or None when the SASS count fits neither."""
    warps, lanes, regs = elements(ll)
    n = len(regs) // vec
    total_sectors = 0
    total_requests = 0
    skip = copy_warps(ll) if store else set()
    for wi, w in enumerate(warps):
        if wi in skip:
            continue
        seen = []
        for k in range(n):
            addrs = tuple(tuple(((w[0] ^ ln[0] ^ regs[k * vec + j][0]) * shape[1]
                                 + (w[1] ^ ln[1] ^ regs[k * vec + j][1])) * bits // 8
                                for j in range(vec)) for ln in lanes)
            seen.append(addrs)
        distinct = list(dict.fromkeys(seen))
        if count_sass == len(seen):
            keep = seen
        elif count_sass == len(distinct):
            keep = distinct
        else:
            return None
        for addrs in keep:
            total_sectors += len({a // 32 for lane in addrs for a in lane})
        total_requests += len(keep)
    return {"sectors": total_sectors, "requests": total_requests}


# ---- the classes of difference --------------------------------------------------------------

def classify(case, rec, ours, op):
    """Why Triton's PTX for one side differs from llcheck's prediction (None: it does not).
    Each class is checked, not assumed: Triton's rule above must give the PTX's vector, and
    the count must follow from it."""
    t = side(rec["ptx"], op + ".global", ptx_bits)
    bits = BITS[case["dtype"]]
    if t["bits"] == ours["vector_bits"] and t["count"] == ours["instructions_per_warp"]:
        return None
    reg = rec["ll"]["register"]
    nreg = len(reg)
    zero = sum(1 for b in reg if b == [0, 0])
    vec = triton_vector(rec["ll"], case["shape"], bits)
    if t["bits"] is None or t["bits"] != vec * bits:
        return "unexplained"
    if t["bits"] > ours["vector_bits"]:
        return "unexplained"  # Triton wider than llcheck's widest: llcheck would be wrong
    # Per thread Triton moves every register (3.6) or every distinct one (3.9) in vectors.
    moved = {2 ** nreg // vec, 2 ** (nreg - zero) // vec}
    if t["count"] not in moved:
        return "unexplained"
    if t["bits"] == ours["vector_bits"]:
        # Same vector, more instructions: the copies held in registers.
        if zero and t["count"] == 2 ** nreg // vec:
            return "copies_in_registers"
        return "unexplained"
    # Triton's vector is narrower than llcheck's: which part of Triton's rule stops it.
    order = triton_order(reg)
    if reg and reg[0] == [0, 0]:
        return "leading_register_copy"
    if order[0] == 0:
        return "order_dim0"
    # Along dim 1 Triton stops at the first basis that does not continue the run: the row
    # ends (the run goes on into dim 0, which Triton never crosses), or the next dim-1 basis
    # comes later in the register order.
    if vec == case["shape"][1]:
        return "run_crosses_rows"
    return "register_order"


def lowering_verdict(rec, triton, op):
    """`coalescing --lowering triton` against Triton's code per thread: the vector and count of
    the PTX, or, for a load, of the SASS (3.6 emits a load for every register, copies too, and
    ptxas drops the repeats: what executes is the SASS). "ptx", "sass" or None (differs)."""
    want = triton["load" if op == "ld" else "store"]
    ptx = side(rec["ptx"], op + ".global", ptx_bits)
    if ptx["bits"] == want["vector_bits"] and ptx["count"] == want["instructions_per_warp"]:
        return "ptx"
    sass = side(rec.get("sass", {}), "LDG" if op == "ld" else "STG", sass_bits)
    if op == "ld" and sass["bits"] == want["vector_bits"] and \
            sass["count"] == want["instructions_per_warp"]:
        return "sass"
    return None


def static_rows(llcheck, versions=VERSIONS):
    """One row per (version, case) that Triton compiled: both sides against llcheck."""
    cases = {c["id"]: c for c in load(os.path.join(DATA, "cases.json"))["cases"]}
    recs = {}
    for v in versions:
        path = os.path.join(DATA, f"static-{v}.json")
        if os.path.exists(path):
            recs[v] = [r for r in load(path)["cases"] if "error" not in r]
    preds = predictions(llcheck, [(r["attr"], cases[r["id"]]["shape"], cases[r["id"]]["dtype"], v)
                                  for v, rs in recs.items() for r in rs])
    rows = []
    for v, rs in recs.items():
        for r in rs:
            c = cases[r["id"]]
            ours = preds[(r["attr"], tuple(c["shape"]), c["dtype"], v)]
            row = {"version": v, "id": r["id"], "attr": r["attr"], "shape": c["shape"],
                   "dtype": c["dtype"], "num_warps": c["num_warps"]}
            if "error" in ours:
                row["llcheck_error"] = ours["error"]
                rows.append(row)
                continue
            row["llcheck"] = {"vector_bits": ours["vector_bits"], "load": ours["load"],
                              "store": ours["store"],
                              "instructions_per_warp": ours["instructions_per_warp"]}
            for op in ("ld", "st"):
                t = side(r["ptx"], op + ".global", ptx_bits)
                row[op] = {"bits": t["bits"], "count": t["count"], "names": t["names"],
                           "class": classify(c, r, ours, op),
                           "same_name": list(t["names"]) == [ours["load" if op == "ld"
                                                                  else "store"]],
                           "lowering": lowering_verdict(r, ours["triton"], op)}
            rows.append(row)
    return rows


# ---- the measured counters -----------------------------------------------------------------

def ncu_rows(path):
    """[{metric: value}] per launch, in launch order, from ncu's --csv output."""
    with open(path) as f:
        lines = [ln for ln in f if ln.startswith('"')]
    out = {}
    for row in csv.DictReader(io.StringIO("".join(lines))):
        value = row["Metric Value"].replace(",", "")
        out.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(value) if value else 0.0
    return [out[k] for k in sorted(out)]


def measured_rows(llcheck, version):
    """One row per case measured with Triton `version`: the counters, llcheck's prediction and
    the model applied to Triton's SASS; empty when no GPU data of that release is committed."""
    gpu = os.path.join(DATA, MEASURED_DIRS[version])
    if not os.path.exists(os.path.join(gpu, "measured.json")):
        return []
    measured = load(os.path.join(gpu, "measured.json"))
    cases = {c["id"]: c for c in load(os.path.join(DATA, "cases.json"))["cases"]}
    static = {r["id"]: r for r in load(os.path.join(DATA, f"static-{version}.json"))["cases"]}
    preds = predictions(llcheck, [(static[m["id"]]["attr"], cases[m["id"]]["shape"],
                                   cases[m["id"]]["dtype"], version) for m in measured["cases"]])
    rows = []
    for m in measured["cases"]:
        c, s = cases[m["id"]], static[m["id"]]
        ours = preds[(s["attr"], tuple(c["shape"]), c["dtype"], version)]
        bits = BITS[c["dtype"]]
        row = {"version": version, "id": m["id"], "correct": m["correct"],
               "measured": m["counters"],
               "same_ptx_as_static": m["ptx"] == s["ptx"],
               "llcheck": {k: ours[k] for k in ("sectors", "requests", "instructions",
                                                "vector_bits")}}
        triton = {}
        for op in ("ld", "st"):
            sass = side(s["sass"], "LDG" if op == "ld" else "STG", sass_bits)
            if sass["bits"] is None:
                triton[op] = None
                continue
            got = model_on_triton(s["ll"], c["shape"], bits, sass["bits"] // bits,
                                  sass["count"], store=op == "st")
            issuing = c["num_warps"] - (len(copy_warps(s["ll"])) if op == "st" else 0)
            triton[op] = got and dict(got, instructions=sass["count"] * issuing,
                                      bits=sass["bits"])
        # The loads as issued by the warps that store only (ptxas can exit the copy warps
        # before their loads, whose values only the masked stores read).
        sass = side(s["sass"], "LDG", sass_bits)
        got = sass["bits"] and model_on_triton(s["ll"], c["shape"], bits, sass["bits"] // bits,
                                               sass["count"], store=True)
        triton["ld_storing_warps"] = got and dict(
            got, instructions=sass["count"] * (c["num_warps"] - len(copy_warps(s["ll"]))),
            bits=sass["bits"])
        row["model_on_triton"] = triton
        checks = {}
        for op in ("ld", "st"):
            mc = {k: int(m["counters"][f"{k}_{op}"]) for k in ("sectors", "requests", "inst")}
            checks[op] = {
                "llcheck": {"sectors": mc["sectors"] == ours["sectors"],
                            "requests": mc["requests"] == ours["requests"],
                            "instructions": mc["inst"] == ours["instructions"]},
                "model_on_triton": triton[op] is not None and {
                    "sectors": mc["sectors"] == triton[op]["sectors"],
                    "requests": mc["requests"] == triton[op]["requests"],
                    "instructions": mc["inst"] == triton[op]["instructions"]},
                # llcheck's own prediction of Triton's code (--lowering triton).
                "lowering": {k: mc[m] == ours["triton"]["load" if op == "ld" else "store"][n]
                             for k, m, n in (("sectors", "sectors", "sectors"),
                                             ("requests", "requests", "requests"),
                                             ("instructions", "inst", "instructions"))}}
        row["checks"] = checks
        row["copy_warps"] = len(copy_warps(s["ll"]))
        rows.append(row)
    return rows


def measured_class(row, op, static_class):
    """Why the counters of one side differ from llcheck's prediction (None: they do not, or
    Triton's code differs from llcheck's plan (static_class) and the counters are what the
    model gives for that code)."""
    c = row["checks"][op]
    if all(c["llcheck"].values()):
        return None
    on_triton = bool(c["model_on_triton"]) and all(c["model_on_triton"].values())
    if static_class is not None and on_triton:
        return None
    if static_class is None and on_triton and op == "st" and row["copy_warps"]:
        return "stores_skip_copy_warps"
    exit_model = row["model_on_triton"]["ld_storing_warps"]
    m = row["measured"]
    if static_class is None and op == "ld" and row["copy_warps"] and exit_model and \
            (m["sectors_ld"], m["requests_ld"], m["inst_ld"]) == \
            (exit_model["sectors"], exit_model["requests"], exit_model["instructions"]):
        return "copy_warps_exit_before_loading"
    return "unexplained"


def gpu_import(run_dir):
    """Joins a run's run.json with its ncu.csv (launch order) into the measured data of the
    Triton release that ran it (MEASURED_DIRS)."""
    run = load(os.path.join(run_dir, "run.json"))
    version = ".".join(run["triton"].split(".")[:2])
    if version not in MEASURED_DIRS:
        raise SystemExit(f"{run_dir}: Triton {run['triton']} is none of {sorted(MEASURED_DIRS)}")
    launched = [r for r in run["cases"] if "error" not in r]
    counters = ncu_rows(os.path.join(run_dir, "ncu.csv"))
    if len(counters) != len(launched):
        raise SystemExit(f"{len(launched)} launches but {len(counters)} in ncu.csv")
    cases = []
    for r, m in zip(launched, counters):
        cases.append({"id": r["id"], "correct": r["correct"], "ptx": r["ptx"],
                      "counters": {k: int(m[v]) for k, v in METRICS.items()}})
    with open(os.path.join(run_dir, "gpu.txt")) as f:
        about = f.read().strip().splitlines()
    out = os.path.join(DATA, MEASURED_DIRS[version])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "measured.json"), "w") as f:
        json.dump({"about": about, "errors": [r for r in run["cases"] if "error" in r],
                   "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(cases)} measured cases (Triton {version}) to {os.path.relpath(out, HERE)}/")


# ---- report -------------------------------------------------------------------------------

def static_summary(rows):
    out = []
    for v in VERSIONS:
        rs = [r for r in rows if r["version"] == v and "llcheck" in r]
        if not rs:
            continue
        line = f"Triton {v}: {len(rs)} kernels;"
        for op, name in (("ld", "loads"), ("st", "stores")):
            vec = sum(r[op]["bits"] == r["llcheck"]["vector_bits"] for r in rs)
            cnt = sum(r[op]["count"] == r["llcheck"]["instructions_per_warp"] for r in rs)
            both = sum(r[op]["class"] is None for r in rs)
            name_ = sum(r[op]["same_name"] for r in rs)
            line += f" {name}: vector {vec}, count {cnt}, both {both}, PTX name {name_} equal;"
        classes = {}
        for r in rs:
            for op in ("ld", "st"):
                if r[op]["class"]:
                    classes[r[op]["class"]] = classes.get(r[op]["class"], 0) + 1
        out.append(line + " differing sides by class: " +
                   ", ".join(f"{k} {n}" for k, n in sorted(classes.items())))
        low = {op: sum(r[op]["lowering"] is not None for r in rs) for op in ("ld", "st")}
        out.append(f"  --lowering triton: loads {low['ld']}, stores {low['st']} of {len(rs)} "
                   "as Triton's code (vector and count per thread)")
    return out


def measured_summary(rows):
    if not rows:
        return ["no measured data"]
    out = []
    for v in VERSIONS:
        rs = [r for r in rows if r["version"] == v]
        if not rs:
            out.append(f"measured (Triton {v}): none")
            continue
        out.append(f"measured (Triton {v}, one CTA each): {len(rs)} kernels, "
                   f"{sum(r['correct'] for r in rs)} delivered their data")
        for who in ("llcheck", "model_on_triton", "lowering"):
            parts = []
            for op in ("ld", "st"):
                for k in ("sectors", "requests", "instructions"):
                    n = sum(bool(r["checks"][op][who]) and r["checks"][op][who][k] for r in rs)
                    parts.append(f"{op} {k} {n}")
            out.append(f"  equal to {'llcheck --lowering triton' if who == 'lowering' else who}: "
                       + ", ".join(parts))
    return out


def all_measured_rows(llcheck):
    return [r for v in VERSIONS for r in measured_rows(llcheck, v)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llcheck", default=DEFAULT_LLCHECK)
    ap.add_argument("--import-run", metavar="DIR",
                    help="first join a GPU run's run.json and ncu.csv into data/gpu/")
    ap.add_argument("--write", action="store_true",
                    help="rewrite known_differences.json's case lists from today's classes")
    ap.add_argument("--out", metavar="FILE", help="write every static and measured row here")
    args = ap.parse_args()
    if args.import_run:
        gpu_import(args.import_run)
    srows = static_rows(args.llcheck)
    mrows = all_measured_rows(args.llcheck)
    for line in static_summary(srows) + measured_summary(mrows):
        print(line)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"static": srows, "measured": mrows}, f, separators=(",", ":"))
            f.write("\n")
    if args.write:
        path = os.path.join(HERE, "known_differences.json")
        known = load(path) if os.path.exists(path) else {"classes": {}}
        for cls in known["classes"].values():
            cls["cases"] = {}
        for r in srows:
            for op in ("ld", "st"):
                k = r.get(op, {}).get("class")
                if k:
                    entry = known["classes"].setdefault(k, {"reason": "TODO", "cases": {}})
                    entry["cases"].setdefault(r["version"], {}).setdefault(op, []).append(r["id"])
        known.setdefault("measured", {})
        for cls in known["measured"].values():
            cls["cases"] = {}
        static_class = {(r["version"], r["id"], op): r[op]["class"] for r in srows
                        if "llcheck" in r for op in ("ld", "st")}
        for r in mrows:
            for op in ("ld", "st"):
                k = measured_class(r, op, static_class[(r["version"], r["id"], op)])
                if k:
                    entry = known["measured"].setdefault(k, {"reason": "TODO", "cases": {}})
                    entry["cases"].setdefault(r["version"], {}).setdefault(op, []).append(r["id"])
        with open(path, "w") as f:
            json.dump(known, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
