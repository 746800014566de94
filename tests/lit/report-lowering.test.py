"""Re-derives every `predicted` of report.json through the command line (REPORT LLCHECK V):
on NVIDIA, each local_alloc / local_store / local_load must equal `llcheck bank-conflicts REG
SHARED --lowering triton --triton V --arch A` (Triton's side, and llcheck's beside it in
predicted.llcheck), each convert_layout `llcheck convert SRC DST --lowering triton ...`; on AMD,
each local op `llcheck bank-conflicts` without it. Async copies have no command (cp.async is
modelled by tritonAsyncCopy alone): they are counted, not re-derived."""
import collections
import json
import os
import subprocess
import sys
import tempfile

report, llcheck, version = sys.argv[1], sys.argv[2], sys.argv[3]
doc = json.load(open(report))
KEYS = ("instruction", "instructions", "wavefronts", "bank_conflicts")
counts = collections.Counter()
tmp = tempfile.mkdtemp()


def spec(layout, name):
    """A layout as the command line reads it: the attribute where padding matters (a padded
    shared layout is not a Layout JSON), otherwise its Layout JSON, as the report computed it."""
    if layout.get("padding"):
        return layout["attribute"]
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(layout["layout"], f)
    return path


def run(args):
    out = subprocess.run([llcheck, *args, "--format", "json"], capture_output=True, text=True)
    assert out.returncode in (0, 1), (args, out.stderr)
    return json.loads(out.stdout)


def same(predicted, derived, what):
    for k in KEYS:
        assert predicted[k] == derived[k], (what, k, predicted, derived)
    assert predicted.get("misaligned_accesses", 0) == derived.get("misaligned_accesses", 0), what


for k in doc["kernels"]:
    layouts = {l["id"]: l for l in k["layouts"]}
    nvidia = k["arch"] in ("sm80", "sm90")
    for op in k["ops"]:
        p, kind = op["predicted"], op["plan"]["kind"]
        if not isinstance(p, dict):
            continue
        where = f"{k['file']}:{op['line']} {op['op']}"
        if (op["op"] == "ttg.async_copy_global_to_local" and p["lowering"] == "llcheck"
                and "Triton refuses this copy" in p.get("triton_error", "")):
            # The axis analysis shows pointers no cp.async can move (small.ttgir copies from a
            # splat: every lane the same address, 2 bytes apart from nothing).
            counts["async copy Triton cannot emit (pointers under 4 bytes)"] += 1
            continue
        assert p["lowering"] == ("triton" if nvidia else "llcheck"), (where, p.get("triton_error"))
        if nvidia:
            assert p["triton"] == version, where
        common = ["--shape", "x".join(map(str, op["shape"])), "--dtype", op["dtype"],
                  "--arch", k["arch"], "--triton", version]
        if kind in ("shared_store", "shared_load"):
            side = "store" if kind == "shared_store" else "load"
            if op["op"] == "ttg.async_copy_global_to_local":
                assert p[side]["instruction"].startswith("cp.async"), where
                counts["async copy (not re-derived)"] += 1
                continue
            reg = layouts[op["plan"]["register_layout"]]
            shared = layouts[op["plan"]["shared_layout"]]
            if reg["shape"] != shared["shape"]:
                counts["shapes differ (not re-derived)"] += 1
                continue
            args = ["bank-conflicts", spec(reg, "reg"), spec(shared, "shared"), *common]
            if nvidia:
                derived = run(args + ["--lowering", "triton"])
                same(p[side], derived[side], where)
                mine = p["llcheck"][side]
                if "matrix" in mine["instruction"]:
                    # llcheck's ldmatrix/stmatrix where it beats its widest ld/st.shared.
                    assert mine["wavefronts"] < derived["llcheck"][side]["wavefronts"], where
                else:
                    same(mine, derived["llcheck"][side], where + " (llcheck)")
                assert p["wavefronts"] == derived[side]["wavefronts"], where
            else:
                same(p[side], run(args)[side], where)
            counts[f"{op['op']} ({'Triton' if nvidia else 'llcheck'})"] += 1
            if p.get("misaligned_accesses"):
                assert any(f["kind"] == "misaligned_access" for f in op["findings"]), where
                counts["misaligned (finding misaligned_access)"] += 1
        elif op["op"] == "ttg.convert_layout" and nvidia:
            derived = run(["convert", spec(layouts[op["src"]], "src"),
                           spec(layouts[op["dst"]], "dst"), *common, "--lowering", "triton",
                           "--no-z3"])
            t = derived["triton"]
            assert p["shared_memory"] == t["shared_memory"], where
            if t["shared_memory"]:
                same(p["store"], derived["store"], where)
                same(p["load"], derived["load"], where)
                assert p["rounds"] == t["rounds"], where
                counts["convert_layout through shared memory (Triton)"] += 1
            else:
                assert p["wavefronts"] == 0, where
                counts["convert_layout without shared memory (Triton)"] += 1
for name, n in sorted(counts.items()):
    print(f"{name}: {n}")
print("every prediction equals the command line's")
