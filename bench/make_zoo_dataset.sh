#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes datasets/zoo.csv.gz: real torchvision architectures × input sizes × batch sizes ×
# optimizers, each row with the model's layer sequence in the GPUMemNet format and the GPU
# memory that `gpumem estimate` simulates for one GPU profile (simulated, not measured).
#   bench/make_zoo_dataset.sh [OUT.csv[.gz]]   (default datasets/zoo.csv.gz, gzip-compressed)
# Environment: GPUMEM (default build/release/app/gpumem), GPU (profile, default a100-80),
# MODELS (space-separated torchvision names, default the list below), RESOLUTIONS (default
# "native 128 160 192": each model's own input, then square images of those sides),
# OPTIMIZERS (default "sgd sgd_momentum adam"), JOBS (estimates run side by side, default 1).
# Needs Debian's python3-torchvision. The .pt files go to a temporary folder and are removed.
# One `gpumem estimate` call per model, input and optimizer covers every batch size: the trace
# is extrapolated in the batch, so the large batches cost no CPU run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/datasets/zoo.csv.gz"}
gpumem=${GPUMEM:-"$root/build/release/app/gpumem"}
gpu=${GPU:-a100-80}
jobs=${JOBS:-1}
batches=8,16,32,64,128,256
models=(resnet18 resnet34 resnet50 resnet101 wide_resnet50_2 vgg11 vgg16 vgg19 alexnet
  mobilenet_v2 mobilenet_v3_small mobilenet_v3_large efficientnet_b0 efficientnet_b1 densenet121 squeezenet1_0
  squeezenet1_1 shufflenet_v2_x1_0 mnasnet1_0 regnet_y_400mf regnet_x_1_6gf convnext_tiny inception_v3 vit_b_16)
[[ -z "${MODELS:-}" ]] || read -r -a models <<< "$MODELS"
read -r -a resolutions <<< "${RESOLUTIONS:-native 128 160 192}"
read -r -a optimizers <<< "${OPTIMIZERS:-sgd sgd_momentum adam}"
[[ -x "$gpumem" ]] || { echo "build first (needs $gpumem)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One estimate: FOLDER NAME SHAPE OPTIMIZER. A model whose small traces do not align is
# traced at every batch directly; the address-space limit turns a batch the CPU cannot
# hold into a one-line refusal.
estimate() {
  local folder=$1 name=$2 shape=$3 optimizer=$4 start
  start=$(date +%s.%N)
  if ! (ulimit -v $((8 * 1024 * 1024))
        "$gpumem" estimate "$folder/$name.pt" --input-shape "$shape" --batch-size "$batches" \
          --optimizer "$optimizer" --gpu "$gpu" --json > "$folder/$name.$optimizer.json" \
          2> "$folder/$name.$optimizer.error"); then
    echo "$name $shape $optimizer left out: $(cat "$folder/$name.$optimizer.error")" >&2
    rm -f "$folder/$name.$optimizer.json"
    return 0
  fi
  awk -v name="$name" -v shape="$shape" -v optimizer="$optimizer" -v start="$start" -v end="$(date +%s.%N)" \
    'BEGIN { printf "%-20s %-11s %-12s %8.1f\n", name, shape, optimizer, end - start }' >&2
}

folders=()
printf '%-20s %-11s %-12s %8s\n' model input optimizer wall_s >&2
for resolution in "${resolutions[@]}"; do
  folder="$work/$resolution"
  folders+=("$folder")
  size=()
  [[ $resolution == native ]] || size=(--resolution "$resolution")
  mkdir -p "$folder"
  /usr/bin/python3 "$root/bench/export_torchvision.py" "$folder" "${size[@]}" "${models[@]}" > "$folder/shapes.txt"
  /usr/bin/python3 "$root/bench/zoo_dataset.py" layers "$folder" "${size[@]}" "${models[@]}"
  while read -r name shape; do
    for optimizer in "${optimizers[@]}"; do
      while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
      estimate "$folder" "$name" "$shape" "$optimizer" &
    done
  done < "$folder/shapes.txt"
done
wait
list=$(IFS=,; echo "${optimizers[*]}")
/usr/bin/python3 "$root/bench/zoo_dataset.py" assemble "$out" "$list" "${folders[@]}"
