#!/usr/bin/env python3
"""The patterns ldgsts_rule.cu measures: each one warp-wide cp.async of 4, 8 or 16 bytes per lane
(LDGSTS), every lane with its own global source offset and shared destination offset, chosen to
tell apart candidate rules for the shared-memory wavefronts of the copy (README.md).

Families (seeded, so the file is the same on every run):
- tile: the matmul-tile copy; lane t copies bytes [t*V, t*V+V) of a tile whose rows are W bytes,
  row r read at global r*S (+ a base), written to shared contiguously or with a Triton-style
  swizzle (16-byte chunk XOR row phase, per tile row or per 128-byte shared row);
- bcast: groups of lanes reading one global address (all 32, 2, 4, 8, 16 lanes a group);
- spread: every lane in a line of its own (strides of 128 bytes and more, random lines);
- perm: the contiguous 32*V bytes with the lanes permuted (global side, or shared side);
- misaligned: contiguous lanes starting off a 32-byte sector or a 128-byte line;
- fp32: the 4-byte contiguous copy (global and shared both t*4);
- shared: global fixed contiguous (t*V), only the shared side varies (strides, XOR maps,
  random distinct slots), so the shared-side rule can be read alone;
- global: shared fixed contiguous (t*V), only the global side varies (k lanes a line, random
  sectors, random lines);
- mixed: random global and random shared.
Every lane's shared destination is distinct (the data is checked), global sources may repeat.
16-byte patterns are measured as cp.async.ca and as cp.async.cg; 4 and 8 only as .ca (the only
form PTX has). A subset runs again as "ca_warm"/"cg_warm": the lane first loads its own source
with ld.global.ca, so the copy finds it in L1.

Usage: patterns.py > patterns.txt (lines "ID OP BYTES g0 .. g31 s0 .. s31", OP ca, cg, ca_warm
or cg_warm).
"""
import random
import sys

GLOBAL = 1 << 20  # bytes of the source buffer
SHARED = 32768  # bytes of the destination buffer


def tile(v, w, s, base, swz):
    """Lane t: byte t*v of a tile of rows of w bytes; global row stride s."""
    g, d = [], []
    for t in range(32):
        e = t * v
        r, c = divmod(e, w)
        g.append(base + r * s + c)
        if swz is None:
            d.append(e)
        elif swz[0] == "row":  # Triton swizzled_shared: chunk ^= (row // perPhase) % maxPhase
            _, pp, mp = swz
            chunks = max(w // 16, 1)
            c16, within = divmod(c, 16)
            c16 ^= ((r // pp) % mp) % chunks
            d.append(r * w + c16 * 16 + within)
        else:  # NVMMA-style: 128-byte shared rows, chunk ^= (srow // pp) % mp
            _, pp, mp = swz
            srow, col = divmod(e, 128)
            c16, within = divmod(col, 16)
            c16 ^= (srow // pp) % mp
            d.append(srow * 128 + c16 * 16 + within)
    return g, d


def contiguous(v, base=0):
    return [base + t * v for t in range(32)]


def distinct_random(rng, v, span):
    slots = rng.sample(range(max(span // v, 48)), 32)
    return [x * v for x in slots]


def linear_shared(rng, v):
    """Lane t -> XOR of five random unit vectors (nonzero, independent), as an F2-linear layout."""
    units = SHARED // v
    bits = units.bit_length() - 1
    while True:
        basis = [rng.randrange(1, 1 << min(bits, 10)) for _ in range(5)]
        out = []
        for t in range(32):
            u = 0
            for k in range(5):
                if t >> k & 1:
                    u ^= basis[k]
            out.append(u * v)
        if len(set(out)) == 32:
            return out


def holdout(add):
    """Patterns added after the first run, with the rules of README.md fixed from it: their counts
    were predicted (predicted.txt, committed before the second run) and then measured."""
    import itertools
    rng = random.Random(20261202)
    # Sector maps for 16 bytes: each phase copies one global line into one shared row, its four
    # 32-byte sectors permuted by one of the 24 permutations, the halves kept or swapped.
    for perm in itertools.permutations(range(4)):
        for swap in (0, 1):
            g, d = [], []
            for t in range(32):
                ph, c = divmod(t, 8)
                sec, half = divmod(c, 2)
                g.append(ph * 256 + c * 16)
                d.append(ph * 128 + perm[sec] * 32 + (half ^ swap) * 16)
            add(f"h-secmap-{''.join(map(str, perm))}-swap{swap}", 16, g, d)
    # Half sectors: 16-byte shift by an odd number of chunks with the sector map rotated.
    for shift in (1, 3, 5, 7):
        for rows in (1, 2):
            g = [(t // (8 // rows)) * 512 + ((t % 8) * 16 + shift * 16) % 128 for t in range(32)]
            add(f"h-halfshift-{shift}-r{rows}", 16, g, contiguous(16))
    # Random tiles: row width, stride, base and swizzle drawn at random.
    swz = [None, ("row", 1, 8), ("row", 2, 4), ("row", 1, 2), ("nvmma", 1, 8), ("nvmma", 2, 4),
           ("nvmma", 4, 2), ("nvmma", 1, 4)]
    for v, count in ((16, 40), (8, 25), (4, 25)):
        for i in range(count):
            w = rng.choice([x for x in (16, 32, 64, 128, 256) if x >= v])
            s = rng.choice([w, 2 * w, 3 * w, 4 * w, 128, 384, 640, 4096,
                            4096 + 16 * rng.randrange(8)])
            s = max(s, w)
            base = rng.randrange(0, 4096 // v) * v
            sw = rng.choice(swz)
            g, d = tile(v, w, s, base, sw)
            if max(g) + v > GLOBAL:
                continue
            add(f"h-tile-{v}-{i}", v, g, d)
    # Random F2-linear maps on both sides (lane bits to 16-byte chunk bits), like Triton layouts.
    for v, count in ((16, 30), (8, 20), (4, 20)):
        for i in range(count):
            gl = [rng.randrange(1, 256) * v for _ in range(5)]
            sl = [rng.randrange(1, 1 << 10) for _ in range(5)]
            g, d = [], []
            for t in range(32):
                a = b = 0
                for k in range(5):
                    if t >> k & 1:
                        a ^= gl[k]
                        b ^= sl[k]
                g.append(a)
                d.append(b * v)
            if len(set(d)) == 32 and all(x % v == 0 for x in g):
                add(f"h-linear-{v}-{i}", v, g, d)
    # Random global and shared, both sides, as the mixed family (the .ca rule misses some).
    for v in (16, 8, 4):
        for i in range(8):
            span = rng.choice([512, 2048, GLOBAL])
            g = [rng.randrange(span // v) * v for _ in range(32)]
            add(f"h-mixed-{v}-{i}", v, g, distinct_random(rng, v, rng.choice([512, 2048, SHARED])))


def main():
    rng = random.Random(20261201)
    pats = []  # (id, bytes, g, s)

    def add(ident, v, g, s):
        assert len(g) == len(s) == 32
        assert all(x % v == 0 and 0 <= x <= GLOBAL - v for x in g), ident
        assert all(x % v == 0 and 0 <= x <= SHARED - v for x in s), ident
        assert len(set(s)) == 32, ident
        pats.append((ident, v, g, s))

    swizzles = [None, ("row", 1, 8), ("row", 2, 4), ("row", 1, 4), ("row", 4, 2),
                ("nvmma", 1, 8), ("nvmma", 2, 4), ("nvmma", 1, 2)]
    for v in (16, 8, 4):
        for w in (16, 32, 64, 128, 256):
            if w < v:
                continue
            for s in sorted({w, 2 * w, 4 * w, 8 * w, 128, 256, 4096}):
                if s < w:
                    continue
                # Every (w, s) with base 0 and contiguous shared, then a sample of the others.
                add(f"tile-{v}-w{w}-s{s}-b0-plain", v, *tile(v, w, s, 0, None))
                for _ in range(2):
                    base = rng.choice([16, 32, 64, 128, 0, 4096 + 64])
                    if base % v:
                        base = 0
                    swz = rng.choice(swizzles)
                    name = "plain" if swz is None else "-".join(map(str, swz))
                    add(f"tile-{v}-w{w}-s{s}-b{base}-{name}", v, *tile(v, w, s, base, swz))
        # Lanes sharing global addresses.
        for k in (32, 16, 8, 4, 2):
            g = [(t // k) * v * (1 if rng.random() < 0.5 else 32) for t in range(32)]
            add(f"bcast-{v}-k{k}", v, g, contiguous(v))
            g = [(t % (32 // k)) * v for t in range(32)]  # lane t and t + 32/k share
            add(f"bcast-{v}-mod{32 // k}", v, g, contiguous(v))
        # One line per lane.
        for stride in (128, 256, 512, 4096, 128 + v, 32):
            if stride < v:
                continue
            add(f"spread-{v}-st{stride}", v, [t * stride for t in range(32)], contiguous(v))
        for i in range(3):
            lines = rng.sample(range(GLOBAL // 128), 32)
            add(f"spread-{v}-rand{i}", v, [ln * 128 + rng.randrange(128 // v) * v for ln in lines],
                contiguous(v))
        # Permutations of the contiguous bytes.
        for i in range(6):
            perm = list(range(32))
            rng.shuffle(perm)
            add(f"perm-{v}-global{i}", v, [p * v for p in perm], contiguous(v))
            add(f"perm-{v}-shared{i}", v, contiguous(v), [p * v for p in perm])
        # Off a sector or a line.
        for base in sorted({v, 2 * v, 32 - v, 32, 64, 96, 128 - v, 48, 80} - {0}):
            if base % v == 0:
                add(f"misaligned-{v}-b{base}", v, contiguous(v, base), contiguous(v))
        # Global fixed contiguous, shared varies.
        for stride in (1, 2, 3, 4, 8, 16, 32):
            sh = [t * v * stride for t in range(32)]
            if max(sh) + v <= SHARED:
                add(f"shared-{v}-stride{stride}", v, contiguous(v), sh)
        for i in range(10):
            add(f"shared-{v}-linear{i}", v, contiguous(v), linear_shared(rng, v))
        for i in range(6):
            add(f"shared-{v}-rand{i}", v, contiguous(v),
                distinct_random(rng, v, rng.choice([256, 512, 1024, SHARED])))
        # Shared fixed contiguous, global varies.
        for k in (1, 2, 4, 8, 16):  # k lanes in each line, lines in order
            per = 128 // v
            g = []
            for t in range(32):
                ln, j = divmod(t, k)
                g.append(ln * 256 + (j % per) * v)
            add(f"global-{v}-perline{k}", v, g, contiguous(v))
        for i in range(8):
            span = rng.choice([256, 512, 1024, 4096, GLOBAL])
            g = [rng.randrange(span // v) * v for _ in range(32)]
            add(f"global-{v}-rand{i}", v, g, contiguous(v))
        for i in range(5):  # sectors: random distinct 32-byte sectors, each lane's bytes inside one
            secs = rng.sample(range(64), 32)
            g = [sec * 32 + rng.randrange(32 // v) * v for sec in secs]
            add(f"global-{v}-sectors{i}", v, g, contiguous(v))
        # Both random.
        for i in range(8):
            span = rng.choice([512, 2048, GLOBAL])
            g = [rng.randrange(span // v) * v for _ in range(32)]
            add(f"mixed-{v}-rand{i}", v, g,
                distinct_random(rng, v, rng.choice([512, 2048, SHARED])))
    add("fp32-contiguous", 4, contiguous(4), contiguous(4))
    add("fp32-contiguous-b4096", 4, contiguous(4, 4096), contiguous(4))
    holdout(add)

    lines = []
    for ident, v, g, s in pats:
        ops = ["ca", "cg"] if v == 16 else ["ca"]
        for op in ops:
            lines.append((ident, op, v, g, s))
        if ident.startswith(("tile-", "fp32", "spread-", "misaligned-")) and "plain" in ident or \
                ident.startswith(("fp32", "spread-", "misaligned-")):
            lines.append((ident, "ca_warm", v, g, s))
            if v == 16:
                lines.append((ident, "cg_warm", v, g, s))
    for ident, op, v, g, s in lines:
        print(ident, op, v, *g, *s)


if __name__ == "__main__":
    sys.exit(main())
