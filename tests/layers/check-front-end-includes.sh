#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks the layers' rule for the two front-ends: core/cli and ui/ include core's
# workflows freely, and any other core header only when
# tests/layers/front-end-core-headers.txt lists it as a configuration, a result, a
# use case outside core/workflows, or part of the long-operation contract (progress,
# cancel, errors, how files are written). Also: ui/ never
# includes core/cli, and core never includes Qt. A listed header no front-end
# includes any more is reported too, so the list stays the truth.
# Usage: check-front-end-includes.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: check-front-end-includes.sh SOURCE_DIR}"
list=tests/layers/front-end-core-headers.txt
core_folders=$(find core -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | grep -vx cli | paste -sd'|')
failures=0

fail() {
    echo "$1"
    failures=$((failures + 1))
}

# Every "folder/Header.h" a front-end file includes from core (workflows aside), as "file header".
front_end_includes() {
    grep -rHoE "^#include \"($core_folders)/[^\"]+\"" core/cli ui --include='*.h' --include='*.cpp' |
        sed -E 's/:#include "([^"]+)"/ \1/' | grep -v ' workflows/' || true
}

allowed=$(grep -vE '^(#|$)' "$list" | awk '{print $1}')
while read -r header kind _; do
    case "$kind" in
    configuration | result | workflow | contract) ;;
    *) fail "$list: $header: kind must be configuration, result, workflow or contract, not '$kind'" ;;
    esac
done < <(grep -vE '^(#|$)' "$list")

includes=$(front_end_includes)
while read -r file header; do
    [ -n "$file" ] || continue
    grep -qxF "$header" <<<"$allowed" || fail "$file includes $header: a front-end takes core's configurations, results and workflows only (or list it in $list with its kind)"
done <<<"$includes"

for header in $allowed; do
    [ -f "core/$header" ] || fail "$list: $header does not exist"
    grep -qE " $header\$" <<<"$includes" || fail "$list: $header is no longer included by a front-end: remove it"
done

if grep -rlE '^#include "cli/' ui --include='*.h' --include='*.cpp'; then
    fail "ui/ includes core/cli (above): the workbench calls workflows, never the command line"
fi
if grep -rlE '^#include <Q[A-Za-z]*>' core --include='*.h' --include='*.cpp'; then
    fail "core includes Qt (above): core is Qt-free"
fi

[ "$failures" -eq 0 ] || { echo "$failures problem(s)"; exit 1; }
echo "front-end includes: $(wc -l <<<"$includes") core includes beside workflows, all listed"
