"""Here, with Triton 3.9 (and torch, Liger-Kernel for their kernels' modules; no GPU): compiles
for sm90 every launch that run_gpu.py recorded under 3.6 (LLCHECK_RECORD=1), through 3.9's own
binder, so that each kernel is specialized as 3.9 would specialize it at that launch (see
replay.py). Writes the pack that run_gpu.py's LLCHECK_REPLAY reads:

    python3 compile39.py RECORDS.json[.xz]... PACK_DIR

(data/recorded-3.6.json.xz: the launches recorded on 2026-12-02, Liger-Kernel and tutorial.)

PACK_DIR/pack.json: {"triton", "target", "launches": {"WORKLOAD#N": {"hash", "recorded"}},
"kernels": {HASH: {"name", "fn", "params": [[ARG_INDEX, TYPE]], "metadata": {"num_warps",
"shared", "global_scratch_size", "profile_scratch_size"}}}, "not_compiled": {"WORKLOAD#N":
REASON}}; PACK_DIR/kernels/HASH.{cubin,ttgir,json}: each kernel's cubin, TTGIR and metadata."""
import importlib
import json
import lzma
import os
import shutil
import sys

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


class NoGpuDriver:
    """Triton's active driver where there is no GPU: it names the target and device 0, and
    nothing is launched (every compile here is a warm-up)."""

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_current_target(self):
        return TARGET

    def __getattr__(self, name):
        raise RuntimeError(f"Triton asked the driver for {name}; nothing runs here")


def jit_function(key):
    """The JITFunction "module:qualname" (importing its module registers it)."""
    if key not in _triton_jit_function_registry:
        importlib.import_module(key.split(":")[0])
    return _triton_jit_function_registry[key]


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
