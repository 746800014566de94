"""llcheck.report: the conformance report of a Triton kernel, as `llcheck report` writes it.

Nothing of the report is computed here: the kernel's TTGIR (and its SASS or cubin) is written
into a temporary folder, the llcheck command line reports on it (docs/report.md) and its
report.json is returned, parsed by the json module. llcheck.triton uses the same runner for the
report of every kernel a program compiles."""

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile

from . import _cli, _core

# `llcheck report`'s flags (cli/ReportCommand.cpp): True passes them. Every other option of the
# command takes a value, passed as given; an option it does not have is its own error (exit 2).
_FLAGS = ("no_z3", "no_sass")
# Its options that name a file: made absolute, since the command runs in the temporary folder.
_PATHS = ("oracle", "cuobjdump")
# Set by the runner itself: the output folder, and no progress or summary line.
_RESERVED = ("out", "quiet")

_ERROR = "llcheck: error: "


class ReportError(ValueError):
    """`llcheck report` refused its input (exit status 2). The message is its one-line error,
    without the "llcheck: error: " it starts with; `returncode` is 2."""

    def __init__(self, message, returncode=2):
        super().__init__(message)
        self.returncode = returncode


def find_cli():
    """The llcheck command line, as an absolute path: $LLCHECK, else the one this package carries
    (llcheck/bin/llcheck, which `pip install .` installs), else `llcheck` on PATH."""
    named = os.environ.get("LLCHECK")
    if named:
        found = shutil.which(named)
        if not found:
            raise RuntimeError(f"LLCHECK={named}: not an executable file (LLCHECK names the "
                               "llcheck command line, e.g. build/cli/llcheck)")
        return os.path.abspath(found)
    carried = _cli.executable()
    if carried:
        return carried
    found = shutil.which("llcheck")
    if not found:
        raise RuntimeError("the llcheck command line was not found: set LLCHECK to it (e.g. "
                           "LLCHECK=build/cli/llcheck) or put llcheck on PATH")
    return os.path.abspath(found)


def check_options(options):
    """Options that report() sets itself are refused before anything runs."""
    for key in _RESERVED:
        if key in options:
            raise TypeError(f"report option '{key}': report() sets --{key} itself")


def cli_arguments(options):
    """`llcheck report` options from keywords: no_z3=True is --no-z3, prover_timeout=1000 is
    --prover-timeout 1000; None leaves an option out."""
    check_options(options)
    args = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None or (key in _FLAGS and value is False):
            continue
        if key in _FLAGS:
            if value is not True:
                raise TypeError(f"report option {key}={value!r}: {flag} is a flag (True or False)")
            args.append(flag)
        elif isinstance(value, bool):
            # A boolean for an option that takes a value would silently mean nothing (z3=False is
            # not --no-z3): the flags are named.
            raise TypeError(f"report option {key}={value!r}: llcheck report's flags are "
                            f"{', '.join(_FLAGS)}; {flag} is not one of them")
        else:
            value = os.fspath(value) if hasattr(value, "__fspath__") else str(value)
            args += [flag, os.path.abspath(value) if key in _PATHS else value]
    return args


def version_of(text):
    """Triton's major.minor of a version string ("3.9.0+git1234" -> "3.9"), checked to be one
    whose semantics llcheck follows."""
    major_minor = ".".join(str(text).split(".")[:2])
    supported = _core.triton_versions()
    if major_minor not in supported:
        raise ValueError(f"Triton {text}: llcheck follows Triton {', '.join(supported)}; pass "
                         f"triton='{supported[-1]}' (or another) to read its TTGIR as that one's")
    return major_minor


def installed_triton():
    """The version of the Triton this Python has (imported or not; None without one)."""
    module = sys.modules.get("triton")
    if module is not None and getattr(module, "__version__", None):
        return module.__version__
    # Not imported: ask the installed distributions (Triton comes as "triton" and, in PyTorch's
    # builds, under other names) without importing it.
    for dist in importlib.metadata.packages_distributions().get("triton", []):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def triton_cuobjdump():
    """The cuobjdump Triton itself disassembles its cubins with (knobs.nvidia.cuobjdump:
    $TRITON_CUOBJDUMP_PATH, else the one it bundles), or None."""
    module = sys.modules.get("triton")
    try:
        return module.knobs.nvidia.cuobjdump.path
    except Exception:  # no Triton, an AMD-only build, or no cuobjdump: the CLI's own search
        return None


def with_cuobjdump(options, known=None):
    """A cubin from Triton is disassembled with Triton's own cuobjdump (the one that matches its
    ptxas; `known` where Triton is not imported here), unless cuobjdump= or $CUOBJDUMP names one:
    the command line's default search (PATH, then /usr/local/cuda/bin) misses the one Triton
    bundles."""
    if options.get("cuobjdump") is not None or os.environ.get("CUOBJDUMP"):
        return options
    path = triton_cuobjdump() or known
    return dict(options, cuobjdump=path) if path else options


def failure(proc):
    """The exception for an exit status other than 0 (no findings) or 1 (findings)."""
    lines = [l for l in proc.stderr.splitlines() if l.startswith(_ERROR)]
    if proc.returncode == 2 and lines:
        return ReportError(lines[-1][len(_ERROR):])
    said = proc.stderr.strip() or "nothing on stderr"
    if proc.returncode < 0:
        return RuntimeError(f"llcheck report was killed by signal {-proc.returncode}: {said}")
    return RuntimeError(f"llcheck report exited with status {proc.returncode}: {said}")


def run(inputs, out, cwd, triton=None, hardware=None, options=None, cli=None):
    """`llcheck report INPUT... --out OUT --quiet` run in the folder cwd (inputs and out relative
    to it); report.json as a dict. Exit status 2 is a ReportError with the command's line."""
    args = [cli or find_cli(), "report", *inputs, "--out", out, "--quiet"]
    if triton is not None:
        args += ["--triton", str(triton)]
    if hardware is not None:
        args += ["--hardware", str(hardware)]
    args += cli_arguments(options or {})
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors="replace")
    if proc.returncode not in (0, 1):
        raise failure(proc)
    with open(os.path.join(cwd, out, "report.json"), encoding="utf-8") as f:
        return json.load(f)


def write(path, content):
    """A file of text (UTF-8) or bytes."""
    if isinstance(content, bytes):
        with open(path, "wb") as f:
            f.write(content)
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)


def kernel_files(kernel):
    """{file name: text or bytes} to report on: the TTGIR as k.ttgir, and beside it the SASS as
    k.sass or else the cubin as k.cubin, where the kernel has them."""
    if isinstance(kernel, str):
        return {"k.ttgir": kernel}
    asm = getattr(kernel, "asm", None)
    if asm is None:
        raise TypeError("report() takes a Triton CompiledKernel or TTGIR text, not "
                        f"{type(kernel).__name__}")
    # dict.get and `in`, not asm["sass"]: Triton's AsmDict would disassemble the cubin itself.
    ttgir = asm.get("ttgir")
    if ttgir is None:
        raise ValueError(f"kernel {getattr(kernel, 'name', '?')}: no TTGIR (asm['ttgir']); Triton "
                         "keeps only the binary with TRITON_STORE_BINARY_ONLY=1")
    files = {"k.ttgir": ttgir}
    if "sass" in asm:
        files["k.sass"] = asm["sass"]
    elif "cubin" in asm:
        files["k.cubin"] = asm["cubin"]
    return files


def report(kernel, *, triton=None, hardware=None, **options):
    """`llcheck report` of one kernel, as a dict: report.json (docs/report.md).

    kernel: a Triton CompiledKernel (its asm["ttgir"], with asm["sass"] or asm["cubin"] when it
    has them) or TTGIR text. triton: the release whose semantics the TTGIR has ("3.6", "3.9");
    default the kernel's own (metadata.triton_version), for text the installed Triton's, and
    without one the command line's default (the newest). hardware: --hardware (sm80, sm90), the
    GPU the kernel runs on where it is not its target's; default none, so the bank model is the
    kernel's target's (the module's ttg.target, which Triton writes from it). options: the
    command's other options, with underscores for dashes (no_z3=True, prover_timeout=1000,
    arch="sm80", oracle=PATH, no_sass=True, cuobjdump=PATH, cuobjdump_timeout=60, jobs=2).

    Exit status 2 (bad input) is a ReportError (a ValueError) carrying the command's one-line
    error; the command itself is find_cli()'s (a RuntimeError without one)."""
    check_options(options)
    files = kernel_files(kernel)
    if triton is None:
        metadata = getattr(kernel, "metadata", None)
        written_by = getattr(metadata, "triton_version", None) or installed_triton()
        triton = None if written_by is None else version_of(written_by)
    if "k.cubin" in files:
        options = with_cuobjdump(options)
    cli = find_cli()
    with tempfile.TemporaryDirectory(prefix="llcheck-report-") as tmp:
        for name, content in files.items():
            write(os.path.join(tmp, name), content)
        return run(["k.ttgir"], "out", tmp, triton, hardware, options, cli)
