#!/usr/bin/env python3
"""Reads `llcheck verify --format json` output on stdin (one result, or {"results": [...]})
and re-checks every counterexample against the layout itself, independently of llcheck:
L(x) is the XOR of the bases of x's set bits, per output dimension. Prints one line per
property: "<name>: holds" or "<name>: counterexample <what> checked", and exits 1 if a
counterexample does not show what it claims. A Z3 proof's own counterexample ("proof") is
checked the same way and must agree with the property's verdict; with --z3 every property
that a prover decided must say so (line "<name>: z3 <result> checked")."""
import json
import sys


def apply(layout, point):
    outs = [o["name"] for o in layout["outs"]]
    value = [0] * len(outs)
    for d in layout["ins"]:
        x = point.get(d["name"], 0)
        if not 0 <= x < d["size"]:
            raise SystemExit(f"input {d['name']}={x} out of range")
        for i, basis in enumerate(d["bases"]):
            if x >> i & 1:
                value = [a ^ b for a, b in zip(value, basis)]
    return dict(zip(outs, value))


def check(result, z3):
    layout = result["layout"]
    for name, p in sorted(result["properties"].items()):
        keys = ["by", "counterexample", "detail", "holds", "required"]
        if sorted(k for k in p if k not in ("proof", "unknown")) != keys:
            raise SystemExit(f"{name}: unexpected keys {sorted(p)}")
        ce = p["counterexample"]
        if p["holds"]:
            if ce is not None:
                raise SystemExit(f"{name}: holds but has a counterexample")
            print(f"{name}: holds")
        else:
            check_counterexample(layout, name, ce)
        if z3 and "proof" in p:
            proof = p["proof"]
            expect = "proven" if p["holds"] else "refuted"
            if proof["result"] != expect or ("z3" in p["by"]) != (proof["result"] in ("proven", "refuted")):
                raise SystemExit(f"{name}: z3 says {proof['result']}, by {p['by']}, holds {p['holds']}")
            if expect == "refuted":
                check_counterexample(layout, name + " (z3)", proof["counterexample"])
            print(f"{name}: z3 {proof['result']} checked")


def check_counterexample(layout, name, ce):
    names = [d["name"] for d in layout["ins"]]
    if "inputs" in ce:
        a, b = ce["inputs"]
        if sorted(a) != sorted(names) or sorted(b) != sorted(names) or a == b:
            raise SystemExit(f"{name}: bad inputs {ce}")
        if apply(layout, a) != ce["output"] or apply(layout, b) != ce["output"]:
            raise SystemExit(f"{name}: the inputs do not both map to {ce['output']}")
        print(f"{name}: counterexample collision checked")
    elif "output" in ce:
        out = ce["output"]
        sizes = {o["name"]: o["size"] for o in layout["outs"]}
        if sorted(out) != sorted(sizes) or any(not 0 <= out[k] < sizes[k] for k in out):
            raise SystemExit(f"{name}: bad output {ce}")
        # Unreached: no input maps there (brute force; the tests keep layouts small).
        total = sum(len(d["bases"]) for d in layout["ins"])
        if total <= 20:
            for x in range(1 << total):
                point, shift = {}, 0
                for d in layout["ins"]:
                    point[d["name"]] = x >> shift & (d["size"] - 1)
                    shift += len(d["bases"])
                if apply(layout, point) == out:
                    raise SystemExit(f"{name}: {point} maps to the 'missing' output {out}")
        print(f"{name}: counterexample missing output checked")
    elif "input_dim" in ce:
        d = next(d for d in layout["ins"] if d["name"] == ce["input_dim"])
        if d["bases"][ce["basis"]] != ce["value"] or not ce["reason"]:
            raise SystemExit(f"{name}: basis {ce} is not the layout's")
        print(f"{name}: counterexample basis checked")
    elif "reason" in ce:
        print(f"{name}: not applicable ({ce['reason']})")
    else:
        raise SystemExit(f"{name}: unknown counterexample {ce}")


def main():
    z3 = "--z3" in sys.argv[1:]
    j = json.load(sys.stdin)
    for r in j["results"] if "results" in j else [j]:
        print(f"== {r['source'].rsplit('/', 1)[-1]} ok={r['ok']}")
        check(r, z3)


if __name__ == "__main__":
    main()
