#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Calibrated upper bounds on the GPUMemNet MLP measurements: every model trains
# with --coverage 0.95 on the seeded 80/20 split that bench/accuracy.sh uses (20%
# of the training rows set aside to calibrate, the utilisation columns measured
# during the run ignored); predict then serves 0.90, 0.95 and 0.99 from the stored
# scores, and calibration_summary.py scores each level on the test rows next to
# the relative and absolute scores and the fixed-headroom rules. The network's
# default preset trains for many minutes on 2 cores; GPUMEM_CALIBRATION_MODELS="xgboost ridge"
# runs a subset (an empty list skips that part); GPUMEM_CALIBRATION_SCORE_MODELS likewise
# for the comparison of scores over seeds, and GPUMEM_CALIBRATION_SPREAD_SEEDS=0 skips
# the ensemble's spread score.
#   bench/calibration.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out"
mkdir -p "$out"
common=(--target "Max GPU Memory (MiB)" --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A"
        --sequence-column Activations-Params --test-fraction 0.2 --seed 42 --threads 1 --coverage 0.95)
models=${GPUMEM_CALIBRATION_MODELS-bigru_transformer decision_tree random_forest adaboost xgboost ridge formula allocator_sim}

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

# The choice of score: four cheap models with each score on GPUMEM_CALIBRATION_SEEDS
# seeded 80/20 splits (default 6; the split, the calibration rows and the fit all
# follow --seed), predict at the three levels, means over the seeds.
seeds=${GPUMEM_CALIBRATION_SEEDS:-6}
score_models=${GPUMEM_CALIBRATION_SCORE_MODELS-xgboost random_forest ridge adaboost}
rows="$out/calibration-scores.tsv"
: > "$rows"
for model in $score_models; do
  for score in absolute relative difficulty; do
    for seed in $(seq 1 "$seeds"); do
      name="$out/scores-$model-$score-$seed"
      "$gpumem" train "$data" "${common[@]}" --model "$model" --calibration-score "$score" \
        --seed "$seed" --out "$name" --predictions "$name.csv" > /dev/null
      levels=()
      for coverage in 0.90 0.95 0.99; do
        "$gpumem" predict "$name" "$data" --coverage "$coverage" --out "$name-$coverage.csv"
        levels+=("$coverage=$name-$coverage.csv")
      done
      /usr/bin/python3 "$root/bench/calibration_scores.py" row "$model" "$score" "$seed" "$name.csv" "${levels[@]}" >> "$rows"
    done
  done
done
/usr/bin/python3 "$root/bench/calibration_scores.py" table "$rows"

# The ensemble's own disagreement as the score: the network with --set ensemble=3
# (quick preset) on GPUMEM_CALIBRATION_SPREAD_SEEDS seeded splits (default 3), the
# difficulty and spread scores on the same splits, calibration rows and fits.
spread_seeds=${GPUMEM_CALIBRATION_SPREAD_SEEDS:-3}
rows="$out/calibration-spread.tsv"
shapes="$out/calibration-spread-shapes.tsv"
: > "$rows"
: > "$shapes"
for score in difficulty spread; do
  for seed in $(seq 1 "$spread_seeds"); do
    name="$out/spread-$score-$seed"
    "$gpumem" train "$data" "${common[@]}" --model bigru_transformer --preset quick --set ensemble=3 \
      --calibration-score "$score" --seed "$seed" --out "$name" --predictions "$name.csv" > /dev/null
    levels=()
    for coverage in 0.90 0.95 0.99; do
      "$gpumem" predict "$name" "$data" --coverage "$coverage" --out "$name-$coverage.csv"
      levels+=("$coverage=$name-$coverage.csv")
    done
    /usr/bin/python3 "$root/bench/calibration_scores.py" row bigru_transformer "$score" "$seed" "$name.csv" "${levels[@]}" >> "$rows"
    /usr/bin/python3 "$root/bench/calibration_scores.py" shape bigru_transformer "$score" "$seed" "$name.csv" "$name-0.95.csv" >> "$shapes"
  done
done
/usr/bin/python3 "$root/bench/calibration_scores.py" table "$rows"
/usr/bin/python3 "$root/bench/calibration_scores.py" shape-table "$shapes"
