#!/usr/bin/env bash
# Calibrated upper bounds on the GPUMemNet MLP measurements: every model trains
# with --coverage 0.95 on the seeded 80/20 split that bench/accuracy.sh uses (20%
# of the training rows set aside to calibrate, the utilisation columns measured
# during the run ignored); predict then serves 0.90, 0.95 and 0.99 from the stored
# scores, and calibration_summary.py scores each level on the test rows next to
# the relative and absolute scores and the fixed-headroom rules. The network's
# default preset trains for many minutes on 2 cores; GPUMEM_CALIBRATION_MODELS="xgboost ridge"
# runs a subset.
#   bench/calibration.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out"
mkdir -p "$out"
common=(--target "Max GPU Memory (MiB)" --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A"
        --sequence-column Activations-Params --test-fraction 0.2 --seed 42 --threads 1 --coverage 0.95)
models=${GPUMEM_CALIBRATION_MODELS:-bigru_transformer decision_tree random_forest adaboost xgboost ridge formula allocator_sim}

for model in $models; do
  preset=()
  [[ $model == bigru_transformer ]] && preset=(--preset default)
  "$gpumem" train "$data" "${common[@]}" --model "$model" "${preset[@]}" --json \
    --out "$out/calibration-$model" --predictions "$out/calibration-$model.csv" > "$out/calibration-$model.jsonl"
  levels=()
  for coverage in 0.90 0.95 0.99; do
    "$gpumem" predict "$out/calibration-$model" "$data" --coverage "$coverage" --out "$out/calibration-$model-$coverage.csv"
    levels+=("$coverage=$out/calibration-$model-$coverage.csv")
  done
  /usr/bin/python3 "$root/bench/calibration_summary.py" "$model" "$out/calibration-$model.csv" "${levels[@]}"
done
