#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs packaging/slurm/*.sbatch as Slurm job arrays, merges the parts with the
# scripts' merge step, and checks that the result equals a single run byte for
# byte.
#   check-slurm.sh GPUMEM SOURCE_DIR             each task run here, the array variables set by hand
#   check-slurm.sh GPUMEM SOURCE_DIR --cluster   a single-node Slurm started for the check
#                                                (slurm-single-node.sh): sbatch --array … --wait,
#                                                then the merge as a job depending on the array
# --cluster needs root and Debian's slurm-wlm and munge; where the machine does
# not allow it, it prints one line saying why and exits 77 (skipped), or 1 when
# GPUMEM_REQUIRE_SLURM=1. It stops every daemon it started on exit and gives up
# after 200 s.
set -euo pipefail
gpumem=$1
source=$2
mode=${3:-by-hand}
scripts=$source/packaging/slurm
work=$(mktemp -d)
deadline=$((SECONDS + 200))
submitting= # the pid of the sbatch being waited for
job=        # the id of the last job submitted

finish() {
  local status=$?
  if [[ $mode == --cluster ]]; then
    if [[ -n $submitting ]]; then
      kill -TERM "$submitting" 2>/dev/null || true
      wait "$submitting" 2>/dev/null || true
    fi
    if ((status != 0 && status != 77)); then
      for log in "$work"/*.log; do
        [[ -e $log ]] && { echo "---- $log"; tail -20 "$log"; }
      done
      slurm_node_logs
    fi
    slurm_node_stop
  fi
  rm -rf "$work"
  exit "$status"
}
trap finish EXIT
trap 'exit 143' TERM INT

if [[ $mode == --cluster ]]; then
  # shellcheck source=tests/packaging/slurm-single-node.sh
  source "$source/tests/packaging/slurm-single-node.sh"
  chmod 755 "$work" # munged's socket lies below it
  started=$SECONDS
  if ! slurm_node_start "$work/slurm" 60; then
    if [[ ${GPUMEM_REQUIRE_SLURM:-0} == 1 ]]; then
      echo "slurm scripts on a real Slurm: failed (GPUMEM_REQUIRE_SLURM=1), $slurm_node_problem" >&2
      exit 1
    fi
    echo "slurm scripts on a real Slurm: skipped, $slurm_node_problem"
    exit 77
  fi
  echo "single-node Slurm idle after $((SECONDS - started)) s"
  # The tasks' logs (--output of the scripts) land in the folder sbatch runs in.
  cd "$work"
elif [[ $mode != by-hand ]]; then
  echo "usage: check-slurm.sh GPUMEM SOURCE_DIR [--cluster]" >&2
  exit 1
fi

# Submits a job and waits for it, within what is left of the time; sets $job
# to its id. sbatch runs in the background so that a signal reaches finish at
# once, and finish ends it.
submit() {
  local left=$((deadline - SECONDS)) status=0
  if ((left <= 0)); then
    echo "check-slurm.sh: out of time" >&2
    return 1
  fi
  # One CPU per task, whatever the script asks, so the node of a small machine fits them.
  timeout "$left" sbatch --parsable --wait --cpus-per-task=1 "$@" >"$work/job-id" &
  submitting=$!
  wait "$submitting" || status=$?
  submitting=
  job=$(head -1 "$work/job-id")
  job=${job%%;*}
  if ((status != 0)); then
    echo "check-slurm.sh: job ${job:-?} (sbatch $*) ended with status $status" >&2
    return 1
  fi
}

# Runs the tasks FIRST to LAST of an array, as sbatch --array=FIRST-LAST would.
run_tasks() { # script first-last
  local script=$1 first=${2%-*} last=${2#*-} task
  if [[ $mode == --cluster ]]; then
    submit --array="$first-$last" "$scripts/$script"
    return
  fi
  for ((task = first; task <= last; task++)); do
    SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_COUNT=$((last - first + 1)) SLURM_ARRAY_TASK_MIN=$first \
      SLURM_CPUS_PER_TASK=1 bash "$scripts/$script" >/dev/null
  done
}

# The merge step as the documentation submits it: one job after the array.
merge_parts() { # script
  local script=$1
  if [[ $mode == --cluster ]]; then
    submit --dependency="afterok:$job" --kill-on-invalid-dep=yes \
      --output="$work/${script%.sbatch}-merge-%j.log" "$scripts/$script" merge
    return
  fi
  bash "$scripts/$script" merge >/dev/null
}

# The sweep: 2 × 2 trials over 3 tasks (one task gets two), an array that starts at 1.
export GPUMEM=$gpumem DATA=$source/tests/data/jobs_training.csv TARGET=memory_mib
export PARAMS="epochs=1,2 learning_rate=0.01,0.002"
export GPUMEM_ARGS="--preset fast --reproducible"
export OUT_DIR=$work/sweep
run_tasks sweep.sbatch 1-3
merge_parts sweep.sbatch
"$gpumem" sweep "$DATA" --target "$TARGET" --param epochs=1,2 --param learning_rate=0.01,0.002 \
  --preset fast --reproducible --out "$work/sweep-single.jsonl" 2>/dev/null >/dev/null
cmp "$OUT_DIR/runs.jsonl" "$work/sweep-single.jsonl"
[[ $(wc -l <"$OUT_DIR/runs.jsonl") -eq 5 ]] # the line naming the sweep, then its four runs

# The probe: 9 configurations over 4 tasks.
export FAMILY=mlp COUNT=9 SEED=5 STEPS=1 OUT_DIR=$work/probe
run_tasks probe.sbatch 0-3
merge_parts probe.sbatch
"$gpumem" probe --family mlp --count 9 --seed 5 --steps 1 --out "$work/probe-single.csv" >/dev/null 2>&1
cmp "$OUT_DIR/jobs.csv" "$work/probe-single.csv"

if [[ $mode == by-hand ]]; then
  # A missing part is refused, and the merged file stays as it was.
  rm "$OUT_DIR/part-1-of-4.csv"
  cp "$OUT_DIR/jobs.csv" "$work/before.csv"
  if bash "$scripts/probe.sbatch" merge 2>"$work/error.txt"; then
    echo "a merge with a missing part succeeded" >&2
    exit 1
  fi
  [[ $(wc -l <"$work/error.txt") -eq 1 ]]
  cmp "$OUT_DIR/jobs.csv" "$work/before.csv"
fi

# A lost part comes back when its task is submitted again alone, the size of
# the array in SHARDS.
rm -f "$OUT_DIR/part-1-of-4.csv" "$OUT_DIR/jobs.csv"
SHARDS=4 run_tasks probe.sbatch 1-1
merge_parts probe.sbatch
cmp "$OUT_DIR/jobs.csv" "$work/probe-single.csv"

if [[ $mode == --cluster ]]; then
  echo "slurm scripts on a real Slurm: sweep and probe arrays merge into the single runs' files ($((SECONDS - started)) s)"
else
  echo "slurm scripts: sweep and probe shards merge into the single runs' files"
fi
