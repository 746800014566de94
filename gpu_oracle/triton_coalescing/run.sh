#!/bin/bash
# On the GPU machine: the cases of IDS (a file of case ids, default data/gpu_ids.txt) of
# CASES (default data/cases.json) launched by probe.py, one CTA each, under Nsight Compute,
# reading the global-memory sectors, requests and SASS instructions of loads and stores per
# launch; probe.py checks each kernel's output equals its input. Writes to OUT ($OUT by
# default): gpu.txt (GPU, driver, ncu, Triton, torch, date), run.json (per case: kernel,
# correct, the PTX's global instructions), ncu.csv, warm.log and ncu.err.
#
#   bash gpu_oracle/triton_coalescing/run.sh [CASES] [IDS] [OUT]
set -u
here=$(cd "$(dirname "$0")" && pwd)
cases=${1:-$here/data/cases.json}
ids=${2:-$here/data/gpu_ids.txt}
out=${3:-$OUT}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  ncu --version | tail -1
  python3 -c 'import triton, torch; print("triton", triton.__version__); print("torch", torch.__version__, "cuda", torch.version.cuda)'
  date -u +"date %Y-%m-%dT%H:%MZ"
} > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
# First every kernel compiled and launched once, in parallel and unprofiled, so that the
# profiled pass below finds each in Triton's cache and spends its time on the counters.
start=$(date +%s)
python3 "$here/probe.py" run "$cases" "$out/warm" --ids "$ids" --warm -j "$(nproc)" > "$out/warm.log" 2>&1
echo "warm: $(tail -1 "$out/warm.log") ($(( $(date +%s) - start )) s)"
grep -v '^warm:' "$out/warm.log" | tail -5
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
# One pass: probe.py checks each kernel's data and writes run.json while ncu profiles every
# copy_kernel launch (its replays restore memory, so the check sees one clean run).
start=$(date +%s)
# Only the cases that ran in the warm pass (one that aborts Triton would end this one).
ncu --csv --print-units base --cache-control none --metrics "$metrics" \
  --kernel-name regex:copy_kernel python3 "$here/probe.py" run "$cases" "$out" \
  --ids "$out/warm/ok_ids.txt" \
  > "$out/ncu.csv" 2> "$out/ncu.err"
echo "ncu: exit $?, $(( $(date +%s) - start )) s;" \
  "$(grep -c '"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"' "$out/ncu.csv") launches measured;" \
  "$(grep -c ' True$' "$out/ncu.csv") correct, $(grep -c ' False$' "$out/ncu.csv") wrong"
grep -v '^"' "$out/ncu.csv" | grep -v -E "^==PROF==| True$" | tail -5
tail -3 "$out/ncu.err"
cp "$out/warm/ok_ids.txt" "$out/ok_ids.txt"; rm -rf "$out/warm"
