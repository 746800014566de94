#!/usr/bin/env bash
# Per-SASS-instruction LDGSTS wavefronts of the matmul at K = 64 and 1024 (ncu source view).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export PYTHONUNBUFFERED=1
for K in 64 1024; do
  KS=$K timeout 200 ncu --section SourceCounters --cache-control none --clock-control none \
    --kernel-name regex:matmul -f -o /tmp/rep$K python3 "$here/run.py" > /dev/null 2>"$OUT/err$K.txt"
  ncu -i /tmp/rep$K.ncu-rep --page source --csv --print-source sass > /tmp/src$K.csv 2>>"$OUT/err$K.txt"
  head -1 /tmp/src$K.csv > "$OUT/src$K.csv"
  grep -E "LDGSTS|LDGDEPBAR|DEPBAR" /tmp/src$K.csv >> "$OUT/src$K.csv"
  echo "K=$K: $(grep -c LDGSTS /tmp/src$K.csv) LDGSTS rows"
done
head -c 1500 "$OUT/src64.csv"
