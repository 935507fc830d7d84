#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures loading a 1,000,000-row CSV of jobs: wall time and peak memory of
# `gpumem inspect` (which streams the file twice and keeps only typed columns),
# next to pandas.read_csv on the same file in the same run as the reference.
#   bench/csv_load.sh [ROWS]     (default 1000000; needs a Release build in build/release)
set -euo pipefail
source "$(dirname "$0")/common.sh"
rows=${1:-1000000}
find_gpumem

data=$(generated_jobs "$rows")
size_mib=$(( $(stat -c %s "$data") / 1048576 ))
echo "file: $data, $rows rows, ${size_mib} MiB"

measure() { # label, command...
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$@" > /dev/null
  read -r seconds kib < "$out/time.txt"
  printf '%-28s %8.2f s %8d MiB peak RSS\n' "$label" "$seconds" $((kib / 1024))
  echo "$seconds"  > "$out/$label.seconds"
}

measure gpumem_inspect "$gpumem" inspect "$data" --json
if /usr/bin/python3 -c "import pandas" 2>/dev/null; then
  measure pandas_read_csv /usr/bin/python3 -c "import pandas, sys; pandas.read_csv(sys.argv[1])" "$data"
  awk -v a="$(cat "$out/pandas_read_csv.seconds")" -v b="$(cat "$out/gpumem_inspect.seconds")" \
    'BEGIN { printf "pandas / gpumem time ratio: %.2f\n", a / b }'
fi
