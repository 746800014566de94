"""Writes the GPU oracle's cases (corpus/oracle/cases.jsonl): layout pairs and shared layouts
for `llcheck oracle`, every layout written out in llcheck's layout JSON so the file stands alone.

Sources, each case's "origin" says which:
- ttgir: every ttg.convert_layout, local_alloc, local_store and local_load of the NVIDIA TTGIR
  corpus (corpus/ttgir/<triton>/cuda-*): for a conversion, llcheck's optimal plan (its shared
  layout and instructions); for local_* ops, the compiler's own shared layout with the register
  layout stored and loaded back, and with ldmatrix where it divides;
- sweep: blocked and nvidia_mma layouts (4 warps) paired on 64x64 and 32x128 in 8-, 16-, 32-
  and 64-bit types, with llcheck's optimal plan;
- sweep-shuffle: blocked layouts whose warps own the same rows, paired: warp shuffles;
- shuffle: the conversions above that llcheck plans as warp shuffles, with their schedule;
- poor: for the conversions above, deliberately poor shared layouts (unswizzled row-major and
  column-major, small-vector swizzles), so that bank conflicts of every degree from 1 to 32 run;
- seed: the seeds' worked examples in corpus/layouts;
- bug: the layouts of Triton's historical layout bugs (triton_bugs.json) that run on NVIDIA;
- paired: layouts whose lanes pair up (lane 1 or lane 2 broadcast) loaded with 64- and 128-bit
  accesses, which an H200 serves in phases of twice the lanes (gpu_oracle/wavefront_rule):
  round trips through unswizzled and swizzled shared layouts, and conversions into them.

    python gpu_oracle/make_cases.py [--llcheck build/cli/llcheck] [--out corpus/oracle/cases.jsonl]
"""
import argparse
import glob
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


class Llcheck:
    def __init__(self, path):
        self.path = path

    def json(self, *args, ok=(0, 1)):
        p = subprocess.run([self.path, *args, "--format", "json"], capture_output=True, text=True)
        if p.returncode not in ok:
            return None
        return json.loads(p.stdout)

    def layout(self, attr, shape):
        return self.json("layout", attr, "--shape", "x".join(map(str, shape)), ok=(0,))


def instruction(name):
    if name.startswith(("ldmatrix", "stmatrix")):
        return "matrix_trans" if ".trans" in name else "matrix"
    return "vector"


def swizzled(vec, per_phase, max_phase, order):
    return (f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, "
            f"order = [{', '.join(map(str, order))}]}}>")


def poor_shared(ll, shape):
    """Unswizzled row- and column-major, and small-vector swizzles of the shape's rank."""
    rank = len(shape)
    row = list(range(rank - 1, -1, -1))
    col = list(range(rank))
    attrs = [("row", swizzled(1, 1, 1, row)), ("col", swizzled(1, 1, 1, col))]
    if rank >= 2:
        attrs += [("vec2", swizzled(2, 1, 4, row)), ("vec4p2", swizzled(4, 2, 4, row)),
                  ("colvec2", swizzled(2, 1, 2, col))]
    out = []
    for name, attr in attrs:
        layout = ll.layout(attr, shape)
        if layout is not None:
            out.append((name, layout))
    return out


def write_pair(tmp, src, dst):
    paths = []
    for name, layout in (("src", src), ("dst", dst)):
        p = os.path.join(tmp, name + ".json")
        with open(p, "w") as f:
            json.dump(layout, f)
        paths.append(p)
    return paths


def conversion_cases(ll, tmp, origin, src, dst, dtype, shape, poor=True):
    """llcheck's optimal plan for SRC -> DST, and the same pair through poor shared layouts."""
    s, d = write_pair(tmp, src, dst)
    plan = ll.json("convert", s, d, "--dtype", dtype)
    if plan is not None and plan.get("kind") == "warp_shuffle":
        return [{"origin": origin + ":shuffle", "kind": "warp_shuffle", "src": src, "dst": dst,
                 "dtype": dtype}]
    if plan is None or plan.get("kind") != "shared_memory":
        return []
    cases = [{"origin": origin + ":optimal", "src": src, "dst": dst, "shared": plan["shared"],
              "dtype": dtype, "store": instruction(plan["store"]["instruction"]),
              "load": instruction(plan["load"]["instruction"])}]
    if poor:
        for name, shared in poor_shared(ll, shape):
            cases.append({"origin": origin + ":" + name, "src": src, "dst": dst, "shared": shared,
                          "dtype": dtype})
    return cases


def round_trip_cases(ll, tmp, origin, reg, shared, dtype):
    """REG stored into the compiler's SHARED and loaded back; with ldmatrix where it divides."""
    r, s = write_pair(tmp, reg, shared)
    counts = ll.json("bank-conflicts", r, s, "--dtype", dtype)
    if counts is None:
        return []
    cases = [{"origin": origin, "src": reg, "dst": reg, "shared": shared, "dtype": dtype}]
    for form, kind in (("plain", "matrix"), ("trans", "matrix_trans")):
        if ((counts.get("ldmatrix") or {}).get(form) or {}).get("divides"):
            cases.append({"origin": origin + ":ldmatrix-" + form, "src": reg, "dst": reg,
                          "shared": shared, "dtype": dtype, "load": kind})
    return cases


def ttgir_cases(ll, tmp, files):
    out = []
    for path in files:
        mod = ll.json("layout", path, "--ops", ok=(0,))
        if mod is None:
            continue
        layouts = {e["id"]: e for e in mod["layouts"]}
        rel = os.path.relpath(path, REPO)
        for op in mod["ops"]:
            if not op.get("src") or not op.get("dst"):
                continue
            src, dst = layouts.get(op["src"]["layout"]), layouts.get(op["dst"]["layout"])
            if not src or not dst or src.get("error") or dst.get("error"):
                continue
            origin = f"ttgir:{rel}:{op['line']}:{op['op']}"
            if op["op"] == "ttg.convert_layout":
                out += conversion_cases(ll, tmp, origin, src["layout"], dst["layout"], op["dtype"],
                                        op["shape"])
            elif op["op"] in ("ttg.local_alloc", "ttg.local_store"):
                out += round_trip_cases(ll, tmp, origin, src["layout"], dst["layout"], op["dtype"])
            elif op["op"] == "ttg.local_load":
                out += round_trip_cases(ll, tmp, origin, dst["layout"], src["layout"], op["dtype"])
    return out


SWEEP_LAYOUTS = {
    "row8": "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "col8": "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>",
    "row4": "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "col4": "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>",
    "row8w": "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>",
    "row2": "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>",
    "col1": "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>",
    "scalar": "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "sq2": "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>",
    "mma2": "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
    "mma2w": "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>",
}


def shuffle_layouts():
    """Blocked layouts whose 4 warps each own the same 16 rows of a 64x64 tensor, split between
    registers and lanes in every way: conversions among them stay inside each warp."""
    out = {}
    for spt0, tpw0 in ((1, 16), (2, 8), (4, 4), (8, 2), (16, 1)):
        for spt1 in (1, 2, 4):
            tpw1 = 32 // tpw0
            if spt1 * tpw1 > 64:
                continue
            for order in ((1, 0), (0, 1)):
                name = f"s{spt0}x{spt1}-t{tpw0}x{tpw1}-o{order[0]}"
                out[name] = (f"#ttg.blocked<{{sizePerThread = [{spt0}, {spt1}], threadsPerWarp = "
                             f"[{tpw0}, {tpw1}], warpsPerCTA = [4, 1], order = [{order[0]}, "
                             f"{order[1]}]}}>")
    return out


def shuffle_cases(ll, tmp):
    """Warp-shuffle conversions: every pair of shuffle_layouts() that llcheck plans as shuffles,
    in 8- to 64-bit elements."""
    out = []
    layouts = {n: ll.layout(a, [64, 64]) for n, a in shuffle_layouts().items()}
    names = sorted(n for n, l in layouts.items() if l is not None)
    for i, a in enumerate(names):
        for b in names[i + 1::3]:  # a third of the pairs: enough kinds, fewer cases
            for dtype in ("i8", "f16", "f32", "f64"):
                origin = f"sweep-shuffle:{a}->{b}:64x64:{dtype}"
                out += [c for c in conversion_cases(ll, tmp, origin, layouts[a], layouts[b], dtype,
                                                    [64, 64], poor=False)
                        if c.get("kind") == "warp_shuffle"]
    return out


def sweep_cases(ll, tmp):
    out = []
    for shape in ([64, 64], [32, 128]):
        for dtype in ("f16", "f32", "i8", "f64"):
            built = {n: ll.layout(a, shape) for n, a in SWEEP_LAYOUTS.items()}
            built = {n: l for n, l in built.items() if l is not None}
            for a in built:
                for b in built:
                    if a == b:
                        continue
                    origin = f"sweep:{a}->{b}:{shape[0]}x{shape[1]}:{dtype}"
                    poor = shape == [64, 64] and dtype in ("f16", "f32")
                    out += conversion_cases(ll, tmp, origin, built[a], built[b], dtype, shape,
                                            poor=poor)
    return out


def seed_cases(ll, tmp):
    blocked = os.path.join(REPO, "corpus", "layouts", "02-seed003-blocked-64x16.json")
    shared = os.path.join(REPO, "corpus", "layouts", "03-seed003-swizzled-shared-vec2-64x16.json")
    out = []
    if os.path.exists(blocked) and os.path.exists(shared):
        with open(blocked) as f:
            reg = json.load(f)
        with open(shared) as f:
            smem = json.load(f)
        reg = reg.get("layout", reg)
        smem = smem.get("layout", smem)
        for dtype in ("f16", "f32"):
            out += round_trip_cases(ll, tmp, "seed:003-blocked-64x16+swizzled-vec2", reg, smem,
                                    dtype)
    return out


def bug_cases(ll, tmp):
    """The layouts of Triton's historical layout bugs (triton_bugs.json), where they run on a
    32-lane NVIDIA GPU: the optimal plan and the poor shared layouts for each."""
    with open(os.path.join(HERE, "triton_bugs.json")) as f:
        bugs = json.load(f)["cases"]
    out = []
    for b in bugs:
        src, dst = ll.layout(b["src"], b["shape"]), ll.layout(b["dst"], b["shape"])
        if src is None or dst is None:
            continue  # 64-lane (AMD) layouts need --threads-per-warp; the oracle runs NVIDIA
        dtype = {"f8E5M2": "f8E5M2", "bf16": "bf16"}.get(b["dtype"], b["dtype"])
        shape = "x".join(map(str, b["shape"]))
        out += conversion_cases(ll, tmp, f"bug:{b['bug']}:{shape}:{dtype}", src["layout"]
                                if "layout" in src else src, dst.get("layout", dst), dtype,
                                b["shape"])
    return out


def paired_cases(ll, tmp):
    """Round trips and conversions whose loads pair lanes: blocked layouts with sizePerThread
    [1, K] (K elements = 64 or 128 bits) over tensors only 1 or 2 vectors wide, so that the
    lanes along dim 1 beyond them broadcast (lane 1 or lane 2 reads what lane 0 reads)."""
    out = []
    bits = {"i8": 8, "f16": 16, "f32": 32, "f64": 64}
    for dtype, b in bits.items():
        for access in (64, 128):
            k = access // b
            for tpw in ((2, 16), (4, 8), (8, 4)):
                for vectors in (1, 2):
                    shape = [64, k * vectors]
                    if k * vectors * 64 > 16384:
                        continue
                    reg_attr = (f"#ttg.blocked<{{sizePerThread = [1, {k}], threadsPerWarp = "
                                f"[{tpw[0]}, {tpw[1]}], warpsPerCTA = [4, 1], order = [1, 0]}}>")
                    reg = ll.layout(reg_attr, shape)
                    if reg is None:
                        continue
                    lanes = next(d for d in reg["ins"] if d["name"] == "lane")["bases"]
                    if not any(all(v == 0 for v in lanes[i]) for i in (0, 1)):
                        continue
                    name = f"paired:b{k}-t{tpw[0]}x{tpw[1]}:{shape[0]}x{shape[1]}:{dtype}"
                    for sname, sattr in (("row", swizzled(1, 1, 1, [1, 0])),
                                         ("vec", swizzled(k, 1, 8, [1, 0])),
                                         ("vec-phase8", swizzled(min(k, 4), 8, 1, [1, 0]))):
                        shared = ll.layout(sattr, shape)
                        if shared is not None:
                            out += round_trip_cases(ll, tmp, f"{name}:{sname}", reg, shared, dtype)
                    src = ll.layout(SWEEP_LAYOUTS["col1"], shape)
                    if src is not None:
                        out += conversion_cases(ll, tmp, f"{name}:from-col1", src, reg, dtype,
                                                shape, poor=False)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llcheck", default=os.path.join(REPO, "build", "cli", "llcheck"))
    ap.add_argument("--out", default=os.path.join(REPO, "corpus", "oracle", "cases.jsonl"))
    ap.add_argument("--triton", default="3.9.0", help="the TTGIR corpus version folder")
    ap.add_argument("--append", choices=["paired"],
                    help="only this source, appended to --out after the cases already there "
                         "(their ids and measurements stay as they are)")
    args = ap.parse_args()
    ll = Llcheck(args.llcheck)
    if args.append:
        with open(args.out) as f:
            existing = [json.loads(line) for line in f if line.strip()]
        origins = {c["origin"] for c in existing}
        with tempfile.TemporaryDirectory() as tmp:
            new = [c for c in paired_cases(ll, tmp) if c["origin"] not in origins]
        with open(args.out, "a") as f:
            for i, c in enumerate(new, start=len(existing)):
                f.write(json.dumps({"id": f"c{i:04d}", **c}, separators=(",", ":")) + "\n")
        print(f"{len(new)} {args.append} cases appended -> {os.path.relpath(args.out, REPO)}")
        return
    files = sorted(glob.glob(os.path.join(REPO, "corpus", "ttgir", args.triton, "cuda-*",
                                          "*.ttgir")))
    with tempfile.TemporaryDirectory() as tmp:
        # New sources go last, so that the ids of the cases already measured stay the same.
        cases = (ttgir_cases(ll, tmp, files) + seed_cases(ll, tmp) + sweep_cases(ll, tmp) +
                 shuffle_cases(ll, tmp) + bug_cases(ll, tmp) + paired_cases(ll, tmp))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        for i, c in enumerate(cases):
            f.write(json.dumps({"id": f"c{i:04d}", **c}, separators=(",", ":")) + "\n")
    kinds = {}
    for c in cases:
        key = c["origin"].split(":")[0]
        kinds[key] = kinds.get(key, 0) + 1
    print(f"{len(cases)} cases -> {os.path.relpath(args.out, REPO)}: {kinds}")


if __name__ == "__main__":
    main()
