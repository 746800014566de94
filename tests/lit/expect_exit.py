#!/usr/bin/env python3
"""Runs a command and checks its exit status; lit's `not` only knows zero vs non-zero.

usage: expect_exit.py CODE [--timeout S] [--one-line-stderr] [--max-rss-mb N] -- COMMAND...

The options come in any order before `--`.
  --timeout S          the command must end within S seconds (default 60), else it is killed and
                       this fails (a hang). Five times as long under the sanitizers
                       (LLCHECK_SANITIZED=1), which run the same code several times slower.
  --one-line-stderr    stderr must be exactly one line.
  --max-rss-mb N       the command's peak resident memory (getrusage of the child) must be at most
                       N MiB. Not checked when the environment has LLCHECK_SANITIZED=1 (the
                       sanitizer build: AddressSanitizer's shadow memory and quarantine inflate it).
Copies the command's stdout and stderr through (stderr after stdout, so FileCheck sees both
when the caller uses 2>&1).
"""
import os
import resource
import subprocess
import sys


def usage(message):
    print(f"expect_exit: {message}\nusage: expect_exit.py CODE [--timeout S] [--one-line-stderr] "
          "[--max-rss-mb N] -- COMMAND...", file=sys.stderr)
    return 2


def main():
    args = sys.argv[1:]
    if not args:
        return usage("no exit status given")
    code = int(args.pop(0))
    timeout = 60.0
    one_line = False
    max_rss_mb = None
    while args and args[0] != "--":
        opt = args.pop(0)
        if opt == "--one-line-stderr":
            one_line = True
        elif opt in ("--timeout", "--max-rss-mb"):
            if not args:
                return usage(f"{opt} needs a value")
            value = float(args.pop(0))
            if opt == "--timeout":
                timeout = value
            else:
                max_rss_mb = value
        else:
            return usage(f"unknown option {opt!r}")
    if not args:
        return usage("no `--` before the command")
    args.pop(0)
    if not args:
        return usage("no command after `--`")
    if os.environ.get("LLCHECK_SANITIZED") == "1":
        timeout *= 5
    try:
        proc = subprocess.run(args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        print(f"expect_exit: command timed out after {timeout:g} s (a hang): {args}", file=sys.stderr)
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
    if max_rss_mb is not None and os.environ.get("LLCHECK_SANITIZED") != "1":
        # ru_maxrss is in KiB on Linux: the largest of the children waited for (here, one).
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        if peak_mb > max_rss_mb:
            print(f"expect_exit: peak RSS {peak_mb:.0f} MiB exceeds --max-rss-mb {max_rss_mb:g}",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
