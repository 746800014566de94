#!/bin/bash
# On the GPU machine (the device tool; it has Triton 3.6, CuPy and Nsight Compute): the lowering
# probe's kernels under ncu, both Tritons, one CTA per launch. Writes to $OUT:
#   gpu.txt                     GPU, driver, ncu, Triton, CuPy versions
#   manifest-3.6.json           the 3.6 pack's manifest (compiled here by this machine's Triton)
#   run-3.6.json, ncu-3.6.csv   launches in order (data checked) and ncu's rows, one per launch
#   run-3.9.json, ncu-3.9.csv   the same for the 3.9 pack carried from the workstation
# Usage: bash tests/triton/lowering/run_gpu.sh [PACK_3_9_TAR]   (default: $PACK39; without it
# only 3.6 runs). LIMIT=N runs the first N cases; ONLY=3.6 or ONLY=3.9 one release (the device
# tool allows 10 minutes a command: run the two releases as two commands).
# About 2 minutes to compile the 3.6 pack (16 cores) and 2-4 minutes of ncu per version for
# ~900 kernels; each kernel is one CTA, microseconds of GPU time, ncu's replays dominate.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
export PYTHONUNBUFFERED=1
OUT="${OUT:?set OUT}"
LIMIT="${LIMIT:-0}"
PACK39="${1:-${PACK39:-}}"
mkdir -p "$OUT"
source "$HERE/gpu_env.sh"
gpu_info "$OUT/gpu.txt"
# The shared-memory wavefronts and bank conflicts of loads and stores (ldmatrix / stmatrix
# included; LDGSTS, cp.async's shared side, separately) and the warp-level instructions.
metrics=$(known_metrics "$METRICS_HW,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum")
names='regex:^(local|convert|async)_kernel$'
run() {  # version pack_dir
  ncu --csv --metrics "$metrics" --kernel-name "$names" \
    python3 "$HERE/gpu_launch.py" "$2" "$OUT/run-$1.json" --skip-padded > "$OUT/ncu-$1.csv" 2> "$OUT/ncu-$1.err"
  echo "$1: ncu exit $?; $(grep -c '_kernel' "$OUT/ncu-$1.csv") metric rows"
  tail -2 "$OUT/ncu-$1.err"
  # The padded-layout cases one process each (a misaligned access ends only its own process),
  # under one ncu session; joined by process id (run-$1-padded.jsonl has each case's pid).
  padded=$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print(" ".join(c["id"] for c in m["cases"] if c.get("padded") and "error" not in c))' "$2/manifest.json")
  [ "$LIMIT" != 0 ] && padded=$(echo $padded | tr ' ' '\n' | head -n "$LIMIT" | tr '\n' ' ')
  rm -f "$OUT/run-$1-padded.jsonl"
  ncu --csv --metrics "$metrics" --kernel-name "$names" --target-processes all \
    bash -c 'for id in $3; do python3 "$0" "$1" "$2" --case "$id"; done' \
    "$HERE/gpu_launch.py" "$2" "$OUT/run-$1-padded.jsonl" "$padded" \
    > "$OUT/ncu-$1-padded.csv" 2> "$OUT/ncu-$1-padded.err"
  echo "$1 padded: ncu exit $?; $(wc -w <<< "$padded") cases; $(grep -c '_kernel' "$OUT/ncu-$1-padded.csv") metric rows"
}
ONLY="${ONLY:-}"
limit_args=()
[ "$LIMIT" != 0 ] && limit_args=(--limit "$LIMIT")
if [ "$ONLY" != 3.9 ]; then
  python3 "$HERE/gpu_pack.py" "$HERE/data/cases.json" --out /tmp/pack-3.6 "${limit_args[@]}" \
    > "$OUT/pack-3.6.log" 2>&1
  tail -1 "$OUT/pack-3.6.log"
  cp /tmp/pack-3.6/manifest.json "$OUT/manifest-3.6.json"
  run 3.6 /tmp/pack-3.6
fi
if [ "$ONLY" = 3.6 ]; then
  :
elif [ -n "$PACK39" ] && [ -f "$PACK39" ]; then
  mkdir -p /tmp/pack39 && tar -xJf "$PACK39" -C /tmp/pack39
  dir=$(dirname "$(find /tmp/pack39 -name manifest.json | head -1)")
  if [ "$LIMIT" != 0 ]; then
    python3 - "$dir" "$LIMIT" <<'PY'
import json, sys
p = sys.argv[1] + "/manifest.json"; m = json.load(open(p)); m["cases"] = m["cases"][:int(sys.argv[2])]
json.dump(m, open(p, "w"))
PY
  fi
  run 3.9 "$dir"
else
  echo "3.9: no pack given (make it here with gpu_pack.py --tar and pass its .tar.xz)"
fi
