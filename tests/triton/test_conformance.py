"""llcheck against Triton's own toLinearLayout on the conformance grid (see grid.py), run with
`llcheck batch --triton X.Y` for the Triton X.Y of this environment.

Every case Triton answers must be answered the same way by `llcheck batch`:
  * Triton returned a layout: llcheck returns the same layout (in dims, their sizes and bases;
    for distributed encodings also the out dims' sizes; shared layouts from Gluon carry no out
    sizes, and llcheck's are the tensor shape);
  * Triton's compiled code answered (Triton 3.6's shared encodings, grid.py): where its stores
    determine the layout, the same comparison; otherwise llcheck's layout must put every stored
    element where Triton's code stored it (each (element, offset, CTA) triple);
  * Triton rejected the case: llcheck rejects it too.
A case Triton cannot be asked about ("unanswered": Triton 3.6's tensor memory) is counted apart
and must still be read by llcheck.
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


def known_differences_path():
    """known_differences.json for Triton 3.9.0, known_differences-<version>.json for others."""
    version = grid.triton.__version__
    if version == "3.9.0":
        return os.path.join(HERE, "known_differences.json")
    return os.path.join(HERE, f"known_differences-{version}.json")


def known_differences():
    with open(known_differences_path()) as f:
        return json.load(f)


def _coords(index, shape):
    out = []
    for size in reversed(shape):
        out.append(index % size)
        index //= size
    return list(reversed(out))


def _apply(layout, inputs):
    """Layout JSON applied to {in dim: value}; None when a value is outside its dim."""
    out = [0] * len(layout["outs"])
    for d in layout["ins"]:
        v = inputs.get(d["name"], 0)
        if v >> len(d["bases"]):
            return None
        for i, b in enumerate(d["bases"]):
            if v >> i & 1:
                out = [x ^ y for x, y in zip(out, b)]
    return out


def pairs_difference(triton, layout):
    """The first stored element llcheck's layout puts elsewhere, or None. With #ttg.padded_shared
    the stored offsets include the padding: each is taken back to the linear offset whose padded
    position it is (compiled_shared.padded_offset, Triton's definition)."""
    linear = None
    if triton.get("padding"):
        size = 1 << next((len(d["bases"]) for d in layout["ins"] if d["name"] == "offset"), 0)
        linear = {grid.compiled_shared.padded_offset(triton["padding"], o): o for o in range(size)}
    for element, offset, cta in triton["pairs"]:
        if linear is not None:
            if offset not in linear:
                return (f"Triton's code stores element {_coords(element, triton['shape'])} at "
                        f"{offset}, a padding position of llcheck's padded layout")
            offset = linear[offset]
        got = _apply(layout, {"offset": offset, "block": cta})
        if got != _coords(element, triton["shape"]):
            return (f"Triton's code stores element {_coords(element, triton['shape'])} at offset "
                    f"{offset} of CTA {cta}; llcheck's layout has {got} there")
    return None


def difference(triton, ours):
    """None when llcheck agrees with Triton, else (kind, detail)."""
    if "unanswered" in triton:
        return ("unanswered", triton["unanswered"])
    if "error" in triton:
        if ours is None or "error" in ours:
            return None
        return ("llcheck-accepts", f"Triton: {triton['error'][:200]}")
    if ours is None:
        return ("not-asked", "Triton built the layout but printed no attribute for it")
    if "error" in ours:
        return ("llcheck-rejects", ours["error"][:300])
    if "pairs" in triton:
        detail = pairs_difference(triton, ours["layout"])
        return ("layout-differs", detail) if detail else None
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
    """An entry matches by encoding, kind and attr_contains, and where it names a
    "triton_flag" (e.g. "miscompiled", set by grid.py) only cases Triton's answer carries it."""
    return (entry["encoding"] == triton["encoding"] and entry["kind"] == kind
            and entry.get("attr_contains", "") in triton.get("attr", "")
            and (not entry.get("triton_flag") or entry["triton_flag"] in triton))


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
        f"{known_differences_path()} was written for another Triton version")
    used = [0] * len(entries)
    counts = collections.defaultdict(collections.Counter)
    unexplained = []
    for t in triton_answers:
        ours = llcheck_answers.get(t["id"]) if "attr" in t else None
        d = difference(t, ours)
        status = "agree"
        if d is not None and d[0] == "unanswered":
            status = "unasked"
        elif d is not None:
            kind, detail = d
            hits = [i for i, e in enumerate(entries) if explained(e, t, kind)]
            for i in hits:
                used[i] += 1
            status = "known" if hits else "DIFFER"
            if not hits:
                unexplained.append(f"{t['id']} {kind}: {t.get('attr', '(no attribute)')} "
                                   f"shape {t['shape']}: {detail}")
        counts[t["encoding"]][status] += 1
    # "by code": cases Triton answered through the code it compiles (grid.py, Triton 3.6's
    # shared encodings); "unasked": cases Triton cannot be asked about (counted, not compared).
    compiled = collections.Counter(t["encoding"] for t in triton_answers
                                   if t.get("how") == "compiled" and "unanswered" not in t)
    lines = [f"llcheck batch --triton {conftest.triton_version()}",
             f"{'encoding':<16} {'cases':>6} {'agree':>6} {'known':>6} {'differ':>6} "
             f"{'unasked':>7} {'by code':>7}"]
    for enc in sorted(counts):
        c = counts[enc]
        lines.append(f"{enc:<16} {sum(c.values()):>6} {c['agree']:>6} {c['known']:>6} "
                     f"{c['DIFFER']:>6} {c['unasked']:>7} {compiled[enc]:>7}")
    total = collections.Counter()
    for c in counts.values():
        total.update(c)
    lines.append(f"{'all':<16} {sum(total.values()):>6} {total['agree']:>6} {total['known']:>6} "
                 f"{total['DIFFER']:>6} {total['unasked']:>7} {sum(compiled.values()):>7}")
    conftest.SUMMARY["lines"] = lines
    stale = [e for e, n in zip(entries, used) if n == 0]
    assert not unexplained, (f"{len(unexplained)} cases differ from Triton "
                             f"(first 20):\n" + "\n".join(unexplained[:20]))
    assert not stale, f"known differences that match no case: {stale}"
