"""Gluon layout objects (triton.experimental.gluon.language and its amd module) as the attribute
text Triton prints for them, read by duck typing: the class name and the dataclass fields
(BlockedLayout.size_per_thread, ...). Triton is never imported, so a layout object built
elsewhere, or any object with the same name and fields, is understood.

The text follows Triton 3.9's printer (checked against the attributes Triton printed for the
recorded cases in tests/triton_reference/encodings/, python/tests/test_gluon.py)."""

__all__ = ["gluon_to_attr"]


def _ints(v):
    return "[" + ", ".join(str(int(x)) for x in v) + "]"


def _bases(v):
    return "[" + ", ".join(_ints(b) for b in v) + "]"


def _bool(v):
    return "true" if v else "false"


def _cga(obj):
    cga = getattr(obj, "cga_layout", None)
    return f", CGALayout = {_bases(cga)}" if cga else ""


def _blocked(o):
    return (f"#ttg.blocked<{{sizePerThread = {_ints(o.size_per_thread)}, "
            f"threadsPerWarp = {_ints(o.threads_per_warp)}, warpsPerCTA = {_ints(o.warps_per_cta)}, "
            f"order = {_ints(o.order)}{_cga(o)}}}>")


def _slice(o):
    return f"#ttg.slice<{{dim = {int(o.dim)}, parent = {gluon_to_attr(o.parent)}}}>"


def _is_permutation(bases):
    """Triton's rule for #ttg.linear: once zero bases are dropped, each basis is a power of two
    in one dim and no two are alike; other bases make a #ttg.generic_linear."""
    seen = set()
    for b in bases:
        nonzero = [(d, int(v)) for d, v in enumerate(b) if int(v) != 0]
        if not nonzero:
            continue
        if len(nonzero) > 1 or nonzero[0][1] & (nonzero[0][1] - 1) or nonzero[0] in seen:
            return False
        seen.add(nonzero[0])
    return True


def _linear(o):
    every = [*o.reg_bases, *o.lane_bases, *o.warp_bases, *o.block_bases]
    name = "linear" if _is_permutation(every) else "generic_linear"
    return (f"#ttg.{name}<{{register = {_bases(o.reg_bases)}, lane = {_bases(o.lane_bases)}, "
            f"warp = {_bases(o.warp_bases)}, block = {_bases(o.block_bases)}}}>")


def _nvidia_mma(o):
    major, minor = list(o.version)
    return (f"#ttg.nvidia_mma<{{versionMajor = {int(major)}, versionMinor = {int(minor)}, "
            f"warpsPerCTA = {_ints(o.warps_per_cta)}{_cga(o)}, instrShape = {_ints(o.instr_shape)}}}>")


def _dot_op(o):
    # Triton prints no kWidth when it is 0 (a blocked or pre-kWidth parent).
    k = int(getattr(o, "k_width", 0) or 0)
    k = f", kWidth = {k}" if k else ""
    return f"#ttg.dot_op<{{opIdx = {int(o.operand_index)}, parent = {gluon_to_attr(o.parent)}{k}}}>"


def _swizzled_shared(o):
    return (f"#ttg.swizzled_shared<{{vec = {int(o.vec)}, perPhase = {int(o.per_phase)}, "
            f"maxPhase = {int(o.max_phase)}, order = {_ints(o.order)}{_cga(o)}}}>")


def _nvmma_shared(o):
    fp4 = ", fp4Padded = true" if getattr(o, "fp4_padded", False) else ""
    return (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {int(o.swizzle_byte_width)}, "
            f"transposed = {_bool(o.transposed)}, elementBitWidth = {int(o.element_bitwidth)}"
            f"{fp4}{_cga(o)}}}>")


def _amd_mfma(o):
    tiles = list(getattr(o, "tiles_per_warp", None) or [])
    tiles = f", tilesPerWarp = {_ints(tiles)}" if any(int(t) != 1 for t in tiles) else ""
    bits = getattr(o, "element_bitwidth", None)
    bits = f", elementBitWidth = {int(bits)}" if bits not in (None, 32) else ""
    return (f"#ttg.amd_mfma<{{version = {int(o.version)}, warpsPerCTA = {_ints(o.warps_per_cta)}, "
            f"instrShape = {_ints(o.instr_shape)}, isTransposed = {_bool(o.transposed)}"
            f"{_cga(o)}{tiles}{bits}}}>")


def _amd_wmma(o):
    cta = []
    if getattr(o, "reg_bases", None):
        cta.append(f"register = {_bases(o.reg_bases)}")
    if getattr(o, "warp_bases", None):
        cta.append(f"warp = {_bases(o.warp_bases)}")
    instr = list(getattr(o, "instr_shape", None) or [16, 16, 16])
    instr = f", instrShape = {_ints(instr)}" if instr != [16, 16, 16] else ""
    return (f"#ttg.amd_wmma<{{version = {int(o.version)}, isTranspose = {_bool(o.transposed)}, "
            f"ctaLayout = {{{', '.join(cta)}}}{_cga(o)}{instr}}}>")


def _shared_linear(o):
    return (f"#ttg.shared_linear<{{offset = {_bases(o.offset_bases)}, "
            f"block = {_bases(o.block_bases)}}}, alignment = {int(o.alignment)}>")


def _padded_shared(o):
    pairs = ", ".join(f"{int(i)}:+{int(p)}" for i, p in o.interval_padding_pairs)
    block = getattr(o, "cga_layout", None) or []
    return (f"#ttg.padded_shared<[{pairs}] {{offset = {_bases(o.offset_bases)}, "
            f"block = {_bases(block)}}}>")


def _tensor_memory(o):
    m, n = list(o.block)[:2]
    fp4 = ", fp4Padded = true" if getattr(o, "fp4_padded", False) else ""
    two = ", twoCTAs = true" if getattr(o, "two_ctas", False) else ""
    return (f"#ttng.tensor_memory_encoding<blockM = {int(m)}, blockN = {int(n)}, "
            f"colStride = {int(o.col_stride)}{_cga(o)}{two}{fp4}>")


_BY_CLASS = {
    "BlockedLayout": _blocked,
    "SliceLayout": _slice,
    "DistributedLinearLayout": _linear,
    "NVMMADistributedLayout": _nvidia_mma,
    "DotOperandLayout": _dot_op,
    "SwizzledSharedLayout": _swizzled_shared,
    "NVMMASharedLayout": _nvmma_shared,
    "AMDMFMALayout": _amd_mfma,
    "AMDWMMALayout": _amd_wmma,
    "SharedLinearLayout": _shared_linear,
    "PaddedSharedLayout": _padded_shared,
    "TensorMemoryLayout": _tensor_memory,
}


def gluon_to_attr(layout):
    """The attribute text of a Gluon layout object; ValueError for a class llcheck cannot read,
    or for an object missing a field its class has."""
    name = type(layout).__name__
    to_attr = _BY_CLASS.get(name)
    if to_attr is None:
        raise ValueError(f"{name} is not a Gluon layout llcheck reads "
                         f"(it reads {', '.join(sorted(_BY_CLASS))})")
    try:
        return to_attr(layout)
    except AttributeError as e:
        raise ValueError(f"{name} without the field Gluon gives it: {e}") from None
