#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What the workbench's live plots cost training: `gpumem train` against the same
# training run through the Training page (offscreen, plotting every batch), with
# the fast preset, 1 thread, on the CPU. Runs each side RUNS times, alternating,
# and reports the best throughput of each, their ratio, and the GUI's longest
# event-loop stall while training.
#   bench/gui_overhead.sh [BUILD_DIR] [EPOCHS] [RUNS]   (defaults: build/dev, 4, 3)
set -euo pipefail
source "$(dirname "$0")/common.sh"
data="$root/../shared/datasets/gpumemnet_mlp.csv"
[[ -f "$data" ]] || { echo "needs $data" >&2; exit 1; }
target="Max GPU Memory (MiB)"
sequence="Activations-Params"
ignored="Filename,Avg GPUTL,Avg GRACT,Avg SMACT,Avg SMOCC,Avg FP32A"
build=${1:-$root/build/dev}
epochs=${2:-4}
runs=${3:-3}
make_work_folder

field() { /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.stdin.readlines()[-1])[sys.argv[1]])' "$1"; }

cli_rates=() gui_rates=() stalls=() replots=()
for ((run = 1; run <= runs; ++run)); do
  line=$(OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$build/app/gpumem" train "$data" --target "$target" \
    --sequence-column "$sequence" --ignore "$ignored" --preset fast --set epochs="$epochs" --device cpu \
    --threads 1 --json --out "$work/model")
  cli_rates+=("$(field samples_per_second <<<"$line")")
  line=$(OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$build/bench/gpumem_gui_overhead" "$data" "$target" \
    "$sequence" "$ignored" "$epochs")
  gui_rates+=("$(field samples_per_second <<<"$line")")
  stalls+=("$(field max_stall_ms <<<"$line")")
  replots+=("$(field replots <<<"$line")")
  echo "run $run: gpumem train ${cli_rates[-1]} samples/s, workbench ${gui_rates[-1]} samples/s," \
    "longest stall ${stalls[-1]} ms, ${replots[-1]} redraws"
done
/usr/bin/python3 - "${cli_rates[*]}" "${gui_rates[*]}" "${stalls[*]}" <<'PY'
import sys
cli = [float(x) for x in sys.argv[1].split()]
gui = [float(x) for x in sys.argv[2].split()]
stall = [float(x) for x in sys.argv[3].split()]
print(f"best: gpumem train {max(cli):.1f} samples/s, workbench {max(gui):.1f} samples/s, "
      f"overhead {100 * (1 - max(gui) / max(cli)):.1f}%; longest stall {max(stall):.1f} ms")
PY
