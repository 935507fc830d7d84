#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the dependencies when missing, builds the Release configuration in
# build/release (the same one tests/run-all.sh uses) and starts the workbench.
# Arguments are passed on to gpumem-workbench.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
"$root/packaging/install-deps.sh"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUMEM_WARNINGS_AS_ERRORS=ON
# Only the two programs: the tests and benchmarks build in tests/run-all.sh.
cmake --build build/release -j"$(nproc)" --target gpumem-workbench gpumem
exec build/release/app/gpumem-workbench "$@"
