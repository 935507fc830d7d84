#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures on a CUDA GPU what `gpumem estimate` and `gpumem probe --gpu` simulate on the CPU:
#   bench/cuda_reference.sh OUT_FOLDER
# 1. builds gpumem (core and the command line, no Qt, no XGBoost) against the LibTorch of
#    python3's torch, which must be a CUDA build; DEPS_PREFIX names a folder with the
#    header-only dependencies in a /usr layout (Eigen, nlohmann-json, fmt, CLI11, Boost.Math, and
#    zlib.h with libz.so where the machine has no zlib development files)
#    on a machine without those packages;
# 2. meanwhile, bench/measure_torchvision_cuda.py on the zoo's torchvision models (SGD and Adam,
#    batches 8-128, the cuDNN and attention variants, every convolution's workspaces; MEASURE_SECONDS
#    at most, default 300; MODELS, space-separated, measures only those): OUT_FOLDER/torchvision.jsonl;
# 3. then `gpumem probe --device cuda --sizes gpu --steps 2 --seed 11` for CNNs, Transformers and
#    MLPs (PROBE_COUNT jobs each, default 40, PROBE_SECONDS at most): OUT_FOLDER/probe_FAMILY.csv, the jobs that
#    `gpumem probe --sizes gpu --gpu h200 --steps 2 --seed 11` simulates on the CPU.
# Logs go to OUT_FOLDER/build.log and OUT_FOLDER/run.log. bench/README.md, "Measured on a GPU",
# compares the results with the estimates.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench/cuda_reference.sh OUT_FOLDER}
mkdir -p "$out"
out=$(cd "$out" && pwd)
count=${PROBE_COUNT:-40}
build="$root/build/cuda"
log="$out/run.log"
exec > >(tee -a "$log") 2>&1

python3 -c 'import torch; assert torch.cuda.is_available(), "no CUDA device"' || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv

dependencies=()
if [[ -n "${DEPS_PREFIX:-}" ]]; then
  prefix=$(cd "$DEPS_PREFIX" && pwd)/usr
  dependencies=(-DEigen3_DIR="$prefix/share/eigen3/cmake" -Dnlohmann_json_DIR="$prefix/share/cmake/nlohmann_json"
    -Dfmt_DIR="$prefix/lib/x86_64-linux-gnu/cmake/fmt" -DCLI11_DIR="$prefix/share/cmake/CLI11"
    -DBoost_DIR="$prefix/lib/x86_64-linux-gnu/cmake/Boost-1.74.0" -DBoost_NO_SYSTEM_PATHS=ON)
  export LD_LIBRARY_PATH="$prefix/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
(
  start=$(date +%s)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$torch_prefix" \
    -DGPUMEM_BUILD_GUI=OFF -DGPUMEM_WITH_XGBOOST=OFF -DGPUMEM_BUILD_BENCH=OFF -DBUILD_TESTING=OFF \
    "${dependencies[@]}" && cmake --build "$build" --target gpumem -- -k 0 -j"$(($(nproc) - 1))"
  echo "build exit $? after $(($(date +%s) - start)) s"
) > "$out/build.log" 2>&1 &
builder=$!

start=$(date +%s)
PYTHONUNBUFFERED=1 timeout "${MEASURE_SECONDS:-300}" python3 "$root/bench/measure_torchvision_cuda.py" "$out/torchvision.jsonl" --variants --workspaces \
  --batches 8,16,32,64,128 ${MODELS:+--models $MODELS}
echo "torchvision measurements: $(($(date +%s) - start)) s"

wait "$builder"
tail -n 3 "$out/build.log"
gpumem="$build/app/gpumem"
[[ -x "$gpumem" ]] || { echo "gpumem did not build: $out/build.log"; exit 1; }
"$gpumem" --version
for family in cnn transformer mlp; do
  start=$(date +%s)
  timeout "${PROBE_SECONDS:-60}" "$gpumem" probe --family "$family" --count "$count" --device cuda --sizes gpu --steps 2 --seed 11 \
    --out "$out/probe_$family.csv"
  echo "probe $family: exit $? after $(($(date +%s) - start)) s"
done
