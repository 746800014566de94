"""Reads report.json and re-derives the admissible optimum of its one finding with
`llcheck bank-conflicts --lowering triton --triton V` (REPORT LLCHECK V)."""
import json
import subprocess
import sys

report, llcheck, version = sys.argv[1], sys.argv[2], sys.argv[3]
kernel = json.load(open(report))["kernels"][0]
layouts = {l["id"]: l for l in kernel["layouts"]}
ops = [op for op in kernel["ops"]
       if any(f["kind"] == "above_admissible_optimum" for f in op["findings"])]
assert len(ops) == 1, len(ops)
op = ops[0]
print("finding:", op["findings"][0]["message"])
admissible = op["optimum"]["admissible"]
assert op["predicted"]["lowering"] == "triton" and op["predicted"]["triton"] == version
print(f"candidates: {len(admissible['candidates'])} (Triton {version}'s lowering)")
reg = layouts[op["src"]]
shape = "x".join(map(str, op["shape"]))


def bank_conflicts(shared):
    out = subprocess.run([llcheck, "bank-conflicts", reg["attribute"], shared, "--shape", shape,
                          "--dtype", op["dtype"], "--lowering", "triton", "--triton", version,
                          "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def same(access, derived):
    return all(access[k] == derived[k] for k in ("instruction", "instructions", "wavefronts"))


mine = bank_conflicts(layouts[op["dst"]]["attribute"])
assert same(op["predicted"]["store"], mine["store"]), (op["predicted"], mine["store"])
assert same(op["predicted"]["llcheck"]["store"], mine["llcheck"]["store"])
print("the compiler's store equals bank-conflicts")
for c in admissible["candidates"]:
    derived = bank_conflicts(c["attribute"])
    assert c["lowering"] == "triton", c
    assert c["wavefronts"] == derived["store"]["wavefronts"], (c, derived["store"])
    assert same(c["store"], derived["store"]), (c, derived["store"])
    assert same(c["llcheck"]["store"], derived["llcheck"]["store"]), (c, derived["llcheck"])
print("every candidate's cost equals bank-conflicts")
for c in admissible["candidates"]:
    if "swizzlingByteWidth = 0," in c["attribute"] and "transposed = true" in c["attribute"]:
        print(f"swizzle 0, transposed: {c['wavefronts']} wavefronts")
best = admissible["best"]["wavefronts"]
assert best == min(c["wavefronts"] for c in admissible["candidates"])
print(f"lower bound {op['optimum']['wavefronts']} <= admissible {best} <= compiler "
      f"{op['predicted']['wavefronts']}")
