#!/usr/bin/env bash
# Accuracy per second of the shipped presets against the reference default
# (bench/presets/reference_default.json: the default preset before feature tokens
# were grouped), on the seeded 80/20 split of bench/accuracy.sh, one thread each.
# The reference trains in the background while the presets train one after
# another in the foreground, so both halves share the machine alike; times are
# only compared as ratios within one run. XGBoost (gpumem's, library defaults)
# is scored on the same split.
#   bench/preset_speed.sh [DATA.csv TARGET [--ignore …] [--sequence-column …]]
# Without arguments: the GPUMemNet MLP measurements with their leak columns ignored.
# GPUMEM_PRESETS="quick default" chooses the presets; GPUMEM_REFERENCE=0 skips the reference.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out/preset_speed"
mkdir -p "$out"
if (($# == 0)); then
  set -- "$root/../shared/datasets/gpumemnet_mlp.csv" "Max GPU Memory (MiB)" \
    --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A" --sequence-column Activations-Params
fi
data=$1
common=("$data" --target "$2" "${@:3}" --test-fraction 0.2 --seed 42 --threads 1)

train() { # name, then preset arguments
  local name=$1
  shift
  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$gpumem" train "${common[@]}" "$@" --json --out "$out/model-$name" \
    --predictions "$out/$name.csv" | tail -1 >"$out/$name.json"
}

reference=
if [[ ${GPUMEM_REFERENCE:-1} != 0 ]]; then
  train reference --preset default --config "$root/bench/presets/reference_default.json" &
  reference=$!
fi
for preset in ${GPUMEM_PRESETS:-quick default}; do
  train "$preset" --preset "$preset"
done
train xgboost --model xgboost
[[ -n $reference ]] && wait "$reference"

/usr/bin/python3 - "$out" ${GPUMEM_PRESETS:-quick default} <<'PY'
import json, os, sys
out, presets = sys.argv[1], sys.argv[2:]
runs = {}
for name in ["reference", *presets, "xgboost"]:
    path = os.path.join(out, name + ".json")
    if os.path.exists(path):
        runs[name] = json.load(open(path))
base = runs.get("reference", {}).get("seconds")
print(f"{'preset':10} {'epochs run':>10} {'best':>5} {'seconds':>8} {'rows/s':>8} {'RMSE':>8} {'R2':>8} {'time / reference':>17}")
for name, run in runs.items():
    ratio = f"{run['seconds'] / base:.3f}" if base else "-"
    print(f"{name:10} {run.get('epochs_run', 0):10d} {run.get('best_epoch', 0):5d} {run['seconds']:8.1f} "
          f"{run.get('samples_per_second', 0):8.0f} {run['test_metrics']['rmse']:8.2f} {run['test_metrics']['r2']:8.5f} {ratio:>17}")
PY
