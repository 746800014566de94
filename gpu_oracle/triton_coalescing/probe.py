"""Triton's own global loads and stores of a distributed layout: for each case a Gluon kernel
loads an MxN row-major tensor in layout L (pointers built with gl.arange in L's slices) and
stores it back, in the same layout, to another buffer. One CTA, so Nsight Compute's counters
are per CTA, as `llcheck coalescing` predicts them.

Three steps (the first two need no GPU):

    python3 probe.py cases -n 800 --seed llcheck-tcoal-1 -o data/cases.json
        draws the cases: plain JSON, no Triton needed (blocked 2-D, slices of rank-3 blocked,
        nvidia_mma v2 / v3, dot operands; int8 / float16 / float32 / float64; 4 or 8 warps).
    /work/venvs/triton-3.6.0/bin/python probe.py record data/cases.json -o data/static-3.6.json
        compiles every case for sm90 with this Python's Triton (a forked child per case; an
        abort costs that case) and records Triton's attribute for L and the global-memory
        instructions of the PTX (per thread: Triton unrolls everything) and of the SASS.
    python3 probe.py run data/cases.json OUT_DIR [--ids FILE]      (on the GPU machine)
        launches each case (one CTA) on a random input and a poisoned output, checks the
        output equals the input, and writes OUT_DIR/run.json; run.sh does this under ncu.
        --warm compiles and launches in parallel, without checking, so that the profiled pass
        finds every kernel in Triton's cache, and lists the cases that ran in OUT_DIR/ok_ids.txt.

compare.py joins these with `llcheck coalescing` on the recorded attributes.
"""
import argparse
import dataclasses
import json
import os
import random
import re
import selectors
import subprocess
import sys
import tempfile
import time

DTYPES = [("int8", 20), ("float16", 30), ("float32", 30), ("float64", 20)]
BITS = {"int8": 8, "float16": 16, "float32": 32, "float64": 64}
PTR = {"int8": "*i8", "float16": "*fp16", "float32": "*fp32", "float64": "*fp64"}
KINDS = [("blocked", 55), ("slice", 15), ("mma2", 9), ("mma3", 9), ("dot", 12)]


# ---- the cases (no Triton needed) ---------------------------------------------------------

# The random layouts of tests/triton/lowering/generate.py (the shared-memory probe's generator),
# so both draw them the same way; only blocked's tile sizes differ.
# Loaded by path under its own name: several test folders have a generate.py, and pytest imports
# them all into one process, so a plain `import generate` gets whichever came first.
def _load_lowering_generate():
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "triton",
                        "lowering", "generate.py")
    module_spec = importlib.util.spec_from_file_location("llcheck_lowering_generate", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


generate = _load_lowering_generate()
dot_operand, mma_v2, mma_v3, pick, spec = (generate.dot_operand, generate.mma_v2, generate.mma_v3,
                                           generate.pick, generate.spec)


def blocked(rng, rank, warps_log2, shape=None):
    # Larger tiles than the shared-memory probe's, mostly fitting the tensor (a coalesced load's).
    return generate.blocked(rng, rank, warps_log2, shape, spt_log2s=(0, 1, 1, 2, 2, 3, 3, 4),
                            fit=0.7)


def draw(rng, i):
    dtype = pick(rng, DTYPES)
    warps_log2 = rng.choice([2, 2, 3])
    total = rng.randint(8, 13)  # 256 to 8192 elements
    m = rng.randint(max(1, total - 9), min(9, total - 1))
    shape = [1 << m, 1 << (total - m)]
    kind = pick(rng, KINDS)
    if kind == "blocked":
        layout = blocked(rng, 2, warps_log2, shape)
    elif kind == "slice":
        layout = spec("slice", dim=rng.randrange(3), parent=blocked(rng, 3, warps_log2))
    elif kind == "mma2":
        layout = mma_v2(rng, warps_log2)
    elif kind == "mma3":
        layout = mma_v3(rng, warps_log2, shape)
    else:
        layout = dot_operand(rng, warps_log2, BITS[dtype], shape)
    return {"id": f"c{i:04d}-{kind}-{dtype}", "kind": kind, "shape": shape, "dtype": dtype,
            "num_warps": 1 << warps_log2, "layout": layout}


def cmd_cases(args):
    rng = random.Random(args.seed)
    cases = [draw(rng, i) for i in range(args.n)]
    with open(args.out, "w") as f:
        json.dump({"seed": args.seed, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    counts = {}
    for c in cases:
        counts[c["kind"]] = counts.get(c["kind"], 0) + 1
    print(f"{len(cases)} cases to {args.out}: {counts}")


# ---- the kernel (Triton from here on) -------------------------------------------------------

def _gluon():
    import triton
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl
    return triton, gluon, gl


_KERNEL = None


def kernel():
    """The copy kernel, defined on first use so that drawing cases needs no Triton."""
    global _KERNEL
    if _KERNEL is None:
        _, gluon, gl = _gluon()

        @gluon.jit
        def copy_kernel(src_ptr, dst_ptr, M: gl.constexpr, N: gl.constexpr, L: gl.constexpr):
            rows = gl.arange(0, M, layout=gl.SliceLayout(1, L))
            cols = gl.arange(0, N, layout=gl.SliceLayout(0, L))
            offs = rows[:, None] * N + cols[None, :]
            x = gl.load(src_ptr + offs)
            gl.store(dst_ptr + offs, x)

        _KERNEL = copy_kernel
    return _KERNEL


def gluon_layout(s):
    """{"encoding", "args"} -> the Gluon layout object (3.6 and 3.9 spell them alike)."""
    _, _, gl = _gluon()
    cls = {"blocked": gl.BlockedLayout, "slice": gl.SliceLayout,
           "nvidia_mma": gl.NVMMADistributedLayout, "dot_op": gl.DotOperandLayout}[s["encoding"]]
    fields = {f.name for f in dataclasses.fields(cls)}
    kwargs = {k: gluon_layout(v) if isinstance(v, dict) else v for k, v in s["args"].items()}
    assert set(kwargs) <= fields, (cls.__name__, kwargs)
    return cls(**kwargs)


def attribute(case):
    """Triton's own printed attribute for L over the case's shape (what llcheck reads), and
    Triton's linear layout of it (its bases: what Triton's vectorization reads)."""
    import triton._C.libtriton as lt
    ctx = lt.ir.context()
    lt.ir.load_dialects(ctx)
    b = lt.gluon_ir.GluonOpBuilder(ctx)
    attr = gluon_layout(case["layout"])._to_ir(b)
    ll = b.to_linear_layout(attr, case["shape"])
    bases = {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases}
    text = str(b.get_distributed_ty(b.get_float_ty(), case["shape"], attr))
    i = text.index("#")
    depth = 0
    for j in range(i, len(text)):
        depth += {"<": 1, ">": -1}.get(text[j], 0)
        if text[j] == ">" and depth == 0:
            return text[i:j + 1], bases
    raise ValueError(text)


def compile_case(case):
    """Compiles for sm90 without a GPU; both pointers 16-byte aligned, as a launch with torch
    tensors specialises them."""
    triton, _, _ = _gluon()
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    M, N = case["shape"]
    sig = {"src_ptr": PTR[case["dtype"]], "dst_ptr": PTR[case["dtype"]], "M": "constexpr",
           "N": "constexpr", "L": "constexpr"}
    attrs = {(0, ): [["tt.divisibility", 16]], (1, ): [["tt.divisibility", 16]]}
    src = GluonASTSource(fn=kernel(), signature=sig, attrs=attrs,
                         constexprs={"M": M, "N": N, "L": gluon_layout(case["layout"])})
    return triton.compile(src, target=GPUTarget("cuda", 90, 32),
                          options={"num_warps": case["num_warps"]})


PTX_GLOBAL = re.compile(r"^\s*(@!?%p\d+\s+)?((?:ld|st)\.global[\w.:]*)", re.M)
SASS_GLOBAL = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?((?:LDG|STG)[A-Z0-9_.]*)")


def ptx_global(ptx):
    """{"ld.global.v4.b32": 4, "st.global.v4.b32": 4, ...} per thread, and how many of them
    carry a predicate (Triton's mask: for stores, the lanes and warps holding copies)."""
    counts, predicated = {}, {}
    for m in PTX_GLOBAL.finditer(ptx):
        counts[m.group(2)] = counts.get(m.group(2), 0) + 1
        if m.group(1):
            predicated[m.group(2)] = predicated.get(m.group(2), 0) + 1
    return counts, predicated


def sass_global(cubin):
    """{"LDG.E.128": 4, ...}: the global loads and stores of the SASS ptxas made."""
    triton, _, _ = _gluon()
    cuobjdump = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin",
                             "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(cubin)
    try:
        text = subprocess.run([cuobjdump, "-sass", f.name], capture_output=True, text=True,
                              check=True).stdout
    finally:
        os.unlink(f.name)
    counts = {}
    for m in SASS_GLOBAL.finditer(text):
        counts[m.group(2)] = counts.get(m.group(2), 0) + 1
    return counts


def record_case(case):
    rec = {"id": case["id"]}
    stage = "attribute"
    try:
        rec["attr"], rec["ll"] = attribute(case)
        stage = "compile"
        k = compile_case(case)
        stage = "inspect"
        rec["ptx"], rec["ptx_predicated"] = ptx_global(k.asm["ptx"])
        rec["sass"] = sass_global(k.asm["cubin"])
    except Exception as e:  # noqa: BLE001 - a case Triton refuses is recorded, not fatal
        rec["error"] = f"{stage}: {type(e).__name__}: {' '.join(str(e).split())[:300]}"
    return rec


def forked(cases, fn, jobs):
    """fn(case) for every case, each in a forked child (an abort costs that case only), at most
    `jobs` at a time; a child that dies is recorded as an error."""
    results = [None] * len(cases)
    running, todo, sel, done = {}, list(enumerate(cases)), selectors.DefaultSelector(), 0
    start = time.time()
    while todo or running:
        while todo and len(running) < jobs:
            i, case = todo.pop(0)
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                try:
                    os.write(w, (json.dumps(fn(case)) + "\n").encode())
                finally:
                    os._exit(0)
            os.close(w)
            f = os.fdopen(r, "rb")
            running[pid] = (i, case, f, bytearray())
            sel.register(f, selectors.EVENT_READ, pid)
        for key, _ in sel.select(timeout=1.0):
            i, case, f, buf = running[key.data]
            chunk = os.read(f.fileno(), 1 << 16)
            if chunk:
                buf.extend(chunk)
                continue
            sel.unregister(f)
            f.close()
            _, status = os.waitpid(key.data, 0)
            del running[key.data]
            results[i] = json.loads(bytes(buf)) if buf.strip() else {
                "id": case["id"], "error": f"aborted (status {status})"}
            done += 1
            if done % 100 == 0:
                print(f"{done}/{len(cases)} in {time.time() - start:.0f} s", flush=True)
    return results


def cmd_record(args):
    triton, _, _ = _gluon()
    with open(args.cases) as f:
        cases = json.load(f)["cases"]
    if args.only:
        cases = [c for c in cases if re.search(args.only, c["id"])]
    start = time.time()
    results = forked(cases, record_case, args.jobs)
    with open(args.out, "w") as f:
        json.dump({"triton": triton.__version__, "target": "cuda:90", "cases": results}, f,
                  separators=(",", ":"))
        f.write("\n")
    errors = sum(1 for r in results if "error" in r)
    print(f"{len(results)} cases, {errors} refused by Triton {triton.__version__}, to {args.out} "
          f"({time.time() - start:.0f} s)")


# ---- on the GPU ------------------------------------------------------------------------------

def launch(case, check=True):
    import torch
    M, N = case["shape"]
    dt = getattr(torch, case["dtype"])
    if dt.is_floating_point:
        x = torch.randn(M, N, device="cuda", dtype=torch.float32).to(dt)
        y = torch.full((M, N), float("nan"), device="cuda", dtype=dt)
    else:
        x = torch.randint(-127, 128, (M, N), device="cuda", dtype=dt)
        y = torch.full((M, N), -128, device="cuda", dtype=dt)  # -128: not written
    k = kernel()[(1,)](x, y, M, N, gluon_layout(case["layout"]), num_warps=case["num_warps"])
    torch.cuda.synchronize()
    rec = {"id": case["id"], "kernel": k.metadata.name}
    if check:
        rec["correct"] = bool(torch.equal(x, y))
        rec["ptx"], _ = ptx_global(k.asm["ptx"])
    return rec


def _warm(case):
    try:
        launch(case, check=False)
        return {"id": case["id"]}
    except Exception as e:  # noqa: BLE001
        return {"id": case["id"], "error": f"{type(e).__name__}: {str(e)[:200]}"}


def cmd_run(args):
    triton, _, _ = _gluon()
    with open(args.cases) as f:
        cases = json.load(f)["cases"]
    if args.ids:
        with open(args.ids) as f:
            keep = set(f.read().split())
        cases = [c for c in cases if c["id"] in keep]
    os.makedirs(args.out_dir, exist_ok=True)
    if args.warm:
        # Each child compiles and launches one kernel: Triton's cache then holds them all.
        res = forked(cases, _warm, args.jobs)
        for r in res:
            if "error" in r:
                print(r["id"], r["error"][:200])
        # The profiled pass takes only these: a case that aborts Triton would end it.
        with open(os.path.join(args.out_dir, "ok_ids.txt"), "w") as f:
            f.write("".join(r["id"] + "\n" for r in res if "error" not in r))
        print(f"warm: {len(res)} kernels, {sum('error' in r for r in res)} errors", flush=True)
        return
    results = []
    for c in cases:
        try:
            rec = launch(c)
        except Exception as e:  # noqa: BLE001 - recorded, not fatal; ncu then has no row for it
            rec = {"id": c["id"], "error": f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"}
        results.append(rec)
        print(rec["id"], rec.get("correct"), rec.get("error", "")[:100], flush=True)
        if len(results) % 50 == 0 or len(results) == len(cases):
            with open(os.path.join(args.out_dir, "run.json"), "w") as f:
                json.dump({"triton": triton.__version__, "cases": results}, f,
                          separators=(",", ":"))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("cases")
    a.add_argument("-n", type=int, default=800)
    a.add_argument("--seed", default="llcheck-tcoal-1")
    a.add_argument("-o", "--out", required=True)
    a = sub.add_parser("record")
    a.add_argument("cases")
    a.add_argument("-o", "--out", required=True)
    a.add_argument("-j", "--jobs", type=int, default=2)
    a.add_argument("--only", help="a regex of case ids")
    a = sub.add_parser("run")
    a.add_argument("cases")
    a.add_argument("out_dir")
    a.add_argument("--ids", help="a file of the case ids to run (whitespace-separated)")
    a.add_argument("--warm", action="store_true")
    a.add_argument("-j", "--jobs", type=int, default=8)
    args = p.parse_args()
    {"cases": cmd_cases, "record": cmd_record, "run": cmd_run}[args.cmd](args)


if __name__ == "__main__":
    main()
