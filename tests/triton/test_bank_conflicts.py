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

Triton's formula groups lanes into phases by the access width alone (step 3). On an H200, loads
of 8 or 16 bytes whose lanes pair up on one address (lane^1 or lane^2 reads the same word) serve
twice the lanes per phase (gpu_oracle/wavefront_rule, measured); llcheck's sm90 model applies
that rule, Triton's formula does not. The comparison with Triton therefore runs llcheck with
`--hardware sm80` (sm90's instructions, the bank model without paired lanes: Triton's phases);
test_paired_lanes_match_enumeration checks llcheck's sm90 count, paired lanes included, against
the enumeration on every case where a pair exists.

Both vectorise to at most 16 bytes and drop broadcast registers; llcheck allows any change of
register basis where Triton allows a permutation. Where llcheck and Triton disagree the case
must be listed in bank_known_differences.json under a class of disagreement, with the class's
explanation; each class has a check (CLASSES below) that every case listed under it must pass,
re-derived in Python from Triton's own layouts (bank_reference.py). A listed case that no
longer differs, or a class that matches no case, fails the test too.

Two more tests pin the references: bank_reference.triton_formula reproduces Triton's number on
every case (so the docstring above is what Triton computes), and llcheck's number equals the
enumeration of every lane's address (bank_reference.enumerate_per_phase) with llcheck's vector
wherever llcheck builds the same layouts as Triton.
"""

import collections
import json
import os
import subprocess
import tempfile
import threading

import pytest

import bank_grid
import bank_reference as ref
import conftest

HERE = os.path.dirname(os.path.abspath(__file__))
MIN_CASES = 500
KNOWN = os.path.join(HERE, "bank_known_differences.json")


@pytest.fixture(scope="module")
def triton_bank_answers():
    answers = bank_grid.triton_bank_grid()
    answered = [a for a in answers if "triton" in a]
    assert len(answered) >= MIN_CASES, f"Triton answered only {len(answered)} cases"
    return answered


@pytest.fixture(scope="module")
def llcheck_bank_answers(triton_bank_answers):
    return run_llcheck(triton_bank_answers)


@pytest.fixture(scope="module")
def same_layouts(triton_bank_answers):
    return compare_layouts(triton_bank_answers)


def compare_layouts(triton_bank_answers):
    """{case id: whether llcheck builds Triton's REG and SHARED layouts} (one `llcheck batch`)."""
    lines = []
    for a in triton_bank_answers:
        for tag, attr in (("reg", a["reg_attr"]), ("shared", a["shared_attr"])):
            lines.append(json.dumps({"id": f"{a['id']}|{tag}", "attr": attr, "shape": a["shape"]}))
    proc = subprocess.run([conftest.llcheck_binary(), "batch", "-"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    got = {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}

    def bases(r):
        return {d["name"]: d["bases"] for d in r["layout"]["ins"]} if "layout" in r else None
    return {a["id"]: bases(got[a["id"] + "|reg"]) == a["reg_ll"]
            and bases(got[a["id"] + "|shared"]) == a["shared_ll"] for a in triton_bank_answers}


def _shape_arg(shape):
    return "x".join(str(s) for s in shape)


def run_llcheck(answers, workers=2, hardware="sm80"):
    """llcheck bank-conflicts --arch sm90 --hardware HARDWARE --format json on every case Triton
    answered: the cases are written to a file per worker and one shell loop per worker runs them.
    HARDWARE sm80 counts with Triton's phases, sm90 with the paired-lane rule (docstring)."""
    llcheck = conftest.llcheck_binary()
    cases = [a for a in answers if "triton" in a]
    shards = [cases[i::workers] for i in range(workers)]
    results = {}
    script = ('while IFS="$(printf \'\\t\')" read -r id reg shared shape dtype; do '
              'out=$("$0" bank-conflicts "$reg" "$shared" --shape "$shape" --dtype "$dtype" '
              '--arch sm90 --hardware "$2" --format json 2>&1); '
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
            procs.append(subprocess.Popen(["sh", "-c", script, llcheck, path, hardware],
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


def vector(report, rec):
    return report["load"]["vector_bits"] // rec["bitwidth"]


# Each class of known difference: a check every case listed under it must pass.
def _vectorisation(rec, ours, same):
    """llcheck's vector is wider than Triton's (Triton permutes registers, llcheck takes any
    change of register basis) and each count is the enumeration's for its own vector."""
    v_triton, v_ours = ref.triton_vector(rec), vector(ours, rec)
    return (same and v_ours > v_triton
            and ref.enumerate_per_phase(rec, v_triton) == rec["triton"]
            and ref.enumerate_per_phase(rec, v_ours) == ours_as_triton(ours))


def _subword_banks(rec, ours, same):
    """Same vector; Triton's formula taken in 4-byte words gives llcheck's count, which is the
    enumeration's."""
    v = vector(ours, rec)
    return (same and v == ref.triton_vector(rec) and ref.subword_witness(rec)
            and ref.triton_formula(rec, words=True) == ours_as_triton(ours)
            == ref.enumerate_per_phase(rec, v))


def _layout_differs(rec, ours, same):
    """llcheck builds another layout than Triton's toLinearLayout for REG or SHARED."""
    return not same


def _non_injective_shared(rec, ours, same):
    """llcheck builds Triton's layouts, but SHARED gives some elements several offsets: llcheck's
    bank model needs one offset per element and refuses the case; Triton's predictor counts."""
    return same and "not invertible" in ours.get("error", "")


CLASSES = {"vectorisation": _vectorisation, "subword-banks": _subword_banks,
           "layout-differs": _layout_differs, "non-injective-shared": _non_injective_shared}
# The classes whose cases llcheck refuses (every other listed case must have a count).
REFUSED_CLASSES = {"non-injective-shared"}


def test_triton_formula_is_understood(triton_bank_answers):
    """bank_reference.triton_formula, the docstring's statement of Triton's computation,
    reproduces Triton's number on every case."""
    wrong = [f"{a['id']}: Triton {a['triton']}, formula {ref.triton_formula(a)}"
             for a in triton_bank_answers if ref.triton_formula(a) != a["triton"]]
    assert not wrong, "\n".join(wrong[:20])


def test_llcheck_matches_enumeration(triton_bank_answers, llcheck_bank_answers, same_layouts):
    """llcheck's per-phase count is the enumeration's, with llcheck's vector, on Triton's
    layouts (where llcheck builds the same layouts)."""
    wrong = []
    for a in triton_bank_answers:
        ours = llcheck_bank_answers[a["id"]]
        if "error" in ours or not same_layouts[a["id"]]:
            continue
        want = ref.enumerate_per_phase(a, vector(ours, a))
        if ours_as_triton(ours) != want:
            wrong.append(f"{a['id']}: llcheck {ours_as_triton(ours)}, enumeration {want}")
    assert not wrong, "\n".join(wrong[:20])


def test_paired_lanes_match_enumeration(triton_bank_answers, llcheck_bank_answers, same_layouts):
    """On the cases whose loads pair lanes (8 or 16 bytes per lane, lane^1 or lane^2 on the same
    address), llcheck's sm90 count is the enumeration with twice the lanes per phase, and the
    classic count (--hardware sm80) is the enumeration without."""
    paired = [a for a in triton_bank_answers
              if "error" not in llcheck_bank_answers[a["id"]] and same_layouts[a["id"]]
              and ref.pairs_lanes(a, vector(llcheck_bank_answers[a["id"]], a))]
    assert len(paired) >= 20, f"only {len(paired)} cases pair lanes: the grid lost them"
    sm90 = run_llcheck(paired, hardware="sm90")
    wrong, changed = [], 0
    for a in paired:
        ours = sm90[a["id"]]
        v = vector(ours, a)
        assert v == vector(llcheck_bank_answers[a["id"]], a), a["id"]
        want = ref.enumerate_per_phase(a, v, paired=True)
        if "error" in ours or ours_as_triton(ours) != want:
            wrong.append(f"{a['id']}: llcheck sm90 {ours.get('error') or ours_as_triton(ours)}, "
                         f"enumeration with paired lanes {want}")
        changed += want != ref.enumerate_per_phase(a, v)
    assert not wrong, "\n".join(wrong[:20])
    # The rule must matter somewhere, or this test checks nothing the other one does not.
    assert changed > 0, "pairing changes no count on this grid"
    conftest.SUMMARY["paired_line"] = (f"paired lanes: {len(paired)} cases pair lanes, "
                                       f"{changed} counted differently from Triton's phases, "
                                       f"all equal to the enumeration")


def test_bank_conflicts_match_triton(triton_bank_answers, llcheck_bank_answers, same_layouts):
    with open(KNOWN) as f:
        known = json.load(f)
    assert known["triton_version"] == bank_grid.grid.triton.__version__, (
        "bank_known_differences.json was written for another Triton version")
    listed = {}
    for entry in known["differences"]:
        assert entry["class"] in CLASSES, f"unknown class {entry['class']}"
        for cid in entry["cases"]:
            assert cid not in listed, f"{cid} is listed twice"
            listed[cid] = entry["class"]
    used = collections.Counter()
    counts = collections.defaultdict(collections.Counter)
    problems = []
    for a in triton_bank_answers:
        cid = a["id"]
        ours = llcheck_bank_answers[cid]
        detail = None
        if "error" in ours:
            detail = f"llcheck rejects: {ours['error']}"
        elif ours_as_triton(ours) != a["triton"]:
            detail = f"Triton {a['triton']}, llcheck {ours_as_triton(ours)} (load: {ours['load']})"
        status = "agree"
        if detail is not None and cid in listed:
            status = "known"
            used[listed[cid]] += 1
            if (("error" in ours) != (listed[cid] in REFUSED_CLASSES)
                    or not CLASSES[listed[cid]](a, ours, same_layouts[cid])):
                problems.append(f"{cid} is not of class {listed[cid]}: {detail}")
        elif detail is not None:
            status = "DIFFER"
            problems.append(f"{cid} {a['encoding']} bitwidth {a['bitwidth']} shape "
                            f"{a['shape']}: {a['reg_attr']} {a['shared_attr']}: {detail}")
        elif cid in listed:
            problems.append(f"{cid} is listed under {listed[cid]} but agrees now")
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
    lines.append("known: " + ", ".join(f"{k} {used[k]}" for k in CLASSES))
    conftest.SUMMARY["bank_lines"] = lines
    answered = {a["id"] for a in triton_bank_answers}
    problems += [f"{cid} is listed but Triton did not answer it" for cid in listed
                 if cid not in answered]
    assert not problems, f"{len(problems)} problems (first 20):\n" + "\n".join(problems[:20])
    unused = [e["class"] for e in known["differences"] if used[e["class"]] == 0]
    assert not unused, f"known-difference classes that match no case: {unused}"


def classify(rec, ours, same):
    """The first class whose check the differing case passes, or None."""
    if "error" in ours:
        return None
    return next((name for name, check in CLASSES.items() if check(rec, ours, same)), None)


def main():
    """--write-known: rewrite the case lists of bank_known_differences.json from the current
    Triton and llcheck (explanations kept; a class with no case is dropped, a differing case
    that fits no class is printed and left out, so that the test fails on it)."""
    import argparse
    import sys
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--write-known", action="store_true", required=True)
    ap.parse_args()
    answers = [a for a in bank_grid.triton_bank_grid() if "triton" in a]
    ours = run_llcheck(answers)
    same = compare_layouts(answers)
    with open(KNOWN) as f:
        known = json.load(f)
    by_class = collections.defaultdict(list)
    for a in answers:
        r = ours[a["id"]]
        if "error" not in r and ours_as_triton(r) == a["triton"]:
            continue
        c = classify(a, r, same[a["id"]])
        if c is None:
            print(f"unclassified: {a['id']} {a['reg_attr']} {a['shared_attr']} {a['shape']} "
                  f"bitwidth {a['bitwidth']}: Triton {a['triton']}, llcheck {r}", file=sys.stderr)
        else:
            by_class[c].append(a["id"])
    known["differences"] = [dict(e, cases=by_class[e["class"]]) for e in known["differences"]
                            if by_class[e["class"]]]
    with open(KNOWN, "w") as f:
        json.dump(known, f, indent=2)
        f.write("\n")
    print({c: len(v) for c, v in by_class.items()})


if __name__ == "__main__":
    main()
