#!/usr/bin/env bash
# On the GPU machine: every case of kernels.py under Triton 3.6 (compiled there) and 3.9
# (cubins compiled here by compile39.py into .reduce-kernels/39, carried), run once plainly (the
# outputs checked) and once under Nsight Compute's source counters (per SASS instruction:
# executions and L1 shared wavefronts). Writes OUT/reduce.tgz: 36/ and 39/, each with the
# TTGIR, PTX and cubin of every case, launches.json (outputs checked), src.csv (ncu's source
# pages, one per launch in order) and raw.csv (every metric per launch); meta.txt (GPU, driver,
# ncu, date). analyze.py reads it back.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:?give the output folder}}
work=/tmp/reduce
rm -rf "$work" && mkdir -p "$work/36" "$work/39"
cp "$here"/../../.reduce-kernels/39/* "$work/39/"
export PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  date -u +%F; } > "$work/meta.txt" 2>&1
kernels='regex:^(tile|colmajor|row|softmax|layernorm|scan|atomic|histogram|gather)_'
for v in 36 39; do
  ver=${v:0:1}.${v:1}
  python3 "$here/run_gpu.py" "$ver" "$work/$v" > "$work/$v/plain.log" 2>&1
  cp "$work/$v/launches.json" "$work/$v/launches-plain.json"
  timeout 250 ncu --section SourceCounters --cache-control all --clock-control none \
    --kernel-name "$kernels" -f -o "$work/r$v" python3 "$here/run_gpu.py" "$ver" "$work/$v" \
    > "$work/$v/ncu.log" 2>&1
  ncu -i "$work/r$v.ncu-rep" --page source --csv --print-source sass > "$work/$v/src.csv" 2>>"$work/$v/ncu.log"
  ncu -i "$work/r$v.ncu-rep" --page raw --csv > "$work/$v/raw.csv" 2>>"$work/$v/ncu.log"
  echo "$ver: $(grep -c '"ok": true' "$work/$v/launches-plain.json") ok plain, $(grep -c 'Kernel Name' "$work/$v/src.csv") source pages"
done
rm -f "$work"/*/reduce_cases.py
tar czf "$out/reduce.tgz" -C "$work" meta.txt 36 39
cat "$work/meta.txt"; tail -3 "$work/36/ncu.log" "$work/39/ncu.log"
