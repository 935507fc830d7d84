// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the operator observers (the recorders) share. Included only by their .cpp files
// (it brings ATen).

#include "probe/TrackingAllocator.h"

#include <ATen/record_function.h>

#include <cstddef>
#include <memory>

namespace gpumem::estimate {

// Registers enter and leave as the calling thread's observers of every operator call
// until at::removeCallback(handle); readsArguments makes the calls' arguments readable
// where they begin. LibTorch takes plain functions, so each recorder keeps its state in
// thread-local storage.
template <void (*enter)(const at::RecordFunction &), void (*leave)(const at::RecordFunction &)>
at::CallbackHandle observeOperatorCalls(bool readsArguments)
{
    const auto begin = [](const at::RecordFunction &call) -> std::unique_ptr<at::ObserverContext> {
        enter(call);
        return nullptr;
    };
    const auto end = [](const at::RecordFunction &call, at::ObserverContext *) { leave(call); };
    return at::addThreadLocalCallback(
        at::RecordFunctionCallback(begin, end).needsInputs(readsArguments).scopes({at::RecordScope::FUNCTION}));
}

// Calls of one kind of operator that nest (conv2d calls convolution, which calls its CPU
// kernel; softmax calls _softmax): only the outermost one is acted on. Its mark is the
// trace's length when it began, so that what it allocated is known when it ends.
class OutermostCall
{
  public:
    // Whether the call beginning is the outermost one; if so, marks the trace.
    bool begin(const probe::TrackingAllocator &allocator)
    {
        if (++mDepth > 1)
            return false;
        mMark = allocator.eventCount();
        return true;
    }
    // Whether the call ending is the outermost one.
    bool end() { return --mDepth == 0; }
    std::size_t mark() const { return mMark; }

  private:
    int mDepth = 0;
    std::size_t mMark = 0;
};

} // namespace gpumem::estimate
