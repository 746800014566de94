# On the GPU machine: the tutorial matmul (Triton's 03, as in tests/triton/test_axis_info.py),
# fp16, BM = BN = 128, BK = 32, 4 warps, 3 stages, for K = 32, 64, 128, 1024; data checked
# against torch; the TTGIR of each saved under OUT for llcheck report.
import os, sys, json
import torch, triton, triton.language as tl

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)

out = os.environ.get("OUT", "/tmp/out")
M = N = 256
meta = {"triton": triton.__version__, "torch": torch.__version__,
        "gpu": torch.cuda.get_device_name(0), "runs": []}
for K in [int(x) for x in os.environ.get("KS", "32,64,128,1024").split(",")]:
    torch.manual_seed(K)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
    k = matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), BM=128, BN=128, BK=32, GROUP_M=8,
                            num_warps=4, num_stages=3)
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    err = ((c.double() - ref).norm() / ref.norm()).item()
    ok = err < 1e-2 and not torch.isnan(c).any().item()
    with open(os.path.join(out, f"matmul-K{K}.ttgir"), "w") as f:
        f.write(k.asm["ttgir"])
    meta["runs"].append({"K": K, "rel_err": err, "ok": ok, "grid": grid[0]})
    print(f"K={K} rel_err={err:.2e} ok={ok}", flush=True)
with open(os.path.join(out, "meta.json"), "w") as f:
    json.dump(meta, f)
