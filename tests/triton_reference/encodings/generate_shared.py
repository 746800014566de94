#!/usr/bin/env python3
"""Records Triton's own linear layouts of more shared-memory encodings, and of tensor memory.

A companion of generate.py (same case format, same forked-child machinery, imported from it),
for what encoding_cases.json covers thinly: swizzled_shared with non-power-of-two vec / perPhase
/ maxPhase, rank 3 and CGA layouts; nvmma_shared of rank 3, 64-bit elements, fp4Padded and CGA
layouts, and unswizzled transposed of rank 3 and 4 (fixed cases); and Blackwell tensor memory (#ttng.tensor_memory_encoding), which encoding_cases.json
has none of.

Tensor memory cases: Gluon's TensorMemoryLayout(block, col_stride, cga_layout, two_ctas,
fp4_padded)._to_ir(b) -> b.get_tensor_memory_layout(...); the attribute text comes from
str(b.get_tensor_mem_desc_ty(elem, shape, attr, shape)) (elem f32, or f16 / i8 for column
strides 2 / 4, as Triton's memdesc verifier requires bitwidth * colStride <= 32), and
b.to_linear_layout(attr, shape) returns a print-only _TensorMemoryLinearLayout with the `row`
and `col` bases and the shape. It does not return the `block` input of a CGA layout, so those
cases record rows, cols and shape only (key "tmem" instead of "layout").

#ttg.amd_rotating_shared has no Gluon class and no builder method in Triton 3.9, so its layouts
cannot be obtained here; llcheck checks it by hand derivations in its unit tests.

Run from the repository root with Triton 3.9.0 (CPU only, a few seconds, deterministic):

    /tmp/tvenv/bin/python tests/triton_reference/encodings/generate_shared.py \\
        -o tests/triton_reference/encodings/shared_cases.json
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as G  # noqa: E402  (the same machinery as encoding_cases.json)

import triton  # noqa: E402
import triton._C.libtriton as lt  # noqa: E402
from triton.experimental.gluon.language.nvidia import blackwell as ttgl_bw  # noqa: E402

SEED = 20250614


def pow2(e):
    return 1 << e


def gen_swizzled(rng, n):
    cases = []
    for i in range(n):
        rank = [2, 3, 3, 2][i % 4]
        vec = rng.choice([0, 1, 2, 3, 4, 6, 8, 16])
        per_phase = rng.choice([1, 2, 3, 4, 8])
        max_phase = rng.choice([1, 2, 3, 4, 5, 8, 16])
        order = G.random_order(rng, rank)
        cga = G.random_cga(rng, rank, 0.5, max_bits=2)
        args = {"vec": vec, "per_phase": per_phase, "max_phase": max_phase, "order": order}
        meta = {}
        G.with_cga_args(args, meta, cga)
        shape = [pow2(e) for e in G.split_bits(rng, rng.randint(rank + 2, 11), rank)]
        if cga:
            shape = [s * c for s, c in zip(shape, cga["CTASplitNum"])]
        cases.append(({"encoding": "swizzled_shared", "args": args}, meta, shape))
    # Triton divides by perPhase and maxPhase: 0 aborts.
    cases.append(({"encoding": "swizzled_shared",
                   "args": {"vec": 2, "per_phase": 0, "max_phase": 2, "order": [1, 0]}},
                  {}, [16, 16]))
    cases.append(({"encoding": "swizzled_shared",
                   "args": {"vec": 2, "per_phase": 1, "max_phase": 0, "order": [1, 0]}},
                  {}, [16, 16]))
    return cases


def gen_nvmma(rng, n):
    cases = []
    for i in range(n):
        rank = 3 if i % 2 else 2
        swz = [0, 32, 64, 128][i % 4]
        bw = rng.choice([8, 16, 32, 64])
        fp4 = swz == 128 and bw == 8 and rng.random() < 0.5
        transposed = rng.random() < 0.3
        cga = G.random_cga(rng, rank, 0.4, max_bits=2)
        args = {"swizzle_byte_width": swz, "element_bitwidth": bw, "rank": rank,
                "transposed": transposed, "fp4_padded": fp4}
        meta = {}
        G.with_cga_args(args, meta, cga)
        inner = max(1, max(swz, 16) * 8 // bw) << rng.randint(0, 2)
        outer = pow2(rng.randint(3, 6))
        shape = [outer, inner] if not transposed else [inner, outer]
        if rank == 3:
            shape = ([pow2(rng.randint(0, 2))] + shape) if not transposed else \
                [inner, pow2(rng.randint(0, 2)), outer]
        if cga:
            shape = [s * c for s, c in zip(shape, cga["CTASplitNum"])]
        while sum(G.log2(s) for s in shape) > G.MAX_SHAPE_BITS:
            j = max(range(rank), key=lambda q: shape[q])
            shape[j] //= 2
        cases.append(({"encoding": "nvmma_shared", "args": args}, meta, shape))
    cases += nvmma_unswizzled_transposed()
    return cases


def nvmma_unswizzled_transposed():
    """Fixed cases for #ttg.nvmma_shared unswizzled and transposed from rank 3 on, which the
    random draws above never reach and where Triton 3.9's box lands each dim's run on another
    dim (zero bases, not injective): the shapes first reported, rank 4, a dim over 256, other
    element widths and a CGA layout."""
    cases = []
    for bw, shape in [(16, [2, 16, 8]), (16, [1, 16, 8]), (16, [8, 4, 64]), (16, [2, 8, 16]),
                      (16, [1, 8, 16]), (16, [16, 2, 2]), (8, [4, 32, 16]), (32, [8, 16, 4]),
                      (16, [512, 2, 8]), (16, [2, 8, 4, 4]), (32, [8, 2, 4, 8])]:
        args = {"swizzle_byte_width": 0, "element_bitwidth": bw, "rank": len(shape),
                "transposed": True, "fp4_padded": False}
        cases.append(({"encoding": "nvmma_shared", "args": args}, {"num_ctas": 1}, shape))
    per, split, order = [2, 2, 1], [2, 1, 1], [0, 1, 2]
    cga = {"CTAsPerCGA": per, "CTASplitNum": split, "CTAOrder": order,
           "bases": [list(x) for x in lt.gluon_ir.make_cga_layout(per, split, order)]}
    args = {"swizzle_byte_width": 0, "element_bitwidth": 16, "rank": 3, "transposed": True,
            "fp4_padded": False}
    meta = {}
    G.with_cga_args(args, meta, cga)
    cases.append(({"encoding": "nvmma_shared", "args": args}, meta, [4, 16, 8]))
    return cases


def gen_tmem(rng, n):
    cases = []
    fixed = [
        ({"block": [128, 64], "col_stride": 1}, [128, 64]),
        ({"block": [64, 32], "col_stride": 1}, [64, 64]),
        ({"block": [64, 32], "col_stride": 1}, [128, 64]),
        ({"block": [64, 64], "col_stride": 1}, [64, 64]),
        ({"block": [128, 64], "col_stride": 1}, [128, 16]),
        ({"block": [128, 64], "col_stride": 1}, [32, 64]),
        ({"block": [96, 64], "col_stride": 1}, [128, 64]),
        ({"block": [128, 64], "col_stride": 2}, [128, 64]),
        ({"block": [128, 64], "col_stride": 4}, [128, 64]),
        ({"block": [128, 64], "col_stride": 1, "fp4_padded": True}, [128, 64]),
        ({"block": [64, 64], "col_stride": 1, "cga_layout": [[1, 0]], "two_ctas": True},
         [128, 64]),
        ({"block": [128, 64], "col_stride": 1, "cga_layout": [[0, 1]], "two_ctas": True},
         [256, 128]),
    ]
    for args, shape in fixed:
        cases.append((args, shape))
    for _ in range(n - len(fixed)):
        bm = rng.choice([64, 128])
        bn = pow2(rng.randint(3, 8))
        cs = rng.choice([1, 1, 1, 2, 4])
        args = {"block": [bm, bn], "col_stride": cs}
        cga = []
        if rng.random() < 0.4:
            cga = [rng.choice([[1, 0], [0, 1], [0, 0]]) for _ in range(rng.randint(1, 2))]
            if cga.count([1, 0]) > 1 or cga.count([0, 1]) > 1:
                cga = cga[:1]
            args["cga_layout"] = cga
            if cga[0] == [1, 0] and rng.random() < 0.5:
                args["two_ctas"] = True
        if rng.random() < 0.15:
            args["fp4_padded"] = True
        split = [2 if [1, 0] in cga else 1, 2 if [0, 1] in cga else 1]
        shape = [bm * split[0] << rng.randint(0, 1), pow2(rng.randint(3, 8)) * split[1]]
        cases.append((args, shape))
    return cases


def tmem_child(emit, args, shape):
    stage = "gluon"
    try:
        ctx = lt.ir.context()
        lt.ir.load_dialects(ctx)
        b = lt.gluon_ir.GluonOpBuilder(ctx)
        layout = ttgl_bw.TensorMemoryLayout(**{k: (tuple(v) if k == "block" else v)
                                               for k, v in args.items()})
        emit("gluon", repr(layout))
        stage = "attr"
        attr = layout._to_ir(b)
        stage = "type"
        elem = {1: b.get_float_ty, 2: b.get_half_ty, 4: b.get_int8_ty}[args["col_stride"]]()
        try:
            ty = str(b.get_tensor_mem_desc_ty(elem, shape, attr, shape))
            emit("type", ty)
            emit("attr", G._attr_from_type(ty))
        except Exception as e:  # the memdesc verifier; the layout may still exist
            emit("type_error", G._exc(e))
        stage = "to_linear_layout"
        res = b.to_linear_layout(attr, shape)
        emit("tmem", {"rows": [list(x) for x in res.rows], "cols": [list(x) for x in res.cols],
                      "shape": list(res.shape)})
        emit("done", True)
    except Exception as e:
        emit("exc", [stage, G._exc(e)])
        emit("done", True)


def run_tmem(idx, args, shape):
    out, aborted = G.run_isolated(tmem_child, args, shape)
    rec = {"id": f"tensor_memory-{idx:03d}", "params": args, "shape": shape}
    for k in ("gluon", "attr", "type", "type_error"):
        if k in out:
            rec[k] = out[k]
    if "exc" in out:
        rec["error"], rec["error_stage"] = out["exc"][1], out["exc"][0]
    elif aborted is not None:
        rec["error"], rec["error_stage"] = aborted, "abort"
    else:
        rec["tmem"] = out["tmem"]
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "shared_cases.json"))
    args = ap.parse_args()
    encodings, summary = {}, {}
    for name, gen, count in [("swizzled_shared", gen_swizzled, 30), ("nvmma_shared", gen_nvmma, 30)]:
        rng = random.Random(f"{SEED}-{name}")
        recs = []
        for idx, (spec, meta, shape) in enumerate(gen(rng, count)):
            recs.append(G.run_case({"id": f"{name}-x{idx:03d}", "encoding": name, "spec": spec,
                                    "meta": meta, "shape": shape}))
        encodings[name] = recs
    rng = random.Random(f"{SEED}-tensor_memory")
    encodings["tensor_memory"] = [run_tmem(i, a, s) for i, (a, s) in enumerate(gen_tmem(rng, 40))]
    for name, recs in encodings.items():
        ok = sum(1 for r in recs if "layout" in r or "tmem" in r)
        summary[name] = {"cases": len(recs), "layouts": ok, "errors": len(recs) - ok}
        print(f"{name}: {summary[name]}")
    data = {"triton_version": triton.__version__,
            "generator": "tests/triton_reference/encodings/generate_shared.py",
            "seed": SEED, "summary": summary, "encodings": encodings}
    G.dump(data, args.output)
    print(f"-> {args.output}")


if __name__ == "__main__":
    main()
