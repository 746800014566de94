"""Gluon layout objects, read by their fields, against Triton's own printed attributes.

tests/triton_reference/encodings/ records, for every case, the Gluon object's fields ("params"),
and the attribute Triton 3.9 printed for it ("attr"). Each case is rebuilt here as a stand-in
object with the Gluon class's name and fields (Triton not imported), and, where Triton is
installed, as the real Gluon object; both must give the layout of Triton's printed attribute."""
import json
import os

import pytest

import llcheck
from llcheck import Layout

CLASSES = {
    "blocked": "BlockedLayout", "slice": "SliceLayout", "linear": "DistributedLinearLayout",
    "nvidia_mma": "NVMMADistributedLayout", "dot_op": "DotOperandLayout",
    "swizzled_shared": "SwizzledSharedLayout", "nvmma_shared": "NVMMASharedLayout",
    "amd_mfma": "AMDMFMALayout", "amd_wmma": "AMDWMMALayout",
    "shared_linear": "SharedLinearLayout", "padded_shared": "PaddedSharedLayout",
    "tensor_memory": "TensorMemoryLayout",
}
FILES = ["encoding_cases.json", "nvidia_cases.json", "amd_cases.json", "shared_cases.json"]


def stand_in(encoding, params):
    obj = type(CLASSES[encoding], (), {})()
    for k, v in params.items():
        if isinstance(v, dict) and "encoding" in v:
            v = stand_in(v["encoding"], v["args"])
        setattr(obj, k, v)
    return obj


def cases(repo):
    for f in FILES:
        with open(os.path.join(repo, "tests", "triton_reference", "encodings", f)) as fh:
            data = json.load(fh)
        for encoding, cs in data["encodings"].items():
            for c in cs:
                if "attr" in c:
                    yield encoding, c


def triton_layout(c):
    """The layout of the attribute Triton printed, or None where llcheck refuses it (the C++
    tests hold which those are and why)."""
    try:
        return Layout.from_spec(c["attr"], shape=c["shape"])
    except ValueError:
        return None


def test_stand_ins_give_tritons_attribute_layouts(repo):
    checked, per_encoding = 0, {}
    for encoding, c in cases(repo):
        want = triton_layout(c)
        if want is None:
            continue
        got = Layout.from_gluon(stand_in(encoding, c["params"]), shape=c["shape"])
        assert got == want, (c["id"], llcheck.gluon_to_attr(stand_in(encoding, c["params"])),
                             c["attr"])
        checked += 1
        per_encoding[encoding] = per_encoding.get(encoding, 0) + 1
    assert set(per_encoding) == set(CLASSES), per_encoding
    assert checked >= 850


def test_unknown_class_and_missing_field_are_value_errors():
    with pytest.raises(ValueError, match="not a Gluon layout"):
        llcheck.gluon_to_attr(object())
    with pytest.raises(ValueError, match="without the field"):
        llcheck.gluon_to_attr(type("BlockedLayout", (), {})())


def test_real_gluon_objects(repo):
    ttgl = pytest.importorskip("triton.experimental.gluon.language")
    from triton.experimental.gluon.language import amd as ttgl_amd
    from triton.experimental.gluon.language.nvidia import blackwell as ttgl_bw
    modules = [ttgl, ttgl_amd, ttgl_bw]

    def real(encoding, params):
        cls = next(getattr(m, CLASSES[encoding]) for m in modules if hasattr(m, CLASSES[encoding]))
        kwargs = {k: real(v["encoding"], v["args"]) if isinstance(v, dict) and "encoding" in v
                  else (tuple(v) if k == "block" else v) for k, v in params.items()}
        return cls(**kwargs)

    checked = 0
    for encoding, c in cases(repo):
        want = triton_layout(c)
        if want is None:
            continue
        try:
            obj = real(encoding, c["params"])
        except Exception:  # Gluon's own checks reject some recorded parameter sets
            continue
        assert Layout.from_gluon(obj, shape=c["shape"]) == want, (c["id"], repr(obj))
        checked += 1
    assert checked >= 850
