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
# GPUMEM_PRESETS="quick default" chooses the presets; GPUMEM_REFERENCE=0 skips the
# reference. GPUMEM_EPOCHS=E trains every network E epochs only and compares the
# time per epoch times each preset's own epochs (a training's cost per epoch does
# not depend on how many it runs): the time ratio in minutes instead of an hour,
# without the accuracy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpumem="$root/build/release/app/gpumem"
out="$root/bench/out/preset_speed${GPUMEM_EPOCHS:+_per_epoch}"
mkdir -p "$out"
if (($# == 0)); then
  set -- "$root/../shared/datasets/gpumemnet_mlp.csv" "Max GPU Memory (MiB)" \
    --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A" --sequence-column Activations-Params
fi
common=("$1" --target "$2" "${@:3}" --test-fraction 0.2 --seed 42 --threads 1)
epochs=()
[[ -n ${GPUMEM_EPOCHS:-} ]] && epochs=(--set "epochs=$GPUMEM_EPOCHS")
presets=${GPUMEM_PRESETS:-quick default}

train() { # name, then preset arguments
  local name=$1
  shift
  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$gpumem" train "${common[@]}" "$@" --json --out "$out/model-$name" \
    --predictions "$out/$name.csv" | tail -1 >"$out/$name.json"
}

rm -f "$out"/*.json
reference=
if [[ ${GPUMEM_REFERENCE:-1} != 0 ]]; then
  # In the per-epoch mode the reference runs long enough to overlap every foreground run.
  reference_epochs=()
  [[ -n ${GPUMEM_EPOCHS:-} ]] && reference_epochs=(--set "epochs=$((GPUMEM_EPOCHS * 3))")
  train reference --preset default --config "$root/bench/presets/reference_default.json" "${reference_epochs[@]}" &
  reference=$!
fi
for preset in $presets; do
  train "$preset" --preset "$preset" "${epochs[@]}"
done
[[ -z ${GPUMEM_EPOCHS:-} ]] && train xgboost --model xgboost
[[ -n $reference ]] && wait "$reference"

/usr/bin/python3 - "$root" "$out" $presets <<'PY'
import json, os, sys
root, out, presets = sys.argv[1], sys.argv[2], sys.argv[3:]
def preset_epochs(name):
    path = (os.path.join(root, "bench/presets/reference_default.json") if name == "reference"
            else os.path.join(root, "resources/presets", name + ".json"))
    return json.load(open(path)).get("epochs") if os.path.exists(path) else None
runs = {}
for name in ["reference", *presets, "xgboost"]:
    path = os.path.join(out, name + ".json")
    if os.path.exists(path):
        runs[name] = json.load(open(path))
def full_seconds(name, run):
    if name == "xgboost" or not run.get("epochs_run"):
        return run["seconds"]
    return run["seconds"] / run["epochs_run"] * preset_epochs(name)
base = full_seconds("reference", runs["reference"]) if "reference" in runs else None
print(f"{'preset':10} {'epochs run':>10} {'best':>5} {'seconds':>8} {'s/epoch':>8} {'rows/s':>8} {'RMSE':>8} {'R2':>8} "
      f"{'full-run time / reference':>26}")
for name, run in runs.items():
    epochs = run.get("epochs_run", 0)
    per_epoch = f"{run['seconds'] / epochs:.3f}" if epochs else "-"
    ratio = f"{full_seconds(name, run) / base:.3f}" if base and name != "xgboost" else "-"
    print(f"{name:10} {epochs:10d} {run.get('best_epoch', 0):5d} {run['seconds']:8.1f} {per_epoch:>8} "
          f"{run.get('samples_per_second', 0):8.0f} {run['test_metrics']['rmse']:8.2f} {run['test_metrics']['r2']:8.5f} "
          f"{ratio:>26}")
PY
