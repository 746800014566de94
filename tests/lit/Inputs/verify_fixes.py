"""Pastes every fix a report suggests into `llcheck verify`, as an engineer would: the TTGIR
attribute with the tensor's shape (report-fix.test). Prints one line per fix and a total; exits 1
if any is refused.

usage: verify_fixes.py LLCHECK REPORT.json KIND...
"""
import json
import subprocess
import sys

llcheck, path, kinds = sys.argv[1], sys.argv[2], set(sys.argv[3:])
report = json.load(open(path))
fixes = []
for k in report["kernels"]:
    for f in k["findings"] + [f for o in k["ops"] for f in o["findings"]]:
        if f["kind"] in kinds and isinstance(f.get("fix"), dict):
            fixes.append((k["file"], f["kind"], f["fix"]))
failed = 0
for file, kind, fix in fixes:
    if "error" in fix:
        print(f"{kind}: no fix: {fix['error']}")
        failed += 1
        continue
    attr = fix["suggested"]["attribute"]
    shape = "x".join(str(s) for s in fix["shape"])
    memory = attr.startswith("#ttg.shared_linear") or attr.startswith("#ttg.nvmma_shared")
    cmd = [llcheck, "verify", attr, "--shape", shape, "--no-z3"]
    cmd += ["--require", "memory" if memory else "distributed"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(f"{kind}: verify {attr[:40]}... --shape {shape}: exit {r.returncode}")
    failed += r.returncode != 0
print(f"fixes: {len(fixes)}, refused by verify: {failed}")
sys.exit(1 if failed else 0)
