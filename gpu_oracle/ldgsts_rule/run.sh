#!/usr/bin/env bash
# On the GPU machine: build ldgsts_rule.cu, check every pattern's copied bytes once without the
# profiler, then run the patterns under Nsight Compute (--cache-control none for all, then
# --cache-control all for some; DISCOVER=1 adds a pass with every LDGSTS counter this ncu knows
# on a few patterns). Writes to OUT (default $OUT), flat:
#   ldgsts_rule.meta     GPU, driver, ncu, CUDA, date, metrics used
#   ldgsts_metrics.txt   ncu --query-metrics lines naming ldgsts or shared wavefronts
#   ldgsts_rule.sass     the LDGSTS instructions of the build (cuobjdump)
#   ldgsts_none.csv      ncu's CSV, one row per launch and metric, --cache-control none
#   ldgsts_all.txt       the lines of patterns.txt the --cache-control all pass runs
#   ldgsts_all.csv       ncu's CSV of those lines with --cache-control all
#   ldgsts_discover.csv  (DISCOVER=1) every ldgsts counter on 40 launches (/tmp/discover.txt)
#   ldgsts_rule.log      the program's and ncu's messages
# analyze.py reads them back.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:?give the output folder}}
mkdir -p "$out"
log=$out/ldgsts_rule.log
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/ldgsts_rule "$here/ldgsts_rule.cu" || exit 1
cuobjdump --dump-sass /tmp/ldgsts_rule | grep -E 'Function|LDGSTS|LDGDEPBAR|DEPBAR' >"$out/ldgsts_rule.sass"
ncu --query-metrics >/tmp/query.txt 2>&1
grep -i -e ldgsts -e wavefronts_mem_shared "/tmp/query.txt" >"$out/ldgsts_metrics.txt"
want="smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
smsp__inst_executed_op_ldgsts.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum
l1tex__m_xbar2l1tex_read_sectors_mem_global_op_ldgsts_cache_bypass.sum"
metrics=""
for m in $want; do
  if grep -qw "^ *${m%.sum}" /tmp/query.txt; then metrics="$metrics${metrics:+,}$m"; fi
done
{
  echo "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "ncu: $(ncu --version | tail -1)"
  echo "cuda: $(nvcc --version | tail -2 | head -1)"
  echo "date: $(date -u +%Y-%m-%d)"
  echo "metrics: $metrics"
} >"$out/ldgsts_rule.meta"
cat "$out/ldgsts_rule.meta"
/tmp/ldgsts_rule "$here/patterns.txt" 2>/tmp/plain.log || { tail -5 /tmp/plain.log; cat /tmp/plain.log >>"$log"; exit 1; }
tail -1 /tmp/plain.log; tail -1 /tmp/plain.log >>"$log"
# Every pattern with --cache-control none; with --cache-control all (caches flushed before each
# replay pass) the lines of $ALL_PATTERNS (default: the holdout patterns h-*; the first run
# flushed all 858 first patterns and no count changed), listed in ldgsts_all.txt.
t0=$(date +%s)
timeout 300 ncu --csv --print-units base --clock-control none --cache-control none \
  --metrics "$metrics" /tmp/ldgsts_rule "$here/patterns.txt" >"$out/ldgsts_none.csv" 2>>"$log"
echo "cache-control none: rc $? in $(( $(date +%s) - t0 )) s," \
  "$(grep -c '"smsp__inst_executed_op_ldgsts.sum"' "$out/ldgsts_none.csv") launches"
grep -E "${ALL_PATTERNS:-^h-}" "$here/patterns.txt" >"$out/ldgsts_all.txt"
t0=$(date +%s)
timeout 120 ncu --csv --print-units base --clock-control none --cache-control all \
  --metrics "$metrics" /tmp/ldgsts_rule "$out/ldgsts_all.txt" >"$out/ldgsts_all.csv" 2>>"$log"
echo "cache-control all: rc $? in $(( $(date +%s) - t0 )) s," \
  "$(grep -c '"smsp__inst_executed_op_ldgsts.sum"' "$out/ldgsts_all.csv") launches"
if [ -n "${DISCOVER:-}" ]; then
  # Every ldgsts counter this ncu knows, on a few patterns (the first run did this).
  disc=$(awk '$2 == "Counter" && ($1 ~ /ldgsts/ || $1 ~ /wavefronts_mem_shared/) {print $1".sum"}' /tmp/query.txt | sort -u | paste -sd,)
  grep -E '^(tile-(16|8|4)-w64-s(64|128|256)-b0-plain|fp32-contiguous|spread-(4|16)-st128|misaligned-16-b16|global-16-perline(2|4)) ' "$here/patterns.txt" >/tmp/discover.txt
  timeout 100 ncu --csv --print-units base --clock-control none --cache-control none \
    --metrics "$disc" /tmp/ldgsts_rule /tmp/discover.txt >"$out/ldgsts_discover.csv" 2>>"$log"
  echo "discover rc $?"
fi
