"""On the GPU machine: launches every case of kernels.py once and checks its output against a
float64 reference; under ncu (run.sh) each launch is one profiled kernel.

    python3 run_gpu.py 3.6 DIR    Triton 3.6 of the machine compiles and runs each case (torch
                                  tensors); its TTGIR, PTX and cubin are saved in DIR
    python3 run_gpu.py 3.9 DIR    launches the cubins compile39.py left in DIR (CuPy)

DIR/launches.json: per launch in order {"id", "grid", "ok", "error"}, written after each."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

NP = {"fp32": np.float32, "fp16": np.float16, "i32": np.int32, "i64": np.int64}


def inputs(case, rng):
    """(x, n_cols, grid, reference) as numpy arrays."""
    dt = NP[case["dtype"]]
    if case["kind"] in ("softmax", "layernorm"):
        rows, cols = case["rows"], case["cols"]
        x = rng.standard_normal((rows, cols)).astype(dt)
        v = x.astype(np.float64)
        if case["kind"] == "softmax":
            e = np.exp(v - v.max(axis=1, keepdims=True))
            ref = e / e.sum(axis=1, keepdims=True)
        else:
            d = v - v.mean(axis=1, keepdims=True)
            ref = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5)
        return x, cols, rows, ref
    shape = case["shape"]
    if case["kind"] == "scan":
        return scan_inputs(case, rng)
    if case["kind"] in ("atomic", "histogram", "gather"):
        return other_inputs(case, rng)
    if dt == np.int32:
        x = rng.integers(-50, 50, size=shape).astype(dt)
    else:
        x = rng.standard_normal(shape).astype(dt)
    v = x.astype(np.float64)
    if case.get("column_major"):
        m, n = shape
        x = np.ascontiguousarray(x.reshape(m, n).T)  # stored N x M
    axis = case["axis"]
    op = case["op"]
    if op == "sum":
        ref = v.sum(axis=axis)
    elif op == "max":
        ref = v.max(axis=axis)
    else:
        ref = v  # argmax: checked by the value it points at
    return x, None, 1, ref


def scan_inputs(case, rng):
    dt = NP[case["dtype"]]
    shape, axis = case["shape"], case["axis"]
    if np.issubdtype(dt, np.integer):
        x = rng.integers(-50, 50, size=shape).astype(dt)
    else:
        x = rng.standard_normal(shape).astype(dt)
    v = x.astype(np.float64)
    if case.get("reverse"):
        v = np.flip(v, axis)
    if case["op"] == "cumsum":
        ref = np.cumsum(v, axis=axis)
    else:  # cummax; argmax is checked by the running max its indices point at
        ref = np.maximum.accumulate(v, axis=axis)
    if case.get("reverse"):
        ref = np.flip(ref, axis)
    return x, None, 1, ref


# The counter's value before the atomic (what every thread receives), per atomic.
ATOMIC_START = {"add": 7, "cas": 0, "max": 5}


def other_inputs(case, rng):
    """Atomics, histograms and gathers. A gather's indices travel with x as (x, idx)."""
    dt = NP[case["dtype"]]
    if case["kind"] == "atomic":
        start = ATOMIC_START[case["op"]]
        return np.array([start], dtype=dt), None, 1, np.full(case["shape"], start)
    if case["kind"] == "histogram":
        x = rng.integers(0, case["bins"], size=case["shape"]).astype(np.int32)
        return x, None, 1, np.bincount(x, minlength=case["bins"])
    (m,) = case["shape"]
    if np.issubdtype(dt, np.integer):
        src = rng.integers(-1000, 1000, size=m).astype(dt)
    else:
        src = rng.standard_normal(m).astype(dt)
    idx = rng.integers(0, m, size=case["rows"]).astype(np.int32)
    return (src, idx), None, 1, src.astype(np.float64)[idx]


def check(case, x, out, ref):
    dt = case["dtype"]
    if case["kind"] == "scan" and case["op"] == "argmax":
        idx = out.astype(np.int64)
        ok_range = bool(np.all((idx >= 0) & (idx <= np.arange(len(idx)))))
        return ok_range and bool(np.all(x.astype(np.float64)[idx] == ref))
    if case["op"] == "argmax":
        v = x.astype(np.float64)
        if case.get("column_major"):
            v = v.T
        idx = out.astype(np.int64)
        picked = np.take_along_axis(v, np.expand_dims(idx, case["axis"]), case["axis"])
        return bool(np.all(picked.squeeze(case["axis"]) == v.max(axis=case["axis"])))
    got = out.astype(np.float64)
    tol = {"fp32": 1e-4, "fp16": 2e-2, "i32": 0, "i64": 0}[dt]
    if case["kind"] in ("softmax", "layernorm"):
        return bool(np.allclose(got, ref, rtol=tol, atol=tol))
    scale = max(1.0, float(np.abs(ref).max()))
    return bool(np.abs(got - ref).max() <= tol * scale)


def out_shape(case):
    if case["kind"] in ("softmax", "layernorm"):
        return (case["rows"], case["cols"])
    if case["kind"] == "row":
        return (1,)
    if case["kind"] == "scan":
        return tuple(case["shape"])
    if case["kind"] == "histogram":
        return (case["bins"],)
    if case["kind"] == "gather":
        return (case["rows"],)
    if case["kind"] == "atomic":
        return tuple(case["shape"])
    m, n = case["shape"]
    return (n,) if case["axis"] == 0 else (m,)


def run36(folder):
    import torch
    import triton
    fns = kernels.load(folder)
    rng = np.random.default_rng(0)
    launches = []
    for case in kernels.CASES:
        rec = {"id": case["id"]}
        try:
            x, cols, grid, ref = inputs(case, rng)
            xs = x if isinstance(x, tuple) else (x,)
            xt = [torch.from_numpy(a).cuda() for a in xs]
            odt = np.int32 if case["op"] == "argmax" else NP[case["dtype"]]
            out = torch.zeros(out_shape(case), dtype=getattr(torch, np.dtype(odt).name)).cuda()
            fn = fns[case["id"]]
            args = xt + [out] + ([cols] if cols is not None else [])
            if case["kind"] == "layernorm":
                args.append(1e-5)
            k = fn[(grid,)](*args, **case["constexprs"], num_warps=case["warps"])
            torch.cuda.synchronize()
            rec.update(grid=grid, ok=check(case, x, out.cpu().numpy(), ref))
            for ext in ("ttgir", "ptx"):
                with open(os.path.join(folder, f"{case['id']}.{ext}"), "w") as f:
                    f.write(k.asm[ext])
            with open(os.path.join(folder, f"{case['id']}.cubin"), "wb") as f:
                f.write(k.asm["cubin"])
        except Exception as e:  # noqa: BLE001 - recorded, the other cases go on
            rec["error"] = f"{type(e).__name__}: {e}"[:300]
        launches.append(rec)
        with open(os.path.join(folder, "launches.json"), "w") as f:
            json.dump({"triton": triton.__version__, "launches": launches}, f, indent=1)
        print(rec, flush=True)


def run39(folder):
    import cupy as cp
    meta = json.load(open(os.path.join(folder, "cases.json")))
    by_id = {c["id"]: c for c in kernels.CASES}
    rng = np.random.default_rng(0)
    launches = []
    for m in meta["cases"]:
        case = by_id[m["id"]]
        rec = {"id": m["id"]}
        try:
            x, cols, grid, ref = inputs(case, rng)
            fn = cp.RawModule(path=os.path.join(folder, m["id"] + ".cubin")).get_function(
                m["kernel"])
            if m["shared"] > 48 * 1024:
                fn.max_dynamic_shared_size_bytes = m["shared"]
            xd = [cp.asarray(a) for a in (x if isinstance(x, tuple) else (x,))]
            odt = np.int32 if case["op"] == "argmax" else NP[case["dtype"]]
            out = cp.zeros(out_shape(case), dtype=odt)
            args = xd + [out]
            if cols is not None:
                args.append(np.int32(cols))
            if case["kind"] == "layernorm":
                args.append(np.float32(1e-5))
            args += [np.uint64(0)] * (m["params"] - len(args))
            fn((grid, 1, 1), (m["threads"], 1, 1), tuple(args), shared_mem=m["shared"])
            cp.cuda.Device().synchronize()
            rec.update(grid=grid, ok=check(case, x, cp.asnumpy(out), ref))
        except Exception as e:  # noqa: BLE001
            rec["error"] = f"{type(e).__name__}: {e}"[:300]
        launches.append(rec)
        with open(os.path.join(folder, "launches.json"), "w") as f:
            json.dump({"triton": meta["triton"], "launches": launches}, f, indent=1)
        print(rec, flush=True)


if __name__ == "__main__":
    os.makedirs(sys.argv[2], exist_ok=True)
    (run36 if sys.argv[1] == "3.6" else run39)(sys.argv[2])
