// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"
#include "probe/AllocationEvent.h"
#include "probe/BlockAllocator.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gpumem::probe {

// Thrown by TrackingAllocator when an allocation would exceed its limit; the
// probe records the job as out_of_memory.
class MemoryLimitExceeded : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

// Whether an error's text says that memory ran out: LibTorch's CPU allocator
// ("can't allocate memory") or a limit's MemoryLimitExceeded ("out of memory").
bool isOutOfMemoryMessage(const std::string &text);

// A CPU allocator that counts the bytes held by live tensors (current and peak)
// and can record every allocation and release in order. Blocks come from
// LibTorch's own aligned CPU allocation, so tensors behave exactly as usual.
// Thread-safe: LibTorch may allocate from any thread. Counters live in shared
// state that outlives the allocator, so a tensor freed late is still counted.
class TrackingAllocator final : public BlockAllocator, private io::NonCopyable
{
  public:
    // limitBytes 0 means no limit; recordTrace keeps the allocation trace.
    TrackingAllocator(bool recordTrace, std::uint64_t limitBytes);
    ~TrackingAllocator() override;

    // The one deleter of every block (LibTorch's raw_allocate() needs it).
    c10::DeleterFnPtr raw_deleter() const override;

    // Counts and records only the blocks the calling thread allocates from now on.
    // Other threads' blocks are still served (the allocator is process-wide), but
    // a training running beside a single-threaded trace stays out of its numbers.
    void countOnlyCallingThread();
    // Makes this the CPU allocator of LibTorch until uninstall() or destruction.
    void install();
    // Restores the allocator that install() replaced.
    void uninstall();

    // Bytes of live blocks allocated through this allocator.
    std::uint64_t liveBytes() const;
    // The largest liveBytes() since construction or the last resetPeak().
    std::uint64_t peakBytes() const;
    // Starts a new peak at the current live bytes.
    void resetPeak();
    // The recorded events so far (empty unless recordTrace).
    AllocationTrace trace() const;
    // How many events trace() holds now, and the allocations recorded after the first
    // count of them that are still live: an operator's outputs, counted before it ran.
    std::size_t eventCount() const;
    AllocationTrace liveAllocationsSince(std::size_t count) const;
    // The blocks allocated after the first count events and already released: the
    // scratch an operator made and freed, counted before it ran.
    std::vector<std::uint64_t> releasedAllocationsSince(std::size_t count) const;
    // Appends to the trace the allocation and release of a block of bytes that only a
    // GPU allocates (a library's workspace during one call), when the calling thread is
    // counted (its block number), else nothing; the live and peak bytes stay those of the CPU.
    std::optional<std::uint64_t> recordTransientBlock(std::uint64_t bytes) const;
    // The trace's number of the live block that this allocator counted at data, the
    // start of a tensor's storage; nothing for any other address.
    std::optional<std::uint64_t> blockAt(const void *data) const;

    // The counters shared with the deleters of live blocks (defined in the .cpp).
    struct State;

  private:
    c10::DataPtr allocateBlock(std::size_t bytes) const override;

    std::shared_ptr<State> mState;
    c10::Allocator *mPrevious = nullptr;
};

// Keeps the blocks TrackingAllocator frees for the next allocation of the same size
// while it lives, as every installed TrackingAllocator does (blocks of 256 KiB and
// more, at most 1 GiB in all); the last of them to go frees what is kept. A tracer
// that steps a model at several batch sizes holds one across its traces: each
// trace allocates gradients and optimizer states of the same shapes again.
class FreedBlockCache : io::NonCopyable
{
  public:
    FreedBlockCache();
    ~FreedBlockCache();
};

} // namespace gpumem::probe
