"""On the GPU machine, after run_gpu.py ran under ncu (run.sh): reads ncu's source pages
(`--page source --csv --print-source sass`, one page per profiled kernel launch, in launch
order), matches them to the Triton launches run_gpu.py recorded (by name, in order; pages of
PyTorch's own kernels in the profiled range are skipped), and keeps, per launch, the SASS
instructions that touch shared or global memory with their per-instruction counters. The full
pages are too large to bring back (thousands of rows per kernel).

    python3 collect.py SRC_CSV LAUNCHES_JSON OUT_JSON"""
import csv
import json
import re
import sys

MEMORY = re.compile(r"^(STS|LDS|LDSM|STSM|LDGSTS|ATOMS|LDG|STG|RED|ATOMG|ATOM|UTMA\w*|UBLK\w*)"
                    r"(\.|$)")
COLUMNS = {"executed": "Instructions Executed", "wavefronts": "L1 Wavefronts Shared",
           "ideal": "L1 Wavefronts Shared Ideal", "requests": "L1 Tag Requests Global",
           "sectors": "L2 Theoretical Sectors Global"}


def opcode(sass):
    parts = sass.split()
    return parts[1] if parts[0].startswith("@") and len(parts) > 1 else parts[0]


def pages(path):
    """Yields (kernel name, number of SASS rows, first row's executions, memory rows)."""
    name, header, rows, n, first = None, None, [], 0, None
    with open(path, errors="replace", newline="") as f:
        for rec in csv.reader(f):
            if len(rec) >= 2 and rec[0] == "Kernel Name":
                if name is not None:
                    yield name, n, first, rows
                name, header, rows, n, first = rec[1], None, [], 0, None
            elif name is not None and header is None:
                header = {h: i for i, h in enumerate(rec)}
            elif name is not None and rec:
                src = rec[header["Source"]].strip()
                if not src:
                    continue
                executed = int(rec[header["Instructions Executed"]] or 0)
                if first is None:
                    first = executed
                if MEMORY.match(opcode(src)):
                    row = {"index": n, "sass": src}
                    for key, col in COLUMNS.items():
                        if col in header:
                            row[key] = int(float(rec[header[col]] or 0))
                    rows.append(row)
                n += 1
    if name is not None:
        yield name, n, first, rows


def main():
    src, launches_json, out = sys.argv[1:4]
    data = json.load(open(launches_json))
    expected = [(w["id"], j, launch) for w in data["workloads"]
                for j, launch in enumerate(w.get("launches", []))]
    got, k, skipped = [], 0, []
    for name, n, first, rows in pages(src):
        if k < len(expected) and expected[k][2]["name"] == name:
            wid, j, launch = expected[k]
            got.append({"workload": wid, "launch": j, "name": name, "hash": launch["hash"],
                        "sass_rows": n, "first_executed": first, "instructions": rows})
            k += 1
        else:
            skipped.append(name)
    json.dump({"launches": got, "unmatched_pages": skipped,
               "launches_without_page": [f"{w}#{j}" for w, j, _ in expected[k:]]},
              open(out, "w"), indent=None)
    print(f"{len(got)} launches with their page, {len(skipped)} other pages skipped, "
          f"{len(expected) - k} launches without a page")


if __name__ == "__main__":
    main()
