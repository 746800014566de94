"""Triton's own bank-conflict predictor on the sides the H200 measured (data/gpu-h200.json), so
that gpu_check.py can score it beside llcheck's model:

    /work/venvs/triton-3.9.0/bin/python score_triton.py -o data/triton-predictor-3.9.json
    /work/venvs/triton-3.6.0/bin/python score_triton.py -o data/triton-predictor-3.6.json

For every `local` case (registers in A -> shared S, then S -> registers in B) and `async` case
(S -> B), Gluon's builder is asked get_shared_bank_conflicts(layout, S, shape, bitwidth), the
C++ behind `gl.bank_conflicts` (both releases have it): the excess wavefronts per phase of that
access, with Triton's own vectorisation (tests/triton/test_bank_conflicts.py states the formula).
`convert` cases are left out: their shared layout is Triton's internal scratch, which the
predictor is not asked about. Each case runs in a fork, so a Triton abort costs that case only.
Output: {"triton", "cases": {id: {"store"?: n, "load": n} or {"error": text}}}.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))

import triton  # noqa: E402

import kernels  # noqa: E402
from bank_grid import make_builder  # noqa: E402  (tests/triton: a module with a target)



def answer(case):
    bits = kernels.BITS[case["dtype"]]
    _ctx, b, _module, _fn = make_builder("cuda:" + case["arch"][2:], case["num_warps"])
    shared = kernels.gluon_layout(case["shared"])._to_ir(b)
    sides = {"load": case["dst"]}
    if case["kind"] == "local":
        sides["store"] = case["src"]
    return {side: b.get_shared_bank_conflicts(kernels.gluon_layout(spec)._to_ir(b), shared,
                                              list(case["shape"]), bits)
            for side, spec in sides.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", required=True)
    args = ap.parse_args()
    cases = [c for c in json.load(open(os.path.join(HERE, "data", "cases.json")))["cases"]
             if c["kind"] in ("local", "async") and c.get("shared")]
    out = {}
    for case in cases:
        r, w = os.pipe()
        er, ew = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.close(er)
            os.dup2(ew, 2)
            try:
                res = answer(case)
            except Exception as e:  # noqa: BLE001 - Triton refused the case
                res = {"error": f"{type(e).__name__}: {' '.join(str(e).split())[:200]}"}
            os.write(w, json.dumps(res).encode())
            os._exit(0)
        os.close(w)
        os.close(ew)
        data = b""
        while chunk := os.read(r, 65536):
            data += chunk
        os.close(r)
        err = b""
        while chunk := os.read(er, 65536):
            err += chunk
        os.close(er)
        os.waitpid(pid, 0)
        last = [line for line in err.decode(errors="replace").splitlines()
                if "ERROR" in line or "Assertion" in line]
        out[case["id"]] = json.loads(data) if data else {
            "error": "Triton aborted" + (": " + last[-1].strip()[:200] if last else "")}
    with open(args.o, "w") as f:
        json.dump({"triton": triton.__version__, "cases": out}, f, separators=(",", ":"),
                  sort_keys=True)
        f.write("\n")
    errors = sum(1 for v in out.values() if "error" in v)
    print(f"wrote {args.o}: {len(out)} cases, {errors} refused by Triton")


if __name__ == "__main__":
    main()
