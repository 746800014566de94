#!/usr/bin/env bash
# Runs two llcheck binaries on the same inputs and compares what they print and write, wall-clock
# figures removed: the check that a refactoring changed no output.
#
#   scripts/compare-outputs.sh OLD_LLCHECK NEW_LLCHECK
#
# Compared, each binary's stdout, stderr and exit status (and files written):
#   (a) `llcheck report corpus/ttgir --out DIR --jobs 1`: report.json (without its "ms" and
#       "seconds" keys), report.md, junit.xml (time="..." removed) and report.html;
#       one worker, because Z3's counterexamples can differ between runs with several;
#   (b) `llcheck verify --format json` of every corpus/layouts/*.json and corpus/illegal/*.json;
#   (c) every `$ llcheck ...` example of docs/*.md and the README (the `llcheck convert` ones and
#       the rest; a command continued with '\' is joined), run from the repository root, except
#       those with --prover-timeout (what Z3 decides in 1 ms depends on the machine's load);
#   (d) `llcheck convert` (text, json, --lowering triton) of every two distributed corpus layouts
#       over one shape, `llcheck bank-conflicts` of each with every shared corpus layout of its
#       shape, and `llcheck coalescing` of each (row-major, column-major, strides that are not
#       powers of two, a misaligned base);
#   (e) `llcheck convert` between encodings over 64x64 (blocked, nvidia_mma v2 and v3, dot_op),
#       text, json and Triton's lowering, `llcheck bank-conflicts` of each with four shared
#       encodings (padded_shared among them), and `llcheck coalescing` of each.
# Prints the differences, then "N outputs compared, M differ"; exit status 0 when none differ,
# 1 when some do, 2 on bad arguments.
set -u

usage() {
  echo "usage: $0 OLD_LLCHECK NEW_LLCHECK" >&2
  echo "  runs both llcheck binaries on the corpus and the docs' examples and compares their" >&2
  echo "  outputs (timing removed); exit 0: all equal, 1: some differ, 2: bad arguments" >&2
  exit 2
}

[ $# -eq 2 ] || usage
for b in "$1" "$2"; do
  if [ ! -f "$b" ] || [ ! -x "$b" ]; then
    echo "error: '$b' is not an executable file" >&2
    usage
  fi
done
command -v python3 >/dev/null || { echo "error: python3 is needed" >&2; exit 2; }

OLD=$(realpath "$1")
NEW=$(realpath "$2")
# The checkout each binary was built in: it names files there (fuzz/sweep/triton_layouts.py),
# which are compared as <REPO>/...
OLD_ROOT=$(git -C "$(dirname "$OLD")" rev-parse --show-toplevel 2>/dev/null || true)
NEW_ROOT=$(git -C "$(dirname "$NEW")" rev-parse --show-toplevel 2>/dev/null || true)
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/llcheck-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/old" "$WORK/new"
cd "$REPO" || exit 2

# run NAME ARGS...: llcheck ARGS with each binary; stdout, stderr and status under old/ and new/.
run() {
  local name=$1
  shift
  "$OLD" "$@" >"$WORK/old/$name.out" 2>"$WORK/old/$name.err"
  echo $? >"$WORK/old/$name.rc"
  "$NEW" "$@" >"$WORK/new/$name.out" 2>"$WORK/new/$name.err"
  echo $? >"$WORK/new/$name.rc"
}

# run_shell NAME LINE: a shell line in which `llcheck` (first on the line or after a pipe) is each
# binary in turn, as tests/docs/check_docs.py runs the docs' examples.
run_shell() {
  local name=$1 line=$2 side bin
  for side in old new; do
    bin=$OLD
    [ "$side" = new ] && bin=$NEW
    LINE=$line BIN=$bin python3 - >"$WORK/$side/$name.sh" <<'EOF'
import os, re, shlex
print(re.sub(r"(^|\|\s*)llcheck(?=\s)", lambda m: m.group(1) + shlex.quote(os.environ["BIN"]),
             os.environ["LINE"]))
EOF
    bash "$WORK/$side/$name.sh" >"$WORK/$side/$name.out" 2>"$WORK/$side/$name.err"
    echo $? >"$WORK/$side/$name.rc"
  done
}

# ---- (a) report over corpus/ttgir -----------------------------------------------------------------
# Both write to the same folder (its path is in the output), moved aside after each run.
for side in old new; do
  bin=$OLD
  [ "$side" = new ] && bin=$NEW
  rm -rf "$WORK/report"
  "$bin" report corpus/ttgir --out "$WORK/report" --jobs 1 >"$WORK/$side/report.out" \
    2>"$WORK/$side/report.err"
  echo $? >"$WORK/$side/report.rc"
  for f in report.json report.md junit.xml report.html; do
    [ -f "$WORK/report/$f" ] && mv "$WORK/report/$f" "$WORK/$side/report-$f"
  done
done
rm -rf "$WORK/report"

# ---- (b) verify of every corpus layout ----------------------------------------------------------
for f in corpus/layouts/*.json corpus/illegal/*.json; do
  run "verify-$(basename "$(dirname "$f")")-$(basename "$f" .json)" verify "$f" --format json
done

# ---- (c) the docs' examples ---------------------------------------------------------------------
i=0
while IFS= read -r line; do
  i=$((i + 1))
  run_shell "$(printf 'docs-%03d' "$i")" "$line"
done < <(python3 - "$REPO" <<'EOF'
import os, sys
repo = sys.argv[1]
pages = ["README.md"] + sorted("docs/" + n for n in os.listdir(os.path.join(repo, "docs"))
                               if n.endswith(".md"))
for page in pages:
    lines = open(os.path.join(repo, page)).read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.startswith("$ llcheck "):
            continue
        command = line[2:]
        while command.endswith("\\") and i < len(lines):
            command = command[:-1].rstrip() + " " + lines[i].strip()
            i += 1
        if "--prover-timeout" not in command:  # what Z3 decides in 1 ms depends on the machine
            print(command)
EOF
)

# ---- (d) convert, bank-conflicts and coalescing over the corpus layouts -------------------------
declare -A shape_of kind_of
for f in corpus/layouts/*.json; do
  IFS=' ' read -r kind shape < <(python3 - "$f" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
ins = {d["name"] for d in j.get("ins", [])}
print("shared" if "offset" in ins else "distributed" if "lane" in ins else "other",
      "x".join(str(d["size"]) for d in j.get("outs", [])))
EOF
)
  kind_of[$f]=$kind
  shape_of[$f]=$shape
done
for src in corpus/layouts/*.json; do
  [ "${kind_of[$src]}" = distributed ] || continue
  s=$(basename "$src" .json)
  s=${s%%-*}
  for dst in corpus/layouts/*.json; do
    [ "${shape_of[$dst]}" = "${shape_of[$src]}" ] || continue
    d=$(basename "$dst" .json)
    d=${d%%-*}
    if [ "${kind_of[$dst]}" = distributed ]; then
      run "convert-$s-$d" convert "$src" "$dst" --dtype f16
      run "convert-$s-$d-json" convert "$src" "$dst" --dtype f32 --format json
      run "convert-$s-$d-triton" convert "$src" "$dst" --dtype f16 --lowering triton --format json
    elif [ "${kind_of[$dst]}" = shared ]; then
      run "bank-$s-$d" bank-conflicts "$src" "$dst" --dtype f16
      run "bank-$s-$d-triton" bank-conflicts "$src" "$dst" --dtype f16 --lowering triton \
        --format json
    fi
  done
  rank=$(awk -F x '{print NF}' <<<"${shape_of[$src]}")
  run "coalescing-$s" coalescing "$src" --dtype f16 --format json
  run "coalescing-$s-text" coalescing "$src" --dtype f32 --base-alignment 4
  if [ "$rank" = 2 ]; then
    rows=${shape_of[$src]%%x*}
    run "coalescing-$s-colmajor" coalescing "$src" --dtype f16 --strides "1,$rows" --format json
    run "coalescing-$s-odd" coalescing "$src" --dtype f16 --strides "72,1" --format json
    run "coalescing-$s-odd-misaligned" coalescing "$src" --dtype i8 --strides "3,200" \
      --base-alignment 2
  fi
done

# ---- (e) convert and bank-conflicts between encodings over 64x64 --------------------------------
# The corpus has few distributed layouts of one shape; these give every kind of conversion (no-op,
# register permutation, warp shuffles, shared memory) and Triton's lowering of each.
mma2='#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>'
distributed=(
  '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
  '#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>'
  '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>'
  '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>'
  '#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>'
  "$mma2"
  '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>'
  "#ttg.dot_op<{opIdx = 0, parent = $mma2, kWidth = 2}>"
  "#ttg.dot_op<{opIdx = 1, parent = $mma2, kWidth = 2}>"
)
shared=(
  '#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>'
  '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>'
  '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>'
  '#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>'
)
for s in "${!distributed[@]}"; do
  src=${distributed[$s]}
  for d in "${!distributed[@]}"; do
    dst=${distributed[$d]}
    run "attr-convert-$s-$d" convert "$src" "$dst" --shape 64x64 --dtype f16
    run "attr-convert-$s-$d-triton" convert "$src" "$dst" --shape 64x64 --dtype bf16 \
      --lowering triton --format json
    run "attr-convert-$s-$d-sm80" convert "$src" "$dst" --shape 64x64 --dtype f32 --arch sm80 \
      --lowering triton --no-z3
  done
  for d in "${!shared[@]}"; do
    run "attr-bank-$s-$d" bank-conflicts "$src" "${shared[$d]}" --shape 64x64 --dtype f16 \
      --lowering triton
    run "attr-bank-$s-$d-json" bank-conflicts "$src" "${shared[$d]}" --shape 64x64 --dtype i8 \
      --format json
  done
  run "attr-coalescing-$s" coalescing "$src" --shape 64x64 --dtype f16 --format json
  run "attr-coalescing-$s-odd" coalescing "$src" --shape 64x64 --dtype f32 --strides 1,66 \
    --base-alignment 8
done

# ---- The comparison ---------------------------------------------------------------------------
python3 - "$WORK" "$OLD_ROOT" "$NEW_ROOT" <<'EOF'
import difflib, json, os, re, sys

work = sys.argv[1]
roots = {"old": sys.argv[2], "new": sys.argv[3]}
# Each binary's checkout is <REPO>. Wall-clock figures: JSON keys "ms" and "seconds" (and any *_ms, *_seconds, elapsed, time), the
# " in 4.6 s" of summary lines, junit.xml's time="...". Nothing else is removed.
TIMING_KEY = re.compile(r"ms|seconds|elapsed|time|.*_ms|.*_seconds")
TIMING_TEXT = re.compile(r"\b\d+(\.\d+)?(e-?\d+)? s\b")
JUNIT_TIME = re.compile(r' time="[^"]*"')


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if not TIMING_KEY.fullmatch(k)}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def normalized(path, root):
    text = open(path, encoding="utf-8", errors="replace").read()
    if root:
        text = text.replace(root + "/", "<REPO>/")
    try:  # one JSON document
        text = json.dumps(strip(json.loads(text)), sort_keys=True, indent=1)
    except ValueError:
        pass
    lines = []  # or JSON lines, or text
    for line in text.split("\n"):
        s = line.strip()
        if s[:1] in "{[":
            try:
                line = json.dumps(strip(json.loads(s)), sort_keys=True, indent=1)
            except ValueError:
                pass
        lines.append(line)
    text = "\n".join(lines)
    return JUNIT_TIME.sub(' time="#"', TIMING_TEXT.sub("#.# s", text))


names = sorted(set(os.listdir(os.path.join(work, "old"))) | set(os.listdir(os.path.join(work, "new"))))
names = [n for n in names if not n.endswith(".sh")]
compared = differ = 0
for name in names:
    old, new = (os.path.join(work, side, name) for side in ("old", "new"))
    compared += 1
    if not os.path.exists(old) or not os.path.exists(new):
        differ += 1
        print(f"DIFFERS {name}: written by only one of the binaries")
        continue
    a, b = normalized(old, roots["old"]), normalized(new, roots["new"])
    if a != b:
        differ += 1
        print(f"DIFFERS {name}:")
        diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "old", "new", lineterm="", n=1))
        for line in diff[:40]:
            print("  " + line[:300])
        if len(diff) > 40:
            print(f"  ... ({len(diff) - 40} more diff lines)")
print(f"{compared} outputs compared, {differ} differ")
sys.exit(1 if differ else 0)
EOF
