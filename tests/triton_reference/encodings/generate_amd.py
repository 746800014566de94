#!/usr/bin/env python3
"""Records Triton's own linear layouts of the AMD encodings, for llcheck.

Triton version: 3.9.0. Writes amd_cases.json (same format as encoding_cases.json, see README.md)
with cases for #ttg.amd_mfma, #ttg.amd_wmma, #ttg.dot_op with an amd_mfma / amd_wmma parent and
#ttg.slice of those. The parameter sets are fixed lists (no randomness) chosen to cover: every
MFMA version, the instruction tiles 32x32, 16x16, 64x4 and 4x64, transposed or not, tilesPerWarp,
elementBitWidth 32 and 64, WMMA versions 1-3 with register / warp bases and broadcast warps, both
dot operands with several kWidth values (including ones Triton rejects), rank-3 layouts and
multi-CTA CGA layouts. Every layout, printed attribute and error message comes from Triton
through generate.py's run_case (each case in a forked child, so that an abort becomes a recorded
error); nothing is computed here, except the text of a dot_op attribute Triton refused to build
(which Triton therefore never printed): it is composed from Triton's printed parent and marked
"attr_composed".

Regenerate (CPU only, a few seconds), from the repository root:

    python3 -m venv /tmp/tvenv && /tmp/tvenv/bin/pip install triton==3.9.0
    /tmp/tvenv/bin/python tests/triton_reference/encodings/generate_amd.py \\
        -o tests/triton_reference/encodings/amd_cases.json
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as G  # noqa: E402  (run_case, dump, make_cga_layout access)

import triton  # noqa: E402


def cga(per, split, order):
    return [list(x) for x in G.lt.gluon_ir.make_cga_layout(per, split, order)]


def mfma(version, instr, transposed, wpc, tpw=None, ebw=None, cga_bases=None):
    args = {"version": version, "instr_shape": instr, "transposed": transposed,
            "warps_per_cta": wpc}
    if tpw is not None:
        args["tiles_per_warp"] = tpw
    if ebw is not None:
        args["element_bitwidth"] = ebw
    if cga_bases:
        args["cga_layout"] = cga_bases
    return {"encoding": "amd_mfma", "args": args}


def wmma(version, transposed, warp, reg=None, instr=None, rank=2, cga_bases=None):
    args = {"version": version, "transposed": transposed, "warp_bases": warp,
            "reg_bases": reg or [], "rank": rank}
    if instr is not None:
        args["instr_shape"] = instr
    if cga_bases:
        args["cga_layout"] = cga_bases
    return {"encoding": "amd_wmma", "args": args}


def dot(op, parent, k_width):
    return {"encoding": "dot_op", "args": {"operand_index": op, "parent": parent,
                                           "k_width": k_width}}


def sl(dim, parent):
    return {"encoding": "slice", "args": {"dim": dim, "parent": parent}}


C2 = cga([2, 1], [2, 1], [1, 0])        # two CTAs split along dim0
C2B = cga([1, 2], [1, 1], [1, 0])       # two CTAs that broadcast
C4 = cga([2, 2], [2, 2], [0, 1])
C3 = cga([1, 2, 1], [1, 2, 1], [2, 1, 0])

MFMA = [
    (mfma(1, [32, 32, 8], False, [2, 2]), [64, 64]),
    (mfma(2, [32, 32, 8], True, [2, 2]), [64, 64]),
    (mfma(3, [16, 16, 16], False, [4, 1]), [64, 16]),
    (mfma(4, [16, 16, 32], True, [1, 4]), [16, 64]),
    (mfma(3, [32, 32, 8], False, [1, 1]), [128, 128]),
    (mfma(3, [32, 32, 8], True, [2, 1]), [16, 16]),
    (mfma(3, [16, 16, 16], True, [2, 2], tpw=[2, 2]), [64, 64]),
    (mfma(3, [16, 16, 16], False, [2, 2], tpw=[2, 1]), [128, 64]),
    (mfma(4, [32, 32, 16], True, [2, 2], tpw=[1, 2]), [64, 256]),
    (mfma(3, [32, 32, 8], False, [1, 2], ebw=64), [32, 64]),
    (mfma(3, [16, 16, 4], True, [2, 2], ebw=64), [32, 64]),
    (mfma(2, [64, 4, 4], True, [1, 1]), [64, 4]),
    (mfma(2, [64, 4, 4], True, [2, 2]), [128, 32]),
    (mfma(2, [64, 4, 4], False, [1, 1]), [64, 4]),           # Triton: must be transposed
    (mfma(3, [4, 64, 4], False, [1, 1]), [4, 64]),
    (mfma(3, [4, 64, 4], True, [2, 1]), [16, 64]),
    (mfma(3, [64, 4, 4], True, [1, 1], ebw=64), [64, 16]),
    (mfma(3, [4, 64, 4], False, [1, 2], ebw=64, tpw=[2, 1]), [8, 256]),
    (mfma(3, [32, 32, 8], False, [1, 2, 2]), [2, 64, 64]),
    (mfma(4, [16, 16, 32], True, [2, 1, 2], tpw=[1, 2, 1]), [4, 64, 32]),
    (mfma(3, [32, 32, 8], True, [2, 2], cga_bases=C2), [128, 64]),
    (mfma(3, [16, 16, 16], False, [2, 2], cga_bases=C4, tpw=[2, 1]), [128, 128]),
    (mfma(4, [32, 32, 16], False, [1, 2], cga_bases=C2B), [32, 64]),
    (mfma(3, [16, 16, 16], True, [1, 1, 2], cga_bases=C3), [2, 32, 32]),
]

WMMA = [
    (wmma(1, False, [[1, 0], [0, 1]]), [32, 32]),
    (wmma(1, True, [[0, 1]], [[1, 0]]), [32, 64]),
    (wmma(1, False, []), [16, 16]),
    (wmma(1, True, [], [[0, 1]]), [16, 64]),
    (wmma(2, False, [[1, 0], [2, 0]]), [64, 16]),
    (wmma(2, True, [[0, 1], [1, 0]], [[0, 2]]), [32, 64]),
    (wmma(2, False, [[0, 0], [1, 0]]), [32, 16]),            # a broadcast warp
    (wmma(2, True, [[1, 0]], instr=[16, 16, 32]), [64, 64]),
    (wmma(3, False, [[1, 0], [0, 1]], instr=[16, 16, 32]), [32, 32]),
    (wmma(3, True, [[0, 1]], [[1, 0]], instr=[16, 16, 64]), [8, 64]),
    (wmma(3, False, [[0, 1], [0, 2]], instr=[16, 16, 128]), [64, 128]),
    (wmma(3, True, [], instr=[16, 16, 4]), [16, 16]),
    (wmma(1, False, [[0, 1, 0], [1, 0, 0]], rank=3), [2, 32, 16]),
    (wmma(3, True, [[0, 0, 1]], [[1, 0, 0]], instr=[16, 16, 32], rank=3), [4, 16, 64]),
    (wmma(2, False, [[1, 0]], cga_bases=C2), [64, 32]),
    (wmma(3, True, [[0, 1]], instr=[16, 16, 32], cga_bases=C4), [64, 64]),
    (wmma(1, True, [[1, 0]], cga_bases=C2B), [32, 32]),
]

_M1 = mfma(3, [32, 32, 8], False, [2, 2])
_M2 = mfma(4, [16, 16, 32], True, [4, 1])
_M3 = mfma(3, [16, 16, 16], False, [2, 2], tpw=[2, 2])
_M64 = mfma(3, [64, 4, 4], True, [1, 1])
_M4x64 = mfma(3, [4, 64, 4], False, [1, 1])
_M3D = mfma(3, [32, 32, 8], True, [2, 1, 2])
_MC = mfma(3, [16, 16, 16], False, [2, 2], cga_bases=C4)
_W1 = wmma(1, False, [[1, 0], [0, 1]])
_W2 = wmma(2, True, [[0, 1], [1, 0]], [[0, 2]])
_W3 = wmma(3, False, [[1, 0]], [[0, 1]], instr=[16, 16, 32])
_W3D = wmma(2, False, [[0, 1, 0], [1, 0, 0]], rank=3)
_WC = wmma(3, True, [[0, 1]], instr=[16, 16, 64], cga_bases=C2)

DOT = [
    (dot(0, _M1, 4), [64, 16]), (dot(1, _M1, 4), [16, 64]),
    (dot(0, _M1, 8), [64, 64]), (dot(1, _M1, 8), [64, 64]),
    (dot(0, _M1, 1), [32, 8]), (dot(1, _M1, 2), [128, 32]),
    (dot(0, _M2, 16), [64, 128]), (dot(1, _M2, 8), [32, 16]),
    (dot(0, _M2, 2), [16, 8]), (dot(1, _M2, 4), [256, 64]),
    (dot(0, _M3, 8), [64, 32]), (dot(1, _M3, 8), [32, 64]),
    (dot(0, _M64, 4), [64, 256]), (dot(1, _M64, 4), [64, 4]),
    (dot(0, _M4x64, 4), [4, 64]), (dot(1, _M4x64, 4), [256, 64]),
    (dot(0, _M3D, 8), [2, 64, 32]), (dot(1, _M3D, 4), [2, 16, 64]),
    (dot(0, _MC, 8), [64, 64]), (dot(1, _MC, 8), [64, 64]),
    (dot(0, _M1, 0), [64, 16]),                              # Triton: kWidth is mandatory
    (dot(0, _W1, 16), [32, 16]), (dot(1, _W1, 16), [16, 32]),
    (dot(0, _W1, 8), [32, 64]), (dot(1, _W1, 4), [16, 32]),  # v1 refuses 4
    (dot(0, _W2, 8), [32, 16]), (dot(1, _W2, 4), [32, 64]),
    (dot(0, _W2, 16), [64, 32]), (dot(1, _W2, 2), [16, 32]),  # v2 refuses 2
    (dot(0, _W3, 16), [32, 32]), (dot(1, _W3, 8), [64, 32]),
    (dot(0, _W3, 2), [16, 64]), (dot(1, _W3, 4), [32, 16]),
    (dot(0, _W3D, 8), [2, 32, 16]), (dot(1, _W3D, 16), [2, 16, 32]),
    (dot(0, _WC, 8), [64, 64]), (dot(1, _WC, 16), [64, 64]),
]

SLICE = [
    (sl(0, _M1), [64]), (sl(1, _M1), [128]), (sl(1, _M64), [64]),
    (sl(0, _M3D), [64, 64]), (sl(1, _MC), [64]),
    (sl(0, _W1), [32]), (sl(1, _W2), [64]), (sl(0, _W3D), [32, 16]), (sl(1, _WC), [64]),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "amd_cases.json"))
    args = ap.parse_args()
    groups = [("amd_mfma", MFMA), ("amd_wmma", WMMA), ("dot_op", DOT), ("slice", SLICE)]
    encodings, summary = {}, {}
    for name, cases in groups:
        recs = []
        for idx, (spec, shape) in enumerate(cases):
            case = {"id": f"amd-{name}-{idx:03d}", "encoding": spec["encoding"], "spec": spec,
                    "meta": {}, "shape": shape}
            rec = G.run_case(case)
            if "attr" not in rec and spec["encoding"] == "dot_op":
                # Triton refused to build the dot_op attribute, so there is no printed text:
                # compose it from Triton's printed parent, as Triton would print it.
                a = spec["args"]
                parent = G.run_case({"id": case["id"] + "-parent", "encoding": "parent",
                                     "spec": a["parent"], "meta": {}, "shape": shape})
                k = f", kWidth = {a['k_width']}" if a["k_width"] else ""
                rec["attr"] = (f"#ttg.dot_op<{{opIdx = {a['operand_index']}, "
                               f"parent = {parent['attr']}{k}}}>")
                rec["attr_composed"] = True
            recs.append(rec)
        encodings[name] = recs
        ok = sum(1 for r in recs if "layout" in r)
        summary[name] = {"cases": len(recs), "layouts": ok, "errors": len(recs) - ok}
        print(f"{name}: {summary[name]}", flush=True)
    data = {"triton_version": triton.__version__,
            "generator": "tests/triton_reference/encodings/generate_amd.py",
            "how": "as encoding_cases.json (generate.py's run_case), fixed parameter lists",
            "summary": summary, "encodings": encodings}
    G.dump(data, args.output)
    print(f"triton {triton.__version__} -> {args.output}")


if __name__ == "__main__":
    main()
