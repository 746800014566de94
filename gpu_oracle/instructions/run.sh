#!/usr/bin/env bash
# The instruction probes on one NVIDIA Hopper GPU, in one command (issue 21):
#
#   bash gpu_oracle/instructions/run.sh OUTDIR [--no-sanitize]
#
# Builds probes.cu with nvcc (sm_90a), runs every probe in its own process (a probe that fails
# or hangs costs only itself), runs each probe family once more under compute-sanitizer
# memcheck, and writes OUTDIR/instructions.json (what every probe observed, the GPU, driver,
# CUDA and date, the sanitizer's verdict per family) and OUTDIR/run.log. Needs nvcc, python3
# and, for the sanitizer pass, compute-sanitizer; expected 1-3 minutes on an H100, never much more
# than 5 (HWPROBES_SECONDS, default 280, bounds the build, the probes and memcheck together).
# The layouts are rebuilt and compared elsewhere, without a GPU:
#   llcheck hwlayout OUTDIR/instructions.json
set -u
if [ $# -lt 1 ]; then
  echo "usage: bash gpu_oracle/instructions/run.sh OUTDIR [--no-sanitize]" >&2
  exit 2
fi
OUT=$1
SANITIZE=1
[ "${2:-}" = "--no-sanitize" ] && SANITIZE=0
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/llcheck-hwprobes.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
LOG="$OUT/run.log"
: > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }
START=$(date +%s)

NVCC=${NVCC:-nvcc}
NVCC_VERSION=$($NVCC --version | grep -o 'release .*' | head -1)
say "hwprobes: building with nvcc $NVCC_VERSION"
if ! $NVCC -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a -I "$ROOT/gpu_oracle/include" \
    "$HERE/probes.cu" -o "$WORK/hwprobes" > "$WORK/nvcc.log" 2>&1; then
  cat "$WORK/nvcc.log" >> "$LOG"
  say "hwprobes: the build failed (nvcc's messages are in $LOG)"
  python3 "$HERE/merge.py" "$WORK" "$OUT" --build-failed "$WORK/nvcc.log"
  exit 1
fi

mkdir -p "$WORK/parts" "$WORK/sanitize"
"$WORK/hwprobes" --list > "$WORK/probes.txt" 2>> "$LOG" || { say "hwprobes --list failed"; exit 1; }
COUNT=$(wc -l < "$WORK/probes.txt")
say "hwprobes: $COUNT probes"
# A deadline keeps the whole run under about 5 minutes whatever hangs: past it, what is left is
# recorded as skipped.
DEADLINE=$(( START + ${HWPROBES_SECONDS:-280} ))
while read -r id family; do
  if [ "$(date +%s)" -ge "$DEADLINE" ]; then
    echo "skipped: the run's time limit was reached" > "$WORK/parts/$id.log"
    echo 125 > "$WORK/parts/$id.rc"
    continue
  fi
  timeout 60 "$WORK/hwprobes" --only "$id" --out "$WORK/parts/$id.json" > "$WORK/parts/$id.log" 2>&1
  echo $? > "$WORK/parts/$id.rc"
  [ "$(cat "$WORK/parts/$id.rc")" = 0 ] || say "  $id: failed (exit $(cat "$WORK/parts/$id.rc")): $(tail -c 300 "$WORK/parts/$id.log")"
done < "$WORK/probes.txt"
say "hwprobes: probes done after $(( $(date +%s) - START )) s"

# compute-sanitizer: on PATH, else beside nvcc, else in the toolkit's own folder.
SANITIZER=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer)}
NVCC_DIR=$(dirname "$(command -v "$NVCC")")
for c in "$NVCC_DIR/compute-sanitizer" "$NVCC_DIR/../compute-sanitizer/compute-sanitizer"; do
  [ -z "$SANITIZER" ] && [ -x "$c" ] && SANITIZER=$c
done
if [ "$SANITIZE" = 1 ]; then
  if [ -n "$SANITIZER" ]; then
    "$SANITIZER" --version 2>&1 | tail -1 > "$WORK/sanitize/version.txt"
    for family in $(awk '{print $2}' "$WORK/probes.txt" | sort -u); do
      LEFT=$(( DEADLINE - $(date +%s) ))
      if [ "$LEFT" -le 5 ]; then
        echo "skipped: the run's time limit was reached" > "$WORK/sanitize/$family.log"
        echo 125 > "$WORK/sanitize/$family.rc"
        say "  memcheck $family: skipped (time limit)"
        continue
      fi
      timeout "$LEFT" "$SANITIZER" --tool memcheck --error-exitcode 9 --print-limit 20 \
        "$WORK/hwprobes" --family "$family" --out "$WORK/sanitize/$family.json" \
        > "$WORK/sanitize/$family.log" 2>&1
      echo $? > "$WORK/sanitize/$family.rc"
      say "  memcheck $family: exit $(cat "$WORK/sanitize/$family.rc"), $(grep -ho 'ERROR SUMMARY: [0-9]* error[s]*' "$WORK/sanitize/$family.log" | tail -1)"
    done
  else
    say "hwprobes: no compute-sanitizer (PATH, beside nvcc, \$COMPUTE_SANITIZER): the sanitizer pass is skipped"
  fi
fi

python3 "$HERE/merge.py" "$WORK" "$OUT" --nvcc "nvcc $NVCC_VERSION" | tee -a "$LOG"
STATUS=${PIPESTATUS[0]}
say "hwprobes: $(( $(date +%s) - START )) s in all; results in $OUT/instructions.json"
exit "$STATUS"
