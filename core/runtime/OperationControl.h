// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace gpumem::runtime {

// Lets another thread pause, resume or cancel a long operation (loading a table,
// the probe, a training, an experiment). Each operation checks it at its own
// steps (a record, a job, a batch) and honours a pause only where waiting makes
// sense; a load, for one, only stops. Thread-safe.
class OperationControl
{
  public:
    void pause();
    void resume();
    void cancel();
    bool isPaused() const { return mPaused.load(); }
    bool isCancelled() const { return mCancelled.load(); }
    // Blocks while paused; returns false when the operation should stop (cancelled).
    bool waitWhilePaused();

  private:
    std::atomic_bool mPaused{false};
    std::atomic_bool mCancelled{false};
    std::mutex mMutex; // guards the wait on mResumed
    std::condition_variable mResumed;
};

} // namespace gpumem::runtime
