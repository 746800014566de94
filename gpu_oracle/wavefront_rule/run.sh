#!/usr/bin/env bash
# On the GPU machine: build wavefront_rule.cu, run every pattern under Nsight Compute, and write
# the counters to OUT (default $OUT): wavefront_rule.csv (ncu's CSV, one row per launch and
# metric) and wavefront_rule.meta (GPU, driver, ncu, date). analyze.py reads them back.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:?give the output folder}}
mkdir -p "$out"
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/wavefront_rule "$here/wavefront_rule.cu"
{
  echo "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "ncu: $(ncu --version | tail -1)"
  echo "cuda: $(nvcc --version | tail -2 | head -1)"
  echo "date: $(date -u +%Y-%m-%d)"
} >"$out/wavefront_rule.meta"
ncu --csv --print-units base --cache-control none \
  --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum \
  /tmp/wavefront_rule "$here/patterns.txt" >"$out/wavefront_rule.csv"
echo "wavefront_rule: $(grep -c '"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"' "$out/wavefront_rule.csv") launches measured"
