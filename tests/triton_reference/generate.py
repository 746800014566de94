#!/usr/bin/env python3
"""Records what Triton's own LinearLayout computes, for llcheck's differential test.

core/tests/triton_reference_test.cpp rebuilds every layout recorded here with llcheck's
algebra and expects the very same results: the printed form (str(layout), byte for byte),
bases, output sizes, is_injective/is_surjective/is_invertible, the matrix view, apply,
invert, pseudoinvert, and, on pairs, a * b, a.compose(b), a.invert_and_compose(b) and a == b.
Where Triton rejects a request (an LLVM fatal error or a failed assertion, both of which
abort the process), the case records {"error": <Triton's message>} and the test expects
llcheck to reject it too.

Nothing here is computed by this script: every recorded result is Triton's return value.
The script only chooses the inputs, with a fixed seed, and runs each Triton call that can
abort in a forked child so that an abort becomes a recorded error.

The bindings (triton._C.libtriton.linear_layout.LinearLayout) expose from_bases,
identity_1d, strided_1d, zeros_1d, __mul__, compose, invert_and_compose, invert,
pseudoinvert, apply, is_injective, is_surjective, is_invertible, bases, out_dims,
get_matrix_view, get_in_dim_names, get_out_dim_names and __str__; getFreeVariableMasks,
divideLeft, reshape*, transpose*, sublayout etc. are not bound, so they are not recorded.

Regenerate (CPU only; no GPU is needed for these bindings):

    python3 -m venv /tmp/tv36 && /tmp/tv36/bin/pip install triton==3.6.0
    /tmp/tv36/bin/python tests/triton_reference/generate.py \
        -o tests/triton_reference/triton_cases.json

and rebuild/run the test:

    cmake --build build -j2 && ./build/core/core_tests --gtest_filter='TritonReference*'

The output is deterministic for a given Triton version (same seed, same inputs); running it
with another Triton version and diffing the two files shows where the versions differ. The
Triton 3.9.0 run is committed too, as triton_cases-3.9.0.json:

    /tmp/tv39/bin/python tests/triton_reference/generate.py \
        -o tests/triton_reference/triton_cases-3.9.0.json

and the test checks each file with the rules of its release (invertAndCompose's identity dims
changed; docs/triton-versions.md).
"""

import argparse
import json
import os
import random
import re
import sys
import tempfile

import triton
import triton._C.libtriton as lt

L = lt.linear_layout.LinearLayout

SEED = 20240613
DIST_INS = ["register", "lane", "warp", "block"]
SHARED_INS = ["offset", "block"]
ARB_INS = ["x", "y", "z", "in0", "in1", "k", "row", "col", "dim0", "dim1"]
OUTS = ["dim0", "dim1", "dim2"]
MAX_IN_BITS = 12


# ---- Running Triton calls that may abort ----------------------------------------------------

def _clean_error(text):
    """The line saying why Triton aborted, without the build path and line number."""
    lines = [l for l in text.splitlines() if l.strip()]
    pick = None
    for l in lines:
        if "LLVM ERROR" in l or "Assertion" in l or "Error" in l or "error" in l:
            pick = l
            break
    if pick is None:
        pick = lines[0] if lines else "aborted with no message"
    pick = re.sub(r"^\S*python\S*: ", "", pick)
    pick = re.sub(r"/project/\S+:\d+: ", "", pick)
    return pick[:300]


def isolated(fn):
    """Runs fn() in a forked child. Returns (True, value) or (False, error message)."""
    r, w = os.pipe()
    err = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.dup2(err.fileno(), 2)
            try:
                out = {"ok": fn()}
            except Exception as e:  # a Python-level rejection by the bindings
                out = {"exc": f"{type(e).__name__}: {e}"}
            with os.fdopen(w, "wb") as f:
                f.write(json.dumps(out).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    err.seek(0)
    errtext = err.read().decode(errors="replace")
    err.close()
    if data:
        out = json.loads(data)
        if "ok" in out:
            return True, out["ok"]
        return False, out["exc"]
    return False, _clean_error(errtext)


# ---- Recording a Triton layout ---------------------------------------------------------------

def plain_bases(l):
    return [[name, [list(b) for b in bs]] for name, bs in l.bases]


def plain_out_dims(l):
    return [[name, size] for name, size in l.out_dims]


def describe(l):
    """A result layout: its printed form and its bases/out dims as plain lists."""
    return {"str": str(l), "bases": plain_bases(l), "out_dims": plain_out_dims(l)}


def build(ctor):
    if ctor["ctor"] == "from_bases":
        bases = [(n, b) for n, b in ctor["bases"]]
        if "out_sizes" in ctor:
            return L.from_bases(bases, ctor["out_names"], ctor["out_sizes"],
                                ctor["require_surjective"])
        return L.from_bases(bases, ctor["out_names"])
    if ctor["ctor"] == "identity_1d":
        return L.identity_1d(ctor["size"], ctor["in"], ctor["out"])
    if ctor["ctor"] == "strided_1d":
        return L.strided_1d(ctor["size"], ctor["stride"], ctor["in"], ctor["out"])
    if ctor["ctor"] == "zeros_1d":
        return L.zeros_1d(ctor["size"], ctor["in"], ctor["out"], ctor["out_size"])
    if ctor["ctor"] == "empty":
        return L()
    raise ValueError(ctor["ctor"])


# ---- F2 helpers for choosing inputs -------------------------------------------------------

def rank_of(cols):
    basis = {}
    for c in cols:
        while c:
            h = c.bit_length() - 1
            if h not in basis:
                basis[h] = c
                break
            c ^= basis[h]
    return len(basis)


def in_span(cols, v):
    return rank_of(cols + [v]) == rank_of(cols)


def random_independent(rng, nbits, count, start=()):
    """`count` vectors of nbits bits, independent of each other and of `start`."""
    have = list(start)
    out = []
    while len(out) < count:
        v = rng.getrandbits(nbits) if nbits else 0
        if v and not in_span(have, v):
            have.append(v)
            out.append(v)
    return out


def extra_column(rng, placed, nbits, style):
    if style == "zero" or nbits == 0:
        return 0
    if style == "dependent" and placed:
        v = 0
        for c in rng.sample(placed, rng.randint(1, min(3, len(placed)))):
            v ^= c
        return v
    return rng.getrandbits(nbits)


def split_bits(rng, total, parts):
    """Splits `total` bits over `parts` dims (each >= 0)."""
    sizes = [0] * parts
    for _ in range(total):
        sizes[rng.randrange(parts)] += 1
    return sizes


def columns_for(rng, n, m, kind):
    """n packed columns into m output bits with the given property."""
    if kind == "zeros":
        return [0] * n
    if kind == "random":
        return [rng.getrandbits(m) if m else 0 for _ in range(n)]
    if kind == "injective":  # n <= m
        cols = random_independent(rng, m, n)
        rng.shuffle(cols)
        return cols
    # surjective family: m <= n, m spanning columns, the rest zero/dependent/random.
    span = random_independent(rng, m, m)
    style = {"invertible": None, "broadcast": "zero", "dependent": "dependent",
             "surjective": None}[kind]
    positions = sorted(rng.sample(range(n), m))
    cols = []
    it = iter(span)
    for j in range(n):
        if j in positions:
            cols.append(next(it))
        else:
            s = style or rng.choice(["zero", "dependent", "random"])
            cols.append(extra_column(rng, cols, m, s))
    return cols


def unpack(col, out_bits):
    vals, off = [], 0
    for b in out_bits:
        vals.append((col >> off) & ((1 << b) - 1))
        off += b
    return vals


def pack(vals, out_bits):
    col, off = 0, 0
    for v, b in zip(vals, out_bits):
        col |= v << off
        off += b
    return col


def bases_from_columns(ins, out_bits, cols):
    bases, j = [], 0
    for name, bits in ins:
        bases.append([name, [unpack(cols[j + i], out_bits) for i in range(bits)]])
        j += bits
    return bases


# ---- Choosing layouts ---------------------------------------------------------------------

def choose_ins(rng, family, total=None):
    if family == "distributed":
        names = [d for d in DIST_INS if rng.random() < 0.75] or ["register"]
    elif family == "shared":
        names = ["offset", "block"] if rng.random() < 0.6 else ["offset"]
    else:
        names = rng.sample(ARB_INS, rng.randint(1, 3))
    if total is None:
        total = rng.randint(0, MAX_IN_BITS)
    return list(zip(names, split_bits(rng, total, len(names))))


def choose_out_names(rng):
    k = rng.choice([1, 2, 2, 2, 3, 3])
    names = OUTS[:k]
    if k > 1 and rng.random() < 0.35:
        names = names[:]
        while names == OUTS[:k]:
            rng.shuffle(names)
    return names


KINDS = ["invertible", "surjective", "broadcast", "dependent", "injective", "random", "zeros"]


def out_bits_for(rng, n, kind):
    if kind == "invertible":
        return n
    if kind in ("surjective", "broadcast", "dependent"):
        return rng.randint(0, n) if kind == "surjective" else rng.randint(max(0, n - 4), n)
    if kind == "injective":
        return n + rng.randint(0, 3)
    if kind == "zeros":
        return rng.randint(0, 4)
    return rng.randint(0, 12)


def make_spec(rng, ins, out_names, out_bits, kind, mode=None, cols=None):
    n = sum(b for _, b in ins)
    m = sum(out_bits)
    if cols is None:
        cols = columns_for(rng, n, m, kind)
    spec = {"ctor": "from_bases", "bases": bases_from_columns(ins, out_bits, cols),
            "out_names": out_names}
    if mode is None:
        mode = rng.choices(["explicit", "explicit_surj", "inferred"], [6, 2, 2])[0]
    if mode != "inferred":
        spec["out_sizes"] = [1 << b for b in out_bits]
        spec["require_surjective"] = mode == "explicit_surj"
    return spec


class Recorder:
    def __init__(self):
        self.layouts = []  # recorded entries
        self.objs = []  # the Triton objects (None where creation failed)

    def add(self, kind, spec):
        ok, err = isolated(lambda: str(build(spec)))
        entry = {"id": len(self.layouts), "kind": kind, "ctor": spec}
        obj = build(spec) if ok else None
        if not ok:
            entry["error"] = err
        self.layouts.append(entry)
        self.objs.append(obj)
        return entry["id"]

    def valid(self, i):
        return self.objs[i] is not None


def record_layout_results(rng, rec):
    for entry, l in zip(rec.layouts, rec.objs):
        if l is None:
            continue
        res = describe(l)
        res["injective"] = l.is_injective()
        res["surjective"] = l.is_surjective()
        res["invertible"] = l.is_invertible()
        res["matrix"] = ["".join(str(b) for b in row) for row in l.get_matrix_view()]
        ins = l.get_in_dim_names()
        sizes = {name: len(bs) for name, bs in l.bases}
        applies = []
        points = set()
        for _ in range(3):
            pt = tuple((d, rng.randrange(1 << sizes[d])) for d in ins)
            points.add(pt)
        # All-ones (every basis XORed in) is the most informative single point.
        points.add(tuple((d, (1 << sizes[d]) - 1) for d in ins))
        for pt in sorted(points):
            given = list(pt)
            if rng.random() < 0.5:
                given = given[::-1]  # dict order should not matter
            outp = l.apply(dict(given))
            applies.append([[list(p) for p in given], [[k, v] for k, v in outp.items()]])
        res["apply"] = applies
        for op in ("invert", "pseudoinvert"):
            ok, val = isolated(lambda: describe(getattr(l, op)()))
            res[op] = val if ok else {"error": val}
        entry["result"] = res


# ---- The layouts -------------------------------------------------------------------------

def base_layouts(rng, rec, count):
    families = ["distributed"] * 5 + ["shared"] * 2 + ["arbitrary"] * 3
    for _ in range(count):
        family = rng.choice(families)
        kind = rng.choice(KINDS)
        ins = choose_ins(rng, family)
        n = sum(b for _, b in ins)
        out_names = choose_out_names(rng)
        m = out_bits_for(rng, n, kind)
        out_bits = split_bits(rng, m, len(out_names))
        # Non-surjective layouts can also have output sizes larger than needed.
        rec.add(f"{family}/{kind}", make_spec(rng, ins, out_names, out_bits, kind))


def special_layouts(rng, rec):
    """Hand-picked corner cases, including requests Triton must reject."""
    S = lambda b, names, sizes=None, surj=False: (
        {"ctor": "from_bases", "bases": b, "out_names": names}
        if sizes is None else
        {"ctor": "from_bases", "bases": b, "out_names": names, "out_sizes": sizes,
         "require_surjective": surj})
    cases = [
        ("empty", {"ctor": "empty"}),
        ("no-in-dims", S([], ["dim0"])),
        ("no-in-dims-sized", S([], ["dim0", "dim1"], [1, 1], True)),
        ("no-in-dims-nonsurj", S([], ["dim0"], [4], False)),
        ("size1-dims", S([["register", []], ["lane", [[1, 0], [0, 1]]], ["warp", []]],
                         ["dim0", "dim1"])),
        ("size1-out", S([["register", [[1, 0], [2, 0]]]], ["dim0", "dim1"])),
        ("seed001-swizzle", S([["lane", [[1, 1], [2, 2]]], ["warp", [[0, 1], [0, 2]]]],
                              ["dim0", "dim1"])),
        ("identity_1d", {"ctor": "identity_1d", "size": 16, "in": "lane", "out": "dim0"}),
        ("identity_1d-1", {"ctor": "identity_1d", "size": 1, "in": "lane", "out": "dim0"}),
        ("strided_1d", {"ctor": "strided_1d", "size": 8, "stride": 4, "in": "register",
                        "out": "dim1"}),
        ("strided_1d-1", {"ctor": "strided_1d", "size": 4, "stride": 1, "in": "x",
                          "out": "y"}),
        ("zeros_1d", {"ctor": "zeros_1d", "size": 8, "in": "warp", "out": "dim0",
                      "out_size": 1}),
        ("zeros_1d-sized", {"ctor": "zeros_1d", "size": 4, "in": "warp", "out": "dim1",
                            "out_size": 8}),
        ("zeros_1d-1", {"ctor": "zeros_1d", "size": 1, "in": "block", "out": "dim0",
                        "out_size": 2}),
        # Requests that are invalid (recorded as whatever Triton does with them).
        ("invalid/nonsurjective-inferred", S([["register", [[1], [4]]]], ["dim0"])),
        ("invalid/nonsurjective-required", S([["register", [[1], [4]]]], ["dim0"], [8], True)),
        ("invalid/value-too-large", S([["register", [[5]]]], ["dim0"], [4], False)),
        ("invalid/size-not-pow2", S([["register", [[1]]]], ["dim0"], [3], False)),
        ("invalid/basis-too-short", S([["register", [[1], [2, 0]]]], ["dim0", "dim1"],
                                      [4, 2], False)),
        ("invalid/zeros-nonsurjective", S([["lane", [[0], [0]]]], ["dim0"], [2], True)),
    ]
    for kind, spec in cases:
        rec.add("special/" + kind, spec)


# ---- Pairs --------------------------------------------------------------------------------

def transposed_cols(l_out_names, out_bits, cols, new_names):
    """Packed columns re-packed for the output order new_names."""
    idx = [l_out_names.index(nm) for nm in new_names]
    nb = [out_bits[i] for i in idx]
    return [pack([unpack(c, out_bits)[i] for i in idx], nb) for c in cols], nb


def layout_columns(l):
    """Packed columns and per-dim out bits of a Triton layout (from its recorded bases)."""
    out_bits = [size.bit_length() - 1 for _, size in l.out_dims]
    cols = []
    for _, bs in l.bases:
        for b in bs:
            cols.append(pack(list(b), out_bits))
    return cols, out_bits


def product_pairs(rng, rec, base_ids, count):
    pairs = []
    valid = [i for i in base_ids if rec.valid(i)]
    small = [i for i in valid
             if sum(len(b) for _, b in rec.objs[i].bases) <= 8]
    for t in range(count):
        style = rng.choice(["any", "same-ins", "reordered-ins", "reordered-outs", "empty"])
        a = rng.choice(small)
        la = rec.objs[a]
        if style == "any":
            b = rng.choice(small)
        elif style == "empty":
            b = rec.add("product/empty", {"ctor": "empty"})
            if rng.random() < 0.5:
                a, b = b, a
        else:
            ins = [(nm, rng.randint(0, 3)) for nm in la.get_in_dim_names()]
            outs = list(la.get_out_dim_names())
            if style == "reordered-ins" and len(ins) > 1:
                ins = ins[::-1] if rng.random() < 0.5 else rng.sample(ins, len(ins))
            if style == "reordered-outs" and len(outs) > 1:
                outs = outs[::-1]
            if style == "same-ins" and rng.random() < 0.5:
                # Extra dims on one side only.
                extra = [d for d in DIST_INS + ARB_INS if d not in la.get_in_dim_names()]
                ins.insert(rng.randrange(len(ins) + 1), (rng.choice(extra), rng.randint(0, 2)))
            n = sum(x for _, x in ins)
            kind = rng.choice(KINDS)
            m = min(out_bits_for(rng, n, kind), 8)
            if kind in ("invertible", "surjective", "broadcast", "dependent") and m > n:
                kind = "random"
            if kind == "injective" and m < n:
                kind = "random"
            out_bits = split_bits(rng, m, len(outs))
            b = rec.add(f"product/{style}", make_spec(rng, ins, outs, out_bits, kind,
                                                      mode="explicit"))
            if rng.random() < 0.5:
                a, b = b, a
        pairs.append({"op": "product", "kind": style, "a": a, "b": b})
    return pairs


def compose_pairs(rng, rec, base_ids, count):
    pairs = []
    valid = [i for i in base_ids if rec.valid(i) and rec.objs[i].num_out_dims > 0]
    for _ in range(count):
        a = rng.choice(valid)
        la = rec.objs[a]
        style = rng.choices(["exact", "larger-in", "reordered", "smaller-in", "wrong-names"],
                            [5, 2, 3, 1, 1])[0]
        ins = [[nm, size.bit_length() - 1] for nm, size in la.out_dims]
        if style == "larger-in":
            for d in ins:
                d[1] += rng.randint(0, 2)
        if style == "smaller-in":
            big = [d for d in ins if d[1] > 0]
            if big:
                rng.choice(big)[1] -= 1
            else:
                style = "exact"
        if style == "reordered" and len(ins) > 1:
            ins = ins[::-1]
        if style == "wrong-names":
            ins[rng.randrange(len(ins))][0] = "x"
        ins = [tuple(d) for d in ins]
        n = sum(x for _, x in ins)
        kind = rng.choice(KINDS)
        out_names = choose_out_names(rng) if rng.random() < 0.5 else ["register", "lane"]
        m = out_bits_for(rng, n, kind)
        out_bits = split_bits(rng, m, len(out_names))
        b = rec.add(f"compose/{style}", make_spec(rng, ins, out_names, out_bits, kind,
                                                  mode="explicit"))
        pairs.append({"op": "compose", "kind": style, "a": a, "b": b})
    return pairs


def outer_for(rng, la, style):
    """An outer layout for la.invert_and_compose(outer), as (ins, out_names, out_bits, cols)."""
    a_cols, a_bits = layout_columns(la)
    a_names = list(la.get_out_dim_names())
    names = a_names[:]
    bits = a_bits[:]
    if style in ("reordered", "identity-dims-reordered") and len(names) > 1:
        names = names[::-1]
    if style in ("larger-out", "identity-dims-larger-out"):
        bits = [b + rng.randint(0, 1) for b in bits]
        if bits == a_bits:
            bits[rng.randrange(len(bits))] += 1
    if style == "smaller-out":
        big = [k for k, b in enumerate(bits) if b > 0]
        if big:
            bits[rng.choice(big)] -= 1
    if style == "wrong-names":
        names = names[:]
        names[rng.randrange(len(names))] = "dim9"
    out_bits = [bits[a_names.index(nm)] if nm in a_names else bits[k]
                for k, nm in enumerate(names)]
    m = sum(out_bits)

    # Input dims copied unchanged from la (the identity-dims heuristic).
    copied = []
    a_dims = [(nm, len(bs)) for nm, bs in la.bases]
    if style.startswith("identity-dims") or (style == "shared-names" and a_dims):
        k = rng.randint(1, max(1, len(a_dims) - 1)) if len(a_dims) > 1 else 1
        copied = rng.sample(range(len(a_dims)), k)
    copied_cols = {}
    j = 0
    for idx, (nm, nb) in enumerate(a_dims):
        if idx in copied:
            cs = []
            for c in a_cols[j:j + nb]:
                vals = dict(zip(a_names, unpack(c, a_bits)))
                cs.append(pack([vals.get(o, 0) for o in names], out_bits))
            copied_cols[nm] = cs
        j += nb

    # The other input dims: names from a family, bits enough to be surjective plus extras.
    have = [c for cs in copied_cols.values() for c in cs]
    need = m - rank_of(have)
    family_names = rng.choice([DIST_INS, SHARED_INS, ARB_INS])
    others = [d for d in family_names if d not in copied_cols and d not in [n for n, _ in a_dims]]
    if style == "shared-names":
        others = [d for d, _ in a_dims if d not in copied_cols] or others
    others = others[:rng.randint(1, max(1, min(3, len(others))))] if others else ["x"]
    kind = rng.choice(["invertible", "broadcast", "dependent", "surjective"])
    if style == "nonsurjective-outer":
        need = max(0, need - rng.randint(1, 2))
        kind = "injective"
    extra = 0 if kind == "invertible" else rng.randint(0, 3)
    fresh = random_independent(rng, m, max(0, need), have)
    total_other = len(fresh) + extra
    if sum(len(v) for v in copied_cols.values()) + total_other > MAX_IN_BITS:
        extra = max(0, MAX_IN_BITS - sum(len(v) for v in copied_cols.values()) - len(fresh))
        total_other = len(fresh) + extra
    other_cols = fresh[:]
    for _ in range(extra):
        s = {"broadcast": "zero", "dependent": "dependent"}.get(kind, rng.choice(
            ["zero", "dependent"]))
        if kind == "injective":
            s = "random"
        other_cols.insert(rng.randrange(len(other_cols) + 1),
                          extra_column(rng, have + other_cols, m, s))
    split = split_bits(rng, total_other, len(others))
    # Interleave copied and other dims, keeping the copied ones in la's relative order.
    ins, cols = [], []
    it = iter(other_cols)
    order = [("c", nm) for nm, _ in a_dims if nm in copied_cols] + \
            [("o", nm, k) for nm, k in zip(others, split)]
    if rng.random() < 0.5:
        rng.shuffle(order)
    for item in order:
        if item[0] == "c":
            ins.append((item[1], len(copied_cols[item[1]])))
            cols.extend(copied_cols[item[1]])
        else:
            ins.append((item[1], item[2]))
            cols.extend(next(it) for _ in range(item[2]))
    return ins, names, out_bits, cols


def iac_pairs(rng, rec, base_ids, count):
    pairs = []
    valid = [i for i in base_ids if rec.valid(i) and rec.objs[i].num_out_dims > 0
             and rec.objs[i].num_in_dims > 0]
    styles = ["exact", "reordered", "larger-out", "identity-dims", "identity-dims-reordered",
              "identity-dims-larger-out", "shared-names", "nonsurjective-outer",
              "smaller-out", "wrong-names"]
    weights = [5, 3, 3, 5, 2, 2, 2, 2, 1, 1]
    for _ in range(count):
        a = rng.choice(valid)
        la = rec.objs[a]
        style = rng.choices(styles, weights)[0]
        ins, names, out_bits, cols = outer_for(rng, la, style)
        spec = make_spec(rng, ins, names, out_bits, None, mode="explicit", cols=cols)
        b = rec.add(f"iac-outer/{style}", spec)
        pairs.append({"op": "invert_and_compose", "kind": style, "a": a, "b": b})
    return pairs


def special_iac_pairs(rec):
    """Hand-written invert_and_compose cases around the identity-dims heuristic."""
    S = lambda b, names, sizes: {"ctor": "from_bases", "bases": b, "out_names": names,
                                 "out_sizes": sizes, "require_surjective": False}
    cases = [
        # Same broadcast warps on both sides: warp maps to warp (identity), not to warp 0.
        ("broadcast-warps",
         S([["register", [[1, 0], [0, 1]]], ["lane", [[2, 0], [0, 2]]], ["warp", [[0, 0], [0, 0]]]],
           ["dim0", "dim1"], [4, 4]),
         S([["register", [[0, 1], [1, 0]]], ["lane", [[0, 2], [2, 0]]], ["warp", [[0, 0], [0, 0]]]],
           ["dim0", "dim1"], [4, 4])),
        # Same warps, but the outer's output is larger in dim0 (sizes differ).
        ("identity-dim-sizes-differ",
         S([["register", [[1, 0], [0, 1]]], ["warp", [[2, 0]]]], ["dim0", "dim1"], [4, 2]),
         S([["register", [[0, 1], [1, 0], [4, 0]]], ["warp", [[2, 0]]]], ["dim0", "dim1"], [8, 2])),
        # Equal broadcast warps, output sizes differ: is warp still an identity dim?
        ("identity-dim-broadcast-sizes-differ",
         S([["register", [[1, 0], [0, 1]]], ["warp", [[0, 0]]]], ["dim0", "dim1"], [2, 2]),
         S([["register", [[1, 0], [0, 1], [2, 0]]], ["warp", [[0, 0]]]], ["dim0", "dim1"], [4, 2])),
        # Equal warps whose image has two preimages, output sizes differ.
        ("identity-dim-nonunique-sizes-differ",
         S([["register", [[0, 1]]], ["warp", [[1, 0]]]], ["dim0", "dim1"], [2, 2]),
         S([["register", [[1, 0], [0, 1], [2, 0]]], ["warp", [[1, 0]]]], ["dim0", "dim1"], [4, 2])),
        # The same, output sizes equal (the identity heuristic certainly applies).
        ("identity-dim-nonunique",
         S([["register", [[0, 1], [2, 0]]], ["warp", [[1, 0]]]], ["dim0", "dim1"], [4, 2]),
         S([["register", [[1, 0], [0, 1], [2, 0]]], ["warp", [[1, 0]]]], ["dim0", "dim1"], [4, 2])),
        # All of this's dims are identity dims, the outer has one more.
        ("identity-all-of-this",
         S([["warp", [[1], [2]]]], ["dim0"], [8]),
         S([["register", [[4]]], ["warp", [[1], [2]]]], ["dim0"], [8])),
        # All of the outer's dims are identity dims, this has one more.
        ("identity-all-of-outer",
         S([["register", [[0]]], ["warp", [[1], [2]]]], ["dim0"], [4]),
         S([["warp", [[1], [2]]]], ["dim0"], [4])),
        # Identity dims remove a column this layout needs (Triton's FIXME case).
        ("identity-dims-hide-image",
         S([["register", [[2]]], ["warp", [[2]]]], ["dim0"], [4]),
         S([["register", [[1]]], ["warp", [[2]]]], ["dim0"], [4])),
        # Same everything: the identity on every dim.
        ("identical",
         S([["register", [[1, 0]]], ["lane", [[0, 1], [2, 0]]]], ["dim0", "dim1"], [4, 2]),
         S([["register", [[1, 0]]], ["lane", [[0, 1], [2, 0]]]], ["dim0", "dim1"], [4, 2])),
        # Non-injective outer without shared dims: the smallest preimage is chosen.
        ("min-preimage",
         S([["x", [[1], [2], [3]]]], ["dim0"], [4]),
         S([["offset", [[0], [3], [1], [3], [2]]]], ["dim0"], [4])),
        # Outer not surjective, but it covers this layout's image.
        ("nonsurjective-outer-covers",
         S([["x", [[1], [0]]]], ["dim0"], [4]),
         S([["y", [[1]]]], ["dim0"], [4])),
        # Outer not surjective and does not cover the image.
        ("nonsurjective-outer-misses",
         S([["x", [[2]]]], ["dim0"], [4]),
         S([["y", [[1]]]], ["dim0"], [4])),
        # In-dim names equal to out-dim names.
        ("dim-named-like-out",
         S([["dim0", [[1, 0], [2, 0]]], ["dim1", [[0, 1]]]], ["dim0", "dim1"], [4, 2]),
         S([["dim1", [[0, 1]]], ["dim0", [[2, 0], [1, 0]]]], ["dim0", "dim1"], [4, 2])),
    ]
    pairs = []
    for kind, sa, sb in cases:
        a = rec.add(f"iac-special/{kind}", sa)
        b = rec.add(f"iac-special/{kind}-outer", sb)
        pairs.append({"op": "invert_and_compose", "kind": "special/" + kind, "a": a, "b": b})
    return pairs


def equality_pairs(rng, rec, base_ids, count):
    """a == b on a layout and a copy of it, as is or changed in one respect."""
    pairs = []
    valid = [i for i in base_ids if rec.valid(i) and rec.layouts[i]["ctor"]["ctor"] == "from_bases"
             and rec.objs[i].num_in_dims > 0 and rec.objs[i].num_out_dims > 0]
    for _ in range(count):
        a = rng.choice(valid)
        la = rec.objs[a]
        bases = plain_bases(la)
        names = [n for n, _ in la.out_dims]
        sizes = [s for _, s in la.out_dims]
        style = rng.choice(["same", "larger-out", "reordered-ins", "reordered-outs",
                            "renamed-in", "changed-basis"])
        if style == "larger-out":
            k = rng.randrange(len(sizes))
            sizes = sizes[:k] + [sizes[k] * 2] + sizes[k + 1:]
        elif style == "reordered-ins" and len(bases) > 1:
            bases = bases[::-1]
        elif style == "reordered-outs" and len(names) > 1:
            names, sizes = names[::-1], sizes[::-1]
            bases = [[n, [b[::-1] for b in bs]] for n, bs in bases]
        elif style == "renamed-in":
            bases[0][0] = "renamed"
        elif style == "changed-basis":
            cand = [(i, j, k) for i, (_, bs) in enumerate(bases) for j in range(len(bs))
                    for k in range(len(names)) if sizes[k] > 1]
            if cand:
                i, j, k = rng.choice(cand)
                bases[i][1][j][k] ^= 1
        spec = {"ctor": "from_bases", "bases": bases, "out_names": names, "out_sizes": sizes,
                "require_surjective": False}
        b = rec.add(f"equal/{style}", spec)
        pairs.append({"op": "equal", "kind": style, "a": a, "b": b})
    return pairs


def record_pairs(rec, pairs):
    for p in pairs:
        if not (rec.valid(p["a"]) and rec.valid(p["b"])):
            p["skipped"] = "an operand could not be created"
            continue
        la, lb = rec.objs[p["a"]], rec.objs[p["b"]]
        if p["op"] == "equal":
            p["result"] = {"equal": la == lb, "not_equal": la != lb}
            continue
        if p["op"] == "product":
            fn = lambda: describe(la * lb)
        elif p["op"] == "compose":
            fn = lambda: describe(la.compose(lb))
        else:
            fn = lambda: describe(la.invert_and_compose(lb))
        ok, val = isolated(fn)
        p["result"] = val if ok else {"error": val}


# ---- Output -------------------------------------------------------------------------------

def dump(data, path):
    """One case per line, so that diffs between regenerations stay readable."""
    with open(path, "w") as f:
        f.write("{\n")
        keys = list(data)
        for k in keys:
            v = data[k]
            f.write(f"  {json.dumps(k)}: ")
            if isinstance(v, list):
                f.write("[\n")
                for i, item in enumerate(v):
                    f.write("    " + json.dumps(item, separators=(",", ":")))
                    f.write(",\n" if i + 1 < len(v) else "\n")
                f.write("  ]")
            else:
                f.write(json.dumps(v))
            f.write(",\n" if k != keys[-1] else "\n")
        f.write("}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "triton_cases.json"))
    args = ap.parse_args()

    rng = random.Random(SEED)
    rec = Recorder()
    special_layouts(rng, rec)
    base_ids = list(range(len(rec.layouts)))
    base_layouts(rng, rec, 230)
    base_ids = list(range(len(rec.layouts)))
    pairs = []
    pairs += product_pairs(rng, rec, base_ids, 170)
    pairs += compose_pairs(rng, rec, base_ids, 110)
    pairs += iac_pairs(rng, rec, base_ids, 190)
    pairs += special_iac_pairs(rec)
    pairs += equality_pairs(rng, rec, base_ids, 60)
    record_layout_results(rng, rec)
    record_pairs(rec, pairs)

    data = {
        "triton_version": triton.__version__,
        "generator": "tests/triton_reference/generate.py",
        "seed": SEED,
        "layouts": rec.layouts,
        "pairs": pairs,
    }
    dump(data, args.output)
    counts = {}
    for p in pairs:
        key = p["op"] + (" (error)" if "error" in p.get("result", {}) else "")
        counts[key] = counts.get(key, 0) + 1
    print(f"triton {triton.__version__}: {len(rec.layouts)} layouts "
          f"({sum(1 for e in rec.layouts if 'error' in e)} rejected), pairs {counts}, "
          f"{os.path.getsize(args.output)} bytes -> {args.output}")


if __name__ == "__main__":
    main()
