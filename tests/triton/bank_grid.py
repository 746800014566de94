"""The bank-conflict grid: Triton's own bank-conflict predictor on (register layout, shared
layout, bitwidth) cases.

Triton 3.9's predictor is GluonOpBuilder.get_shared_bank_conflicts(reg_attr, shared_attr, shape,
bitwidth) (what Gluon's ttgl.bank_conflicts(distr_ty, shared_ty) calls), i.e. C++
ttg::bankConflictsMemDesc(toLinearLayout(shape, reg), toLinearLayout(shape, shared), bitwidth,
numBanks, laneTile) in lib/Tools/GenericSwizzling.cpp. The binding reads the number of banks
from the target of the module around the builder's insertion point, so it must be called with
the insertion point inside a module that has a "ttg.target" attribute (as in a traced
@gluon.jit kernel): a bare GluonOpBuilder has no insertion block and the call dereferences a
null mlir::Block (SIGSEGV in mlir::Block::getParentOp). `make_builder` builds that context.

Cases: register layouts from the conformance generators of
tests/triton_reference/encodings/generate.py (blocked, nvidia_mma, dot_op, slice; one CTA,
32 lanes), each with its generated shape, paired with a random shared layout for that shape
(swizzled_shared, nvmma_shared or shared_linear) and a bitwidth of 8, 16 or 32. For each case
Triton is asked for the attribute texts (as grid.py does), the register layout's linear
layout and the bank-conflict count; a case Triton refuses (an exception or an abort, in a
forked worker) is recorded as an error and not compared.

Run alone to write the cases as JSON lines:
    python tests/triton/bank_grid.py -o build/bank_grid.jsonl
"""

import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import grid  # noqa: E402
from grid import lt, reference  # noqa: E402

BANK_SEED = "llcheck-bank-1"
TARGET = "cuda:90"                    # NVIDIA: 32 banks of 4 bytes, 32 lanes (as llcheck's sm90)
REG_GENERATORS = [("blocked", reference.gen_blocked, 4), ("nvidia_mma", reference.gen_nvidia_mma, 3),
                  ("dot_op", reference.gen_dot_op, 3), ("slice", reference.gen_slice, 2)]
MAX_BITS = 14                         # elements per tensor, log2
BITWIDTHS = [8, 16, 32]
DTYPES = {8: "i8", 16: "f16", 32: "f32"}


def make_builder(target=TARGET, num_warps=4):
    """A GluonOpBuilder whose insertion point is in a kernel of a module with a target: the
    context get_shared_bank_conflicts needs (see the module docstring)."""
    ctx = lt.ir.context()
    lt.ir.load_dialects(ctx)
    b = lt.gluon_ir.GluonOpBuilder(ctx)
    module = b.create_module()
    module.set_attr("ttg.target", b.get_string_attr(target))
    module.set_attr("ttg.num-warps", b.get_int32_attr(num_warps))
    module.set_attr("ttg.num-ctas", b.get_int32_attr(1))
    module.set_attr("ttg.threads-per-warp", b.get_int32_attr(32))
    fn = b.get_or_insert_function(module, "bank_conflicts_probe", b.get_function_ty([], []),
                                  "public", False)
    module.push_back(fn)
    b.set_insertion_point_to_start(fn.add_entry_block())
    return ctx, b, module, fn


# ---- Shared layouts --------------------------------------------------------------------

def _bits(shape):
    return [reference.log2(s) for s in shape]


def swizzled_spec(rng, shape):
    rank = len(shape)
    return {"encoding": "swizzled_shared",
            "args": {"vec": reference.pow2(rng.randint(0, 4)),
                     "per_phase": reference.pow2(rng.randint(0, 3)),
                     "max_phase": reference.pow2(rng.randint(0, 4)),
                     "order": reference.random_order(rng, rank)}}


def nvmma_spec(rng, shape, bitwidth):
    return {"encoding": "nvmma_shared",
            "args": {"swizzle_byte_width": rng.choice([0, 32, 64, 128, 128]),
                     "element_bitwidth": bitwidth, "rank": len(shape),
                     "transposed": rng.random() < 0.3, "fp4_padded": False}}


def shared_linear_spec(rng, shape):
    """An invertible offset -> tensor map: the unit bases of the shape in a random order (mostly
    with one dimension contiguous), some of them XOR-ed with earlier ones (a swizzle)."""
    rank = len(shape)
    units = []
    order = reference.random_order(rng, rank)
    for d in order:
        for j in range(_bits(shape)[d]):
            v = [0] * rank
            v[d] = 1 << j
            units.append(v)
    if rng.random() < 0.3:
        rng.shuffle(units)
    bases = [list(u) for u in units]
    for j in range(len(bases)):
        if j > 0 and rng.random() < 0.3:
            i = rng.randrange(j)
            bases[j] = [a ^ b for a, b in zip(bases[j], units[i])]
    return {"encoding": "shared_linear", "args": {"offset_bases": bases, "block_bases": [],
                                                  "alignment": 16}}


def _blocked(spt, tpw, wpc, order=(1, 0)):
    return {"encoding": "blocked", "args": {"size_per_thread": list(spt),
                                            "threads_per_warp": list(tpw),
                                            "warps_per_cta": list(wpc), "order": list(order)}}


def _mma(version, wpc, instr):
    return {"encoding": "nvidia_mma", "args": {"version": [version, 0], "warps_per_cta": list(wpc),
                                               "instr_shape": list(instr)}}


def _swizzled(vec, per_phase, max_phase, order=(1, 0)):
    return {"encoding": "swizzled_shared", "args": {"vec": vec, "per_phase": per_phase,
                                                    "max_phase": max_phase, "order": list(order)}}


def _nvmma(swizzle, bw, transposed=False):
    return {"encoding": "nvmma_shared", "args": {"swizzle_byte_width": swizzle,
                                                 "element_bitwidth": bw, "rank": 2,
                                                 "transposed": transposed, "fp4_padded": False}}


def realistic_cases():
    """Hand-picked, Triton-realistic pairs: coalesced global-load layouts and MMA accumulators
    and operands, with the shared layouts Triton's heuristics pick (swizzled vec/perPhase/
    maxPhase, NVMMA 32/64/128-byte swizzles) and unswizzled ones, for 8-, 16- and 32-bit
    elements. Ids "realistic-NNNN"."""
    cases = []
    for bw in BITWIDTHS:
        per16 = 128 // bw                                     # elements in 16 bytes
        regs = []
        for shape in ([64, 64], [128, 64], [64, 128], [128, 128], [32, 256]):
            for tpw in ([8, 4], [4, 8], [2, 16], [1, 32]):
                regs.append((_blocked([1, per16], tpw, [4, 1]), shape))
            regs.append((_blocked([per16, 1], [4, 8], [1, 4], (0, 1)), shape))
            regs.append((_mma(2, [4, 1], [16, 8]), shape))
            regs.append((_mma(2, [2, 2], [16, 8]), shape))
            regs.append((_mma(3, [4, 1], [16, shape[1], 16]), shape))
            kw = max(1, 32 // bw)
            for op in (0, 1):
                regs.append(({"encoding": "dot_op", "args": {
                    "operand_index": op, "parent": _mma(2, [4, 1], [16, 8]), "k_width": kw}},
                    shape))
        shareds = [_swizzled(1, 1, 1), _swizzled(1, 1, 1, (0, 1)),
                   _swizzled(per16, 1, 8), _swizzled(per16, 2, 4), _swizzled(per16, 4, 2),
                   _swizzled(per16 // 2 or 1, 1, 8), _swizzled(per16, 1, 8, (0, 1)),
                   _nvmma(128, bw), _nvmma(64, bw), _nvmma(32, bw), _nvmma(0, bw),
                   _nvmma(128, bw, True)]
        for rspec, shape in regs:
            for sspec in shareds:
                enc = f"{rspec['encoding']}/{sspec['encoding']}"
                cid = f"realistic-{len(cases):04d}"
                cases.append((cid, enc, {"reg": rspec, "shared": sspec, "bitwidth": bw},
                              {"realistic": True}, shape))
    return cases


def bank_cases(per_generator=150):
    """[(id, "reg/shared", spec, meta, shape)] with spec = {"reg", "shared", "bitwidth"}: the
    random cases, then the realistic ones."""
    cases = []
    for name, gen, weight in REG_GENERATORS:
        rng = random.Random(f"{BANK_SEED}-{name}")
        n = per_generator * weight
        for i, (rspec, rmeta, shape) in enumerate(gen(rng, n * 2)):
            if rmeta.get("num_ctas", 1) != 1 or rmeta.get("threads_per_warp", 32) != 32:
                continue
            if sum(_bits(shape)) > MAX_BITS or sum(_bits(shape)) < 1:
                continue
            if n <= 0:
                break
            n -= 1
            bw = rng.choice(BITWIDTHS)
            kind = rng.random()
            if kind < 0.5:
                sspec = swizzled_spec(rng, shape)
            elif kind < 0.75 and len(shape) >= 2:
                sspec = nvmma_spec(rng, shape, bw)
            else:
                sspec = shared_linear_spec(rng, shape)
            spec = {"reg": rspec, "shared": sspec, "bitwidth": bw}
            enc = f"{name}/{sspec['encoding']}"
            cases.append((f"{name}-{i:04d}", enc, spec, {"reg_meta": rmeta}, shape))
    return cases + realistic_cases()


# ---- Triton's answers ------------------------------------------------------------------

def _answer(b, case):
    cid, encoding, spec, meta, shape = case
    bw = spec["bitwidth"]
    rec = {"id": cid, "encoding": encoding, "shape": shape, "bitwidth": bw}
    stage = "gluon layout"
    try:
        reg = reference.gluon_layout(spec["reg"])
        shared = reference.gluon_layout(spec["shared"])
        rec["gluon"] = [repr(reg), repr(shared)]
        reg_attr = reg._to_ir(b)
        shared_attr = shared._to_ir(b)
        stage = "attribute text"
        rec["reg_attr"] = reference._attr_from_type(
            str(b.get_distributed_ty(b.get_float_ty(), shape, reg_attr)))
        ety = getattr(b, reference.ELEM_TY[bw])()
        rec["shared_attr"] = reference._attr_from_type(
            str(b.get_shared_mem_desc_ty(ety, shape, shared_attr, shape)))
        stage = "to_linear_layout"
        ll = b.to_linear_layout(reg_attr, shape)
        rec["reg_ll"] = {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases,
                         "block": ll.block_bases}
        sll = b.to_linear_layout(shared_attr, shape)
        rec["shared_ll"] = {"offset": sll.offset_bases, "block": sll.block_bases}
        if len(ll.lane_bases) != 5 or ll.block_bases:
            raise ValueError("not a 32-lane, one-CTA register layout")
        stage = "get_shared_bank_conflicts"
        rec["triton"] = b.get_shared_bank_conflicts(reg_attr, shared_attr, list(shape), bw)
    except Exception as e:  # noqa: BLE001 - Triton refused the case
        rec["error"] = reference._exc(e)
        rec["error_stage"] = stage
    return rec


def _worker(cases, start, fd):
    import faulthandler
    faulthandler.disable()
    _ctx, b, _module, _fn = make_builder()
    for i in range(start, len(cases)):
        os.write(fd, (json.dumps([i, _answer(b, cases[i])]) + "\n").encode())


def triton_bank_grid(per_generator=150, workers=2):
    return grid.run_cases(bank_cases(per_generator), worker=_worker, workers=workers)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--per-generator", type=int, default=150)
    args = ap.parse_args()
    t0 = time.perf_counter()
    answers = triton_bank_grid(args.per_generator)
    with open(args.output, "w") as f:
        for a in answers:
            f.write(json.dumps(a) + "\n")
    ok = sum("triton" in a for a in answers)
    print(f"triton {grid.triton.__version__}: {len(answers)} cases, {ok} answered, in "
          f"{time.perf_counter() - t0:.1f} s -> {args.output}")


if __name__ == "__main__":
    main()
