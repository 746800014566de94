#!/usr/bin/env bash
# On the GPU machine: build predicates.cu, keep its SASS, check every launch's bytes once without
# the profiler, then run launches.txt under Nsight Compute in chunks (a deadline keeps the whole
# under the device call's limit; launches.txt lists the most informative launches first), then a
# pass with every LDGSTS counter on a few launches and ncu's source page of a few. Writes to OUT
# (default $OUT), flat, at most 8 files:
#   predicates.meta     GPU, driver, ncu, CUDA, date, metrics of the main pass
#   predicates.sass     cuobjdump -sass of the build (every kernel's whole SASS)
#   metrics.txt         ncu --query-metrics lines naming ldgsts or shared wavefronts
#   ncu_main.csv        ncu's CSV, one row per launch and metric; "== chunk N FILE" before each
#   ncu_discover.csv    every ldgsts / shared-wavefront counter on discover.txt's launches
#   ncu_source.csv      ncu's source page (SASS) of source.txt's launches
#   predicates.log      the program's messages (one line per launch: ok, or the wrong threads)
#                       without and under ncu, and ncu's
# analyze.py reads them back.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:?give the output folder}}
mkdir -p "$out"
start=$(date +%s)
budget=${BUDGET:-540}          # seconds for the whole script
reserve=${RESERVE:-90}         # of which kept for the discover and source passes
log=$out/predicates.log
: >"$log"
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/predicates "$here/predicates.cu" 2>>"$log" || { cat "$log"; exit 1; }
cuobjdump -sass /tmp/predicates >"$out/predicates.sass"
grep -E 'Function|LDGSTS' "$out/predicates.sass" | paste - - | sed -E 's@/\*[^*]*\*/@@g; s/ +/ /g' \
  | sort | head -80
ncu --query-metrics >/tmp/query.txt 2>&1
grep -i -e ldgsts -e wavefronts_mem_shared /tmp/query.txt >"$out/metrics.txt"
want="smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
smsp__sass_inst_executed_op_ldgsts.sum
smsp__sass_thread_inst_executed_op_ldgsts.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
smsp__inst_executed_op_ldgsts.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"
# Every instrumented (smsp__sass_) ldgsts counter this ncu has, too: they come from one pass.
extra=$(awk '$1 ~ /^smsp__sass.*ldgsts/ && $2 == "Counter" {print $1".sum"}' /tmp/query.txt | sort -u)
metrics=""
for m in $want $extra; do
  case ",$metrics," in *",$m,"*) continue ;; esac
  if grep -qw "^ *${m%.sum}" /tmp/query.txt; then metrics="$metrics${metrics:+,}$m"; fi
done
{
  echo "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "ncu: $(ncu --version | tail -1)"
  echo "cuda: $(nvcc --version | tail -2 | head -1)"
  echo "date: $(date -u +%Y-%m-%d)"
  echo "metrics: $metrics"
} >"$out/predicates.meta"
cat "$out/predicates.meta"
echo "== plain (no ncu)" >>"$log"
/tmp/predicates "$here/launches.txt" 2>>"$log"
echo "plain run: rc $?; $(tail -1 "$log")"
# The main pass, in chunks of 260 launches.
split -l 260 -d "$here/launches.txt" /tmp/chunk.
: >"$out/ncu_main.csv"
for f in /tmp/chunk.*; do
  left=$(( budget - reserve - ($(date +%s) - start) ))
  if [ "$left" -lt 20 ]; then echo "no time left for $f" | tee -a "$log"; break; fi
  echo "== chunk $(basename "$f") $(head -1 "$f" | cut -d' ' -f1)" >>"$out/ncu_main.csv"
  echo "== ncu chunk $(basename "$f")" >>"$log"
  t0=$(date +%s)
  timeout "$left" ncu --csv --print-units base --clock-control none --cache-control none \
    --metrics "$metrics" /tmp/predicates "$f" >>"$out/ncu_main.csv" 2>>"$log"
  echo "chunk $(basename "$f"): rc $? in $(( $(date +%s) - t0 )) s, $(tail -1 "$log")"
done
# Every ldgsts / shared-wavefront counter on a few launches.
grep -E '^1w-(cg16|ca16)-far-(Z_P0|Z_P1|Z64_nP0)-(none|all) |^1w-(cg16|ca16)-far-(G_gP0|G_gP3)-hi16 ' \
  "$here/launches.txt" >/tmp/discover.txt
left=$(( budget - 30 - ($(date +%s) - start) ))
if [ "$left" -gt 20 ]; then
  disc=$(awk '$2 == "Counter" && ($1 ~ /ldgsts/ || $1 ~ /wavefronts_mem_shared/) {print $1".sum"}' /tmp/query.txt | sort -u | paste -sd,)
  echo "== discover" >>"$log"
  t0=$(date +%s)
  timeout "$left" ncu --csv --print-units base --clock-control none --cache-control none \
    --metrics "$disc" /tmp/predicates /tmp/discover.txt >"$out/ncu_discover.csv" 2>>"$log"
  echo "discover ($(wc -l </tmp/discover.txt) launches): rc $? in $(( $(date +%s) - t0 )) s"
fi
# ncu's source page of a few launches (the per-instruction view issue 32 compared).
grep -E '^1w-(cg16|ca16)-far-(Z_P0|Z_P1)-(none|all) ' "$here/launches.txt" >/tmp/source.txt
left=$(( budget - 5 - ($(date +%s) - start) ))
if [ "$left" -gt 15 ] && [ -z "${NO_SOURCE:-}" ]; then
  echo "== source" >>"$log"
  timeout "$left" ncu --section SourceCounters --clock-control none --cache-control none \
    -f -o /tmp/src /tmp/predicates /tmp/source.txt >>"$log" 2>&1 &&
    ncu -i /tmp/src.ncu-rep --page source --csv --print-source sass >"$out/ncu_source.csv" 2>>"$log"
  echo "source: rc $?"
fi
echo "total $(( $(date +%s) - start )) s"
