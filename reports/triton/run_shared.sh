#!/bin/bash
# On the GPU machine: probe_shared.py under Nsight Compute (the counters run.sh of
# gpu_oracle/triton_convert reads), to $OUT/shared/ (about a minute on an H100). Copy its
# gpu.txt, cases.json and ncu.csv to reports/triton/data/shared/ and run make_report.py.
set -u
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
mkdir -p "$OUT/shared"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/shared/gpu.txt" 2>&1
ncu --version >> "$OUT/shared/gpu.txt" 2>&1
python3 -c 'import triton, torch; print("triton", triton.__version__); print("torch", torch.__version__, "cuda", torch.version.cuda)' >> "$OUT/shared/gpu.txt" 2>&1
date -u +"date %Y-%m-%dT%H:%MZ" >> "$OUT/shared/gpu.txt"
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_stsm.sum
ncu --csv --metrics "$metrics" --kernel-name regex:shared_kernel \
  python3 probe_shared.py "$OUT/shared" > "$OUT/shared/ncu.csv" 2> "$OUT/shared/ncu.err"
echo "ncu exit $?; $(grep -c shared_kernel "$OUT/shared/ncu.csv") metric rows"
grep -v '^"' "$OUT/shared/ncu.csv" | grep -c ' True$'
grep -v '^"' "$OUT/shared/ncu.csv" | grep -v -E "^==PROF==| True$" | tail -8
tail -3 "$OUT/shared/ncu.err"
