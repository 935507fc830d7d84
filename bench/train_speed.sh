#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Training throughput of gpumem's BiGRU-optimised Transformer against the same
# architecture in PyTorch Python (reference_bigru_transformer.py), on the same
# data, batch size (64) and epochs, in one run, both on Debian's LibTorch 1.13.
# Each side runs with 1 and with 2 threads; the ratio compares each at its best.
# (gpumem's threads are workers that split each batch; PyTorch's are kernel threads.)
#   bench/train_speed.sh [EPOCHS]     (default 3)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
epochs=${1:-3}
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out"
mkdir -p "$out"
[[ -f "$data" ]] || { echo "needs $data" >&2; exit 1; }

rate() { /usr/bin/python3 -c 'import json,sys; print(round(json.loads(sys.stdin.readlines()[-1])["samples_per_second"], 1))'; }

ours() { # tokens threads
  OMP_NUM_THREADS=$2 OPENBLAS_NUM_THREADS=$2 "$gpumem" train "$data" --target "Max GPU Memory (MiB)" \
    --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A" --sequence-column Activations-Params \
    --preset default --set epochs="$epochs" --set validation_fraction=0 --set layer_tokens="$1" --set batch_size=64 \
    --threads "$2" --json --out "$out/speed-model" | rate
}

theirs() { # tokens threads
  local flag=()
  [[ $1 == false ]] && flag=(--no-layer-tokens)
  OMP_NUM_THREADS=$2 OPENBLAS_NUM_THREADS=$2 /usr/bin/python3 "$root/bench/reference_bigru_transformer.py" "$data" \
    --epochs "$epochs" --threads "$2" "${flag[@]}" | rate
}

printf '%-13s %14s %14s %14s %14s %8s\n' tokens "gpumem 1 thr" "gpumem 2 thr" "PyTorch 1 thr" "PyTorch 2 thr" ratio
for tokens in true false; do
  a1=$(ours $tokens 1); a2=$(ours $tokens 2); b1=$(theirs $tokens 1); b2=$(theirs $tokens 2)
  awk -v t="$([[ $tokens == true ]] && echo feature+layer || echo feature)" -v a1="$a1" -v a2="$a2" -v b1="$b1" -v b2="$b2" \
    'BEGIN { a = a1 > a2 ? a1 : a2; b = b1 > b2 ? b1 : b2;
             printf "%-13s %14.1f %14.1f %14.1f %14.1f %8.2f\n", t, a1, a2, b1, b2, a / b }'
done
