"""llcheck against Triton's own toLinearLayout on the conformance grid (see grid.py).

Every case Triton answers must be answered the same way by `llcheck batch`:
  * Triton returned a layout: llcheck returns the same layout (in dims, their sizes and bases;
    for distributed encodings also the out dims' sizes; shared layouts from Gluon carry no out
    sizes, and llcheck's are the tensor shape);
  * Triton rejected the case: llcheck rejects it too.
A case that differs fails the test unless known_differences.json lists it with its explanation
(matched by encoding, kind of difference and a substring of the attribute). Entries that match
nothing fail too, so the file cannot go stale.
"""

import collections
import json
import os

import conftest
import grid

HERE = os.path.dirname(os.path.abspath(__file__))
MIN_CASES = 10_000


def known_differences():
    with open(os.path.join(HERE, "known_differences.json")) as f:
        return json.load(f)


def difference(triton, ours):
    """None when llcheck agrees with Triton, else (kind, detail)."""
    if "error" in triton:
        if ours is None or "error" in ours:
            return None
        return ("llcheck-accepts", f"Triton: {triton['error'][:200]}")
    if ours is None:
        return ("not-asked", "Triton built the layout but printed no attribute for it")
    if "error" in ours:
        return ("llcheck-rejects", ours["error"][:300])
    theirs_ins = [[n, bs] for n, bs in triton["ins"]]
    ours_ins = [[d["name"], d["bases"]] for d in ours["layout"]["ins"]]
    if triton["encoding"] == "tensor_memory":  # Gluon returns no block bases to compare
        ours_ins = [i for i in ours_ins if i[0] != "block"]
    if ours_ins != theirs_ins:
        return ("layout-differs", f"ins: Triton {theirs_ins} llcheck {ours_ins}")
    ours_outs = [d["size"] for d in ours["layout"]["outs"]]
    expected_outs = triton["outs"] if triton["outs"] is not None else triton["shape"]
    names = [d["name"] for d in ours["layout"]["outs"]]
    if ours_outs != expected_outs or names != [f"dim{i}" for i in range(len(names))]:
        return ("layout-differs", f"outs: Triton {expected_outs} llcheck {names} {ours_outs}")
    return None


def explained(entry, triton, kind):
    return (entry["encoding"] == triton["encoding"] and entry["kind"] == kind
            and entry.get("attr_contains", "") in triton.get("attr", ""))


def test_grid_is_large_and_covers_every_encoding(triton_answers):
    assert len(triton_answers) >= MIN_CASES
    layouts = collections.Counter(a["encoding"] for a in triton_answers if "ins" in a)
    encodings = {name for name, _, _ in grid.reference.GENERATORS}
    # padded_shared's layout is not available from Python (only its errors are), so it is the
    # one encoding whose cases are all rejections.
    missing = {e for e in encodings if layouts[e] == 0} - {"padded_shared"}
    assert not missing, f"Triton built no layout for {sorted(missing)}"
    assert sum(layouts.values()) >= MIN_CASES * 0.8


def test_llcheck_matches_triton(triton_answers, llcheck_answers):
    diffs = known_differences()
    entries = diffs["differences"]
    assert diffs["triton_version"] == grid.triton.__version__, (
        "known_differences.json was written for another Triton version")
    used = [0] * len(entries)
    counts = collections.defaultdict(collections.Counter)
    unexplained = []
    for t in triton_answers:
        ours = llcheck_answers.get(t["id"]) if "attr" in t else None
        d = difference(t, ours)
        status = "agree"
        if d is not None:
            kind, detail = d
            hits = [i for i, e in enumerate(entries) if explained(e, t, kind)]
            for i in hits:
                used[i] += 1
            status = "known" if hits else "DIFFER"
            if not hits:
                unexplained.append(f"{t['id']} {kind}: {t.get('attr', '(no attribute)')} "
                                   f"shape {t['shape']}: {detail}")
        counts[t["encoding"]][status] += 1
    lines = [f"{'encoding':<16} {'cases':>6} {'agree':>6} {'known':>6} {'differ':>6}"]
    for enc in sorted(counts):
        c = counts[enc]
        lines.append(f"{enc:<16} {sum(c.values()):>6} {c['agree']:>6} {c['known']:>6} "
                     f"{c['DIFFER']:>6}")
    total = collections.Counter()
    for c in counts.values():
        total.update(c)
    lines.append(f"{'all':<16} {sum(total.values()):>6} {total['agree']:>6} {total['known']:>6} "
                 f"{total['DIFFER']:>6}")
    conftest.SUMMARY["lines"] = lines
    stale = [e for e, n in zip(entries, used) if n == 0]
    assert not unexplained, (f"{len(unexplained)} cases differ from Triton "
                             f"(first 20):\n" + "\n".join(unexplained[:20]))
    assert not stale, f"known differences that match no case: {stale}"
