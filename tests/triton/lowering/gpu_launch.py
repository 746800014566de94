"""Runs a pack of compiled lowering-probe kernels (gpu_pack.py) on the GPU with CuPy, one CTA
each, checks that every element came through, and records the launch order so that Nsight
Compute's rows (one per launch, in order) can be joined with the cases:

    ncu --csv --metrics <see run_gpu.sh> --kernel-name regex:'^(local|convert|async)_kernel$' \\
        python3 gpu_launch.py PACK_DIR RESULT.json

RESULT.json: {"triton", "gpu", "launches": [{"id", "launched", "correct", "wrong",
"missing"}]} in launch order; ncu has one row per launch that has "launched" (a case that fails
to load has "error" and no row). It is rewritten after every launch, so a kernel that brings the
process down (a misaligned access makes the launch fail and ncu ends the program) leaves every
earlier record.

    gpu_launch.py PACK RESULT.json --skip-padded      every case but the padded-layout ones
    gpu_launch.py PACK RESULT.jsonl --case ID         one case, appended as a JSON line with
                                                      this process's id (ncu's "Process ID")
    gpu_launch.py PACK RESULT.jsonl --cases ID,ID.. [--repeat N]
                                                      these cases in this order, each N times
                                                      (default 1), one JSON line per launch,
                                                      written before ("start") and after it: the
                                                      last "start" without an end is a fault

run_gpu.sh runs the padded-layout cases one process each, so that one fault loses one case.
"""
import json
import os
import sys

import cupy as cp
import numpy as np

DTYPES = {"int8": np.int8, "float16": np.float16, "float32": np.float32, "int64": np.int64}
SENTINEL32 = 0x12345678           # outside a sign-extended 8/16-bit value; not a float we draw
SENTINEL64 = 0x7EADBEEFDEADBEEF


def source_bits(x, dtype):
    """What the live store writes for each element: its bits, widened as kernels.py widens."""
    if dtype == "float16":
        return x.view(np.int16).astype(np.int32)
    if dtype == "float32":
        return x.view(np.int32)
    if dtype == "int8":
        return x.astype(np.int32)
    return x.view(np.int64)


def gpu_name():
    props = cp.cuda.runtime.getDeviceProperties(0)
    return props["name"].decode() if isinstance(props["name"], bytes) else props["name"]


def launch_case(pack, case, rng):
    """One launch of one case: the record of run_gpu.sh's RESULT.json."""
    rec = {"id": case["id"]}
    try:
        mod = cp.RawModule(path=os.path.join(pack, case["file"]))
        fn = mod.get_function(case["kernel"])
        shared = case["shared_bytes"]
        if shared > 48 * 1024:
            fn.max_dynamic_shared_size_bytes = shared
        m, n = case["shape"]
        dt = DTYPES[case["dtype"]]
        if dt in (np.int8, np.int64):
            host = rng.integers(-100, 100, size=(m, n)).astype(dt)
        else:
            host = rng.standard_normal((m, n)).astype(dt)
        x = cp.asarray(host)
        if case.get("store") == "masked":
            # Triton's own store (cases-exit.json): each element once, into an [M, N] tensor.
            out = cp.zeros((m, n), dtype=dt)
            args = [x, out] + [np.uint64(0)] * (case["params"] - 2)
            fn((1, 1, 1), (case["threads"], 1, 1), tuple(args), shared_mem=shared)
            rec["launched"] = True
            cp.cuda.Device().synchronize()
            wrong = int((cp.asnumpy(out) != host).sum())
            rec.update(correct=wrong == 0, wrong=wrong, missing=0)
            return rec
        wide = dt == np.int64
        slots = case["threads"] * m * n
        out = cp.full(slots, SENTINEL64 if wide else SENTINEL32,
                      dtype=cp.int64 if wide else cp.int32)
        args = [x, out] + [np.uint64(0)] * (case["params"] - 2)
        fn((1, 1, 1), (case["threads"], 1, 1), tuple(args), shared_mem=shared)
        rec["launched"] = True
        cp.cuda.Device().synchronize()
        got = cp.asnumpy(out).reshape(case["threads"], m * n)
        want = source_bits(host.reshape(-1), case["dtype"])
        written = got != (SENTINEL64 if wide else SENTINEL32)
        wrong = int((written & (got != want[None, :])).sum())
        missing = int((~written.any(axis=0)).sum())
        rec.update(correct=wrong == 0 and missing == 0, wrong=wrong, missing=missing)
    except Exception as e:  # noqa: BLE001 - one case's failure is recorded, not fatal
        rec["error"] = f"{type(e).__name__}: {str(e)[:300]}"
    return rec


def run_listed(pack, manifest, ids, repeat, result_path):
    """--cases: each listed case `repeat` times in one process, a line before and after each."""
    by_id = {c["id"]: c for c in manifest["cases"] if "error" not in c}
    rng = np.random.default_rng(1)
    with open(result_path, "a") as f:
        for case_id in ids:
            if case_id not in by_id:
                continue
            for k in range(repeat):
                f.write(json.dumps({"id": case_id, "start": k, "pid": os.getpid()}) + "\n")
                f.flush()
                rec = launch_case(pack, by_id[case_id], rng)
                rec.update(repeat=k, pid=os.getpid())
                f.write(json.dumps(rec) + "\n")
                f.flush()
                if "error" in rec and "CUDA" in rec["error"]:
                    # A fault spoils the CUDA context for every later case: end here, and let
                    # the caller start a fresh process after this case.
                    sys.exit(3)


def main():
    pack, result_path = sys.argv[1], sys.argv[2]
    skip_padded = "--skip-padded" in sys.argv
    only = sys.argv[sys.argv.index("--case") + 1] if "--case" in sys.argv else None
    listed = (sys.argv[sys.argv.index("--cases") + 1].split(",") if "--cases" in sys.argv
              else None)
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 1
    with open(os.path.join(pack, "manifest.json")) as f:
        manifest = json.load(f)
    if listed is not None:
        return run_listed(pack, manifest, listed, repeat, result_path)
    rng = np.random.default_rng(1)
    launches = []

    def save():
        if only is not None:
            return
        with open(result_path, "w") as f:
            json.dump({"triton": manifest["triton"], "gpu": gpu_name(), "launches": launches}, f)

    # Padded-layout kernels last: a misaligned access faults and spoils the CUDA context.
    for case in sorted(manifest["cases"], key=lambda c: bool(c.get("padded"))):
        if "error" in case:
            continue
        if (only is not None and case["id"] != only) or (skip_padded and case.get("padded")):
            continue
        rec = launch_case(pack, case, rng)
        launches.append(rec)
        save()
        if only is not None:
            rec["pid"] = os.getpid()
            with open(result_path, "a") as f:
                f.write(json.dumps(rec) + "\n")
        if len(launches) % 100 == 0:
            print(f"{len(launches)} launched", flush=True)
    save()
    bad = [r["id"] for r in launches if not r.get("correct")]
    print(f"{len(launches)} launches, {len(bad)} not correct: {bad[:20]}")


if __name__ == "__main__":
    main()
