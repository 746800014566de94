#!/bin/bash
# On the GPU machine: one batch of lowering-probe kernels of one release under ncu, as
# run_gpu.sh + run_gpu_extra.sh do for the first 900 cases, for a cases file and a subset of
# its ids. Writes to $OUT/$TAG (the file names gpu_check.py collect reads):
#   gpu.txt; run-<v>.json + ncu-<v>.csv (every case but the padded ones, one ncu session);
#   faults-<v>.jsonl, padded-<v>.jsonl + ncu-<v>-padded.csv (the padded ones: run_gpu_extra.sh)
# Usage: VERSION=3.6 CASES=FILE [IDS=id,id,..] TAG=NAME [REPEAT_IDS=id,.. REPEAT=3] bash run_gpu_batch.sh
#        VERSION=3.9 PACK=TAR.xz TAG=NAME bash run_gpu_batch.sh      (a pack made here by
#        gpu_pack.py --tar from the same cases)
# SASS=1 reads ncu's instruction-level counts too (gpu_env.sh), slower: the SASS is patched.
# For 3.6 the pack is compiled here, with this machine's Triton (16 cores: ~1 minute per 400).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
export PYTHONUNBUFFERED=1
V="${VERSION:?}"; TAG="${TAG:?}"
OUT="${OUT:?set OUT}/$TAG"
mkdir -p "$OUT"
source "$HERE/gpu_env.sh"
gpu_info "$OUT/gpu.txt"
if [ "$V" = 3.6 ]; then
  pack=/tmp/pack-$TAG-3.6
  ids=(); [ -n "${IDS:-}" ] && ids=(--ids "$IDS")
  python3 "$HERE/gpu_pack.py" "${CASES:?}" --out "$pack" "${ids[@]}" -j 15 > "$OUT/pack-3.6.log" 2>&1
  tail -1 "$OUT/pack-3.6.log"
else
  mkdir -p /tmp/unpack-$TAG && tar -xJf "${PACK:?}" -C /tmp/unpack-$TAG
  pack=$(dirname "$(find /tmp/unpack-$TAG -name manifest.json | head -1)")
fi
cp "$pack/manifest.json" "$OUT/manifest-$V.json"
metrics=$(known_metrics "$METRICS_HW${SASS:+,$METRICS_SASS}")
names='regex:^(local|convert|async)_kernel$'
ncu --csv --metrics "$metrics" --kernel-name "$names" \
  python3 "$HERE/gpu_launch.py" "$pack" "$OUT/run-$V.json" --skip-padded > "$OUT/ncu-$V.csv" 2> "$OUT/ncu-$V.err"
echo "$V $TAG: ncu exit $?; $(grep -c '_kernel' "$OUT/ncu-$V.csv") metric rows"
tail -1 "$OUT/ncu-$V.err"
OUT="$OUT" SASS="${SASS:-}" VERSION="$V" PACK="$pack" IDS="${REPEAT_IDS:-}" REPEAT="${REPEAT:-3}" \
  bash "$HERE/run_gpu_extra.sh"
