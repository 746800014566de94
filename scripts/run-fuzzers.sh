#!/usr/bin/env bash
# Runs each parser fuzz target on a seed corpus made from the repo's layouts and bad inputs.
# Usage: run-fuzzers.sh BUILD_DIR/fuzz SECONDS [RUNS [PROCESSES]]
# SECONDS bounds each target. With RUNS, each target runs until RUNS inputs were executed, split
# over PROCESSES libFuzzer processes (default 1) that share one corpus directory (libFuzzer
# reloads it every second), so a multi-core machine reaches 10^7 executions per target in
# minutes; the executions of all processes are summed and must reach RUNS. FUZZ_TARGETS (default
# all) names the targets to run, e.g. FUZZ_TARGETS="ttgir shape". FUZZ_CORPUS=DIR keeps each
# target's corpus in DIR/<target> (seeded on the first run, grown by every later one), so a
# campaign can go on where the last run stopped, on this machine or, copied, on another.
# FUZZ_ARTIFACTS=DIR keeps the inputs that crashed or timed out (default: a temporary folder,
# whose failing inputs the log's tail names before it is removed).
set -euo pipefail
bin=$1
seconds=$2
runs=${3:-0}
processes=${4:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
targets=(${FUZZ_TARGETS:-layout_json triton_text attribute shape ttgir cute sweep_result hwlayout_results sass})
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
artifacts=${FUZZ_ARTIFACTS:-$work}
mkdir -p "$artifacts"

seed() { # seed NAME FILES...
  local dir=$work/$1
  if [[ -n "${FUZZ_CORPUS:-}" ]]; then
    mkdir -p "$FUZZ_CORPUS/$1"
    ln -s "$(cd "$FUZZ_CORPUS/$1" && pwd)" "$dir"
  fi
  shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/" || true; done
}
printf '{"ins": [{"name": "r\303\251gister\377", "size": 1, "bases": []}], "outs": []}' > "$work/j1.json"
seed layout_json "$work/j1.json" "$root"/corpus/*/*.json "$root"/tests/lit/Inputs/bad/*.json
printf ' - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n - block is a size 1 dimension\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]\n' > "$work/t1.txt"
seed triton_text "$work/t1.txt" "$root"/tests/lit/Inputs/*.txt "$root"/tests/lit/Inputs/bad/*.txt
printf '#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2]], warp = [], block = []}>' > "$work/a1.mlir"
# Invalid and multi-byte UTF-8 where names and keys go: quoted in the errors, never cut.
printf '#ttg.\303\251<{vec = 1}>' > "$work/a2.mlir"
printf '#ttg.blocked<{sizePerThread\351 = [1]}>' > "$work/a3.mlir"
seed attribute "$work/a1.mlir" "$work/a2.mlir" "$work/a3.mlir" "$root"/tests/lit/Inputs/*.mlir \
  "$root"/tests/lit/Inputs/bad/*.mlir
# The hostile catalog's TTGIR: locations that refer to themselves or fan out ten-wide through
# thirty aliases (a resolver that follows every reference times out), bytes that are not UTF-8
# in a location and in ttg.target, a padded layout over 2^40 elements.
seed ttgir "$root"/tests/lit/Inputs/good/*.ttgir "$root"/tests/lit/Inputs/bad/*.ttgir \
  "$root"/corpus/ttgir/*/cuda-sm90/softmax-fp32.ttgir "$root"/tests/lit/hostile/Inputs/*.ttgir
printf '64x16' > "$work/s1"
seed shape "$work/s1"
printf 'Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),_64):((_64,_512),_1)' > "$work/c1"
printf 'cute:Sw<2,0,-3> o (4,(2,8)):(0,(1,16))' > "$work/c2"
seed cute "$work/c1" "$work/c2"
# Files from outside llcheck (issue 31): sweep results (the committed ones under 16 KB; a
# checkpoint is a result with "done_groups"), one hwlayout probe record of each family from the
# committed GPU results, and SASS listings (a real one, and lines of 8 KB: the SASS reader once
# recursed once a character).
seed sweep_result $(find "$root"/fuzz/sweep/results -name '*.json' -size -16k)
python3 - "$root/corpus/oracle/instructions.json" "$work/hw" <<'PY'
import json, os, sys
results = json.load(open(sys.argv[1]))
os.makedirs(sys.argv[2], exist_ok=True)
seen = set()
for p in results.get("probes", []):
    family = p.get("family")
    if family in seen:
        continue
    seen.add(family)
    one = {k: results[k] for k in ("format", "gpu", "driver", "date")}
    one["probes"] = [p]
    with open(os.path.join(sys.argv[2], f"{family}.json"), "w") as f:
        json.dump(one, f)
PY
seed hwlayout_results "$work"/hw/*.json
python3 -c "import sys; open(sys.argv[1], 'w').write('Function : ' + 'A' * 8000 + '\n        /*0000*/ @P0 LDS.U.128 R4, [R2] ;\n')" "$work/sass1"
seed sass "$work/sass1" "$root"/tests/lit/Inputs/sass/text/*.sass

options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
# The longest input each target is given: 4 KB, but a hwlayout probe record (up to 24 KB, but
# for wgmma_rs's 124 KB, whose schema wgmma_ss's shares) and a SASS line past the 8 KB that once
# crashed need more.
max_len() {
  case "$1" in
  hwlayout_results) echo 32768 ;;
  sass) echo 16384 ;;
  *) echo 4096 ;;
  esac
}
status=0
if ((runs == 0)); then
  for target in "${targets[@]}"; do
    echo "fuzz_$target: ${seconds}s"
    if ! "$bin/fuzz_$target" "${options[@]}" -max_len="$(max_len "$target")" -artifact_prefix="$artifacts/$target-" \
      "$work/$target" 2>"$work/$target.log"; then
      status=1
      tail -40 "$work/$target.log"
      echo "fuzz_$target FAILED"
    else
      grep -E "stat::number_of_executed_units|Done" "$work/$target.log" | tail -2
    fi
  done
  exit $status
fi

# Every process of every target at once: the machine's cores do the work.
per_process=$(((runs + processes - 1) / processes))
pids=()
for target in "${targets[@]}"; do
  for ((p = 0; p < processes; p++)); do
    "$bin/fuzz_$target" "${options[@]}" -max_len="$(max_len "$target")" -runs="$per_process" -seed=$((p + 1)) \
      -artifact_prefix="$artifacts/$target-$p-" "$work/$target" 2>"$work/$target.$p.log" &
    pids+=($!)
  done
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for target in "${targets[@]}"; do
  executed=0
  for ((p = 0; p < processes; p++)); do
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target.$p.log" | tail -1)
    if [[ -z "$n" ]] || grep -qE "ERROR: |runtime error|==ERROR" "$work/$target.$p.log"; then
      status=1
      tail -40 "$work/$target.$p.log"
      echo "fuzz_$target (process $p) FAILED"
    fi
    executed=$((executed + ${n:-0}))
  done
  verdict=ok
  ((executed >= runs)) || { verdict="FAILED: fewer than $runs executions within ${seconds}s"; status=1; }
  echo "fuzz_$target: $executed executions in $processes processes, corpus $(ls "$work/$target" | wc -l) inputs: $verdict"
done
exit $status
