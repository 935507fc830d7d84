#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs a build to a temporary prefix and checks that the installed programs
# find what they need there (presets, GPU profiles, architectures, built-in datasets), and that the desktop
# entry and AppStream metadata validate where the validators are installed.
#   check-install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

cmake --install "$build" --prefix "$prefix" >/dev/null
# From the installed bin folder, --preset must resolve to the installed presets,
# not the source tree's: hide the source tree by running with a preset only the
# install has.
cp "$prefix/share/gpumem-workbench/presets/fast.json" "$prefix/share/gpumem-workbench/presets/installed-only.json"
"$prefix/bin/gpumem" describe-model --preset installed-only --json >/dev/null
[[ -f "$prefix/share/gpumem-workbench/datasets/README.md" ]]
# GPU profiles are found the same way: estimate's help lists a profile only the install has.
for profile in "$source"/resources/gpus/*.json; do
  [[ -f "$prefix/share/gpumem-workbench/gpus/$(basename "$profile")" ]]
done
cp "$prefix/share/gpumem-workbench/gpus/t4.json" "$prefix/share/gpumem-workbench/gpus/installed-only-gpu.json"
"$prefix/bin/gpumem" estimate --help | grep -q installed-only-gpu
# The shipped language-model architectures are installed beside them.
for architecture in "$source"/resources/architectures/*.json; do
  [[ -f "$prefix/share/gpumem-workbench/architectures/$(basename "$architecture")" ]]
done
grep -q "^License: GPL-3.0-or-later" "$prefix/share/doc/gpumem-workbench/copyright"
for csv in "$source"/datasets/*.csv "$source"/datasets/*.csv.gz; do
  [[ -e $csv ]] || continue
  [[ -f "$prefix/share/gpumem-workbench/datasets/$(basename "$csv")" ]]
  # Each built-in dataset travels with its column notes (docs/data-format.md).
  name=$(basename "${csv%.gz}")
  [[ -f "$prefix/share/gpumem-workbench/datasets/${name%.csv}.columns.json" ]]
done

if [[ -x "$prefix/bin/gpumem-workbench" ]]; then
  [[ -f "$prefix/share/applications/org.gpumem.Workbench.desktop" ]]
  [[ -f "$prefix/share/metainfo/org.gpumem.Workbench.metainfo.xml" ]]
  [[ -f "$prefix/share/icons/hicolor/scalable/apps/gpumem-workbench.svg" ]]
  # --version and --help answer without a display (no platform plugin is loaded for them).
  env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$prefix/bin/gpumem-workbench" --version | grep -q "gpumem-workbench"
  env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$prefix/bin/gpumem-workbench" --help | grep -q -- "--screenshot-dir"
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$prefix/share/applications/org.gpumem.Workbench.desktop"
  fi
  if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$prefix/share/metainfo/org.gpumem.Workbench.metainfo.xml" >/dev/null
  fi
fi
echo "install layout OK"
