"""Here, after run.sh's shards came back: merges their tarballs (unpacked) into
data/measured-RELEASE.json.xz and data/kernels-RELEASE.tar.xz, which test_real_measured.py reads.

    python3 analyze.py RELEASE CUOBJDUMP UNPACKED_DIR... [--kernels PACK_DIR/kernels]

--kernels: where the launched kernels' files are when they were compiled here (Triton 3.9,
compile39.py's pack) rather than copied from the GPU machine's cache into each shard.
--add: keep what data/ holds for RELEASE and add the shards' workloads to it (a later device
run of workloads that did not run before, on the same GPU, driver, ncu and software; the dates
of both are kept). A workload or launch already there is an error, unless it was there as one
that could not run: then the run replaces it.
--other-gpu: with --add, the shards ran on another GPU of the same chip (an H100 where data/ is
the H200's: both GH100, sm90, the same SM; README.md says what was compared): each added
workload records its "gpu", and "gpu" names both.

measured-RELEASE.json.xz (xz, as the device copies the working tree and the corpus is large): {"gpu", "driver", "ncu", "software", "date", "workloads": [{"id", "ok",
"rel_err", "tol" | "error"}], "launches": [{"id" (WORKLOAD#N), "workload", "hash", "name",
"num_warps", "grid" (CTAs: the first instruction's executions / warps), "instructions": [{"sass",
"executed", "wavefronts", "ideal", "requests", "sectors"}]}]}: every SASS instruction of the
launch that touches shared or global memory, with ncu's source counters. kernels-RELEASE.tar.xz:
HASH.ttgir and HASH.sass (cuobjdump -sass of the cubin that ran) of every launched kernel."""
import argparse
import concurrent.futures
import json
import lzma
import os
import subprocess
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("release")
    ap.add_argument("cuobjdump")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--kernels", help="the kernels' folder, if not each shard's kernels/")
    ap.add_argument("--software", help="what compiled the kernels, if not meta.txt's line")
    ap.add_argument("--add", action="store_true", help="add to the committed data of RELEASE")
    ap.add_argument("--other-gpu", action="store_true",
                    help="with --add: the shards' GPU is another of the same chip")
    args = ap.parse_args()
    release, cuobjdump, dirs = args.release, args.cuobjdump, args.dirs
    meta = open(os.path.join(dirs[0], "meta.txt")).read().split("\n")
    gpu, driver = [s.strip() for s in meta[0].split(",")]
    workloads, launches, kernels = [], [], {}
    measured_path = os.path.join(HERE, "data", f"measured-{release}.json.xz")
    kernels_path = os.path.join(HERE, "data", f"kernels-{release}.tar.xz")
    committed = tempfile.TemporaryDirectory()
    dates = []
    if args.add:
        before = json.load(lzma.open(measured_path, "rt"))
        now = {"gpu": gpu, "driver": driver, "ncu": meta[1].strip(),
               "software": args.software or meta[2].strip()}
        for key, value in now.items():
            if key == "gpu" and args.other_gpu:
                continue
            assert before[key] == value, f"{key}: {before[key]!r} in data/, {value!r} in the shards"
        if args.other_gpu:
            first = before["gpu"].split(" (")[0]
            assert gpu != first, "--other-gpu, but the shards ran on data/'s GPU"
            others = sorted({w["gpu"] for w in before["workloads"] if "gpu" in w} | {gpu})
            before["gpu"] = f"{first} (and {', '.join(others)}: the workloads that say so)"
        workloads, launches, dates = before["workloads"], before["launches"], before["date"].split(", ")
        with tarfile.open(kernels_path) as tar:
            tar.extractall(committed.name, filter="data")
        for launch in launches:
            kernels[launch["hash"]] = os.path.join(committed.name, launch["hash"])
    for d in dirs:
        shard = next(f for f in os.listdir(d) if f.startswith("launches-"))
        measured = next(f for f in os.listdir(d) if f.startswith("measured-"))
        runs = json.load(open(os.path.join(d, shard)))
        outside = set()  # a result outside tolerance: not measured data, its launches are left out
        for w in runs["workloads"]:
            if "not run" in w.get("error", ""):
                continue
            if w.get("ok") is False:
                outside.add(w["id"])
                w = {**w, "error": f"its result was outside tolerance of the reference "
                                   f"(relative error {w['rel_err']:.3g}, tolerance {w['tol']:g})"}
            workloads.append({k: w[k] for k in ("id", "ok", "rel_err", "tol", "error") if k in w})
            if args.other_gpu:
                workloads[-1]["gpu"] = gpu
        got = json.load(open(os.path.join(d, measured)))
        assert not got["launches_without_page"], got["launches_without_page"][:5]
        for launch in got["launches"]:
            if launch["workload"] in outside:
                continue
            h = launch["hash"]
            files = os.path.join(args.kernels or os.path.join(d, "kernels"), h)
            kernels.setdefault(h, files)
            md = json.load(open(files + ".json"))
            warps = md["num_warps"]
            assert launch["first_executed"] % warps == 0, launch
            launches.append({"id": f"{launch['workload']}#{launch['launch']}",
                             "workload": launch["workload"], "hash": h, "name": launch["name"],
                             "num_warps": warps, "grid": launch["first_executed"] // warps,
                             "instructions": [{k: v for k, v in i.items() if k != "index"}
                                              for i in launch["instructions"]]})
    # A workload that could not run before and ran now replaces its error (DyT under 3.9).
    ran = {w["id"] for w in workloads if "error" not in w}
    workloads = [w for w in workloads if "error" not in w or w["id"] not in ran]
    ids = [w["id"] for w in workloads]
    assert len(ids) == len(set(ids)), "a workload ran in two shards (or is already in data/)"
    assert len({l_["id"] for l_ in launches}) == len(launches), "a launch is there twice"
    dates = sorted(set(dates + [meta[3].strip()]))
    result = {"gpu": before["gpu"] if args.add else gpu, "driver": driver, "ncu": meta[1].strip(), "software": args.software or meta[2].strip(),
              "date": ", ".join(dates), "workloads": workloads, "launches": launches}
    os.makedirs(os.path.join(HERE, "data"), exist_ok=True)
    with lzma.open(measured_path, "wt") as f:
        json.dump(result, f, indent=0, sort_keys=True)

    def sass(h):
        if os.path.exists(kernels[h] + ".sass"):  # a committed kernel: disassembled before
            return h, open(kernels[h] + ".sass").read()
        return h, subprocess.run([cuobjdump, "-sass", kernels[h] + ".cubin"], capture_output=True,
                                 text=True, check=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            for h, text in pool.map(sass, sorted(kernels)):
                with open(os.path.join(tmp, h + ".sass"), "w") as f:
                    f.write(text)
        with tarfile.open(kernels_path, "w:xz") as tar:
            for h in sorted(kernels):
                tar.add(kernels[h] + ".ttgir", arcname=h + ".ttgir")
                tar.add(os.path.join(tmp, h + ".sass"), arcname=h + ".sass")
    committed.cleanup()
    print(f"{len(workloads)} workloads, {len(launches)} launches, {len(kernels)} kernels")


if __name__ == "__main__":
    main()
