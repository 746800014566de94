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
as replay.py describes it (compile39.py compiles them with Triton 3.9 here), in the order the
launch hook counts them: those through JITFunction.run (run_or_replay) and those that launch a
compiled kernel without it (FlagGems' LibEntry; CompiledKernel.launch_metadata, which every
launch calls just before the launch hook). OUT_DIR/sources-SHARD.json maps each recorded JIT
function ("module:qualname") whose source file is neither installed nor in this repository
(FlagGems' generated pointwise kernels) to {"file", "path", "jit_globals"}: its copy in
OUT_DIR/sources/FILE, where it was, and the JIT functions it calls that were not defined there
(global name -> "module:qualname": FlagGems' scalar function, whose module's globals the
generated module was given).
LLCHECK_WORKLOADS=REGEX runs only the workloads whose id it matches, LLCHECK_SKIP=REGEX leaves
out those it matches (FlagGems' fp32 matmuls, which autotune for minutes).
LLCHECK_ONE_CONFIG=REGEX: an autotuned kernel whose module it matches (fla's, 48 configurations
a kernel) gets one of its configurations, the ones its pruning keeps, chosen by the kernel's name
and autotune key (one_config), so it compiles once and is not benchmarked; the record says which.
LLCHECK_REPLAY=PACK_DIR: the profiled call runs Triton 3.9's cubins from compile39.py's pack in
place of 3.6's launches (replay.Replayer); its launches record 3.9's hashes (their files are in
the pack here: PACK_DIR needs only pack.json and kernels/HASH.cubin on the GPU machine). An
autotuned kernel's configurations are cut to the recorded launch's (pinned_tune), so that the
autotuner cannot choose one the pack was not compiled for. A compiled kernel launched without
JITFunction.run (FlagGems' LibEntry) is replayed where it is launched, CompiledKernel[grid]
(replayed_getitem), and one whose launcher is called directly (PyTorch Inductor's) at that
launcher (replaying_init_handles); one launched any other way is refused."""
import importlib
import inspect
import json
import os
import re
import shutil
import sys
import time
import traceback

# PyTorch Inductor's workloads (workloads.inductor_workloads), set before torch is imported as a
# user's environment would set them: Triton's own launcher, whose launch hooks see every launch
# (Inductor's default static CUDA launcher bypasses them), and its kernels compiled in this
# process: those its compile workers send back carry no JIT function to record (2026-12-07).
for key, value in {"TORCHINDUCTOR_USE_STATIC_CUDA_LAUNCHER": "0",
                   "TORCHINDUCTOR_COMPILE_THREADS": "1"}.items():
    os.environ.setdefault(key, value)

import torch  # noqa: E402
import triton  # noqa: E402
from triton import knobs  # noqa: E402
from triton.compiler import compiler as triton_compiler  # noqa: E402
from triton.runtime import autotuner  # noqa: E402
from triton.runtime import jit as triton_jit  # noqa: E402

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
SKIP = re.compile(os.environ["LLCHECK_SKIP"]) if os.environ.get("LLCHECK_SKIP") else None  # left out
REPLAY = replay.Replayer(os.environ["LLCHECK_REPLAY"]) if os.environ.get("LLCHECK_REPLAY") else None
ORIGINAL_RUN = triton_jit.JITFunction.run
IN_RUN = 0    # run_or_replay's launches in progress: their compiled kernel's launch is recorded
JIT_FNS = {}  # LLCHECK_RECORD: "module:qualname" -> the JITFunction of every recorded launch


def run_or_replay(self, *args, grid, warmup, **kwargs):
    """JITFunction.run, recording (LLCHECK_RECORD) or replacing (LLCHECK_REPLAY) the launches of
    the profiled call."""
    global IN_RUN
    if RECORDED is None or warmup:
        return ORIGINAL_RUN(self, *args, grid=grid, warmup=warmup, **kwargs)
    device = triton.runtime.driver.active.get_current_device()
    binder = self.device_caches[device][4]
    bound_args = binder(*args, **kwargs)[0]
    rec = replay.record_launch(self, bound_args, grid, kwargs)
    index = len(RECORDED)
    RECORDED.append(rec)
    JIT_FNS.setdefault(rec["fn"], self)
    if REPLAY is None:
        IN_RUN += 1  # recorded already: not again by launch_metadata_recorded
        try:
            return ORIGINAL_RUN(self, *args, grid=grid, warmup=warmup, **kwargs)
        finally:
            IN_RUN -= 1
    launch_replayed(index, rec, list(bound_args.values()), self.fn.__qualname__)
    # The caller may read the compiled kernel (its metadata): 3.6's, compiled at the warm-up.
    return ORIGINAL_RUN(self, *args, grid=grid, warmup=True, **kwargs)


def launch_replayed(index, rec, values, what):
    """Runs the pack's 3.9 kernel for launch `index` of the profiled call (recorded as `rec`,
    its parameters' values `values`) in place of 3.6's."""
    entry = REPLAY.entry(WORKLOAD, index)
    if entry is None:
        raise RuntimeError(f"launch {index} of {what} is not in the 3.9 pack")
    if not replay.same_specialization(entry["recorded"], rec):
        raise RuntimeError(f"launch {index} ({what}): its arguments do not specialize as when "
                           "the 3.9 pack was compiled")
    LAUNCHES.append({"name": REPLAY.pack["kernels"][entry["hash"]]["name"], "hash": entry["hash"]})
    REPLAY.launch(entry["hash"], rec["grid"], values, torch.cuda.current_stream().cuda_stream)


triton_jit.JITFunction.run = run_or_replay

ORIGINAL_GETITEM = triton_compiler.CompiledKernel.__getitem__


def replayed_getitem(self, grid):
    """CompiledKernel[grid] under LLCHECK_REPLAY: FlagGems' LibEntry launches `kernel[grid](*args)`
    after each specialization's first call, which JITFunction.run never sees. In the profiled
    call that launch is recorded (replay.record_compiled_launch) and 3.9's kernel runs instead."""
    runner = ORIGINAL_GETITEM(self, grid)
    if REPLAY is None:
        return runner

    def replayed(*args, stream=None):
        if RECORDED is None or IN_RUN:
            return runner(*args, stream=stream)
        rec = replay.record_compiled_launch(self, grid, args)
        index = len(RECORDED)
        RECORDED.append(rec)
        launch_replayed(index, rec, replay.compiled_launch_values(self, args)[2], self.name)

    return replayed


triton_compiler.CompiledKernel.__getitem__ = replayed_getitem

ORIGINAL_INIT_HANDLES = triton_compiler.CompiledKernel._init_handles


def replaying_init_handles(self):
    """CompiledKernel._init_handles under LLCHECK_REPLAY: the kernel's launcher (`run`) is
    wrapped so that a launch of the profiled call that neither JITFunction.run nor
    CompiledKernel[grid] replayed (PyTorch Inductor's launchers call `run` directly) is
    recorded and replayed there, and 3.6's kernel does not run."""
    ORIGINAL_INIT_HANDLES(self)
    runner = self._run
    if REPLAY is None or getattr(runner, "llcheck_replaying", False):
        return

    def replayed(g0, g1, g2, stream, function, packed, launch_md, enter, leave, *args):
        if RECORDED is None or IN_RUN:
            return runner(g0, g1, g2, stream, function, packed, launch_md, enter, leave, *args)
        rec = replay.record_compiled_launch(self, (g0, g1, g2), args)
        index = len(RECORDED)
        RECORDED.append(rec)
        launch_replayed(index, rec, replay.compiled_launch_values(self, args)[2], self.name)
    replayed.llcheck_replaying = True
    self._run = replayed


triton_compiler.CompiledKernel._init_handles = replaying_init_handles

ORIGINAL_LAUNCH_METADATA = triton_compiler.CompiledKernel.launch_metadata


def launch_metadata_recorded(self, grid, stream, *args):
    """CompiledKernel.launch_metadata, which every launch of a compiled kernel calls just before
    the launch hook (on_launch): records (LLCHECK_RECORD) the launches of the profiled call that
    did not go through JITFunction.run (FlagGems' LibEntry launches `kernel[grid](*args)` after
    the first call of each specialization); under LLCHECK_REPLAY such a launch has been replayed
    by replayed_getitem, and one that reaches here another way is refused, as it would run
    3.6's kernel unmeasured."""
    # A kernel whose load the load hook did not see (Inductor loads some in its compile
    # workers' reconstructions): its hash and cache files are its own.
    LOADED.setdefault(self.function, (self.name, self.hash, dict(self.metadata_group)))
    if RECORDED is not None and not IN_RUN:
        if REPLAY is not None:
            if getattr(getattr(self, "_run", None), "llcheck_replaying", False):  # its launcher replays it
                return ORIGINAL_LAUNCH_METADATA(self, grid, stream, *args)
            raise RuntimeError(f"{self.name} was launched without JITFunction.run: not replayed")
        rec = replay.record_compiled_launch(self, grid, args)
        RECORDED.append(rec)
        if hasattr(getattr(self.src, "fn", None), "arg_names"):
            JIT_FNS.setdefault(rec["fn"], self.src.fn)
    return ORIGINAL_LAUNCH_METADATA(self, grid, stream, *args)


triton_compiler.CompiledKernel.launch_metadata = launch_metadata_recorded

ORIGINAL_TUNE = autotuner.Autotuner.run
TUNING = None  # LLCHECK_REPLAY: the workload whose calls (the warm-up's too) run


ONE_CONFIG = re.compile(os.environ["LLCHECK_ONE_CONFIG"]) if os.environ.get("LLCHECK_ONE_CONFIG") \
    else None


def pinned_tune(self, *args, **kwargs):
    """Autotuner.run where a replay is to launch 3.9's kernel compiled for the recorded launch:
    the configurations are cut to the one that launch had (its constexprs and options), so that
    the autotuner cannot choose another in this run (Liger's DyT chose differently run to run)."""
    pin_configs(self)
    if ONE_CONFIG is not None and REPLAY is None:
        one_config(self)
    return ORIGINAL_TUNE(self, *args, **kwargs)


def jit_function_of(tuner):
    fn = tuner.fn
    while not isinstance(fn, triton_jit.JITFunction):
        fn = fn.fn
    return fn


def one_config(self):
    """LLCHECK_ONE_CONFIG: autotuner `self` keeps one of the configurations its pruning keeps,
    configs[crc32(name and autotune key) % n], where its module matches the regex."""
    import zlib
    fn = jit_function_of(self)
    if not ONE_CONFIG.match(fn.module) or "llcheck_prune" in self.__dict__:
        return
    prune = self.prune_configs

    def prune_to_one(kwargs, *rest, **more):
        configs = prune(kwargs, *rest, **more)
        if len(configs) <= 1:
            return configs
        every = {**(self.nargs or {}), **kwargs}
        key = [str(every[k].dtype) if hasattr(every.get(k), "dtype") else every.get(k)
               for k in self.keys]
        pick = zlib.crc32(f"{fn.fn.__qualname__}:{key}".encode()) % len(configs)
        return [configs[pick]]
    self.llcheck_prune = True
    self.prune_configs = prune_to_one


def pin_configs(self):
    """Cuts autotuner `self`'s configurations to the recorded launch's (see pinned_tune)."""
    if REPLAY is not None and TUNING is not None:
        fn = jit_function_of(self)
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


autotuner.Autotuner.run = pinned_tune

if REPLAY is not None:
    # FlagGems' LibTuner overrides Autotuner.run (its own tuning cache): pinned the same way,
    # else it may choose another configuration than the recording run's (29 of 171 FlagGems
    # workloads were refused so, 2026-12-03).
    try:  # the module (flag_gems.utils.libentry is also the name of its decorator)
        gems_libentry = importlib.import_module("flag_gems.utils.libentry")
    except ImportError:
        gems_libentry = None
    if gems_libentry is not None:
        ORIGINAL_LIBTUNE = gems_libentry.LibTuner.run

        def pinned_libtune(self, *args, **kwargs):
            pin_configs(self)
            return ORIGINAL_LIBTUNE(self, *args, **kwargs)

        gems_libentry.LibTuner.run = pinned_libtune


def on_load(module, function, name, metadata_group, hash):
    LOADED[function] = (name, hash, dict(metadata_group))


def on_launch(metadata):
    if LAUNCHES is not None and REPLAY is None:
        name, h, _ = LOADED.get(metadata.data["function"], (metadata.data["name"], None, None))
        LAUNCHES.append({"name": name, "hash": h})


def generated_sources(out, shard):
    """LLCHECK_RECORD: the source files of the recorded JIT functions that are neither installed
    (site-packages, PYTHONPATH) nor in this repository, copied to OUT_DIR/sources/ and listed in
    OUT_DIR/sources-SHARD.json (see the module's docstring)."""
    import site
    known = [os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))]
    known += site.getsitepackages() + [site.getusersitepackages()]
    known += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    known = [os.path.realpath(p) + os.sep for p in known]
    index = {}
    for key, jit in sorted(JIT_FNS.items()):
        if getattr(jit, "fn", None) is None:
            continue
        try:
            path = os.path.realpath(inspect.getsourcefile(jit.fn) or jit.fn.__code__.co_filename)
        except (TypeError, OSError):
            path = os.path.realpath(jit.fn.__code__.co_filename)
        if any(path.startswith(k) for k in known):
            continue
        entry = {"file": None, "path": path, "jit_globals": {
            name: f"{v.module}:{v.fn.__qualname__}" for name, v in sorted(jit.fn.__globals__.items())
            if isinstance(v, triton_jit.JITFunction) and
            os.path.realpath(v.fn.__code__.co_filename) != path}}
        if os.path.isfile(path):
            os.makedirs(os.path.join(out, "sources"), exist_ok=True)
            entry["file"] = os.path.basename(path)
            shutil.copy(path, os.path.join(out, "sources", entry["file"]))
        index[key] = entry
    with open(os.path.join(out, f"sources-{shard}.json"), "w") as f:
        json.dump(index, f, indent=1)


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
        if i % shards != shard or i < FIRST or not ONLY.match(wid) or (SKIP and SKIP.match(wid)):
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
    if RECORD:
        generated_sources(out, shard)


if __name__ == "__main__":
    main()
