#!/usr/bin/env bash
# On the GPU machine: shard SHARD of SHARDS of workloads.py under Nsight Compute's source
# counters (only the profiled call of each workload: --profile-from-start off), for at most
# DEADLINE seconds of workloads; then ncu's source pages reduced to the memory instructions
# (collect.py), and OUT/real-SHARD.tar.xz with launches-SHARD.json, measured-SHARD.json,
# meta.txt and kernels/ (TTGIR, cubin and metadata of every launched kernel).
# Liger-Kernel, FlagGems, fla-core and SQLAlchemy travel as wheels in .whl (see README.md).
# LLCHECK_RUN_TAG=T: the work folder and tarball are named T too (real-TSHARD.tar.xz), so that
# runs of different kinds (a replay beside a recording) go side by side.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shard=$1 shards=$2 deadline=$3
out=${OUT:?}
tag=${LLCHECK_RUN_TAG:-}
work=/tmp/real$tag$shard
rm -rf "$work" && mkdir -p "$work"
# Once per machine: shards run side by side share the install.
if [ ! -e /tmp/site/.llcheck-installed ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "$here"/../../.whl/*.whl && touch /tmp/site/.llcheck-installed || exit 1
fi
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 TRITON_CACHE_DIR=/tmp/tcache
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  date -u +%F; } > "$work/meta.txt" 2>&1
# Triton's kernels have plain C names; PyTorch's own (mangled, _Z...) are not profiled.
timeout $((deadline + 120)) ncu --section SourceCounters --profile-from-start off \
  --kernel-name-base mangled --kernel-name 'regex:^([^_]|_[^Z])' --cache-control all --clock-control none -f -o "$work/rep" \
  python3 "$here/run_gpu.py" "$work" "$shard" "$shards" "$deadline" > "$work/run.log" 2>&1
echo "ncu rc $?; $(grep -c ' True ' "$work/run.log") ok, $(grep -c ' False ' "$work/run.log") not ok, $(grep -c ' None ' "$work/run.log") errors"
ncu -i "$work/rep.ncu-rep" --page source --csv --print-source sass > "$work/src.csv" 2>>"$work/run.log"
ls -la "$work/src.csv" "$work/rep.ncu-rep"
python3 "$here/collect.py" "$work/src.csv" "$work/launches-$shard.json" "$work/measured-$shard.json"
# LLCHECK_RECORD: the generated modules' sources too (run_gpu.py's generated_sources).
extra=$(cd "$work" && ls -d "sources-$shard.json" sources 2>/dev/null)
tar cJf "$out/real-$tag$shard.tar.xz" -C "$work" meta.txt run.log "launches-$shard.json" \
  "measured-$shard.json" kernels $extra
ls -la "$out"; grep -E "Error|error" "$work/run.log" | sort | uniq -c | sort -rn | head -20
