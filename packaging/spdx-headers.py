#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks (or, with --add, writes) the licence line at the top of every source file git tracks.

The workbench links QCustomPlot (GPL-3.0), so every file of ours carries
"SPDX-License-Identifier: GPL-3.0-or-later" within its first three lines, in the
file's own comment syntax. Usage: spdx-headers.py [--add] [REPOSITORY]; exits 1
listing the files without the line (in check mode).
"""
import os
import subprocess
import sys

TAG = "SPDX-License-Identifier: GPL-3.0-or-later"
HASH_COMMENTED = (".py", ".sh", ".cmake", ".sbatch", ".txt.in")


def comment_prefix(path):
    name = os.path.basename(path)
    if path.endswith((".cpp", ".h", ".h.in")):
        return "// "
    if path.endswith(HASH_COMMENTED) or name == "CMakeLists.txt":
        return "# "
    return None


def has_tag(text):
    return TAG in "\n".join(text.split("\n")[:3])


def with_tag(text, prefix):
    line = prefix + TAG + "\n"
    if text.startswith("#!"):
        first, _, rest = text.partition("\n")
        return first + "\n" + line + rest
    return line + text


def main(arguments):
    add = "--add" in arguments
    folders = [a for a in arguments if a != "--add"]
    root = folders[0] if folders else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True, text=True).stdout.split("\n")
    missing = []
    for relative in files:
        prefix = comment_prefix(relative)
        path = os.path.join(root, relative)
        # Fuzzing seeds and test fixtures are data, not source.
        if not prefix or relative.startswith(("tests/fuzz/corpus/", "tests/data/")) or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as file:
            text = file.read()
        if has_tag(text):
            continue
        if add:
            with open(path, "w", encoding="utf-8") as file:
                file.write(with_tag(text, prefix))
        missing.append(relative)
    if add:
        print(f"added the licence line to {len(missing)} files")
        return 0
    for relative in missing:
        print(f"{relative}: no '{TAG}' in the first three lines", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
