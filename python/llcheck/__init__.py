"""llcheck: GPU tensor layouts as linear maps over F2, as Triton uses them.

The algebra and the analyses are llcheck's C++ core (llcheck._core); this module gives them
Python shapes: dims as dicts, results as the plain dicts and lists the command line prints with
``--format json``.

    >>> import llcheck
    >>> L = llcheck.Layout.from_spec(
    ...     "#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], "
    ...     "warpsPerCTA = [2, 2], order = [1, 0]}>", shape=[64, 16])
    >>> L.is_invertible()
    True
    >>> L.apply(register=1, lane=4)
    {'dim0': 4, 'dim1': 1}

A layout is made from bases (``Layout.from_bases``), from anything the command line takes as a
SPEC (``Layout.from_spec``: an attribute, a Layout JSON or Triton-printed file, ``cute:...``),
from Layout JSON (``Layout.from_json``), or from a Gluon layout object (``Layout.from_gluon``,
read by its fields; Triton need not be installed). Errors are ``ValueError`` with the command
line's one-line message.

Wherever an encoding attribute is read, ``triton="3.6"`` or ``"3.9"`` (any patch release) picks
whose semantics it has, as ``--triton`` does on the command line (docs/triton-versions.md);
the default, None, is the newest (``TRITON_VERSIONS[-1]``).

``report(kernel)`` is the conformance report of a Triton kernel (a CompiledKernel or TTGIR text),
made by the llcheck command line ($LLCHECK, else the one the package carries, else llcheck on
PATH) and returned as its report.json; ``llcheck.triton.watch(DIR)``, or
``LLCHECK_REPORT_DIR=DIR`` in the environment, reports every kernel a program compiles
(llcheck.triton).
"""

import json as _json

try:
    from . import _core
except ImportError as _error:
    # A wheel's module finds the z3-solver wheel's libz3 beside llcheck (site-packages/z3/lib);
    # where pip put z3 elsewhere, the one Python finds is loaded first (llcheck/_cli.py).
    from ._cli import z3_library_dir as _z3_library_dir

    if "libz3" not in str(_error) or _z3_library_dir() is None:
        raise
    import ctypes as _ctypes
    import os as _os

    _ctypes.CDLL(_os.path.join(_z3_library_dir(), "libz3.so"), mode=_ctypes.RTLD_GLOBAL)
    from . import _core
from . import triton
from ._report import ReportError, report
from .gluon import gluon_to_attr

__all__ = ["Layout", "layout", "verify", "convert", "bank_conflicts", "coalescing", "gather",
           "gluon_to_attr", "report", "ReportError", "triton", "TRITON_VERSIONS"]
__version__ = "0.1.0"

#: The Triton releases whose semantics llcheck follows, oldest first; the last is the default.
TRITON_VERSIONS = tuple(_core.triton_versions())


def _loads(text):
    return _json.loads(text)


def _version(triton):
    return None if triton is None else str(triton)


class Layout:
    """A linear layout: labelled input dims -> labelled output dims, minor to major."""

    __slots__ = ("_l",)

    def __init__(self, core):
        if not isinstance(core, _core.Layout):
            raise TypeError("use Layout.from_bases, from_spec, from_json, from_gluon or from_cute")
        self._l = core

    # ---- construction -----------------------------------------------------------------------
    @classmethod
    def from_bases(cls, ins, outs, require_surjective=True):
        """ins: {in dim: [[out values] per basis]} (insertion order is the dim order);
        outs: {out dim: size}, or a list of out dim names to infer each size (as Triton's
        LinearLayout(bases, outDimNames) does, which requires the layout to be surjective)."""
        ins = [(str(k), [list(map(int, b)) for b in v]) for k, v in dict(ins).items()]
        if isinstance(outs, dict):
            outs = [(str(k), int(v)) for k, v in outs.items()]
            return cls(_core.Layout.from_bases(ins, outs, bool(require_surjective)))
        return cls(_core.Layout.from_bases_inferred(ins, [str(o) for o in outs]))

    @classmethod
    def from_spec(cls, spec, shape=None, num_warps=None, threads_per_warp=None, triton=None):
        """Anything `llcheck layout SPEC` reads: an attribute string, a file, or `cute:...`;
        an attribute means what Triton `triton` computes (default: the newest)."""
        shape = None if shape is None else [int(s) for s in shape]
        triton = None if triton is None else str(triton)
        return cls(_core.Layout.from_spec(str(spec), shape, num_warps, threads_per_warp, triton))

    @classmethod
    def from_json(cls, j):
        """Layout JSON v1, as a dict or as text."""
        return cls(_core.Layout.from_json(j if isinstance(j, str) else _json.dumps(j)))

    @classmethod
    def from_cute(cls, text, forward=False):
        """A CuTe layout or swizzle (`Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)`): by default in
        Triton's shared-memory direction (offset, block -> dim0, ...), with forward=True in
        CuTe's (dim0, ... -> offset)."""
        return cls(_core.Layout.from_cute(str(text), bool(forward)))

    @classmethod
    def from_gluon(cls, gluon_layout, shape=None, num_warps=None, threads_per_warp=None,
                   triton=None):
        """A Gluon layout object (triton.experimental.gluon.language), read by its fields."""
        if shape is None:
            shape = getattr(gluon_layout, "shape", None)
        if shape is None:
            raise ValueError(f"{type(gluon_layout).__name__} needs a shape to be laid over")
        return cls.from_spec(gluon_to_attr(gluon_layout), shape, num_warps, threads_per_warp,
                             triton)

    # ---- what it is ---------------------------------------------------------------------------
    @property
    def in_dims(self):
        return dict(self._l.in_dims)

    @property
    def out_dims(self):
        return dict(self._l.out_dims)

    @property
    def bases(self):
        return {name: [list(b) for b in bases] for name, bases in self._l.bases}

    @property
    def padding(self):
        """#ttg.padded_shared's (interval, pad) pairs; empty for every other layout."""
        return [tuple(p) for p in self._l.padding]

    def apply(self, point=None, **dims):
        """The output point of an input point given as a dict and/or keywords (missing dims 0)."""
        point = dict(point or {}, **dims)
        full = [(d, int(point.pop(d, 0))) for d in self.in_dims]
        if point:
            raise ValueError(f"not input dims of this layout: {sorted(point)}")
        return dict(self._l.apply(full))

    def to_json(self):
        return _loads(self._l.to_json())

    def to_attr(self):
        """The `#ttg.linear` (or `#ttg.generic_linear`) attribute holding this layout."""
        return self._l.to_attr()

    def __str__(self):
        return str(self._l)

    def __repr__(self):
        return f"Layout({self.to_json()!r})"

    def __eq__(self, other):
        return isinstance(other, Layout) and self._l == other._l

    def __hash__(self):
        return hash(self._l)

    def rank(self):
        return self._l.rank()

    def is_injective(self):
        return self._l.is_injective()

    def is_surjective(self):
        return self._l.is_surjective()

    def is_invertible(self):
        return self._l.is_invertible()

    def free_variable_masks(self):
        return dict(self._l.free_variable_masks())

    def num_consecutive_in_out(self):
        return self._l.num_consecutive_in_out()

    # ---- the algebra (each returns a new Layout) ------------------------------------------------
    def compose(self, outer):
        """outer(self(x)): self's out dims are outer's in dims."""
        return Layout(self._l.compose(outer._l))

    def invert_and_compose(self, outer, triton=None):
        """outer^-1 o self, as Triton's invertAndCompose (outer may be non-injective; which
        solution it picks then is Triton `triton`'s rule, default the newest)."""
        return Layout(self._l.invert_and_compose(outer._l, _version(triton)))

    def invert(self, triton=None):
        return Layout(self._l.invert(_version(triton)))

    def pseudoinvert(self, triton=None):
        return Layout(self._l.pseudoinvert(_version(triton)))

    def product(self, outer):
        """Triton's operator*: self inner, outer outer."""
        return Layout(self._l.product(outer._l))

    __mul__ = product

    def concat_ins(self, other):
        return Layout(self._l.concat_ins(other._l))

    def concat_outs(self, other):
        return Layout(self._l.concat_outs(other._l))

    def sublayout(self, in_dims, out_dims):
        return Layout(self._l.sublayout(list(in_dims), list(out_dims)))

    def transpose_ins(self, order):
        return Layout(self._l.transpose_ins(list(order)))

    def transpose_outs(self, order):
        return Layout(self._l.transpose_outs(list(order)))

    def reshape_ins(self, dims):
        return Layout(self._l.reshape_ins([(str(k), int(v)) for k, v in dict(dims).items()]))

    def reshape_outs(self, dims):
        return Layout(self._l.reshape_outs([(str(k), int(v)) for k, v in dict(dims).items()]))

    def flatten_ins(self):
        return Layout(self._l.flatten_ins())

    def flatten_outs(self):
        return Layout(self._l.flatten_outs())

    def resize_in_dim(self, dim, size):
        return Layout(self._l.resize_in_dim(dim, int(size)))

    def resize_out_dim(self, dim, size):
        return Layout(self._l.resize_out_dim(dim, int(size)))

    def rename_in_dim(self, old, new):
        return Layout(self._l.rename_in_dim(old, new))

    def rename_out_dim(self, old, new):
        return Layout(self._l.rename_out_dim(old, new))

    def remove_zero_bases_along_dim(self, dim):
        return Layout(self._l.remove_zero_bases_along_dim(dim))

    def quotient(self, dims):
        return Layout(self._l.quotient(list(dims)))


def layout(x, shape=None, num_warps=None, threads_per_warp=None, triton=None):
    """A Layout from a Layout, a SPEC string, a Layout JSON dict or a Gluon layout object."""
    if isinstance(x, Layout):
        return x
    if isinstance(x, str):
        return Layout.from_spec(x, shape, num_warps, threads_per_warp, triton)
    if isinstance(x, dict):
        return Layout.from_json(x)
    return Layout.from_gluon(x, shape, num_warps, threads_per_warp, triton)


def verify(x, shape=None, num_warps=None, threads_per_warp=None, require=(),
           max_enumeration_bits=None, triton=None, z3=True, z3_timeout_ms=None):
    """`llcheck verify --format json` for one layout: every property established by the algebra,
    enumeration (up to 2^max_enumeration_bits inputs) and, unless z3=False (`--no-z3`), proven
    by Z3 within z3_timeout_ms per query (`--prover-timeout`); a Z3 timeout is "unknown"."""
    bits = _core.default_max_enumeration_bits() if max_enumeration_bits is None else max_enumeration_bits
    l = layout(x, shape, num_warps, threads_per_warp, triton)
    return _loads(_core.verify(l._l, int(bits), list(require), bool(z3), z3_timeout_ms))


def convert(src, dst, dtype="f16", arch="sm90", shape=None, num_warps=None, threads_per_warp=None,
            triton=None, z3=True, z3_timeout_ms=None):
    """`llcheck convert SRC DST --format json`: the conversion plan as a dict, with the
    properties the command line proves about it (by the algebra and, unless z3=False, Z3)."""
    s = layout(src, shape, num_warps, threads_per_warp, triton)
    d = layout(dst, shape, num_warps, threads_per_warp, triton)
    return _loads(_core.convert(s._l, d._l, dtype, arch, _version(triton), bool(z3),
                                z3_timeout_ms))


def bank_conflicts(reg, shared, dtype="f16", arch="sm90", shape=None, num_warps=None,
                   threads_per_warp=None, triton=None):
    """`llcheck bank-conflicts REG SHARED --format json`: wavefronts and bank conflicts of the
    store and the load, per CTA."""
    r = layout(reg, shape, num_warps, threads_per_warp, triton)
    s = layout(shared, shape, num_warps, threads_per_warp, triton)
    return _loads(_core.bank_conflicts(r._l, s._l, dtype, arch, _version(triton)))


def coalescing(reg, dtype="f16", arch="sm90", shape=None, strides=None, base_alignment=128,
               num_warps=None, threads_per_warp=None, triton=None, z3=True, z3_timeout_ms=None):
    """`llcheck coalescing SPEC --format json`: the global-memory vector width, requests,
    32-byte sectors and 128-byte lines of a warp's load or store, per CTA (docs/coalescing.md),
    with Z3's proof of the sectors per request ("proof"; z3=False: `--no-z3`, none).
    strides: elements between consecutive indices of each dim, dim0 first (default row-major);
    base_alignment: the tensor starts this many bytes past a 128-byte line (128: on one)."""
    r = layout(reg, shape, num_warps, threads_per_warp, triton)
    return _loads(_core.coalescing(r._l, dtype, arch,
                                   None if strides is None else [int(s) for s in strides],
                                   int(base_alignment), bool(z3), z3_timeout_ms))


def gather(x, axis, shape=None, num_warps=None, threads_per_warp=None, triton=None):
    """`llcheck gather SPEC --axis A --format json`."""
    l = layout(x, shape, num_warps, threads_per_warp, triton)
    return _loads(_core.gather(l._l, int(axis)))
