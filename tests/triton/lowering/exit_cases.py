"""Draws the early-exit cases (data/cases-exit.json) from the lowering probe's cases: kernels
that end with Triton's own masked gl.store instead of the "live" store (kernels.py), so that
ptxas may exit the warps whose stores are all masked before their last shared loads.

    python3 exit_cases.py data/cases.json data/triton-3.9.json -o data/cases-exit.json

Taken, in case order: sm90 `local` and `convert` cases (sm90 only: their cubin is what runs on
the H200, so the SASS read is the SASS measured; sm80 kernels are JIT-compiled from PTX there)
that Triton 3.9 compiled, with no padded shared layout (those may fault), up to 120 whose loaded
layout B repeats data over warps (a zero warp basis in Triton's linear layout: the warps that
can exit) and 30 whose B does not (controls: no warp may exit). Each keeps its layouts and
gets the id "e" + its number and "store": "masked".
"""
import argparse
import json


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cases")
    p.add_argument("recorded", help="record.py's output for Triton 3.9 (its linear layouts)")
    p.add_argument("-o", "--out", required=True)
    p.add_argument("--redundant", type=int, default=120)
    p.add_argument("--controls", type=int, default=30)
    args = p.parse_args()
    with open(args.cases) as f:
        cases = json.load(f)
    with open(args.recorded) as f:
        recorded = {c["id"]: c for c in json.load(f)["cases"]}
    picked, redundant, controls = [], 0, 0
    for case in cases["cases"]:
        rec = recorded.get(case["id"])
        if (case["arch"] != "sm90" or case["kind"] not in ("local", "convert") or rec is None
                or "error" in rec
                or (case.get("shared") or {}).get("encoding") == "padded_shared"):
            continue
        warp_bases = rec["layouts"]["dst"]["ll"]["warp"]
        repeats = any(not any(b) for b in warp_bases)
        if repeats and redundant < args.redundant:
            redundant += 1
        elif not repeats and controls < args.controls:
            controls += 1
        else:
            continue
        picked.append(dict(case, id="e" + case["id"][1:], store="masked"))
    with open(args.out, "w") as f:
        json.dump({"from": cases.get("seed"), "cases": picked}, f, indent=1)
        f.write("\n")
    print(f"{len(picked)} cases ({redundant} with warps holding copies, {controls} without) "
          f"to {args.out}")


if __name__ == "__main__":
    main()
