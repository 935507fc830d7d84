#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Times `gpumem estimate` on torchvision architectures at one batch size: wall
# time and peak RSS (/usr/bin/time -v) beside the estimate itself.
#   bench/estimate.sh [BATCH] [MODEL ...]   (default 128 and resnet50 vgg16 mobilenet_v2
#                                            efficientnet_b0 inception_v3; needs a Release build
#                                            in build/release or GPUMEM=path/to/gpumem, and
#                                            Debian's python3-torchvision)
# The .pt files are exported to a temporary folder and removed afterwards.
set -euo pipefail
source "$(dirname "$0")/common.sh"
batch=${1:-128}
shift || true
find_gpumem
models=("$@")
make_work_folder

/usr/bin/python3 "$root/bench/export_torchvision.py" "$work" "${models[@]}" > "$work/shapes.txt"
printf '%-16s %6s %8s %12s %14s %14s %12s\n' model batch wall_s peak_rss_mib allocated_mib reserved_mib device_mib
while read -r name shape; do
  /usr/bin/time -v -o "$work/time.txt" \
    "$gpumem" estimate "$work/$name.pt" --input-shape "$shape" --batch-size "$batch" --json > "$out/estimate_$name.json"
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time.txt")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$work/time.txt")
  /usr/bin/python3 - "$out/estimate_$name.json" "$name" "$batch" "$wall" "$rss" <<'PY'
import json, sys
path, name, batch, wall, rss = sys.argv[1:]
estimate = json.load(open(path))["estimates"][0]
print("%-16s %6s %8.1f %12s %14.1f %14.1f %12.1f" % (name, batch, float(wall), rss, estimate["peak_allocated_mib"],
      estimate["peak_reserved_mib"], estimate["device_total_mib"]))
PY
done < "$work/shapes.txt"
