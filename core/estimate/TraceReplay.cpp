// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/TraceReplay.h"

#include "probe/CachingAllocatorSimulator.h"

namespace gpumem::estimate {

ReplayResult replayTrace(const TaggedTrace &trace, bool recordTimeline)
{
    constexpr std::uint64_t kNoHandle = ~std::uint64_t{0};
    probe::CachingAllocatorSimulator simulator;
    ReplayResult result;
    std::vector<std::uint64_t> handles(trace.events.size(), kNoHandle);
    CategoryBytes live{};
    if (recordTimeline)
        result.timeline.reserve(trace.events.size());
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const TaggedEvent &event = trace.events[i];
        const auto category = static_cast<std::size_t>(event.category);
        if (event.isRelease()) {
            const auto allocation = static_cast<std::size_t>(event.allocation);
            if (allocation < i && handles[allocation] != kNoHandle) {
                simulator.release(handles[allocation]);
                handles[allocation] = kNoHandle;
                live[category] -= probe::CachingAllocatorSimulator::roundedSize(trace.events[allocation].bytes);
            }
        } else if (event.bytes > 0) {
            handles[i] = simulator.allocate(event.bytes);
            live[category] += probe::CachingAllocatorSimulator::roundedSize(event.bytes);
            if (simulator.allocatedBytes() > result.peakAllocatedBytes) {
                result.peakAllocatedBytes = simulator.allocatedBytes();
                result.bytesAtPeak = live;
            }
        }
        if (recordTimeline)
            result.timeline.push_back(
                {i, event.phase, event.category, simulator.allocatedBytes(), simulator.reservedBytes(), live});
    }
    result.peakReservedBytes = simulator.peakReservedBytes();
    return result;
}

} // namespace gpumem::estimate
