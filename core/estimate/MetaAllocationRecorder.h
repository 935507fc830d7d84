// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/AllocationEvent.h"

#include <c10/core/Allocator.h>
#include <torch/version.h>

#include <cstddef>
#include <memory>

namespace gpumem::estimate {

// LibTorch's allocator of the meta device while it lives: it records every block
// that a tensor on the meta device asks for and gives back, in order, and hands out
// no memory (meta tensors have shapes and dtypes, never data). A model built on the
// meta device so traces at its full size in no time and no memory. One lives at a
// time (traces are serialised); blocks it handed out may be freed after it is gone.
class MetaAllocationRecorder final : public c10::Allocator
{
  public:
    MetaAllocationRecorder();
    ~MetaAllocationRecorder() override;
    MetaAllocationRecorder(const MetaAllocationRecorder &) = delete;
    MetaAllocationRecorder &operator=(const MetaAllocationRecorder &) = delete;

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
    c10::DataPtr allocate(std::size_t bytes) override;
    void copy_data(void *destination, const void *source, std::size_t count) const override;
#else
    c10::DataPtr allocate(std::size_t bytes) const override;
#endif
    c10::DeleterFnPtr raw_deleter() const override;

    // How many events are recorded so far, and the events.
    std::size_t eventCount() const;
    probe::AllocationTrace trace() const;

    struct State; // shared with the deleters of the blocks handed out

  private:
    c10::DataPtr allocateBlock(std::size_t bytes) const;

    std::shared_ptr<State> mState;
    c10::Allocator *mPrevious = nullptr;
};

} // namespace gpumem::estimate
