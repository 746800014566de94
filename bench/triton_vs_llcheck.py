#!/usr/bin/env python3
"""Times the conformance grid through Triton's Python API and through llcheck, side by side.

Both sides convert the same cases: every case of tests/triton/grid.py for which Triton returns a
layout and llcheck agrees that it is valid.

  Triton   b.to_linear_layout(layout._to_ir(b), shape) for each case's Gluon layout object, in
           this process, timed with timeit over the whole list (best of --repeat).
  llcheck  parseAttribute + attributeToLayout on the attribute text Triton printed, timed by
           Google Benchmark (bench/bench_encodings.cpp, BM_ConvertAll) in a Release build.

Prints one line per side and the ratio. Usage (after `make bench-build` or any Release build of
llcheck_bench_encodings):

    .venv/bin/python bench/triton_vs_llcheck.py --bench build-bench/bench/llcheck_bench_encodings
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "triton"))

import grid  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default=os.path.join(REPO, "build-bench", "bench",
                                                    "llcheck_bench_encodings"))
    ap.add_argument("--llcheck", default=os.path.join(REPO, "build", "cli", "llcheck"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    answers = grid.triton_grid()
    by_id = {a["id"]: a for a in answers}
    cases = [c for c in grid.grid_cases() if "ins" in by_id[c[0]] and "attr" in by_id[c[0]]]

    def write_batch(path, selected):
        with open(path, "w") as f:
            for cid, *_ in selected:
                a = by_id[cid]
                f.write(json.dumps({"id": cid, "attr": a["attr"], "shape": a["shape"],
                                    "num_warps": a.get("num_warps"),
                                    "threads_per_warp": a.get("threads_per_warp")}) + "\n")

    with tempfile.TemporaryDirectory() as tmp:
        # Only cases both sides convert are timed: `llcheck batch` says which llcheck converts.
        path = os.path.join(tmp, "grid.jsonl")
        write_batch(path, cases)
        answers_llcheck = subprocess.run([args.llcheck, "batch", path], capture_output=True,
                                         text=True, check=True).stdout.splitlines()
        converted = {r["id"] for r in map(json.loads, answers_llcheck) if "layout" in r}
        total = len(cases)
        cases = [c for c in cases if c[0] in converted]
        write_batch(path, cases)
        out = subprocess.run([args.bench, f"--cases={path}", "--benchmark_filter=BM_ConvertAll",
                              f"--benchmark_repetitions={args.repeat}",
                              "--benchmark_format=json"],
                             capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    runs = [b for b in report["benchmarks"] if b.get("run_type") == "iteration"]
    n_llcheck = int(runs[0]["cases"])
    llcheck_us = min(b["cpu_time"] for b in runs) / n_llcheck / 1e3  # cpu_time is in ns

    import triton._C.libtriton as lt
    ctx = lt.ir.context()
    lt.ir.load_dialects(ctx)
    b = lt.gluon_ir.GluonOpBuilder(ctx)
    work = [(grid.gluon_layout(spec), shape) for _, _, spec, _, shape in cases]

    def convert_all():
        for layout, shape in work:
            b.to_linear_layout(layout._to_ir(b), shape)

    best = min(timeit.repeat(convert_all, number=1, repeat=args.repeat))
    triton_us = best / len(work) * 1e6

    assert n_llcheck == len(work), (n_llcheck, len(work))
    print(f"cases: {len(work)} of the {total} grid cases that Triton converts "
          f"({total - len(work)} that llcheck rejects are left out of both sides)")
    print(f"Triton {grid.triton.__version__} Python API: {triton_us:8.2f} us per case "
          f"(best of {args.repeat})")
    print(f"llcheck (C++):                  {llcheck_us:8.2f} us per case "
          f"(best of {args.repeat}, CPU time)")
    print(f"ratio Triton / llcheck:         {triton_us / llcheck_us:8.1f}x")


if __name__ == "__main__":
    main()
