#!/bin/bash
# On the GPU machine: Triton's conversions of probe.py under Nsight Compute, their data
# checked, and the shared-memory counters of each launch (one CTA each). Writes to $OUT, one
# folder per part of the sweep (f16; f32 and int8), so a part cut short leaves the others.
set -u
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
ncu --version >> "$OUT/gpu.txt" 2>&1
python3 -c 'import triton, torch; print("triton", triton.__version__); print("torch", torch.__version__, "cuda", torch.version.cuda)' >> "$OUT/gpu.txt" 2>&1
date -u +"date %Y-%m-%dT%H:%MZ" >> "$OUT/gpu.txt"
# The shared-memory wavefronts and bank conflicts of loads and stores (ldmatrix / stmatrix
# included), and the instructions, ldsm / stsm separately: what compare.py reads.
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_stsm.sum
for part in float16 float32-int8; do
  mkdir -p "$OUT/$part"
  # One pass: probe.py checks each conversion's data and writes cases.json while ncu profiles
  # every convert_kernel launch (its replays restore memory, so the check sees one clean run).
  PROBE_ONLY="-(${part/-/|})\$" ncu --csv --metrics "$metrics" --kernel-name regex:convert_kernel \
    python3 probe.py "$OUT/$part" > "$OUT/$part/ncu.csv" 2> "$OUT/$part/ncu.err"
  echo "$part: ncu exit $?; $(grep -c convert_kernel "$OUT/$part/ncu.csv") metric rows;" \
    "$(grep -c ' True$' "$OUT/$part/ncu.csv") correct, $(grep -c ' False$' "$OUT/$part/ncu.csv") wrong"
  grep -v '^"' "$OUT/$part/ncu.csv" | grep -v -E "^==PROF==| True$" | tail -5
  tail -2 "$OUT/$part/ncu.err"
done
