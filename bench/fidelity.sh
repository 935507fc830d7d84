#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fidelity of the tabular baselines: each of ours next to scikit-learn 1.2 /
# xgboost 1.7 at their defaults, on the GPUMemNet MLP data with the features of
# the reference table in ../shared/datasets/README.md (six numeric columns plus
# the one-hot activation function), on the very same 5 folds (seed 42): our
# bench tool writes the fold of every row, the Python side reads it back.
#   bench/fidelity.sh [THREADS]   (default 1; both sides use the same count)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/../shared/datasets/gpumemnet_mlp.csv"
threads=${1:-1}
tool="${GPUMEM_BUILD_DIR:-$root/build/release}/bench/gpumem_baseline_fidelity"
out="$root/bench/out/fidelity"
mkdir -p "$out"
"$tool" "$data" "$out" "$threads"
/usr/bin/python3 "$root/bench/fidelity_reference.py" "$data" "$out" "$threads"
