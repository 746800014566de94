"""Here (no GPU): compiles every case of kernels.py with this environment's Triton (3.9) for
sm90 into DIR (cubin, TTGIR, PTX and DIR/cases.json with the launch metadata), for run_gpu.py
to launch on the GPU machine with CuPy.

    .venv/bin/python gpu_oracle/reduce_scratch/compile39.py DIR"""
import json
import os
import re
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
fns = kernels.load(out)
meta = {"triton": triton.__version__, "cases": []}
for case in kernels.CASES:
    sig = kernels.signature(case)
    attrs = {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]]}
    k = triton.compile(ASTSource(fn=fns[case["id"]], signature=sig, constexprs=case["constexprs"],
                                 attrs=attrs),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": case["warps"]})
    for ext in ("ttgir", "ptx"):
        with open(os.path.join(out, f"{case['id']}.{ext}"), "w") as f:
            f.write(k.asm[ext])
    with open(os.path.join(out, f"{case['id']}.cubin"), "wb") as f:
        f.write(k.asm["cubin"])
    entry = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", k.asm["ptx"], re.S)
    meta["cases"].append({"id": case["id"], "kernel": entry.group(1),
                          "params": entry.group(2).count(".param"),
                          "shared": k.metadata.shared, "threads": 32 * case["warps"]})
with open(os.path.join(out, "cases.json"), "w") as f:
    json.dump(meta, f, indent=1)
print(f"compiled {len(meta['cases'])} cases with Triton {triton.__version__}")
