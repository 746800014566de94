"""llcheck's bank model against Triton's own bank-conflict predictor (see bank_grid.py).

Triton's number (ttg::bankConflictsMemDesc, Triton 3.9.0, lib/Tools/GenericSwizzling.cpp) is,
for the register layout REG accessing the shared layout SHARED with `bitwidth`-bit elements:

  1. drop REG's broadcast registers; vectorise with the largest v <= 128/bitwidth elements
     such that some permutation of the registers maps register bits 0..log2(v)-1 onto offset
     bits 0..log2(v)-1 and no other column of SHARED^-1 o REG touches those bits
     (largestVectorisation);
  2. split SHARED's offsets into vector (v elements), bank (32 banks x 32 bits / (v*bitwidth)
     vectors, at most the whole tensor) and segment (the rest);
  3. the lane tile: REG's lane bases (in flattened tensor coordinates) without the last
     log2(phases) of them, phases = max(1, v*bitwidth/32 * 32 lanes / 32 banks): the lanes of
     one phase, 32, 16 or 8 consecutive lanes for 32-, 64- and 128-bit accesses;
  4. answer 2^dim(span(segment) ∩ span(lane tile)) - 1: the excess wavefronts per phase.

llcheck's JSON gives, per direction, wavefronts and ideal_wavefronts (one per phase of every
instruction); its model has the same number c of wavefronts in every phase (BankConflicts.h),
so c = wavefronts / ideal_wavefronts. Triton's number concerns REG's accesses, the same lanes
for a load and a store on NVIDIA (llcheck's phases differ between them only for AMD's
ds_read_b128), so the comparison uses llcheck's "load" (REG reading SHARED):

    triton == load.wavefronts / load.ideal_wavefronts - 1        (--arch sm90, per phase)

Both vectorise to at most 16 bytes and drop broadcast registers; llcheck allows any change of
register basis where Triton allows a permutation. Where llcheck and Triton disagree the case
must be listed in bank_known_differences.json (each entry: a class of disagreement, its
explanation, and the case ids); an entry whose cases no longer differ fails the test too.
"""

import collections
import json
import os
import subprocess
import tempfile
import threading

import pytest

import bank_grid
import conftest

HERE = os.path.dirname(os.path.abspath(__file__))
MIN_CASES = 500
KNOWN = os.path.join(HERE, "bank_known_differences.json")


@pytest.fixture(scope="module")
def triton_bank_answers():
    return bank_grid.triton_bank_grid()


def _shape_arg(shape):
    return "x".join(str(s) for s in shape)


def run_llcheck(answers, workers=2):
    """llcheck bank-conflicts --format json on every case Triton answered: the cases are written
    to a file per worker and one shell loop per worker runs them."""
    llcheck = conftest.llcheck_binary()
    cases = [a for a in answers if "triton" in a]
    shards = [cases[i::workers] for i in range(workers)]
    results = {}
    script = ('while IFS="$(printf \'\\t\')" read -r id reg shared shape dtype; do '
              'out=$("$0" bank-conflicts "$reg" "$shared" --shape "$shape" --dtype "$dtype" '
              '--arch sm90 --format json 2>&1); '
              'printf "%s\\t%s\\t%s\\n" "$id" "$?" "$(printf %s "$out" | tr "\\n" " ")"; '
              'done < "$1"')
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for k, shard in enumerate(shards):
            path = os.path.join(tmp, f"cases{k}.tsv")
            with open(path, "w") as f:
                for a in shard:
                    f.write("\t".join([a["id"], a["reg_attr"], a["shared_attr"],
                                       _shape_arg(a["shape"]),
                                       bank_grid.DTYPES[a["bitwidth"]]]) + "\n")
            procs.append(subprocess.Popen(["sh", "-c", script, llcheck, path],
                                          stdout=subprocess.PIPE, text=True))
        outs = [None] * len(procs)

        def drain(k):
            outs[k] = procs[k].communicate()[0]
        threads = [threading.Thread(target=drain, args=(k,)) for k in range(len(procs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for out in outs:
        for line in out.splitlines():
            cid, rc, text = line.split("\t", 2)
            if rc == "0":
                results[cid] = json.loads(text)
            else:
                results[cid] = {"error": text.strip()[:300], "exit": int(rc)}
    return results


def ours_as_triton(report):
    """llcheck's load count as Triton's quantity: wavefronts per phase minus 1."""
    load = report["load"]
    assert load["wavefronts"] % load["ideal_wavefronts"] == 0, report
    return load["wavefronts"] // load["ideal_wavefronts"] - 1


def test_bank_conflicts_match_triton(triton_bank_answers):
    with open(KNOWN) as f:
        known = json.load(f)
    assert known["triton_version"] == bank_grid.grid.triton.__version__, (
        "bank_known_differences.json was written for another Triton version")
    answered = [a for a in triton_bank_answers if "triton" in a]
    assert len(answered) >= MIN_CASES, f"Triton answered only {len(answered)} cases"
    ours = run_llcheck(answered)
    listed = {}
    for k, entry in enumerate(known["differences"]):
        for cid in entry["cases"]:
            assert cid not in listed, f"{cid} is listed twice"
            listed[cid] = k
    used = collections.Counter()
    counts = collections.defaultdict(collections.Counter)
    unexplained = []
    for a in answered:
        r = ours[a["id"]]
        detail = None
        if "error" in r:
            detail = f"llcheck rejects: {r['error']}"
        else:
            mine = ours_as_triton(r)
            if mine != a["triton"]:
                detail = (f"Triton {a['triton']}, llcheck {mine} (load: {r['load']})")
        status = "agree"
        if detail is not None:
            if a["id"] in listed:
                status = "known"
                used[listed[a["id"]]] += 1
            else:
                status = "DIFFER"
                unexplained.append(f"{a['id']} {a['encoding']} bitwidth {a['bitwidth']} shape "
                                   f"{a['shape']}: {a['reg_attr']} {a['shared_attr']}: {detail}")
        elif a["id"] in listed:
            status = "STALE"
        counts[a["encoding"]][status] += 1
    lines = [f"{'register/shared':<26} {'cases':>6} {'agree':>6} {'known':>6} {'differ':>6}"]
    total = collections.Counter()
    for enc in sorted(counts):
        c = counts[enc]
        total.update(c)
        lines.append(f"{enc:<26} {sum(c.values()):>6} {c['agree']:>6} {c['known']:>6} "
                     f"{c['DIFFER']:>6}")
    lines.append(f"{'all':<26} {sum(total.values()):>6} {total['agree']:>6} {total['known']:>6} "
                 f"{total['DIFFER']:>6}")
    conftest.SUMMARY.setdefault("lines", []).extend(["", "bank conflicts (per phase):"] + lines)
    stale = sorted(cid for cid in listed
                   if cid not in {a["id"] for a in answered}
                   or ours[cid].get("error") is None and ours_as_triton(ours[cid])
                   == next(a["triton"] for a in answered if a["id"] == cid))
    assert not unexplained, (f"{len(unexplained)} cases differ from Triton (first 20):\n"
                             + "\n".join(unexplained[:20]))
    assert not stale, f"known differences that no longer differ: {stale}"
    unused = [e["class"] for k, e in enumerate(known["differences"]) if used[k] == 0]
    assert not unused, f"known-difference classes that match no case: {unused}"
