"""Random cases for the lowering probe: plain JSON, no Triton needed (see kernels.py for what a
case compiles to). Deterministic for a seed, so every Triton version compiles the same cases.

    python3 generate.py -n 900 --seed llcheck-lowering-1 -o data/cases.json

Each case: kind (local / convert / async), shape [M, N], dtype, num_warps (4 or 8), arch (sm80
or sm90), and the layouts as {"encoding", "args"} specs:

- register layouts (src A, dst B): blocked, slice of a rank-3 blocked (lanes and warps along the
  sliced dim hold copies), nvidia_mma v2 and v3, dot operands of mma v2 (both operands) and v3
  (operand A), and random #ttg.linear layouts (bases permuted, XOR-mixed, some zero: copies in
  registers, lanes or warps). The tensor may be smaller than a layout's tile (copies again).
- shared layouts (S): swizzled_shared, nvmma_shared (0/32/64/128-byte swizzle, transposed or
  not), padded_shared (identity linear part, one or two interval:+pad pairs) and random
  shared_linear layouts.

A case Triton refuses is kept: the recording says so and the comparison skips it.
"""
import argparse
import json
import random

DTYPES = [("int8", 20), ("float16", 35), ("float32", 30), ("int64", 15)]
BITS = {"int8": 8, "float16": 16, "float32": 32, "int64": 64}
KINDS = [("local", 55), ("convert", 30), ("async", 15)]


def pick(rng, weighted):
    total = sum(w for _, w in weighted)
    r = rng.uniform(0, total)
    for v, w in weighted:
        r -= w
        if r <= 0:
            return v
    return weighted[-1][0]


def log2(n):
    return n.bit_length() - 1


def split_bits(rng, total, parts):
    out = [0] * parts
    for _ in range(total):
        out[rng.randrange(parts)] += 1
    return out


def spec(encoding, **args):
    return {"encoding": encoding, "args": args}


# ---- register layouts ---------------------------------------------------------------------

def blocked(rng, rank, warps_log2, shape=None, spt_log2s=(0, 0, 1, 1, 2, 2, 3, 4), fit=0.6):
    """A random #ttg.blocked: sizePerThread of 2^(a draw from spt_log2s) elements in all, and,
    with probability `fit`, shrunk to fit `shape`."""
    spt_bits = split_bits(rng, rng.choice(list(spt_log2s)), rank)
    tpw_bits = split_bits(rng, 5, rank)
    wpc_bits = split_bits(rng, warps_log2, rank)
    if shape is not None and rng.random() < fit:
        # Mostly a tile that fits the tensor (coalesced-load-like); else anything.
        for d in range(rank):
            while spt_bits[d] + tpw_bits[d] + wpc_bits[d] > log2(shape[d]) and spt_bits[d] > 0:
                spt_bits[d] -= 1
    order = list(range(rank))
    rng.shuffle(order)
    return spec("blocked", size_per_thread=[1 << b for b in spt_bits],
                threads_per_warp=[1 << b for b in tpw_bits],
                warps_per_cta=[1 << b for b in wpc_bits], order=order)


def slice_layout(rng, warps_log2):
    dim = rng.randrange(3)
    return spec("slice", dim=dim, parent=blocked(rng, 3, warps_log2))


def mma_v2(rng, warps_log2):
    w = split_bits(rng, warps_log2, 2)
    return spec("nvidia_mma", version=[2, 0], warps_per_cta=[1 << w[0], 1 << w[1]],
                instr_shape=[16, 8])


def mma_v3(rng, warps_log2, shape):
    # Hopper: warps along M come in groups of 4 (one warpgroup).
    extra = split_bits(rng, warps_log2 - 2, 2)
    n = rng.choice([8, 16, 32, 64, 128, 256])
    while n > max(shape[1], 8):
        n //= 2
    return spec("nvidia_mma", version=[3, 0], warps_per_cta=[4 << extra[0], 1 << extra[1]],
                instr_shape=[16, n, 16])


def dot_operand(rng, warps_log2, bits, shape):
    if rng.random() < 0.8:
        parent = mma_v2(rng, warps_log2)
        idx = rng.randrange(2)
    else:
        parent = mma_v3(rng, warps_log2, shape)
        idx = 0
    k = max(1, 32 // bits)
    k_width = rng.choice([k, k, k, 2 * k]) if bits < 64 else rng.choice([1, 2])
    return spec("dot_op", operand_index=idx, parent=parent, k_width=k_width)


def unit_bases(shape):
    """[[1, 0], [2, 0], ...] for dim0 and [[0, 1], ...] for dim1: every bit of the tensor."""
    out = []
    for d, n in enumerate(shape):
        for b in range(log2(n)):
            v = [0] * len(shape)
            v[d] = 1 << b
            out.append(v)
    return out


def xor(a, b):
    return [x ^ y for x, y in zip(a, b)]


def linear(rng, warps_log2, shape):
    """A random distributed #ttg.linear layout covering the tensor: the tensor's bits shuffled
    onto registers, 5 lanes and the warps, and zeros where there are more inputs than bits or
    where a copy is wanted. No XOR-mixed bases: Triton 3.9 requires a distributed linear layout
    to be a permutation matrix once the zero bases are dropped."""
    bits = unit_bases(shape)
    # Keep the register count sane: at most 2^7 registers per thread.
    rng.shuffle(bits)
    lane = []
    warp = []
    reg = []
    pool = list(bits)
    # Lanes first (a coalesced-ish start), then warps, registers take the rest.
    for _ in range(5):
        if pool and rng.random() < 0.93:
            lane.append(pool.pop(0))
        else:
            lane.append([0, 0])
    for _ in range(warps_log2):
        if pool and rng.random() < 0.85:
            warp.append(pool.pop(0))
        else:
            warp.append([0, 0])
    reg = pool
    if len(reg) > 7:
        return None
    if rng.random() < 0.25:
        reg.insert(rng.randrange(len(reg) + 1), [0, 0])
    # Registers mostly in increasing order (vectorisable), sometimes shuffled.
    if rng.random() < 0.6:
        reg.sort(key=lambda v: (v[1], v[0]) if rng.random() < 0.5 else (v[0], v[1]))
    return spec("linear", reg_bases=reg, lane_bases=lane, warp_bases=warp, block_bases=[],
                shape=list(shape))


def register_layout(rng, warps_log2, bits, shape, allow_mma=True):
    kind = pick(rng, [("blocked", 30), ("slice", 10), ("mma2", 12), ("mma3", 8), ("dot", 20),
                      ("linear", 20)] if allow_mma else [("blocked", 70), ("linear", 30)])
    if kind == "blocked":
        return blocked(rng, 2, warps_log2, shape)
    if kind == "slice":
        return slice_layout(rng, warps_log2)
    if kind == "mma2":
        return mma_v2(rng, warps_log2)
    if kind == "mma3":
        return mma_v3(rng, warps_log2, shape)
    if kind == "dot":
        return dot_operand(rng, warps_log2, bits, shape)
    for _ in range(10):
        got = linear(rng, warps_log2, shape)
        if got is not None:
            return got
    return blocked(rng, 2, warps_log2, shape)


# ---- shared layouts -----------------------------------------------------------------------

def swizzled(rng):
    order = [1, 0] if rng.random() < 0.7 else [0, 1]
    return spec("swizzled_shared", vec=rng.choice([1, 1, 2, 4, 8, 16]),
                per_phase=rng.choice([1, 1, 2, 4, 8]), max_phase=rng.choice([1, 1, 2, 4, 8, 16]),
                order=order)


def nvmma(rng, bits):
    return spec("nvmma_shared", swizzle_byte_width=rng.choice([0, 32, 64, 128, 128]),
                element_bitwidth=bits, rank=2, transposed=rng.random() < 0.3)


def identity_bases(shape, order):
    out = []
    for d in order:
        for b in range(log2(shape[d])):
            v = [0] * len(shape)
            v[d] = 1 << b
            out.append(v)
    return out


def padded(rng, shape):
    order = [1, 0] if rng.random() < 0.7 else [0, 1]
    total = shape[0] * shape[1]
    pairs = []
    for _ in range(rng.choice([1, 1, 1, 2])):
        interval = rng.choice([16, 32, 64, 128, 256, 512, 1024])
        if interval >= total or any(p[0] == interval for p in pairs):
            continue
        pairs.append([interval, rng.choice([1, 2, 4, 8, 16])])
    if not pairs:
        pairs = [[min(32, total // 2), 4]]
    pairs.sort()
    return spec("padded_shared", interval_padding_pairs=pairs,
                offset_bases=identity_bases(shape, order), shape=list(shape))


def shared_linear(rng, shape):
    """A permutation of the tensor's bits (row- or column-major, sometimes shuffled higher up)
    XOR-swizzled: some higher bases also flip low (bank) bits."""
    order = [1, 0] if rng.random() < 0.7 else [0, 1]
    bases = identity_bases(shape, order)
    lo = min(len(bases), rng.choice([2, 3, 4]))
    hi = bases[lo:]
    if rng.random() < 0.3:
        rng.shuffle(hi)
    for i in range(len(hi)):
        if rng.random() < 0.5:
            hi[i] = xor(hi[i], bases[rng.randrange(lo)])
    return spec("shared_linear", offset_bases=bases[:lo] + hi, block_bases=[], alignment=16)


def shared_layout(rng, bits, shape):
    kind = pick(rng, [("swizzled", 35), ("nvmma", 30 if bits <= 32 else 0), ("padded", 15),
                      ("linear", 20)])
    if kind == "swizzled":
        return swizzled(rng)
    if kind == "nvmma":
        return nvmma(rng, bits)
    if kind == "padded":
        return padded(rng, shape)
    return shared_linear(rng, shape)


# ---- cases --------------------------------------------------------------------------------

def random_case(rng, index):
    kind = pick(rng, KINDS)
    dtype = pick(rng, DTYPES)
    bits = BITS[dtype]
    num_warps = 4 if rng.random() < 0.6 else 8
    arch = "sm90" if rng.random() < 0.6 else "sm80"
    wl = log2(num_warps)
    max_elems_log2 = 14 if bits <= 32 else 13
    while True:
        m, n = rng.randint(3, 8), rng.randint(3, 8)
        if 8 <= m + n <= max_elems_log2:
            break
    shape = [1 << m, 1 << n]
    case = {"id": f"c{index:04d}", "kind": kind, "shape": shape, "dtype": dtype,
            "num_warps": num_warps, "arch": arch}
    if kind == "async":
        # cp.async moves 4, 8 or 16 bytes: Triton needs at least 32-bit elements per copy
        # (it rejects narrower); the pointer layout is blocked or linear.
        case["src"] = register_layout(rng, wl, bits, shape, allow_mma=False)
    else:
        case["src"] = register_layout(rng, wl, bits, shape)
    case["dst"] = register_layout(rng, wl, bits, shape)
    if kind != "convert":
        case["shared"] = shared_layout(rng, bits, shape)
    return case


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=900)
    p.add_argument("--seed", default="llcheck-lowering-1")
    p.add_argument("-o", "--out", required=True)
    args = p.parse_args()
    rng = random.Random(args.seed)
    cases = [random_case(rng, i) for i in range(args.n)]
    with open(args.out, "w") as f:
        json.dump({"seed": args.seed, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(cases)} cases to {args.out}")


if __name__ == "__main__":
    main()
