#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The learned models on the jobs people train: repeated 5-fold cross-validation
# (`gpumem compare --repeats`, each repetition with its own folds and training seed) on one
# of the simulated datasets in datasets/, target simulated_device_mib (the file's column
# notes leave the other memory columns out). Prints the table of bench/compare_summary.py.
#   bench/jobs_accuracy.sh DATA.csv[.gz] [REPEATS] [MODELS] [extra gpumem compare arguments…]
# e.g. bench/jobs_accuracy.sh datasets/gpu_cnn.csv 2 bigru_transformer,random_forest,xgboost
#      bench/jobs_accuracy.sh datasets/zoo.csv.gz 2 random_forest,xgboost --group-by model
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 1 ]] || { sed -n '3,9p' "$0" >&2; exit 1; }
data=$1
repeats=${2:-2}
models=${3:-bigru_transformer,random_forest,xgboost}
shift $(($# < 3 ? $# : 3))
gpumem=${GPUMEM:-"$root/build/release/app/gpumem"}
out="$root/bench/out"
mkdir -p "$out"
name=$(basename "$data")
name=${name%%.*}
report="$out/jobs-accuracy-$name-$repeats.json"

"$gpumem" compare "$data" --target simulated_device_mib --folds 5 --repeats "$repeats" --seed 42 \
  --threads "${GPUMEM_THREADS:-1}" --jobs "${GPUMEM_JOBS:-2}" --models "$models" "$@" --report "$report" \
  > "$out/jobs-accuracy-$name-$repeats.txt"
/usr/bin/python3 "$root/bench/compare_summary.py" "$report"
