// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/TrackingAllocator.h"

#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/alloc_cpu.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace gpumem::probe {

namespace {

// Above the default CPU allocator's priority 0, so that LibTorch takes ours.
constexpr std::uint8_t kInstallPriority = 100;

} // namespace

struct TrackingAllocator::State
{
    std::mutex mutex;
    bool recordTrace = false;
    std::uint64_t limitBytes = 0;
    std::optional<std::thread::id> countedThread; // set before install(), read without the mutex after
    std::uint64_t live = 0;                       // guarded by mutex
    std::uint64_t peak = 0;                       // guarded by mutex
    std::uint64_t nextBlock = 0;                  // guarded by mutex
    AllocationTrace trace;                        // guarded by mutex

    bool countsCallingThread() const { return !countedThread || *countedThread == std::this_thread::get_id(); }
};

namespace {

// What the deleter needs to know about a live block.
struct Block
{
    std::uint64_t bytes = 0;
    std::uint64_t id = 0;
    // Keeps the counters alive until the block is freed; null for a block that is not
    // counted (another thread's, see countOnlyCallingThread).
    std::shared_ptr<TrackingAllocator::State> state;
};

// LibTorch's raw_allocate()/raw_deallocate() require the context to be the data
// pointer and one fixed deleter, so blocks are found by address in a process-wide
// table. It is never destroyed: a tensor that some LibTorch cache keeps until
// exit may be freed after static destruction.
//
// While an allocator is installed the table also keeps freed blocks for the next
// allocation of the same size. A training step allocates the same shapes over
// and over; handing each large block back to the C library (which unmaps it) only
// for the next one to fault its pages in afresh cost vgg16's estimate 17 s of
// system time in 36 s. Blocks are handed out as they are, like fresh ones (LibTorch
// does not zero CPU memory either), and the counters see only what tensors request.
struct BlockTable
{
    std::mutex mutex;
    std::unordered_map<void *, Block> blocks;            // guarded by mutex
    std::unordered_multimap<std::size_t, void *> cached; // freed blocks by size; guarded by mutex
    std::uint64_t cachedBytes = 0;                       // guarded by mutex
    // Allocators installed and FreedBlockCache scopes alive; the cache is emptied
    // when none is. Guarded by mutex.
    int installed = 0;
};

// Blocks smaller than this go back to the C library at once: it reuses them cheaply itself.
constexpr std::size_t kSmallestCachedBlock = 256 * 1024;
// The most freed bytes kept, on top of what the traced step itself holds.
constexpr std::uint64_t kCachedBytesLimit = 2ull << 30;

BlockTable &blockTable()
{
    static BlockTable *table = new BlockTable;
    return *table;
}

void releaseBlock(void *data)
{
    if (data == nullptr)
        return;
    Block block;
    {
        BlockTable &table = blockTable();
        std::lock_guard<std::mutex> lock(table.mutex);
        const auto found = table.blocks.find(data);
        if (found == table.blocks.end())
            return;
        block = std::move(found->second);
        table.blocks.erase(found);
        if (table.installed > 0 && block.bytes >= kSmallestCachedBlock &&
            table.cachedBytes + block.bytes <= kCachedBytesLimit) {
            table.cached.emplace(static_cast<std::size_t>(block.bytes), data);
            table.cachedBytes += block.bytes;
            data = nullptr;
        }
    }
    if (data != nullptr)
        c10::free_cpu(data);
    if (!block.state)
        return;
    TrackingAllocator::State &state = *block.state;
    std::lock_guard<std::mutex> lock(state.mutex);
    state.live -= block.bytes;
    if (state.recordTrace)
        state.trace.push_back({block.id, block.bytes, true});
}

// A cached block of exactly bytes, or a fresh one; recorded as live under its address.
void *takeBlock(std::size_t bytes, Block block)
{
    BlockTable &table = blockTable();
    {
        std::lock_guard<std::mutex> lock(table.mutex);
        if (const auto found = table.cached.find(bytes); found != table.cached.end()) {
            void *data = found->second;
            table.cached.erase(found);
            table.cachedBytes -= bytes;
            table.blocks[data] = std::move(block);
            return data;
        }
    }
    void *data = c10::alloc_cpu(bytes);
    std::lock_guard<std::mutex> lock(table.mutex);
    table.blocks[data] = std::move(block);
    return data;
}

// Counts one more installed allocator or FreedBlockCache, or one fewer; the last to go frees the cache.
void countInstalled(int change)
{
    std::unordered_multimap<std::size_t, void *> released;
    {
        BlockTable &table = blockTable();
        std::lock_guard<std::mutex> lock(table.mutex);
        table.installed += change;
        if (table.installed > 0)
            return;
        released.swap(table.cached);
        table.cachedBytes = 0;
    }
    for (const auto &[bytes, data] : released)
        c10::free_cpu(data);
}

} // namespace

FreedBlockCache::FreedBlockCache()
{
    countInstalled(+1);
}

FreedBlockCache::~FreedBlockCache()
{
    countInstalled(-1);
}

TrackingAllocator::TrackingAllocator(bool recordTrace, std::uint64_t limitBytes)
    : mState(std::make_shared<State>())
{
    mState->recordTrace = recordTrace;
    mState->limitBytes = limitBytes;
}

TrackingAllocator::~TrackingAllocator()
{
    uninstall();
}

void TrackingAllocator::countOnlyCallingThread()
{
    mState->countedThread = std::this_thread::get_id();
}

void TrackingAllocator::install()
{
    if (mPrevious != nullptr)
        return;
    mPrevious = c10::GetCPUAllocator();
    c10::SetCPUAllocator(this, kInstallPriority);
    countInstalled(+1);
}

void TrackingAllocator::uninstall()
{
    if (mPrevious == nullptr)
        return;
    // The same priority is needed to take the place back.
    c10::SetCPUAllocator(mPrevious, kInstallPriority);
    mPrevious = nullptr;
    countInstalled(-1);
}

c10::DataPtr TrackingAllocator::allocateBlock(std::size_t bytes) const
{
    const c10::Device device(c10::DeviceType::CPU);
    if (bytes == 0)
        return {nullptr, nullptr, nullptr, device};
    const bool counted = mState->countsCallingThread();
    std::uint64_t id = 0;
    if (counted) {
        std::lock_guard<std::mutex> lock(mState->mutex);
        if (mState->limitBytes != 0 && mState->live + bytes > mState->limitBytes)
            throw MemoryLimitExceeded("out of memory: " + std::to_string(bytes) +
                                      " more bytes would exceed the limit of " + std::to_string(mState->limitBytes) +
                                      " bytes");
        mState->live += bytes;
        mState->peak = std::max(mState->peak, mState->live);
        id = mState->nextBlock++;
        if (mState->recordTrace)
            mState->trace.push_back({id, bytes, false});
    }
    void *data = takeBlock(bytes, {bytes, id, counted ? mState : nullptr});
    return {data, data, &releaseBlock, device};
}

c10::DeleterFnPtr TrackingAllocator::raw_deleter() const
{
    return &releaseBlock;
}

std::uint64_t TrackingAllocator::liveBytes() const
{
    std::lock_guard<std::mutex> lock(mState->mutex);
    return mState->live;
}

std::uint64_t TrackingAllocator::peakBytes() const
{
    std::lock_guard<std::mutex> lock(mState->mutex);
    return mState->peak;
}

void TrackingAllocator::resetPeak()
{
    std::lock_guard<std::mutex> lock(mState->mutex);
    mState->peak = mState->live;
}

AllocationTrace TrackingAllocator::trace() const
{
    std::lock_guard<std::mutex> lock(mState->mutex);
    return mState->trace;
}

std::optional<std::uint64_t> TrackingAllocator::recordTransientBlock(std::uint64_t bytes) const
{
    if (bytes == 0 || !mState->countsCallingThread())
        return std::nullopt;
    std::lock_guard<std::mutex> lock(mState->mutex);
    if (!mState->recordTrace)
        return std::nullopt;
    const std::uint64_t id = mState->nextBlock++;
    mState->trace.push_back({id, bytes, false});
    mState->trace.push_back({id, bytes, true});
    return id;
}

std::optional<std::uint64_t> TrackingAllocator::blockAt(const void *data) const
{
    BlockTable &table = blockTable();
    std::lock_guard<std::mutex> lock(table.mutex);
    const auto found = table.blocks.find(const_cast<void *>(data));
    if (found == table.blocks.end() || found->second.state != mState)
        return std::nullopt;
    return found->second.id;
}

std::size_t TrackingAllocator::eventCount() const
{
    std::lock_guard<std::mutex> lock(mState->mutex);
    return mState->trace.size();
}

AllocationTrace TrackingAllocator::liveAllocationsSince(std::size_t count) const
{
    std::lock_guard<std::mutex> lock(mState->mutex);
    AllocationTrace live;
    for (std::size_t i = std::min(count, mState->trace.size()); i < mState->trace.size(); ++i) {
        const AllocationEvent &event = mState->trace[i];
        if (!event.release) {
            live.push_back(event);
            continue;
        }
        const auto released = std::find_if(live.begin(), live.end(), [&event](const AllocationEvent &allocation) {
            return allocation.block == event.block;
        });
        if (released != live.end())
            live.erase(released);
    }
    return live;
}

std::vector<std::uint64_t> TrackingAllocator::releasedAllocationsSince(std::size_t count) const
{
    std::lock_guard<std::mutex> lock(mState->mutex);
    std::unordered_set<std::uint64_t> allocated;
    std::vector<std::uint64_t> released;
    for (std::size_t i = std::min(count, mState->trace.size()); i < mState->trace.size(); ++i) {
        const AllocationEvent &event = mState->trace[i];
        if (!event.release)
            allocated.insert(event.block);
        else if (allocated.count(event.block) != 0)
            released.push_back(event.block);
    }
    return released;
}

bool isOutOfMemoryMessage(const std::string &text)
{
    return text.find("out of memory") != std::string::npos || text.find("can't allocate memory") != std::string::npos;
}

} // namespace gpumem::probe
