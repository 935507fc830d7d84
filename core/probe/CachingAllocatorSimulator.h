// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/AllocationEvent.h"

#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpumem::probe {

// A model of PyTorch's CUDA caching allocator on one stream, to predict the
// GPU memory a job reserves from an allocation trace recorded on the CPU.
// Requests are rounded up to 512 bytes; requests up to 1 MiB come from the
// small pool, whose segments are 2 MiB; larger ones from the large pool, whose
// segments are 20 MiB for requests under 10 MiB and the request rounded up to
// 2 MiB otherwise. A request takes the smallest cached block that fits (the
// lowest address among equal sizes) and splits it when the remainder is at
// least 512 bytes (small pool) or more than 1 MiB (large pool); freed blocks
// merge with free neighbours of their segment. Segments are never returned
// (no empty_cache), so reserved bytes only grow, up to maxReservedBytes. Not thread-safe.
class CachingAllocatorSimulator
{
  public:
    static constexpr std::uint64_t kMinimumBlock = 512;
    static constexpr std::uint64_t kSmallRequest = 1u << 20;  // 1 MiB: largest small-pool request
    static constexpr std::uint64_t kSmallSegment = 2u << 20;  // 2 MiB
    static constexpr std::uint64_t kLargeSegment = 20u << 20; // 20 MiB
    static constexpr std::uint64_t kLargeRequest = 10u << 20; // 10 MiB: from here segments fit the request
    static constexpr std::uint64_t kLargeRounding = 2u << 20; // 2 MiB
    // The most bytes the model reserves (4 EiB): far beyond any GPU, and far enough
    // below 2^64 that no count of bytes or addresses wraps.
    static constexpr std::uint64_t maxReservedBytes = std::uint64_t(1) << 62;

    // The block size a request of bytes occupies (bytes rounded up to 512, at least 512).
    static std::uint64_t roundedSize(std::uint64_t bytes);
    // The size of the segment reserved for a block of roundedBytes when no cached block fits.
    static std::uint64_t segmentSize(std::uint64_t roundedBytes);

    // Hands out a block for a request of bytes (> 0) and returns its handle. Throws
    // io::InputError, changing nothing, when the reserved bytes would exceed maxReservedBytes.
    std::uint64_t allocate(std::uint64_t bytes);
    // Gives back a block returned by allocate(); unknown handles are ignored.
    void release(std::uint64_t handle);
    // Replays a trace: allocations, and releases of blocks the trace allocated.
    // Zero-byte requests, which PyTorch answers without the cache, are skipped.
    // Throws io::InputError as allocate() does.
    void replay(const AllocationTrace &trace);

    std::uint64_t allocatedBytes() const { return mAllocated; }
    std::uint64_t reservedBytes() const { return mReserved; }
    std::uint64_t peakAllocatedBytes() const { return mPeakAllocated; }
    std::uint64_t peakReservedBytes() const { return mPeakReserved; }
    std::size_t segmentCount() const { return mSegmentCount; }

  private:
    struct Block
    {
        std::uint64_t address = 0;
        std::uint64_t size = 0;
        bool small = false;
        bool allocated = false;
        std::uint64_t previous = 0; // address of the neighbour in the segment, or kNone
        std::uint64_t next = 0;
    };
    using PoolKey = std::pair<std::uint64_t, std::uint64_t>; // size, address

    std::set<PoolKey> &poolOf(bool small) { return small ? mSmallPool : mLargePool; }

    std::map<std::uint64_t, Block> mBlocks; // by address
    std::set<PoolKey> mSmallPool;           // free blocks
    std::set<PoolKey> mLargePool;
    std::unordered_map<std::uint64_t, std::uint64_t> mHandles;     // handle -> address
    std::unordered_map<std::uint64_t, std::uint64_t> mTraceBlocks; // trace block -> handle
    std::uint64_t mNextAddress = 0;
    std::uint64_t mNextHandle = 0;
    std::uint64_t mAllocated = 0;
    std::uint64_t mReserved = 0;
    std::uint64_t mPeakAllocated = 0;
    std::uint64_t mPeakReserved = 0;
    std::size_t mSegmentCount = 0;
};

} // namespace gpumem::probe
