#!/bin/bash
# On the GPU machine, after run_gpu.sh: (1) the padded-layout kernels, which a misaligned access
# can fault: first without ncu, one process that is restarted past each case that brings it down
# (those are recorded as faults), then the rest in one ncu session; (2) the kernels whose
# counters disagreed with the prediction, each launched REPEAT times in one ncu session, to tell
# a counter that varies from run to run from a model that is wrong. Writes to $OUT, per version:
#   faults-<v>.jsonl, padded-<v>.jsonl + ncu-<v>-padded.csv, repeat-<v>.jsonl + ncu-<v>-repeat.csv
# Usage: VERSION=3.6|3.9 PACK=DIR IDS=id,id,... [REPEAT=5] [SASS=1] bash run_gpu_extra.sh
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
export PYTHONUNBUFFERED=1
OUT="${OUT:?set OUT}"; V="${VERSION:?}"; PACK="${PACK:?}"; IDS="${IDS:-}"; REPEAT="${REPEAT:-5}"
source "$HERE/gpu_env.sh"
metrics=$(known_metrics "$METRICS_HW${SASS:+,$METRICS_SASS}")
names='regex:^(local|convert|async)_kernel$'
padded=$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print(",".join(c["id"] for c in m["cases"] if c.get("padded") and "error" not in c))' "$PACK/manifest.json")
# (1) Faults, without ncu: run the remaining cases until every one ended or faulted.
rm -f "$OUT/faults-$V.jsonl"
touch "$OUT/faults-$V.jsonl"
remaining="$padded"
for attempt in $(seq 1 90); do
  [ -z "$remaining" ] && break
  python3 "$HERE/gpu_launch.py" "$PACK" "$OUT/faults-$V.jsonl" --cases "$remaining" > /dev/null 2>&1
  remaining=$(python3 - "$OUT/faults-$V.jsonl" "$padded" <<'PY'
import json, sys
ended, started = set(), []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "start" in r:
        started.append(r["id"])
    else:
        ended.add(r["id"])
faulted = {i for i in started if i not in ended}
print(",".join(i for i in sys.argv[2].split(",") if i and i not in ended and i not in faulted))
# (a case whose launch raised a CUDA error ended the process: it is `ended`, with its error)
PY
)
done
good=$(python3 - "$OUT/faults-$V.jsonl" <<'PY'
import json, sys
ok = [json.loads(l) for l in open(sys.argv[1])]
print(",".join(r["id"] for r in ok if "start" not in r and r.get("launched") and "error" not in r))
PY
)
echo "$V padded: $(tr ',' '\n' <<< "$padded" | grep -c .) cases, $(tr ',' '\n' <<< "$good" | grep -c .) ran without a fault"
rm -f "$OUT/padded-$V.jsonl" "$OUT/repeat-$V.jsonl"
ncu --csv --metrics "$metrics" --kernel-name "$names" python3 "$HERE/gpu_launch.py" "$PACK" \
  "$OUT/padded-$V.jsonl" --cases "$good" > "$OUT/ncu-$V-padded.csv" 2> "$OUT/ncu-$V-padded.err"
echo "$V padded under ncu: exit $?, $(grep -c '_kernel' "$OUT/ncu-$V-padded.csv") metric rows"
# (2) Repeats.
if [ -n "$IDS" ]; then
  ncu --csv --metrics "$metrics" --kernel-name "$names" python3 "$HERE/gpu_launch.py" "$PACK" \
    "$OUT/repeat-$V.jsonl" --cases "$IDS" --repeat "$REPEAT" > "$OUT/ncu-$V-repeat.csv" 2> "$OUT/ncu-$V-repeat.err"
  echo "$V repeats under ncu: exit $?, $(grep -c '_kernel' "$OUT/ncu-$V-repeat.csv") metric rows"
fi
