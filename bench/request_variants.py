#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Rewrites a request log that bench/record_cuda_allocations.py recorded on a GPU, to measure
through build/release/bench/gpumem_replay_allocations what one kind of request does to the
caching allocator's reserved peak (bench/README.md, "Convolution workspaces, forward and the
backward pair"):

    /usr/bin/python3 bench/request_variants.py merge-pairs IN.txt OUT.txt
        each backward convolution's two workspaces (the input gradient's, then, after the
        filter gradient's own allocation, the filter gradient's, a little larger) become one
        block of the first one's size
    /usr/bin/python3 bench/request_variants.py drop LINES IN.txt OUT.txt
        leaves out the workspaces (blocks allocated and at once freed) that start on the
        given lines of IN.txt, e.g. 30-54,339-363 (numbered from 1, as `sed -n` counts)

A workspace is a block of at least 1 MiB whose release is the next request.
"""
import sys

MIB = 1 << 20


def workspace_at(lines, index):
    """The bytes of the workspace that starts at lines[index], or None."""
    if index < 0 or index + 1 >= len(lines):
        return None
    fields = lines[index].split(",")
    if fields[0] != "alloc" or lines[index + 1] != "free," + fields[1] or int(fields[2]) < MIB:
        return None
    return int(fields[2])


def merge_pairs(lines):
    """Drops the second workspace of each backward pair: the filter gradient's, which follows
    the input gradient's with one allocation (the filter gradient) between them and is at most
    a tenth larger."""
    dropped = set()
    index = 0
    while index < len(lines):
        first = workspace_at(lines, index)
        second = workspace_at(lines, index + 3) if first else None
        if first and second and lines[index + 2].startswith("alloc,") and first <= second <= 1.1 * first:
            dropped.update({index + 3, index + 4})
            index += 5
        else:
            index += 1
    return [line for at, line in enumerate(lines) if at not in dropped], len(dropped) // 2


def drop(lines, ranges):
    """Drops the workspaces that start within the 1-based line ranges."""
    dropped = set()
    for first, last in ranges:
        for index in range(first - 1, last):
            if workspace_at(lines, index):
                dropped.update({index, index + 1})
    return [line for at, line in enumerate(lines) if at not in dropped], len(dropped) // 2


def main():
    arguments = sys.argv[1:]
    if len(arguments) == 3 and arguments[0] == "merge-pairs":
        source, target = arguments[1:]
        lines = open(source).read().splitlines()
        kept, count = merge_pairs(lines)
        what = "backward pairs merged"
    elif len(arguments) == 4 and arguments[0] == "drop":
        ranges = [tuple(int(bound) for bound in item.split("-")) for item in arguments[1].split(",")]
        source, target = arguments[2:]
        lines = open(source).read().splitlines()
        kept, count = drop(lines, ranges)
        what = "workspaces dropped"
    else:
        sys.exit(__doc__)
    with open(target, "w") as out:
        out.write("\n".join(kept) + "\n")
    print(f"{source}: {count} {what}", file=sys.stderr)


if __name__ == "__main__":
    main()
