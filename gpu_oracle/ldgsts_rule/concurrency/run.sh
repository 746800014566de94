#!/usr/bin/env bash
# GPU machine: each shape of run.py under ncu's source counters (cache control all and none),
# the LDGSTS rows of its SASS kept, and the TTGIR Triton compiled (the same kernel for all).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export PYTHONUNBUFFERED=1 TRITON_CACHE_DIR=/tmp/tcache-conc
mkdir -p "$OUT"
: > "$OUT/runs.jsonl"
for L in m128n32k1024 m512n32k1024 m128n512k1024 m512n512k1024 m512n512k64 m512n512k256; do
  for cc in all none; do
    LAUNCH=$L timeout 120 ncu --section SourceCounters --cache-control $cc --clock-control none \
      --kernel-name regex:matmul -f -o /tmp/rep-$L-$cc python3 "$here/run.py" \
      2>>"$OUT/err.txt" | grep "^{" >> "$OUT/runs.jsonl"
    ncu -i /tmp/rep-$L-$cc.ncu-rep --page source --csv --print-source sass > /tmp/src.csv \
      2>>"$OUT/err.txt"
    echo "== $L $cc" >> "$OUT/ldgsts.csv"
    grep -E "LDGSTS" /tmp/src.csv >> "$OUT/ldgsts.csv"
  done
done
find /tmp/tcache-conc -name '*.ttgir' | head -1 | xargs -I{} cp {} "$OUT/kernel.ttgir"
wc -l "$OUT/ldgsts.csv"; cat "$OUT/runs.jsonl"; tail -5 "$OUT/err.txt"
