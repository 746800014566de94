#!/usr/bin/env python3
"""The patterns wavefront_rule.cu measures: each one warp-wide ld/st.shared of 4, 8 or 16 bytes
per lane, at offsets chosen to tell apart the candidate wavefront rules (README.md).

Families (seeded, so the file is the same on every run):
- linear: each lane's unit index is an XOR of five lane basis vectors (zero ones broadcast),
  as every F2-linear layout gives; the base is a random unit;
- pool: lanes pick among a few random units (repeats inside and across phases);
- split: the lanes of each phase stay in a band of banks of their own (phases on disjoint
  banks, each with a conflict), the case a per-phase rule and a whole-warp rule disagree on;
- the issue's example: i8 64x16 blocked sizePerThread [1, 8], threadsPerWarp [2, 16] over
  swizzled_shared vec 4, perPhase 8, maxPhase 1: two rows of two 8-byte vectors per warp.
Usage: patterns.py > patterns.txt (lines "ID OP BYTES o0 .. o31").
"""
import random
import sys

SHARED = 32768


def linear(rng, width):
    units = SHARED // width
    bits = units.bit_length() - 1
    basis = []
    for _ in range(5):
        r = rng.random()
        if r < 0.3:
            basis.append(0)
        elif r < 0.7:
            basis.append(1 << rng.randrange(min(bits, 12)))
        else:
            basis.append(rng.randrange(1, 1 << min(bits, 12)))
    base = rng.randrange(units) & ~((1 << min(bits, 12)) - 1) if bits > 12 else 0
    out = []
    for lane in range(32):
        u = base
        for k in range(5):
            if lane >> k & 1:
                u ^= basis[k]
        out.append((u % units) * width)
    return out


def pool(rng, width):
    units = SHARED // width
    size = rng.choice([1, 2, 3, 4, 6, 8, 16, 32])
    spread = rng.choice([128 // width, 256 // width, 1024 // width, units])
    choices = [rng.randrange(spread) for _ in range(size)]
    return [rng.choice(choices) * width for _ in range(32)]


def split(rng, width):
    phases = width // 4  # 1, 2 or 4 phases of 32, 16 or 8 lanes
    lanes = 32 // phases
    per_row = 128 // width
    out = []
    for p in range(phases):
        # Each phase in its own band of the row's units, a few rows deep.
        band = max(per_row // phases, 1)
        rows = rng.choice([1, 2, 4])
        for _ in range(lanes):
            col = (p * band + rng.randrange(band)) % per_row
            row = rng.randrange(rows) + (rng.randrange(4) * 8 if rng.random() < 0.2 else 0)
            out.append((row * per_row + col) * width)
    return out


def issue_example():
    # Lane bits: 0 -> the second 8-byte vector of the row, 1..3 broadcast, 4 -> the next row
    # (16 bytes a row).
    return [(lane & 1) * 8 + (lane >> 4) * 16 for lane in range(32)]


def main():
    rng = random.Random(20261126)
    lines = []
    for op in ("ld", "st"):
        lines.append(("issue-example", op, 8, issue_example()))
    for width, count in ((4, 30), (8, 120), (16, 120)):
        for i in range(count):
            for family, make in (("linear", linear), ("pool", pool), ("split", split)):
                offs = make(rng, width)
                for op in ("ld", "st"):
                    lines.append((f"{family}-{width}-{i}", op, width, offs))
    for ident, op, width, offs in lines:
        print(ident, op, width, *offs)


if __name__ == "__main__":
    sys.exit(main())
