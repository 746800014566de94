"""Three kernels like Triton's tutorials (a matmul, a softmax, a layer norm), compiled for an
explicit target so that no GPU is needed: what python/tests/test_triton.py reports on, in its
own process and in the programs it runs (`python tutorial_kernels.py [NAME...]`)."""
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, acc.to(tl.float16), mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * in_row_stride + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * out_row_stride + offs, num / tl.sum(num, axis=0), mask=mask)


@triton.jit
def layer_norm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    diff = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(diff * diff, axis=0) / N + eps)
    w = tl.load(w_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(y_ptr + row * stride + offs, (diff * rstd * w + b).to(tl.float16), mask=mask)


# (kernel, signature, constexprs, pointer arguments the JIT would mark 16-byte aligned, warps)
KERNELS = {
    "matmul": (matmul_kernel,
               {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
                "K": "i32", "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32",
                "stride_bn": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr",
                "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"},
               {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 128,
                "BLOCK_K": 32},
               ("a_ptr", "b_ptr", "c_ptr"), 4),
    "softmax": (softmax_kernel,
                {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32",
                 "out_row_stride": "i32", "n_cols": "i32", "BLOCK": "constexpr"},
                {"BLOCK": 1024}, ("out_ptr", "in_ptr"), 4),
    "layer_norm": (layer_norm_kernel,
                   {"x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp32", "b_ptr": "*fp32",
                    "stride": "i32", "N": "i32", "eps": "fp32", "BLOCK": "constexpr"},
                   {"BLOCK": 512}, ("x_ptr", "y_ptr", "w_ptr", "b_ptr"), 4),
}

# What a program compiled for: an H100/H200 (sm90).
TARGET = GPUTarget("cuda", 90, 32)


def compile_kernel(name, target=TARGET):
    fn, signature, constexprs, aligned, warps = KERNELS[name]
    names = list(signature)
    attrs = {(names.index(a),): [["tt.divisibility", 16]] for a in aligned}
    src = ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs)
    return triton.compile(src, target=target, options={"num_warps": warps})


if __name__ == "__main__":
    for name in sys.argv[1:] or KERNELS:
        compile_kernel(name)
