#!/usr/bin/env bash
# On the GPU machine: build coalescing_runner.cu, run every case of RUNNER_INPUT under Nsight
# Compute, and write to OUT: coalescing.csv (ncu's CSV, one row per launch and metric),
# coalescing.meta (GPU, driver, ncu, CUDA, date) and coalescing.sass (the global accesses of the
# compiled kernels, to show the widths). compare.py reads them back here.
#
#   bash gpu_oracle/coalescing/run.sh RUNNER_INPUT OUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
input=${1:?give the runner input (make_cases.py writes it)}
out=${2:?give the output folder}
mkdir -p "$out"
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/coalescing_runner "$here/coalescing_runner.cu"
cuobjdump -sass /tmp/coalescing_runner | grep -E "Function|LDG|STG" >"$out/coalescing.sass" || true
{
  echo "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "ncu: $(ncu --version | tail -1)"
  echo "cuda: $(nvcc --version | tail -2 | head -1)"
  echo "date: $(date -u +%Y-%m-%d)"
} >"$out/coalescing.meta"
ncu --csv --print-units base --cache-control none \
  --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum \
  /tmp/coalescing_runner "$input" >"$out/coalescing.csv"
echo "coalescing: $(grep -c '"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"' "$out/coalescing.csv") launches measured"
