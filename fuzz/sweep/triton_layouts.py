"""Triton's own linear layouts for `llcheck sweep FAMILY --against triton-VERSION`.

llcheck starts this script with the Python of a virtualenv that has Triton (`--python`,
$LLCHECK_PYTHON) and talks to it in JSON lines on stdin/stdout:

  first line out   {"triton": "3.9.0"}, or {"error": why} and exit status 3 when Triton cannot
                   be imported or is not the release asked for (--expect 3.9)
  in               {"id": n, "spec": {"encoding": E, "args": {...}}, "shape": [...]} per
                   encoding (args are the fields of Gluon's layout class for E; a parent is a
                   nested spec), then {"flush": true} to end a batch
  out              per request, in order: {"id": n, "ins": [[dim, bases]...], "outs": [...]}
                   (outs: the tensor sizes for a distributed layout, null for a shared one), or
                   {"id": n, "error": text, "stage": "gluon" | "to_linear_layout" | "abort"};
                   then {"flushed": true}

Each encoding is asked exactly as tests/triton/grid.py asks it (Gluon's layout class, `_to_ir`,
`GluonOpBuilder.to_linear_layout`): nothing about the answer is computed here. A forked child
asks Triton, one encoding at a time, so that a Triton abort (an LLVM fatal error or a failed
assertion, which kills the process) costs one encoding: it is answered {"stage": "abort"} with
what Triton wrote to stderr, and a new child goes on after it.

Every new encoding interns its attributes in the child's copy of the MLIR context, which MLIR
never frees: about 3 KB per distinct encoding (150,000 blocked encodings grew a child by 470 MB
under Triton 3.9), so a sweep of millions would take the machine's memory. A child whose
resident memory passes $LLCHECK_TRITON_CHILD_RSS_MB (default 512; checked every 256 requests)
is replaced by a fresh fork of the helper, whose context never grew. {"flushed": true} carries
"children": how many children the helper has forked so far.
"""

import dataclasses
import json
import os
import resource
import sys
import tempfile

RSS_CHECK_EVERY = 256


def _hello(expect):
    try:
        import triton  # noqa: F401
        import triton._C.libtriton  # noqa: F401
        from triton.experimental.gluon import language  # noqa: F401
    except Exception as e:  # noqa: BLE001 - any import failure means: not this Triton
        return None, f"cannot import Triton's Gluon with {sys.executable}: {type(e).__name__}: {e}"
    version = triton.__version__
    if expect and ".".join(version.split(".")[:2]) != expect:
        return None, f"{sys.executable} has Triton {version}, not {expect}"
    return version, None


def _classes():
    from triton.experimental.gluon import language as ttgl
    from triton.experimental.gluon.language import amd as ttgl_amd
    return {
        "blocked": ttgl.BlockedLayout,
        "slice": ttgl.SliceLayout,
        "nvidia_mma": ttgl.NVMMADistributedLayout,
        "dot_op": ttgl.DotOperandLayout,
        "swizzled_shared": ttgl.SwizzledSharedLayout,
        "nvmma_shared": ttgl.NVMMASharedLayout,
        "amd_mfma": ttgl_amd.AMDMFMALayout,
        "amd_wmma": ttgl_amd.AMDWMMALayout,
    }


SHARED = {"swizzled_shared", "nvmma_shared"}


def _layout(classes, spec):
    cls = classes[spec["encoding"]]
    fields = {f.name for f in dataclasses.fields(cls)}
    kwargs = {}
    for k, v in spec["args"].items():
        if isinstance(v, dict) and "encoding" in v:
            v = _layout(classes, v)
        if k not in fields:
            raise TypeError(f"this Triton's Gluon {cls.__name__} has no field '{k}'")
        kwargs[k] = v
    return cls(**kwargs)


def _error_text(e):
    text = f"{type(e).__name__}: {e}".strip().replace("\n", " ")
    return text[:400]


def _answer(classes, b, req):
    out = {"id": req["id"]}
    try:
        attr = _layout(classes, req["spec"])._to_ir(b)
    except Exception as e:  # noqa: BLE001 - Gluon refused the parameters
        out.update(error=_error_text(e), stage="gluon")
        return out
    try:
        res = b.to_linear_layout(attr, req["shape"])
    except Exception as e:  # noqa: BLE001
        out.update(error=_error_text(e), stage="to_linear_layout")
        return out
    if req["spec"]["encoding"] in SHARED:
        out["ins"] = [["offset", [list(x) for x in res.offset_bases]],
                      ["block", [list(x) for x in res.block_bases]]]
        out["outs"] = None
    else:
        out["ins"] = [["register", [list(x) for x in res.reg_bases]],
                      ["lane", [list(x) for x in res.lane_bases]],
                      ["warp", [list(x) for x in res.warp_bases]],
                      ["block", [list(x) for x in res.block_bases]]]
        out["outs"] = list(res.shape)
    return out


class _Child:
    """A forked process that answers one request at a time (a line in, a line out), so that a
    Triton abort kills it and not the helper: the helper answers the request it died on as an
    abort (with the last line Triton wrote to stderr) and forks a new one."""

    def __init__(self, builder):
        req_r, self._req_w = os.pipe()
        self._ans_r, ans_w = os.pipe()
        self._err = tempfile.TemporaryFile()
        sys.stdout.flush()
        self.pid = os.fork()
        if self.pid == 0:
            code = 0
            try:
                os.close(self._req_w)
                os.close(self._ans_r)
                os.dup2(self._err.fileno(), 2)
                os.dup2(self._err.fileno(), 1)
                self._serve(builder, os.fdopen(req_r, "r"), ans_w)
            except BaseException:  # noqa: BLE001 - seen by the helper as an abort
                code = 1
            finally:
                os._exit(code)
        os.close(req_r)
        os.close(ans_w)
        self._answers = os.fdopen(self._ans_r, "r")

    @staticmethod
    def _serve(b, requests, fd):
        classes = _classes()
        for line in requests:
            os.write(fd, (json.dumps(_answer(classes, b, json.loads(line))) + "\n").encode())

    def ask(self, req):
        """The answer, or None when the child died on it."""
        try:
            os.write(self._req_w, (json.dumps(req) + "\n").encode())
        except OSError:
            return None
        line = self._answers.readline()
        if not line.endswith("\n"):
            return None
        return json.loads(line)

    def rss_mb(self):
        """The child's resident memory in MiB (0 when it cannot be read)."""
        try:
            with open(f"/proc/{self.pid}/statm") as f:
                pages = int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            return 0
        return pages * os.sysconf("SC_PAGE_SIZE") // (1 << 20)

    def last_error(self):
        self._err.seek(0)
        text = self._err.read().decode(errors="replace").strip().splitlines()
        return (text[-1] if text else "the process died")[:400]

    def close(self):
        for f in (self._req_w,):
            try:
                os.close(f)
            except OSError:
                pass
        self._answers.close()
        os.waitpid(self.pid, 0)
        self._err.close()


def _builder():
    """The MLIR context and Gluon builder, made once in the helper and inherited by every child:
    making them costs more than a fork (18 ms against 8), and an abort costs a child."""
    import triton._C.libtriton as lt
    ctx = lt.ir.context()
    lt.ir.load_dialects(ctx)
    return ctx, lt.gluon_ir.GluonOpBuilder(ctx)


class _Children:
    """The child answering now, replaced when it dies on a request or outgrows its memory bound."""

    def __init__(self, builder, limit_mb):
        self._builder = builder
        self._limit_mb = limit_mb
        self._asked = 0
        self.forked = 1
        self.child = _Child(builder)

    def _replace(self):
        self.child.close()
        self.child = _Child(self._builder)
        self.forked += 1

    def ask(self, req):
        a = self.child.ask(req)
        if a is None:
            a = {"id": req["id"], "stage": "abort", "error": self.child.last_error()}
            self._replace()
        self._asked += 1
        if self._asked % RSS_CHECK_EVERY == 0 and self.child.rss_mb() > self._limit_mb:
            self._replace()
        return a


def _rss_limit_mb():
    """The child's memory bound in MiB, or None and why when $LLCHECK_TRITON_CHILD_RSS_MB is bad."""
    text = os.environ.get("LLCHECK_TRITON_CHILD_RSS_MB", "512")
    try:
        limit = int(text)
    except ValueError:
        limit = 0
    if limit <= 0:
        return None, f"LLCHECK_TRITON_CHILD_RSS_MB must be a positive number of MiB, not '{text}'"
    return limit, None


def main():
    # An abort is an expected answer: no core file, no symbolized LLVM stack trace (each costs
    # far more than the question).
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.environ["LLVM_DISABLE_SYMBOLIZATION"] = "1"
    expect = None
    if len(sys.argv) == 3 and sys.argv[1] == "--expect":
        expect = sys.argv[2]
    limit_mb, error = _rss_limit_mb()
    version = None
    if not error:
        version, error = _hello(expect)
    if error:
        sys.stdout.write(json.dumps({"error": error}) + "\n")
        sys.stdout.flush()
        sys.exit(3)
    sys.stdout.write(json.dumps({"triton": version}) + "\n")
    sys.stdout.flush()
    batch = []
    ctx, builder = _builder()  # noqa: F841 - the context must outlive the builder
    children = _Children(builder, limit_mb)
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("flush"):
            answers = [children.ask(r) for r in batch]
            for a in answers:
                sys.stdout.write(json.dumps(a) + "\n")
            sys.stdout.write(json.dumps({"flushed": True, "children": children.forked}) + "\n")
            sys.stdout.flush()
            batch = []
        else:
            batch.append(req)


if __name__ == "__main__":
    main()
