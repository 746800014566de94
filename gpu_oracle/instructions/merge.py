#!/usr/bin/env python3
"""Joins the per-probe outputs of run.sh into OUTDIR/instructions.json and prints a summary.

    merge.py WORK OUT [--nvcc VERSION] [--build-failed NVCC_LOG]

A probe whose process failed, hung or wrote no JSON is kept with "ok": false and the end of
what it printed, so that one failing kernel loses only its own result. Standard library only:
this runs on the GPU machine.
"""
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timezone


def tail(path, n=600):
    try:
        with open(path, errors="replace") as f:
            return f.read()[-n:].strip()
    except OSError:
        return ""


def read_rc(path):
    try:
        return int(open(path).read().strip())
    except (OSError, ValueError):
        return None


def nvidia_smi():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
        name, driver = [s.strip() for s in out[0].split(",", 1)]
        return name, driver
    except Exception:  # no nvidia-smi: the fields stay empty
        return "", ""


def main():
    work, out = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    nvcc = args[args.index("--nvcc") + 1] if "--nvcc" in args else ""
    name, driver = nvidia_smi()
    result = {"format": "llcheck-hwlayout 1", "gpu": name, "driver": driver, "nvcc": nvcc,
              "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "probes": []}
    if "--build-failed" in args:
        result["build_error"] = tail(args[args.index("--build-failed") + 1], 4000)
        json.dump(result, open(os.path.join(out, "instructions.json"), "w"), indent=None)
        print("hwprobes: build failed; nothing measured")
        return 1
    ids = [line.split() for line in open(os.path.join(work, "probes.txt")) if line.strip()]
    failed = []
    for pid, family in ids:
        part = os.path.join(work, "parts", pid + ".json")
        rc = read_rc(os.path.join(work, "parts", pid + ".rc"))
        entry = None
        try:
            data = json.load(open(part))
            for k in ("compute_capability", "cuda_runtime", "cuda_driver_api"):
                result.setdefault(k, data.get(k))
            if not result["gpu"]:
                result["gpu"] = data.get("gpu", "")
            entry = data["probes"][0]
        except (OSError, ValueError, KeyError, IndexError):
            pass
        if entry is None:
            why = {124: "timed out after 60 s", 125: "not run"}.get(rc, f"exit status {rc}")
            entry = {"id": pid, "family": family, "ok": False,
                     "error": f"the probe process wrote no result ({why}): "
                              + tail(os.path.join(work, "parts", pid + ".log"))}
        if not entry.get("ok"):
            failed.append(pid)
        result["probes"].append(entry)
    sanitize_dir = os.path.join(work, "sanitize")
    families = sorted({f for _, f in ids})
    if os.path.exists(os.path.join(sanitize_dir, "version.txt")):
        san = {"tool": "memcheck", "version": open(os.path.join(sanitize_dir, "version.txt")).read().strip(),
               "families": {}}
        for f in families:
            log = tail(os.path.join(sanitize_dir, f + ".log"), 200000)
            m = re.findall(r"ERROR SUMMARY: (\d+) error", log)
            san["families"][f] = {"exit": read_rc(os.path.join(sanitize_dir, f + ".rc")),
                                  "errors": int(m[-1]) if m else None,
                                  "probes": [p for p, fam in ids if fam == f],
                                  "log_tail": log[-1500:]}
        result["sanitizer"] = san
    path = os.path.join(out, "instructions.json")
    with open(path, "w") as f:
        json.dump(result, f, separators=(",", ":"))
    size = os.path.getsize(path)
    by_family = {}
    for e in result["probes"]:
        ok, total = by_family.get(e["family"], (0, 0))
        by_family[e["family"]] = (ok + (1 if e.get("ok") else 0), total + 1)
    print(f"hwprobes: {result['gpu']}, driver {result['driver']}, {result['date']}")
    for fam in families:
        ok, total = by_family[fam]
        line = f"  {fam:10s} {ok}/{total} probes ran"
        if "sanitizer" in result:
            s = result["sanitizer"]["families"][fam]
            line += f"; memcheck: {s['errors'] if s['errors'] is not None else '?'} errors (exit {s['exit']})"
        print(line)
    if failed:
        print("  failed: " + ", ".join(failed))
    print(f"hwprobes: wrote {path} ({size // 1024} KiB)")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
