"""On the GPU machine: the Triton kernels PyTorch Inductor generates for a few small models'
reductions (softmax, layer norm, RMS norm, log-softmax, cross entropy, var_mean, sums and
arg-maxes along either dim; fp32, fp16, bf16), compiled by the machine's torch.compile (Triton
3.6) and each result checked against the eager model (PyTorch's own kernels, same dtype;
fp32 within 1e-4, half precision within 3e-2). Triton's cache
(TRITON_CACHE_DIR) keeps every kernel's TTGIR and cubin; run.sh runs this twice (the second
time under Nsight Compute, from warm caches) and analyze.py matches each profiled launch to its
cubin by its SASS.

    python3 inductor.py OUT_JSON"""
import json
import sys

import torch

torch.manual_seed(0)


def rms_norm(x, w):
    return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6).to(x.dtype) * w


def cases():
    for dt in (torch.float32, torch.bfloat16):
        for rows, cols in ((8, 4096), (256, 1000)):
            x = torch.randn(rows, cols, device="cuda", dtype=dt)
            w = torch.randn(cols, device="cuda", dtype=dt)
            ln = torch.nn.LayerNorm(cols, device="cuda", dtype=dt)
            yield f"softmax-{rows}x{cols}-{dt}", lambda x=x: torch.softmax(x, -1), x
            yield f"log_softmax-{rows}x{cols}-{dt}", lambda x=x: torch.log_softmax(x, -1), x
            yield f"layernorm-{rows}x{cols}-{dt}", lambda x=x, ln=ln: ln(x), x
            yield f"rmsnorm-{rows}x{cols}-{dt}", lambda x=x, w=w: rms_norm(x, w), x
    for rows, cols in ((4, 32000), (512, 768)):
        x = torch.randn(rows, cols, device="cuda")
        t = torch.randint(0, cols, (rows,), device="cuda")
        yield f"cross_entropy-{rows}x{cols}", lambda x=x, t=t: torch.nn.functional.cross_entropy(
            x, t), x
        yield f"var_mean-{rows}x{cols}", lambda x=x: torch.var_mean(x, -1), x
        yield f"sum_rows-{rows}x{cols}", lambda x=x: x.sum(-1), x
        yield f"sum_cols-{rows}x{cols}", lambda x=x: x.sum(0), x
        yield f"amax_cols-{rows}x{cols}", lambda x=x: x.amax(0), x
        yield f"argmax_rows-{rows}x{cols}", lambda x=x: x.argmax(-1), x


def close(a, b, dtype):
    if isinstance(a, (tuple, list)):
        return all(close(p, q, dtype) for p, q in zip(a, b))
    if not a.is_floating_point():
        return bool(torch.equal(a, b))
    tol = 1e-4 if dtype == torch.float32 else 3e-2
    return bool(torch.allclose(a.double(), b.double(), rtol=tol, atol=tol))


def main():
    results = []
    for name, fn, x in cases():
        rec = {"id": name}
        try:
            compiled = torch.compile(fn, dynamic=False)
            got = compiled()
            torch.cuda.synchronize()
            with torch.no_grad():
                ref = fn()
            rec["ok"] = close(got, ref, x.dtype)
        except Exception as e:  # noqa: BLE001 - recorded, the other cases go on
            rec["error"] = f"{type(e).__name__}: {e}"[:300]
        results.append(rec)
        print(rec, flush=True)
    with open(sys.argv[1], "w") as f:
        json.dump({"torch": torch.__version__, "cases": results}, f, indent=1)


if __name__ == "__main__":
    main()
