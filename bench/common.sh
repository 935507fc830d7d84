# SPDX-License-Identifier: GPL-3.0-or-later
# The prologue the benchmark scripts share, sourced right after `set -euo pipefail`:
#   source "$(dirname "$0")/common.sh"
# It sets root (the project folder) and out (bench/out, created), and offers the steps
# several scripts take, so each script says only what it measures.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/bench/out"
mkdir -p "$out"

# Sets gpumem to $GPUMEM or the Release build's command line, and stops when there is none:
# every measurement would fail later with a less helpful message.
find_gpumem() {
  gpumem=${GPUMEM:-"$root/build/release/app/gpumem"}
  [[ -x "$gpumem" ]] || { echo "build first (needs $gpumem)" >&2; exit 1; }
}

# Sets work to a new temporary folder that is removed when the script exits, however it exits.
make_work_folder() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

# Prints the path of a generated jobs file of ROWS rows in bench/out, generating it the first
# time (bench/generate_jobs_csv.py), so that runs at the same size reuse one file.
generated_jobs() {
  local data="$out/jobs_$1.csv"
  [[ -f "$data" ]] || /usr/bin/python3 "$root/bench/generate_jobs_csv.py" "$1" "$data" >&2
  echo "$data"
}
