"""On the GPU machine, under Nsight Compute (run.sh): every workload of workloads.py whose index
is SHARD modulo SHARDS, until DEADLINE seconds have passed. Each is called once to compile and
autotune (not profiled), then once between cudaProfilerStart/Stop (ncu --profile-from-start off
profiles only those launches) and that result is checked against eager PyTorch. Triton's
kernel-load and launch hooks record which compiled kernel (cache hash) each profiled launch ran.

    python3 run_gpu.py OUT_DIR SHARD SHARDS DEADLINE

Writes OUT_DIR/launches-SHARD.json: {"triton", "torch", "gpu", "workloads": [{"id", "ok",
"rel_err" | "error", "launches": [{"name", "hash", "grid"}]}]} and copies each launched
kernel's TTGIR, cubin and metadata from Triton's cache to OUT_DIR/kernels/HASH.{ttgir,cubin,json}.

LLCHECK_RECORD=1: each workload's record also has "recorded", every launch of its profiled call
as replay.py describes it (compile39.py compiles them with Triton 3.9 here).
LLCHECK_REPLAY=PACK_DIR: the profiled call runs Triton 3.9's cubins from compile39.py's pack in
place of 3.6's launches (replay.Replayer); its launches record 3.9's hashes (their files are in
the pack here: PACK_DIR needs only pack.json and kernels/HASH.cubin on the GPU machine). An
autotuned kernel's configurations are cut to the recorded launch's (pinned_tune), so that the
autotuner cannot choose one the pack was not compiled for."""
import json
import os
import re
import shutil
import sys
import time
import traceback

import torch
import triton
from triton import knobs
from triton.runtime import autotuner
from triton.runtime import jit as triton_jit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import replay  # noqa: E402
import workloads  # noqa: E402

# Workloads before this index are left out (a later run that goes on where two shards stopped).
FIRST = int(os.environ.get("LLCHECK_FIRST_WORKLOAD", "0"))
LOADED = {}      # CUfunction handle -> (name, hash, metadata_group)
LAUNCHES = None  # the launches of the profiled call, or None outside it
RECORDED = None  # LLCHECK_RECORD / LLCHECK_REPLAY: replay.record_launch of each, in that call
WORKLOAD = None  # the workload whose profiled call runs
RECORD = os.environ.get("LLCHECK_RECORD") == "1"
ONLY = re.compile(os.environ.get("LLCHECK_WORKLOADS", ""))  # the workloads whose id it matches
REPLAY = replay.Replayer(os.environ["LLCHECK_REPLAY"]) if os.environ.get("LLCHECK_REPLAY") else None
ORIGINAL_RUN = triton_jit.JITFunction.run


def run_or_replay(self, *args, grid, warmup, **kwargs):
    """JITFunction.run, recording (LLCHECK_RECORD) or replacing (LLCHECK_REPLAY) the launches of
    the profiled call."""
    if RECORDED is None or warmup:
        return ORIGINAL_RUN(self, *args, grid=grid, warmup=warmup, **kwargs)
    device = triton.runtime.driver.active.get_current_device()
    binder = self.device_caches[device][4]
    bound_args = binder(*args, **kwargs)[0]
    rec = replay.record_launch(self, bound_args, grid, kwargs)
    index = len(RECORDED)
    RECORDED.append(rec)
    if REPLAY is None:
        return ORIGINAL_RUN(self, *args, grid=grid, warmup=warmup, **kwargs)
    entry = REPLAY.entry(WORKLOAD, index)
    if entry is None:
        raise RuntimeError(f"launch {index} of {self.fn.__qualname__} is not in the 3.9 pack")
    if not replay.same_specialization(entry["recorded"], rec):
        raise RuntimeError(f"launch {index} ({self.fn.__qualname__}): its arguments do not "
                           "specialize as when the 3.9 pack was compiled")
    LAUNCHES.append({"name": REPLAY.pack["kernels"][entry["hash"]]["name"], "hash": entry["hash"]})
    stream = torch.cuda.current_stream().cuda_stream
    REPLAY.launch(entry["hash"], rec["grid"], list(bound_args.values()), stream)
    # The caller may read the compiled kernel (its metadata): 3.6's, compiled at the warm-up.
    return ORIGINAL_RUN(self, *args, grid=grid, warmup=True, **kwargs)


triton_jit.JITFunction.run = run_or_replay

ORIGINAL_TUNE = autotuner.Autotuner.run
TUNING = None  # LLCHECK_REPLAY: the workload whose calls (the warm-up's too) run


def pinned_tune(self, *args, **kwargs):
    """Autotuner.run where a replay is to launch 3.9's kernel compiled for the recorded launch:
    the configurations are cut to the one that launch had (its constexprs and options), so that
    the autotuner cannot choose another in this run (Liger's DyT chose differently run to run)."""
    if REPLAY is not None and TUNING is not None:
        fn = self.fn
        while not isinstance(fn, triton_jit.JITFunction):
            fn = fn.fn
        name = f"{fn.module}:{fn.fn.__qualname__}"
        for index in range(64):
            entry = REPLAY.entry(TUNING, index)
            if entry is None:
                break
            r = entry["recorded"]
            if r["fn"] != name:
                continue
            values = dict(zip(r["names"], r["args"]))
            # From all of them: an earlier workload's launch of this kernel cut them already.
            every = self.__dict__.setdefault("llcheck_configs", list(self.configs))
            keep = [c for c in every
                    if all(values.get(k) == replay.describe(v) for k, v in c.kwargs.items()) and
                    all(r["options"].get(k, getattr(c, k)) == getattr(c, k)
                        for k in ("num_warps", "num_stages"))]
            if keep and keep[:1] != self.configs:
                self.configs, self.cache = keep[:1], {}
            break
    return ORIGINAL_TUNE(self, *args, **kwargs)


autotuner.Autotuner.run = pinned_tune


def on_load(module, function, name, metadata_group, hash):
    LOADED[function] = (name, hash, dict(metadata_group))


def on_launch(metadata):
    if LAUNCHES is not None and REPLAY is None:
        name, h, _ = LOADED.get(metadata.data["function"], (metadata.data["name"], None, None))
        LAUNCHES.append({"name": name, "hash": h})


def flat(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for y in x for t in flat(y)]
    if hasattr(x, "values") and hasattr(x, "indices"):
        return [x.values]
    return []


def rel_err(got, ref):
    worst = 0.0
    gs, rs = flat(got), flat(ref)
    assert len(gs) == len(rs), f"{len(gs)} results, {len(rs)} expected"
    for g, r in zip(gs, rs):
        assert g.shape == r.shape, f"shape {tuple(g.shape)}, expected {tuple(r.shape)}"
        if not g.is_floating_point() and not r.is_floating_point():
            worst = max(worst, 0.0 if torch.equal(g.cpu(), r.cpu().to(g.dtype)) else 1.0)
            continue
        g, r = g.detach().double(), r.detach().double()
        if torch.isnan(g).any() and not torch.isnan(r).any():
            return float("inf")
        den = r.norm().item() or 1.0
        worst = max(worst, (g - r).norm().item() / den)
    return worst


def main():
    global LAUNCHES, RECORDED, WORKLOAD, TUNING
    out, shard, shards, deadline = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    os.makedirs(os.path.join(out, "kernels"), exist_ok=True)
    knobs.runtime.kernel_load_end_hook.add(on_load)
    knobs.runtime.launch_enter_hook.add(on_launch)
    start = time.time()
    results, copied = [], set()
    for i, (wid, make) in enumerate(workloads.all_workloads()):
        if i % shards != shard or i < FIRST or not ONLY.match(wid):
            continue
        if time.time() - start > deadline:
            results.append({"id": wid, "error": "not run: the shard's time was up"})
            continue
        rec = {"id": wid}
        TUNING = wid
        try:
            torch.manual_seed(i)
            run, reference, tol = make()
            run()  # compiles, autotunes: not profiled
            torch.cuda.synchronize()
            LAUNCHES, WORKLOAD = [], wid
            RECORDED = [] if RECORD or REPLAY else None
            torch.cuda.cudart().cudaProfilerStart()
            got = run()
            torch.cuda.synchronize()
            torch.cuda.cudart().cudaProfilerStop()
            rec["launches"], LAUNCHES = LAUNCHES, None
            if RECORD:
                rec["recorded"] = RECORDED
            RECORDED = None
            err = rel_err(got, reference())
            rec.update(rel_err=err, tol=tol, ok=bool(err <= tol))
        except Exception as e:  # noqa: BLE001 - recorded; the other workloads go on
            LAUNCHES = RECORDED = None
            torch.cuda.cudart().cudaProfilerStop()
            rec["error"] = f"{type(e).__name__}: {e}"[:400]
            rec["trace"] = traceback.format_exc()[-800:]
        for launch in rec.get("launches", []):
            h = launch["hash"]
            if h and h not in copied and REPLAY is None:
                group = next(g for n, hh, g in LOADED.values() if hh == h)
                for fname, path in group.items():
                    ext = fname.rsplit(".", 1)[-1]
                    if ext in ("ttgir", "cubin", "json") and not fname.startswith("__grp__"):
                        shutil.copy(path, os.path.join(out, "kernels", f"{h}.{ext}"))
                copied.add(h)
        results.append(rec)
        print(i, wid, rec.get("ok"), rec.get("rel_err"), rec.get("error", ""),
              len(rec.get("launches", [])), f"{time.time() - start:.0f}s", flush=True)
    with open(os.path.join(out, f"launches-{shard}.json"), "w") as f:
        json.dump({"triton": triton.__version__, "torch": torch.__version__,
                   "gpu": torch.cuda.get_device_name(0), "workloads": results}, f, indent=1)


if __name__ == "__main__":
    main()
