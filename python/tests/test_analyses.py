"""verify, convert, bank_conflicts and gather from Python: plain dicts, equal to what the command
line prints with --format json (when $LLCHECK names the binary), and consistent with the algebra."""
import json
import os
import subprocess

import pytest

import llcheck
from llcheck import Layout

BLOCKED = ("#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], "
           "warpsPerCTA = [2, 2], order = [1, 0]}>")
MMA = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
SHARED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"


def cli(*args):
    exe = os.environ.get("LLCHECK")
    if not exe:
        pytest.skip("$LLCHECK does not name the llcheck binary")
    exe = os.path.abspath(exe)
    r = subprocess.run([exe, *args, "--format", "json"], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_verify_is_plain_data_and_matches_the_algebra():
    v = llcheck.verify(BLOCKED, shape=[64, 16])
    assert isinstance(v, dict)
    props = v["properties"]
    assert props["invertible"]["holds"] is True
    assert "enumeration" in props["invertible"]["by"]
    broadcast = Layout.from_bases({"register": [[1]], "lane": [[0], [2]]}, {"dim0": 4})
    v = llcheck.verify(broadcast)
    assert v["properties"]["injective"]["holds"] is False
    assert v["properties"]["injective"]["counterexample"] is not None


def without_times(j):
    """A report without the milliseconds each proof took (they differ from run to run)."""
    if isinstance(j, dict):
        return {k: without_times(v) for k, v in j.items() if k != "ms"}
    if isinstance(j, list):
        return [without_times(v) for v in j]
    return j


def test_verify_equals_cli_without_z3():
    got = llcheck.verify(BLOCKED, shape=[64, 16], z3=False)
    want = cli("verify", BLOCKED, "--shape", "64x16", "--no-z3")
    want.pop("source", None)
    assert got == want


def test_verify_proves_with_z3_as_the_cli_does():
    got = llcheck.verify(BLOCKED, shape=[64, 16])
    assert "z3" in got["properties"]["invertible"]["by"]
    assert got["properties"]["invertible"]["proof"]["result"] == "proven"
    want = cli("verify", BLOCKED, "--shape", "64x16")
    want.pop("source", None)
    assert without_times(got) == without_times(want)


def test_convert_and_bank_conflicts_equal_cli():
    got = llcheck.convert(BLOCKED, MMA, dtype="f16", shape=[32, 16], z3=False)
    assert got["kind"] in ("shared_memory", "warp_shuffle", "register_permutation", "no_op")
    want = cli("convert", BLOCKED, MMA, "--shape", "32x16", "--dtype", "f16", "--no-z3")
    assert got == want
    proven = llcheck.convert(BLOCKED, MMA, dtype="f16", shape=[32, 16])
    assert any("z3" in p["by"] for p in proven["properties"].values())
    assert without_times(proven) == without_times(
        cli("convert", BLOCKED, MMA, "--shape", "32x16", "--dtype", "f16"))
    bc = llcheck.bank_conflicts(BLOCKED, SHARED, dtype="f16", shape=[64, 16])
    assert bc["store"]["wavefronts"] >= bc["store"]["ideal_wavefronts"]
    assert bc == cli("bank-conflicts", BLOCKED, SHARED, "--shape", "64x16", "--dtype", "f16")


def test_coalescing_equals_cli_without_z3():
    got = llcheck.coalescing(BLOCKED, dtype="f16", shape=[64, 16], z3=False)
    assert got["sectors"] >= got["ideal_sectors"]
    assert got == cli("coalescing", BLOCKED, "--shape", "64x16", "--dtype", "f16", "--no-z3")
    col = llcheck.coalescing(BLOCKED, dtype="f32", shape=[64, 16], strides=[1, 64], base_alignment=16,
                             z3=False)
    assert col == cli("coalescing", BLOCKED, "--shape", "64x16", "--dtype", "f32", "--strides", "1,64",
                      "--base-alignment", "16", "--no-z3")


def test_coalescing_proves_with_z3_as_the_cli_does():
    got = llcheck.coalescing(BLOCKED, dtype="f16", shape=[64, 16])
    assert got["proof"]["sectors_per_request"]["result"] == "proven"
    assert without_times(got) == without_times(
        cli("coalescing", BLOCKED, "--shape", "64x16", "--dtype", "f16"))
    # Strides that are not F2-linear are counted lane by lane: nothing for Z3 to prove, said so.
    odd = llcheck.coalescing(BLOCKED, dtype="f16", shape=[64, 16], strides=[17, 1])
    assert odd["proof"]["sectors_per_request"] is None and "not F2-linear" in odd["proof"]["why"]
    with pytest.raises(ValueError, match="strides"):
        llcheck.coalescing(BLOCKED, dtype="f16", shape=[64, 16], strides=[1])


def test_gather_and_errors():
    g = llcheck.gather(BLOCKED, 1, shape=[64, 16])
    assert isinstance(g, dict)
    assert g == cli("gather", BLOCKED, "--axis", "1", "--shape", "64x16")
    with pytest.raises(ValueError, match="dtype"):
        llcheck.convert(BLOCKED, MMA, dtype="f17", shape=[32, 16])
