#!/usr/bin/env python3
"""llcheck against what a GPU held in shared memory (gpu_shared_readback.py's output).

For every case the GPU ran, `llcheck batch --triton X.Y` (X.Y: the Triton that compiled the
kernels) gives the layout of the attribute over the shape; at every offset o the GPU read back,
llcheck's layout must name the element the GPU held there (a slot no element was stored to holds
-1 and is skipped). Runs anywhere (no GPU, no Triton):

    python3 tests/triton/versions/compare_readback.py OUT/gpu_shared_readback*.json \\
        [--llcheck build/cli/llcheck]

Exit status 0 when every case agrees.
"""

import argparse
import collections
import json
import lzma
import subprocess
import sys


def coords(index, shape):
    out = []
    for size in reversed(shape):
        out.append(index % size)
        index //= size
    return list(reversed(out))


def apply(layout, offset):
    out = [0] * len(layout["outs"])
    for d in layout["ins"]:
        if d["name"] != "offset":
            continue
        if offset >> len(d["bases"]):
            return None
        for i, b in enumerate(d["bases"]):
            if offset >> i & 1:
                out = [x ^ y for x, y in zip(out, b)]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="readback JSON files (.json or .json.xz)")
    ap.add_argument("--llcheck", default="build/cli/llcheck")
    ap.add_argument("--known", help="JSON {case id: reason} of cases known to differ (Triton's "
                                    "own miscompiles): they must differ, nothing else may")
    args = ap.parse_args()
    known = json.load(open(args.known)) if args.known else {}
    cases, versions = [], set()
    for path in args.files:
        with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
            d = json.load(f)
        versions.add(".".join(d["triton"].split(".")[:2]))
        cases += [c for c in d["cases"] if "held" in c]
    if len(versions) != 1:
        raise SystemExit(f"the files come from different Triton versions: {versions}")
    version = versions.pop()
    lines = "".join(json.dumps({"id": c["id"], "attr": c["attr"], "shape": c["shape"]}) + "\n"
                    for c in cases)
    proc = subprocess.run([args.llcheck, "batch", "--triton", version, "-"], input=lines,
                          capture_output=True, text=True, check=True)
    ours = {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}
    counts = collections.Counter()
    for c in cases:
        o = ours[c["id"]]
        if "error" in o:
            counts[c["encoding"], "llcheck rejects"] += 1
            print(f"{c['id']}: llcheck rejects {c['attr']} over {c['shape']}: {o['error']}")
            continue
        bad = None
        for offset, element in enumerate(c["held"]):
            if element < 0:
                continue
            got = apply(o["layout"], offset)
            if got != coords(element, c["shape"]):
                bad = (offset, coords(element, c["shape"]), got)
                break
        counts[c["encoding"], "agree" if bad is None else "DIFFER"] += 1
        if bad:
            print(f"{c['id']}: {c['attr']} over {c['shape']}: the GPU holds {bad[1]} at offset "
                  f"{bad[0]}, llcheck's layout has {bad[2]} there")
        if bad and c["id"] in known:
            counts[c["encoding"], "DIFFER"] -= 1
            counts[c["encoding"], "known difference"] += 1
            print(f"  known: {known[c['id']]}")
        if not bad and c["id"] in known:
            counts[c["encoding"], "known, but agrees"] += 1
            print(f"{c['id']}: listed as a known difference but agrees now")
    for (encoding, status), n in sorted(counts.items()):
        if n:
            print(f"{encoding:<16} {status:<18} {n}")
    print(f"llcheck --triton {version}: {sum(counts.values())} cases read back")
    return 0 if all(s in ("agree", "known difference") for (_, s), n in counts.items() if n) else 1


if __name__ == "__main__":
    sys.exit(main())
