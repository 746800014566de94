"""Shared-memory layouts as Triton's compiled code uses them, read on the CPU.

Triton 3.6's GluonOpBuilder.to_linear_layout answers distributed encodings only: it wraps every
result in a #ttg.linear, whose verifier aborts on a shared layout's `offset` input. So for a
shared encoding E and a shape S this module asks what Triton's own compiler does with E:

  1. A TTGIR function stores a tensor whose every element holds its own row-major index into a
     `ttg.local_alloc` with encoding E (`ttg.local_store`). The register layout is ours, a
     #ttg.linear that gives each thread R = N / 128 consecutive elements (4 warps of 32 lanes;
     lanes and warps beyond the tensor broadcast), with the CTA split of E's CGALayout.
  2. Triton lowers it with its own passes (TritonGPU -> LLVM dialect, as make_llir does; target
     cuda:80, where no stmatrix stores several lanes' data at one lane's address).
  3. In each lowered function the thread id (and the CTA id in the cluster) is replaced by a
     constant: 0, every power of two, and the last thread (and every power-of-two CTA), one copy
     of the function each. Triton's LLVM optimiser (-O1) then folds every shared-memory store to
     constants: the element indices stored and their byte address.

The answer is, per store, (element index, offset) with offset = byte address / element bytes in
the CTA's shared memory. Triton computes each address as an XOR-linear function of the register,
lane, warp and block ids (applyLinearLayout of its conversion), so the threads read here (0 and
the powers of two, every register of each) determine the map; the last thread is read as well,
as a check of that linearity. 8-bit elements are stored twice, once the index's low byte and once
its high byte, in two functions lowered alike.

Cases are lowered in batches (one module, one pass pipeline, one LLVM optimisation), each batch in
a forked process; a batch that fails or aborts is redone one case per process, so an abort (an
encoding Triton refuses) costs one case.
"""

import json
import math
import os
import re
import sys
import tempfile

import triton
from triton._C.libtriton import ir, llvm, nvidia, passes
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import make_backend

NUM_WARPS = 4
THREADS = 32 * NUM_WARPS
PTX_VERSION = 84
ELEMENT_TYPES = {8: "i8", 16: "i16", 32: "i32", 64: "i64"}


def _log2(n):
    return n.bit_length() - 1


def _bases_text(bases):
    return "[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bases) + "]"


def _unit(rank, d, v):
    b = [0] * rank
    b[d] = v
    return b


def register_layout(shape_per_cta, block_bases):
    """Our distributed layout: the per-CTA tensor's bits, row-major (last dim first), go to
    registers, then lanes, then warps (zero bases where the tensor is smaller than 128 threads)."""
    rank = len(shape_per_cta)
    bits = []
    for d in reversed(range(rank)):
        bits += [_unit(rank, d, 1 << i) for i in range(_log2(shape_per_cta[d]))]
    regs = max(0, len(bits) - 5 - _log2(NUM_WARPS))
    zero = [0] * rank
    pad = bits[regs:] + [zero] * (5 + _log2(NUM_WARPS))
    return {"register": bits[:regs], "lane": pad[:5], "warp": pad[5:5 + _log2(NUM_WARPS)],
            "block": block_bases}


def _flatten(bases, shape):
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    return [[sum(v * s for v, s in zip(b, strides))] for b in bases]


def _linear_attr(layout, shape=None):
    f = (lambda bs: _flatten(bs, shape)) if shape is not None else (lambda bs: bs)
    return ("#ttg.linear<{register = %s, lane = %s, warp = %s, block = %s}>" %
            tuple(_bases_text(f(layout[k])) for k in ("register", "lane", "warp", "block")))


def cga_block_bases(attr, shape):
    """E's block bases in tensor coordinates and the shape of one CTA's part: a CGALayout's bases
    (in units of one CTA's tile) times the per-CTA shape, as combineCtaCgaWithShape lays them, or
    #ttg.shared_linear's and #ttg.padded_shared's `block` bases as written. Raises ValueError where a CTA's part is not
    the low bits of each dim (our register layout could not hold it)."""
    m = re.search(r"CGALayout = (\[\[[^=]*?\]\])", attr)
    if m:
        cga = json.loads(m.group(1))
        split = [1] * len(shape)
        for d in range(len(shape)):
            top = max((b[d] for b in cga), default=0)
            split[d] = 1 << top.bit_length() if top else 1
        per_cta = [s // c for s, c in zip(shape, split)]
        return [[v * p for v, p in zip(b, per_cta)] for b in cga], per_cta
    m = re.search(r"block = (\[\[[^=]*?\]\])", attr)
    if not (attr.startswith("#ttg.shared_linear") or attr.startswith("#ttg.padded_shared")) \
            or not m:
        return [], list(shape)
    block = json.loads(m.group(1))
    per_cta = list(shape)
    for b in sorted(block, key=lambda b: -max(b)):
        nonzero = [d for d in range(len(b)) if b[d]]
        if not nonzero:
            continue
        d = nonzero[0]
        if len(nonzero) > 1 or b[d] * 2 != per_cta[d]:
            raise ValueError(f"block basis {b} is not the top bit of one dim")
        per_cta[d] //= 2
    return block, per_cta


def reconstruct(pairs, shape, num_ctas):
    """The layout the pairs determine: {"offset": bases, "block": bases} (each basis the tensor
    coordinates of that input bit), or None when their (offset, cta) do not span every offset
    bit below the largest offset and every CTA bit. Raises ValueError when the pairs are not
    XOR-linear (two stores that no linear layout gives)."""
    obits = max((o for _, o, _ in pairs), default=0).bit_length()
    cbits = _log2(num_ctas)
    pivots = {}  # leading bit -> (input vector, element index), kept fully reduced
    for e, o, c in pairs:
        x = o | (c << obits)
        for bit in sorted(pivots, reverse=True):
            if x >> bit & 1:
                px, pe = pivots[bit]
                x ^= px
                e ^= pe
        if x == 0:
            if e != 0:
                raise ValueError("the stores are not an XOR-linear function of offset and CTA")
            continue
        top = x.bit_length() - 1
        for bit, (px, pe) in list(pivots.items()):
            if px >> top & 1:
                pivots[bit] = (px ^ x, pe ^ e)
        pivots[top] = (x, e)
    if len(pivots) != obits + cbits:
        return None
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]

    def coords(e):
        return [(e // s) % n for s, n in zip(strides, shape)]

    bases = [coords(pivots[b][1]) for b in range(obits + cbits)]
    return {"offset": bases[:obits], "block": bases[obits:]}


def miscompiled(pairs, shape, attr):
    """Why the stores cannot be the layout's, or None: two elements stored at one offset of one
    CTA, or, for #ttg.shared_linear (whose offsets cover the tensor exactly), an offset past the
    CTA's elements."""
    block, per_cta = cga_block_bases(attr, shape)
    size = math.prod(per_cta)
    held = {}
    for e, o, c in pairs:
        if held.setdefault((o, c), e) != e:
            return f"elements {held[(o, c)]} and {e} are both stored at offset {o} of CTA {c}"
        if o >= size and attr.startswith("#ttg.shared_linear"):
            return f"element {e} is stored at offset {o}, past the CTA's {size} elements"
    return None


def padding_pairs(attr):
    """#ttg.padded_shared<[interval:+pad, ...] {...}>'s pairs: [[interval, pad], ...]."""
    m = re.match(r"#ttg\.padded_shared<\[([^\]]*)\]", attr)
    if not m:
        return []
    return [[int(i), int(p)] for i, p in re.findall(r"(\d+)\s*:\s*\+\s*(\d+)", m.group(1))]


def padded_offset(padding, offset):
    """Where the element at linear `offset` lies with the padding (Triton's definition)."""
    return offset + sum((offset // interval) * pad for interval, pad in padding)


def first_error(text):
    """The line of a failure that says what failed: an MLIR diagnostic ("error: ..."), a failed
    assertion or an LLVM fatal error, without file paths; else the first line."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error: " in l and "Failures have been detected" not in l:
            return re.sub(r"^.*?error: ", "", l)[:300]
    for l in lines:
        if "Assertion" in l or "LLVM ERROR" in l:
            return re.sub(r"^.*?(Assertion|LLVM ERROR)", r"\1", l)[:300]
    return (lines[0] if lines else "no message")[:300]


def _parseable(attr, shape):
    """Triton 3.6 prints a #ttg.nvmma_shared of rank 3 or more with a CGALayout without its
    `rank`, which its own parser then takes for 2 ("'CGALayout' entry length does not match
    rank 2"); the rank the CGALayout's bases show is put back."""
    if (attr.startswith("#ttg.nvmma_shared") and "CGALayout" in attr and "rank =" not in attr
            and len(shape) != 2):
        return attr.replace(", CGALayout", f", rank = {len(shape)}, CGALayout", 1)
    return attr


def case_functions(index, attr, shape, element_bits):
    """TTGIR aliases and functions for one case: [(function name, part)], text. part is None,
    or "lo" / "hi" for the two halves of an 8-bit case."""
    rank = len(shape)
    n = math.prod(shape)
    block, per_cta = cga_block_bases(attr, shape)
    layout = register_layout(per_cta, block)
    ety = ELEMENT_TYPES[element_bits]
    dims = "x".join(map(str, shape))
    aliases = (f"#flat{index} = {_linear_attr(layout, shape)}\n"
               f"#reg{index} = {_linear_attr(layout)}\n"
               f"#shared{index} = {_parseable(attr, shape)}\n")
    parts = ["lo", "hi"] if element_bits == 8 else [None]
    funcs = []
    text = ""
    for part in parts:
        name = f"k{index}" + (f"_{part}" if part else "")
        t = f"tensor<{dims}x{{}}, #reg{index}>"
        body = [f"    %0 = tt.make_range {{end = {n} : i32, start = 0 : i32}} : "
                f"tensor<{n}xi32, #flat{index}>",
                f"    %1 = tt.reshape %0 : tensor<{n}xi32, #flat{index}> -> {t.format('i32')}"]
        value = "%1"
        if part == "hi":
            body.append(f"    %c8 = arith.constant dense<8> : {t.format('i32')}")
            body.append(f"    %2 = arith.shrui %1, %c8 : {t.format('i32')}")
            value = "%2"
        if element_bits < 32:
            body.append(f"    %3 = arith.trunci {value} : {t.format('i32')} to {t.format(ety)}")
            value = "%3"
        elif element_bits > 32:
            body.append(f"    %3 = arith.extsi {value} : {t.format('i32')} to {t.format(ety)}")
            value = "%3"
        mem = f"!ttg.memdesc<{dims}x{ety}, #shared{index}, #smem, mutable>"
        body.append(f"    %4 = ttg.local_alloc : () -> {mem}")
        body.append(f"    ttg.local_store {value}, %4 : {t.format(ety)} -> {mem}")
        text += f"  tt.func public @{name}() {{\n" + "\n".join(body) + "\n    tt.return\n  }\n"
        funcs.append((name, part))
    del rank
    return aliases, text, funcs


def _module_text(cases, capability, num_ctas):
    aliases, funcs, names = "", "", []
    for index, (attr, shape, bits) in cases:
        a, f, n = case_functions(index, attr, shape, bits)
        aliases += a
        funcs += f
        names.append((index, n))
    head = (f'module attributes {{"ttg.num-ctas" = {num_ctas} : i32, '
            f'"ttg.num-warps" = {NUM_WARPS} : i32, ttg.target = "cuda:{capability}", '
            f'"ttg.threads-per-warp" = 32 : i32}} {{\n')
    return aliases + "#smem = #ttg.shared_memory\n" + head + funcs + "}\n", names


_BACKENDS = {}


def _backend(capability):
    if capability not in _BACKENDS:
        _BACKENDS[capability] = make_backend(GPUTarget("cuda", capability, 32))
    return _BACKENDS[capability]


def _parse(text, capability):
    ctx = ir.context()
    ir.load_dialects(ctx)
    _backend(capability).load_dialects(ctx)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        return ctx, ir.parse_mlir_module(path, ctx)
    finally:
        os.unlink(path)


def _lower(text, capability):
    """TTGIR -> LLVM dialect with the passes of the NVIDIA backend's make_llir."""
    ctx, mod = _parse(text, capability)
    pm = ir.pass_manager(ctx)
    passes.ttgpuir.add_combine_tensor_select_and_if(pm)
    try:
        passes.ttgpuir.add_allocate_warp_groups(pm)
    except TypeError:  # 3.9 takes whether the concurrency sanitizer is on
        passes.ttgpuir.add_allocate_warp_groups(pm, False)
    passes.convert.add_scf_to_cf(pm)
    passes.gluon.add_inliner(pm)
    nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, capability, PTX_VERSION)
    nvidia.passes.ttgpuir.add_to_llvmir(pm, capability, PTX_VERSION)
    passes.common.add_canonicalizer(pm)
    passes.common.add_cse(pm)
    nvidia.passes.ttnvgpuir.add_nvgpu_to_llvm(pm)
    passes.common.add_canonicalizer(pm)
    passes.common.add_cse(pm)
    passes.convert.add_nvvm_to_llvm(pm)
    pm.run(mod, "llcheck-compiled-shared")
    return str(mod)


_TID = re.compile(r"(%\S+) = nvvm\.read\.ptx\.sreg\.tid\.x(?: range <[^>]*>)? : i32")
_CTA = re.compile(r"(%\S+) = nvvm\.read\.ptx\.sreg\.cluster\.ctarank(?: range <[^>]*>)? : i32")


def _thread_ids():
    return [0] + [1 << i for i in range(_log2(THREADS))] + [THREADS - 1]


def _cta_ids(num_ctas):
    return [0] + [1 << i for i in range(_log2(num_ctas))]


def _specialise(lowered, num_ctas):
    """One copy of every lowered function per (thread, CTA) read, named @<name>__t<tid>_c<cta>,
    with the ids replaced by constants."""
    lines = lowered.splitlines()
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"  llvm\.func @(\w+)\(", line)
        if not m:
            out.append(line)
            i += 1
            continue
        j = i
        while not lines[j].startswith("  }"):
            j += 1
        # Location references only make the text (parsed again below) longer.
        block = re.sub(r" loc\(#loc\d*\)", "", "\n".join(lines[i:j + 1]))
        for cta in _cta_ids(num_ctas):
            for tid in _thread_ids():
                b = block.replace(f"@{m.group(1)}(", f"@{m.group(1)}__t{tid}_c{cta}(", 1)
                b = _TID.sub(lambda x, t=tid: f"{x.group(1)} = llvm.mlir.constant({t} : i32) : i32",
                             b)
                b = _CTA.sub(lambda x, c=cta: f"{x.group(1)} = llvm.mlir.constant({c} : i32) : i32",
                             b)
                out.append(b)
        i = j + 1
    return "\n".join(out) + "\n"


def _fold(text, capability):
    ctx, mod = _parse(text, capability)
    llvm.init_targets()
    lctx = llvm.context()
    lmod = llvm.to_module(mod, lctx)
    if hasattr(nvidia, "set_short_ptr"):  # 3.6; 3.9 sets it up by itself
        nvidia.set_short_ptr()
    llvm.attach_datalayout(lmod, "nvptx64-nvidia-cuda", f"sm_{capability}", "")
    llvm.optimize_module(lmod, llvm.OPTIMIZE_O1)
    return str(lmod)


_INT = re.compile(r"i(\d+) (-?\d+)")


def _values(ty, value):
    """The integers of an LLVM constant of type ty: [(bits, value)]."""
    vm = re.fullmatch(r"<(\d+) x i(\d+)>", ty)
    if vm:
        count, bits = int(vm.group(1)), int(vm.group(2))
        if value == "zeroinitializer":
            return [(bits, 0)] * count
        sm = re.fullmatch(r"splat \(i\d+ (-?\d+)\)", value)
        if sm:
            return [(bits, int(sm.group(1)))] * count
        return [(int(b), int(v)) for b, v in _INT.findall(value)]
    sm = re.fullmatch(r"i(\d+)", ty)
    if sm:
        return [(int(sm.group(1)), 0 if value in ("zeroinitializer", "false") else int(value))]
    raise ValueError(f"unexpected stored constant {ty} {value}")


_STORE = re.compile(r"^\s*store (<\d+ x i\d+>|i\d+) (.+?), ptr addrspace\(3\) (.+?)(?:, align \d+)?$")
_ADDRESS = re.compile(r"getelementptr (?:inbounds )?(?:nuw )?(?:nusw )?\(i8, ptr addrspace\(3\) "
                      r"@global_smem, i(?:32|64) (-?\d+)\)")


def _stores(function_text, element_bits):
    """[(element value, element offset)] of every shared store in a folded function."""
    out = []
    ebytes = element_bits // 8
    for line in function_text.splitlines():
        if "addrspace(3)" not in line or "global_smem" not in line:
            continue
        if "asm" in line or "call" in line:
            raise ValueError("a shared store that did not fold to a plain store: " + line.strip())
        if not line.strip().startswith("store"):
            continue
        m = _STORE.match(line)
        if not m:
            raise ValueError("unexpected shared store: " + line.strip())
        ty, value, ptr = m.groups()
        if ptr.strip() == "@global_smem":
            address = 0
        else:
            am = _ADDRESS.fullmatch(ptr.strip())
            if not am:
                raise ValueError("shared store to an address that did not fold: " + line.strip())
            address = int(am.group(1))
        # Split wider integers into elements (little-endian), as the hardware stores them.
        elements = []
        for bits, v in _values(ty, value):
            v &= (1 << bits) - 1
            for k in range(bits // element_bits if bits >= element_bits else 1):
                elements.append((v >> (k * element_bits)) & ((1 << element_bits) - 1))
        if address % ebytes:
            raise ValueError(f"store at byte {address}, not a multiple of {ebytes}")
        for k, v in enumerate(elements):
            out.append((v, address // ebytes + k))
    return out


def _functions(folded):
    """{name: text} of the folded LLVM module's function definitions."""
    out = {}
    for m in re.finditer(r"^define [^@]*@(\w+)\(.*?^}", folded, re.M | re.S):
        out[m.group(1)] = m.group(0)
    return out


def _answer_batch(cases, capability, num_ctas):
    """{index: {"pairs": [[element, offset, cta]], ...}} for a batch of (index, (attr, shape,
    bits)); raises on any failure of the batch."""
    text, names = _module_text(cases, capability, num_ctas)
    lowered = _lower(text, capability)
    folded = _functions(_fold(_specialise(lowered, num_ctas), capability))
    answers = {}
    for (index, funcs), (_, (_, shape, bits)) in zip(names, cases):
        pairs = set()
        for cta in _cta_ids(num_ctas):
            for tid in _thread_ids():
                per_part = []
                for name, _part in funcs:
                    f = folded.get(f"{name}__t{tid}_c{cta}")
                    if f is None:
                        raise ValueError(f"function {name} missing after folding")
                    per_part.append(_stores(f, bits))
                if len(per_part) == 2:  # 8-bit: low and high bytes, stored alike
                    lo, hi = per_part
                    if len(lo) != len(hi) or any(a[1] != b[1] for a, b in zip(lo, hi)):
                        raise ValueError("the low- and high-byte functions stored differently")
                    stores = [(a[0] | (b[0] << 8), a[1]) for a, b in zip(lo, hi)]
                else:
                    stores = per_part[0]
                pairs.update((v, o, cta) for v, o in stores)
        answers[index] = {"pairs": sorted(pairs)}
    return answers


def _run_forked(fn, *args):
    """fn(*args) in a forked child: (result, None) or (None, error text)."""
    r, w = os.pipe()
    err = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.dup2(err.fileno(), 2)
            os.dup2(err.fileno(), 1)
            try:
                result = {"ok": fn(*args)}
            except Exception as e:  # noqa: BLE001 - reported to the parent
                result = {"error": f"{type(e).__name__}: {e}"}
            os.write(w, json.dumps(result).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    err.seek(0)
    errtext = err.read().decode(errors="replace")
    err.close()
    if not data:
        return None, errtext or "aborted with no message"
    result = json.loads(data)
    if "error" in result:
        return None, result["error"] + ("\n" + errtext if errtext.strip() else "")
    return result["ok"], None


BATCH = 24


def compiled_layouts(requests, batch=BATCH):
    """requests: [(attr, shape, element_bits)]. Returns, in order, {"pairs": [[element index,
    offset, cta], ...]} per request, or {"error": text} where Triton refused to lower it."""
    groups = {}
    answers = [None] * len(requests)
    for i, (attr, shape, bits) in enumerate(requests):
        try:
            block, _ = cga_block_bases(attr, shape)
        except ValueError as e:
            answers[i] = {"error": f"ValueError: {e}"}
            continue
        num_ctas = 1 << len(block)
        capability = 80  # sm90 would store 16-bit pairs with stmatrix (one lane per row)
        groups.setdefault((capability, num_ctas), []).append((i, (attr, shape, bits)))
    for (capability, num_ctas), items in groups.items():
        for k in range(0, len(items), batch):
            chunk = items[k:k + batch]
            result, error = _run_forked(_answer_batch, chunk, capability, num_ctas)
            if result is not None:
                for index, a in result.items():
                    answers[int(index)] = a
                continue
            for item in chunk:
                result, error = _run_forked(_answer_batch, [item], capability, num_ctas)
                if result is not None:
                    answers[item[0]] = result[str(item[0])]
                else:
                    answers[item[0]] = {"error": error}
    return answers


if __name__ == "__main__":
    import time
    t0 = time.perf_counter()
    reqs = [("#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>",
             [16, 32], 32),
            ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
             [64, 64], 16),
            ("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>",
             [32, 128], 8)]
    for r, a in zip(reqs, compiled_layouts(reqs)):
        print(triton.__version__, r, (a.get("error") or "")[:300], len(a.get("pairs", [])),
              a.get("pairs", [])[:6])
    print(time.perf_counter() - t0)
