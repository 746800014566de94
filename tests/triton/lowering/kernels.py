"""The Gluon kernels of the lowering probe and how a case becomes one (Triton 3.6 and 3.9).

A case is plain JSON (see generate.py): an op kind, a shape, a dtype, num_warps, a target and
layouts as {"encoding": name, "args": {...}} specs. Three kinds, each with exactly one
shared-memory op on each side, so the PTX's shared-memory instructions can be attributed:

- "local":   registers in A -> gl.allocate_shared_memory(dtype, shape, S, x) (ttg.local_alloc,
             the store) -> .load(B) (ttg.local_load, the load);
- "convert": registers in A -> gl.convert_layout(x, B) (ttg.convert_layout through Triton's own
             scratch layout, when Triton needs shared memory);
- "async":   pointers in A -> async copy (cp.async, ttg.async_copy_global_to_local) into S ->
             commit, wait -> .load(B).

Every kernel ends with a "live" store: each thread writes each of its registers to its own slot
of a [threads, M*N] buffer with an inline-asm st.global that Triton does not mask. A plain
gl.store would mask the lanes and warps that hold copies of other threads' data, ptxas would
then drop their last shared loads and exit them early (the "fewer instructions executed" of
reports/triton-3.6.x), and the GPU counters would no longer measure the lowering itself.
The cases of data/cases-exit.json (`"store": "masked"`, exit_cases.py) end with that plain
gl.store on purpose: they measure the early exit itself, which `llcheck report` predicts from
the kernel's SASS.
"""
import dataclasses

import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy as _ac

# 3.6 spells it async_copy_global_to_shared; 3.9 renamed it async_load (the old name raises).
_async_copy = getattr(_ac, "async_load", None) or _ac.async_copy_global_to_shared
# 3.6 spells the CTA barrier thread_barrier; 3.9 barrier.
_barrier = getattr(gl, "barrier", None) or gl.thread_barrier

BITS = {"int8": 8, "float16": 16, "float32": 32, "int64": 64}
PTR = {"int8": "*i8", "float16": "*fp16", "float32": "*fp32", "int64": "*i64"}
# The live buffer holds 32-bit slots (64-bit for 64-bit elements).
OUT_PTR = {8: "*i32", 16: "*i32", 32: "*i32", 64: "*i64"}

CLASSES = {
    "blocked": gl.BlockedLayout,
    "slice": gl.SliceLayout,
    "nvidia_mma": gl.NVMMADistributedLayout,
    "dot_op": gl.DotOperandLayout,
    "linear": gl.DistributedLinearLayout,
    "swizzled_shared": gl.SwizzledSharedLayout,
    "nvmma_shared": gl.NVMMASharedLayout,
    "padded_shared": gl.PaddedSharedLayout,
    "shared_linear": gl.SharedLinearLayout,
}


def gluon_layout(spec):
    """{"encoding", "args"} -> the Gluon layout object. Fields this Triton lacks are dropped
    when they hold their empty default (3.6's PaddedSharedLayout has block_bases where 3.9 has
    cga_layout); any other unknown field is an error."""
    cls = CLASSES[spec["encoding"]]
    fields = {f.name for f in dataclasses.fields(cls)}
    kwargs = {}
    for k, v in spec["args"].items():
        if isinstance(v, dict) and "encoding" in v:
            v = gluon_layout(v)
        if k not in fields:
            if v in ([], None):
                continue
            raise TypeError(f"this Triton's Gluon {cls.__name__} has no field '{k}'")
        kwargs[k] = v
    for f in ("block_bases", "cga_layout"):
        if f in fields and f not in kwargs and cls in (gl.PaddedSharedLayout,):
            kwargs[f] = []
    return cls(**kwargs)


@gluon.jit
def _offsets(M: gl.constexpr, N: gl.constexpr, L: gl.constexpr):
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, L))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, L))
    return rows[:, None] * N + cols[None, :]


@gluon.jit
def _live_store(out_ptr, y, M: gl.constexpr, N: gl.constexpr, B: gl.constexpr,
                BITS: gl.constexpr):
    offs = _offsets(M, N, B)
    tid = gl.inline_asm_elementwise("mov.u32 $0, %tid.x;", "=r,r", [offs], dtype=gl.int32,
                                    is_pure=True, pack=1)
    ptrs = out_ptr + tid * (M * N) + offs
    if BITS == 64:
        v = y.to(gl.int64, bitcast=True)
        gl.inline_asm_elementwise("st.global.b64 [$1], $2; mov.u32 $0, 0;", "=r,l,l", [ptrs, v],
                                  dtype=gl.int32, is_pure=False, pack=1)
    else:
        if BITS == 32:
            v = y.to(gl.int32, bitcast=True)
        elif BITS == 16:
            v = y.to(gl.int16, bitcast=True).to(gl.int32)
        else:
            v = y.to(gl.int32)
        gl.inline_asm_elementwise("st.global.b32 [$1], $2; mov.u32 $0, 0;", "=r,l,r", [ptrs, v],
                                  dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def _settle(y, BITS: gl.constexpr):
    """Waits, in every thread, until y's registers hold their values (an inline asm with a
    side effect reads them all), then at a CTA barrier: no warp starts the next phase's global
    traffic while another still has shared-memory accesses of this one in flight."""
    if BITS == 64:
        v = y.to(gl.int64, bitcast=True)
        gl.inline_asm_elementwise("mov.b64 $0, $1;", "=l,l", [v], dtype=gl.int64,
                                  is_pure=False, pack=1)
    else:
        if BITS == 32:
            v = y.to(gl.int32, bitcast=True)
        elif BITS == 16:
            v = y.to(gl.int16, bitcast=True).to(gl.int32)
        else:
            v = y.to(gl.int32)
        gl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [v], dtype=gl.int32,
                                  is_pure=False, pack=1)
    _barrier()


@gluon.jit
def local_kernel(src_ptr, out_ptr, M: gl.constexpr, N: gl.constexpr, A: gl.constexpr,
                 S: gl.constexpr, B: gl.constexpr, BITS: gl.constexpr,
                 ISOLATE: gl.constexpr = False, MASKED: gl.constexpr = False):
    x = gl.load(src_ptr + _offsets(M, N, A))
    if ISOLATE:
        _settle(x, BITS)
    smem = gl.allocate_shared_memory(src_ptr.dtype.element_ty, [M, N], S, x)
    y = smem.load(B)
    if ISOLATE:
        _settle(y, BITS)
    if MASKED:
        # Triton's own store: the lanes and warps that hold copies are masked off.
        gl.store(out_ptr + _offsets(M, N, B), y)
    else:
        _live_store(out_ptr, y, M, N, B, BITS)


@gluon.jit
def convert_kernel(src_ptr, out_ptr, M: gl.constexpr, N: gl.constexpr, A: gl.constexpr,
                   S: gl.constexpr, B: gl.constexpr, BITS: gl.constexpr,
                   ISOLATE: gl.constexpr = False, MASKED: gl.constexpr = False):
    x = gl.load(src_ptr + _offsets(M, N, A))
    if ISOLATE:
        _settle(x, BITS)
    y = gl.convert_layout(x, B)
    if ISOLATE:
        _settle(y, BITS)
    if MASKED:
        # Triton's own store: the lanes and warps that hold copies are masked off.
        gl.store(out_ptr + _offsets(M, N, B), y)
    else:
        _live_store(out_ptr, y, M, N, B, BITS)


@gluon.jit
def async_kernel(src_ptr, out_ptr, M: gl.constexpr, N: gl.constexpr, A: gl.constexpr,
                 S: gl.constexpr, B: gl.constexpr, BITS: gl.constexpr):
    smem = gl.allocate_shared_memory(src_ptr.dtype.element_ty, [M, N], S)
    _async_copy(smem, src_ptr + _offsets(M, N, A))
    _ac.commit_group()
    _ac.wait_group(0)
    y = smem.load(B)
    _live_store(out_ptr, y, M, N, B, BITS)


KERNELS = {"local": local_kernel, "convert": convert_kernel, "async": async_kernel}


def constexprs(case):
    M, N = case["shape"]
    shared = case.get("shared")
    c = {"M": M, "N": N, "A": gluon_layout(case["src"]),
         "S": gluon_layout(shared) if shared else None, "B": gluon_layout(case["dst"]),
         "BITS": BITS[case["dtype"]]}
    if case["kind"] != "async":
        # Given always: Triton 3.9 takes a constexpr left at its default for a runtime argument.
        c.update(ISOLATE=bool(case.get("isolate")), MASKED=masked(case))
    return c


def masked(case):
    """A case of cases-exit.json: the kernel ends with Triton's own (masked) store."""
    return case.get("store") == "masked"


def compile_case(case):
    """Compiles without a GPU for the case's target (sm80 or sm90)."""
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    fn = KERNELS[case["kind"]]
    out_ty = PTR[case["dtype"]] if masked(case) else OUT_PTR[BITS[case["dtype"]]]
    sig = {"src_ptr": PTR[case["dtype"]], "out_ptr": out_ty}
    for k in constexprs(case):
        sig[k] = "constexpr"
    # Both pointers 16-byte aligned, as a launch with torch tensors specialises them.
    attrs = {(0, ): [["tt.divisibility", 16]], (1, ): [["tt.divisibility", 16]]}
    src = GluonASTSource(fn=fn, signature=sig, constexprs=constexprs(case), attrs=attrs)
    cc = int(case["arch"][2:])
    return triton.compile(src, target=GPUTarget("cuda", cc, 32),
                          options={"num_warps": case["num_warps"]})
