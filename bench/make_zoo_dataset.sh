#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes datasets/zoo.csv: real torchvision architectures × batch sizes × optimizers,
# each row with the model's layer sequence in the GPUMemNet format and the GPU memory
# that `gpumem estimate` simulates for one GPU profile (simulated, not measured).
#   bench/make_zoo_dataset.sh [OUT.csv]   (default datasets/zoo.csv)
# Environment: GPUMEM (default build/release/app/gpumem), GPU (profile, default a100-80),
# MODELS (space-separated torchvision names, default the list below). Needs Debian's
# python3-torchvision. The .pt files go to a temporary folder and are removed afterwards.
# One `gpumem estimate` call per model and optimizer covers every batch size: the trace
# is extrapolated in the batch, so the large batches cost no CPU run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/datasets/zoo.csv"}
gpumem=${GPUMEM:-"$root/build/release/app/gpumem"}
gpu=${GPU:-a100-80}
batches=8,16,32,64,128,256
models=(resnet18 resnet34 resnet50 resnet101 wide_resnet50_2 vgg11 vgg16 vgg19 alexnet
  mobilenet_v2 mobilenet_v3_small mobilenet_v3_large efficientnet_b0 efficientnet_b1 densenet121 squeezenet1_0
  squeezenet1_1 shufflenet_v2_x1_0 mnasnet1_0 regnet_y_400mf regnet_x_1_6gf convnext_tiny inception_v3 vit_b_16)
[[ -z "${MODELS:-}" ]] || read -r -a models <<< "$MODELS"
[[ -x "$gpumem" ]] || { echo "build first (needs $gpumem)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 "$root/bench/export_torchvision.py" "$work" "${models[@]}" > "$work/shapes.txt"
/usr/bin/python3 "$root/bench/zoo_dataset.py" layers "$work" "${models[@]}"
printf '%-20s %-5s %8s\n' model opt wall_s >&2
while read -r name shape; do
  for optimizer in sgd adam; do
    start=$(date +%s.%N)
    # A model whose small traces do not align is traced at every batch directly; the
    # address-space limit turns a batch the CPU cannot hold into a one-line refusal.
    if ! (ulimit -v $((8 * 1024 * 1024))
          "$gpumem" estimate "$work/$name.pt" --input-shape "$shape" --batch-size "$batches" \
            --optimizer "$optimizer" --gpu "$gpu" --json > "$work/$name.$optimizer.json" 2> "$work/error.txt"); then
      echo "$name $optimizer left out: $(cat "$work/error.txt")" >&2
      rm -f "$work/$name.$optimizer.json"
      continue
    fi
    awk -v name="$name" -v optimizer="$optimizer" -v start="$start" -v end="$(date +%s.%N)" \
      'BEGIN { printf "%-20s %-5s %8.1f\n", name, optimizer, end - start }' >&2
  done
done < "$work/shapes.txt"
/usr/bin/python3 "$root/bench/zoo_dataset.py" assemble "$work" "$out"
