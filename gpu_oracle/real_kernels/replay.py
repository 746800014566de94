"""Triton 3.9's kernels for the same launches as 3.6's (issue 32, step 5): Triton 3.9 is too
large to carry to the GPU machine, so its kernels are compiled here and launched there on the
inputs the workloads build under 3.6.

1. GPU machine, `run_gpu.py` with LLCHECK_RECORD=1: every Triton launch of each workload's
   profiled call is recorded (`record_launch`): the JIT function ("module:qualname"), each
   bound argument (a tensor's dtype and its pointer's alignment, a scalar's value, a constexpr),
   the grid and the launch options (num_warps, num_stages, ...).
2. Here, `compile39.py`: Triton 3.9's own binder specializes stand-ins of those arguments
   (`StandIn`: the dtype and a pointer of the same alignment) and compiles for sm90 through a
   driver that has no GPU (`NoGpuDriver`); the pack holds each launch's cubin, metadata, TTGIR
   and the kernel's parameter list.
3. GPU machine, `run_gpu.py` with LLCHECK_REPLAY=PACK: each launch of the profiled call runs
   3.9's cubin with CuPy (`Replayer`) instead of 3.6's kernel, after checking that its
   arguments specialize as recorded; the workload's result is checked against eager PyTorch as
   for 3.6, and Nsight Compute measures 3.9's kernels.

A launch that does not go through JITFunction.run (FlagGems' LibEntry launches the compiled
kernel itself after its first call) is recorded from the compiled kernel
(`record_compiled_launch`: its JIT function, constexprs and options come from the kernel); it is
replayed where LibEntry launches it (run_gpu.py's `replayed_getitem`, at CompiledKernel[grid]),
and refused anywhere else under LLCHECK_REPLAY.

Launch records: {"fn", "names": [PARAMETER], "args": [ARG], "grid": [x, y, z], "options": {...}}
with ARG one of
{"tensor": DTYPE, "align": PTR % 16}, {"int": V}, {"float": V}, {"bool": V}, {"none": true},
{"str": V}, {"dtype": NAME}, {"jit": "module:qualname"}, {"tuple": [ARG]},
{"unsupported": TYPE}."""
import json

import numpy as np

# The keyword arguments of a launch that are compiler options, not kernel arguments.
OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion",
           "launch_pdl", "launch_cooperative_grid")


def describe(value):
    """One bound argument of a launch, as recorded (see the module's docstring)."""
    kind = type(value).__name__
    if hasattr(value, "data_ptr") and hasattr(value, "dtype"):
        return {"tensor": str(value.dtype).replace("torch.", ""), "align": value.data_ptr() % 16}
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"float": value}
    if value is None:
        return {"none": True}
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, tuple):
        return {"tuple": [describe(v) for v in value]}
    if kind == "dtype" and hasattr(value, "primitive_bitwidth"):
        return {"dtype": str(value)}
    if kind == "JITFunction":
        return {"jit": f"{value.module}:{value.fn.__qualname__}"}
    if kind == "constexpr":
        return describe(value.value)
    return {"unsupported": kind}


def record_launch(fn, bound_args, grid, kwargs):
    """The record of one launch of JIT function `fn` (its binder's bound arguments, in the
    kernel's parameter order, and the grid as the launch resolved it)."""
    if callable(grid):
        grid = grid(bound_args)
    grid = list(grid) + [1] * (3 - len(grid))
    return {"fn": f"{fn.module}:{fn.fn.__qualname__}", "names": list(bound_args),
            "args": [describe(v) for v in bound_args.values()],
            "grid": [int(g) for g in grid],
            "options": {k: kwargs[k] for k in OPTIONS if k in kwargs}}


def record_compiled_launch(kernel, grid, args):
    """The record of a launch of a compiled kernel (Triton 3.6's CompiledKernel) that did not go
    through JITFunction.run: FlagGems' LibEntry launches `kernel[grid](*args)` once the first
    call of a specialization has compiled it. `args` are the launcher's, every parameter in the
    kernel's order (3.6's launchers take the constexprs too and skip them); a constexpr's value
    is the one the kernel was compiled with (its ASTSource's constants), and where the launcher
    was given the other arguments alone, the constexprs come from there. The options are the
    compiled kernel's num_warps and num_stages (num_ctas, maxnreg where they are not the
    defaults): a launch of this kind has no keyword arguments to read them from."""
    fn, names, values = compiled_launch_values(kernel, args)
    md = kernel.metadata
    options = {"num_warps": md.num_warps, "num_stages": md.num_stages}
    if getattr(md, "num_ctas", 1) != 1:
        options["num_ctas"] = md.num_ctas
    if getattr(md, "maxnreg", None) is not None:
        options["maxnreg"] = md.maxnreg
    grid = list(grid) + [1] * (3 - len(grid))
    if fn is None or getattr(fn, "fn", None) is None:  # no JIT function (or only its shell)
        return {"fn": f"?:{kernel.name}", "names": [], "args": [describe(v) for v in args],
                "grid": [int(g) for g in grid], "options": options}
    return {"fn": f"{fn.module}:{fn.fn.__qualname__}", "names": names,
            "args": [describe(v) for v in values], "grid": [int(g) for g in grid],
            "options": options}


def compiled_launch_values(kernel, args):
    """A compiled kernel's launch arguments as its JIT function's parameters (see
    record_compiled_launch): (the JIT function, its parameter names, every parameter's value),
    or (None, [], args) where the kernel was not compiled from a JIT function."""
    src = kernel.src
    fn = getattr(src, "fn", None)
    if fn is None or not hasattr(fn, "arg_names"):
        return None, [], list(args)
    names = list(fn.arg_names)
    constants = getattr(src, "constants", {})
    constexpr = [src.signature.get(n) == "constexpr" and (i,) in constants
                 for i, n in enumerate(names)]
    values = list(args)
    if len(values) == len(names):
        values = [constants[(i,)] if c else v for i, (c, v) in enumerate(zip(constexpr, values))]
    elif len(values) == constexpr.count(False):
        rest = iter(values)
        values = [constants[(i,)] if c else next(rest) for i, c in enumerate(constexpr)]
    else:
        raise RuntimeError(f"{kernel.name}: launched with {len(values)} arguments, its "
                           f"JIT function has {len(names)} parameters")
    return fn, names, values


def same_specialization(recorded, now):
    """Whether a launch (record_launch) specializes as the recorded one did: the same function,
    options, dtypes, pointer alignments and scalars (a scalar is a specialization key: == 1,
    % 16; comparing values is stricter than needed). The grid may differ."""
    keys = ("fn", "args", "options")
    return all(json.dumps(recorded[k], sort_keys=True) == json.dumps(now[k], sort_keys=True)
               for k in keys)


class StandIn:
    """What Triton's binder reads of a tensor argument: its dtype and its pointer's alignment."""

    def __init__(self, dtype, align):
        self.dtype, self._ptr = dtype, 0x10000 + align

    def data_ptr(self):
        return self._ptr


class Replayer:
    """GPU machine: runs the pack's 3.9 cubins with CuPy in place of 3.6's launches."""

    def __init__(self, pack_dir):
        import cupy
        self.cp, self.dir = cupy, pack_dir
        self.pack = json.load(open(f"{pack_dir}/pack.json"))
        self.functions = {}

    def entry(self, workload, index):
        return self.pack["launches"].get(f"{workload}#{index}")

    def function(self, h, name, shared):
        if h not in self.functions:
            fn = self.cp.RawModule(path=f"{self.dir}/kernels/{h}.cubin").get_function(name)
            if shared > 48 * 1024:
                fn.max_dynamic_shared_size_bytes = shared
            self.functions[h] = fn
        return self.functions[h]

    def launch(self, h, grid, values, stream_handle):
        """Launches 3.9's kernel `h` on this launch's grid and bound argument values. Its
        scratch buffers go back to torch's caching allocator when this returns: their next user
        is ordered after the kernel on the same stream."""
        import torch
        kernel = self.pack["kernels"][h]
        md = kernel["metadata"]
        params = []
        for index, ty in kernel["params"]:
            v = values[index]
            if ty.startswith("*"):
                params.append(np.uint64(v.data_ptr() if v is not None else 0))
            elif ty in SCALARS:
                params.append(SCALARS[ty](v))
            else:
                raise RuntimeError(f"parameter {index} of type {ty} cannot be launched here")
        scratch = []  # alive until the launch is queued
        for what in ("global", "profile"):
            size = md.get(f"{what}_scratch_size", 0)
            if size:
                buf = torch.empty(size * grid[0] * grid[1] * grid[2], dtype=torch.uint8,
                                  device="cuda")
                scratch.append(buf)
                params.append(np.uint64(buf.data_ptr()))
            else:
                params.append(np.uint64(0))
        fn = self.function(h, kernel["name"], md["shared"])
        stream = self.cp.cuda.ExternalStream(stream_handle)
        with stream:
            fn(tuple(grid), (32 * md["num_warps"], 1, 1), tuple(params), shared_mem=md["shared"])


# The scalar parameter types a replayed launch passes (a bf16 scalar is refused: CuPy has no
# bfloat16, and none of the corpus's kernels takes one).
SCALARS = {"i1": np.int8, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
           "u1": np.uint8, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
           "fp16": np.float16, "fp32": np.float32, "f32": np.float32, "fp64": np.float64}
