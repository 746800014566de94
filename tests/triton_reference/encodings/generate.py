#!/usr/bin/env python3
"""Records Triton's own linear layout of Triton encoding attributes, for llcheck.

For each encoding (blocked, slice, nvidia_mma, dot_op, swizzled_shared, nvmma_shared, amd_mfma,
amd_wmma, padded_shared, shared_linear, linear) the script picks random parameter sets with a
fixed seed, builds the encoding attribute through Gluon and records, for every case, the
attribute text exactly as Triton prints it, the shape, num-warps / threads-per-warp / num-CTAs,
and the linear layout Triton computes for that attribute and shape. Where Triton rejects a
parameter set (a Python exception from Gluon or the bindings, or an LLVM fatal error / failed
assertion that aborts the process), the case records {"error": <Triton's message>} instead.

Nothing here is computed by this script: every recorded layout, printed attribute and error is
Triton's return value. The script only chooses the inputs, and runs each case in a forked child
so that an abort becomes a recorded error.

How each case is obtained (the exact calls; b = gluon_ir.GluonOpBuilder(ctx) on a fresh
ir.context() with ir.load_dialects(ctx)):

  layout = <Gluon layout dataclass>(...)     e.g. ttgl.BlockedLayout(size_per_thread=..., ...)
  attr   = layout._to_ir(b)                  -> b.get_blocked_layout(...) etc.
  text   = str(b.get_distributed_ty(b.get_float_ty(), shape, attr))         distributed
         = str(b.get_shared_mem_desc_ty(elem_ty, shape, attr, shape))       shared
           the attribute is the '#ttg...' part of that type, as MLIR prints it
  ll     = b.to_linear_layout(attr, shape)   -> ttg::toLinearLayout(shape, attr), returned as a
           Gluon DistributedLinearLayout (reg/lane/warp/block bases, shape = out dim sizes) or
           SharedLinearLayout (offset/block bases, alignment)
  str    = str(linear_layout.LinearLayout.from_bases(ins, ["dim0", ...], out sizes, False))
  ttgir  = ir.parse_mlir_module(<a module with one tt.func taking the recorded type, and the
           recorded ttg.num-warps / ttg.threads-per-warp / ttg.num-ctas (4 / 32 for shared
           encodings, which have none)>, ctx), then .verify() and the argument's printed type
           compared with the recorded one: a check that the recorded text parses back

CGA layouts are given to Triton >= 3.6 as bases of the `block` input (Gluon's `cga_layout`, the
attribute's `CGALayout = [...]`); where a case was specified with the older CTAsPerCGA /
CTASplitNum / CTAOrder triple, the bases come from gluon_ir.make_cga_layout(CTAsPerCGA,
CTASplitNum, CTAOrder) and the triple is recorded in the case's "meta"["cga"].

Regenerate (CPU only, no GPU needed), from the repository root:

    python3 -m venv /tmp/tvenv && /tmp/tvenv/bin/pip install triton==3.9.0
    /tmp/tvenv/bin/python tests/triton_reference/encodings/generate.py \\
        -o tests/triton_reference/encodings/encoding_cases.json

The checked-in file was produced exactly so, with Triton 3.9.0 (about 15 s). The output is
byte-for-byte deterministic for a given Triton version: fixed seed, one random stream per
encoding, and no parameter depends on what Triton returns. `--only blocked slice` limits a run
to some encodings. Each encoding's list starts with the fixed cases behind corpus/layouts/*.json
(meta.anchor names the file; each gives exactly that file's bases), then the random ones.

With Triton 3.6.0 (/tmp/tv36/bin/python ... -o /tmp/encoding_cases_36.json) the script runs as
well, but 3.6.0's GluonOpBuilder.to_linear_layout aborts on every shared encoding (it wraps the
result in a LinearEncodingAttr, whose verifier wants a `register` input), amd_wmma cases are
skipped (3.6.0's Gluon AMDWMMALayout takes warps_per_cta/tiles_per_warp, 3.9.0's takes
warp_bases/reg_bases), and 8 blocked layouts differ: where sizePerThread exceeds the shape, 3.6.0
keeps a zero register basis that 3.9.0 leaves out (README.md lists them).
"""

import argparse
import dataclasses
import json
import os
import random
import re
import sys
import tempfile

import triton
import triton._C.libtriton as lt
import triton.experimental.gluon.language as ttgl
from triton.experimental.gluon.language import amd as ttgl_amd

LL = lt.linear_layout.LinearLayout

SEED = 20250131
MAX_SHAPE_BITS = 13          # at most 8192 elements per tensor
SHARED_ENCODINGS = {"swizzled_shared", "nvmma_shared", "padded_shared", "shared_linear"}


# ---- Running one case in a forked child -----------------------------------------------------

def _clean_error(text):
    """Triton's abort message, without build paths, line numbers and nanobind noise."""
    lines = [l.rstrip() for l in text.splitlines()
             if l.strip() and "leaked" not in l and "nanobind" not in l]
    start = None
    for i, l in enumerate(lines):
        if "LLVM ERROR" in l or "Assertion" in l or "error:" in l or "Error" in l:
            start = i
            break
    if start is None:
        return (lines[0] if lines else "aborted with no message")[:600]
    keep = [lines[start]]
    if "LLVM ERROR" in lines[start]:   # multi-line fatal errors (e.g. the surjectivity report)
        for l in lines[start + 1:start + 12]:
            if l.startswith("Stack dump") or l.startswith("#0") or l.startswith("PLEASE"):
                break
            keep.append(l)
    msg = "\n".join(keep)
    msg = re.sub(r"^\S*python\S*: ", "", msg)
    msg = re.sub(r"(/\S+)+\.(cpp|h|td|inc):\d+: ", "", msg)
    return msg[:600]


def run_isolated(fn, *args):
    """Runs fn(emit, *args) in a forked child.

    fn calls emit(key, value) as it goes; each pair reaches the parent at once, so what was
    emitted before an abort is kept. Returns (dict of emitted pairs, abort message or None).
    A Python exception is emitted by fn itself (it knows the stage)."""
    r, w = os.pipe()
    err = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.dup2(err.fileno(), 2)
            os.dup2(err.fileno(), 1)

            def emit(key, value):
                os.write(w, (json.dumps([key, value]) + "\n").encode())

            fn(emit, *args)
        except BaseException as e:  # noqa: BLE001 - reported to the parent
            try:
                os.write(w, (json.dumps(["uncaught", f"{type(e).__name__}: {e}"]) + "\n").encode())
            except Exception:
                pass
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    err.seek(0)
    errtext = err.read().decode(errors="replace")
    err.close()
    out = {}
    for line in data.decode().splitlines():
        k, v = json.loads(line)
        out[k] = v
    aborted = None
    if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0) or "done" not in out:
        aborted = _clean_error(errtext)
    return out, aborted


def _exc(e):
    msg = str(e).strip()
    return f"{type(e).__name__}: {msg}" if msg else type(e).__name__


# ---- Building the Gluon layout of a case ----------------------------------------------------

GLUON_CLASSES = {
    "blocked": ttgl.BlockedLayout,
    "slice": ttgl.SliceLayout,
    "nvidia_mma": ttgl.NVMMADistributedLayout,
    "dot_op": ttgl.DotOperandLayout,
    "swizzled_shared": ttgl.SwizzledSharedLayout,
    "nvmma_shared": ttgl.NVMMASharedLayout,
    "amd_mfma": ttgl_amd.AMDMFMALayout,
    "amd_wmma": ttgl_amd.AMDWMMALayout,
    "padded_shared": ttgl.PaddedSharedLayout,
    "shared_linear": ttgl.SharedLinearLayout,
    "linear": ttgl.DistributedLinearLayout,
}


def gluon_layout(spec):
    """spec = {"encoding": name, "args": {field: value}} (nested for parents)."""
    cls = GLUON_CLASSES[spec["encoding"]]
    fields = {f.name for f in dataclasses.fields(cls)}
    kwargs = {}
    for k, v in spec["args"].items():
        if isinstance(v, dict) and "encoding" in v:
            v = gluon_layout(v)
        if k not in fields:
            raise TypeError(f"this Triton's Gluon {cls.__name__} has no field '{k}' "
                            f"(fields: {sorted(fields)})")
        kwargs[k] = v
    return cls(**kwargs)


ELEM_TY = {8: "get_int8_ty", 16: "get_half_ty", 32: "get_float_ty", 64: "get_double_ty"}


def _attr_from_type(type_text):
    """The encoding attribute inside a printed tensor/memdesc type: the first '#...' up to its
    matching '>'."""
    i = type_text.index("#")
    depth = 0
    for j in range(i, len(type_text)):
        c = type_text[j]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return type_text[i:j + 1]
    raise ValueError("unbalanced type text: " + type_text)


def case_child(emit, case):
    """Everything Triton is asked for one case, in the child process."""
    shape = case["shape"]
    shared = case["encoding"] in SHARED_ENCODINGS
    stage = "gluon"
    try:
        ctx = lt.ir.context()
        lt.ir.load_dialects(ctx)
        b = lt.gluon_ir.GluonOpBuilder(ctx)

        emit("stage", stage)
        layout = gluon_layout(case["spec"])
        emit("gluon", repr(layout))

        stage = "attr"
        emit("stage", stage)
        attr = layout._to_ir(b)

        stage = "type"
        emit("stage", stage)
        try:
            if shared:
                bw = case["spec"]["args"].get("element_bitwidth", 16)
                ety = getattr(b, ELEM_TY.get(bw, "get_half_ty"))()
                ty = b.get_shared_mem_desc_ty(ety, shape, attr, shape)
            else:
                ty = b.get_distributed_ty(b.get_float_ty(), shape, attr)
            emit("type", str(ty))
            emit("attr", _attr_from_type(str(ty)))
        except Exception as e:  # the type verifier rejects attr+shape; the layout may still exist
            emit("type_error", _exc(e))

        stage = "to_linear_layout"
        emit("stage", stage)
        res = b.to_linear_layout(attr, shape)
        emit("result_repr", repr(res))
        if shared:
            ins = [["offset", [list(x) for x in res.offset_bases]],
                   ["block", [list(x) for x in res.block_bases]]]
            emit("alignment", res.alignment)
            out_sizes = None
        else:
            ins = [["register", [list(x) for x in res.reg_bases]],
                   ["lane", [list(x) for x in res.lane_bases]],
                   ["warp", [list(x) for x in res.warp_bases]],
                   ["block", [list(x) for x in res.block_bases]]]
            out_sizes = list(res.shape)
        emit("ins", ins)
        emit("result_shape", out_sizes)

        stage = "str"
        emit("stage", stage)
        rank = len(shape)
        names = [f"dim{i}" for i in range(rank)]
        if out_sizes is None:
            # SharedLinearLayout carries no out sizes: let LinearLayout infer them from the
            # bases (it picks the smallest power of two above every basis value).
            ll = LL.from_bases([(n, bs) for n, bs in ins], names)
        else:
            ll = LL.from_bases([(n, bs) for n, bs in ins], names, out_sizes, False)
        emit("outs", [[n, s] for n, s in ll.out_dims])
        emit("str", str(ll))
        emit("in_dims", [[n, len(bs)] for n, bs in ins])

        emit("done", True)
    except Exception as e:  # a Python-level rejection by Gluon or the bindings
        emit("exc", [stage, _exc(e)])
        emit("done", True)


def ttgir_child(emit, type_text, num_warps, threads, num_ctas):
    """Parses a TTGIR module holding the recorded type, with the recorded module attributes."""
    try:
        ctx = lt.ir.context()
        lt.ir.load_dialects(ctx)
        text = (f'module attributes {{"ttg.num-ctas" = {num_ctas} : i32, '
                f'"ttg.num-warps" = {num_warps} : i32, '
                f'"ttg.threads-per-warp" = {threads} : i32}} {{\n'
                f'  tt.func @f(%arg0: {type_text}) {{\n    tt.return\n  }}\n}}\n')
        with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f:
            f.write(text)
            path = f.name
        emit("path", path)
        emit("stage", "parse")
        try:
            m = lt.ir.parse_mlir_module(path, ctx)
        finally:
            os.unlink(path)
        emit("stage", "verify")
        ok = m.verify()
        emit("verified", bool(ok))
        arg_ty = str(m.get_function("f").args(0).get_type())
        emit("same_type", arg_ty == type_text)
        emit("done", True)
    except Exception as e:
        emit("exc", _exc(e))
        emit("done", True)


def _strip_path(msg, out):
    """The temporary file's name out of a parser message, so reruns give the same bytes."""
    if out.get("path"):
        msg = msg.replace(out["path"], "module.ttgir")
    return msg


def run_case(case):
    out, aborted = run_isolated(case_child, case)
    rec = {"id": case["id"], "params": case["spec"]["args"], "meta": case["meta"],
           "shape": case["shape"]}
    if "gluon" in out:
        rec["gluon"] = out["gluon"]
    if "attr" in out:
        rec["attr"] = out["attr"]
        rec["type"] = out["type"]
    if "type_error" in out:
        rec["type_error"] = out["type_error"]
    failed = None
    if "exc" in out:
        failed = out["exc"]
    elif aborted is not None:
        failed = [out.get("stage", "start"), aborted]
    elif "uncaught" in out:
        failed = [out.get("stage", "start"), out["uncaught"]]
    if failed is not None and failed[0] in ("gluon", "attr", "to_linear_layout", "start"):
        rec["error"] = failed[1]
        rec["error_stage"] = {"gluon": "gluon layout", "attr": "attribute",
                              "to_linear_layout": "to_linear_layout",
                              "start": "start"}[failed[0]]
        return rec
    if failed is not None:
        raise RuntimeError(f"{case['id']}: failed after to_linear_layout: {failed}")
    shared = case["encoding"] in SHARED_ENCODINGS
    ins = out["ins"]
    sizes = {n: 1 << len(bs) for n, bs in ins}
    if shared:
        rec["num_warps"] = None
        rec["threads_per_warp"] = None
    else:
        rec["num_warps"] = sizes["warp"]
        rec["threads_per_warp"] = sizes["lane"]
    rec["num_ctas"] = sizes["block"]
    rec["layout"] = {
        "ins": [{"name": n, "size": 1 << len(bs), "bases": bs} for n, bs in ins],
        "outs": [{"name": n, "size": s} for n, s in out["outs"]],
    }
    if shared:
        rec["alignment"] = out["alignment"]
    rec["str"] = out["str"]
    rec["gluon_result"] = out["result_repr"]
    if not shared and out["result_shape"] != case["shape"]:
        rec["note"] = "out dim sizes differ from the requested shape"
    if shared and [s for _, s in out["outs"]] != case["shape"]:
        rec["note"] = "out dim sizes inferred from the bases differ from the requested shape"
    if "type" in rec:
        t_out, t_abort = run_isolated(ttgir_child, rec["type"],
                                      rec["num_warps"] or 4, rec["threads_per_warp"] or 32,
                                      rec["num_ctas"])
        if t_abort is not None:
            rec["ttgir"] = {"error": _strip_path(t_abort, t_out), "stage": t_out.get("stage")}
        elif "exc" in t_out:
            rec["ttgir"] = {"error": _strip_path(t_out["exc"], t_out), "stage": t_out.get("stage")}
        else:
            rec["ttgir"] = {"verified": t_out["verified"], "same_type": t_out["same_type"]}
    return rec


# ---- Random parameter choices --------------------------------------------------------------

def pow2(e):
    return 1 << e


def log2(n):
    return n.bit_length() - 1


def split_bits(rng, total, parts):
    sizes = [0] * parts
    for _ in range(total):
        sizes[rng.randrange(parts)] += 1
    return sizes


def random_order(rng, rank):
    if rng.random() < 0.5:
        return list(range(rank - 1, -1, -1))
    order = list(range(rank))
    rng.shuffle(order)
    return order


def random_cga(rng, rank, prob=0.3, max_bits=3):
    """None, or a CTAsPerCGA/CTASplitNum/CTAOrder triple with its make_cga_layout bases."""
    if rng.random() >= prob:
        return None
    nbits = rng.randint(1, max_bits)
    per = [pow2(e) for e in split_bits(rng, nbits, rank)]
    split = [pow2(rng.randint(0, log2(c))) for c in per]
    order = random_order(rng, rank)
    bases = [list(x) for x in lt.gluon_ir.make_cga_layout(per, split, order)]
    return {"CTAsPerCGA": per, "CTASplitNum": split, "CTAOrder": order, "bases": bases}


def shape_around(rng, tile, mode=None, max_bits=MAX_SHAPE_BITS, lo=-3, hi=3):
    """A power-of-two shape near `tile`: equal, smaller (broadcast), larger (repetition) or
    mixed, per dimension."""
    if mode is None:
        mode = rng.choice(["exact", "broadcast", "repeat", "mixed", "mixed"])
    shape = []
    for t in tile:
        if mode == "exact":
            d = 0
        elif mode == "broadcast":
            d = rng.randint(lo, 0)
        elif mode == "repeat":
            d = rng.randint(0, hi)
        else:
            d = rng.randint(lo, hi)
        shape.append(max(1, t << d if d >= 0 else t >> -d))
    while sum(log2(s) for s in shape) > max_bits:
        i = max(range(len(shape)), key=lambda k: shape[k])
        shape[i] //= 2
    return shape, mode


def with_cga_args(args, meta, cga):
    if cga is not None:
        args["cga_layout"] = cga["bases"]
        meta["cga"] = {k: cga[k] for k in ("CTAsPerCGA", "CTASplitNum", "CTAOrder")}
        meta["num_ctas"] = pow2(len(cga["bases"]))
    else:
        meta["num_ctas"] = 1


# blocked ---------------------------------------------------------------------------------

def blocked_spec(rng, rank, cga_prob=0.3, lanes_bits=5):
    spt = [pow2(e) for e in split_bits(rng, rng.randint(0, 4), rank)]
    tpw = [pow2(e) for e in split_bits(rng, lanes_bits, rank)]
    nw_bits = rng.randint(0, 3)
    wpc = [pow2(e) for e in split_bits(rng, nw_bits, rank)]
    order = random_order(rng, rank)
    cga = random_cga(rng, rank, cga_prob)
    args = {"size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpc, "order": order}
    meta = {}
    meta["num_warps"] = pow2(nw_bits)
    meta["threads_per_warp"] = pow2(lanes_bits)
    with_cga_args(args, meta, cga)
    split = cga["CTASplitNum"] if cga else [1] * rank
    tile = [s * t * w * c for s, t, w, c in zip(spt, tpw, wpc, split)]
    return {"encoding": "blocked", "args": args}, meta, tile


def gen_blocked(rng, n):
    cases = []
    ranks = [1] * 14 + [2] * 34 + [3] * 20
    for i in range(n):
        rank = ranks[i % len(ranks)]
        spec, meta, tile = blocked_spec(rng, rank)
        shape, mode = shape_around(rng, tile)
        meta["shape_mode"] = mode
        cases.append((spec, meta, shape))
    return cases


# nvidia_mma --------------------------------------------------------------------------------

def mma_spec(rng, version=None, rank=2, cga_prob=0.25):
    if version is None:
        version = rng.choice([2, 2, 3])
    if version == 2:
        nw_bits = rng.randint(0, 3)
        wpc = [pow2(e) for e in split_bits(rng, nw_bits, rank)]
        instr = [16, 8] if rank == 2 else [1, 16, 8]
        minor = rng.choice([0, 0, 1])
        tile = [i * w for i, w in zip(instr, wpc)]
    else:
        rank = 2
        choice = rng.random()
        if choice < 0.85:
            wpc = rng.choice([[4, 1], [4, 1], [4, 2], [8, 1], [4, 2]])
        else:
            wpc = rng.choice([[2, 2], [1, 4], [2, 1]])   # not multiples of a warp group
        nw_bits = log2(wpc[0] * wpc[1])
        n = rng.choice([8, 16, 32, 64, 64, 128, 128, 256])
        k = rng.choice([8, 16, 16, 32])
        instr = [16, n, k]
        minor = 0
        tile = [16 * wpc[0], n * wpc[1]]
    cga = random_cga(rng, rank, cga_prob)
    args = {"version": [version, minor], "warps_per_cta": wpc, "instr_shape": instr}
    meta = {}
    meta["num_warps"] = pow2(nw_bits)
    meta["threads_per_warp"] = 32
    with_cga_args(args, meta, cga)
    split = cga["CTASplitNum"] if cga else [1] * rank
    tile = [t * s for t, s in zip(tile, split)]
    return {"encoding": "nvidia_mma", "args": args}, meta, tile


def gen_nvidia_mma(rng, n):
    cases = []
    for i in range(n):
        kind = i % 6
        if kind in (0, 1, 2):
            spec, meta, tile = mma_spec(rng, 2, 2)
        elif kind == 3:
            spec, meta, tile = mma_spec(rng, 2, 3)
        else:
            spec, meta, tile = mma_spec(rng, 3)
        shape, mode = shape_around(rng, tile, lo=-2, hi=2)
        meta["shape_mode"] = mode
        cases.append((spec, meta, shape))
    return cases


# slice -------------------------------------------------------------------------------------

def gen_slice(rng, n):
    cases = []
    for i in range(n):
        kind = i % 5
        if kind == 0 or kind == 1:       # slice of blocked, rank 2 or 3
            rank = 2 if kind == 0 else 3
            pspec, pmeta, ptile = blocked_spec(rng, rank, cga_prob=0.2)
            dims = [rng.randrange(rank)]
        elif kind == 2:                  # slice of nvidia_mma v2 (rank 2 or 3) or v3
            version = rng.choice([2, 3])
            rank = 3 if (version == 2 and rng.random() < 0.35) else 2
            pspec, pmeta, ptile = mma_spec(rng, version, rank, cga_prob=0.2)
            dims = [rng.randrange(rank)]
        elif kind == 3:                  # nested: slice of slice of blocked (rank 3)
            rank = 3
            pspec, pmeta, ptile = blocked_spec(rng, rank, cga_prob=0.2)
            dims = [rng.randrange(3), rng.randrange(2)]
        else:                            # nested: slice of slice of nvidia_mma v2 rank 3
            rank = 3
            pspec, pmeta, ptile = mma_spec(rng, 2, 3, cga_prob=0.2)
            dims = [rng.randrange(3), rng.randrange(2)]
        pshape, mode = shape_around(rng, ptile, lo=-2, hi=2)
        spec = pspec
        shape = list(pshape)
        for d in dims:
            spec = {"encoding": "slice", "args": {"dim": d, "parent": spec}}
            del shape[d]
        meta = {"dims": dims, "parent": pspec["encoding"], "parent_meta": pmeta,
                  "parent_shape": pshape, "shape_mode": mode,
                  "num_warps": pmeta["num_warps"], "num_ctas": pmeta["num_ctas"]}
        cases.append((spec, meta, shape))
    return cases


# dot_op ------------------------------------------------------------------------------------

def gen_dot_op(rng, n):
    cases = []
    for i in range(n):
        kind = i % 8
        op = rng.randint(0, 1)
        if kind <= 3:                     # parent mma v2, rank 2
            pspec, pmeta, ptile = mma_spec(rng, 2, 2, cga_prob=0.15)
            kw = rng.choice([1, 2, 2, 4, 4, 8, 16]) if rng.random() > 0.05 else 0
            rank = 2
        elif kind == 4:                   # parent mma v2, rank 3 (batched)
            pspec, pmeta, ptile = mma_spec(rng, 2, 3, cga_prob=0.1)
            kw = rng.choice([1, 2, 4, 8])
            rank = 3
        elif kind <= 6:                   # parent mma v3 (A from registers; B is rejected)
            pspec, pmeta, ptile = mma_spec(rng, 3, 2, cga_prob=0.15)
            op = 0 if rng.random() < 0.8 else 1
            kw = rng.choice([1, 2, 2, 4, 4, 8])
            rank = 2
        else:                             # parent blocked (FMA dot): kWidth 0
            rank = rng.choice([2, 2, 3])
            pspec, pmeta, ptile = blocked_spec(rng, rank, cga_prob=0.15)
            kw = 0 if rng.random() < 0.85 else rng.choice([1, 2])
        # operand shape: [.., M, K] for A (op 0), [.., K, N] for B (op 1)
        k = pow2(rng.randint(1, 7))
        if op == 0:
            base = list(ptile[:-1]) + [k]
        else:
            base = list(ptile[:-2]) + [k, ptile[-1]]
        shape, mode = shape_around(rng, base, lo=-1, hi=2)
        args = {"operand_index": op, "parent": pspec, "k_width": kw}
        meta = {"operand_index": op, "k_width": kw, "parent": pspec["encoding"],
                  "parent_meta": pmeta, "shape_mode": mode,
                  "num_warps": pmeta["num_warps"], "num_ctas": pmeta["num_ctas"]}
        cases.append(({"encoding": "dot_op", "args": args}, meta, shape))
    return cases


# swizzled_shared ---------------------------------------------------------------------------

def gen_swizzled_shared(rng, n):
    cases = []
    ranks = [1] * 8 + [2] * 36 + [3] * 16
    for i in range(n):
        rank = ranks[i % len(ranks)]
        vec = pow2(rng.randint(0, 4))
        per_phase = pow2(rng.randint(0, 3))
        max_phase = pow2(rng.randint(0, 4))
        order = random_order(rng, rank)
        cga = random_cga(rng, rank, 0.2, max_bits=2)
        args = {"vec": vec, "per_phase": per_phase, "max_phase": max_phase, "order": order}
        meta = {}
        with_cga_args(args, meta, cga)
        bits = rng.randint(max(rank, 4), 12)
        shape = [pow2(e) for e in split_bits(rng, bits, rank)]
        if cga:
            shape = [s * c for s, c in zip(shape, cga["CTASplitNum"])]
        cases.append(({"encoding": "swizzled_shared", "args": args}, meta, shape))
    return cases


# nvmma_shared ------------------------------------------------------------------------------

def gen_nvmma_shared(rng, n):
    cases = []
    for i in range(n):
        rank = 3 if i % 6 == 5 else 2
        swz = [0, 32, 64, 128][i % 4]
        bw = rng.choice([8, 16, 16, 32, 32, 8] + ([64] if i % 10 == 9 else []))
        transposed = rng.random() < 0.35
        fp4 = bw == 8 and swz in (64, 128) and rng.random() < 0.5   # Gluon: 128 B only
        cga = random_cga(rng, rank, 0.2, max_bits=2)
        args = {"swizzle_byte_width": swz, "element_bitwidth": bw, "rank": rank,
                "transposed": transposed, "fp4_padded": fp4}
        meta = {}
        with_cga_args(args, meta, cga)
        # contiguous dim: the last one, or the second-to-last when transposed
        # mostly rows of at least the swizzle width and >= 8 rows (what Triton accepts);
        # about one case in eight narrower or shorter, to record what Triton says then
        odd = rng.random() < 0.125
        e = rng.choice([-1, -2]) if (odd and swz) else rng.randint(0, 2)
        row_bytes = max(swz, 16) << e if e >= 0 else max(swz, 16) >> -e
        inner = max(1, row_bytes * 8 // bw)
        outer = pow2(rng.randint(0, 2) if (odd and not swz) or (odd and e >= 0)
                     else rng.randint(3, 7))
        shape = [outer, inner] if not transposed else [inner, outer]
        if rank == 3:
            batch = pow2(rng.randint(0, 2))
            if transposed and i % 12 == 11:
                # rank 3, transposed: Triton 3.9 accepts a contiguous run along dim0 with the
                # rows along dim2; [batch, inner, outer] (the other rank-3 cases) it mostly rejects
                shape = [inner, batch, outer]
            else:
                shape = [batch] + shape
        if cga:
            shape = [s * c for s, c in zip(shape, cga["CTASplitNum"])]
        while sum(log2(s) for s in shape) > MAX_SHAPE_BITS:
            j = max(range(rank), key=lambda q: shape[q])
            shape[j] //= 2
        cases.append(({"encoding": "nvmma_shared", "args": args}, meta, shape))
    return cases


# amd_mfma ----------------------------------------------------------------------------------

def gen_amd_mfma(rng, n):
    cases = []
    for i in range(n):
        version = [1, 2, 3, 4][i % 4]
        mn = rng.choice([[32, 32], [32, 32], [16, 16], [16, 16], [64, 4], [4, 64]])
        k = {32: rng.choice([8, 16, 4, 2]), 16: rng.choice([16, 32, 4, 8]),
             64: 4, 4: 4}[mn[0]]
        instr = mn + [k]
        rank = 3 if i % 7 == 6 else 2
        nw_bits = rng.randint(0, 3)
        wpc = [pow2(e) for e in split_bits(rng, nw_bits, rank)]
        transposed = rng.random() < (0.75 if mn == [64, 4] else 0.5)
        ebw = 64 if rng.random() < 0.12 else 32
        tpw = [1] * rank
        if rng.random() < 0.3:
            tpw = [pow2(e) for e in split_bits(rng, rng.randint(1, 2), rank)]
        cga = random_cga(rng, rank, 0.15, max_bits=2)
        args = {"version": version, "instr_shape": instr, "transposed": transposed,
                "warps_per_cta": wpc, "element_bitwidth": ebw, "tiles_per_warp": tpw}
        meta = {}
        meta["num_warps"] = pow2(nw_bits)
        meta["threads_per_warp"] = 64
        with_cga_args(args, meta, cga)
        split = cga["CTASplitNum"] if cga else [1] * rank
        tile = ([1] * (rank - 2) + mn)
        tile = [t * w * tp * s for t, w, tp, s in zip(tile, wpc, tpw, split)]
        shape, mode = shape_around(rng, tile, lo=-2, hi=2)
        meta["shape_mode"] = mode
        cases.append(({"encoding": "amd_mfma", "args": args}, meta, shape))
    return cases


# amd_wmma ----------------------------------------------------------------------------------

def unit_bases(rng, bits_per_dim, rank, order=None):
    """Bases 2^j * e_d for j < bits_per_dim[d], dims visited in a random interleaving that keeps
    each dim's powers increasing."""
    seq = []
    for d in range(rank):
        seq += [d] * bits_per_dim[d]
    if order is not None:
        seq = [d for d in order for _ in range(bits_per_dim[d])]
    else:
        rng.shuffle(seq)
    used = [0] * rank
    out = []
    for d in seq:
        v = [0] * rank
        v[d] = pow2(used[d])
        used[d] += 1
        out.append(v)
    return out


def gen_amd_wmma(rng, n):
    cases = []
    for i in range(n):
        version = [1, 2, 3][i % 3]
        rank = 3 if i % 8 == 7 else 2
        nw_bits = rng.randint(0, 3)
        nr_bits = rng.randint(0, 2) if rng.random() < 0.4 else 0
        broadcast = nw_bits > 0 and rng.random() < 0.1
        # warp and register bases in units of one instruction tile: distinct powers of two of
        # each dim, handed out to warps and registers in a random interleaving
        nbits = nw_bits + nr_bits - (1 if broadcast else 0)
        tbits = split_bits(rng, nbits, rank)
        both = unit_bases(rng, tbits, rank)
        pick = set(rng.sample(range(nbits), nr_bits))
        reg_bases = [v for j, v in enumerate(both) if j in pick]
        warp_bases = [v for j, v in enumerate(both) if j not in pick]
        if broadcast:                                          # one warp basis repeats data
            warp_bases.insert(rng.randint(0, len(warp_bases)), [0] * rank)
        if version == 3:
            instr = rng.choice([[16, 16, 32], [16, 16, 32], [16, 16, 64], [16, 16, 4],
                                [16, 16, 128]])
        else:
            instr = [16, 16, 16]
        transposed = rng.random() < 0.5
        cga = random_cga(rng, rank, 0.15, max_bits=2)
        args = {"version": version, "transposed": transposed, "warp_bases": warp_bases,
                "reg_bases": reg_bases, "instr_shape": instr, "rank": rank}
        meta = {}
        meta["num_warps"] = pow2(nw_bits)
        meta["threads_per_warp"] = 32
        with_cga_args(args, meta, cga)
        split = cga["CTASplitNum"] if cga else [1] * rank
        tile = [1] * (rank - 2) + [16, 16]
        tile = [t * pow2(b) * s for t, b, s in zip(tile, tbits, split)]
        shape, mode = shape_around(rng, tile, lo=-2, hi=2)
        meta["shape_mode"] = mode
        cases.append(({"encoding": "amd_wmma", "args": args}, meta, shape))
    return cases


# padded_shared -----------------------------------------------------------------------------

def gen_padded_shared(rng, n):
    cases = []
    fields = {f.name for f in dataclasses.fields(ttgl.PaddedSharedLayout)}
    block_field = "cga_layout" if "cga_layout" in fields else "block_bases"
    for i in range(n):
        rank = [1, 2, 2, 2, 3][i % 5]
        shape = [pow2(e) for e in split_bits(rng, rng.randint(max(rank, 3), 12), rank)]
        order = random_order(rng, rank)
        if rng.random() < 0.6:
            offset_bases = unit_bases(rng, [log2(s) for s in shape], rank, order=order)
            how = "identity for order"
        else:
            offset_bases = unit_bases(rng, [log2(s) for s in shape], rank)
            how = "permuted unit bases"
        npairs = rng.choice([1, 1, 2, 2, 3])
        intervals = rng.sample([pow2(e) for e in range(2, 11)], npairs)
        pairs = [[iv, pow2(rng.randint(0, 3))] for iv in sorted(intervals)]
        block_bases = []
        if rng.random() < 0.2:
            bb = unit_bases(rng, [1 if d == rng.randrange(rank) else 0 for d in range(rank)], rank)
            block_bases = [[v * s for v, s in zip(b, shape)] for b in bb] or [[0] * rank]
        layout_shape = [s * (2 if any(b[d] for b in block_bases) else 1)
                        for d, s in enumerate(shape)]
        args = {"interval_padding_pairs": pairs, "offset_bases": offset_bases,
                block_field: block_bases, "shape": layout_shape}
        meta = {}
        meta["offset_bases_kind"] = how
        meta["order"] = order
        meta["num_ctas"] = pow2(len(block_bases))
        req = list(layout_shape)
        if i % 9 == 8:   # ask for a shape other than the layout's own
            req = [s * 2 for s in req]
            meta["shape_differs_from_layout"] = True
        cases.append(({"encoding": "padded_shared", "args": args}, meta, req))
    return cases


# shared_linear -----------------------------------------------------------------------------

def gen_shared_linear(rng, n):
    cases = []
    for i in range(n):
        rank = [1, 2, 2, 3][i % 4]
        shape = [pow2(e) for e in split_bits(rng, rng.randint(max(rank, 3), 12), rank)]
        bases = unit_bases(rng, [log2(s) for s in shape], rank)
        # swizzle-like: XOR some bases with a lower basis of another dim (stays invertible)
        nb = len(bases)
        for j in range(nb):
            if rng.random() < 0.3:
                cand = [q for q in range(j) if bases[q] != [0] * rank and
                        [a for a, x in enumerate(bases[q]) if x] != [a for a, x in enumerate(bases[j]) if x]]
                if cand:
                    q = rng.choice(cand)
                    bases[j] = [a ^ b for a, b in zip(bases[j], bases[q])]
        block = []
        if rng.random() < 0.25:
            block = [[0] * rank]
        align = rng.choice([16, 16, 128, 1024])
        args = {"offset_bases": bases, "block_bases": block, "alignment": align}
        meta = {}
        meta["num_ctas"] = pow2(len(block))
        req = list(shape)
        if i % 10 == 9:
            req = [s * 2 for s in req]
            meta["shape_differs_from_layout"] = True
        cases.append(({"encoding": "shared_linear", "args": args}, meta, req))
    return cases


# linear (distributed) ----------------------------------------------------------------------

def gen_linear(rng, n):
    cases = []
    for i in range(n):
        rank = [1, 2, 2, 3][i % 4]
        sbits = rng.randint(5, 12)
        shape = [pow2(e) for e in split_bits(rng, sbits, rank)]
        cols = unit_bases(rng, [log2(s) for s in shape], rank)
        nw_bits = rng.randint(0, 3)
        nb_bits = 1 if rng.random() < 0.15 else 0
        lane_bits = 5
        need = lane_bits + nw_bits + nb_bits
        # registers take what is left; extra in-bits beyond the shape become zero bases
        reg_bits = max(0, sbits - need) + rng.randint(0, 1)
        total = reg_bits + need
        cols = cols + [[0] * rank for _ in range(total - len(cols))]
        head, tail = cols[:reg_bits], cols[reg_bits:]
        rng.shuffle(tail)
        if rng.random() < 0.2 and len(head) >= 2:   # a non-permutation (XOR) register basis
            head[1] = [a ^ b for a, b in zip(head[1], head[0])]
        cols = head + tail
        regs = cols[:reg_bits]
        lanes = cols[reg_bits:reg_bits + lane_bits]
        warps = cols[reg_bits + lane_bits:reg_bits + lane_bits + nw_bits]
        blocks = cols[reg_bits + lane_bits + nw_bits:]
        args = {"reg_bases": regs, "lane_bases": lanes, "warp_bases": warps,
                "block_bases": blocks, "shape": shape}
        meta = {}
        meta["num_warps"] = pow2(nw_bits)
        meta["threads_per_warp"] = 32
        meta["num_ctas"] = pow2(nb_bits)
        req = list(shape)
        if i % 8 == 7:
            req = [s * 2 for s in req]
            meta["shape_differs_from_layout"] = True
        elif i % 8 == 3 and max(req) > 1:
            j = max(range(rank), key=lambda q: req[q])
            req[j] //= 2
            meta["shape_differs_from_layout"] = True
        cases.append(({"encoding": "linear", "args": args}, meta, req))
    return cases


# Fixed cases first: the encodings behind corpus/layouts/*.json (each must give that file's
# bases), then the random ones.

def _blocked(spt, tpw, wpc, order):
    return {"encoding": "blocked", "args": {"size_per_thread": spt, "threads_per_warp": tpw,
                                            "warps_per_cta": wpc, "order": order}}


def _swizzled(vec, pp, mp, order):
    return {"encoding": "swizzled_shared",
            "args": {"vec": vec, "per_phase": pp, "max_phase": mp, "order": order}}


def _mma2(wpc):
    return {"encoding": "nvidia_mma",
            "args": {"version": [2, 0], "warps_per_cta": wpc, "instr_shape": [16, 8]}}


def _anchor(spec, shape, corpus_file, num_warps=None):
    meta = {"anchor": "corpus/layouts/" + corpus_file, "num_ctas": 1}
    if num_warps is not None:
        meta["num_warps"] = num_warps
        meta["threads_per_warp"] = 32
    return spec, meta, shape


_B02 = _blocked([4, 2], [8, 4], [2, 2], [1, 0])
ANCHORS = {
    "blocked": [
        _anchor(_B02, [64, 16], "02-seed003-blocked-64x16.json", 4),
        _anchor(_blocked([2, 2], [4, 8], [2, 1], [1, 0]), [16, 16], "08-paper-layout-a-16x16.json", 2),
        _anchor(_blocked([1, 8], [4, 8], [4, 1], [1, 0]), [128, 64],
                "12-blocked-128x64-global-load.json", 4),
        _anchor(_blocked([1, 8], [4, 8], [4, 1], [1, 0]), [8, 64], "13-blocked-8x64-broadcast.json", 4),
        _anchor(_blocked([4], [32], [4], [0]), [512], "16-blocked-1d-512.json", 4),
        _anchor(_blocked([2, 4], [4, 8], [2, 2], [0, 1]), [16, 64],
                "19-blocked-16x64-transpose-of-02.json", 4),
    ],
    "slice": [
        _anchor({"encoding": "slice", "args": {"dim": 1, "parent": _B02}}, [64],
                "20-slice-dim1-of-02.json", 4),
        _anchor({"encoding": "slice", "args": {"dim": 0, "parent": _B02}}, [16],
                "21-slice-dim0-of-02.json", 4),
    ],
    "nvidia_mma": [
        _anchor(_mma2([1, 1]), [16, 8], "11-seed003-mma-m16n8-acc-1warp.json", 1),
        _anchor(_mma2([2, 2]), [32, 32], "25-mma-v2-warps2x2-32x32.json", 4),
        _anchor(_mma2([4, 1]), [64, 64], "26-mma-v2-warps4x1-64x64.json", 4),
    ],
    "dot_op": [
        _anchor({"encoding": "dot_op", "args": {"operand_index": 0, "parent": _mma2([4, 1]),
                                                "k_width": 2}}, [64, 32],
                "27-dot-operand-a-kwidth2-64x32.json", 4),
        _anchor({"encoding": "dot_op", "args": {"operand_index": 1, "parent": _mma2([4, 1]),
                                                "k_width": 2}}, [32, 64],
                "28-dot-operand-b-kwidth2-32x64.json", 4),
    ],
    "swizzled_shared": [
        _anchor(_swizzled(2, 1, 1, [1, 0]), [64, 16], "03-seed003-swizzled-shared-vec2-64x16.json"),
        _anchor(_swizzled(8, 2, 4, [1, 0]), [64, 16],
                "04-seed003-swizzled-shared-vec8-pp2-mp4-64x16.json"),
        _anchor(_swizzled(4, 2, 2, [1, 0]), [32, 32],
                "05-seed003-swizzled-shared-vec4-pp2-mp2-32x32.json"),
        _anchor(_swizzled(1, 1, 1, [1, 0]), [64, 64], "14-shared-unswizzled-rowmajor-64x64.json"),
        _anchor(_swizzled(1, 1, 1, [0, 1]), [64, 64], "15-shared-unswizzled-colmajor-64x64.json"),
        _anchor(_swizzled(8, 1, 8, [1, 0]), [32, 64],
                "24-seed004-swizzled-shared-vec8-pp1-mp8-32x64.json"),
    ],
    "nvmma_shared": [
        _anchor({"encoding": "nvmma_shared",
                 "args": {"swizzle_byte_width": 128, "element_bitwidth": 16, "rank": 2,
                          "transposed": False, "fp4_padded": False}}, [64, 64],
                "29-nvmma-shared-128b-f16-64x64.json"),
    ],
}


GENERATORS = [
    ("blocked", gen_blocked, 70),
    ("slice", gen_slice, 60),
    ("nvidia_mma", gen_nvidia_mma, 60),
    ("dot_op", gen_dot_op, 72),
    ("swizzled_shared", gen_swizzled_shared, 60),
    ("nvmma_shared", gen_nvmma_shared, 60),
    ("amd_mfma", gen_amd_mfma, 56),
    ("amd_wmma", gen_amd_wmma, 48),
    ("padded_shared", gen_padded_shared, 24),
    ("shared_linear", gen_shared_linear, 40),
    ("linear", gen_linear, 48),
]


# ---- Output -------------------------------------------------------------------------------

def dump(data, path):
    """One case per line: small diffs, still plain JSON."""
    with open(path, "w") as f:
        f.write("{\n")
        top = [k for k in data if k != "encodings"]
        for k in top:
            f.write(f"  {json.dumps(k)}: {json.dumps(data[k])},\n")
        f.write('  "encodings": {\n')
        encs = list(data["encodings"])
        for ei, e in enumerate(encs):
            f.write(f"    {json.dumps(e)}: [\n")
            cases = data["encodings"][e]
            for ci, c in enumerate(cases):
                f.write("      " + json.dumps(c, separators=(",", ":")))
                f.write(",\n" if ci + 1 < len(cases) else "\n")
            f.write("    ]" + (",\n" if ei + 1 < len(encs) else "\n"))
        f.write("  }\n}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "encoding_cases.json"))
    ap.add_argument("--only", nargs="*", help="encodings to generate (default: all)")
    args = ap.parse_args()

    wmma_fields = {f.name for f in dataclasses.fields(ttgl_amd.AMDWMMALayout)}
    encodings = {}
    summary = {}
    for name, gen, count in GENERATORS:
        # every generator gets its own stream, so adding cases to one leaves the others alone
        rng = random.Random(f"{SEED}-{name}")
        anchors = ANCHORS.get(name, [])
        cases = anchors + gen(rng, count - len(anchors))
        if args.only and name not in args.only:
            continue
        recs = []
        for idx, (spec, meta, shape) in enumerate(cases):
            case = {"id": f"{name}-{idx:03d}", "encoding": name, "spec": spec,
                    "meta": meta, "shape": shape}
            if name == "amd_wmma" and "warp_bases" not in wmma_fields:
                recs.append({"id": case["id"], "params": spec["args"], "meta": meta,
                             "shape": shape,
                             "skipped": "this Triton's Gluon AMDWMMALayout takes "
                                        f"{sorted(wmma_fields)}, not warp_bases/reg_bases"})
                continue
            recs.append(run_case(case))
        encodings[name] = recs
        ok = sum(1 for r in recs if "layout" in r)
        err = sum(1 for r in recs if "error" in r)
        summary[name] = {"cases": len(recs), "layouts": ok, "errors": err,
                         "skipped": len(recs) - ok - err}
        print(f"{name}: {summary[name]}", flush=True)

    data = {
        "triton_version": triton.__version__,
        "generator": "tests/triton_reference/encodings/generate.py",
        "seed": SEED,
        "how": ("attr = <Gluon layout>._to_ir(GluonOpBuilder(ctx)); "
                "text from str(b.get_distributed_ty(f32, shape, attr)) or "
                "str(b.get_shared_mem_desc_ty(elem, shape, attr, shape)); "
                "layout = b.to_linear_layout(attr, shape); "
                "str = str(LinearLayout.from_bases(ins, dims, sizes))"),
        "summary": summary,
        "encodings": encodings,
    }
    dump(data, args.output)
    print(f"triton {triton.__version__}: {sum(s['cases'] for s in summary.values())} cases, "
          f"{os.path.getsize(args.output)} bytes -> {args.output}")


if __name__ == "__main__":
    main()
