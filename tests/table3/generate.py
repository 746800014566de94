#!/usr/bin/env python3
"""The blocked layouts Triton 3.9 picks for the load/store benchmark of the paper's Table 3, and
the global-memory instructions it emits for them: writes tests/table3/table3_layouts.json.

The benchmark (paper, section 6.1): a kernel that loads a contiguous [512, k] tensor and stores
it back, k = 1, 2, 4, 8, 16, element types f8 and f16, four warps, one CTA. The paper does not
give the layouts; they are whatever Triton's coalescing pass assigns to the tl.load, read here
from the TTGIR. No GPU is needed: the target is given explicitly (as corpus/generate_ttgir.py).

    TRITON_DEFAULT_FP_FUSION=1 /path/to/venv-with-triton-3.9/bin/python tests/table3/generate.py
"""
import json
import os
import re
import sys
import tempfile

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="llcheck-table3-cache-")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402


@triton.jit
def copy_512xk(x, y, K: tl.constexpr):
    rm = tl.arange(0, 512)
    rk = tl.arange(0, K)
    offs = rm[:, None] * K + rk[None, :]
    tl.store(y + offs, tl.load(x + offs))


# sm90: the GH200 of the paper's Table 2 (the RTX 4090 is sm89; both have fp8e4nv).
TARGET = GPUTarget("cuda", 90, 32)
DTYPES = {"f8": ("fp8e4nv", 8), "f16": ("fp16", 16)}


def blocked_of_load(ttgir):
    """The #blocked attribute of the tt.load's result."""
    load = re.search(r"tt\.load [^\n]*: tensor<512x\d+x[^,]+, (#\w+)>", ttgir)
    if load is None:
        raise RuntimeError("no tt.load of a 512xk tensor in:\n" + ttgir)
    alias = load.group(1)
    attr = re.search(re.escape(alias) + r" = (#ttg\.blocked<\{[^\n]*\}>)", ttgir)
    return attr.group(1)


def parse_blocked(attr):
    fields = {}
    for key in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"):
        fields[key] = [int(v) for v in re.search(key + r" = \[([0-9, ]*)\]", attr).group(1).split(",")]
    return fields


def global_accesses(ptx):
    """The distinct ld.global / st.global opcodes and how often each occurs."""
    ops = {}
    for m in re.finditer(r"\b((?:ld|st)\.global[\w.]*)", ptx):
        ops[m.group(1)] = ops.get(m.group(1), 0) + 1
    return ops


def main():
    num_warps = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    cases = []
    for name, (ty, bits) in DTYPES.items():
        for k in (1, 2, 4, 8, 16):
            src = ASTSource(fn=copy_512xk, signature={"x": "*" + ty, "y": "*" + ty, "K": "constexpr"},
                            constexprs={"K": k},
                            # What the JIT launcher tells the compiler about pointers to
                            # 16-byte-aligned buffers (every torch allocation): without it the
                            # pointers' alignment is unknown and nothing is vectorized.
                            attrs={(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]]})
            compiled = triton.compile(src, target=TARGET, options={"num_warps": num_warps})
            attr = blocked_of_load(compiled.asm["ttgir"])
            case = {"dtype": name, "elementBits": bits, "shape": [512, k], "numWarps": num_warps,
                    "attribute": attr, **parse_blocked(attr),
                    "tritonPtx": global_accesses(compiled.asm["ptx"])}
            cases.append(case)
            print(name, k, attr, case["tritonPtx"], file=sys.stderr)
    out = {"triton": triton.__version__, "target": "cuda sm90, 32 lanes",
           "kernel": "tests/table3/generate.py: copy_512xk", "cases": cases}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "table3_layouts.json" if num_warps == 4 else f"table3_layouts_w{num_warps}.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
