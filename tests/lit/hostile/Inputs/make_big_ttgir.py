#!/usr/bin/env python3
"""Writes a big TTGIR module for the memory tests of `llcheck report` (never commit its output).

usage: make_big_ttgir.py SOURCE.ttgir OUT.ttgir [--mb 16] [--only-data-moving]

Takes a real module (e.g. corpus/ttgir/3.9.0/cuda-sm80/matmul-fp16-64x64x32.ttgir), and repeats
the ops of its innermost `scf.for` body (without the `scf.yield`) just before that yield until the
file is at least --mb megabytes (10^6 bytes). Every SSA value defined in the block is renamed in
each copy (`%x_27` becomes `%x_27_r5`), so the module stays well formed; values from outside the
block keep their names. With --only-data-moving only the ops that move data between layouts
(ttg.convert_layout, ttg.local_alloc, ttg.local_load, ttg.local_store) are repeated: the most
report work per byte of input.
"""
import argparse
import re
import sys

DATA_MOVING = ("ttg.convert_layout", "ttg.local_alloc", "ttg.local_load", "ttg.local_store")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=16)
    ap.add_argument("--only-data-moving", action="store_true")
    a = ap.parse_args()
    lines = open(a.source, encoding="utf-8").read().splitlines(keepends=True)
    yields = [i for i, l in enumerate(lines) if l.lstrip().startswith("scf.yield")]
    if not yields:
        sys.exit(f"make_big_ttgir: {a.source} has no scf.for body (no scf.yield)")
    end = yields[-1]
    start = end
    while start > 0 and "scf.for" not in lines[start - 1]:
        start -= 1
    if start == 0:
        sys.exit(f"make_big_ttgir: {a.source}: no scf.for opens the block of the last scf.yield")
    block = lines[start:end]
    if a.only_data_moving:
        block = [l for l in block if any(f" {op} " in l for op in DATA_MOVING)]
    if not block:
        sys.exit(f"make_big_ttgir: {a.source}: nothing to repeat")
    defined = set()
    for l in block:
        m = re.match(r"\s*(%[\w.$-]+)(?::\d+)?\s*=", l)
        if m:
            defined.add(m.group(1))
    pattern = re.compile(r"%[\w.$-]+")
    head = "".join(lines[:end])
    tail = "".join(lines[end:])
    target = int(a.mb * 1e6)
    size = len(head.encode()) + len(tail.encode())
    with open(a.out, "w", encoding="utf-8") as out:
        out.write(head)
        copy = 0
        while size < target:
            text = "".join(
                pattern.sub(lambda m: m.group(0) + f"_r{copy}" if m.group(0) in defined else m.group(0), l)
                for l in block)
            out.write(text)
            size += len(text.encode())
            copy += 1
        out.write(tail)
    print(f"make_big_ttgir: wrote {a.out}: {size} bytes, {copy} copies of {len(block)} lines")


if __name__ == "__main__":
    main()
