#!/usr/bin/env python3
"""usage: check_bad_catalog.py LLCHECK CATALOG_DIR README

Runs every file of the bad-input catalog through `layout` (text, json, attr) and `verify`
(text, json) and checks the contract for bad input: exit status exactly 2, exactly one line on
stderr starting "llcheck: error: <the path given>", nothing on stdout (verify --format json:
its summary object counting the file as bad input), done within 60 s. Also checks that the
file is listed in README. Prints "ok FILE" per file; exits 1 at the first violation."""
import json
import os
import subprocess
import sys

COMMANDS = [["layout"], ["layout", "--format", "json"], ["layout", "--format", "attr"],
            ["verify"], ["verify", "--format", "json"]]
JSON_SUMMARY = {"results": [], "summary": {"bad_input": 1, "failed": 0, "layouts": 0, "ok": 0}}


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def main():
    llcheck, catalog, readme = sys.argv[1:4]
    listed = open(readme, encoding="utf-8").read()
    for name in sorted(os.listdir(catalog)):
        path = os.path.join(catalog, name)
        for cmd in COMMANDS:
            what = f"llcheck {' '.join(cmd)} {name}"
            try:
                p = subprocess.run([llcheck, *cmd, path], capture_output=True, timeout=60)
            except subprocess.TimeoutExpired:
                fail(f"{what}: timed out after 60 s (a hang)")
            err = p.stderr.decode(errors="replace")
            if p.returncode != 2:
                fail(f"{what}: exit status {p.returncode}, expected 2; stderr: {err!r}")
            if len(err.splitlines()) != 1:
                fail(f"{what}: {len(err.splitlines())} lines on stderr, expected 1: {err!r}")
            if not err.startswith(f"llcheck: error: {path}"):
                fail(f"{what}: message does not start with the file name: {err!r}")
            if cmd == ["verify", "--format", "json"]:
                if json.loads(p.stdout) != JSON_SUMMARY:
                    fail(f"{what}: unexpected stdout {p.stdout[:200]!r}")
            elif p.stdout:
                fail(f"{what}: stdout not empty: {p.stdout[:200]!r}")
        if f"`{name}`" not in listed:
            fail(f"{name} is not listed in {readme}")
        print(f"ok {name}")


if __name__ == "__main__":
    main()
