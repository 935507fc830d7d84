#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Does a learned predictor generalise to a language model it never saw? The paper's
# comparison (the BiGRU-optimised Transformer against decision tree, random forest,
# AdaBoost and XGBoost) on datasets/llm_jobs.csv, target simulated_device_mib, with
# folds grouped by architecture: each of the 18 shipped models is in exactly one test
# fold and in none of that fold's training rows. The architecture's name is the group,
# not a feature (its sizes are); the column notes keep the other outcomes out.
# Then the same rows in plain folds for contrast. Repeated with new folds and training
# seeds; on 2 shared cores the fast preset takes a few minutes.
#   bench/llm_jobs_comparison.sh [PRESET] [REPEATS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
preset=${1:-fast}
repeats=${2:-3}
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out"
mkdir -p "$out"
common=(--target simulated_device_mib --ignore architecture --folds 5 --repeats "$repeats" --seed 42
        --preset "$preset" --models bigru_transformer,decision_tree,random_forest,adaboost,xgboost
        --on-bad-cell drop --threads 1)
# Unseen architectures: grouped folds.
OMP_NUM_THREADS=1 nice -n 10 "$gpumem" compare "$root/datasets/llm_jobs.csv" "${common[@]}" --group-by architecture \
  --report "$out/llm_jobs_grouped-$preset.json" --report "$out/llm_jobs_grouped-$preset.md"
# For contrast, the same rows in plain folds, where every architecture is also among the training rows.
OMP_NUM_THREADS=1 nice -n 10 "$gpumem" compare "$root/datasets/llm_jobs.csv" "${common[@]}" \
  --report "$out/llm_jobs_mixed-$preset.json" --report "$out/llm_jobs_mixed-$preset.md"
