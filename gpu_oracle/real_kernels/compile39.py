"""Here, with Triton 3.9 (and torch, Liger-Kernel for their kernels' modules; no GPU): compiles
for sm90 every launch that run_gpu.py recorded under 3.6 (LLCHECK_RECORD=1), through 3.9's own
binder, so that each kernel is specialized as 3.9 would specialize it at that launch (see
replay.py). Writes the pack that run_gpu.py's LLCHECK_REPLAY reads:

    python3 compile39.py RECORDS.json[.xz]... PACK_DIR

(data/recorded-3.6.json.xz: the launches recorded on 2026-12-02, Liger-Kernel and tutorial;
data/recorded-fla-3.6.json.xz: fla's, 2026-12-04;
data/recorded-flaggems-3.6.json.xz: FlagGems', whose generated pointwise modules are loaded from
data/flaggems-sources-3.6.tar.xz unpacked, in the folder LLCHECK_GENERATED_SOURCES names;
data/recorded-inductor-3.6.json.xz: PyTorch Inductor's, from data/inductor-sources-3.6.tar.xz.)

PACK_DIR/pack.json: {"triton", "target", "launches": {"WORKLOAD#N": {"hash", "recorded"}},
"kernels": {HASH: {"name", "fn", "params": [[ARG_INDEX, TYPE]], "metadata": {"num_warps",
"shared", "global_scratch_size", "profile_scratch_size"}}}, "not_compiled": {"WORKLOAD#N":
REASON}}; PACK_DIR/kernels/HASH.{cubin,ttgir,json}: each kernel's cubin, TTGIR and metadata."""
import importlib
import importlib.util
import json
import lzma
import os
import shutil
import sys
import types

import torch
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.runtime import driver
from triton.runtime.jit import _triton_jit_function_registry

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from replay import StandIn  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)


# The H200's properties as Triton's driver and torch gave them there (2026-12-04), for the
# kernels' modules that read them at import.
H200_PROPERTIES = {"max_shared_mem": 232448, "max_num_regs": 65536, "multiprocessor_count": 132,
                   "warpSize": 32, "sm_clock_rate": 1980000, "mem_clock_rate": 3201000,
                   "mem_bus_width": 6016}


class NoGpuUtils:
    def get_device_properties(self, device):
        return dict(H200_PROPERTIES)


class NoGpuDriver:
    """Triton's active driver where there is no GPU: it names the target and device 0, and
    nothing is launched (every compile here is a warm-up)."""

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_current_target(self):
        return TARGET

    utils = NoGpuUtils()

    def __getattr__(self, name):
        raise RuntimeError(f"Triton asked the driver for {name}; nothing runs here")


# Generated kernels' modules, whose files the recording run saved: FlagGems' pointwise kernels
# ("_gen_module_HASH_rank_N:NAME", data/flaggems-sources-3.6.tar.xz) and PyTorch Inductor's
# (data/inductor-sources-3.6.tar.xz), each unpacked; index.json maps each kernel to its file.
# LLCHECK_GENERATED_SOURCES (or LLCHECK_FLAGGEMS_SOURCES, its earlier name) names the folder.
GENERATED = os.environ.get("LLCHECK_GENERATED_SOURCES", os.environ.get("LLCHECK_FLAGGEMS_SOURCES", ""))
INDUCTOR_DECORATORS = ("pointwise", "reduction", "persistent_reduction", "split_scan", "template",
                       "foreach", "user_autotune", "cooperative_reduction", "fixed_config")


def generated_files():
    if not GENERATED:
        return {}
    index = json.load(open(os.path.join(GENERATED, "index.json")))
    return {k.split(":")[0]: f for k, f in index.items()}


def generated_module(name):
    """Loads the generated module `name` from its saved source, under that name, so that its
    JIT functions register as the recorded ones. Inductor's kernels are wrapped by its
    autotuning decorators (triton_heuristics.pointwise, ...), which build a launcher for a
    device: here they are left out, and the JIT function is what the module keeps."""
    files = generated_files()
    if name not in files:
        raise ImportError(f"{name}: not among the saved generated sources in {GENERATED}")
    path = os.path.join(GENERATED, files[name])
    if "triton_heuristics" in open(path).read():
        from torch._inductor.runtime import triton_heuristics, triton_helpers
        for decorator in INDUCTOR_DECORATORS:
            setattr(triton_heuristics, decorator, lambda *a, **k: (lambda fn: fn))
        # It would make Triton's CUDA driver the active one; here the active driver names sm90.
        triton_helpers.set_driver_to_gpu = lambda: None
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)


def jit_function(key):
    """The JITFunction "module:qualname" (importing its module registers it)."""
    if key not in _triton_jit_function_registry:
        module = key.split(":")[0]
        if module in generated_files():
            generated_module(module)
        else:
            importlib.import_module(module)
    return _triton_jit_function_registry[key]


def without_gpu_for_imports():
    """The kernels' modules ask about the device when imported: FlagGems torch for its name and
    capability (its LibEntry's cache is per device), fla Triton's driver and torch for its
    shared memory and multiprocessors (its autotune spaces and Hopper paths are chosen at
    import). They get the H200's, which the launches were recorded on; FlagGems' vendor is said
    too."""
    os.environ.setdefault("GEMS_VENDOR", "nvidia")
    torch.cuda.get_device_name = lambda *a, **k: "NVIDIA H200"
    torch.cuda.get_device_capability = lambda *a, **k: (9, 0)
    torch.cuda.device_count = lambda: 1
    torch.cuda.get_device_properties = lambda *a, **k: types.SimpleNamespace(
        name="NVIDIA H200", major=9, minor=0, multi_processor_count=132,
        shared_memory_per_block_optin=H200_PROPERTIES["max_shared_mem"],
        shared_memory_per_block=49152, total_memory=143155 << 20, L2_cache_size=60 << 20)


def stand_in(arg):
    if "tensor" in arg:
        return StandIn(getattr(torch, arg["tensor"]), arg["align"])
    for k in ("int", "float", "bool", "str"):
        if k in arg:
            return arg[k]
    if "none" in arg:
        return None
    if "dtype" in arg:
        return tl.dtype(arg["dtype"])
    if "jit" in arg:
        return jit_function(arg["jit"])
    if "tuple" in arg:
        return tuple(stand_in(a) for a in arg["tuple"])
    raise ValueError(f"argument of type {arg['unsupported']} is not recorded")


def params_of(fn, signature):
    """The cubin's parameters: every argument that is not a constexpr, in order, with its type
    (3.9's launcher appends the global and profile scratch pointers)."""
    out = []
    for i, name in enumerate(fn.arg_names):
        ty = signature[name]
        if ty == "constexpr":
            continue
        if isinstance(ty, tuple) or not isinstance(ty, str):
            raise ValueError(f"argument {name} is a tuple: not launched by replay.py")
        out.append([i, ty])
    return out


def main():
    *records, pack_dir = sys.argv[1:]
    os.makedirs(os.path.join(pack_dir, "kernels"), exist_ok=True)
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(pack_dir, "cache"))
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # 3.9's default, said explicitly
    driver.set_active(NoGpuDriver())
    without_gpu_for_imports()
    pack = {"triton": triton.__version__, "target": "sm90", "launches": {}, "kernels": {},
            "not_compiled": {}}
    for path in records:
        opener = lzma.open if path.endswith(".xz") else open
        for w in json.load(opener(path, "rt"))["workloads"]:
            for j, launch in enumerate(w.get("recorded", [])):
                lid = f"{w['id']}#{j}"
                try:
                    fn = jit_function(launch["fn"])
                    # By name: a kernel parameter may be named as an option (num_warps), and
                    # then one keyword sets both, as at the recorded launch.
                    args = {n: stand_in(a) for n, a in zip(launch["names"], launch["args"])}
                    options = {k: v for k, v in launch["options"].items() if k not in args}
                    kernel = fn.run(grid=tuple(launch["grid"]), warmup=True, **args, **options)
                except Exception as e:  # noqa: BLE001 - recorded with the launch
                    pack["not_compiled"][lid] = f"{type(e).__name__}: {e}"[:300]
                    continue
                h = kernel.hash
                if h not in pack["kernels"]:
                    md = kernel.metadata
                    if tuple(getattr(md, "cluster_dims", (1, 1, 1))) not in ((1, 1, 1), ()):
                        pack["not_compiled"][lid] = "a thread-block cluster: not launched here"
                        continue
                    if md.launch_pdl or md.launch_cooperative_grid:
                        pack["not_compiled"][lid] = "PDL or cooperative launch: not launched here"
                        continue
                    try:
                        params = params_of(fn, kernel.src.signature)
                    except ValueError as e:
                        pack["not_compiled"][lid] = str(e)
                        continue
                    pack["kernels"][h] = {
                        "name": md.name, "fn": launch["fn"], "params": params,
                        "metadata": {"num_warps": md.num_warps, "shared": md.shared,
                                     "global_scratch_size": md.global_scratch_size,
                                     "profile_scratch_size": md.profile_scratch_size}}
                    stem = os.path.join(pack_dir, "kernels", h)
                    open(stem + ".cubin", "wb").write(kernel.asm["cubin"])
                    open(stem + ".ttgir", "w").write(kernel.asm["ttgir"])
                    json.dump(md._asdict(), open(stem + ".json", "w"), default=str)
                pack["launches"][lid] = {"hash": h, "recorded": launch}
    shutil.rmtree(os.path.join(pack_dir, "cache"), ignore_errors=True)
    json.dump(pack, open(os.path.join(pack_dir, "pack.json"), "w"), indent=1)
    print(f"{len(pack['launches'])} launches, {len(pack['kernels'])} kernels, "
          f"{len(pack['not_compiled'])} not compiled")
    for lid, why in list(pack["not_compiled"].items())[:20]:
        print(" ", lid, why)


if __name__ == "__main__":
    main()
