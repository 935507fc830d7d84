#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How much each model's error depends on the seed: repeated 5-fold cross-validation
# (`gpumem compare --repeats R`, each repetition with its own folds and training seed)
# on the GPUMemNet MLP measurements, with the same columns as bench/accuracy.sh. Prints
# per model the mean RMSE over every fit, the spread over fits and over repetitions,
# the median relative error, and the corrected repeated k-fold t-test against the best.
#   bench/seed_spread.sh [REPEATS] [MODELS] [extra gpumem compare arguments…]
# e.g. bench/seed_spread.sh 3 random_forest,xgboost,bigru_transformer --preset quick
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
repeats=${1:-3}
models=${2:-decision_tree,random_forest,adaboost,xgboost,ridge}
shift 2 || shift $# || true
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out"
mkdir -p "$out"
report="$out/seed-spread-$repeats.json"

"$gpumem" compare "$data" --target "Max GPU Memory (MiB)" \
  --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A" --sequence-column Activations-Params \
  --folds 5 --repeats "$repeats" --seed 42 --threads 1 --jobs 2 --models "$models" "$@" --report "$report" \
  > "$out/seed-spread-$repeats.txt"

/usr/bin/python3 "$root/bench/compare_summary.py" "$report"
