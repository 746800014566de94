"""The algebra from Python, each operation checked by its defining property on every input,
against an evaluation written here (XOR of bases), not against the C++ core's own apply."""
import itertools
import random

import pytest

import llcheck
from llcheck import Layout

BLOCKED = ("#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], "
           "warpsPerCTA = [2, 2], order = [1, 0]}>")


def xor_apply(layout, point):
    """The layout at an input point, from its bases: XOR of the bases of the set bits."""
    out = dict.fromkeys(layout.out_dims, 0)
    names = list(layout.out_dims)
    for dim, bases in layout.bases.items():
        for i, basis in enumerate(bases):
            if point.get(dim, 0) >> i & 1:
                for name, v in zip(names, basis):
                    out[name] ^= v
    return out


def inputs(layout):
    dims = layout.in_dims
    for values in itertools.product(*(range(s) for s in dims.values())):
        yield dict(zip(dims, values))


def random_layout(rng, ins, outs):
    """ins: {dim: bits}, outs: {dim: bits}; random bases, sizes given (not necessarily onto)."""
    bases = {d: [[rng.randrange(1 << ob) for ob in outs.values()] for _ in range(b)]
             for d, b in ins.items()}
    return Layout.from_bases(bases, {d: 1 << b for d, b in outs.items()}, require_surjective=False)


def test_from_spec_matches_triton_example():
    # The docs' example (docs/spec.md): Triton's printed form of this blocked layout.
    L = Layout.from_spec(BLOCKED, shape=[64, 16])
    assert L.in_dims == {"register": 8, "lane": 32, "warp": 4, "block": 1}
    assert L.out_dims == {"dim0": 64, "dim1": 16}
    assert L.bases["lane"] == [[0, 2], [0, 4], [4, 0], [8, 0], [16, 0]]
    assert L.is_invertible()
    for p in inputs(L):
        assert L.apply(p) == xor_apply(L, p)


def test_from_bases_inferred_and_round_trips():
    L = Layout.from_bases({"register": [[0, 1], [1, 0]], "lane": [[2, 0], [0, 2]]}, ["dim0", "dim1"])
    assert L.out_dims == {"dim0": 4, "dim1": 4}
    assert Layout.from_json(L.to_json()) == L
    B = Layout.from_spec(BLOCKED, shape=[64, 16])
    assert B.to_attr().startswith("#ttg.linear<{register = [[0, 1], [1, 0], [2, 0]]")
    assert Layout.from_spec(B.to_attr(), shape=[64, 16]) == B
    assert B != L
    # Sizes inferred from the bases must be reached (Triton's rule): [2] alone reaches 0 and 2.
    with pytest.raises(ValueError, match="surjective"):
        Layout.from_bases({"register": [[2]]}, ["dim0"])


def test_compose_invert_pseudoinvert_on_every_input():
    rng = random.Random(1)
    for _ in range(30):
        a = random_layout(rng, {"register": 2, "lane": 3}, {"x": 3, "y": 2})
        b = random_layout(rng, {"x": 3, "y": 2}, {"dim0": 4})
        c = a.compose(b)
        for p in inputs(a):
            assert c.apply(p) == xor_apply(b, xor_apply(a, p))
        if a.is_invertible():
            inv = a.invert()
            for p in inputs(a):
                assert xor_apply(inv, xor_apply(a, p)) == {**dict.fromkeys(a.in_dims, 0), **p}
        if a.is_surjective():
            pinv = a.pseudoinvert()
            for q in inputs(pinv):
                assert xor_apply(a, xor_apply(pinv, q)) == q


def test_invert_and_compose_is_a_conversion():
    rng = random.Random(2)
    found = 0
    for _ in range(60):
        src = random_layout(rng, {"register": 2, "lane": 3}, {"dim0": 3, "dim1": 2})
        dst = random_layout(rng, {"register": 2, "lane": 3}, {"dim0": 3, "dim1": 2})
        if not dst.is_invertible():
            continue
        found += 1
        conv = src.invert_and_compose(dst)
        for p in inputs(src):
            assert xor_apply(dst, conv.apply(p)) == xor_apply(src, p)
    assert found > 5


def test_product_and_reshapes():
    a = Layout.from_bases({"register": [[1], [2]]}, {"dim0": 4})
    b = Layout.from_bases({"lane": [[1]]}, {"dim0": 2})
    p = a * b
    assert p.in_dims == {"register": 4, "lane": 2}
    assert p.out_dims == {"dim0": 8}
    assert [p.apply(register=r, lane=l)["dim0"] for l in range(2) for r in range(4)] == list(range(8))
    L = Layout.from_spec(BLOCKED, shape=[64, 16])
    flat = L.flatten_outs()
    assert flat.out_dims == {"dim0": 1024}
    assert flat.reshape_outs({"dim0": 64, "dim1": 16}) == L
    t = L.transpose_outs(["dim1", "dim0"])
    assert t.apply(lane=5) == {"dim1": L.apply(lane=5)["dim1"], "dim0": L.apply(lane=5)["dim0"]}
    sub = L.sublayout(["lane"], ["dim0"])
    assert sub.bases == {"lane": [[0], [0], [4], [8], [16]]}
    assert L.free_variable_masks() == {"register": 0, "lane": 0, "warp": 0, "block": 0}
    assert L.num_consecutive_in_out() == 1


def test_errors_are_value_errors_with_the_cli_message():
    with pytest.raises(ValueError, match="not a power of two"):
        Layout.from_spec(BLOCKED, shape=[48, 16])
    a = Layout.from_bases({"register": [[1], [2]]}, {"dim0": 4})
    with pytest.raises(ValueError):
        a.compose(a.rename_out_dim("dim0", "other"))
    with pytest.raises(ValueError, match="not input dims"):
        a.apply(lane=1)
    with pytest.raises(ValueError, match="carries"):
        Layout.from_cute("(4,4):(1,2)")


def test_cute_swizzle_equals_nvmma_shared():
    cute = Layout.from_cute("Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)")
    nvmma = Layout.from_spec("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                             "elementBitWidth = 16}>", shape=[8, 64])
    assert cute == nvmma
    forward = Layout.from_cute("Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)", forward=True)
    # CuTe's formula, here: byte address = 2 * (64 r + c); bits 4..6 ^= bits 7..9.
    for r in range(8):
        for c in range(64):
            byte = 2 * (64 * r + c)
            swizzled = byte ^ ((byte >> 3) & (0b111 << 4))
            assert forward.apply(dim0=r, dim1=c) == {"offset": swizzled // 2}


def test_triton_version_keyword():
    """triton= picks the release whose semantics an attribute has (docs/triton-versions.md)."""
    assert llcheck.TRITON_VERSIONS == ("3.6", "3.9")
    tiny = [2, 4]  # sizePerThread [4, 2] is larger: 3.6 keeps a broadcast register, 3.9 drops it
    assert Layout.from_spec(BLOCKED, shape=tiny, triton="3.6").bases["register"] == \
        [[0, 1], [1, 0], [0, 0]]
    assert Layout.from_spec(BLOCKED, shape=tiny, triton="3.9.0").bases["register"] == \
        [[0, 1], [1, 0]]
    assert Layout.from_spec(BLOCKED, shape=tiny) == Layout.from_spec(BLOCKED, shape=tiny,
                                                                     triton="3.9")
    assert llcheck.layout(BLOCKED, shape=tiny, triton="3.6").bases["register"][-1] == [0, 0]
    with pytest.raises(ValueError, match=r"unknown Triton version '3\.7'; supported: 3\.6, 3\.9"):
        Layout.from_spec(BLOCKED, shape=tiny, triton="3.7")
    # invertAndCompose's identity dims: equal warps that repeat a register of outer.
    a = Layout.from_bases({"register": [[0, 1], [2, 0]], "warp": [[1, 0]]}, {"dim0": 4, "dim1": 2})
    b = Layout.from_bases({"register": [[1, 0], [0, 1], [2, 0]], "warp": [[1, 0]]},
                          {"dim0": 4, "dim1": 2})
    assert a.invert_and_compose(b, triton="3.6").bases["warp"] == [[0, 1]]
    assert a.invert_and_compose(b).bases["warp"] == [[1, 0]]
