#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Saves screenshots of every workbench page into docs/screenshots/: starts the
# app under Xvfb with --screenshot-dir, which loads a dataset, shows the model,
# trains with the quick preset, compares the models on 3 folds, predicts, and
# estimates torchvision's resnet18 on the Your model page (exported with
# Debian's python3-torchvision; the page is left out without it).
# Uses the first built-in dataset (datasets/*.csv), else the test fixture; a
# throw-away settings folder keeps the user's settings out of the pictures.
#   packaging/screenshots.sh [BUILD_DIR] [DATA.csv]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/dev}
data=${2:-}
if [[ -z $data ]]; then
  data=$(find "$root/datasets" -maxdepth 1 -name '*.csv' | sort | head -n 1)
fi
[[ -n $data ]] || data="$root/tests/data/jobs_training.csv"
out="$root/docs/screenshots"
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
mkdir -p "$out"
model_options=()
if /usr/bin/python3 - "$settings/resnet18.pt" <<'EOF' 2>/dev/null; then
import sys
import torch
import torchvision
model = torchvision.models.resnet18()
torch.jit.trace(model.train(), torch.randn(2, 3, 224, 224)).save(sys.argv[1])
EOF
  model_options=(--screenshot-model "$settings/resnet18.pt" --screenshot-input-shape 3,224,224)
else
  echo "python3-torchvision is missing: the Your model page is left out"
fi
echo "screenshots of $data into $out"
XDG_CONFIG_HOME="$settings" GPUMEM_DATASET_DIR="$(dirname "$data")" \
  xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/gpumem-workbench" --screenshot-dir "$out" \
  "${model_options[@]}" "$data"
ls -1 "$out"
