"""Compiles the lowering probe's cases with the Triton of this Python (no GPU) and records, per
case, what Triton emitted for its shared-memory ops:

    /work/venvs/triton-3.9.0/bin/python record.py data/cases.json -o data/triton-3.9.json [-j 2]

Per case: the layouts as Triton prints them (the attributes llcheck reads) and, where this
Triton's Python can compute them, Triton's own linear layouts; the PTX's shared-memory
instructions (per thread = per warp, statically: Triton unrolls everything); the SASS's shared
instructions in program order with the EXITs between them (what ptxas kept, and where a warp
can leave early), from cuobjdump on the cubin; the dynamic shared memory the kernel needs. A case
Triton refuses (an exception, or an abort that kills the worker) is recorded with its error.

Each case compiles in a forked child, so an abort costs that case only.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import triton  # noqa: E402
import triton._C.libtriton as lt  # noqa: E402

import kernels  # noqa: E402

PTX_SHARED = re.compile(r"\b((?:ld|st)\.shared\S*|ldmatrix\S*|stmatrix\S*|cp\.async\.c[ag]\S*)"
                        r"([^;]*);")
ELEM_TY = {8: "get_int8_ty", 16: "get_half_ty", 32: "get_float_ty", 64: "get_int64_ty"}


def ptx_shared(ptx):
    """{"st.shared.v4.b32": 4, "cp.async.cg.shared.global.16": 2, ...}: the shared-memory
    instructions of the PTX, each counted once per appearance (per thread). cp.async gets its
    copy size (bytes) appended."""
    counts = {}
    for m in PTX_SHARED.finditer(ptx):
        name = m.group(1).rstrip(",")
        if name.startswith("cp.async"):
            ops = [o.strip() for o in m.group(2).split(",")]
            size = ops[2] if len(ops) > 2 else "?"
            name = f"{name}.{int(size, 0) if size[:1].isdigit() else size}"
        counts[name] = counts.get(name, 0) + 1
    return counts


SASS_LINE = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
SASS_SHARED = ("LDS", "STS", "LDSM", "STSM", "LDGSTS")


def cuobjdump_sass(cubin_bytes, cuobjdump):
    """`cuobjdump -sass` of a cubin, as text."""
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(cubin_bytes)
        path = f.name
    try:
        return subprocess.run([cuobjdump, "-sass", path], capture_output=True, text=True,
                              check=True).stdout
    finally:
        os.unlink(path)


def sass_summary(cubin_bytes, cuobjdump, text=None):
    """The SASS's shared-memory instructions and EXITs in program order, run-length encoded:
    ["STS.128 x4", "BAR.SYNC", "LDS.128 x3", "@P EXIT", "LDS.128 x1", "EXIT"], and the totals
    per opcode. Instructions predicated on !PT (never executed) are left out."""
    if text is None:
        text = cuobjdump_sass(cubin_bytes, cuobjdump)
    seq = []
    totals = {}
    for line in text.splitlines():
        m = SASS_LINE.search(line)
        if not m:
            continue
        pred, op = m.group(1), m.group(2)
        if pred and pred.strip().startswith("@!PT"):
            continue
        base = op.split(".")[0]
        if base in SASS_SHARED:
            key = op
            totals[key] = totals.get(key, 0) + 1
        elif base == "EXIT":
            key = ("@P " if pred else "") + "EXIT"
        elif base == "BAR":
            key = "BAR"
        else:
            continue
        if seq and seq[-1][0] == key:
            seq[-1][1] += 1
        else:
            seq.append([key, 1])
    return {"sequence": [f"{k} x{n}" for k, n in seq], "totals": totals}


def _attr_from_type(text):
    i = text.index("#")
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "<":
            depth += 1
        elif text[j] == ">":
            depth -= 1
            if depth == 0:
                return text[i:j + 1]
    raise ValueError(text)


def layouts_of(case):
    """Triton's attribute text for each layout and its linear layout where this Triton's Python
    computes one (distributed layouts; shared ones on 3.9, padded_shared never)."""
    ctx = lt.ir.context()
    lt.ir.load_dialects(ctx)
    b = lt.gluon_ir.GluonOpBuilder(ctx)
    shape = case["shape"]
    out = {}
    for role in ("src", "dst", "shared"):
        s = case.get(role)
        if s is None:
            continue
        layout = kernels.gluon_layout(s)
        attr = layout._to_ir(b)
        rec = {}
        if role == "shared":
            ety = getattr(b, ELEM_TY[kernels.BITS[case["dtype"]]])()
            rec["attr"] = _attr_from_type(str(b.get_shared_mem_desc_ty(ety, shape, attr, shape)))
            if s["encoding"] != "padded_shared" and not triton.__version__.startswith("3.6"):
                ll = b.to_linear_layout(attr, shape)
                rec["ll"] = {"offset": ll.offset_bases, "block": ll.block_bases}
        else:
            rec["attr"] = _attr_from_type(str(b.get_distributed_ty(b.get_float_ty(), shape,
                                                                   attr)))
            ll = b.to_linear_layout(attr, shape)
            rec["ll"] = {"register": ll.reg_bases, "lane": ll.lane_bases,
                         "warp": ll.warp_bases, "block": ll.block_bases}
        out[role] = rec
    return out


def keep_files(case, k, sass, keep):
    """--keep: the TTGIR Triton wrote and the SASS of its cubin, as `llcheck report` reads them
    beside each other (<id>.ttgir, <id>.sass; the SASS without cuobjdump's encoding comments)."""
    with open(os.path.join(keep, case["id"] + ".ttgir"), "w") as f:
        f.write(k.asm["ttgir"])
    with open(os.path.join(keep, case["id"] + ".sass"), "w") as f:
        f.writelines(ln + "\n" for ln in sass.splitlines()
                     if not re.fullmatch(r"\s*/\* 0x[0-9a-f]+ \*/\s*", ln))


def record_case(case, cuobjdump, keep=None):
    rec = {"id": case["id"]}
    stage = "layouts"
    try:
        rec["layouts"] = layouts_of(case)
        stage = "compile"
        k = kernels.compile_case(case)
        stage = "inspect"
        rec["ptx"] = ptx_shared(k.asm["ptx"])
        sass = cuobjdump_sass(k.asm["cubin"], cuobjdump)
        rec["sass"] = sass_summary(None, None, sass)
        if keep:
            keep_files(case, k, sass, keep)
        rec["shared_bytes"] = k.metadata.shared
        rec["kernel"] = k.metadata.name
    except Exception as e:  # noqa: BLE001 - a case Triton refuses is recorded, not fatal
        msg = " ".join(str(e).split())
        rec["error"] = f"{stage}: {type(e).__name__}: {msg[:300]}"
    return rec


def _child(case, cuobjdump, fd, err_path, keep):
    # Triton's aborts print their reason on stderr: keep it for the parent.
    err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(err, 2)
    try:
        rec = record_case(case, cuobjdump, keep)
        if "error" in rec and "PassManager" in rec["error"]:
            sys.stderr.flush()
            rec["error"] += ": " + _abort_reason(err_path)
        os.write(fd, (json.dumps(rec) + "\n").encode())
    finally:
        os._exit(0)


def _abort_reason(err_path):
    try:
        with open(err_path, errors="replace") as f:
            lines = [ln.strip() for ln in f if ln.strip() and "leaked" not in ln
                     and "nanobind" not in ln and "warn" not in ln.lower()]
    except OSError:
        return ""
    reason = " ".join(lines[-2:])
    return re.sub(r"/\S*/", "", reason)[:300]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cases")
    p.add_argument("-o", "--out", required=True)
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--only", help="comma-separated case ids")
    p.add_argument("--keep", metavar="DIR",
                   help="also write each case's TTGIR and SASS to DIR (<id>.ttgir, <id>.sass)")
    args = p.parse_args()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    with open(args.cases) as f:
        cases = json.load(f)["cases"]
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in keep]
    cuobjdump = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin",
                             "cuobjdump")
    results = [None] * len(cases)
    # A few forked children at a time.
    running = {}
    todo = list(enumerate(cases))
    start = time.time()
    done = 0
    import selectors
    sel = selectors.DefaultSelector()
    tmp = tempfile.mkdtemp(prefix="llcheck-lowering-")
    while todo or running:
        while todo and len(running) < args.jobs:
            i, case = todo.pop(0)
            r, w = os.pipe()
            err_path = os.path.join(tmp, f"{case['id']}.err")
            pid = os.fork()
            if pid == 0:
                os.close(r)
                _child(case, cuobjdump, w, err_path, args.keep)
            os.close(w)
            f = os.fdopen(r, "rb")
            running[pid] = (i, case, f, bytearray())
            sel.register(f, selectors.EVENT_READ, pid)
        for key, _ in sel.select(timeout=1.0):
            pid = key.data
            i, case, f, buf = running[pid]
            chunk = f.read1(1 << 16) if hasattr(f, "read1") else os.read(f.fileno(), 1 << 16)
            if chunk:
                buf.extend(chunk)
                continue
            sel.unregister(f)
            f.close()
            _, status = os.waitpid(pid, 0)
            del running[pid]
            if buf.strip():
                results[i] = json.loads(bytes(buf))
            else:
                sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
                results[i] = {"id": case["id"], "error": f"compile: Triton aborted (signal {sig}): "
                              + _abort_reason(os.path.join(tmp, f"{case['id']}.err"))}
            done += 1
            if done % 50 == 0:
                print(f"{done}/{len(cases)} in {time.time() - start:.0f} s", flush=True)
    out = {"triton": triton.__version__, "cases": results}
    with open(args.out, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    errors = sum(1 for r in results if "error" in r)
    print(f"{len(results)} cases, {errors} refused by Triton, to {args.out} "
          f"({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
