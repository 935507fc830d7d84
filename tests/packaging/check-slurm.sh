#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs packaging/slurm/*.sbatch as a Slurm job array would, with the array
# variables set by hand for each task, merges the parts with the scripts' merge
# step, and checks that the result equals a single run byte for byte.
#   check-slurm.sh GPUMEM SOURCE_DIR
set -euo pipefail
gpumem=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_array() { # script tasks [merge environment…]
  local script=$1 tasks=$2 task
  for ((task = 0; task < tasks; task++)); do
    SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_COUNT=$tasks SLURM_ARRAY_TASK_MIN=0 SLURM_CPUS_PER_TASK=1 \
      bash "$source/packaging/slurm/$script" >/dev/null
  done
  bash "$source/packaging/slurm/$script" merge >/dev/null
}

# The sweep: 2 × 2 trials over 3 tasks (one task gets two).
export GPUMEM=$gpumem DATA=$source/tests/data/jobs_training.csv TARGET=memory_mib
export PARAMS="epochs=1,2 learning_rate=0.01,0.002"
export GPUMEM_ARGS="--preset fast --reproducible"
export OUT_DIR=$work/sweep
run_array sweep.sbatch 3
"$gpumem" sweep "$DATA" --target "$TARGET" --param epochs=1,2 --param learning_rate=0.01,0.002 \
  --preset fast --reproducible --out "$work/sweep-single.jsonl" 2>/dev/null >/dev/null
cmp "$OUT_DIR/runs.jsonl" "$work/sweep-single.jsonl"
[[ $(wc -l <"$OUT_DIR/runs.jsonl") -eq 4 ]]

# The probe: 9 configurations over 4 tasks.
export FAMILY=mlp COUNT=9 SEED=5 STEPS=1 OUT_DIR=$work/probe
run_array probe.sbatch 4
"$gpumem" probe --family mlp --count 9 --seed 5 --steps 1 --out "$work/probe-single.csv" >/dev/null 2>&1
cmp "$OUT_DIR/jobs.csv" "$work/probe-single.csv"

# A missing part is refused, and the merged file stays as it was.
rm "$OUT_DIR/part-1-of-4.csv"
cp "$OUT_DIR/jobs.csv" "$work/before.csv"
if bash "$source/packaging/slurm/probe.sbatch" merge 2>"$work/error.txt"; then
  echo "a merge with a missing part succeeded" >&2
  exit 1
fi
[[ $(wc -l <"$work/error.txt") -eq 1 ]]
cmp "$OUT_DIR/jobs.csv" "$work/before.csv"
echo "slurm scripts: sweep and probe shards merge into the single runs' files"
