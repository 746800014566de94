"""llcheck.report and llcheck.triton against the llcheck command line, on three kernels like
Triton's tutorials (tutorial_kernels.py) compiled for sm90 without a GPU.

The report is the command line's (its report.json); what is checked here is that the Python side
hands it the kernel's files and options and gives its answer back unchanged: llcheck.report()
equal to `llcheck report` on the same TTGIR and cubin, LLCHECK_REPORT_DIR giving one report of
every kernel a program compiles (in its child processes too), and a bad input the command's own
error. `make test` runs this file with Triton 3.9 (.venv) and Triton 3.6 (.venv-triton-3.6)."""
import json
import os
import re
import subprocess
import sys

import pytest

import llcheck

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["matmul", "softmax", "layer_norm"]


def cli():
    """The command line under test: $LLCHECK (make test sets it), else the package's, else llcheck
    on PATH."""
    return llcheck._report.find_cli()


def need_triton():
    return pytest.importorskip("triton", reason="Triton is not installed in this Python")


def major_minor(version):
    return ".".join(version.split(".")[:2])


def without_timings(j):
    """report.json without its timings, which differ from run to run: "seconds" (of each kernel
    and of the whole report) and "ms" (each Z3 proof's milliseconds)."""
    if isinstance(j, dict):
        return {k: without_timings(v) for k, v in j.items() if k not in ("seconds", "ms")}
    if isinstance(j, list):
        return [without_timings(v) for v in j]
    return j


def renamed(j, old, new):
    """report.json with the input's file name `old` read as `new`: the names of the files
    reported on are the other part that may differ (a kernel's "file", its "sass" "path", an
    early exit's "sass", a scratch op's "location" FILE:LINE, the summary's "worst" "file")."""
    if isinstance(j, dict):
        return {k: renamed(v, old, new) for k, v in j.items()}
    if isinstance(j, list):
        return [renamed(v, old, new) for v in j]
    if isinstance(j, str):
        return re.sub(rf"(?<![\w.-]){re.escape(old)}(?=\.(ttgir|cubin|sass)\b)", new, j)
    return j


@pytest.fixture(scope="module")
def triton_cache(tmp_path_factory):
    """Triton's cache for this module's compilations: its own, so that the first one compiles."""
    need_triton()
    old = os.environ.get("TRITON_CACHE_DIR")
    os.environ["TRITON_CACHE_DIR"] = str(tmp_path_factory.mktemp("triton-cache"))
    yield os.environ["TRITON_CACHE_DIR"]
    if old is None:
        del os.environ["TRITON_CACHE_DIR"]
    else:
        os.environ["TRITON_CACHE_DIR"] = old


@pytest.fixture(scope="module")
def kernels(triton_cache):
    sys.path.insert(0, HERE)
    try:
        import tutorial_kernels
    finally:
        sys.path.remove(HERE)
    return {name: tutorial_kernels.compile_kernel(name) for name in NAMES}


# ---- llcheck.report ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_report_equals_the_clis_report_json(kernels, name, tmp_path):
    import triton

    kernel = kernels[name]
    got = llcheck.report(kernel)

    # The command line itself on the kernel's TTGIR and cubin, under other names, with the
    # Triton version and the cuobjdump (Triton's own) that report() takes by default.
    (tmp_path / "ref.ttgir").write_text(kernel.asm["ttgir"])
    (tmp_path / "ref.cubin").write_bytes(kernel.asm["cubin"])
    version = major_minor(triton.__version__)
    proc = subprocess.run([cli(), "report", "ref.ttgir", "--out", "out", "--quiet", "--triton",
                           version, "--cuobjdump", triton.knobs.nvidia.cuobjdump.path],
                          cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode in (0, 1), proc.stderr
    want = json.loads((tmp_path / "out" / "report.json").read_text())
    assert without_timings(got) == without_timings(renamed(want, "ref", "k"))

    # ... and it is a report of this kernel, read with the installed Triton's semantics, on sm90,
    # with its SASS read from the cubin.
    (k,) = got["kernels"]
    assert got["summary"]["triton"] == version and got["summary"]["files"] == 1
    assert k["file"] == "k.ttgir" and k["target"] == "cuda:90" and k["arch"] == "sm90"
    assert k["layouts"] and k["sass"]["error"] is None
    assert [f["name"] for f in k["sass"]["functions"]] == [kernel.name]


def test_report_takes_the_clis_options(kernels):
    text = kernels["softmax"].asm["ttgir"]
    with_z3 = llcheck.report(text)
    without = llcheck.report(text, no_z3=True, triton="3.6")
    assert with_z3["summary"]["z3"] is True and without["summary"]["z3"] is False
    assert without["summary"]["triton"] == "3.6"
    # Text alone has no cubin beside it: no SASS is read.
    assert with_z3["kernels"][0].get("sass") is None
    on_sm80 = llcheck.report(kernels["softmax"], hardware="sm80")["kernels"][0]
    assert "--hardware" in on_sm80["arch_note"]
    # z3=False is not --no-z3: a boolean for an option that is not a flag is refused.
    with pytest.raises(TypeError, match="no_z3"):
        llcheck.report(text, z3=False)
    with pytest.raises(TypeError, match="out"):
        llcheck.report(text, out="elsewhere")


def test_bad_input_is_the_clis_error(tmp_path):
    text = "this is not TTGIR\n"
    (tmp_path / "k.ttgir").write_text(text)
    proc = subprocess.run([cli(), "report", "k.ttgir", "--out", "out"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 2
    (line,) = proc.stderr.splitlines()
    with pytest.raises(llcheck.ReportError) as e:
        llcheck.report(text)
    assert isinstance(e.value, ValueError) and e.value.returncode == 2
    assert "llcheck: error: " + str(e.value) == line
    assert "not a TTGIR module" in line

    # An option the command does not have is its error too.
    with pytest.raises(llcheck.ReportError, match="--format"):
        llcheck.report(text, format="json")


def test_no_cli_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("LLCHECK", str(tmp_path / "missing"))
    with pytest.raises(RuntimeError, match="LLCHECK=.*missing: not an executable"):
        llcheck.report("module {}")
    monkeypatch.delenv("LLCHECK")
    monkeypatch.setattr(llcheck._cli, "executable", lambda: None)  # as in a source tree
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match="set LLCHECK .* or put llcheck on PATH"):
        llcheck.report("module {}")


# ---- llcheck.triton ---------------------------------------------------------------------------

# The program LLCHECK_REPORT_DIR reports on: the matmul and the softmax (twice: one kernel) in
# its own process, the layer norm in a child process, which adds it to the same report.
PROGRAM = """
import subprocess, sys
sys.path.insert(0, {here!r})
import tutorial_kernels
tutorial_kernels.compile_kernel("matmul")
tutorial_kernels.compile_kernel("softmax")
tutorial_kernels.compile_kernel("softmax")
subprocess.run([sys.executable, tutorial_kernels.__file__, "layer_norm"], check=True)
"""


# A program that only starts another, which compiles the softmax.
LAUNCHER = """
import os, subprocess, sys
subprocess.run([sys.executable, os.path.join({here!r}, "tutorial_kernels.py"), "softmax"],
               check=True)
print("triton" in sys.modules, "llcheck" in sys.modules)
"""


def run_python(code, tmp_path, **env):
    env = dict(os.environ, LLCHECK=cli(), **env)
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


def test_environment_variable_reports_every_kernel_a_program_compiles(tmp_path):
    triton = need_triton()

    out = tmp_path / "report"
    (out / "kernels").mkdir(parents=True)
    (out / "kernels" / "stale-0123456789abcdef.ttgir").write_text("a previous run's kernel")
    env = {"LLCHECK_REPORT_DIR": str(out), "TRITON_CACHE_DIR": str(tmp_path / "cache")}
    program = PROGRAM.format(here=HERE)

    first = run_python(program, tmp_path, **env)
    assert first.returncode == 0, first.stderr
    assert "llcheck: 3 Triton kernels reported" in first.stderr, first.stderr
    report = json.loads((out / "report.json").read_text())
    files = sorted(k["file"] for k in report["kernels"])
    assert [re.sub(r"-[0-9a-f]{16}\.ttgir$", "", f) for f in files] == [
        "kernels/layer_norm_kernel", "kernels/matmul_kernel", "kernels/softmax_kernel"]
    assert report["summary"]["files"] == 3
    assert report["summary"]["triton"] == major_minor(triton.__version__)
    for k in report["kernels"]:
        assert k["sass"]["error"] is None and k["sass"]["functions"], k["file"]
    # DIR/kernels holds what was reported on, each TTGIR with its cubin, and nothing else.
    stems = sorted(f[len("kernels/"):-len(".ttgir")] for f in files)
    assert sorted(os.listdir(out / "kernels")) == sorted(
        [s + ".cubin" for s in stems] + [s + ".ttgir" for s in stems])

    # Again: every kernel a cache hit now, which Triton's listener hears of too.
    second = run_python(program, tmp_path, **env)
    assert second.returncode == 0, second.stderr
    again = json.loads((out / "report.json").read_text())
    assert without_timings(again) == without_timings(report)

    # A program that imports Triton and compiles nothing leaves the report as it was.
    idle = run_python("import triton", tmp_path, **env)
    assert idle.returncode == 0 and "no Triton kernel was compiled" in idle.stderr, idle.stderr
    assert without_timings(json.loads((out / "report.json").read_text())) == without_timings(report)

    # One that does not import Triton does not have it imported for it, and reports what its
    # children compiled: the softmax alone now, whose file is all DIR/kernels holds.
    launcher = run_python(LAUNCHER.format(here=HERE), tmp_path, **env)
    assert launcher.returncode == 0, launcher.stderr
    assert launcher.stdout.split() == ["False", "True"]
    assert "llcheck: 1 Triton kernel reported" in launcher.stderr, launcher.stderr
    (softmax,) = [k for k in report["kernels"] if "softmax" in k["file"]]
    assert without_timings(json.loads((out / "report.json").read_text())["kernels"]) == [
        without_timings(softmax)]
    stem = softmax["file"][len("kernels/"):-len(".ttgir")]
    assert sorted(os.listdir(out / "kernels")) == [stem + ".cubin", stem + ".ttgir"]


def test_watch_reports_while_it_runs_and_hands_the_listener_back(kernels, tmp_path):
    import triton
    import tutorial_kernels

    heard = []

    def earlier(**event):
        heard.append(event["metadata"]["name"])

    triton.knobs.compilation.listener = earlier
    try:
        with llcheck.triton.watch(tmp_path / "out", no_z3=True) as w:
            assert triton.knobs.compilation.listener is not earlier
            tutorial_kernels.compile_kernel("softmax")  # a cache hit: kernels compiled it
            tutorial_kernels.compile_kernel("layer_norm")
        assert triton.knobs.compilation.listener is earlier
        assert heard == ["softmax_kernel", "layer_norm_kernel"]
        assert w.report["summary"]["files"] == 2 and w.report["summary"]["z3"] is False
        assert w.report == json.loads((tmp_path / "out" / "report.json").read_text())
        tutorial_kernels.compile_kernel("matmul")  # stopped: not kept
        assert len(w.kernels) == 2 and not w.active
    finally:
        triton.knobs.compilation.listener = None
