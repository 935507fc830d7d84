#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Other ways of giving a model the analytic models' estimates, on bench/accuracy.sh's
# hold-out (seed 42, 80/20 of the GPUMemNet MLP measurements): writes copies of the
# file with one more column, then trains on them with the network's own input off.
#   with_allocator.csv  + "Simulated (MiB)": allocator_sim's peak before its offset,
#                        the number the network's allocator_input takes
#   with_formula.csv    + "Formula (MiB)": the formula model's calibrated estimate
#   residual.csv        + "Residual (MiB)": the measurement less allocator_sim's
#                        calibrated prediction, the target of a network that learns
#                        what the simulation misses (its RMSE is the RMSE in MiB)
# Prints each variant's mean RMSE over training seeds 1–5 (the network, default preset)
# and the random forest's and XGBoost's RMSE with the simulated column (seed 1).
#   bench/simulated_input_variants.sh [OUT_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
gpumem=${GPUMEM:-$root/build/release/app/gpumem}
out=${1:-$root/bench/out/simulated-input}
mkdir -p "$out"
utilisation="Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A"
columns=(--ignore "$utilisation" --sequence-column Activations-Params --test-fraction 0.2 --split-seed 42)

for model in allocator_sim formula; do
  "$gpumem" train "$data" --target "Max GPU Memory (MiB)" "${columns[@]}" --model "$model" --out "$out/$model" \
    > /dev/null 2>&1
  "$gpumem" predict "$out/$model" "$data" --out "$out/$model.csv"
done
/usr/bin/python3 - "$data" "$out" <<'PY'
import csv, json, sys
data, out = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(data, newline='')))
def predictions(model):
    return [float(row['prediction']) for row in csv.DictReader(open(f'{out}/{model}.csv', newline=''))]
simulated, formula = predictions('allocator_sim'), predictions('formula')
offset = json.load(open(f'{out}/allocator_sim/model.json'))['fitted']['offset_mib']
target = rows[0].index('Max GPU Memory (MiB)')
def write(name, header, values):
    with open(f'{out}/{name}', 'w', newline='') as file:
        writer = csv.writer(file)
        writer.writerow(rows[0] + [header])
        for row, value in zip(rows[1:], values):
            writer.writerow(row + [repr(value)])
write('with_allocator.csv', 'Simulated (MiB)', [value - offset for value in simulated])
write('with_formula.csv', 'Formula (MiB)', formula)
write('residual.csv', 'Residual (MiB)', [float(row[target]) - value for row, value in zip(rows[1:], simulated)])
PY

rmse() { /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.stdin.readlines()[-1])["test_metrics"]["rmse"])'; }
network() { # NAME FILE TARGET IGNORE [train arguments…]
  local name=$1 file=$2 target=$3 ignore=$4
  shift 4
  local values=()
  for seed in 1 2 3 4 5; do
    values+=("$("$gpumem" train "$out/$file" --target "$target" "${columns[@]/$utilisation/$ignore}" --seed "$seed" \
      --threads "${GPUMEM_THREADS:-2}" --preset default --set allocator_input=false "$@" --json \
      --out "$out/network-$seed" | rmse)")
  done
  /usr/bin/python3 - "$name" "${values[@]}" <<'PY'
import statistics, sys
values = [float(value) for value in sys.argv[2:]]
print(f'{sys.argv[1]:<40} seeds 1-5: {" ".join(f"{value:.2f}" for value in values)}  '
      f'mean {statistics.mean(values):.2f}  worst {max(values):.2f}')
PY
}
network "network, simulated column" with_allocator.csv "Max GPU Memory (MiB)" "$utilisation"
network "network, formula column" with_formula.csv "Max GPU Memory (MiB)" "$utilisation"
network "network, residual over allocator_sim" residual.csv "Residual (MiB)" "$utilisation,Max GPU Memory (MiB)" \
  --set log_target=false
for model in random_forest xgboost; do
  echo "$model, simulated column (seed 1): $("$gpumem" train "$out/with_allocator.csv" --target "Max GPU Memory (MiB)" \
    "${columns[@]}" --seed 1 --model "$model" --json --out "$out/$model-simulated" | rmse)"
done
