#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Whether the workbench keeps answering around a large load: generates a jobs file
# of ROWS rows (bench/generate_jobs_csv.py), opens it in the main window offscreen
# RUNS times, and reports each run's load time, how long the window took to finish
# what the new data sets off, and the longest stall of the GUI thread (goal: 100 ms).
#   bench/load_stall.sh [BUILD_DIR] [ROWS] [RUNS]   (defaults: build/release, 150000, 3)
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=${1:-$root/build/release}
data=$(generated_jobs "${2:-150000}")
runs=${3:-3}
for ((run = 1; run <= runs; ++run)); do
  QT_QPA_PLATFORM=offscreen "$build/bench/gpumem_load_stall" "$data" 2>/dev/null
done
