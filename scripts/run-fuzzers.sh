#!/usr/bin/env bash
# Runs each parser fuzz target for a fixed time on a seed corpus made from the repo's layouts
# and bad inputs. Usage: run-fuzzers.sh BUILD_DIR/fuzz SECONDS
set -euo pipefail
bin=$1
seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seed() { # seed NAME FILES...
  local dir=$work/$1
  shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/" || true; done
}
seed layout_json "$root"/corpus/*/*.json "$root"/tests/lit/Inputs/bad/*.json
printf ' - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n - block is a size 1 dimension\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]\n' > "$work/t1.txt"
seed triton_text "$work/t1.txt" "$root"/tests/lit/Inputs/*.txt "$root"/tests/lit/Inputs/bad/*.txt
printf '#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2]], warp = [], block = []}>' > "$work/a1.mlir"
seed attribute "$work/a1.mlir" "$root"/tests/lit/Inputs/*.mlir "$root"/tests/lit/Inputs/bad/*.mlir
seed ttgir "$root"/tests/lit/Inputs/good/*.ttgir "$root"/tests/lit/Inputs/bad/*.ttgir \
  "$root"/corpus/ttgir/*/cuda-sm90/softmax-fp32.ttgir
printf '64x16' > "$work/s1"
seed shape "$work/s1"

status=0
for target in layout_json triton_text attribute shape ttgir; do
  echo "fuzz_$target: ${seconds}s"
  if ! "$bin/fuzz_$target" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 "$work/$target" 2>"$work/$target.log"; then
    status=1
    tail -40 "$work/$target.log"
    echo "fuzz_$target FAILED"
  else
    grep -E "stat::number_of_executed_units|Done" "$work/$target.log" | tail -2
  fi
done
exit $status
