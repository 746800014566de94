#!/usr/bin/env python3
"""The launches predicates.cu runs (README.md): each line "ID KERNEL T STATES g.. s..".

For each op (ca4, ca8, ca16: cp.async.ca of 4, 8, 16 bytes; cg16: cp.async.cg of 16 bytes) and
three address patterns of one warp:
- contig: the contiguous tile copy, g = s = t*V (a 32*V-byte row, shared alike);
- far: every lane in a global line of its own (g = t*4096), shared contiguous (s = t*V);
- swz: 64-byte tile rows 4096 bytes apart in global, written to shared with Triton's swizzle
  (16-byte chunks: chunk ^= (row / 2) % 4, the matmul A tile of 16-bit elements; for 4- and
  8-byte lanes the V-byte unit ^= row % (64 / V)),
each kernel of predicates.cu (a predicate form and register) runs the lane masks:
- none: every lane copies;
- hi16: lanes 16-31 masked;
- odd: the odd lanes masked;
- one: lane 0 masked; only0: every lane but lane 0 masked;
- all: every lane masked.
"Masked" is zero fill (state z: src-size 0) for the zero-fill forms and predicated off (state o)
for the guard forms; the guard + zero-fill forms run both (z with the guard on, o with it off).
Four-warp CTAs (T = 128, the warp's pattern repeated: global + w * span, shared + w * 32 * V):
whole warps masked beside unmasked ones (w13: warps 1 and 3; w0: warp 0; w123; all4; none;
mix: warp 0 unmasked, warp 1 masked, warp 2 lanes 16-31 masked, warp 3 odd lanes masked), for the
contig and far patterns.

Usage: launches.py > launches.txt. Lines come in priority order (one warp of cg16, ca16, ca4,
then four warps of them, then ca8) so that a run cut short keeps the most informative ones.
"""
import sys

OPS = [("cg16", 16), ("ca16", 16), ("ca4", 4), ("ca8", 8)]
ZFILL = ["Z_P0", "Z_P1", "Z_P4", "Z_P6", "Z64_nP0", "Z64W_nP1", "Z64W_nP6"]
GUARD = ["G_gP0", "G_gP3", "G_bra", "G64_gnP0"]
BOTH = ["GZ_gnP1_P0", "GZ_gnP6_P0", "G64Z_gnP0_P1"]

MASKS = {
    "none": lambda t: False,
    "hi16": lambda t: t >= 16,
    "odd": lambda t: t % 2 == 1,
    "one": lambda t: t == 0,
    "only0": lambda t: t != 0,
    "all": lambda t: True,
}


def pattern(name, v):
    """One warp's (g, s) byte offsets."""
    g, s = [], []
    for t in range(32):
        if name == "contig":
            g.append(t * v)
            s.append(t * v)
        elif name == "far":
            g.append(t * 4096)
            s.append(t * v)
        else:  # swz: 64-byte rows
            per_row = 64 // v
            r, c = divmod(t, per_row)
            g.append(r * 4096 + c * v)
            if v == 16:
                cs = c ^ ((r // 2) % 4)
            else:
                cs = c ^ (r % per_row)
            s.append(r * 64 + cs * v)
    return g, s


def warp_span(name, v):
    """Global bytes between consecutive warps' copies in a four-warp CTA."""
    return 32 * v if name == "contig" else 32 * 4096


def line(ident, kernel, states, g, s):
    assert len(states) == len(g) == len(s)
    return " ".join([ident, kernel, str(len(g)), "".join(states)] + [str(x) for x in g + s])


def single(op, v, pat):
    g, s = pattern(pat, v)
    out = [line(f"1w-{op}-{pat}-PLAIN-none", f"{op}_PLAIN", "c" * 32, g, s)]
    for k in ZFILL:
        for m, f in MASKS.items():
            st = ["z" if f(t) else "c" for t in range(32)]
            out.append(line(f"1w-{op}-{pat}-{k}-{m}", f"{op}_{k}", st, g, s))
    for k in GUARD:
        for m, f in MASKS.items():
            st = ["o" if f(t) else "c" for t in range(32)]
            out.append(line(f"1w-{op}-{pat}-{k}-{m}", f"{op}_{k}", st, g, s))
    for k in BOTH:
        for m, f in MASKS.items():
            st = ["z" if f(t) else "c" for t in range(32)]
            out.append(line(f"1w-{op}-{pat}-{k}-{m}", f"{op}_{k}", st, g, s))
        for m in ("hi16", "odd", "all"):
            f = MASKS[m]
            st = ["o" if f(t) else "c" for t in range(32)]
            out.append(line(f"1w-{op}-{pat}-{k}-{m}-off", f"{op}_{k}", st, g, s))
    return out


WARPS = {
    "none": ["none"] * 4,
    "w13": ["none", "all", "none", "all"],
    "w0": ["all", "none", "none", "none"],
    "w123": ["none", "all", "all", "all"],
    "all4": ["all"] * 4,
    "mix": ["none", "all", "hi16", "odd"],
}
FOUR = [("Z_P0", "z"), ("Z_P4", "z"), ("Z64_nP0", "z"), ("Z64W_nP1", "z"), ("G_gP0", "o"),
        ("G_gP3", "o"), ("G64_gnP0", "o"), ("GZ_gnP1_P0", "z"), ("GZ_gnP1_P0", "o"),
        ("GZ_gnP6_P0", "o"), ("G64Z_gnP0_P1", "z"), ("G64Z_gnP0_P1", "o")]


def four(op, v, pat):
    g1, s1 = pattern(pat, v)
    span = warp_span(pat, v)
    g = [x + w * span for w in range(4) for x in g1]
    s = [x + w * 32 * v for w in range(4) for x in s1]
    out = []
    for k, how in FOUR:
        for cfg, masks in WARPS.items():
            if cfg == "none" and how == "o" and k.startswith("GZ"):
                continue  # the same launch as the z row
            st = [how if MASKS[masks[w]](t) else "c" for w in range(4) for t in range(32)]
            out.append(line(f"4w-{op}-{pat}-{k}-{cfg}-{how}", f"{op}_{k}", st, g, s))
    return out


def all_launches():
    out = []
    ops = dict(OPS)
    for op in ("cg16", "ca16", "ca4"):
        for pat in ("far", "contig", "swz"):
            out += single(op, ops[op], pat)
    for op in ("cg16", "ca16", "ca4"):
        for pat in ("far", "contig"):
            out += four(op, ops[op], pat)
    for pat in ("far", "contig", "swz"):
        out += single("ca8", 8, pat)
    for pat in ("far", "contig"):
        out += four("ca8", 8, pat)
    return out


def main():
    sys.stdout.write("\n".join(all_launches()) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
