// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/CachingAllocatorSimulator.h"

#include "io/InputError.h"

#include <algorithm>
#include <limits>

namespace gpumem::probe {

namespace {

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

std::uint64_t roundUp(std::uint64_t value, std::uint64_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}

io::InputError tooMuchMemory()
{
    return io::InputError("the job's memory adds up to more than 4 EiB (2^62 bytes), beyond any GPU's: the layer "
                          "sizes or the batch size are wrong");
}

} // namespace

std::uint64_t CachingAllocatorSimulator::roundedSize(std::uint64_t bytes)
{
    return bytes < kMinimumBlock ? kMinimumBlock : roundUp(bytes, kMinimumBlock);
}

std::uint64_t CachingAllocatorSimulator::segmentSize(std::uint64_t roundedBytes)
{
    if (roundedBytes <= kSmallRequest)
        return kSmallSegment;
    if (roundedBytes < kLargeRequest)
        return kLargeSegment;
    return roundUp(roundedBytes, kLargeRounding);
}

std::uint64_t CachingAllocatorSimulator::allocate(std::uint64_t bytes)
{
    // Sizes come from traces and from data files' layer lists: bytes past the limit
    // would wrap the sums below and make a huge job look small.
    if (bytes > maxReservedBytes - mReserved)
        throw tooMuchMemory();
    const std::uint64_t size = roundedSize(bytes);
    const bool small = size <= kSmallRequest;
    auto &pool = poolOf(small);

    std::uint64_t address = kNone;
    const auto fit = pool.lower_bound({size, 0});
    if (fit != pool.end()) {
        address = fit->second;
        pool.erase(fit);
    } else {
        // No cached block fits: reserve a new segment, as cudaMalloc would.
        const std::uint64_t segment = segmentSize(size);
        if (segment > maxReservedBytes - mReserved)
            throw tooMuchMemory();
        address = mNextAddress;
        // Segments of the model never touch, so blocks cannot merge across them.
        mNextAddress += segment + kLargeRounding;
        mBlocks[address] = {address, segment, small, false, kNone, kNone};
        mReserved += segment;
        mPeakReserved = std::max(mPeakReserved, mReserved);
        ++mSegmentCount;
    }

    Block &block = mBlocks[address];
    const std::uint64_t remaining = block.size - size;
    const bool split = small ? remaining >= kMinimumBlock : remaining > kSmallRequest;
    if (split) {
        const std::uint64_t restAddress = address + size;
        mBlocks[restAddress] = {restAddress, remaining, small, false, address, block.next};
        if (block.next != kNone)
            mBlocks[block.next].previous = restAddress;
        // std::map keeps references valid across insertions.
        block.next = restAddress;
        block.size = size;
        pool.insert({remaining, restAddress});
    }
    Block &taken = mBlocks[address];
    taken.allocated = true;
    mAllocated += taken.size;
    mPeakAllocated = std::max(mPeakAllocated, mAllocated);
    const std::uint64_t handle = mNextHandle++;
    mHandles[handle] = address;
    return handle;
}

void CachingAllocatorSimulator::release(std::uint64_t handle)
{
    const auto found = mHandles.find(handle);
    if (found == mHandles.end())
        return;
    std::uint64_t address = found->second;
    mHandles.erase(found);
    Block *block = &mBlocks[address];
    block->allocated = false;
    mAllocated -= block->size;
    auto &pool = poolOf(block->small);

    // Merge with a free previous neighbour, then with a free next one.
    if (block->previous != kNone && !mBlocks[block->previous].allocated) {
        Block &previous = mBlocks[block->previous];
        pool.erase({previous.size, previous.address});
        previous.size += block->size;
        previous.next = block->next;
        if (block->next != kNone)
            mBlocks[block->next].previous = previous.address;
        mBlocks.erase(address);
        address = previous.address;
        block = &mBlocks[address];
    }
    if (block->next != kNone && !mBlocks[block->next].allocated) {
        const Block next = mBlocks[block->next];
        pool.erase({next.size, next.address});
        block->size += next.size;
        block->next = next.next;
        if (next.next != kNone)
            mBlocks[next.next].previous = address;
        mBlocks.erase(next.address);
    }
    pool.insert({block->size, address});
}

void CachingAllocatorSimulator::replay(const AllocationTrace &trace)
{
    for (const auto &event : trace) {
        if (event.bytes == 0)
            continue;
        if (event.release) {
            const auto found = mTraceBlocks.find(event.block);
            if (found != mTraceBlocks.end()) {
                release(found->second);
                mTraceBlocks.erase(found);
            }
        } else {
            mTraceBlocks[event.block] = allocate(event.bytes);
        }
    }
}

} // namespace gpumem::probe
