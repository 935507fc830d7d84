#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole paper comparison end to end, gpumem against Python, in one run on the
# same data: five models plus ridge, 5-fold cross-validation, library defaults,
# the network with the default preset at EPOCHS epochs (no validation split on
# either side; one network, as Python trains, not the preset's three). Each side
# uses both cores its best way: gpumem runs two fits at a time (--jobs 2, one
# thread each); Python runs the folds one after another as a script would, PyTorch on 1 thread (faster than 2 for this model, see
# train_speed.sh) and the forest and XGBoost on 2 (n_jobs).
# Python uses gpumem's folds (the fold column of compare --predictions) and the
# network with the default preset's feature tokens, batch size and learning rate.
#   bench/paper_comparison.sh [EPOCHS]     (default: the default preset's)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
preset() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" \
  "$root/resources/presets/default.json" "$1"; }
epochs=${1:-$(preset epochs)}
batch=$(preset batch_size)
rate=$(preset learning_rate)
grouped=()
[[ $(preset feature_tokens) == grouped ]] && grouped=(--grouped)
gpumem=${GPUMEM:-$root/build/release/app/gpumem}
out="$root/bench/out"
mkdir -p "$out"
[[ -f "$data" ]] || { echo "needs $data" >&2; exit 1; }

start=$(date +%s.%N)
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$gpumem" compare "$data" --target "Max GPU Memory (MiB)" \
  --ignore "Filename,Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A" --sequence-column Activations-Params \
  --models bigru_transformer,decision_tree,random_forest,adaboost,xgboost,ridge \
  --preset default --set epochs="$epochs" --set validation_fraction=0 --set ensemble=1 --folds 5 --seed 42 --jobs 2 \
  --report "$out/paper_comparison.json" --report "$out/paper_comparison.md" \
  --predictions "$out/paper_comparison_folds.csv" >"$out/paper_comparison.txt"
ours=$(/usr/bin/python3 -c "print($(date +%s.%N) - $start)")

start=$(date +%s.%N)
(cd "$root/bench" && /usr/bin/python3 paper_comparison.py "$data" --epochs "$epochs" --threads 2 \
  --batch-size "$batch" --learning-rate "$rate" "${grouped[@]}" --folds-from "$out/paper_comparison_folds.csv" \
  >"$out/paper_comparison_python.json")
theirs=$(/usr/bin/python3 -c "print($(date +%s.%N) - $start)")

cat "$out/paper_comparison.txt"
/usr/bin/python3 - "$out/paper_comparison.json" "$out/paper_comparison_python.json" "$ours" "$theirs" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))
theirs = json.load(open(sys.argv[2]))
print(f"{'model':18} {'gpumem RMSE':>12} {'Python RMSE':>12} {'gpumem s':>9} {'Python s':>9}")
for model in ours["models"]:
    name = model["name"]
    other = theirs["models"].get(name, {})
    print(f"{name:18} {model['metrics']['rmse']:12.2f} {other.get('rmse', float('nan')):12.2f} "
          f"{model['train_seconds'] + model['predict_seconds']:9.1f} {other.get('seconds', float('nan')):9.1f}")
total_ours, total_theirs = float(sys.argv[3]), float(sys.argv[4])
print(f"end to end: gpumem {total_ours:.1f} s, Python {total_theirs:.1f} s, ratio {total_theirs / total_ours:.2f}x")
PY
