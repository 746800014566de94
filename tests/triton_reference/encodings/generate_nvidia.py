#!/usr/bin/env python3
"""Records Triton's linear layouts of the NVIDIA distributed encodings, beyond encoding_cases.json.

Made with Triton 3.9.0. It covers what the shared file has few or none of: Hopper (version 3)
instrShapes of every N and of M other than 16, instrShape [M, N] without K, Ampere instrShapes
other than [16, 8], rank 3 and rank 4, multi-CTA CGA layouts for every parent, every kWidth of
the dot operands (1 to 64), FMA dot operands (blocked parent) with a CGA layout and shapes smaller
than the tile, slices of dot-operand-sized mma layouts, and the parameter sets Triton rejects
(versionMajor 1, 4, 5; version 3 with rank 3; tile sizes that are not 8 times a power of two;
CGA layouts that are not surjective; kWidth missing, not a power of two, or given with a blocked
parent; opIdx 1 with a Hopper parent).

Every layout, printed attribute and error in the output is Triton's own answer, obtained exactly
as generate.py obtains it (this script imports its run_case). A parameter set that Triton rejects
before it can print the attribute gets no "attr"; the test composes the attribute text from the
recorded parameters (core/tests/encodings_nvidia_test.cpp).

Run from the repository root (CPU only, a few seconds):

    python3 -m venv /tmp/tvenv && /tmp/tvenv/bin/pip install triton==3.9.0
    /tmp/tvenv/bin/python tests/triton_reference/encodings/generate_nvidia.py \\
        -o tests/triton_reference/encodings/nvidia_cases.json
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as g  # noqa: E402  (the shared machinery: run_case, random_cga, dump)

SEED = "nvidia-20250131"


def mma(version, wpc, instr, cga=None):
    args = {"version": list(version), "warps_per_cta": wpc, "instr_shape": instr}
    if cga:
        args["cga_layout"] = cga
    return {"encoding": "nvidia_mma", "args": args}


def blocked(spt, tpw, wpc, order, cga=None):
    args = {"size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpc,
            "order": order}
    if cga:
        args["cga_layout"] = cga
    return {"encoding": "blocked", "args": args}


def dot(op, parent, kw):
    return {"encoding": "dot_op", "args": {"operand_index": op, "parent": parent, "k_width": kw}}


def slice_of(dim, parent):
    return {"encoding": "slice", "args": {"dim": dim, "parent": parent}}


def cga_bases(rng, rank, max_bits=3):
    c = g.random_cga(rng, rank, prob=1.0, max_bits=max_bits)
    return c["bases"]


def gen_mma(rng):
    cases = []
    # Hopper: every N, M other than 16, [M, N] without K, warps that are not a warp group
    for n in [8, 16, 24, 32, 48, 64, 96, 128, 256]:
        for wpc in ([4, 1], [4, 2], [8, 1], [2, 2]):
            if rng.random() < 0.5:
                continue
            shape, _ = g.shape_around(rng, [16 * wpc[0], n * wpc[1]], lo=-2, hi=2)
            cases.append((mma([3, 0], wpc, [16, n, rng.choice([8, 16, 32])]), shape))
    for instr in ([8, 64, 16], [32, 64, 16], [64, 32, 16], [16, 64], [16, 128, 16, 8], [16, 4, 16],
                  [16, 12, 16], [12, 64, 16], [16]):
        cases.append((mma([3, 0], [4, 1], instr), [64, 128]))
    cases.append((mma([3, 0], [4, 1, 1], [16, 64, 16]), [2, 64, 64]))
    cases.append((mma([3, 1], [4, 2], [16, 64, 16]), [128, 128]))
    # Ampere: other instrShapes, rank 3 and 4
    for instr in ([16, 16], [32, 8], [8, 8], [64, 32], [4, 8], [16, 4], [16, 8, 8]):
        cases.append((mma([2, 0], [2, 2], instr), [64, 64]))
    for rank in (3, 4):
        for _ in range(6):
            nw = g.split_bits(rng, rng.randint(0, 3), rank)
            wpc = [g.pow2(e) for e in nw]
            instr = [1] * (rank - 2) + [16, 8]
            tile = [max(1, w) for w in wpc[:-2]] + [16 * wpc[-2], 8 * wpc[-1]]
            shape, _ = g.shape_around(rng, tile, lo=-2, hi=2)
            cases.append((mma([2, rng.choice([0, 1])], wpc, instr), shape))
    # Multi-CTA CGA layouts
    for i in range(16):
        version = 3 if i % 3 == 2 else 2
        rank = 2 if version == 3 or i % 4 else 3
        if version == 3:
            wpc, instr = rng.choice([[4, 1], [4, 2], [8, 1]]), [16, rng.choice([32, 64, 128]), 16]
        else:
            wpc = [g.pow2(e) for e in g.split_bits(rng, rng.randint(0, 3), rank)]
            instr = [1] * (rank - 2) + [16, 8]
        cga = cga_bases(rng, rank)
        tile = [16 * wpc[-2], instr[-2 if version == 2 else 1] * wpc[-1]]
        tile = [1] * (rank - 2) + tile
        shape, _ = g.shape_around(rng, [t * 2 for t in tile], lo=-3, hi=1)
        cases.append((mma([version, 0], wpc, instr, cga), shape))
    # Rejected: versions, non-surjective or skewed CGA layouts, rank mismatches, non-pow2 warps
    for v in ([1, 0], [4, 0], [5, 0], [0, 0]):
        cases.append((mma(v, [2, 2], [16, 8]), [32, 32]))
    for cga in ([[2, 0]], [[1, 1]], [[1, 0], [1, 1]], [[0, 3]], [[1, 0], [1, 0]], [[0, 1], [0, 0]]):
        cases.append((mma([2, 0], [2, 1], [16, 8], cga), [64, 64]))
    cases.append((mma([2, 0], [3, 1], [16, 8]), [64, 64]))
    cases.append((mma([2, 0], [2, 1], [16, 8]), [64, 64, 2]))
    return cases


def gen_dot(rng):
    cases = []
    # Ampere operands, every kWidth, both operands, parents of other instrShapes and ranks
    for kw in [1, 2, 4, 8, 16, 32, 64]:
        for op in (0, 1):
            wpc = [g.pow2(e) for e in g.split_bits(rng, rng.randint(0, 3), 2)]
            instr = rng.choice([[16, 8], [16, 8], [32, 8], [16, 16], [8, 8]])
            k = kw * 8 * rng.choice([1, 2])
            base = [instr[0] * wpc[0], k] if op == 0 else [k, 8 * wpc[1]]
            shape, _ = g.shape_around(rng, base, lo=-2, hi=2)
            cases.append((dot(op, mma([2, 0], wpc, instr), kw), shape))
    for rank in (3, 4):
        for op in (0, 1):
            wpc = [g.pow2(e) for e in g.split_bits(rng, rng.randint(0, 3), rank)]
            parent = mma([2, 0], wpc, [1] * (rank - 2) + [rng.choice([16, 32]), 8])
            kw = rng.choice([1, 2, 4, 8])
            base = [max(1, w) for w in wpc[:-2]] + ([32, kw * 8] if op == 0 else [kw * 8, 32])
            shape, _ = g.shape_around(rng, base, lo=-1, hi=1)
            cases.append((dot(op, parent, kw), shape))
    # Hopper operand A: every kWidth, M other than 16, [M, N] without K
    for kw in [1, 2, 4, 8, 16]:
        wpc = rng.choice([[4, 1], [4, 2], [8, 1], [2, 2]])
        instr = [rng.choice([16, 16, 32, 8]), rng.choice([16, 64, 256]), 16]
        shape, _ = g.shape_around(rng, [instr[0] * wpc[0], kw * 8], lo=-1, hi=2)
        cases.append((dot(0, mma([3, 0], wpc, instr), kw), shape))
    cases.append((dot(0, mma([3, 0], [4, 1], [16, 64]), 2), [64, 64]))
    # Multi-CTA parents: the blocks along K broadcast
    for i in range(10):
        version = 3 if i % 4 == 3 else 2
        op = 0 if version == 3 else i % 2
        wpc = [4, 1] if version == 3 else [g.pow2(e) for e in g.split_bits(rng, 2, 2)]
        instr = [16, 64, 16] if version == 3 else [16, 8]
        kw = rng.choice([1, 2, 4, 8])
        cga = cga_bases(rng, 2)
        base = [64 * wpc[0], kw * 16] if op == 0 else [kw * 16, 16 * wpc[1]]
        shape, _ = g.shape_around(rng, base, lo=-2, hi=1)
        cases.append((dot(op, mma([version, 0], wpc, instr, cga), kw), shape))
    # FMA operands: CGA layouts, shapes smaller than the tile, rank 3
    for i in range(10):
        rank = 3 if i % 3 == 2 else 2
        spec, meta, tile = g.blocked_spec(rng, rank, cga_prob=0.5)
        op = i % 2
        k = g.pow2(rng.randint(0, 6))
        base = list(tile[:-1]) + [k] if op == 0 else list(tile[:-2]) + [k, tile[-1]]
        shape, _ = g.shape_around(rng, base, lo=-3, hi=1)
        cases.append((dot(op, spec, 0), shape))
    # Rejected by Triton's verifier or its asserts
    cases.append((dot(0, mma([2, 0], [2, 2], [16, 8]), 0), [32, 32]))
    cases.append((dot(0, mma([3, 0], [4, 1], [16, 64, 16]), 0), [64, 32]))
    cases.append((dot(1, mma([3, 0], [4, 1], [16, 64, 16]), 2), [32, 64]))
    cases.append((dot(0, mma([2, 0], [2, 2], [16, 8]), 3), [32, 32]))
    cases.append((dot(0, mma([2, 0], [2, 2], [16, 8]), 6), [32, 32]))
    cases.append((dot(0, blocked([1, 2], [4, 8], [2, 2], [1, 0]), 1), [32, 32]))
    cases.append((dot(0, mma([2, 0], [2, 2], [16, 8]), 2), [32, 32, 2]))
    return cases


def gen_slice(rng):
    cases = []
    for i in range(12):
        version = 3 if i % 3 == 2 else 2
        rank = 2 if version == 3 or i % 2 else 3
        if version == 3:
            wpc, instr = rng.choice([[4, 1], [4, 2]]), [16, rng.choice([16, 64, 256]), 16]
        else:
            wpc = [g.pow2(e) for e in g.split_bits(rng, rng.randint(0, 3), rank)]
            instr = [1] * (rank - 2) + [16, rng.choice([8, 16])]
        cga = cga_bases(rng, rank, 2) if rng.random() < 0.4 else None
        parent = mma([version, 0], wpc, instr, cga)
        tile = [1] * (rank - 2) + [16 * wpc[-2], 64]
        pshape, _ = g.shape_around(rng, tile, lo=-2, hi=2)
        dim = rng.randrange(rank)
        shape = pshape[:dim] + pshape[dim + 1:]
        cases.append((slice_of(dim, parent), shape))
    return cases


GENERATORS = [("nvidia_mma", gen_mma), ("dot_op", gen_dot), ("slice", gen_slice)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "nvidia_cases.json"))
    args = ap.parse_args()
    encodings, summary = {}, {}
    for name, gen in GENERATORS:
        rng = random.Random(f"{SEED}-{name}")
        recs = []
        for idx, (spec, shape) in enumerate(gen(rng)):
            case = {"id": f"nvidia-{name}-{idx:03d}", "encoding": name, "spec": spec,
                    "meta": {}, "shape": shape}
            recs.append(g.run_case(case))
        encodings[name] = recs
        ok = sum(1 for r in recs if "layout" in r)
        err = sum(1 for r in recs if "error" in r)
        summary[name] = {"cases": len(recs), "layouts": ok, "errors": err}
        print(f"{name}: {summary[name]}", flush=True)
    data = {
        "triton_version": g.triton.__version__,
        "generator": "tests/triton_reference/encodings/generate_nvidia.py",
        "seed": SEED,
        "how": "as generate.py (its run_case)",
        "summary": summary,
        "encodings": encodings,
    }
    g.dump(data, args.output)
    print(f"triton {g.triton.__version__}: {sum(s['cases'] for s in summary.values())} cases "
          f"-> {args.output}")


if __name__ == "__main__":
    main()
