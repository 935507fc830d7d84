#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures `gpumem probe` throughput: configurations per second for each family,
# by wall clock and by CPU time (user + system), on fresh seeded runs.
#   bench/probe_throughput.sh [COUNT]   (default 200; needs a Release build in build/release,
#                                        or GPUMEM=path/to/gpumem)
set -euo pipefail
source "$(dirname "$0")/common.sh"
count=${1:-200}
find_gpumem

printf '%-12s %6s %9s %9s %12s %12s\n' family jobs wall_s cpu_s jobs/s jobs/cpu-s
for family in mlp cnn transformer; do
  /usr/bin/time -f "%e %U %S" -o "$out/probe_time.txt" \
    "$gpumem" probe --family "$family" --count "$count" --seed 7 --out "$out/probe_$family.csv" > /dev/null 2>&1
  read -r wall user system < "$out/probe_time.txt"
  awk -v f="$family" -v n="$count" -v w="$wall" -v u="$user" -v s="$system" \
    'BEGIN { printf "%-12s %6d %9.1f %9.1f %12.1f %12.1f\n", f, n, w, u + s, n / w, n / (u + s) }'
done
