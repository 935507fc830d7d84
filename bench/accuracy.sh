#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Accuracy of the BiGRU-optimised Transformer on the GPUMemNet MLP measurements
# (target Max GPU Memory (MiB), sequence column Activations-Params, the five
# utilisation columns measured during the run ignored), on a seeded 80/20 hold-out,
# next to XGBoost (library defaults) on exactly the same split and the same
# flat features, then the ablations. Each training takes minutes on 2 cores;
# GPUMEM_ARCHITECTURES="bigru_transformer bigru_only" runs a subset.
#   bench/accuracy.sh [PRESET] [extra --set assignments…]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
preset=${1:-default}
shift || true
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out"
mkdir -p "$out"
common=(--target "Max GPU Memory (MiB)" --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A"
        --sequence-column Activations-Params --test-fraction 0.2 --seed 42 --threads 1)
sets=()
for assignment in "$@"; do sets+=(--set "$assignment"); done

for architecture in ${GPUMEM_ARCHITECTURES:-bigru_transformer transformer_bigru transformer_only bigru_only}; do
  "$gpumem" train "$data" "${common[@]}" --preset "$preset" "${sets[@]}" --set architecture=$architecture \
    --json --out "$out/accuracy-$architecture" --predictions "$out/accuracy-$architecture.csv" |
    /usr/bin/python3 "$root/bench/summarize_training.py" "$architecture"
done

# XGBoost on the very rows gpumem held out (the split column of the predictions file).
[[ -f "$out/accuracy-bigru_transformer.csv" ]] && /usr/bin/python3 "$root/bench/xgboost_same_split.py" "$data" "$out/accuracy-bigru_transformer.csv"

