#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How much one training depends on its seed: bench/accuracy.sh's hold-out (seed 42,
# 80/20 of the GPUMemNet MLP measurements, its columns) kept fixed with --split-seed while --seed
# varies the weights, the shuffling and the validation rows. Prints each seed's test
# RMSE, median relative error and time, then the mean and the worst seed.
# GPUMEM_DATA=FILE.csv GPUMEM_TARGET=COLUMN measure another file the same way (its
# column notes leave the other outcomes out).
#   bench/training_seeds.sh [PRESET] [SEEDS] [extra gpumem train arguments…]
# e.g. bench/training_seeds.sh quick 1,2,3,4,5 --set validation_fraction=0
#      GPUMEM_DATA=datasets/probe_cnn.csv GPUMEM_TARGET=peak_allocated_mib bench/training_seeds.sh default 1,2,3
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${GPUMEM_DATA:-$root/../shared/datasets/gpumemnet_mlp.csv}
if [[ -n "${GPUMEM_DATA:-}" ]]; then
  columns=(--target "${GPUMEM_TARGET:?GPUMEM_TARGET names the target column of GPUMEM_DATA}")
else
  columns=(--target "Max GPU Memory (MiB)" --ignore "Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A"
           --sequence-column Activations-Params)
fi
preset=${1:-default}
seeds=${2:-1,2,3,4,5}
shift 2 || shift $# || true
gpumem=${GPUMEM:-$root/build/release/app/gpumem}
# A folder of its own, so that runs side by side never share a summary file.
mkdir -p "$root/bench/out/training-seeds"
out=$(mktemp -d "$root/bench/out/training-seeds/$preset-XXXX")

summaries=()
for seed in ${seeds//,/ }; do
  summary="$out/$preset-seed$seed.json"
  "$gpumem" train "$data" "${columns[@]}" --test-fraction 0.2 --split-seed 42 --seed "$seed" --threads "${GPUMEM_THREADS:-2}" --preset "$preset" "$@" \
    --json --out "$out/model-$preset-seed$seed" | tail -n 1 > "$summary"
  summaries+=("$summary")
done

/usr/bin/python3 - "${summaries[@]}" <<'PY'
import json, statistics, sys
rows = [json.load(open(path)) for path in sys.argv[1:]]
rmse = [row["test_metrics"]["rmse"] for row in rows]
for path, row in zip(sys.argv[1:], rows):
    metrics = row["test_metrics"]
    print(f'{path.rsplit("/", 1)[-1]:<28} RMSE {metrics["rmse"]:6.2f}  median rel {metrics["median_rel_error"]:.3f}%  '
          f'{row["seconds"]:5.1f} s  best epoch {row["best_epoch"]}')
print(f'mean RMSE {statistics.mean(rmse):.2f}  worst {max(rmse):.2f}  sd {statistics.stdev(rmse) if len(rmse) > 1 else 0:.2f}  '
      f'mean time {statistics.mean(row["seconds"] for row in rows):.1f} s')
PY
