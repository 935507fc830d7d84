#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what GPU Memory Workbench needs to build, test and run on Debian 12
# or Ubuntu, from the distribution's packages only. Idempotent: when every
# package is present it returns at once without touching apt.
#   packaging/install-deps.sh            build, run and test
#   packaging/install-deps.sh --bench    also the Python references for bench/
#   packaging/install-deps.sh --slurm    also Slurm and munge, for the single-node
#                                        check of packaging/slurm/ (about 10 s)
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git clang-format
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-qpa-plugins libqcustomplot-dev
  libtorch-dev libeigen3-dev libopenblas0-pthread nlohmann-json3-dev libfmt-dev libboost-math-dev
  libcli11-dev zlib1g-dev
  # Debian's xgboost CMake config refuses to load without the CLI package.
  libxgboost-dev xgboost
  # Sanitizer and libFuzzer runtimes for the test suite.
  clang libclang-rt-dev
  # Offscreen and virtual-display runs of the workbench (tests, screenshots).
  xvfb xauth
  # The PDF report's page checks render and read its pages (tests/ui/test_ReportWriter).
  poppler-utils
  # The package: dependency scanning, desktop entry and AppStream validation.
  dpkg-dev desktop-file-utils appstream
)
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(python3-torch python3-torchvision python3-sklearn python3-xgboost python3-pandas time)
fi

# Slurm without the plugins it recommends (MPI, cgroups, databases): the check
# uses none of them, and they would triple the download.
slurm_packages=()
if [[ " $* " == *" --slurm "* ]]; then
  slurm_packages=(slurm-wlm munge)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
missing_slurm=()
for package in "${slurm_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing_slurm+=("$package")
done
if [[ ${#missing[@]} -eq 0 && ${#missing_slurm[@]} -eq 0 ]]; then
  exit 0
fi

echo "Installing: ${missing[*]} ${missing_slurm[*]}"
run_as_root=()
[[ $(id -u) -eq 0 ]] || run_as_root=(sudo)
"${run_as_root[@]}" apt-get update -q
if [[ ${#missing[@]} -gt 0 ]]; then
  DEBIAN_FRONTEND=noninteractive "${run_as_root[@]}" apt-get install -y -q "${missing[@]}"
fi
if [[ ${#missing_slurm[@]} -gt 0 ]]; then
  DEBIAN_FRONTEND=noninteractive "${run_as_root[@]}" apt-get install -y -q --no-install-recommends "${missing_slurm[@]}"
fi
