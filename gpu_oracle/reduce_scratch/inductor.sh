#!/usr/bin/env bash
# On the GPU machine: inductor.py once to compile (cold caches) and check every output, then
# again under Nsight Compute's source counters (warm caches: no compiling, no autotuning).
# Writes OUT/inductor.tgz: plain.json / ncu.json (outputs checked), src.csv (one source page
# per profiled launch, in order), kernels/ (TTGIR, cubin and metadata of every kernel in
# Triton's cache, named HASH-FILE), sources.tgz (Inductor's generated kernel files) and logs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:?give the output folder}}
work=/tmp/ind
rm -rf "$work" && mkdir -p "$work/kernels"
export TRITON_CACHE_DIR=$work/tcache TORCHINDUCTOR_CACHE_DIR=$work/icache PYTHONUNBUFFERED=1
timeout 330 python3 "$here/inductor.py" "$work/plain.json" > "$work/plain.log" 2>&1
echo "plain: rc $?, $(grep -c "'ok': True" "$work/plain.log") ok of $(grep -c "'id'" "$work/plain.log")"
timeout 200 ncu --section SourceCounters --cache-control all --clock-control none \
  --kernel-name regex:'^triton_' -f -o "$work/rind" python3 "$here/inductor.py" "$work/ncu.json" \
  > "$work/ncu.log" 2>&1
echo "ncu: rc $?"
ncu -i "$work/rind.ncu-rep" --page source --csv --print-source sass > "$work/src.csv" 2>>"$work/ncu.log"
echo "$(grep -c 'Kernel Name' "$work/src.csv") source pages"
find "$work/tcache" -name '*.cubin' | while read -r f; do
  d=$(dirname "$f"); h=$(basename "$d")
  for g in "$d"/*.ttgir "$d"/*.cubin "$d"/*.json; do cp "$g" "$work/kernels/$h-$(basename "$g")"; done
done
(cd "$work/icache" && find . -name '*.py' | tar czf "$work/sources.tgz" -T -)
tar czf "$out/inductor.tgz" -C "$work" plain.json ncu.json src.csv kernels sources.tgz plain.log ncu.log
ls -la "$out"; tail -3 "$work/ncu.log"
