#!/usr/bin/env python3
"""Triton's shared-memory layouts as a GPU lays them out: what the conformance grid reads from
Triton's lowered code on the CPU (tests/triton/compiled_shared.py), checked on hardware.

For each case (a shared encoding E over a shape S, single CTA, not padded) one kernel, compiled
by the Triton of this environment for this GPU (`triton.compile` of a TTGIR module, so the
lowering is the GPU's own: stmatrix and all):

    v    = every element's row-major index, in a register layout that spreads the tensor over
           4 warps (compiled_shared.register_layout)
    smem = ttg.local_alloc with encoding E
    flat = ttg.memdesc_reinterpret smem as N elements, unswizzled (#ttg.swizzled_shared vec 1)
    flat <- -1 everywhere;  ttg.local_store v -> smem
    out[o] = ttg.local_load(flat)[o]           for every offset o < N (-1: nothing stored)

so out[o] is the element the GPU holds at offset o. 8-bit elements run twice (the index's low
byte, then its high byte). The result must equal what compiled_shared.py reads from the CPU
lowering for every (element, offset) it reports; every case and its offsets are written to
OUT/gpu_shared_readback.json for llcheck to be compared with as well
(`tests/triton/versions/compare_readback.py`).

Run on a machine with an NVIDIA GPU, Triton and PyTorch (PyTorch 2.11 ships Triton 3.6):

    python3 tests/triton/versions/gpu_shared_readback.py --out OUT [--limit N] [--shard I/N]

(12 shards in parallel, `for i in $(seq 0 11); do ... --shard $i/12 & done; wait`, take about 5
minutes on 16 cores for the grid's ~3,000 single-CTA shared cases.)

It takes the shared cases of the conformance grid (tests/triton/grid.py, this Triton's printed
attributes). Exit status 0 when every case agrees with the CPU reading, 1 otherwise.
"""

import argparse
import json
import math
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import torch  # noqa: E402
import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402

import compiled_shared as cs  # noqa: E402
import grid  # noqa: E402

SHARED = ("swizzled_shared", "nvmma_shared", "shared_linear")
TORCH = {8: torch.int8, 16: torch.int16, 32: torch.int32, 64: torch.int64}


def kernel_text(attr, shape, bits, part, capability):
    """The TTGIR module of one case (part: None, or "lo" / "hi" for 8-bit elements)."""
    n = math.prod(shape)
    layout = cs.register_layout(list(shape), [])
    ety = cs.ELEMENT_TYPES[bits]
    dims = "x".join(map(str, shape))
    t = f"tensor<{dims}x{{}}, #reg>"
    flat_out = cs.register_layout([n], [])
    body = [f"    %0 = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, #flat>",
            f"    %1 = tt.reshape %0 : tensor<{n}xi32, #flat> -> {t.format('i32')}"]
    value = "%1"
    if part == "hi":
        body.append(f"    %c8 = arith.constant dense<8> : {t.format('i32')}")
        body.append(f"    %2 = arith.shrui %1, %c8 : {t.format('i32')}")
        value = "%2"
    if bits < 32:
        body.append(f"    %3 = arith.trunci {value} : {t.format('i32')} to {t.format(ety)}")
        value = "%3"
    elif bits > 32:
        body.append(f"    %3 = arith.extsi {value} : {t.format('i32')} to {t.format(ety)}")
        value = "%3"
    mem = f"!ttg.memdesc<{dims}x{ety}, #shared, #smem, mutable>"
    flatmem = f"!ttg.memdesc<{n}x{ety}, #flatshared, #smem, mutable>"
    body += [f"    %4 = ttg.local_alloc : () -> {mem}",
             f"    %5 = ttg.memdesc_reinterpret %4 : {mem} -> {flatmem}",
             f"    %m1 = arith.constant dense<-1> : tensor<{n}x{ety}, #out>",
             f"    ttg.local_store %m1, %5 : tensor<{n}x{ety}, #out> -> {flatmem}",
             f"    ttg.local_store {value}, %4 : {t.format(ety)} -> {mem}",
             f"    %6 = ttg.local_load %5 : {flatmem} -> tensor<{n}x{ety}, #out>",
             f"    %7 = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, #out>",
             f"    %8 = tt.splat %arg0 : !tt.ptr<{ety}> -> tensor<{n}x!tt.ptr<{ety}>, #out>",
             f"    %9 = tt.addptr %8, %7 : tensor<{n}x!tt.ptr<{ety}>, #out>, tensor<{n}xi32, #out>",
             f"    tt.store %9, %6 : tensor<{n}x!tt.ptr<{ety}>, #out>"]
    return (f"#flat = {cs._linear_attr(layout, list(shape))}\n"
            f"#reg = {cs._linear_attr(layout)}\n"
            f"#out = {cs._linear_attr(flat_out)}\n"
            f"#shared = {cs._parseable(attr, shape)}\n"
            "#flatshared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
            "#smem = #ttg.shared_memory\n"
            f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {cs.NUM_WARPS} : i32, '
            f'ttg.target = "cuda:{capability}", "ttg.threads-per-warp" = 32 : i32}} {{\n'
            f"  tt.func public @k(%arg0: !tt.ptr<{ety}>) {{\n" + "\n".join(body) +
            "\n    tt.return\n  }\n}\n")


def run_case(attr, shape, bits, capability):
    """[element index at offset o for o < N] as the GPU holds them (-1: nothing stored)."""
    n = math.prod(shape)
    parts = ["lo", "hi"] if bits == 8 else [None]
    results = []
    for part in parts:
        with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f:
            f.write(kernel_text(attr, shape, bits, part, capability))
            path = f.name
        try:
            kernel = triton.compile(path, target=GPUTarget("cuda", capability, 32))
        finally:
            os.unlink(path)
        out = torch.full((n,), -1, dtype=TORCH[bits], device="cuda")
        kernel[(1, 1, 1)](out)
        torch.cuda.synchronize()
        mask = (1 << bits) - 1
        results.append([int(v) & mask for v in out.cpu().tolist()])
    held = [lo | (hi << 8) for lo, hi in zip(*results)] if bits == 8 else results[0]
    # A slot nothing was stored to still holds the -1 it was filled with.
    return [v if v < n else -1 for v in held]


def shared_cases(limit):
    """The grid's shared cases this Triton prints an attribute for, single CTA."""
    cases = [c for c in grid.grid_cases() if c[1] in SHARED]
    answers = grid.run_cases(cases)
    out = []
    for (cid, encoding, spec, meta, shape), a in zip(cases, answers):
        attr = a.get("attr")
        if not attr or "error" in a or "CGALayout" in attr or "block = [[" in attr:
            continue
        bits = spec["args"].get("element_bitwidth", 32) if encoding == "nvmma_shared" else 32
        out.append({"id": cid, "encoding": encoding, "attr": attr, "shape": shape, "bits": bits})
    return out[:limit] if limit else out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder for gpu_shared_readback.json")
    ap.add_argument("--limit", type=int, default=0, help="at most this many cases (0: all)")
    ap.add_argument("--shard", default="0/1",
                    help="I/N: only the cases whose index is I modulo N (run N processes)")
    args = ap.parse_args()
    index, count = (int(x) for x in args.shard.split("/"))
    os.makedirs(args.out, exist_ok=True)
    major, minor = torch.cuda.get_device_capability()
    capability = 10 * major + minor
    t0 = time.perf_counter()
    cases = shared_cases(args.limit)[index::count]
    cpu = cs.compiled_layouts([(c["attr"], c["shape"], c["bits"]) for c in cases])
    agree = differ = failed = 0
    records = []
    for c, reading in zip(cases, cpu):
        rec = dict(c)
        try:
            held = run_case(c["attr"], c["shape"], c["bits"], capability)
        except Exception as e:  # noqa: BLE001 - Triton refused to compile or run it
            rec["gpu_error"] = f"{type(e).__name__}: {str(e)[:300]}"
            failed += 1
            records.append(rec)
            continue
        rec["held"] = held
        if "pairs" in reading:
            # Where the CPU reading stores two elements at one offset (Triton 3.6 miscompiles
            # some #ttg.shared_linear), the GPU holds the one written last: either agrees.
            at = {}
            for e, o, _ in reading["pairs"]:
                at.setdefault(o, set()).add(e)
            bad = [(min(es), o) for o, es in sorted(at.items())
                   if o >= len(held) or held[o] not in es]
            rec["cpu_agrees"] = not bad
            if bad:
                rec["first_difference"] = {"element": bad[0][0], "offset": bad[0][1],
                                           "gpu_holds": held[bad[0][1]] if bad[0][1] < len(held)
                                           else None}
            agree += not bad
            differ += bool(bad)
        else:
            rec["cpu_error"] = reading.get("error", "")[:300]
        records.append(rec)
    name = "gpu_shared_readback.json" if count == 1 else f"gpu_shared_readback-{index}.json"
    with open(os.path.join(args.out, name), "w") as f:
        json.dump({"triton": triton.__version__, "torch": torch.__version__,
                   "gpu": torch.cuda.get_device_name(), "capability": capability,
                   "cases": records}, f)
    print(f"triton {triton.__version__} on {torch.cuda.get_device_name()} (sm{capability}): "
          f"{len(cases)} cases, {agree} agree with the CPU reading, {differ} differ, "
          f"{failed} not run on the GPU, {time.perf_counter() - t0:.0f} s")
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
