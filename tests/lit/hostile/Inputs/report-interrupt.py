#!/usr/bin/env python3
"""Interrupts `llcheck report` (SIGINT, as Ctrl-C) while it works and checks the folder after.

usage: report-interrupt.py DELAY OUT -- LLCHECK report ARGS...   (--out OUT is added)

OUT must already hold a complete report from an earlier run. After the interrupt, each of the
four files must still be whole (report.json valid JSON, the others ending as they end), either the
earlier run's or, if the run finished before the signal, the new one; no temporary file may be
left. Prints "interrupt: ok".
"""
import json
import os
import signal
import subprocess
import sys
import time

ENDS = {"report.md": "junit.xml.\n", "junit.xml": "</testsuites>\n", "report.html": "</html>\n"}


def main():
    delay = float(sys.argv[1])
    out = sys.argv[2]
    cmd = sys.argv[sys.argv.index("--") + 1:] + ["--out", out]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(delay)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=600)
    with open(os.path.join(out, "report.json")) as f:
        json.load(f)
    for name, end in ENDS.items():
        with open(os.path.join(out, name)) as f:
            if not f.read().endswith(end):
                print(f"interrupt: {name} is cut short")
                return 1
    left = [f for f in os.listdir(out) if f.endswith(".tmp")]
    if left:
        print(f"interrupt: temporary files left: {left}")
        return 1
    print(f"interrupt: exit {p.returncode}; the folder holds whole files")
    print("interrupt: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
