#!/usr/bin/env bash
# A sweep as a Slurm job array (docs/sweep.md, "Running the shards"): one array task per shard.
# Slurm sets SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN in every task,
# and llcheck takes its shard from them. Run on the login node, from the repository:
#   fuzz/sweep/engines/slurm-array.sh                       # submits the array and the merge
#   SHARDS=1024 SWEEP="blocked --max-log2 8" fuzz/sweep/engines/slurm-array.sh
# The whole --max-log2 8 space is about 540 core-hours; 1,024 tasks finish it in under an hour
# (about 48 minutes each on one core of the H200 host it was measured on; docs/sweep.md, "Sizing
# a job", and fuzz/sweep/size_job.py for another count). Each task also plans the deal (8 s).
# The array is submitted --requeue: a task preempted or requeued after a node failure runs
# again and goes on from its checkpoint. The merge job runs once every task has ended well
# (afterok) and writes DIR/sweep.json and the text report into DIR/merge.log.
set -euo pipefail
export SHARDS=${SHARDS:-8}
export SWEEP=${SWEEP:-"blocked --max-log2 4"}
export LLCHECK=${LLCHECK:-$PWD/build/cli/llcheck}
export DIR=${DIR:-$PWD/sweep-results}

case "${1:-submit}" in
submit)
  mkdir -p "$DIR"
  array=$(sbatch --parsable --job-name=llcheck-sweep --array=0-$((SHARDS - 1)) --requeue \
    --cpus-per-task=1 --mem=2G --time=24:00:00 --output="$DIR/shard-%a.log" "$0" shard)
  sbatch --job-name=llcheck-sweep-merge --dependency=afterok:"${array%%;*}" --time=1:00:00 \
    --output="$DIR/merge.log" "$0" merge
  ;;
shard)
  i=$SLURM_ARRAY_TASK_ID
  status=0
  # $SWEEP unquoted: it is the family and options, word by word.
  # shellcheck disable=SC2086
  "$LLCHECK" sweep $SWEEP --checkpoint "$DIR/checkpoint-$i.json" --format json \
    >"$DIR/shard-$i.json.tmp" || status=$?
  # Exit status 1 (a check failed) is a whole result, which the merge reports.
  [ "$status" -le 1 ] || exit "$status"
  mv "$DIR/shard-$i.json.tmp" "$DIR/shard-$i.json"
  ;;
merge)
  status=0
  "$LLCHECK" sweep merge "$DIR"/shard-*.json --format json >"$DIR/sweep.json" || status=$?
  "$LLCHECK" sweep merge "$DIR"/shard-*.json || true
  exit "$status"
  ;;
*)
  echo "usage: $0 [submit|shard|merge]" >&2
  exit 2
  ;;
esac
