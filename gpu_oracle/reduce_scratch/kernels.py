"""The reductions, scans, atomics, histograms and gathers of the reduce-scratch experiment: each case is its own @triton.jit function
(its own kernel name, so Nsight Compute's per-kernel source pages tell them apart), written into
a module file and imported from there (Triton reads a kernel's source from its file).

Cases are Triton's own idioms: tl.sum / tl.max / tl.argmax of a loaded tile along either axis,
a whole row to a scalar, and the reductions of Triton's softmax (tutorial 02) and layer norm
(tutorial 05) forward kernels, over fp32, fp16 and int32, 1 to 16 warps; and scans across
warps: tl.cumsum (forward and reverse) and a running max (tl.associative_scan) of rows and
tiles along either axis, over fp32, fp16, int32 and int64, 2 to 16 warps, and a two-operand
scan (a running argmax: value and index); atomics whose scalar result every thread reads,
histograms of 16 to 256 bins and gathers of rows across warps."""
import importlib.util
import os

TILE = '''
@triton.jit
def {name}(x, out, M: tl.constexpr, N: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    t = tl.load(x + offs_m[:, None] * N + offs_n[None, :])
    r = {op}(t, axis={axis})
    tl.store(out + {offs}, r)
'''
COLUMN_MAJOR = '''
@triton.jit
def {name}(x, out, M: tl.constexpr, N: tl.constexpr):
    # x is N x M row-major: the tile is read column by column (Triton lays it out order [0, 1])
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    t = tl.load(x + offs_m[:, None] + offs_n[None, :] * M)
    r = {op}(t, axis={axis})
    tl.store(out + {offs}, r)
'''
ROW = '''
@triton.jit
def {name}(x, out, N: tl.constexpr):
    tl.store(out, {op}(tl.load(x + tl.arange(0, N)), axis=0))
'''
SOFTMAX = '''
@triton.jit
def {name}(x, out, n_cols, BLOCK: tl.constexpr):
    # Triton's tutorial 02, one row per program.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    v = tl.load(x + row * n_cols + offs, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    num = tl.exp(v)
    tl.store(out + row * n_cols + offs, num / tl.sum(num, axis=0), mask=mask)
'''
LAYERNORM = '''
@triton.jit
def {name}(x, out, n_cols, eps, BLOCK: tl.constexpr):
    # Triton's tutorial 05 forward, one row per program, the row in one block.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    v = tl.load(x + row * n_cols + offs, mask=mask, other=0.).to(tl.float32)
    mean = tl.sum(v, axis=0) / n_cols
    d = tl.where(mask, v - mean, 0.)
    rstd = 1 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    tl.store(out + row * n_cols + offs, d * rstd, mask=mask)
'''

SCAN_ROW = '''
@triton.jit
def _max_{name}(a, b):
    return tl.maximum(a, b)


@triton.jit
def {name}(x, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    v = tl.load(x + offs)
    tl.store(out + offs, {scan})
'''
SCAN_TILE = '''
@triton.jit
def _max_{name}(a, b):
    return tl.maximum(a, b)


@triton.jit
def {name}(x, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    v = tl.load(x + offs)
    tl.store(out + offs, {scan})
'''
SCAN_ARGMAX = '''
@triton.jit
def _pick_{name}(a, ai, b, bi):
    keep = a >= b
    return tl.where(keep, a, b), tl.where(keep, ai, bi)


@triton.jit
def {name}(x, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    v, i = tl.associative_scan((tl.load(x + offs), offs), 0, _pick_{name})
    tl.store(out + offs, i)
'''

ATOMIC = '''
@triton.jit
def {name}(x, out, N: tl.constexpr):
    # One atomic whose old value every thread stores: its broadcast goes through shared memory.
    old = {atomic}
    tl.store(out + tl.arange(0, N), tl.full([N], 0, {ty}) + old)
'''
HISTOGRAM = '''
@triton.jit
def {name}(x, out, N: tl.constexpr, B: tl.constexpr):
    tl.store(out + tl.arange(0, B), tl.histogram(tl.load(x + tl.arange(0, N)), B))
'''
GATHER = '''
@triton.jit
def {name}(x, idx, out, M: tl.constexpr, K: tl.constexpr):
    # out[i] = x[idx[i]]: a gather of an M-element source by K indices, across warps.
    src = tl.load(x + tl.arange(0, M))
    i = tl.load(idx + tl.arange(0, K))
    g = tl.gather(src, i, 0)
    tl.store(out + tl.arange(0, K), g)
'''


def _atomic(op, n, warps, dtype):
    ty = {"i32": "tl.int32", "fp32": "tl.float32"}[dtype]
    atomic = {"add": "tl.atomic_add(x, 1)", "cas": "tl.atomic_cas(x, 0, 1)",
              "max": "tl.atomic_max(x, 3)"}[op]
    return {"id": f"atomic_{op}_{n}_w{warps}_{dtype}", "template": ATOMIC,
            "fmt": {"atomic": atomic, "ty": ty}, "constexprs": {"N": n}, "warps": warps,
            "dtype": dtype, "kind": "atomic", "shape": [n], "axis": 0, "op": op}


def _histogram(n, bins, warps):
    return {"id": f"histogram_{n}_b{bins}_w{warps}_i32", "template": HISTOGRAM, "fmt": {},
            "constexprs": {"N": n, "B": bins}, "warps": warps, "dtype": "i32",
            "kind": "histogram", "shape": [n], "axis": 0, "op": "histogram", "bins": bins}


def _gather(m, k, warps, dtype):
    return {"id": f"gather_{m}_k{k}_w{warps}_{dtype}", "template": GATHER, "fmt": {},
            "constexprs": {"M": m, "K": k}, "warps": warps, "dtype": dtype,
            "kind": "gather", "shape": [m], "axis": 0, "op": "gather", "rows": k}


def _scan(op, axis, shape, warps, dtype, reverse=False):
    dims = "x".join(map(str, shape))
    name = f"scan_{op}_a{axis}_{dims}_w{warps}_{dtype}" + ("_rev" if reverse else "")
    scan = (f"tl.cumsum(v, {axis}, reverse={reverse})" if op == "cumsum" else
            f"tl.associative_scan(v, {axis}, _max_{name}, reverse={reverse})")
    case = {"id": name, "template": SCAN_ROW if len(shape) == 1 else SCAN_TILE,
            "fmt": {"scan": scan}, "warps": warps, "dtype": dtype, "kind": "scan",
            "shape": list(shape), "axis": axis, "op": op, "reverse": reverse}
    if op == "argmax":
        case["template"] = SCAN_ARGMAX
    case["constexprs"] = ({"N": shape[0]} if len(shape) == 1 else
                          {"M": shape[0], "N": shape[1]})
    return case


def _tile(kind, op, axis, m, n, warps, dtype, template=TILE):
    offs = "offs_n" if axis == 0 else "offs_m"
    name = f"{kind}_{op.split('.')[-1]}_a{axis}_{m}x{n}_w{warps}_{dtype}"
    return {"id": name, "template": template, "fmt": {"op": op, "axis": axis, "offs": offs},
            "constexprs": {"M": m, "N": n}, "warps": warps, "dtype": dtype, "kind": "tile",
            "shape": [m, n], "axis": axis, "op": op.split(".")[-1],
            "column_major": template is COLUMN_MAJOR}


CASES = [
    _tile("tile", "tl.sum", 0, 64, 64, 4, "fp32"),
    _tile("tile", "tl.max", 1, 8, 1024, 4, "fp32"),
    _tile("tile", "tl.sum", 0, 1024, 8, 8, "fp32"),
    _tile("tile", "tl.sum", 0, 256, 64, 8, "fp16"),
    _tile("tile", "tl.max", 1, 16, 512, 8, "fp16"),
    _tile("tile", "tl.max", 1, 32, 256, 4, "fp32"),
    _tile("tile", "tl.sum", 0, 128, 128, 8, "fp32"),
    _tile("tile", "tl.sum", 0, 64, 32, 16, "fp32"),
    _tile("tile", "tl.sum", 1, 4, 4096, 16, "fp32"),
    _tile("tile", "tl.max", 0, 512, 16, 4, "i32"),
    _tile("tile", "tl.sum", 1, 64, 128, 8, "i32"),
    _tile("tile", "tl.sum", 0, 32, 32, 2, "fp16"),
    _tile("tile", "tl.max", 1, 2, 2048, 8, "fp16"),
    _tile("tile", "tl.argmax", 1, 4, 2048, 8, "fp32"),
    _tile("tile", "tl.argmax", 0, 256, 32, 4, "fp16"),
    _tile("colmajor", "tl.sum", 0, 256, 32, 4, "fp32", COLUMN_MAJOR),
    _tile("colmajor", "tl.max", 1, 64, 64, 8, "fp32", COLUMN_MAJOR),
    _tile("colmajor", "tl.sum", 0, 512, 8, 8, "fp16", COLUMN_MAJOR),
] + [
    {"id": f"row_{op}_{n}_w{w}_{dt}", "template": ROW, "fmt": {"op": f"tl.{op}"},
     "constexprs": {"N": n}, "warps": w, "dtype": dt, "kind": "row", "shape": [n], "axis": 0,
     "op": op}
    for op, n, w, dt in [("sum", 1024, 4, "fp32"), ("sum", 4096, 8, "fp16"),
                         ("max", 256, 2, "fp32"), ("sum", 8192, 16, "i32")]
] + [
    {"id": f"softmax_{n}_w{w}_{dt}", "template": SOFTMAX, "fmt": {}, "constexprs": {"BLOCK": n},
     "warps": w, "dtype": dt, "kind": "softmax", "shape": [n], "axis": 0, "op": "softmax",
     "cols": n - n // 8, "rows": 4}
    for n, w, dt in [(1024, 4, "fp32"), (2048, 8, "fp16"), (4096, 16, "fp32"), (512, 2, "fp16")]
] + [
    {"id": f"layernorm_{n}_w{w}_{dt}", "template": LAYERNORM, "fmt": {},
     "constexprs": {"BLOCK": n}, "warps": w, "dtype": dt, "kind": "layernorm", "shape": [n],
     "axis": 0, "op": "layernorm", "cols": n - n // 4, "rows": 4}
    for n, w, dt in [(1024, 4, "fp16"), (4096, 8, "fp32"), (2048, 16, "fp16")]
] + [
    _scan("cumsum", 0, [1024], 4, "fp32"),
    _scan("cumsum", 0, [4096], 4, "fp32"),
    _scan("cumsum", 0, [1024], 2, "fp32"),
    _scan("cumsum", 0, [256], 8, "i32"),
    _scan("cumsum", 0, [512], 16, "fp32"),
    _scan("cumsum", 0, [1024], 4, "fp32", reverse=True),
    _scan("cumsum", 0, [1024], 4, "i64"),
    _scan("cummax", 0, [2048], 8, "fp16"),
    _scan("cummax", 0, [128], 4, "fp16"),
    _scan("cummax", 0, [2048], 2, "fp16", reverse=True),
    _scan("cumsum", 1, [16, 256], 4, "fp32"),
    _scan("cumsum", 0, [256, 16], 8, "fp32"),
    _scan("cumsum", 0, [64, 64], 4, "i32"),
    _scan("cumsum", 1, [4, 1024], 8, "fp32"),
    _scan("cumsum", 1, [2, 512], 8, "fp32"),
    _scan("cumsum", 0, [32, 32], 2, "fp32"),
    _scan("cummax", 0, [128, 32], 4, "fp16"),
    _scan("cumsum", 0, [64, 64], 4, "fp32", reverse=True),
    _scan("argmax", 0, [512], 4, "fp32"),
] + [
    _atomic("add", 128, 4, "i32"),
    _atomic("cas", 512, 8, "i32"),
    _atomic("add", 256, 2, "fp32"),
    _atomic("max", 1024, 16, "i32"),
    _histogram(1024, 64, 4),
    _histogram(1024, 256, 4),
    _histogram(512, 32, 8),
    _histogram(4096, 128, 8),
    _histogram(256, 16, 2),
    _gather(1024, 1024, 4, "fp32"),
    _gather(256, 512, 4, "fp32"),
    _gather(2048, 1024, 8, "fp16"),
    _gather(512, 512, 2, "i32"),
]


def signature(case):
    ptr = "*" + case["dtype"]
    if case["kind"] == "gather":
        return {"x": ptr, "idx": "*i32", "out": ptr, "M": "constexpr", "K": "constexpr"}
    out = "*i32" if case["op"] == "argmax" else ptr
    if case["kind"] == "softmax":
        return {"x": ptr, "out": ptr, "n_cols": "i32", "BLOCK": "constexpr"}
    if case["kind"] == "layernorm":
        return {"x": ptr, "out": ptr, "n_cols": "i32", "eps": "fp32", "BLOCK": "constexpr"}
    sig = {"x": ptr, "out": out}
    sig.update({k: "constexpr" for k in case["constexprs"]})
    return sig


def load(folder):
    """Writes every case's function into FOLDER/reduce_cases.py and imports it: {id: kernel}."""
    src = "import triton\nimport triton.language as tl\n" + "".join(
        c["template"].format(name=c["id"], **c["fmt"]) for c in CASES)
    path = os.path.join(folder, "reduce_cases.py")
    with open(path, "w") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location("reduce_cases", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {c["id"]: getattr(mod, c["id"]) for c in CASES}
