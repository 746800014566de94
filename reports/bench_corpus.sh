#!/usr/bin/env bash
# The speed figure of `llcheck report` (docs/report.md, bench/README.md): several hundred TTGIR files on
# 2 cores, without the oracle. The corpus: the 438 modules Triton 3.6 produced for
# gpu_oracle/triton_convert (extracted from its committed cases.json) and the 64 of corpus/ttgir.
#
#   reports/bench_corpus.sh [build/cli/llcheck]
set -euo pipefail
cd "$(dirname "$0")/.."
llcheck=${1:-build/cli/llcheck}
dir=build/report-corpus
rm -rf "$dir" && mkdir -p "$dir"
python3 reports/triton/make_report.py --extract "$dir/triton-3.6" >/dev/null
cp -r corpus/ttgir/3.9.0 "$dir/corpus-3.9.0"
files=$(find "$dir" -name '*.ttgir' | wc -l)
for z3 in "" "--no-z3"; do
  start=$(date +%s.%N)
  status=0
  taskset -c 0,1 "$llcheck" report "$dir" --out "$dir.out" --jobs 2 $z3 --quiet || status=$?
  end=$(date +%s.%N)
  [[ $status -le 1 ]] || { echo "llcheck report failed ($status)"; exit 1; }
  printf '%s TTGIR files, 2 cores, %s: %.1f s wall\n' "$files" "${z3:-with Z3}" \
    "$(echo "$end - $start" | bc)"
done
python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']; print(s['files'], 'kernels,', s['layouts'], 'layouts,', s['ops_checked'], 'ops checked,', s['findings'], 'findings')" "$dir.out/report.json"
