#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One GPU's memory under each way of spreading a job over several, and the fewest GPUs
# that hold it: `gpumem estimate --config … --gpus N --sharding S [--tensor-parallel T]`
# for Llama 3.1 8B on 8 GPUs (the breakdown per scheme), and `--min-gpus` for a 70B full
# fine-tune under each scheme, timed (the target: at most 60 s on this machine).
#   bench/sharding.sh   (needs a Release build in build/release or GPUMEM=path/to/gpumem)
set -euo pipefail
source "$(dirname "$0")/common.sh"
find_gpumem
make_work_folder

job8b="--config llama-3.1-8b --seq-len 2048 --batch-size 1 --dtype bfloat16 --optimizer adamw --gpu h100-80"
echo "Llama 3.1 8B, 2,048 tokens, batch 1 per GPU, bfloat16, AdamW, H100-80: one GPU's MiB"
printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' GPUs scheme TP parameters gradients optimizer gathered "comm buffers" "device total"
printf '|---|---|---|---|---|---|---|---|---|\n'
for spread in "1 none 1" "8 ddp 1" "8 zero1 1" "8 zero2 1" "8 zero3 1" "8 fsdp 1" "8 none 8" "8 fsdp 2"; do
  read -r gpus scheme tp <<<"$spread"
  # shellcheck disable=SC2086 # the arguments are split on purpose
  "$gpumem" estimate $job8b --gpus "$gpus" --sharding "$scheme" --tensor-parallel "$tp" --json > "$work/e.json"
  /usr/bin/python3 - "$work/e.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); e = d["estimates"][0]; b = e["breakdown"]
print(f"| {d['gpus']} | {d['sharding']} | {d['tensor_parallel']} | {b['parameters_mib']:.0f} | {b['gradients_mib']:.0f} | "
      f"{b['optimizer_state_mib']:.0f} | {b['gathered_parameters_mib']:.0f} | {b['communication_buffers_mib']:.0f} | "
      f"{e['device_total_mib']:.0f} |")
PY
done
echo
job70b="--config llama-3.1-70b --seq-len 4096 --batch-size 1 --dtype bfloat16 --optimizer adamw --gradient-checkpointing --gpu h100-80"
echo "Llama 3.1 70B full fine-tune, 4,096 tokens, batch 1 per GPU, checkpointing, H100-80: --min-gpus"
printf '| %s | %s | %s | %s |\n' scheme TP min_gpus wall_s
printf '|---|---|---|---|\n'
for spread in "ddp 1" "zero1 1" "zero2 1" "zero3 1" "fsdp 1" "fsdp 8"; do
  read -r scheme tp <<<"$spread"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$gpumem" estimate $job70b --sharding "$scheme" --tensor-parallel "$tp" --gpus "$tp" --min-gpus --json > "$work/e.json"
  end=$(date +%s.%N)
  /usr/bin/python3 - "$work/e.json" "$scheme" "$tp" "$start" "$end" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | {sys.argv[3]} | {d['min_gpus'] or 'none'} | {float(sys.argv[5]) - float(sys.argv[4]):.1f} |")
PY
done
