"""The masked-LDGSTS rig (README.md), without a GPU: the launches are valid for predicates.cu, the
models reduce to ../analyze.py's rules when every lane copies, sass.txt gives each kernel the
predicate its name says, and predicted.txt is what analyze.py computes. measured.json (a GPU run
of run.sh) does not exist yet; when it does, test it here."""
import importlib.util
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name, path):
    # By path, under a name of its own: other gpu_oracle folders have an analyze.py too.
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


pred = _load("ldgsts_predicates_analyze", os.path.join(HERE, "analyze.py"))
base = _load("ldgsts_rule_analyze_for_predicates", os.path.join(HERE, "..", "analyze.py"))
GUARD_FORMS = ("G", "G64")
BOTH_FORMS = ("GZ", "G64Z")


def test_launches_are_valid():
    launches = pred.read_launches()
    assert len(launches) == 1688
    assert len({x["id"] for x in launches}) == len(launches)
    kernels = {line.split("\t")[0] for line in open(os.path.join(HERE, "sass.txt"))}
    for x in launches:
        assert x["kernel"] in kernels, x["id"]
        v, T = x["bytes"], x["T"]
        assert T in (32, 128) and len(x["states"]) == T
        assert len(set(x["s"])) == T, x["id"]
        assert all(g % v == 0 and g + v <= 4 << 20 for g in x["g"]), x["id"]
        assert all(s % v == 0 and s + v <= 32768 for s in x["s"]), x["id"]
        form = x["kernel"].split("_")[1]
        allowed = {"PLAIN": "c", "Z": "cz", "Z64": "cz", "Z64W": "cz", "G": "co", "G64": "co",
                   "GZ": "czo", "G64Z": "czo"}[form]
        assert set(x["states"]) <= set(allowed), x["id"]


def test_models_are_the_rules_when_every_lane_copies():
    for p in base.read_patterns():
        lanes = [(t, p["g"][t], p["s"][t]) for t in range(32)]
        if p["op"].startswith("cg"):
            assert pred.bypass_lanes(lanes) == base.bypass_rule(p["g"], p["s"]), p["id"]
        else:
            assert pred.access_lanes(lanes, p["bytes"]) == \
                base.access_rule(p["g"], p["s"], p["bytes"]), p["id"]
    for x in pred.read_launches():
        if set(x["states"]) == {"c"}:
            assert len({pred.model(x, m) for m in pred.MODELS}) <= 2, x["id"]  # dest differs
            assert pred.model(x, "active") == pred.model(x, "z_src") == pred.model(x, "z_dest")


def test_sass_gives_each_kernel_its_predicate():
    """The name says what the SASS showed (nvcc 13.0, sm_90): Z_Pn ..., Pn; Z64*_nPn ..., !Pn;
    G_gPn @Pn; G64_gnP0 @!P0; GZ_gnPa_Pb @!Pa ..., Pb; G_bra a BRA around; PLAIN nothing."""
    rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(HERE, "sass.txt"))]
    assert len(rows) == 68
    for name, sass, branched in rows:
        op, form, *regs = name.split("_")
        guard = re.match(r"@(!?P\d)\s", sass)
        last = sass.split(",")[-1].strip()
        zf = last if re.fullmatch(r"!?P\d", last) else None
        width = {"ca4": "LDGSTS.E ", "ca8": "LDGSTS.E.64 ", "ca16": "LDGSTS.E.128 ",
                 "cg16": "LDGSTS.E.BYPASS.128 "}[op]
        assert width in sass, name
        if form == "PLAIN":
            assert guard is None and zf is None and branched == "-", name
        elif form == "Z":
            assert guard is None and zf == regs[0], name
        elif form in ("Z64", "Z64W"):
            assert guard is None and zf == "!" + regs[0][1:], name
        elif form in GUARD_FORMS and regs[0] == "bra":
            assert guard is None and zf is None and branched == "branched", name
        elif form == "G":
            assert guard.group(1) == regs[0][1:] and zf is None, name
        elif form == "G64":
            assert guard.group(1) == "!P0" and zf is None, name
        else:
            assert form in BOTH_FORMS
            assert guard.group(1) == "!" + regs[0][2:] and zf == regs[1], name


def test_predicted_is_what_analyze_gives(tmp_path):
    # predicted.txt was written by analyze.py --predict from the same SASS (sass.txt's lines).
    lines = [x.split() for x in open(os.path.join(HERE, "predicted.txt")) if not x.startswith("#")]
    launches = {x["id"]: x for x in pred.read_launches()}
    assert len(lines) == len(launches)
    sass = {}
    for line in open(os.path.join(HERE, "sass.txt")):
        name, text, branched = line.rstrip("\n").split("\t")
        guard = re.match(r"@(!?P\d)\s", text)
        last = text.split(",")[-1].strip()
        sass[name] = {"sass": text, "guard": guard.group(1) if guard else None,
                      "zfill": last if re.fullmatch(r"!?P\d", last) else None,
                      "branched": branched == "branched"}
    for p in lines:
        r = dict(launches[p[0]], **sass[p[1]])
        want = [pred.model(r, m) for m in pred.MODELS] + [pred.llcheck_now(r), pred.p0_false(r)]
        assert [int(v) for v in p[3:]] == want, p[0]
