#!/usr/bin/env python3
"""The coalescing oracle's cases (issue 23): writes gpu_oracle/coalescing/cases.jsonl and the
runner's input.

Each case is a distributed layout (blocked 1-D/2-D/3-D, slice, mma v2 and v3, mma v2 dot operands,
and the paper's Table 3 layouts), an element type (8 to 64 bits), strides (row-major,
transposed, padded by a power of two, padded by an odd amount) and a base alignment (1 to 128
bytes past a line). llcheck gives the layout (`llcheck layout --format json`) and the plan and
prediction (`llcheck coalescing --format json`); the byte offsets each thread's vectors are
loaded from are computed here, independently: every (warp, lane, register) through the layout's
bases (XOR), the element placed at base + bytes * sum(index * stride), each thread's distinct
elements sorted by address and cut into runs of the planned vector, each run checked to be
consecutive and aligned. The run's position k is the thread's k-th instruction.

    python3 gpu_oracle/coalescing/make_cases.py LLCHECK OUTDIR [--count N] [--seed S]

writes OUTDIR/runner_input.txt (for coalescing_runner) and gpu_oracle/coalescing/cases.jsonl.
"""
import argparse
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BITS = {"i8": 8, "f16": 16, "f32": 32, "f64": 64}
ALL_BITS = dict(BITS, f8=8)
MAX_OFFSETS = 16384  # the runner's constant-memory table


def llcheck_json(llcheck, args):
    r = subprocess.run([llcheck] + args + ["--format", "json"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout), None


def blocked(spt, tpw, wpc, order):
    return ("#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, warpsPerCTA = %s, order = %s}>"
            % (spt, tpw, wpc, order))


def mma2(wpc):
    return ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = %s, "
            "instrShape = [16, 8]}>" % wpc)


def split32(rng, rank, total):
    """A random split of 2^total into `rank` powers of two (as a list of sizes)."""
    parts = [0] * rank
    for _ in range(total):
        parts[rng.randrange(rank)] += 1
    return [1 << p for p in parts]


def random_layout(rng):
    """(family, attribute, shape)."""
    kind = rng.choice(["blocked2d"] * 5 + ["blocked1d", "blocked3d", "slice", "mma2", "mma3",
                                           "dot"] * 1)
    if kind == "blocked1d":
        n = rng.choice([128, 256, 512, 1024, 2048])
        return kind, blocked([rng.choice([1, 2, 4, 8, 16])], [32], [4], [0]), [n]
    if kind == "blocked3d":
        shape = [rng.choice([2, 4, 8]), rng.choice([8, 16, 32]), rng.choice([16, 32, 64])]
        order = rng.choice([[2, 1, 0], [1, 2, 0], [0, 1, 2], [2, 0, 1]])
        return kind, blocked([1, rng.choice([1, 2]), rng.choice([1, 2, 4, 8])], split32(rng, 3, 5),
                             split32(rng, 3, 2), order), shape
    if kind == "mma2":
        wpc = rng.choice([[4, 1], [2, 2], [1, 4]])
        return kind, mma2(wpc), [rng.choice([32, 64, 128]), rng.choice([32, 64, 128])]
    if kind == "mma3":
        n = rng.choice([32, 64, 128])
        return kind, ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                      "instrShape = [16, %d, 16]}>" % n), [64, n]
    if kind == "dot":
        wpc = rng.choice([[4, 1], [2, 2], [1, 4]])
        op = rng.choice([0, 1])
        return kind, ("#ttg.dot_op<{opIdx = %d, parent = %s, kWidth = %d}>"
                      % (op, mma2(wpc), rng.choice([1, 2, 4, 8]))), [64, 64]
    spt = [rng.choice([1, 1, 2, 4]), rng.choice([1, 2, 4, 8, 16])]
    tpw = split32(rng, 2, 5)
    wpc = split32(rng, 2, 2)
    order = rng.choice([[1, 0], [1, 0], [0, 1]])
    if rng.random() < 0.3:
        spt.reverse()
    shape = [rng.choice([16, 32, 64, 128]), rng.choice([16, 32, 64, 128])]
    attr = blocked(spt, tpw, wpc, order)
    if kind == "slice":
        dim = rng.choice([0, 1])
        return kind, "#ttg.slice<{dim = %d, parent = %s}>" % (dim, attr), [rng.choice([32, 64, 128])]
    return kind, attr, shape


def random_strides(rng, shape):
    """(name, strides or None for row-major)."""
    rank = len(shape)
    kind = rng.choice(["row-major", "row-major", "transposed", "padded-pow2", "padded-odd"])
    if kind == "row-major":
        return kind, None
    order = list(range(rank))[::-1]  # fastest first
    if kind == "transposed" or (rank > 1 and rng.random() < 0.2):
        rng.shuffle(order)
        if rank > 1 and order[0] == rank - 1:
            order[0], order[1] = order[1], order[0]
    strides, s = [0] * rank, 1
    for i, d in enumerate(order):
        strides[d] = s
        s *= shape[d]
        if i == 0 and kind == "padded-pow2":
            s *= 2
        if i == 0 and kind == "padded-odd":
            s += rng.choice([1, 2, 4, 8, 3, 16])
    return kind, strides


def table3_cases():
    """The paper's Table 3 benchmark: Triton 3.9's own layouts and the flat 1-D layout."""
    picked = json.load(open(os.path.join(ROOT, "tests", "table3", "table3_layouts.json")))
    out = []
    for cs in picked["cases"]:
        k, bits = cs["shape"][1], cs["elementBits"]
        out.append(("table3-triton", cs["attribute"], cs["shape"], cs["dtype"]))
        # Flat: thread t holds elements u*t .. u*t+u-1 of the flattened [512, k] tensor.
        u = min(128 // bits, 512 * k // 128)
        flat_bits = (512 * k).bit_length() - 1
        log_k, log_u = k.bit_length() - 1, u.bit_length() - 1

        def point(b):
            return [0, 1 << b] if b < log_k else [1 << (b - log_k), 0]
        reg = [point(b) for b in range(log_u)]
        lane = [point(log_u + i) for i in range(5)]
        warp = [point(log_u + 5 + i) for i in range(2)]
        reg += [point(b) for b in range(log_u + 7, flat_bits)]
        attr = "#ttg.linear<{register = %s, lane = %s, warp = %s, block = []}>" % (reg, lane, warp)
        out.append(("table3-flat", attr, cs["shape"], cs["dtype"]))
    return out


def offsets_for(layout, shape, strides, elem_bytes, base_offset, vec_elems):
    """Per thread (warp-major, then lane) the byte offset of each vector, in instruction order;
    or an error string."""
    ins = {d["name"]: d["bases"] for d in layout["ins"]}
    outs = [d["name"] for d in layout["outs"]]
    if strides is None:
        strides, s = [0] * len(shape), 1
        for d in reversed(range(len(shape))):
            strides[d] = s
            s *= shape[d]
    stride_of = [strides[int(n[3:])] for n in outs]

    def xor_of(bases, x):
        v = [0] * len(outs)
        i = 0
        while x:
            if x & 1:
                v = [a ^ b for a, b in zip(v, bases[i])]
            x >>= 1
            i += 1
        return v
    regs, lanes, warps = ins.get("register", []), ins.get("lane", []), ins.get("warp", [])
    reg_pts = [xor_of(regs, r) for r in range(1 << len(regs))]
    table = []
    for w in range(1 << len(warps)):
        wp = xor_of(warps, w)
        for l in range(1 << len(lanes)):
            lp = xor_of(lanes, l)
            elems = {}
            for rp in reg_pts:
                pt = tuple(a ^ b ^ c for a, b, c in zip(rp, lp, wp))
                elems[pt] = base_offset + elem_bytes * sum(c * s for c, s in zip(pt, stride_of))
            addrs = sorted(elems.values())
            if len(set(addrs)) != len(addrs):
                return None, "two elements of one thread share an address"
            runs = []
            vec_bytes = vec_elems * elem_bytes
            for i in range(0, len(addrs), vec_elems):
                run = addrs[i:i + vec_elems]
                if len(run) != vec_elems or any(run[j] != run[0] + j * elem_bytes for j in range(len(run))):
                    return None, "the planned vector is not consecutive in thread (%d, %d)" % (w, l)
                if run[0] % vec_bytes:
                    return None, "the planned vector is misaligned in thread (%d, %d)" % (w, l)
                runs.append(run[0] - base_offset)
            table.append(runs)
    counts = {len(t) for t in table}
    if len(counts) != 1:
        return None, "threads hold different numbers of vectors"
    return table, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("llcheck")
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=20261126)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    specs = [(f, a, s, d, None, 128) for f, a, s, d in table3_cases()]
    while len(specs) < args.count * 3:
        family, attr, shape = random_layout(rng)
        dtype = rng.choice(list(BITS))
        skind, strides = random_strides(rng, shape)
        eb = BITS[dtype] // 8
        align = rng.choice([128, 128, 128, 64, 32, 16, 8, 4, 2, 1])
        align = max(align, eb)
        specs.append((family + "/" + skind, attr, shape, dtype, strides, align))
    cases, lines, skipped = [], [], {}
    layouts = {}
    for family, attr, shape, dtype, strides, align in specs:
        if len(cases) >= args.count:
            break
        shape_text = "x".join(map(str, shape))
        key = (attr, shape_text)
        if key not in layouts:
            layouts[key] = llcheck_json(args.llcheck, ["layout", attr, "--shape", shape_text])
        layout, err = layouts[key]
        if layout is None:
            skipped[err[:80]] = skipped.get(err[:80], 0) + 1
            continue
        cmd = ["coalescing", attr, "--shape", shape_text, "--dtype", dtype,
               "--base-alignment", str(align), "--no-z3"]
        if strides is not None:
            cmd += ["--strides", ",".join(map(str, strides))]
        pred, err = llcheck_json(args.llcheck, cmd)
        if pred is None:
            skipped[err[:80]] = skipped.get(err[:80], 0) + 1
            continue
        eb = ALL_BITS[dtype] // 8
        base_offset = align if align < 128 else 0
        table, err = offsets_for(layout, shape, strides, eb, base_offset, pred["vector_elements"])
        if table is None:
            skipped[err] = skipped.get(err, 0) + 1
            continue
        threads, instrs = len(table), len(table[0])
        if threads * instrs > MAX_OFFSETS or threads > 1024:
            skipped["too many vectors for the runner"] = skipped.get("too many vectors for the runner", 0) + 1
            continue
        cid = "c%04d" % len(cases)
        buffer_bytes = max(max(t) for t in table) + pred["vector_bits"] // 8
        lines.append("case %s %d %d %d %d %d" % (cid, pred["vector_bits"] // 8, base_offset, threads,
                                                 instrs, buffer_bytes))
        lines.append(" ".join(str(o) for t in table for o in t))
        cases.append({"id": cid, "family": family, "attr": attr, "shape": shape, "dtype": dtype,
                      "strides": strides, "base_alignment": align, "layout": layout,
                      "predicted": pred})
    os.makedirs(args.outdir, exist_ok=True)
    with open(os.path.join(args.outdir, "runner_input.txt"), "w") as f:
        f.write("llcheck-coalescing-runner 1 %d\n" % len(cases))
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(HERE, "cases.jsonl"), "w") as f:
        for c in cases:
            f.write(json.dumps(c, separators=(",", ":")) + "\n")
    fam = {}
    for c in cases:
        fam[c["family"].split("/")[0]] = fam.get(c["family"].split("/")[0], 0) + 1
    print("%d cases %s; skipped %s" % (len(cases), fam, skipped), file=sys.stderr)


if __name__ == "__main__":
    main()
