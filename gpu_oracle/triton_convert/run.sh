#!/bin/bash
# On the GPU machine: Triton's conversions of probe.py, their data checked, and the
# shared-memory counters Nsight Compute reads for each (one CTA each). Writes to $OUT.
set -u
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
ncu --version >> "$OUT/gpu.txt" 2>&1
python3 -c 'import triton; print("triton", triton.__version__)' >> "$OUT/gpu.txt" 2>&1
# Every shared-memory wavefront, bank-conflict and instruction counter this ncu knows.
ncu --query-metrics --chip gh100 2>/dev/null | awk '{print $1}' |
  grep -E '^(l1tex__data_pipe_lsu_wavefronts_mem_shared|l1tex__data_bank_conflicts_pipe_lsu_mem_shared|smsp__inst_executed_op_(shared|ldsm|stsm))' \
  > "$OUT/metric_names.txt"
metrics=$(sed 's/$/.sum/' "$OUT/metric_names.txt" | paste -sd, -)
echo "metrics: $metrics"
python3 probe.py "$OUT" 2>&1 | tail -30
ncu --csv --metrics "$metrics" --kernel-name regex:convert_kernel python3 probe.py /tmp/again \
  > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
echo "ncu exit $?; $(grep -c convert_kernel "$OUT/ncu.csv") metric rows"
tail -3 "$OUT/ncu.err"
