// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// For the tests of what only a GPU allocates: finding the workspaces in a tagged trace.

#include "estimate/TaggedTrace.h"

#include <cstddef>
#include <vector>

namespace gpumem::tests {

// The allocations of trace that the very next event releases, in order: the workspaces
// that cuDNN takes and frees within one call (nothing else in an estimate's trace is
// freed as soon as it is allocated).
inline std::vector<std::size_t> transientAllocations(const estimate::TaggedTrace &trace)
{
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i + 1 < trace.events.size(); ++i)
        if (!trace.events[i].isRelease() && trace.events[i + 1].allocation == static_cast<std::int64_t>(i))
            indices.push_back(i);
    return indices;
}

} // namespace gpumem::tests
