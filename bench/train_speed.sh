#!/usr/bin/env bash
# Training throughput of gpumem's BiGRU-optimised Transformer against the same
# architecture in PyTorch Python (reference_bigru_transformer.py), on the same
# data, batch size (64), epochs and thread count, in one run. Both use Debian's
# LibTorch 1.13. Prints rows/s for each and the ratio, with and without layer tokens.
#   bench/train_speed.sh [EPOCHS] [THREADS]     (defaults 3 and 1)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
epochs=${1:-3}
threads=${2:-1}
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out"
mkdir -p "$out"
[[ -f "$data" ]] || { echo "needs $data" >&2; exit 1; }
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads

rate() { /usr/bin/python3 -c 'import json,sys; print(round(json.loads(sys.stdin.readlines()[-1])["samples_per_second"], 1))'; }

for mode in layer_tokens tabular; do
  if [[ $mode == tabular ]]; then tokens=false; python_flag=--no-layer-tokens; else tokens=true; python_flag=; fi
  ours=$("$gpumem" train "$data" --target "Max GPU Memory (MiB)" \
          --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A" --sequence-column Activations-Params \
          --set epochs="$epochs" --set validation_fraction=0 --set layer_tokens=$tokens --set batch_size=64 \
          --threads "$threads" --json --out "$out/speed-model" | rate)
  theirs=$(/usr/bin/python3 "$root/bench/reference_bigru_transformer.py" "$data" --epochs "$epochs" \
          --threads "$threads" $python_flag | rate)
  awk -v mode="$mode" -v a="$ours" -v b="$theirs" \
    'BEGIN { printf "%-13s gpumem %8.1f rows/s   PyTorch %8.1f rows/s   ratio %.2f\n", mode, a, b, a / b }'
done
