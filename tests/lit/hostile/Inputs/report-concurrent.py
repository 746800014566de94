#!/usr/bin/env python3
"""Starts N `llcheck report` runs into one folder at once and checks what the folder holds after.

usage: report-concurrent.py N OUT -- LLCHECK report ARGS...   (--out OUT is added)

Every run must either succeed (exit 0 or 1) or be refused with exit 2 and one line naming the lock
holder; at least one must succeed; report.json must then be one whole, valid report, and no
temporary file may be left. Prints one line per outcome kind and "concurrent: ok".
"""
import json
import os
import subprocess
import sys


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    cmd = sys.argv[sys.argv.index("--") + 1:] + ["--out", out]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(n)]
    ok = refused = 0
    for p in procs:
        stdout, stderr = p.communicate(timeout=600)
        err = stderr.decode(errors="replace")
        if p.returncode in (0, 1):
            ok += 1
        elif p.returncode == 2 and len(err.splitlines()) == 1 and \
                "another llcheck report is writing into this folder (pid " in err:
            refused += 1
        else:
            print(f"concurrent: unexpected exit {p.returncode}: {err!r}")
            return 1
    if ok == 0:
        print("concurrent: no run succeeded")
        return 1
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)  # one whole report, or this raises
    if report.get("tool") != "llcheck report" or "summary" not in report:
        print("concurrent: report.json is not a whole report")
        return 1
    left = [f for f in os.listdir(out) if f.endswith(".tmp")]
    if left:
        print(f"concurrent: temporary files left: {left}")
        return 1
    print(f"concurrent: {n} runs, {ok} wrote the report, {refused} refused: folder busy")
    print("concurrent: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
