"""llcheck report against the H200 on real kernels (issue 32): the Triton kernels that
Liger-Kernel's and FlagGems' operators and Triton's tutorial matmul launch (workloads.py), run
and measured by run.sh, merged by analyze.py into data/. For each launch, `llcheck report
--triton V --hardware sm90` of the TTGIR that ran (with its SASS beside it) is summed by
instruction kind and width over the kernel's ops and compared with what ncu counted per SASS
instruction:

- shared memory (st / ld.shared of each width, ldmatrix / stmatrix .xN[.trans], cp.async .ca /
  .cg of each size, atom.shared): the kind and width, the wavefronts per executed instruction,
  and the instructions executed;
- global memory (ld / st.global of each width): instructions executed and L2 sectors.

An op runs grid x trips times (trips: the report's product of its scf.for loops' trip counts).
An op under a run-time scf.if (the report's `under_if`) runs only in the launches that take its
region: for each launch one region of each scf.if is taken, the one under which the most of the
launch's sides agree (FlagGems' mm: its TMA kernel or its cp.async kernel).
Where a loop's bounds are kernel arguments the report has no trip count (`trips` null) but
gives its `trips_formula`, which is evaluated with the launch's recorded arguments and grid
(data/recorded-3.6.json.xz: Liger and the tutorial; data/recorded-flaggems-3.6.json.xz:
FlagGems'). Where neither is known (a loop with no formula, an scf.while, a launch recorded
with another autotune choice than the measured one) the side's instructions executed are not
established, and its wavefronts per instruction are compared with the range the contributing
ops' own ratios span (exact where they agree). Every
side that does not agree is listed with its reason in known_differences.json; table-RELEASE.md
in reports/ is the committed summary (LLCHECK_UPDATE_TABLE=1 rewrites it). No GPU needed."""
import ast
import collections
import itertools
import json
import lzma
import os
import re
import subprocess
import tarfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RELEASES = [r for r in ("3.6", "3.9") if os.path.exists(os.path.join(HERE, "data",
                                                                      f"measured-{r}.json.xz"))]
KNOWN = json.load(open(os.path.join(HERE, "known_differences.json")))


RECORDINGS = ("recorded-3.6.json.xz", "recorded-flaggems-3.6.json.xz", "recorded-fla-3.6.json.xz",
              "recorded-inductor-3.6.json.xz")


def recorded_launches():
    """The launches recorded on the H200 (data/recorded-3.6.json.xz: Liger and the tutorial,
    replayed by 3.9; data/recorded-flaggems-3.6.json.xz: FlagGems', recorded where its LibEntry
    launches the compiled kernel): launch id -> (the kernel's name, grid, its integer arguments
    by name, its pointer arguments' offsets past 16 bytes by name)."""
    out = {}
    for name in RECORDINGS:
        path = os.path.join(HERE, "data", name)
        for w in json.load(lzma.open(path))["workloads"] if os.path.exists(path) else []:
            for i, r in enumerate(w["recorded"]):
                ints = {n: a["int"] for n, a in zip(r["names"], r["args"]) if "int" in a}
                ints.update({n: int(a["bool"]) for n, a in zip(r["names"], r["args"])
                             if "bool" in a})
                aligns = {n: a["align"] for n, a in zip(r["names"], r["args"]) if "align" in a}
                out[f"{w['id']}#{i}"] = (r["fn"].split(":")[-1], r["grid"], ints, aligns,
                                         r.get("options", {}))
    return out


def record_of(launch, ttgir):
    """The recorded launch of a measured one, where the record is of the kernel that ran: the
    same function, grid size and warps, and every recorded BLOCK* constexpr a dim of some tensor
    of its TTGIR (the recording and the measured run are separate runs, and an autotuner can
    pick another configuration of the same grid size in each: FlagGems' addmm, 64 x 256 tiles
    recorded, 128 x 128 measured). None otherwise."""
    rec = RECORDED.get(launch["id"])
    if not rec or rec[0] != launch["name"] or rec[1][0] * rec[1][1] * rec[1][2] != launch["grid"]:
        return None
    if rec[4].get("num_warps", 4) != launch.get("num_warps", rec[4].get("num_warps", 4)):
        return None
    dims = {int(d) for d in re.findall(r"(\d+)x", ttgir)}
    blocks = [v for n, v in rec[2].items() if n.startswith("BLOCK")]
    if any(v not in dims and v > 1 for v in blocks):
        return None
    # The first two, as a tile's shape: FlagGems' addmm records BLOCK_SIZE_M, _N, _K, and a
    # 32 x 64 config is not the 64 x 32 one that ran.
    if len(blocks) >= 2 and min(blocks[:2]) > 1 and \
            not re.search(rf"\b{blocks[0]}x{blocks[1]}x", ttgir):
        return None
    return rec


def launches_file(measured, folder, path):
    """`llcheck report --launches` of the measured launches that were recorded: each kernel's
    tt.load / tt.store then gets its instructions and sectors in that launch. The record gives
    a pointer's offset past 16 bytes (what Triton's binder reads), not its place in a 32-byte
    sector: a launch with a pointer off 16 bytes (FlagGems' flip reads a view that starts at a
    row's last element) is left to the per-CTA prediction, and one on 16 bytes is taken on 32
    (PyTorch's allocator aligns to 512 bytes; a view at an odd 16 bytes would count wrong)."""
    launches = []
    for launch in measured["launches"]:
        rec = record_of(launch, open(os.path.join(folder, launch["hash"] + ".ttgir")).read())
        if rec and not any(rec[3].values()):
            launches.append({"id": launch["id"], "kernel": launch["hash"], "grid": rec[1],
                             "integers": rec[2]})
    json.dump({"launches": launches}, open(path, "w"))
    return path


RECORDED = recorded_launches()

# The report's trips_formula (docs/report.md): integers, names, + - * and these calls.
FORMULA_CALLS = {
    "div": lambda a, b: abs(a) // abs(b) * (1 if (a >= 0) == (b > 0) else -1),
    "rem": lambda a, b: a - b * FORMULA_CALLS["div"](a, b),
    "cdiv": lambda a, b: -(-a // b) if b > 0 else None,
    "min": min, "max": max,
    "trips": lambda lb, ub, st: max(0, -(-(ub - lb) // st)) if st > 0 else None,
}


def formula_runs(formula, grid, ints):
    """The runs per launch of an op whose trips per program are `formula`, with the launch's
    grid ([x, y, z]) and integer arguments: summed over the programs where it names a program
    id. None where it names something the launch does not give."""
    tree = ast.parse(formula, mode="eval")
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif not isinstance(node, (ast.Expression, ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Call,
                                   ast.Constant, ast.Load, ast.UnaryOp, ast.USub)):
            raise AssertionError(f"trips_formula {formula!r}: {type(node).__name__}")
    code = compile(tree, "<trips_formula>", "eval")
    values = dict(ints, num_programs_x=grid[0], num_programs_y=grid[1], num_programs_z=grid[2])
    pids = [n for n in ("pid_x", "pid_y", "pid_z") if n in names]
    if names - set(values) - set(FORMULA_CALLS) - set(pids):
        return None
    total = 0
    for at in itertools.product(*(range(grid["xyz".index(n[-1])]) for n in pids)):
        v = eval(code, {"__builtins__": {}, **FORMULA_CALLS}, dict(values, **dict(zip(pids, at))))
        if v is None:
            return None
        total += v
    for n, size in zip(("pid_x", "pid_y", "pid_z"), grid):
        if n not in pids:
            total *= size  # the programs along a dim the formula does not name run alike
    return total

SASS_SHARED = re.compile(r"^(STS|LDS|LDSM|STSM|LDGSTS|ATOMS)((\.[A-Z0-9]+)*)$")
SASS_GLOBAL = re.compile(r"^(LDG|STG)\.E((\.[A-Z0-9]+)*)$")
WIDTHS = {".U8": 8, ".S8": 8, ".U16": 16, ".S16": 16, ".64": 64, ".128": 128}


def llcheck():
    path = os.environ.get("LLCHECK")
    if not path or not os.path.exists(path):
        pytest.skip("LLCHECK (the llcheck binary) is not set")
    return path


def opcode(sass):
    parts = sass.split()
    return parts[1] if parts[0].startswith("@") and len(parts) > 1 else parts[0]


def width(suffix, default=32):
    return next((w for s, w in WIDTHS.items() if s in suffix.split(".") or
                 s in [("." + p) for p in suffix.split(".")]), default)


def sass_key(sass):
    """The instruction kind and width of a SASS instruction, in the PTX's words, or None. An
    instruction predicated on !PT never executes its access (ptxas's `@!PT LDS RZ, [RZ]`
    placeholders, counted as executed by ncu with no wavefront): none."""
    if sass.split()[0] == "@!PT":
        return None
    op = opcode(sass)
    m = SASS_SHARED.match(op)
    if m:
        kind, suffix = m.group(1), m.group(2) or ""
        parts = suffix.split(".")
        if kind in ("LDSM", "STSM"):
            n = parts[-1] if parts[-1] in ("2", "4") else "1"
            trans = ".trans" if "MT88" in parts else ""
            return ("ldmatrix" if kind == "LDSM" else "stmatrix") + f".x{n}{trans}"
        if kind == "LDGSTS":
            return f"cp.async.{'cg' if 'BYPASS' in parts else 'ca'} {width(suffix)}-bit"
        if kind == "ATOMS":
            return f"atom.shared {64 if '64' in parts else 32}-bit"
        return f"{'st' if kind == 'STS' else 'ld'}.shared {width(suffix)}-bit"
    m = SASS_GLOBAL.match(op)
    if m:
        return f"{'ld' if m.group(1) == 'LDG' else 'st'}.global {width(m.group(2) or '')}-bit"
    return None


def access_key(a):
    """The same key for one of the report's access objects (`instruction`, `vector_bits`)."""
    ins = a["instruction"]
    if ins.startswith(("ldmatrix", "stmatrix")):
        n = re.search(r"\.x(\d)", ins).group(1)
        return f"{ins.split('.')[0]}.x{n}{'.trans' if '.trans' in ins else ''}"
    if ins.startswith("cp.async"):
        return f"cp.async.{ins.split('.')[2]} {a.get('copy_bytes', a['vector_bits'] // 8) * 8}-bit"
    if ins.startswith("atom"):
        return f"atom.shared {a['vector_bits']}-bit"
    return f"{ins.split('.')[0]}.shared {a['vector_bits']}-bit"


class Pred:
    """A side's prediction: instructions and wavefronts per run of each op, with its runs."""

    def __init__(self):
        self.terms = []  # (instructions, wavefronts, runs or None, wavefronts_min, data-dependent)

    def add(self, n, w, runs, wmin=None, dd=False):
        self.terms.append((n, w, runs, w if wmin is None else wmin, dd))

    def established(self):
        return all(r is not None for _, _, r, _, _ in self.terms)

    def totals(self):
        # An op of unknown trips counts once per CTA here (the side is then not established).
        return (sum(n * (r or 1) for n, _, r, _, _ in self.terms),
                sum(w * (r or 1) for _, w, r, _, _ in self.terms),
                sum(m * (r or 1) for _, _, r, m, _ in self.terms),
                any(d for *_, d in self.terms))

    def ratios(self):
        return [x / n for n, w, _, m, _ in self.terms if n for x in (w, m)]


def executed_counts(a, early_exit=None):
    """Instructions and wavefronts one run of an access executes (the SASS's early exits: a
    reduce step's own, or `early_exit`, the op's `predicted.early_exit` for its load side)."""
    ex = a.get("early_exit") or a.get("branched_around") or early_exit or {}
    n = ex.get("instructions_executed", a["instructions"])
    w = ex.get("wavefronts_executed")
    if w is None and ex.get("wavefronts_executed_at_most") is not None:
        # The report bounds them (lanes that exit make fewer wavefronts, not modelled): at
        # least one per executed instruction, at most its bound.
        return n, ex["wavefronts_executed_at_most"], n
    w = a["wavefronts"] if w is None else w
    return n, w, w


def runs_here(entry, taken):
    """Whether an op runs in the branches `taken` ({scf.if line: "then" | "else"}; None: all)."""
    where = entry.get("under_if")
    return taken is None or where is None or taken.get(where["line"], where["branch"]) == \
        where["branch"]


def op_runs(op, grid, launch):
    """An op's runs in a launch: grid x trips, or its trips_formula evaluated with the launch's
    recorded arguments; None where neither is known."""
    t = op.get("trips", 1)
    if t is not None:
        return grid * t
    if "trips_formula" not in op or launch is None:
        return None
    return formula_runs(op["trips_formula"], launch[1], launch[2])


def launch_count(entry, launch_id, field):
    """The report's count of `entry` in launch `launch_id` (`--launches`), or None."""
    return next((x for x in entry.get("launches", []) if x["launch"] == launch_id and
                 field in x), None)


def shared_predictions(kernel, grid, taken=None, launch=None, launch_id=None):
    pred = collections.defaultdict(Pred)

    def runs(op):
        # The launch's own runs of the op, where the report ran its arithmetic (`--launches`:
        # early returns, loop bounds and branches that the arguments and program ids decide).
        counted = launch_count(op, launch_id, "runs")
        if counted is not None:
            return counted["runs"]
        return op_runs(op, grid, launch)
    for op in kernel["ops"]:
        p = op.get("predicted") or {}
        # An async copy's LDGSTS in this launch, where the report ran its arithmetic: each
        # instruction's wavefronts from its lanes' own sources, masked-off lanes included.
        counted = launch_count(op, launch_id, "wavefronts")
        if counted is not None:
            pred[access_key(p["store"])].add(counted["instructions"], counted["wavefronts"], 1)
            continue
        if op["op"] == "ttg.convert_layout" and not p.get("shared_memory") or \
                not runs_here(op, taken) and launch_count(op, launch_id, "runs") is None:
            continue
        for side in ("store", "load"):
            a = p.get(side)
            # The loads after the kernel's predicated EXIT in this launch: the warps with nothing
            # to store there (the masks decide) skip them (`--launches`).
            exited = launch_count(op, launch_id, "load_instructions_executed")
            if side == "load" and exited is not None and isinstance(a, dict):
                pred[access_key(a)].add(exited["load_instructions_executed"],
                                        exited["load_wavefronts_executed"], 1)
                continue
            if isinstance(a, dict) and "instruction" in a and a.get("instructions"):
                n, w, wmin = executed_counts(a, p.get("early_exit") if side == "load" else None)
                if op["op"] == "ttg.async_copy_global_to_local":
                    w = wmin = p.get("wavefronts", w)  # source-aware LDGSTS count
                pred[access_key(a)].add(n, w, runs(op), wmin)
    for op in kernel["scratch_ops"]:
        if not runs_here(op, taken) and launch_count(op, launch_id, "runs") is None:
            continue
        for step in op.get("predicted", []):
            n, w, wmin = executed_counts(step)
            pred[access_key(step)].add(n, w, runs(op), step.get("wavefronts_min", wmin),
                                       "data_dependent" in step)
    return pred


def global_predictions(kernel, grid, taken=None, launch=None, launch_id=None):
    pred, masked, open_ = collections.defaultdict(Pred), set(), set()
    for g in kernel["global_accesses"]:
        p = g.get("predicted")
        if not isinstance(p, dict) or "requests" not in p:
            continue
        key = f"{'ld' if g['op'] == 'tt.load' else 'st'}.global {p['vector_bits']}-bit"
        # The launch's own counts, where the report ran its arithmetic (`--launches`): exact,
        # its scf.ifs taken as the launch's values take them.
        counted = launch_count(g, launch_id, "sectors")
        if counted is not None:
            pred[key].add(counted["instructions"], counted["sectors"], 1)
            continue
        if not runs_here(g, taken):
            continue
        executed = p.get("instructions_executed", {}).get("instructions")
        n = executed if executed is not None else p["instructions"]
        pred[key].add(n, p["sectors"] or 0, op_runs(g, grid, launch))
        if p["sectors"] is None:
            open_.add(key)
        if g.get("axis_info", {}).get("mask"):
            masked.add(key)
    return pred, masked, open_


Side = collections.namedtuple("Side", "space pred meas established bound ratio_range open")


def agrees(s):
    (pn, pw, pwmin, dd), (mn, mw) = s.pred, s.meas
    if s.space == "global":
        told = (pn,) if s.open else (pn, pw)
        got = (mn,) if s.open else (mn, mw)
        if not s.established:
            return bool(mn)  # only that Triton emitted this kind and width
        if s.bound:
            return all(g <= t for t, g in zip(told, got))
        return told == got
    if not mn:
        return not pn and not pw
    if not s.established:
        lo, hi = s.ratio_range
        return lo - 1e-9 <= mw / mn <= hi + 1e-9
    if dd:
        return mn <= pn and pwmin <= mw <= pw
    return pn == mn and pwmin <= mw <= pw  # exact where the report gives no range


@pytest.fixture(scope="module", params=RELEASES)
def release_sides(request, tmp_path_factory):
    release = request.param
    measured = json.load(lzma.open(os.path.join(HERE, "data", f"measured-{release}.json.xz"), "rt"))
    folder = tmp_path_factory.mktemp("kernels" + release.replace(".", ""))
    with tarfile.open(os.path.join(HERE, "data", f"kernels-{release}.tar.xz")) as tar:
        tar.extractall(folder, filter="data")
    rep = tmp_path_factory.mktemp("report" + release.replace(".", ""))
    launches = launches_file(measured, folder, rep / "launches.json")
    r = subprocess.run([llcheck(), "report", "--triton", release, "--hardware", "sm90",
                        "--no-z3", "--quiet", "--launches", str(launches), "--out", str(rep),
                        str(folder)],
                       capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    report = json.load(open(rep / "report.json"))
    by_hash = {os.path.basename(k["file"])[:-len(".ttgir")]: k for k in report["kernels"]}
    sides, branches = {}, {}
    for launch in measured["launches"]:
        kernel = by_hash[launch["hash"]]
        meas = collections.defaultdict(lambda: [0, 0])
        for i in launch["instructions"]:
            key = sass_key(i["sass"])
            if key is None:
                continue
            if ".global" in key:
                meas[key][0] += i["executed"]
                meas[key][1] += i["sectors"]
            else:
                meas[key][0] += i["executed"]
                meas[key][1] += i["wavefronts"]
        # A kernel with run-time scf.ifs runs one region of each (FlagGems' mm: its TMA or its
        # cp.async kernel): the report predicts both, and the branches taken are the ones under
        # which the most of the launch's sides agree, one choice for the whole launch.
        ifs = sorted({e["under_if"]["line"] for part in ("ops", "scratch_ops", "global_accesses")
                      for e in kernel[part] if "under_if" in e})
        choices = [dict(zip(ifs, c)) for c in itertools.product(("then", "else"), repeat=len(ifs))]
        best = None
        # The recorded arguments, where the record is of this launch (DyT's autotuner chose
        # another configuration in the recording run than in the measured one).
        rec = record_of(launch, open(os.path.join(folder, launch["hash"] + ".ttgir")).read())
        for taken in choices if len(ifs) <= 6 else [None]:
            mine = launch_sides(launch["id"], kernel, launch["grid"], meas, taken, rec)
            score = sum(agrees(x) for x in mine.values())
            if best is None or score > best[0]:
                best = (score, mine, taken)
        sides.update(best[1])
        if ifs and best[2] is not None:
            branches[launch["id"]] = best[2]
    return release, measured, report, sides, branches


def launch_sides(launch_id, kernel, grid, meas, taken, launch):
    sides = {}
    shared = shared_predictions(kernel, grid, taken, launch, launch_id)
    glob, masked, open_ = global_predictions(kernel, grid, taken, launch, launch_id)
    for key in set(shared) | {k for k in meas if ".global" not in k}:
        p = shared.get(key, Pred())
        ratios = p.ratios() or [0.0]
        sides[(launch_id, key)] = Side("shared", p.totals(), tuple(meas[key]), p.established(),
                                       False, (min(ratios), max(ratios)), False)
    for key in set(glob) | {k for k in meas if ".global" in k}:
        p = glob.get(key, Pred())
        sides[(launch_id, key)] = Side("global", p.totals(), tuple(meas[key]), p.established(),
                                       key in masked, None, key in open_)
    return sides


def known(release, launch, side):
    return next((d for d in KNOWN["sides"] if (d["release"], d["launch"], d["side"]) ==
                 (release, launch, side)), None)


def test_every_side_is_predicted_or_listed_with_its_reason(release_sides):
    release, _, _, sides, _ = release_sides
    wrong, stale = [], []
    for (launch, side), s in sorted(sides.items()):
        listed = known(release, launch, side)
        if not agrees(s) and not listed:
            wrong.append(f"{release} {launch} {side}: predicted {s.pred[:2]}, measured {s.meas}"
                         f"{'' if s.established else ' (trips unknown)'}")
        if agrees(s) and listed:
            stale.append(f"{release} {launch} {side} now agrees")
    assert not wrong, f"{len(wrong)} sides differ:\n" + "\n".join(wrong[:60])
    gone = [f"{d['launch']} {d['side']}" for d in KNOWN["sides"]
            if d["release"] == release and (d["launch"], d["side"]) not in sides]
    assert not gone, "known_differences.json lists sides that are neither predicted nor " \
        "measured now:\n" + "\n".join(gone)
    unreasoned = [d for d in KNOWN["sides"] if d["category"] not in KNOWN["reasons"]]
    assert not unreasoned, unreasoned[:5]
    assert not stale, "known_differences.json lists sides that agree:\n" + "\n".join(stale)


def test_every_output_was_checked_against_the_reference(release_sides):
    release, measured, _, _, _ = release_sides
    # A workload that could not run (an error, no result) is listed with its reason, and none
    # of its launches is in the data; every one that ran gave a result within tolerance.
    listed = KNOWN["workloads_not_run"].get(release, {})
    bad = [w["id"] for w in measured["workloads"] if not w.get("ok") and w["id"] not in listed]
    assert not bad, bad
    errored = {w["id"] for w in measured["workloads"] if "error" in w}
    assert errored == set(listed), sorted(errored ^ set(listed))
    assert not errored & {launch["workload"] for launch in measured["launches"]}
    # A floor against data lost in a merge, not the corpus's size (the table gives that).
    assert len({launch["hash"] for launch in measured["launches"]}) >= {"3.6": 300}.get(release, 200)


def table(release, measured, report, sides, branches):
    fam = lambda launch: launch.split("-")[0]  # noqa: E731
    lines = [f"# Real kernels on the H200: Triton {release}", "",
             f"{measured['gpu']}, driver {measured['driver']}; ncu {measured['ncu']}; "
             f"{measured['software']}; {measured['date']}. "
             f"{sum('error' not in w for w in measured['workloads'])} workloads (every output "
             f"checked against eager PyTorch; "
             f"{sum('error' in w for w in measured['workloads'])} more could not run, listed in "
             f"known_differences.json), {len(measured['launches'])} kernel launches of "
             f"{len({x['hash'] for x in measured['launches']})} compiled kernels "
             "(gpu_oracle/real_kernels). A side: one launch's SASS instructions of one kind "
             "and width. Shared: kind and width, wavefronts per executed instruction and "
             "instructions executed; global: instructions executed and L2 sectors. A loop "
             "whose bound is a kernel argument runs as the report's `trips_formula` says with "
             f"the launch's recorded arguments (data/{', '.join(RECORDINGS)}); "
             "`trips unknown`: no formula (an scf.while) or "
             "no record of the measured launch's kernel and grid, so "
             "its shared sides compare wavefronts per instruction only, its global sides only "
             "that the kind and width were emitted. Written by "
             "gpu_oracle/real_kernels/test_real_measured.py: do not edit.", "",
             "| family | space | sides | agree | of them established | established agree | "
             "listed |", "| --- | --- | --- | --- | --- | --- | --- |"]
    by = collections.defaultdict(list)
    for (launch, side), s in sides.items():
        by[(fam(launch), s.space)].append((launch, side, s))
        by[("all", s.space)].append((launch, side, s))
    for (family, space), items in sorted(by.items(), key=lambda x: (x[0][0] == "all", x[0])):
        ok = sum(agrees(s) for _, _, s in items)
        est = [s for _, _, s in items if s.established]
        listed = sum(bool(known(release, l_, sd)) for l_, sd, _ in items)
        lines.append(f"| {family} | {space} | {len(items)} | {ok} ({100.0 * ok / len(items):.1f}%)"
                     f" | {len(est)} | {sum(agrees(s) for s in est)} | {listed} |")
    s = report["summary"]
    taken = collections.Counter(tuple(sorted(b.values())) for b in branches.values())
    lines += ["", f"The report: {s['ops']} ops, {s['ops_checked']} checked, "
              f"{s['not_understood']} not understood; findings {s['findings_by_kind']}.", "",
              f"{len(branches)} launches ran a kernel with run-time `scf.if`s (the report predicts "
              "each region; the test takes, for the whole launch, the regions under which most "
              "of its sides agree): "
              + (", ".join(f"{n} took {'/'.join(k)}" for k, n in sorted(taken.items())) or
                 "none") + ".", "",
              "| launch | side | predicted | measured | |", "| --- | --- | --- | --- | --- |"]
    for (launch, side), v in sorted(sides.items()):
        if agrees(v):
            continue
        why = known(release, launch, side)
        lines.append(f"| {launch} | {side} | {v.pred[0]}, {v.pred[1]}"
                     f"{'' if v.established else ' (trips unknown)'} | {v.meas[0]}, {v.meas[1]} |"
                     f" {why['category'] if why else '**differs**'} |")
    return "\n".join(lines) + "\n"


def test_the_committed_table_is_current(release_sides):
    release, measured, report, sides, branches = release_sides
    path = os.path.join(ROOT, "reports", f"real-kernels-{release}.md")
    text = table(release, measured, report, sides, branches)
    if os.environ.get("LLCHECK_UPDATE_TABLE"):
        with open(path, "w") as f:
            f.write(text)
    assert open(path).read() == text, f"{path} is stale: rerun with LLCHECK_UPDATE_TABLE=1"
