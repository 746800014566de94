#!/usr/bin/env python3
"""Runs a command and checks its exit status; lit's `not` only knows zero vs non-zero.

usage: expect_exit.py CODE [--timeout S] [--one-line-stderr] -- COMMAND...
Copies the command's stdout and stderr through (stderr after stdout, so FileCheck sees both
when the caller uses 2>&1). With --one-line-stderr, stderr must be exactly one line. The
command must end within --timeout seconds (default 60): a command that runs longer is a hang.
Under the sanitizers (LLCHECK_SANITIZED=1 in the environment) the time limit is 5 times longer.
"""
import os
import subprocess
import sys

def main():
    args = sys.argv[1:]
    code = int(args.pop(0))
    one_line = False
    timeout = 60.0
    while args and args[0] != "--":
        opt = args.pop(0)
        if opt == "--one-line-stderr":
            one_line = True
        elif opt == "--timeout":
            timeout = float(args.pop(0))
        else:
            print(f"expect_exit: unknown option {opt}", file=sys.stderr)
            return 1
    if args and args[0] == "--":
        args.pop(0)
    if os.environ.get("LLCHECK_SANITIZED") == "1":
        timeout *= 5
    try:
        proc = subprocess.run(args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        print(f"expect_exit: command timed out after {timeout:g} s (a hang): {args}",
              file=sys.stderr)
        return 1
    sys.stdout.buffer.write(proc.stdout)
    sys.stdout.flush()
    sys.stderr.buffer.write(proc.stderr)
    sys.stderr.flush()
    if proc.returncode != code:
        print(f"expect_exit: expected exit status {code}, got {proc.returncode}", file=sys.stderr)
        return 1
    if one_line:
        lines = proc.stderr.decode(errors="replace").splitlines()
        if len(lines) != 1:
            print(f"expect_exit: expected exactly one line on stderr, got {len(lines)}", file=sys.stderr)
            return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
