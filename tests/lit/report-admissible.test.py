"""Reads report.json and re-derives the admissible optimum of its one finding with
`llcheck bank-conflicts` (REPORT LLCHECK)."""
import json
import subprocess
import sys

report, llcheck = sys.argv[1], sys.argv[2]
kernel = json.load(open(report))["kernels"][0]
layouts = {l["id"]: l for l in kernel["layouts"]}
ops = [op for op in kernel["ops"]
       if any(f["kind"] == "above_admissible_optimum" for f in op["findings"])]
assert len(ops) == 1, len(ops)
op = ops[0]
print("finding:", op["findings"][0]["message"])
admissible = op["optimum"]["admissible"]
print("candidates:", len(admissible["candidates"]))
reg = layouts[op["src"]]
shape = "x".join(map(str, op["shape"]))
for c in admissible["candidates"]:
    out = subprocess.run([llcheck, "bank-conflicts", reg["attribute"], c["attribute"], "--shape",
                          shape, "--dtype", op["dtype"], "--format", "json"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["store"]["wavefronts"] == c["wavefronts"], c
print("every candidate's cost equals bank-conflicts")
best = admissible["best"]["wavefronts"]
assert best == min(c["wavefronts"] for c in admissible["candidates"])
print(f"lower bound {op['optimum']['wavefronts']} <= admissible {best} <= compiler "
      f"{op['predicted']['wavefronts']}")
