"""Compiles the lowering probe's cases into a pack of kernels the GPU launcher (gpu_launch.py)
runs without Triton: one cubin per sm90 case (ptxas of this Triton), the PTX of each sm80 case
(the driver compiles it for the GPU at load time), and a manifest with what a launch needs.

    # here, Triton 3.9 (too big for the GPU machine): pack, then carry the .tar.xz
    /work/venvs/triton-3.9.0/bin/python gpu_pack.py data/cases.json --out /tmp/pack-3.9 --tar
    # on the GPU machine, its own Triton 3.6 (run_gpu.sh does this)
    python3 gpu_pack.py data/cases.json --out /tmp/pack-3.6

manifest.json: {"triton", "cases": [{"id", "kind", "arch", "dtype", "shape", "num_warps",
"kernel", "file", "shared_bytes", "params", "threads", "ptx", "sass"}]}. A launch is one CTA of
32 * num_warps threads with shared_bytes of dynamic shared memory and the parameters
(src, out) followed by null pointers for Triton's global and profile scratch (params counts them
all). The kernels are kernels.py's, ending in the "live" store (see there), so the counters see
every warp's shared-memory instructions.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import triton  # noqa: E402

import kernels  # noqa: E402
import record  # noqa: E402


def pack_case(case, out_dir, cuobjdump):
    rec = {k: case[k] for k in ("id", "kind", "arch", "dtype", "shape", "num_warps")}
    rec["store"] = case.get("store", "live")
    # Padded layouts can get vector accesses the padding misaligns (Triton 3.9, case c0001):
    # the launcher runs them last, so that a fault spoils no other case.
    rec["padded"] = (case.get("shared") or {}).get("encoding") == "padded_shared"
    try:
        k = kernels.compile_case(case)
    except Exception as e:  # noqa: BLE001 - recorded, not fatal
        rec["error"] = f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"
        return rec
    ptx = k.asm["ptx"]
    rec["kernel"] = k.metadata.name
    rec["shared_bytes"] = k.metadata.shared
    rec["threads"] = 32 * case["num_warps"]
    m = re.search(r"\.entry\s+\w+\((.*?)\)", ptx, re.S)
    rec["params"] = len(re.findall(r"\.param", m.group(1))) if m else 2
    rec["ptx"] = record.ptx_shared(ptx)
    rec["sass"] = record.sass_summary(k.asm["cubin"], cuobjdump)
    if case["arch"] == "sm90":
        rec["file"] = f"{case['id']}.cubin"
        with open(os.path.join(out_dir, rec["file"]), "wb") as f:
            f.write(k.asm["cubin"])
    else:
        # An sm_80 cubin does not load on an sm_90 GPU; its PTX does (the driver JITs it).
        rec["file"] = f"{case['id']}.ptx"
        with open(os.path.join(out_dir, rec["file"]), "w") as f:
            f.write(ptx)
    return rec


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cases")
    p.add_argument("--out", required=True)
    p.add_argument("--only-arch", choices=["sm80", "sm90"])
    p.add_argument("--limit", type=int, default=0, help="the first N cases only")
    p.add_argument("--ids", help="only these cases (comma-separated ids)")
    p.add_argument("--isolate", action="store_true",
                   help="compile local and convert kernels with ISOLATE (kernels.py's _settle: "
                        "each phase's shared-memory accesses finish before the next phase's "
                        "global traffic starts)")
    p.add_argument("--tar", action="store_true", help="also write OUT.tar.xz")
    p.add_argument("-j", "--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    args = p.parse_args()
    with open(args.cases) as f:
        cases = json.load(f)["cases"]
    if args.only_arch:
        cases = [c for c in cases if c["arch"] == args.only_arch]
    if args.ids:
        wanted = set(args.ids.split(","))
        cases = [c for c in cases if c["id"] in wanted]
    if args.isolate:
        cases = [dict(c, isolate=True) if c["kind"] in ("local", "convert") else c for c in cases]
    if args.limit:
        cases = cases[:args.limit]
    os.makedirs(args.out, exist_ok=True)
    cuobjdump = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin",
                             "cuobjdump")
    # A fork per case (a few at a time): an abort inside Triton costs that case only.
    out = [None] * len(cases)
    running = {}
    todo = list(enumerate(cases))
    done = 0
    while todo or running:
        while todo and len(running) < args.jobs:
            i, case = todo.pop(0)
            path = os.path.join(args.out, f".{case['id']}.json")
            pid = os.fork()
            if pid == 0:
                try:
                    with open(path, "w") as f:
                        json.dump(pack_case(case, args.out, cuobjdump), f)
                finally:
                    os._exit(0)
            running[pid] = (i, case, path)
        pid, _ = os.wait()
        i, case, path = running.pop(pid)
        try:
            with open(path) as f:
                out[i] = json.load(f)
            os.unlink(path)
        except (OSError, ValueError):
            out[i] = dict(id=case["id"], error="Triton aborted")
        done += 1
        if done % 100 == 0:
            print(f"{done}/{len(cases)}", flush=True)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"triton": triton.__version__, "cases": out}, f)
    ok = sum(1 for c in out if "error" not in c)
    print(f"{ok} of {len(out)} cases packed in {args.out}")
    if args.tar:
        path = args.out.rstrip("/") + ".tar.xz"
        with tarfile.open(path, "w:xz") as t:
            t.add(args.out, arcname=os.path.basename(args.out.rstrip("/")))
        print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
