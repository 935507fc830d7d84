// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TaggedTrace.h"

#include <cstdint>
#include <vector>

namespace gpumem::estimate {

// The caching allocator's state after one event of a replayed trace, in bytes.
struct TimelinePoint
{
    std::size_t eventIndex = 0;
    Phase phase = Phase::Setup;
    Category category = Category::Activations;
    std::uint64_t allocatedBytes = 0;
    std::uint64_t reservedBytes = 0;
    // Requested bytes, rounded up to the allocator's 512, live per category
    // after the event (what a stacked timeline by category draws).
    CategoryBytes liveBytes{};
};

// What the CUDA caching allocator would hold for a trace, in bytes.
struct ReplayResult
{
    std::uint64_t peakAllocatedBytes = 0;
    std::uint64_t peakReservedBytes = 0;
    // Requested bytes, rounded up to the allocator's 512, per category at the
    // allocated peak; they add up to peakAllocatedBytes less the remainders of
    // cached blocks too small to split off.
    CategoryBytes bytesAtPeak{};
    std::vector<TimelinePoint> timeline; // one point per event, when asked for
};

// Replays a tagged trace through probe::CachingAllocatorSimulator. Events of
// zero bytes (an extrapolation can reach them) are skipped with their releases.
ReplayResult replayTrace(const TaggedTrace &trace, bool recordTimeline = false);

} // namespace gpumem::estimate
