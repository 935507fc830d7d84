#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds and runs the whole test suite, as CI does:
#   1. the Release build and every test (core and ui, offscreen),
#   2. core and the command line again under AddressSanitizer + UndefinedBehaviorSanitizer,
#   3. the libFuzzer harnesses of the CSV table loader, the layer-sequence parser, the JSON reader,
#      the model-folder readers, the booster.json check, the GPU-profile reader, the sweep-file reader
#      and the core readers of a workbench project's members (comparison, runs, hyperparameters).
# Dependencies are installed first when missing. Build folders: build/release,
# build/sanitize, build/fuzz. Environment knobs: GPUMEM_FUZZ_SECONDS (per
# harness, default 30; they run side by side), GPUMEM_SKIP_SANITIZE=1, GPUMEM_SKIP_FUZZ=1,
# GPUMEM_SKIP_SLURM=1 (Slurm and munge are not installed: the test on a real Slurm skips
# unless they already are).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
"$root/packaging/install-deps.sh"

jobs=$(nproc)
fuzz_seconds=${GPUMEM_FUZZ_SECONDS:-30}
# One BLAS/OpenMP thread per test process: ctest already runs one test per core.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
export QT_QPA_PLATFORM=offscreen

# Compiler flags of the instrumented builds (sanitizers, fuzzers).
instrumented_flags="-O1 -g1 -DNDEBUG"

step() { printf '\n==== %s ====\n' "$*"; }

step "Formatting (.clang-format)"
git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror

step "Licence line (SPDX) in every source file"
/usr/bin/python3 packaging/spdx-headers.py

step "Release build and tests"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUMEM_WARNINGS_AS_ERRORS=ON
cmake --build build/release -j"$jobs"
# Slurm and munge for packaging_slurm_cluster, which starts a single-node Slurm; root only,
# and a failed install only makes that test skip.
if [[ $(id -u) -eq 0 && "${GPUMEM_SKIP_SLURM:-0}" != 1 ]]; then
  started=$SECONDS
  if "$root/packaging/install-deps.sh" --slurm; then
    echo "Slurm and munge ready in $((SECONDS - started)) s"
  else
    echo "Slurm and munge could not be installed: packaging_slurm_cluster will skip"
  fi
fi
ctest --test-dir build/release --output-on-failure -j"$jobs"
# ctest shows no output of a test that passed or skipped: the real-Slurm test's time, or why it skipped.
grep -h "on a real Slurm: " build/release/Testing/Temporary/LastTest.log 2>/dev/null || true

if [[ "${GPUMEM_SKIP_SANITIZE:-0}" != 1 ]]; then
  step "AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
  # The benchmark programs build and run in the Release build; here they would only add minutes.
  # -O1 with line tables only: the sanitizers' advice, and a build about twice as fast as
  # -O2 -g (the instrumented templates of LibTorch and CLI11 dominate); reports keep file:line.
  cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUMEM_BUILD_GUI=OFF \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$instrumented_flags" \
    -DGPUMEM_BUILD_BENCH=OFF -DGPUMEM_SANITIZE=address,undefined -DGPUMEM_WARNINGS_AS_ERRORS=ON
  cmake --build build/sanitize -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/sanitize --output-on-failure -j"$jobs"
fi

if [[ "${GPUMEM_SKIP_FUZZ:-0}" != 1 ]]; then
  step "libFuzzer: CSV table, layer sequences, JSON, model folders, XGBoost boosters, GPU profiles, sweep files, projects and language-model configs, ${fuzz_seconds} s each"
  CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$instrumented_flags" \
    -DGPUMEM_BUILD_FUZZERS=ON -DGPUMEM_WITH_TORCH=OFF -DGPUMEM_WITH_XGBOOST=OFF -DGPUMEM_BUILD_GUI=OFF \
    -DBUILD_TESTING=OFF -DGPUMEM_SANITIZE=address,undefined,fuzzer-no-link
  cmake --build build/fuzz -j"$jobs"
  harnesses=(csv_table layer_sequence json model_folder booster gpu_profile sweep_record project architecture_config)
  pids=()
  for harness in "${harnesses[@]}"; do
    # New inputs go to a scratch corpus; the committed seeds stay read-only.
    scratch="build/fuzz/corpus-$harness"
    artifacts="build/fuzz/crashes-$harness/"
    mkdir -p "$scratch" "$artifacts"
    "build/fuzz/tests/fuzz/fuzz_$harness" -max_total_time="$fuzz_seconds" -max_len=8192 -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts" \
      "$scratch" "tests/fuzz/corpus/$harness" > "build/fuzz/fuzz_$harness.log" 2>&1 &
    pids+=($!)
  done
  status=0
  for index in "${!pids[@]}"; do
    harness=${harnesses[$index]}
    if wait "${pids[$index]}"; then
      grep -E "stat::number_of_executed_units|Done" "build/fuzz/fuzz_$harness.log" | tail -2
    else
      status=1
      echo "fuzz_$harness found a failure (inputs in build/fuzz/crashes-$harness/); turn each into a regression test:"
      tail -40 "build/fuzz/fuzz_$harness.log"
    fi
  done
  [[ $status == 0 ]]
fi

step "All tests passed"
