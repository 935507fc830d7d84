// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::cli {

// Which of several disjoint slices of a job list one process runs (--shard I/N).
struct Shard
{
    std::size_t index = 0; // 0-based
    std::size_t count = 1;
};

// Parses --shard "I/N" with 0 <= I < N, e.g. "2/8" as SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT
// give it. Throws io::InputError saying what is expected.
Shard parseShard(const std::string &text);

// Removes "--merge FILE…" from arguments and returns the files (every argument
// after --merge up to the next one starting with "--"); returns nothing and
// leaves arguments alone when there is no --merge. Throws io::InputError for a
// --merge without files.
std::vector<std::string> takeMergeFiles(std::vector<std::string> &arguments);

} // namespace gpumem::cli
