"""llcheck.triton: one conformance report of every kernel a Triton program compiles.

    with llcheck.triton.watch("llcheck-report"):     # or w = watch(...) ... w.stop()
        ...                                          # compile or launch Triton kernels

or, with no change to the program, `LLCHECK_REPORT_DIR=llcheck-report python program.py`: the
file llcheck_report_dir.pth, which `pip install .` puts into site-packages, imports
llcheck._report_dir when Python starts with the variable set, and that starts a watch.

The hook is Triton's own, triton.knobs.compilation.listener: triton.compile calls it after every
compilation and every cache hit, with the same keywords in Triton 3.6 and 3.9 (src, metadata,
metadata_group, times, cache_hit). Each kernel (once per Triton hash) has its TTGIR and cubin
copied out of Triton's cache into DIR/kernels/ when it is compiled, so that a cache the program
removes before it ends does not matter; when the watch stops (at the latest at exit),
`llcheck report DIR/kernels --out DIR` reports on all of them (llcheck._report runs it)."""

import atexit
import importlib
import importlib.abc
import os
import re
import shutil
import sys
import threading
import time

from . import _report

__all__ = ["watch", "Watch", "REPORT_DIR_VARIABLE"]

#: The environment variable that starts a watch when Python starts (llcheck_report_dir.pth).
REPORT_DIR_VARIABLE = "LLCHECK_REPORT_DIR"
#: The folder inside DIR that holds the kernels reported on.
KERNELS = "kernels"
# "RUN DIR", set by the process that owns a run started from LLCHECK_REPORT_DIR: its children
# inherit LLCHECK_REPORT_DIR too, and they add their kernels to that run (one report of the whole
# program) instead of each writing a report of its own over it.
_RUN_VARIABLE = "_LLCHECK_REPORT_RUN"
# DIR/kernels/.llcheck-run-RUN: one line "STEM<TAB>TRITON VERSION<TAB>CUOBJDUMP" per kernel kept
# in that run, by whichever process compiled it (appended whole, so processes do not interleave);
# CUOBJDUMP is the compiling Triton's, for a report written where Triton was never imported.
_MANIFEST = ".llcheck-run-"
_SUFFIXES = (".ttgir", ".sass", ".cubin")


def _say(message):
    print(f"llcheck: {message}", file=sys.stderr, flush=True)


class Watch:
    """Keeps every kernel Triton compiles while it is started, and reports on them when stopped.

    out_dir: the report's folder (the CLI's report.json, report.md, junit.xml, report.html), with
    the kernels in out_dir/kernels/ (NAME-HASH.ttgir, and NAME-HASH.cubin beside it; what a
    previous report left there is removed when this one is written). triton, hardware and
    options are report()'s (llcheck.report). run: the run of another process this one adds its
    kernels to (set from the environment; such a watch writes no report)."""

    def __init__(self, out_dir, *, triton=None, hardware=None, run=None, **options):
        _report.cli_arguments(options)  # a bad option fails now, not when the program ends
        self.out_dir = os.path.abspath(os.fspath(out_dir))
        self.kernels_dir = os.path.join(self.out_dir, KERNELS)
        self.triton = triton
        self.hardware = hardware
        self.options = options
        self.owner = run is None
        self.run = run or f"{os.getpid()}-{time.time_ns()}"
        # Found now: a program should not run to its end to learn that no report can be written.
        self._cli = _report.find_cli() if self.owner else None
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._hashes = set()
        self._knobs = None
        self._listener = None
        self._previous = None
        self._stopped = False
        #: The stems (NAME-HASH) of the kernels this process kept, in order.
        self.kernels = []
        #: The report written by stop() (report.json as a dict), or None.
        self.report = None

    @property
    def active(self):
        return self._listener is not None

    def start(self, knobs=None):
        """Install the listener (after any already set, which is still called); returns self."""
        if self._listener is not None:
            return self
        if knobs is None:
            try:
                import triton.knobs as knobs
            except ImportError as e:
                raise ImportError(f"llcheck.triton needs Triton (triton.knobs): {e}") from e
        os.makedirs(self.kernels_dir, exist_ok=True)
        previous = knobs.compilation.listener

        def listener(**event):
            # Keywords, not a fixed signature: what Triton passes is handed on as it came.
            if self._listener is listener:
                self._keep(event.get("metadata") or {}, event.get("metadata_group") or {})
            if previous is not None:
                previous(**event)

        knobs.compilation.listener = listener
        self._knobs, self._listener, self._previous = knobs, listener, previous
        self._stopped = False
        self._stop_at_exit()
        return self

    def _stop_at_exit(self):
        atexit.unregister(self._at_exit)  # once, however often it is asked for
        atexit.register(self._at_exit)

    def stop(self):
        """Stop keeping kernels and write the report: report.json as a dict, or None where no
        kernel was compiled (nothing is written then) or the run is another process's."""
        if self._stopped:
            return self.report
        self._stopped = True
        knobs, listener = self._knobs, self._listener
        self._listener = None
        # Another listener set after this one keeps it in its chain; it only passes events on now.
        if listener is not None and knobs.compilation.listener is listener:
            knobs.compilation.listener = self._previous
        atexit.unregister(self._at_exit)
        if not self.owner or os.getpid() != self._pid:  # a child, or a fork of the owner
            return None
        self.report = self._write()
        return self.report

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # ---- keeping the kernels ---------------------------------------------------------------
    def _keep(self, metadata, group):
        name = str(metadata.get("name") or "kernel")
        digest = str(metadata.get("hash") or "")
        with self._lock:
            if not digest or digest in self._hashes:
                return
            self._hashes.add(digest)
        try:
            paths = {os.path.splitext(k)[1]: p for k, p in group.items()}
            if ".ttgir" not in paths:
                _say(f"kernel {name}: Triton kept no TTGIR of it (TRITON_STORE_BINARY_ONLY=1?); "
                     "it is not in the report")
                return
            stem = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:100] + "-" + digest[:16]
            for ext in (".sass", ".cubin"):
                if ext in paths:
                    self._copy(paths[ext], stem + ext)
                    break
            # The TTGIR last: once it is there, its SASS is beside it.
            self._copy(paths[".ttgir"], stem + ".ttgir")
            cuobjdump = _report.triton_cuobjdump() if ".cubin" in paths else None
            line = f"{stem}\t{metadata.get('triton_version') or ''}\t{cuobjdump or ''}\n"
            with open(os.path.join(self.kernels_dir, _MANIFEST + self.run), "a") as f:
                f.write(line)
            self.kernels.append(stem)
        except Exception as e:  # the program's compilation must not fail for its report
            _say(f"kernel {name}: not kept for the report: {e}")

    def _copy(self, source, name):
        # Under a temporary name, then renamed: a report never reads half a file.
        tmp = os.path.join(self.kernels_dir, f".{name}.{os.getpid()}.tmp")
        shutil.copyfile(source, tmp)
        os.replace(tmp, os.path.join(self.kernels_dir, name))

    # ---- the report ------------------------------------------------------------------------
    def _write(self):
        manifest = os.path.join(self.kernels_dir, _MANIFEST + self.run)
        try:
            with open(manifest) as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            lines = []
        # stem -> [triton version, cuobjdump] ("" where unknown)
        kept = {f[0]: (f[1:] + ["", ""])[:2] for f in (l.split("\t") for l in lines) if f[0]}
        if not kept:
            self._remove(manifest)
            return None
        self._tidy(kept)
        triton = self.triton
        if triton is None:
            written_by = next((v for v, _ in kept.values() if v), None)
            written_by = written_by or _report.installed_triton()
            triton = None if written_by is None else _report.version_of(written_by)
        cuobjdump = next((c for _, c in kept.values() if c), None)
        try:
            return _report.run([KERNELS], ".", self.out_dir, triton, self.hardware,
                               _report.with_cuobjdump(self.options, cuobjdump), self._cli)
        finally:
            self._remove(manifest)

    def _tidy(self, kept):
        """DIR/kernels/ holds this run's kernels only: a previous report's, a manifest of another
        run or a temporary file left by a killed process would be read as this run's."""
        ours = _MANIFEST + self.run
        for entry in os.scandir(self.kernels_dir):
            if not entry.is_file(follow_symlinks=False):
                continue
            stem, ext = os.path.splitext(entry.name)
            stale = (entry.name.startswith(_MANIFEST) and entry.name != ours) or (
                entry.name.startswith(".") and entry.name.endswith(".tmp")) or (
                ext in _SUFFIXES and stem not in kept)
            if stale:
                self._remove(entry.path)

    @staticmethod
    def _remove(path):
        try:
            os.remove(path)
        except FileNotFoundError:
            pass

    def _at_exit(self):
        try:
            report = self.stop()
        except Exception as e:
            _say(f"no report written into {self.out_dir}: {e}")
            return
        if report is not None:
            s = report["summary"]
            _say(f"{s['files']} Triton kernel{'s' if s['files'] != 1 else ''} reported, "
                 f"{s['findings']} finding{'s' if s['findings'] != 1 else ''}: "
                 f"{os.path.join(self.out_dir, 'report.md')}")
        elif self.owner and os.getpid() == self._pid and self._knobs is not None:
            # (A program that never imported Triton is not told so.)
            _say(f"no Triton kernel was compiled: no report written into {self.out_dir}")


def watch(out_dir, *, triton=None, hardware=None, **options):
    """A started Watch: every kernel Triton compiles from now on, reported into out_dir when it
    stops (w.stop(), the end of a `with` block, or the program's exit). triton, hardware and
    options are llcheck.report()'s, and so is the command line that runs
    (llcheck._report.find_cli)."""
    return Watch(out_dir, triton=triton, hardware=hardware, **options).start()


# ---- LLCHECK_REPORT_DIR ---------------------------------------------------------------------

class _AfterImport(importlib.abc.MetaPathFinder):
    """Calls then(module) once the module `name` has been executed, so that a program that
    never imports Triton does not import it either. A lookup that does not import it
    (importlib.util.find_spec, as PyTorch checks for Triton) leaves the finder in place."""

    def __init__(self, name, then):
        self.name = name
        self.then = then

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        execute = loader.exec_module

        def exec_module(module):
            execute(module)
            if self in sys.meta_path:
                sys.meta_path.remove(self)
                try:
                    self.then(module)
                except Exception as e:  # the program goes on, without its report
                    _say(f"{REPORT_DIR_VARIABLE}: no report: {e}")

        try:
            loader.exec_module = exec_module  # this spec's own loader (a finder makes one a spec)
        except AttributeError:
            return spec
        return spec


def _watch_from_environment():
    """The watch LLCHECK_REPORT_DIR asks for (llcheck._report_dir, from the .pth file), started
    when Triton is imported; None without the variable."""
    out = os.environ.get(REPORT_DIR_VARIABLE)
    if not out:
        return None
    out = os.path.abspath(out)
    run_id, _, run_dir = os.environ.get(_RUN_VARIABLE, "").partition(" ")
    run = run_id if run_id and run_dir == out else None
    try:
        w = Watch(out, run=run)
    except Exception as e:
        _say(f"{REPORT_DIR_VARIABLE}={out}: no report: {e}")
        return None
    if run is None:
        os.environ[_RUN_VARIABLE] = f"{w.run} {out}"
        # At exit whether or not this process imports Triton: its children may have.
        w._stop_at_exit()
    module = sys.modules.get("triton")
    if module is not None and hasattr(module, "knobs"):
        w.start(module.knobs)
    else:
        sys.meta_path.insert(0, _AfterImport(
            "triton", lambda _: w.start(importlib.import_module("triton.knobs"))))
    return w
