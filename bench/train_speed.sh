#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Training throughput of gpumem's BiGRU-optimised Transformer against the same
# architecture in PyTorch Python, on the same data, batch size (64) and epochs, in
# one run, both on Debian's LibTorch 1.13. Two Python references: the DataLoader
# script (reference_bigru_transformer.py: Dataset, padding collate, packed
# sequences) and a loop that cuts batches from tensors by hand
# (reference_hand_batched.py, no DataLoader; feature tokens only). Each runs with 1
# and with 2 threads; the ratio compares each side at its best. (gpumem's threads
# are workers that split each batch; PyTorch's are kernel threads. Both train one
# network: gpumem's default of three is set to one.)
#   bench/train_speed.sh [EPOCHS]     (default 3; GPUMEM_LAYER_TOKENS=0 skips the layer-token row)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
epochs=${1:-3}
gpumem=${GPUMEM:-$root/build/release/app/gpumem}
out="$root/bench/out"
mkdir -p "$out"
[[ -f "$data" ]] || { echo "needs $data" >&2; exit 1; }

rate() { /usr/bin/python3 -c 'import json,sys; print(round(json.loads(sys.stdin.readlines()[-1])["samples_per_second"], 1))'; }

ours() { # layer_tokens feature_tokens threads
  OMP_NUM_THREADS=$3 OPENBLAS_NUM_THREADS=$3 "$gpumem" train "$data" --target "Max GPU Memory (MiB)" \
    --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A" --sequence-column Activations-Params \
    --preset default --set ensemble=1 --set epochs="$epochs" --set validation_fraction=0 --set layer_tokens="$1" \
    --set feature_tokens="$2" --set batch_size=64 --set learning_rate=0.002 --threads "$3" --json \
    --out "$out/speed-model" | rate
}

loader() { # layer_tokens threads
  local flag=()
  [[ $1 == false ]] && flag=(--no-layer-tokens)
  OMP_NUM_THREADS=$2 OPENBLAS_NUM_THREADS=$2 /usr/bin/python3 "$root/bench/reference_bigru_transformer.py" "$data" \
    --epochs "$epochs" --threads "$2" "${flag[@]}" | rate
}

by_hand() { # feature_tokens threads
  local flag=()
  [[ $1 == grouped ]] && flag=(--grouped)
  OMP_NUM_THREADS=$2 OPENBLAS_NUM_THREADS=$2 /usr/bin/python3 "$root/bench/reference_hand_batched.py" "$data" \
    --epochs "$epochs" --threads "$2" "${flag[@]}" | rate
}

row() { # label, then gpumem, DataLoader and hand-batched rates at 1 and 2 threads ("-" where not run)
  awk -v t="$1" -v a1="$2" -v a2="$3" -v b1="$4" -v b2="$5" -v c1="$6" -v c2="$7" '
    function best(x, y) { return x == "-" ? "-" : (x + 0 > y + 0 ? x : y) }
    function ratio(x, y) { return y == "-" ? "-" : sprintf("%.2f", x / y) }
    BEGIN { a = best(a1, a2); b = best(b1, b2); c = best(c1, c2);
            printf "%-26s %9s %9s %9s %9s %9s %9s %8s %8s\n", t, a1, a2, b1, b2, c1, c2, ratio(a, b), ratio(a, c) }'
}

printf '%-26s %9s %9s %9s %9s %9s %9s %8s %8s\n' tokens "gpumem 1" "gpumem 2" "loader 1" "loader 2" \
  "by hand 1" "by hand 2" "/loader" "/by hand"
if [[ ${GPUMEM_LAYER_TOKENS:-1} != 0 ]]; then
  row "feature + layer (~57)" "$(ours true per_column 1)" "$(ours true per_column 2)" \
    "$(loader true 1)" "$(loader true 2)" - -
fi
row "feature, per column (38)" "$(ours false per_column 1)" "$(ours false per_column 2)" \
  "$(loader false 1)" "$(loader false 2)" "$(by_hand per_column 1)" "$(by_hand per_column 2)"
row "feature, grouped (9)" "$(ours false grouped 1)" "$(ours false grouped 2)" - - \
  "$(by_hand grouped 1)" "$(by_hand grouped 2)"
