"""The real kernels of issue 32's corpus: operators people run, not written by us.

- `liger`: Liger-Kernel's operators (its `transformers.functional` API), forward and backward;
  each result and input gradient checked against the same math in eager PyTorch in float64.
- `flaggems`: FlagGems' operators, called as the ATen ops they replace (`flag_gems.use_gems()`)
  and checked against eager PyTorch (float64 where the op takes it).
- `fla`: flash-linear-attention's kernels (the `fla-core` package): its chunked linear
  attentions (simple GLA, GLA, delta rule, gated delta rule, retention, linear attention), its
  parallel softmax attention and HGRN, and its norm, rotary and activation modules, forward and
  backward; each checked against fla's own eager-PyTorch reference (`naive_*`, `*_ref`) or the
  same math in eager PyTorch, on float64 inputs.
- `inductor`: the kernels PyTorch Inductor generates (`torch.compile`) for small models people
  train: an MLP block, a LLaMA-style decoder block (RMS norm, causal attention written out,
  SwiGLU), a small CNN (convolutions, batch norm in training mode, pooling), a cross-entropy
  loss over a vocabulary, row and column reductions with a cumulative sum, and an embedding
  bag; inference and training (forward and backward), fp32, fp16 and bf16, in the default mode
  and in max-autotune with Triton's matmul and convolution templates (`inductor_workloads`);
  each result and gradient checked against the same function run eagerly on float64 inputs.
- `tutorial`: Triton's tutorial matmul (03; the kernel of gpu_oracle/ldgsts_rule/matmul/run.py)
  over configurations of its autotune space: tile sizes, 4 and 8 warps, 1 to 4 stages, fp16,
  bf16, fp32 and fp8, shapes that are and are not tile multiples, K loops of 1 to 32 trips.

Each workload is (id, make): `make()` builds the inputs (outside the measured range) and returns
(run, reference, tolerance); `run()` launches the real kernels and returns the tensors to check,
`reference()` the same from eager PyTorch. run_gpu.py calls `run` once to compile and autotune,
then once inside the NVTX range Nsight Compute profiles, and checks that result."""
import math

import torch
import torch.nn.functional as F

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
# Relative error (||got - ref|| / ||ref||) allowed per dtype the kernel computes in.
TOL = {torch.float32: 1e-4, torch.float16: 4e-3, torch.bfloat16: 2e-2}


def rand(*shape, dtype=torch.float32, grad=False):
    t = torch.randn(*shape, device="cuda", dtype=dtype)
    return t.requires_grad_(grad)


def fwd_bwd(fn, ref_fn, inputs, upstream_like=0):
    """run: fn(*inputs) and the gradients of every input that requires one (for a random
    upstream gradient); reference: ref_fn on float64 copies, the same gradients."""
    out0 = ref_fn(*[x.detach() for x in inputs])
    out0 = out0[0] if isinstance(out0, tuple) else out0
    dy = torch.randn_like(out0)

    def go(f, xs):
        y = f(*xs)
        y = y[0] if isinstance(y, tuple) else y
        wants = [x for x in xs if isinstance(x, torch.Tensor) and x.requires_grad]
        if not wants:
            return [y]
        grads = torch.autograd.grad(y, wants, dy.to(y.dtype) if y.dim() else None)
        return [y] + list(grads)

    def run():
        xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
        return go(fn, xs)

    def reference():
        xs = [x.detach().double().requires_grad_(x.requires_grad) for x in inputs]
        return go(ref_fn, xs)

    return run, reference


# ---------------------------------------------------------------- Liger-Kernel
def ref_rms_norm(x, w, eps=1e-6):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


def liger_workloads():
    from liger_kernel.transformers import functional as LF
    for dname in ("fp32", "bf16"):
        dt = DTYPES[dname]
        for rows, hidden in ((64, 1024), (200, 4096), (37, 2048)):
            s = f"{rows}x{hidden}-{dname}"

            def rms(dt=dt, rows=rows, hidden=hidden):
                x, w = rand(rows, hidden, dtype=dt, grad=True), rand(hidden, dtype=dt, grad=True)
                return fwd_bwd(lambda x, w: LF.liger_rms_norm(x, w, 1e-6, in_place=False),
                               ref_rms_norm, [x, w]) + (TOL[dt],)
            yield f"liger-rms_norm-{s}", rms

            def ln(dt=dt, rows=rows, hidden=hidden):
                xs = [rand(rows, hidden, dtype=dt, grad=True), rand(hidden, dtype=dt, grad=True),
                      rand(hidden, dtype=dt, grad=True)]
                return fwd_bwd(lambda x, w, b: LF.liger_layer_norm(x, w, b, 1e-6),
                               lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, 1e-6),
                               xs) + (TOL[dt],)
            yield f"liger-layer_norm-{s}", ln

            def swiglu(dt=dt, rows=rows, hidden=hidden):
                xs = [rand(rows, hidden, dtype=dt, grad=True), rand(rows, hidden, dtype=dt, grad=True)]
                return fwd_bwd(LF.liger_swiglu, lambda a, b: F.silu(a) * b, xs) + (TOL[dt],)
            yield f"liger-swiglu-{s}", swiglu

            def geglu(dt=dt, rows=rows, hidden=hidden):
                xs = [rand(rows, hidden, dtype=dt, grad=True), rand(rows, hidden, dtype=dt, grad=True)]
                return fwd_bwd(LF.liger_geglu, lambda a, b: F.gelu(a, approximate="tanh") * b,
                               xs) + (TOL[dt],)
            yield f"liger-geglu-{s}", geglu

            def fadd(dt=dt, rows=rows, hidden=hidden):
                xs = [rand(rows, hidden, dtype=dt, grad=True), rand(rows, hidden, dtype=dt, grad=True),
                      rand(hidden, dtype=dt, grad=True)]
                return fwd_bwd(lambda x, r, w: LF.liger_fused_add_rms_norm(x, r, w, 1e-6,
                                                                           in_place=False),
                               lambda x, r, w: ref_rms_norm(x + r, w), xs) + (TOL[dt],)
            yield f"liger-fused_add_rms_norm-{s}", fadd

            def dyt(dt=dt, rows=rows, hidden=hidden):
                xs = [rand(rows, hidden, dtype=dt, grad=True),
                      torch.full((1,), 0.7, device="cuda", dtype=dt).requires_grad_(),
                      rand(hidden, dtype=dt, grad=True), rand(hidden, dtype=dt, grad=True)]
                return fwd_bwd(LF.liger_dyt, lambda x, a, g, b: g * torch.tanh(a * x) + b,
                               xs) + (TOL[dt] * 10,)
            yield f"liger-dyt-{s}", dyt

            def relu2(dt=dt, rows=rows, hidden=hidden):
                return fwd_bwd(LF.liger_relu_squared, lambda x: F.relu(x).pow(2),
                               [rand(rows, hidden, dtype=dt, grad=True)]) + (TOL[dt],)
            yield f"liger-relu_squared-{s}", relu2

            def softmax(dt=dt, rows=rows, hidden=hidden):
                return fwd_bwd(LF.liger_softmax, lambda x: torch.softmax(x, -1),
                               [rand(rows, hidden, dtype=dt, grad=True)]) + (TOL[dt],)
            yield f"liger-softmax-{s}", softmax

            def sparsemax(dt=dt, rows=rows, hidden=hidden):
                def ref(x):
                    z, _ = torch.sort(x, -1, descending=True)
                    k = torch.arange(1, x.shape[-1] + 1, device=x.device, dtype=x.dtype)
                    cs = z.cumsum(-1)
                    support = (1 + k * z) > cs
                    kk = support.sum(-1, keepdim=True)
                    tau = (cs.gather(-1, kk - 1) - 1) / kk.to(x.dtype)
                    return torch.clamp(x - tau, min=0)
                return fwd_bwd(LF.liger_sparsemax, ref,
                               [rand(rows, hidden, dtype=dt, grad=True)]) + (TOL[dt] * 10,)
            yield f"liger-sparsemax-{s}", sparsemax

        for rows, vocab in ((32, 32000), (100, 4096)):
            s = f"{rows}x{vocab}-{dname}"

            def ce(dt=dt, rows=rows, vocab=vocab):
                x = rand(rows, vocab, dtype=dt, grad=True)
                t = torch.randint(0, vocab, (rows,), device="cuda")
                return fwd_bwd(lambda x: LF.liger_cross_entropy(x, t),
                               lambda x: F.cross_entropy(x, t), [x]) + (TOL[dt],)
            yield f"liger-cross_entropy-{s}", ce

            def kl(dt=dt, rows=rows, vocab=vocab):
                x = torch.log_softmax(rand(rows, vocab, dtype=dt), -1).requires_grad_()
                t = torch.softmax(rand(rows, vocab, dtype=dt), -1)
                return fwd_bwd(lambda x: LF.liger_kl_div(x, t, reduction="batchmean"),
                               lambda x: F.kl_div(x, t.to(x.dtype), reduction="batchmean"),
                               [x]) + (TOL[dt] * 10,)
            yield f"liger-kl_div-{s}", kl

            def jsd(dt=dt, rows=rows, vocab=vocab):
                x = torch.log_softmax(rand(rows, vocab, dtype=dt), -1).requires_grad_()
                t = torch.log_softmax(rand(rows, vocab, dtype=dt), -1)

                def ref(x):
                    tt = t.to(x.dtype)
                    m = 0.5 * (x.exp() + tt.exp())
                    return 0.5 * ((tt.exp() * (tt - m.log())).sum() +
                                  (x.exp() * (x - m.log())).sum()) / x.shape[0]
                return fwd_bwd(lambda x: LF.liger_jsd(x, t), ref, [x]) + (TOL[dt] * 10,)
            yield f"liger-jsd-{s}", jsd

            def tvd(dt=dt, rows=rows, vocab=vocab):
                x = torch.softmax(rand(rows, vocab, dtype=dt), -1).requires_grad_()
                t = torch.softmax(rand(rows, vocab, dtype=dt), -1)
                return fwd_bwd(lambda x: LF.liger_tvd(x, t, reduction="batchmean"),
                               lambda x: 0.5 * (x - t.to(x.dtype)).abs().sum() / x.shape[0],
                               [x]) + (TOL[dt] * 10,)
            yield f"liger-tvd-{s}", tvd

        for bsz, heads, seq, hd in ((1, 8, 128, 64), (2, 4, 100, 128)):
            s = f"{bsz}x{heads}x{seq}x{hd}-{dname}"

            def rope(dt=dt, bsz=bsz, heads=heads, seq=seq, hd=hd):
                q = rand(bsz, heads, seq, hd, dtype=dt, grad=True)
                k = rand(bsz, heads // 2, seq, hd, dtype=dt, grad=True)
                ang = torch.rand(1, seq, hd // 2, device="cuda") * 6.28
                cos = torch.cat([ang.cos()] * 2, -1).to(dt)
                sin = torch.cat([ang.sin()] * 2, -1).to(dt)

                def rot(x):
                    return torch.cat([-x[..., hd // 2:], x[..., :hd // 2]], -1)

                def ref(q, k):
                    c, s_ = cos.unsqueeze(1).to(q.dtype), sin.unsqueeze(1).to(q.dtype)
                    return (q * c + rot(q) * s_, k * c + rot(k) * s_)

                def both(q, k):
                    a, b = LF.liger_rope(q, k, cos, sin)
                    return torch.cat([a.flatten(), b.flatten()])

                def both_ref(q, k):
                    a, b = ref(q, k)
                    return torch.cat([a.flatten(), b.flatten()])
                return fwd_bwd(both, both_ref, [q, k]) + (TOL[dt],)
            yield f"liger-rope-{s}", rope

        for bsz, ch, groups, hw in ((4, 64, 8, 256), (2, 128, 32, 100)):
            s = f"{bsz}x{ch}x{hw}g{groups}-{dname}"

            def gn(dt=dt, bsz=bsz, ch=ch, groups=groups, hw=hw):
                xs = [rand(bsz, ch, hw, dtype=dt, grad=True), rand(ch, dtype=dt, grad=True),
                      rand(ch, dtype=dt, grad=True)]
                return fwd_bwd(lambda x, w, b: LF.liger_group_norm(x, w, b, ch, groups, 1e-6),
                               lambda x, w, b: F.group_norm(x, groups, w, b, 1e-6),
                               xs) + (TOL[dt] * 10,)
            yield f"liger-group_norm-{s}", gn


# ---------------------------------------------------------------- FlagGems
def gems_op(fn, inputs, dtype, float64_ref=True, tol=None, compare="values"):
    def run():
        import flag_gems
        with flag_gems.use_gems():
            return fn(*inputs)

    def reference():
        xs = [x.double() if float64_ref and isinstance(x, torch.Tensor) and x.is_floating_point()
              else x for x in inputs]
        return fn(*xs)
    return run, reference, tol if tol is not None else TOL.get(dtype, 0.0)


def flaggems_workloads():
    shapes = ((1024, 1024), (333, 777), (64, 8192))
    unary = {"abs": torch.abs, "exp": torch.exp, "sin": torch.sin, "cos": torch.cos,
             "tanh": torch.tanh, "sigmoid": torch.sigmoid, "gelu": F.gelu, "silu": F.silu,
             "relu": torch.relu, "neg": torch.neg, "rsqrt": lambda x: torch.rsqrt(x.abs() + 1),
             "log": lambda x: torch.log(x.abs() + 1), "erf": torch.erf,
             "reciprocal": lambda x: torch.reciprocal(x.abs() + 1)}
    binary = {"add": torch.add, "mul": torch.mul, "sub": torch.sub,
              "div": lambda a, b: a / (b.abs() + 1), "maximum": torch.maximum,
              "minimum": torch.minimum, "where": lambda a, b: torch.where(a > b, a, b)}
    rowwise = {"softmax": lambda x: torch.softmax(x, -1),
               "log_softmax": lambda x: torch.log_softmax(x, -1),
               "softmax_dim0": lambda x: torch.softmax(x, 0),
               "sum": lambda x: x.sum(-1), "sum_dim0": lambda x: x.sum(0),
               "sum_all": lambda x: x.sum(), "mean": lambda x: x.mean(-1),
               "amax": lambda x: x.amax(-1), "amax_dim0": lambda x: x.amax(0),
               "max_dim": lambda x: x.max(-1).values, "min_dim": lambda x: x.min(-1).values,
               "argmax": lambda x: x.argmax(-1), "argmin": lambda x: x.argmin(0),
               "var_mean": lambda x: torch.var_mean(x, -1),
               "norm": lambda x: torch.linalg.vector_norm(x, dim=-1),
               "logsumexp": lambda x: torch.logsumexp(x, -1),
               "cumsum": lambda x: torch.cumsum(x, -1), "cumsum_dim0": lambda x: torch.cumsum(x, 0),
               "layer_norm": lambda x: F.layer_norm(x, (x.shape[-1],)),
               "transpose_copy": lambda x: x.t().contiguous(), "flip": lambda x: torch.flip(x, [1]),
               "triu": torch.triu, "sort_values": lambda x: torch.sort(x, -1).values,
               "topk_values": lambda x: torch.topk(x, 8, -1).values,
               "prod": lambda x: torch.prod(1 + 0.001 * x, -1),
               "all": lambda x: torch.all(x > -5, -1), "any": lambda x: torch.any(x > 3, -1)}
    for dname in ("fp32", "fp16", "bf16"):
        dt = DTYPES[dname]
        for shape in shapes[:2] if dname != "fp32" else shapes:
            s = f"{shape[0]}x{shape[1]}-{dname}"
            for name, fn in unary.items():
                yield f"flaggems-{name}-{s}", lambda fn=fn, shape=shape, dt=dt: gems_op(
                    fn, [rand(*shape, dtype=dt)], dt)
            for name, fn in binary.items():
                yield f"flaggems-{name}-{s}", lambda fn=fn, shape=shape, dt=dt: gems_op(
                    fn, [rand(*shape, dtype=dt), rand(*shape, dtype=dt)], dt)
            for name, fn in rowwise.items():
                tol = TOL[dt] * (20 if name.startswith(("cumsum", "sum", "prod", "var", "norm",
                                                        "mean", "layer", "log")) else 1)
                yield f"flaggems-{name}-{s}", lambda fn=fn, shape=shape, dt=dt, tol=tol: gems_op(
                    fn, [rand(*shape, dtype=dt)], dt, tol=tol)
        for m, n, k in ((256, 256, 256), (300, 500, 700), (128, 4096, 1024), (1024, 1024, 64)):
            s = f"{m}x{n}x{k}-{dname}"
            mtol = 5e-3 if dt == torch.float32 else TOL[dt] * 4
            yield f"flaggems-mm-{s}", lambda m=m, n=n, k=k, dt=dt, mtol=mtol: gems_op(
                torch.mm, [rand(m, k, dtype=dt), rand(k, n, dtype=dt)], dt, tol=mtol)
            yield f"flaggems-addmm-{s}", lambda m=m, n=n, k=k, dt=dt, mtol=mtol: gems_op(
                torch.addmm, [rand(n, dtype=dt), rand(m, k, dtype=dt), rand(k, n, dtype=dt)], dt,
                tol=mtol)
            yield f"flaggems-mm_bt-{s}", lambda m=m, n=n, k=k, dt=dt, mtol=mtol: gems_op(
                lambda a, b: torch.mm(a, b.t()), [rand(m, k, dtype=dt), rand(n, k, dtype=dt)], dt,
                tol=mtol)
        for b, m, n, k in ((4, 128, 128, 64), (3, 200, 96, 130)):
            s = f"{b}x{m}x{n}x{k}-{dname}"
            mtol = 5e-3 if dt == torch.float32 else TOL[dt] * 4
            yield f"flaggems-bmm-{s}", lambda b=b, m=m, n=n, k=k, dt=dt, mtol=mtol: gems_op(
                torch.bmm, [rand(b, m, k, dtype=dt), rand(b, k, n, dtype=dt)], dt, tol=mtol)
        if dt != torch.float32:
            for bsz, heads, seq, hd, causal in ((1, 4, 256, 64, False), (2, 2, 512, 128, True),
                                                (1, 8, 200, 64, True)):
                s = f"{bsz}x{heads}x{seq}x{hd}{'-causal' if causal else ''}-{dname}"

                def sdpa(bsz=bsz, heads=heads, seq=seq, hd=hd, causal=causal, dt=dt):
                    xs = [rand(bsz, heads, seq, hd, dtype=dt) for _ in range(3)]
                    return gems_op(lambda q, k, v: F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal), xs, dt, tol=TOL[dt] * 4)
                yield f"flaggems-sdpa-{s}", sdpa
        for rows, cols in ((4096, 512), (100, 3000)):
            s = f"{rows}x{cols}-{dname}"

            def gather(rows=rows, cols=cols, dt=dt):
                x = rand(rows, cols, dtype=dt)
                idx = torch.randint(0, cols, (rows, cols // 2), device="cuda")
                return gems_op(lambda x: torch.gather(x, 1, idx), [x], dt, tol=0.0)
            yield f"flaggems-gather-{s}", gather

            def index_select(rows=rows, cols=cols, dt=dt):
                x = rand(rows, cols, dtype=dt)
                idx = torch.randint(0, rows, (rows // 3,), device="cuda")
                return gems_op(lambda x: torch.index_select(x, 0, idx), [x], dt, tol=0.0)
            yield f"flaggems-index_select-{s}", index_select

            def embedding(rows=rows, cols=cols, dt=dt):
                w = rand(rows, cols, dtype=dt)
                idx = torch.randint(0, rows, (64,), device="cuda")
                return gems_op(lambda w: F.embedding(idx, w), [w], dt, tol=0.0)
            yield f"flaggems-embedding-{s}", embedding

            def cat(rows=rows, cols=cols, dt=dt):
                xs = [rand(rows, cols, dtype=dt), rand(rows, cols // 2, dtype=dt)]
                return gems_op(lambda a, b: torch.cat([a, b], 1), xs, dt, tol=0.0)
            yield f"flaggems-cat-{s}", cat

            def gn(rows=rows, cols=cols, dt=dt):
                x = rand(8, 32, rows // 32 if rows >= 32 else 4, cols // 100, dtype=dt)
                return gems_op(lambda x: F.group_norm(x, 8), [x], dt, tol=TOL[dt] * 20)
            yield f"flaggems-group_norm-{s}", gn



# ---------------------------------------------------------------- flash-linear-attention
def leaf(t):
    return t.detach().requires_grad_()


def fla_workloads():
    """fla-core's kernels, forward and backward. Its autotuners choose among 48 configurations a
    kernel; run_gpu.py's LLCHECK_ONE_CONFIG cuts each to one of its own (the same for the same
    kernel and autotune key), so a workload compiles in seconds, not minutes."""
    tols = {torch.bfloat16: 3e-2, torch.float16: 1e-2}
    for dname in ("bf16", "fp16"):
        dt = DTYPES[dname]
        for b, t, h, d in ((2, 256, 4, 64), (1, 300, 2, 128)):
            s = f"{b}x{t}x{h}x{d}-{dname}"

            def qkv(b=b, t=t, h=h, d=d, dt=dt, normalize_k=False):
                q = rand(b, t, h, d, dtype=dt) * 0.5
                k = rand(b, t, h, d, dtype=dt)
                k = F.normalize(k.float(), dim=-1).to(dt) if normalize_k else k * 0.5
                return leaf(q), leaf(k), leaf(rand(b, t, h, d, dtype=dt))

            def simple_gla(b=b, t=t, h=h, dt=dt, qkv=qkv):
                from fla.ops.simple_gla import chunk_simple_gla
                from fla.ops.simple_gla.naive import naive_recurrent_simple_gla
                g = leaf(F.logsigmoid(rand(b, t, h, dtype=torch.float32)))
                return fwd_bwd(lambda q, k, v, g: chunk_simple_gla(q, k, v, g)[0],
                               lambda q, k, v, g: naive_recurrent_simple_gla(q, k, v, g)[0],
                               [*qkv(), g]) + (tols[dt],)
            yield f"fla-chunk_simple_gla-{s}", simple_gla

            def gla(b=b, t=t, h=h, d=d, dt=dt, qkv=qkv):
                from fla.ops.gla import chunk_gla
                from fla.ops.gla.naive import naive_recurrent_gla
                g = leaf(F.logsigmoid(rand(b, t, h, d, dtype=torch.float32)) / 16)
                return fwd_bwd(lambda q, k, v, g: chunk_gla(q, k, v, g)[0],
                               lambda q, k, v, g: naive_recurrent_gla(q, k, v, g)[0],
                               [*qkv(), g]) + (tols[dt],)
            yield f"fla-chunk_gla-{s}", gla

            def delta(b=b, t=t, h=h, dt=dt, qkv=qkv):
                from fla.ops.delta_rule import chunk_delta_rule
                from fla.ops.delta_rule.naive import delta_rule_recurrence

                def ref(q, k, v, beta):
                    tr = [x.transpose(1, 2) for x in (q, k, v, beta)]
                    return delta_rule_recurrence(*tr)[0].transpose(1, 2)
                beta = leaf(torch.sigmoid(rand(b, t, h, dtype=dt)))
                return fwd_bwd(lambda q, k, v, beta: chunk_delta_rule(q, k, v, beta)[0], ref,
                               [*qkv(normalize_k=True), beta]) + (tols[dt],)
            yield f"fla-chunk_delta_rule-{s}", delta

            def gated_delta(b=b, t=t, h=h, dt=dt, qkv=qkv):
                from fla.ops.gated_delta_rule import chunk_gated_delta_rule
                from fla.ops.gated_delta_rule.naive import naive_recurrent_gated_delta_rule
                g = leaf(F.logsigmoid(rand(b, t, h, dtype=torch.float32)))
                beta = leaf(torch.sigmoid(rand(b, t, h, dtype=dt)))
                return fwd_bwd(
                    lambda q, k, v, g, beta: chunk_gated_delta_rule(q, k, v, g, beta)[0],
                    lambda q, k, v, g, beta: naive_recurrent_gated_delta_rule(q, k, v, beta, g)[0],
                    [*qkv(normalize_k=True), g, beta]) + (tols[dt],)
            yield f"fla-chunk_gated_delta_rule-{s}", gated_delta

            def retention(qkv=qkv, dt=dt):
                from fla.ops.retention import chunk_retention
                from fla.ops.retention.naive import naive_retention

                def ref(q, k, v):
                    o = naive_retention(*[x.transpose(1, 2) for x in (q, k, v)])
                    return o.transpose(1, 2)
                return fwd_bwd(lambda q, k, v: chunk_retention(q, k, v)[0], ref,
                               list(qkv())) + (tols[dt],)
            yield f"fla-chunk_retention-{s}", retention

            def linear_attn(qkv=qkv, dt=dt):
                from fla.ops.linear_attn import chunk_linear_attn
                from fla.ops.linear_attn.naive import naive_recurrent_linear_attn
                return fwd_bwd(
                    lambda q, k, v: chunk_linear_attn(q, k, v, normalize=False)[0],
                    lambda q, k, v: naive_recurrent_linear_attn(q, k, v)[0],
                    list(qkv())) + (tols[dt],)
            yield f"fla-chunk_linear_attn-{s}", linear_attn

            def attn(qkv=qkv, dt=dt):
                from fla.ops.attn import parallel_attn
                from fla.ops.attn.naive import naive_parallel_attn
                return fwd_bwd(lambda q, k, v: parallel_attn(q, k, v),
                               lambda q, k, v: naive_parallel_attn(q, k, v)[0],
                               list(qkv())) + (tols[dt],)
            yield f"fla-parallel_attn-{s}", attn

        for rows, hidden in ((512, 1024), (300, 2048)):
            s = f"{rows}x{hidden}-{dname}"

            def hgrn(rows=rows, hidden=hidden, dt=dt):
                from fla.ops.hgrn import fused_recurrent_hgrn
                from fla.ops.hgrn.naive import naive_recurrent_hgrn
                x = leaf(rand(2, rows, hidden // 4, dtype=dt))
                g = leaf(F.logsigmoid(rand(2, rows, hidden // 4, dtype=dt)))
                return fwd_bwd(lambda x, g: fused_recurrent_hgrn(x, g)[0],
                               lambda x, g: naive_recurrent_hgrn(x, g)[0], [x, g]) + (tols[dt],)
            yield f"fla-fused_recurrent_hgrn-{s}", hgrn

            def rms(rows=rows, hidden=hidden, dt=dt):
                from fla.modules.norm.layernorm import rms_norm
                xs = [rand(rows, hidden, dtype=dt, grad=True), rand(hidden, dtype=dt, grad=True)]
                return fwd_bwd(lambda x, w: rms_norm(x, w, None, eps=1e-6),
                               ref_rms_norm, xs) + (TOL[dt],)
            yield f"fla-rms_norm-{s}", rms

            def ln(rows=rows, hidden=hidden, dt=dt):
                from fla.modules.norm.layernorm import layer_norm
                xs = [rand(rows, hidden, dtype=dt, grad=True), rand(hidden, dtype=dt, grad=True),
                      rand(hidden, dtype=dt, grad=True)]
                return fwd_bwd(lambda x, w, b: layer_norm(x, w, b, eps=1e-6),
                               lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, 1e-6),
                               xs) + (TOL[dt],)
            yield f"fla-layer_norm-{s}", ln

            def rms_gated(rows=rows, hidden=hidden, dt=dt):
                from fla.modules.norm.fused_norm_gate import rms_norm_gated
                xs = [rand(rows, hidden, dtype=dt, grad=True), rand(rows, hidden, dtype=dt, grad=True),
                      rand(hidden, dtype=dt, grad=True)]
                return fwd_bwd(lambda x, g, w: rms_norm_gated(x, g, w, None, eps=1e-6),
                               lambda x, g, w: ref_rms_norm(x, w) * F.silu(g), xs) + (TOL[dt],)
            yield f"fla-rms_norm_gated-{s}", rms_gated

            def l2(rows=rows, hidden=hidden, dt=dt):
                from fla.modules.norm.l2norm import l2norm
                x = rand(rows, hidden // 16, 16, dtype=dt, grad=True)
                return fwd_bwd(lambda x: l2norm(x),
                               lambda x: x * torch.rsqrt((x * x).sum(-1, keepdim=True) + 1e-6),
                               [x]) + (TOL[dt],)
            yield f"fla-l2norm-{s}", l2

            def swish(rows=rows, hidden=hidden, dt=dt):
                from fla.modules.activations import swish as fla_swish
                return fwd_bwd(fla_swish, F.silu,
                               [rand(rows, hidden, dtype=dt, grad=True)]) + (TOL[dt],)
            yield f"fla-swish-{s}", swish

            def rotary(rows=rows, hidden=hidden, dt=dt):
                from fla.modules.rotary import rotary_embedding
                from fla.modules.rotary.ops import rotary_embedding_ref
                heads, dim = hidden // 128, 128
                x = rand(1, rows, heads, dim, dtype=dt, grad=True)
                angle = torch.rand(rows, dim // 2, device="cuda") * 6.28
                cos, sin = angle.cos().to(dt), angle.sin().to(dt)
                return fwd_bwd(lambda x: rotary_embedding(x, cos, sin),
                               lambda x: rotary_embedding_ref(x, cos.double(), sin.double()),
                               [x]) + (TOL[dt],)
            yield f"fla-rotary-{s}", rotary

    # fla refuses the backward of the gated chunk kernels (simple GLA's, the gated delta rule's)
    # on Hopper with Triton >= 3.4 and < 3.7.1 ("produces incorrect results for gated
    # chunk_bwd_dqkwg"): under 3.6 their forward alone.
    for dname in ("bf16", "fp16"):
        dt = DTYPES[dname]
        for b, t, h, d in ((2, 256, 4, 64), (1, 300, 2, 128)):
            s = f"{b}x{t}x{h}x{d}-{dname}"

            def inputs(b=b, t=t, h=h, d=d, dt=dt):
                q, v = rand(b, t, h, d, dtype=dt) * 0.5, rand(b, t, h, d, dtype=dt)
                k = F.normalize(rand(b, t, h, d), dim=-1).to(dt)
                g = F.logsigmoid(rand(b, t, h))
                return q, k, v, g, torch.sigmoid(rand(b, t, h, dtype=dt))

            def simple_gla_fwd(inputs=inputs, dt=dt):
                from fla.ops.simple_gla import chunk_simple_gla
                from fla.ops.simple_gla.naive import naive_recurrent_simple_gla
                q, k, v, g, _ = inputs()
                return fwd_bwd(lambda q, k, v, g: chunk_simple_gla(q, k, v, g)[0],
                               lambda q, k, v, g: naive_recurrent_simple_gla(q, k, v, g)[0],
                               [q, k, v, g]) + (tols[dt],)
            yield f"fla-chunk_simple_gla_fwd-{s}", simple_gla_fwd

            def gated_delta_fwd(inputs=inputs, dt=dt):
                from fla.ops.gated_delta_rule import chunk_gated_delta_rule
                from fla.ops.gated_delta_rule.naive import naive_recurrent_gated_delta_rule
                return fwd_bwd(
                    lambda q, k, v, g, beta: chunk_gated_delta_rule(q, k, v, g, beta)[0],
                    lambda q, k, v, g, beta: naive_recurrent_gated_delta_rule(q, k, v, beta, g)[0],
                    list(inputs())) + (tols[dt],)
            yield f"fla-chunk_gated_delta_rule_fwd-{s}", gated_delta_fwd


# ---------------------------------------------------------------- PyTorch Inductor
INDUCTOR_TOL = {torch.float32: 1e-3, torch.float16: 1e-2, torch.bfloat16: 5e-2}


def mlp_block(x, w1, b1, w2, b2, g, beta):
    h = F.gelu(x @ w1.t() + b1)
    return F.layer_norm(x + h @ w2.t() + b2, (x.shape[-1],), g, beta, 1e-5)


def wide(x):
    """x in float32 at least: the eager reference stays in float64."""
    return x if x.dtype == torch.float64 else x.float()


def rms(x, w, eps=1e-6):
    xf = wide(x)
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * w


def decoder_block(x, wn1, wq, wk, wv, wo, wn2, wg, wu, wd, heads=4):
    b, t, c = x.shape
    d = c // heads
    h = rms(x, wn1)
    q, k, v = [(h @ w.t()).view(b, t, heads, d).transpose(1, 2) for w in (wq, wk, wv)]
    scores = (q @ k.transpose(-1, -2)) * (d ** -0.5)
    causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
    p = torch.softmax(wide(scores).masked_fill(~causal, float("-inf")), -1).to(x.dtype)
    x = x + (p @ v).transpose(1, 2).reshape(b, t, c) @ wo.t()
    h = rms(x, wn2)
    return x + (F.silu(h @ wg.t()) * (h @ wu.t())) @ wd.t()


def small_cnn(x, w1, g1, b1, w2, g2, b2, fc):
    y = F.conv2d(x, w1, padding=1)
    y = F.relu(F.batch_norm(y, None, None, g1, b1, training=True))
    y = F.max_pool2d(y, 2)
    y = F.relu(F.batch_norm(F.conv2d(y, w2, padding=1), None, None, g2, b2, training=True))
    return F.adaptive_avg_pool2d(y, 1).flatten(1) @ fc.t()


def cross_entropy(logits, target):
    return F.cross_entropy(wide(logits), target, label_smoothing=0.1)


def reductions(x):
    xf = wide(x)
    var, mean = torch.var_mean(xf, 0)
    return (torch.cumsum(xf, -1) * torch.sigmoid(xf)).amax(-1), mean, var, xf.logsumexp(-1)


def embedding_bag(idx, table, w):
    return F.embedding(idx, table).sum(1) * torch.sigmoid(w)


def inductor_case(fn, inputs, dt, mode, train):
    """(run, reference, tolerance) of fn compiled by Inductor in `mode` ("default", or
    "autotune": max-autotune with Triton's templates, no CUDA graphs), forward only or forward
    and backward (the gradients of every floating input, for a random upstream gradient of the
    first result). The reference runs fn eagerly on float64 copies of the floating inputs."""
    import torch._dynamo
    torch._dynamo.reset()  # a fresh compile per workload: no cache-size limit, no dynamic dims
    # As options, Inductor applies them to the backward's compile too (AOTAutograd compiles it
    # at the first backward, outside any config.patch around the call).
    # Triton's templates alone for max-autotune's matmuls and convolutions, so that what it
    # tunes and runs is a Triton kernel; the default mode leaves them to cuBLAS and cuDNN.
    options = {"max_autotune": True, "coordinate_descent_tuning": False,
               "max_autotune_gemm_backends": "TRITON", "max_autotune_conv_backends": "TRITON"} \
        if mode == "autotune" else {}
    compiled = torch.compile(fn, dynamic=False, options=options)
    floating = [x.is_floating_point() for x in inputs]
    upstream = []

    def go(f, xs):
        with torch.set_grad_enabled(train):
            xs = [x.detach().clone().requires_grad_(train and fl) for x, fl in zip(xs, floating)]
            out = f(*xs)
            if not train:
                return out
            y = out[0] if isinstance(out, tuple) else out
            if not upstream:
                upstream.append(torch.randn(y.shape, device=y.device, dtype=torch.float64))
            dy = upstream[0].to(y.dtype) if y.dim() else None
            grads = torch.autograd.grad(y, [x for x, fl in zip(xs, floating) if fl], dy)
            return [y.detach()] + [g for g in grads]

    def run():
        return go(compiled, inputs)

    def reference():
        return go(fn, [x.double() if fl else x for x, fl in zip(inputs, floating)])
    return run, reference, INDUCTOR_TOL[dt]


def inductor_workloads():
    """torch.compile's kernels for the models above (see the module's docstring): the default
    mode's first, as max-autotune's take minutes to compile and a device run has a deadline."""
    every = list(inductor_each())
    yield from sorted(every, key=lambda w: "-autotune-" in w[0])


def inductor_each():
    def scaled(*shape, dt, s=None):
        fan = shape[-1] if len(shape) > 1 else 1
        return (torch.randn(*shape, device="cuda") * (s if s is not None else fan ** -0.5)).to(dt)

    def ones_ish(n, dt):
        return (1 + 0.1 * torch.randn(n, device="cuda")).to(dt)

    # max-autotune compiles and benchmarks up to 20 templates a matmul: one shape a model, fp32
    # and bf16 only, training for the MLP alone, to keep a device run's compile time in bounds.
    for dname in ("fp32", "fp16", "bf16"):
        dt = DTYPES[dname]
        for mode in ("default", "autotune"):
            if mode == "autotune" and dname == "fp16":
                continue
            for train in (False, True):
                tag = f"{'train' if train else 'infer'}-{mode}-{dname}"
                autotune_train = mode == "autotune" and train
                mlp_shapes = ((256, 512, 2048), (100, 384, 1000))
                for rows, c, hidden in mlp_shapes[:1] if mode == "autotune" else mlp_shapes:
                    def mlp(dt=dt, mode=mode, train=train, rows=rows, c=c, hidden=hidden):
                        xs = [scaled(rows, c, dt=dt, s=1.0), scaled(hidden, c, dt=dt),
                              scaled(hidden, dt=dt, s=0.1), scaled(c, hidden, dt=dt),
                              scaled(c, dt=dt, s=0.1), ones_ish(c, dt), scaled(c, dt=dt, s=0.1)]
                        return inductor_case(mlp_block, xs, dt, mode, train)
                    yield f"inductor-mlp-{rows}x{c}x{hidden}-{tag}", mlp

                block_shapes = ((2, 128, 256, 704), (1, 100, 256, 512))
                for b, t, c, ff in [] if autotune_train else \
                        block_shapes[:1] if mode == "autotune" else block_shapes:
                    def block(dt=dt, mode=mode, train=train, b=b, t=t, c=c, ff=ff):
                        xs = [scaled(b, t, c, dt=dt, s=1.0), ones_ish(c, dt)]
                        xs += [scaled(c, c, dt=dt) for _ in range(4)] + [ones_ish(c, dt)]
                        xs += [scaled(ff, c, dt=dt), scaled(ff, c, dt=dt), scaled(c, ff, dt=dt)]
                        return inductor_case(decoder_block, xs, dt, mode, train)
                    yield f"inductor-decoder-{b}x{t}x{c}x{ff}-{tag}", block

                if dname != "fp16" and not autotune_train:
                    def cnn(dt=dt, mode=mode, train=train):
                        xs = [scaled(8, 3, 32, 32, dt=dt, s=1.0), scaled(32, 3, 3, 3, dt=dt, s=0.3),
                              ones_ish(32, dt), scaled(32, dt=dt, s=0.1),
                              scaled(64, 32, 3, 3, dt=dt, s=0.06), ones_ish(64, dt),
                              scaled(64, dt=dt, s=0.1), scaled(10, 64, dt=dt)]
                        return inductor_case(small_cnn, xs, dt, mode, train)
                    yield f"inductor-cnn-8x3x32x32-{tag}", cnn
                if mode != "default":
                    continue
                for rows, vocab in ((256, 32000), (100, 50257)):
                    def ce(dt=dt, train=train, rows=rows, vocab=vocab):
                        xs = [scaled(rows, vocab, dt=dt, s=2.0),
                              torch.randint(0, vocab, (rows,), device="cuda")]
                        return inductor_case(cross_entropy, xs, dt, "default", train)
                    yield f"inductor-cross_entropy-{rows}x{vocab}-{tag}", ce
                if train:
                    continue
                for rows, cols in ((512, 1024), (300, 777)):
                    def red(dt=dt, rows=rows, cols=cols):
                        return inductor_case(reductions, [scaled(rows, cols, dt=dt, s=1.0)], dt,
                                             "default", False)
                    yield f"inductor-reductions-{rows}x{cols}-{tag}", red

                def bag(dt=dt):
                    xs = [torch.randint(0, 5000, (256, 16), device="cuda"),
                          scaled(5000, 128, dt=dt, s=1.0), scaled(128, dt=dt, s=1.0)]
                    return inductor_case(embedding_bag, xs, dt, "default", False)
                yield f"inductor-embedding_bag-256x16x5000x128-{tag}", bag


# ---------------------------------------------------------------- the tutorial matmul
def tutorial_workloads():
    from tutorial_matmul import matmul
    configs = []
    # The tutorial's autotune space for CUDA (BM, BN, BK, GROUP_M, warps, stages), then the
    # same tiles with the other warp counts and stage counts.
    for bm, bn, bk, warps, stages in ((128, 256, 64, 8, 3), (64, 256, 32, 4, 4),
                                      (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
                                      (64, 128, 32, 4, 4), (128, 32, 32, 4, 4),
                                      (64, 32, 32, 2, 5), (32, 64, 32, 2, 5),
                                      (128, 128, 64, 8, 2), (64, 64, 64, 4, 1),
                                      (128, 128, 32, 8, 1), (64, 128, 64, 4, 3)):
        configs.append((bm, bn, bk, warps, stages))
    shapes = ((256, 256, 256), (512, 512, 1024), (300, 260, 200), (128, 384, 64))
    for dname in ("fp16", "bf16", "fp32", "fp8"):
        for i, (bm, bn, bk, warps, stages) in enumerate(configs):
            if dname == "fp32" and bk == 64 and bm * bn >= 128 * 256:
                continue  # past the shared memory of one CTA at these stages
            if dname == "fp8":
                bk = bk * 2
            for m, n, k in shapes[i % 2::2]:
                cid = f"tutorial-matmul-{m}x{n}x{k}-{bm}x{bn}x{bk}-w{warps}s{stages}-{dname}"
                yield cid, (lambda m=m, n=n, k=k, bm=bm, bn=bn, bk=bk, w=warps, s=stages,
                            d=dname: matmul_case(matmul, m, n, k, bm, bn, bk, w, s, d))


def matmul_case(matmul, m, n, k, bm, bn, bk, warps, stages, dname):
    if dname == "fp8":
        a = (torch.randn(m, k, device="cuda") * 0.5).to(torch.float8_e4m3fn)
        # K-major B, as fp8 dots take it (the "K-major B of fp8 matmuls").
        b = (torch.randn(n, k, device="cuda") * 0.5).to(torch.float8_e4m3fn).t()
        tol, out = 2e-2, torch.float16
    else:
        dt = DTYPES[dname]
        a, b = rand(m, k, dtype=dt), rand(k, n, dtype=dt)
        tol, out = (5e-3 if dt == torch.float32 else 1e-2), (dt if dt != torch.float32 else
                                                              torch.float32)

    def run():
        return matmul(a, b, out, bm, bn, bk, warps, stages)

    def reference():
        return a.double() @ b.double()
    return run, reference, tol


def all_workloads():
    yield from tutorial_workloads()
    yield from liger_workloads()
    yield from flaggems_workloads()
    yield from fla_workloads()
    yield from inductor_workloads()
