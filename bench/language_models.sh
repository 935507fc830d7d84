#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Times `gpumem estimate --config` on shipped language models under the recipes people
# train with: wall time and peak RSS (/usr/bin/time -v) beside the estimate itself, one
# row per command (the targets: an 8B config in at most 20 s, a 70B one in at most 60 s,
# at most 4 GiB of memory).
#   bench/language_models.sh   (needs a Release build in build/release or GPUMEM=path/to/gpumem)
set -euo pipefail
source "$(dirname "$0")/common.sh"
find_gpumem
make_work_folder

runs=(
  "--config llama-3.1-8b --seq-len 2048 --batch-size 1 --dtype bfloat16 --lora 16 --lora-targets all-linear --gradient-checkpointing --gpu rtx-4090"
  "--config llama-3.1-8b --seq-len 2048 --batch-size 1 --dtype bfloat16 --optimizer adamw --gpu h100-80"
  "--config llama-3.1-8b --mode inference --seq-len 8192 --generate 256 --batch-size 4 --dtype bfloat16 --gpu l40s"
  "--config llama-3.1-70b --seq-len 4096 --batch-size 1 --dtype bfloat16 --qlora --lora 16 --lora-targets all-linear --gradient-checkpointing --gpu h100-80"
  "--config llama-3.1-70b --seq-len 2048 --batch-size 1 --dtype bfloat16 --optimizer adamw --gpu b200"
  "--config mixtral-8x7b --seq-len 2048 --batch-size 1 --dtype bfloat16 --qlora --lora 16 --lora-targets q_proj,v_proj --gradient-checkpointing --gpu h100-80"
)
printf '| %s | %s | %s | %s | %s | %s |\n' command wall_s peak_rss_mib device_mib max_batch max_seq_len
printf '|---|---|---|---|---|---|\n'
for args in "${runs[@]}"; do
  # shellcheck disable=SC2086 # the arguments are split on purpose
  /usr/bin/time -v -o "$work/time.txt" "$gpumem" estimate $args --max-batch --max-seq-len --json > "$work/estimate.json"
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time.txt")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$work/time.txt")
  /usr/bin/python3 - "$work/estimate.json" "$args" "$wall" "$rss" <<'PY'
import json, sys
document = json.load(open(sys.argv[1]))
estimate = document["estimates"][0]
print(f"| `gpumem estimate {sys.argv[2]}` | {sys.argv[3]} | {sys.argv[4]} | {estimate['device_total_mib']:.0f} | "
      f"{document.get('max_batch')} | {document.get('max_seq_len')} |")
PY
done
