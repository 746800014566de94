"""Reads what run.sh brought back (reduce.tgz, unpacked) into measured.json: per release and
case, the launch (grid, output checked), and every SASS shared-memory instruction the
reductions own (by the line table: the kernel lines that call tl.sum / tl.max / tl.argmax),
with ncu's executions and L1 shared wavefronts, and every LDG / STG with its executions,
requests and sectors. The TTGIR of each case is kept beside it
(ttgir/RELEASE/ID.ttgir) for test_reduce_measured.py, which predicts them with llcheck.

    python3 analyze.py UNPACKED_DIR NVDISASM CUOBJDUMP
    python3 analyze.py --inductor UNPACKED_DIR NVDISASM CUOBJDUMP   (inductor.sh's tarball:
        measured_inductor.json and ttgir/inductor36/)

Beside each TTGIR goes its SASS (ID.sass, `cuobjdump -sass`), from which llcheck report reads
the early exit of warps whose stores are masked."""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kernels  # noqa: E402

SHARED = re.compile(r"^(STS|LDS|ATOMS)(\.[A-Z0-9.]+)?$")
WIDTH = {"": 32, ".U8": 8, ".S8": 8, ".U16": 16, ".S16": 16, ".64": 64, ".128": 128}
KIND = {"STS": "st", "LDS": "ld", "ATOMS": "atom"}
GLOBAL = re.compile(r"^(LDG|STG)\.E(\.[A-Z0-9.]+)?$")


def global_instruction(text, row, line):
    """An LDG / STG with ncu's executions, requests (L1 tag requests) and sectors (L2
    theoretical sectors); None for any other instruction."""
    m = GLOBAL.match(opcode(text))
    if not m:
        return None
    suffix = m.group(2) or ""
    bits = next((WIDTH[w] for w in (".128", ".64", ".U16", ".S16", ".U8", ".S8")
                 if w in suffix), 32)
    return {"sass": text, "kind": "ld" if m.group(1) == "LDG" else "st", "bits": bits,
            "line": line, "executed": int(row["Instructions Executed"]),
            "requests": int(row["L1 Tag Requests Global"]),
            "sectors": int(row["L2 Theoretical Sectors Global"])}


def bits_of(m):
    """Bits per lane of a shared-memory SASS instruction (an ATOMS: 32 unless .64)."""
    if m.group(1) == "ATOMS":
        return 64 if ".64" in (m.group(2) or "") else 32
    return WIDTH[m.group(2) or ""]


def source_pages(path):
    """ncu's --page source --csv: [(kernel name, [row dicts])] in launch order."""
    pages, rows, header, name = [], None, None, None
    for rec in csv.reader(io.StringIO(open(path, errors="replace").read())):
        if len(rec) >= 2 and rec[0] == "Kernel Name":
            if name is not None:
                pages.append((name, rows))
            name, rows, header = rec[1], [], None
        elif name is not None and header is None:
            header = rec
        elif name is not None and rec:
            rows.append(dict(zip(header, rec)))
    if name is not None:
        pages.append((name, rows))
    return pages


def file_lines(nvdisasm, cubin):
    """[(source file, line, SASS text)] per instruction, in address order (`nvdisasm -gi`)."""
    text = subprocess.run([nvdisasm, "-gi", cubin], capture_output=True, text=True,
                          check=True).stdout
    out, file, line = [], None, None
    for raw in text.splitlines():
        m = re.search(r'//## File "([^"]+)", line (\d+)', raw)
        if m:
            file, line = m.group(1), int(m.group(2))
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;?\s*(/\*.*)?$", raw)
        if m and m.group(1) and not m.group(1).startswith("."):
            out.append((file, line, m.group(1).rstrip(" ;")))
    return out


# Where Triton 3.6's line table puts a reduction's own instructions: tl.sum / tl.max / ... in
# Triton's language/standard.py, Inductor's reductions in its runtime/triton_helpers.py.
REDUCTION_FILES = ("triton/language/standard.py", "_inductor/runtime/triton_helpers.py")


def inductor(unpacked, nvdisasm, cuobjdump):
    kdir = os.path.join(unpacked, "kernels")
    cubins = {}
    for f in sorted(os.listdir(kdir)):
        if f.endswith(".cubin"):
            stem = f[:-len(".cubin")]
            meta = json.load(open(os.path.join(kdir, stem + ".json")))
            table = file_lines(nvdisasm, os.path.join(kdir, f))
            cubins[stem] = (meta, table)
    pages = source_pages(os.path.join(unpacked, "src.csv"))
    os.makedirs(os.path.join(HERE, "ttgir", "inductor36"), exist_ok=True)
    cases, seen = [], {}
    for name, rows in pages:
        sass_rows = [r for r in rows if r.get("Source", "").strip()]
        ops = [opcode(r["Source"].strip()) for r in sass_rows]
        match = [stem for stem, (meta, table) in cubins.items() if meta["name"] == name and
                 [opcode(t) for _, _, t in table] == ops]
        assert match, f"no cubin in the cache has the SASS of the launch of {name}"
        stem = match[0]
        meta, table = cubins[stem]
        # Every warp executes the first instruction once: its executions / warps = CTAs.
        grid = int(sass_rows[0]["Instructions Executed"]) // meta["num_warps"]
        instructions, global_ = [], []
        for (file, line, text), row in zip(table, sass_rows):
            if (g := global_instruction(text, row, line)) is not None:
                global_.append(g)
            m = SHARED.match(opcode(text))
            if not m or not file or not file.endswith(REDUCTION_FILES):
                continue
            instructions.append({
                "sass": text, "kind": KIND[m.group(1)], "bits": bits_of(m),
                "file": os.path.basename(file),
                "executed": int(row["Instructions Executed"]),
                "wavefronts": int(row["L1 Wavefronts Shared"]),
                "ideal": int(row["L1 Wavefronts Shared Ideal"])})
        seen[name] = seen.get(name, 0) + 1
        cid = f"{name}-{seen[name]}"
        for ext in ("ttgir",):
            with open(os.path.join(HERE, "ttgir", "inductor36", f"{cid}.{ext}"), "w") as f:
                f.write(open(os.path.join(kdir, f"{stem}.{ext}")).read())
        sass = subprocess.run([cuobjdump, "-sass", os.path.join(kdir, stem + ".cubin")],
                              capture_output=True, text=True, check=True).stdout
        with open(os.path.join(HERE, "ttgir", "inductor36", f"{cid}.sass"), "w") as f:
            f.write(sass)
        cases.append({"id": cid, "kernel": name, "grid": grid, "num_warps": meta["num_warps"],
                      "output_ok": True, "instructions": instructions, "global": global_})
    checked = json.load(open(os.path.join(unpacked, "plain.json")))
    under_ncu = json.load(open(os.path.join(unpacked, "ncu.json")))
    bad = [c["id"] for c in checked["cases"] + under_ncu["cases"] if not c.get("ok")]
    result = {"source": "PyTorch Inductor (torch.compile) on the GPU machine, Triton 3.6",
              "torch": checked["torch"], "models": [c["id"] for c in checked["cases"]],
              "outputs_not_ok": bad, "releases": {"3.6": cases}}
    with open(os.path.join(HERE, "measured_inductor.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(f"{len(cases)} launches written")


def line_table(nvdisasm, cubin):
    """[(line, SASS text)] per instruction, in address order: the kernel file's line, "lib"
    for Triton's own language/standard.py (where Triton 3.6's line table puts the reductions'
    instructions; 3.9's puts them at the kernel line that calls them), None otherwise."""
    def where(file, line):
        if file and file.endswith("reduce_cases.py"):
            return line
        return "lib" if file and file.endswith("triton/language/standard.py") else None
    return [(where(f, n), t) for f, n, t in file_lines(nvdisasm, cubin)]


def reduce_lines(folder):
    kernels.load(folder)
    src = open(os.path.join(folder, "reduce_cases.py")).read()
    spans, start = {}, None
    for i, text in enumerate(src.splitlines(), 1):
        m = re.match(r"def (\w+)\(", text)
        if m:
            start = m.group(1)
            spans[start] = set()
        elif start and re.search(r"\btl\.(sum|max|argmax|cumsum|associative_scan|atomic_\w+|histogram|gather)\(",
                                     text):
            spans[start].add(i)
    return spans


def opcode(sass):
    op = sass.split()[0]
    if op.startswith("@"):
        op = sass.split()[1]
    return op


def main():
    if sys.argv[1] == "--inductor":
        inductor(*sys.argv[2:5])
        return
    unpacked = sys.argv[1]
    nvdisasm, cuobjdump = sys.argv[2], sys.argv[3]
    meta = open(os.path.join(unpacked, "meta.txt")).read().split("\n")
    with tempfile.TemporaryDirectory() as tmp:
        lines = reduce_lines(tmp)
    triton39 = json.load(open(os.path.join(unpacked, "39", "cases.json")))["triton"]
    result = {"gpu": meta[0], "ncu": meta[1], "software": meta[2], "date": meta[3],
              "triton_3.9": triton39, "releases": {}}
    for rel, folder in (("3.6", "36"), ("3.9", "39")):
        d = os.path.join(unpacked, folder)
        launches = json.load(open(os.path.join(d, "launches.json")))["launches"]
        plain = {r["id"]: r for r in json.load(
            open(os.path.join(d, "launches-plain.json")))["launches"]}
        pages = source_pages(os.path.join(d, "src.csv"))
        assert len(pages) == len(launches), (rel, len(pages), len(launches))
        cases = []
        os.makedirs(os.path.join(HERE, "ttgir", folder), exist_ok=True)
        for launch, (name, rows) in zip(launches, pages):
            cid = launch["id"]
            assert name == cid, (name, cid)
            table = line_table(nvdisasm, os.path.join(d, cid + ".cubin"))
            sass_rows = [r for r in rows if r.get("Source", "").strip()]
            assert len(table) == len(sass_rows), (cid, len(table), len(sass_rows))
            instructions, global_ = [], []
            for (line, text), row in zip(table, sass_rows):
                got = row["Source"].strip()
                assert opcode(got) == opcode(text), (cid, got, text)
                if (g := global_instruction(text, row, line)) is not None:
                    global_.append(g)
                m = SHARED.match(opcode(text))
                if not m or (line != "lib" and line not in lines[cid]):
                    continue
                instructions.append({
                    "sass": text, "kind": KIND[m.group(1)], "bits": bits_of(m), "line": line,
                    "executed": int(row["Instructions Executed"]),
                    "wavefronts": int(row["L1 Wavefronts Shared"]),
                    "ideal": int(row["L1 Wavefronts Shared Ideal"])})
            with open(os.path.join(HERE, "ttgir", folder, cid + ".ttgir"), "w") as f:
                f.write(open(os.path.join(d, cid + ".ttgir")).read())
            sass = subprocess.run([cuobjdump, "-sass", os.path.join(d, cid + ".cubin")],
                                  capture_output=True, text=True, check=True).stdout
            with open(os.path.join(HERE, "ttgir", folder, cid + ".sass"), "w") as f:
                f.write(sass)
            ok = plain.get(cid, {}).get("ok", False) and launch.get("ok", False)
            cases.append({"id": cid, "grid": launch.get("grid"), "output_ok": ok,
                          "instructions": instructions, "global": global_})
        result["releases"][rel] = cases
    with open(os.path.join(HERE, "measured.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(f"{sum(len(c) for c in result['releases'].values())} cases written")


if __name__ == "__main__":
    main()
