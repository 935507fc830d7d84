// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"
#include "probe/AllocationEvent.h"
#include "probe/BlockAllocator.h"

#include <cstddef>
#include <memory>

namespace gpumem::estimate {

// LibTorch's allocator of the meta device while it lives: it records every block
// that a tensor on the meta device asks for and gives back, in order, and hands out
// no memory (meta tensors have shapes and dtypes, never data). A model built on the
// meta device so traces at its full size in no time and no memory. One lives at a
// time (traces are serialised); blocks it handed out may be freed after it is gone.
class MetaAllocationRecorder final : public probe::BlockAllocator, private io::NonCopyable
{
  public:
    MetaAllocationRecorder();
    ~MetaAllocationRecorder() override;

    c10::DeleterFnPtr raw_deleter() const override;

    // How many events are recorded so far, and the events.
    std::size_t eventCount() const;
    probe::AllocationTrace trace() const;

    struct State; // shared with the deleters of the blocks handed out

  private:
    c10::DataPtr allocateBlock(std::size_t bytes) const override;
    // Meta tensors hold no data to copy.
    void copyBlock(void *, const void *, std::size_t) const override {}

    std::shared_ptr<State> mState;
    c10::Allocator *mPrevious = nullptr;
};

} // namespace gpumem::estimate
