#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Accuracy per second of the shipped presets against the reference default
# (bench/presets/reference_default.json: the default preset before feature tokens
# were grouped), on the seeded 80/20 split of bench/accuracy.sh, one thread each,
# and XGBoost (gpumem's, library defaults) on the same split.
#   bench/preset_speed.sh [DATA.csv TARGET [--ignore …] [--sequence-column …]]
# Without arguments: the GPUMemNet MLP measurements with their leak columns ignored.
# The reference trains in the background while the presets train one after another
# in the foreground. GPUMEM_PRESETS="quick default" chooses the presets;
# GPUMEM_REFERENCE=0 skips the reference.
# GPUMEM_EPOCHS=E measures the time ratio alone, in minutes instead of an hour:
# every network trains E epochs, the reference and the presets taking turns,
# GPUMEM_ROUNDS times (default 2), so that the machine's load drifts over both
# alike; the table then compares time per epoch × each preset's own epochs (an
# epoch costs the same however many there are).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpumem=${GPUMEM:-$root/build/release/app/gpumem}
if (($# == 0)); then
  set -- "$root/../shared/datasets/gpumemnet_mlp.csv" "Max GPU Memory (MiB)" \
    --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A" --sequence-column Activations-Params
fi
out="$root/bench/out/preset_speed-$(basename "$1" .csv)${GPUMEM_EPOCHS:+-per-epoch}"
mkdir -p "$out"
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
if [[ -n ${GPUMEM_EPOCHS:-} ]]; then
  for round in $(seq "${GPUMEM_ROUNDS:-2}"); do
    [[ ${GPUMEM_REFERENCE:-1} != 0 ]] &&
      train "reference-$round" --preset default --config "$root/bench/presets/reference_default.json" "${epochs[@]}"
    for preset in $presets; do
      train "$preset-$round" --preset "$preset" "${epochs[@]}"
    done
  done
else
  reference=
  if [[ ${GPUMEM_REFERENCE:-1} != 0 ]]; then
    train reference --preset default --config "$root/bench/presets/reference_default.json" &
    reference=$!
  fi
  for preset in $presets; do
    train "$preset" --preset "$preset"
  done
  train xgboost --model xgboost
  [[ -n $reference ]] && wait "$reference"
fi

/usr/bin/python3 - "$root" "$out" $presets <<'PY'
import glob, json, os, sys
root, out, presets = sys.argv[1], sys.argv[2], sys.argv[3:]
def preset_epochs(name):
    path = (os.path.join(root, "bench/presets/reference_default.json") if name == "reference"
            else os.path.join(root, "resources/presets", name + ".json"))
    return json.load(open(path))["epochs"]
runs = {}  # name -> list of summaries (one per round)
for name in ["reference", *presets, "xgboost"]:
    paths = [os.path.join(out, name + ".json")] + sorted(glob.glob(os.path.join(out, name + "-*.json")))
    runs[name] = [json.load(open(p)) for p in paths if os.path.exists(p) and os.path.getsize(p)]
runs = {name: summaries for name, summaries in runs.items() if summaries}
def per_epoch(summaries):
    return sum(s["seconds"] for s in summaries) / sum(s["epochs_run"] for s in summaries)
base = per_epoch(runs["reference"]) * preset_epochs("reference") if "reference" in runs else None
print(f"{'model':10} {'runs':>4} {'epochs run':>10} {'best':>5} {'seconds':>8} {'s/epoch':>8} {'RMSE':>8} {'R2':>8} "
      f"{'full-run time / reference':>26}")
for name, summaries in runs.items():
    last = summaries[-1]
    network = name != "xgboost"
    ratio = f"{per_epoch(summaries) * preset_epochs(name) / base:.3f}" if base and network else "-"
    print(f"{name:10} {len(summaries):4d} {last['epochs_run'] if network else 0:10d} "
          f"{last['best_epoch'] if network else 0:5d} {last['seconds']:8.1f} "
          f"{f'{per_epoch(summaries):.3f}' if network else '-':>8} {last['test_metrics']['rmse']:8.2f} "
          f"{last['test_metrics']['r2']:8.5f} {ratio:>26}")
PY
