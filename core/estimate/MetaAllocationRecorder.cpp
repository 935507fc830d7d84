// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/MetaAllocationRecorder.h"

#include <c10/core/Device.h>

#include <mutex>

namespace gpumem::estimate {

struct MetaAllocationRecorder::State
{
    mutable std::mutex mutex;
    probe::AllocationTrace events; // guarded by mutex
    std::uint64_t nextBlock = 0;   // guarded by mutex
};

namespace {

// What a block's deleter needs: the recorder's state, which outlives the recorder
// while blocks are live, and the block's number and size.
struct MetaBlock
{
    std::shared_ptr<MetaAllocationRecorder::State> state;
    std::uint64_t block = 0;
    std::uint64_t bytes = 0;
};

void releaseBlock(void *context)
{
    const auto *block = static_cast<MetaBlock *>(context);
    {
        const std::lock_guard<std::mutex> lock(block->state->mutex);
        block->state->events.push_back({block->block, block->bytes, true});
    }
    delete block;
}

} // namespace

MetaAllocationRecorder::MetaAllocationRecorder()
    : mState(std::make_shared<State>())
    , mPrevious(c10::GetAllocator(c10::DeviceType::Meta))
{
    c10::SetAllocator(c10::DeviceType::Meta, this);
}

MetaAllocationRecorder::~MetaAllocationRecorder()
{
    c10::SetAllocator(c10::DeviceType::Meta, mPrevious);
}

c10::DataPtr MetaAllocationRecorder::allocateBlock(std::size_t bytes) const
{
    const c10::Device meta(c10::DeviceType::Meta);
    // The caching allocator gives an empty tensor no block either.
    if (bytes == 0)
        return {nullptr, meta};
    auto *block = new MetaBlock{mState, 0, bytes};
    {
        const std::lock_guard<std::mutex> lock(mState->mutex);
        block->block = mState->nextBlock++;
        mState->events.push_back({block->block, bytes, false});
    }
    return {nullptr, block, &releaseBlock, meta};
}

c10::DeleterFnPtr MetaAllocationRecorder::raw_deleter() const
{
    return nullptr;
}

std::size_t MetaAllocationRecorder::eventCount() const
{
    const std::lock_guard<std::mutex> lock(mState->mutex);
    return mState->events.size();
}

probe::AllocationTrace MetaAllocationRecorder::trace() const
{
    const std::lock_guard<std::mutex> lock(mState->mutex);
    return mState->events;
}

} // namespace gpumem::estimate
