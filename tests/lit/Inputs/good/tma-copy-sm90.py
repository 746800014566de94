import triton, triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

@triton.jit
def copy_tile(a_ptr, c_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    c = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    x = a.load([0, 0])
    c.store([0, 0], x * 2)

sig = {"a_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32"}
attrs = {(i,): [["tt.divisibility", 16]] for i in range(4)}
src = ASTSource(fn=copy_tile, signature=sig, constexprs={"BM": 64, "BN": 64}, attrs=attrs)
k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
open("/tmp/kt/tma90.ttgir", "w").write(k.asm["ttgir"])
print("ok")
