// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/OperationControl.h"

namespace gpumem::runtime {

void OperationControl::pause()
{
    mPaused = true;
}

void OperationControl::resume()
{
    // Under the mutex, so a waiter cannot test the flag and then miss the notification.
    {
        std::lock_guard<std::mutex> lock(mMutex);
        mPaused = false;
    }
    mResumed.notify_all();
}

void OperationControl::cancel()
{
    {
        std::lock_guard<std::mutex> lock(mMutex);
        mCancelled = true;
    }
    mResumed.notify_all();
}

bool OperationControl::waitWhilePaused()
{
    if (mPaused) {
        std::unique_lock<std::mutex> lock(mMutex);
        mResumed.wait(lock, [this] { return !mPaused || mCancelled; });
    }
    return !mCancelled;
}

} // namespace gpumem::runtime
