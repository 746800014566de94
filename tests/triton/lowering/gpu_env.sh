# Sourced by the run_gpu*.sh scripts on the GPU machine: what every batch records about the
# machine, and the one list of Nsight Compute metrics they all read.
#
# Two counts of shared-memory wavefronts per kernel:
# - l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}: the L1TEX hardware counters. They
#   also count what the pipeline adds while other warps' accesses (global or shared) are in
#   flight, so they vary between launches of one kernel (README, "Measured on an H200").
# - smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ld,st,ldsm,stsm}: ncu's
#   instruction-level counts, collected by patching the SASS: each executed shared-memory
#   instruction's wavefronts from the addresses its active threads used, summed. They hold the
#   layout's own cost, launch after launch.
# and the warp-level instructions executed (smsp__inst_executed_*: hardware; smsp__sass_*: the
# same, counted by the patch).

gpu_info() {  # FILE
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    ncu --version | tail -1
    python3 -c 'import triton; print("triton", triton.__version__)'
    python3 -c 'import cupy; print("cupy", cupy.__version__)'
    date -u +"date %Y-%m-%dT%H:%MZ"
  } > "$1" 2>&1
}

METRICS_HW=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_stsm.sum
METRICS_SASS=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_inst_executed_op_shared_stsm.sum

# The metrics of LIST (comma-separated) that this ncu knows on this GPU: an unknown one would
# stop ncu, so each left out is said on stderr.
known_metrics() {  # LIST
  local known keep=() m
  known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
  for m in ${1//,/ }; do
    if [ -z "$known" ] || grep -qx "${m%.sum}" <<< "$known"; then keep+=("$m"); else echo "ncu lacks $m: left out" >&2; fi
  done
  (IFS=,; echo "${keep[*]}")
}
