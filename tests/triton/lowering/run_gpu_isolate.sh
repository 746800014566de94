#!/bin/bash
# On the GPU machine: the same kernels twice under ncu, as the probe emits them and with ISOLATE
# (kernels.py's _settle: every thread waits for its shared-memory results, then a CTA barrier,
# before the next phase's global loads or stores), each launched REPEAT times, to tell whether
# the launches that disagree with each other ("varies" in gpu_check.py) are the shared-memory
# accesses' own cost or the kernel's global traffic overlapping them. Writes to $OUT, per
# version: plain-<v>.jsonl + ncu-<v>-plain.csv, isolated-<v>.jsonl + ncu-<v>-isolated.csv.
# Usage: VERSION=3.6|3.9 PACK=DIR PACK_ISOLATED=DIR IDS=id,id,... [REPEAT=5] bash run_gpu_isolate.sh
# (for 3.6, gpu_pack.py --ids IDS [--isolate] on this machine makes both packs; for 3.9 they
# are compiled on the workstation and carried).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
export PYTHONUNBUFFERED=1
OUT="${OUT:?set OUT}"; V="${VERSION:?}"; PACK="${PACK:?}"; ISO="${PACK_ISOLATED:?}"
IDS="${IDS:?}"; REPEAT="${REPEAT:-5}"
source "$HERE/gpu_env.sh"
metrics=$METRICS_HW
names='regex:^(local|convert|async)_kernel$'
for variant in plain isolated; do
  pack="$PACK"; [ "$variant" = isolated ] && pack="$ISO"
  rm -f "$OUT/$variant-$V.jsonl"
  ncu --csv --metrics "$metrics" --kernel-name "$names" python3 "$HERE/gpu_launch.py" "$pack" \
    "$OUT/$variant-$V.jsonl" --cases "$IDS" --repeat "$REPEAT" > "$OUT/ncu-$V-$variant.csv" 2> "$OUT/ncu-$V-$variant.err"
  echo "$V $variant under ncu: exit $?, $(grep -c '_kernel' "$OUT/ncu-$V-$variant.csv") metric rows"
done
