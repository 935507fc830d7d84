// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace gpumem::probe {

// One step of an allocation trace: a block of bytes handed out or given back.
// block numbers each allocation of a trace; a release names the block it frees.
struct AllocationEvent
{
    std::uint64_t block = 0;
    std::uint64_t bytes = 0; // requested bytes (the same on the release)
    bool release = false;
};

using AllocationTrace = std::vector<AllocationEvent>;

} // namespace gpumem::probe
