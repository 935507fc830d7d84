// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/TrainingProgress.h"

#include "io/InputError.h"
#include "training/StopReasonText.h"

namespace gpumem::training {

void TrainingControl::pause()
{
    mPaused = true;
}

void TrainingControl::resume()
{
    {
        std::lock_guard<std::mutex> lock(mMutex);
        mPaused = false;
    }
    mResumed.notify_all();
}

void TrainingControl::cancel()
{
    {
        std::lock_guard<std::mutex> lock(mMutex);
        mCancelled = true;
    }
    mResumed.notify_all();
}

bool TrainingControl::waitWhilePaused()
{
    if (mPaused) {
        std::unique_lock<std::mutex> lock(mMutex);
        mResumed.wait(lock, [this] { return !mPaused || mCancelled; });
    }
    return !mCancelled;
}

std::string stopReasonName(StopReason reason)
{
    switch (reason) {
    case StopReason::Completed: return "completed";
    case StopReason::EarlyStopped: return "early_stopped";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::NotFinite: return "not_finite";
    }
    return "unknown";
}

StopReason parseStopReason(const std::string &name)
{
    const StopReason reasons[] = {StopReason::Completed, StopReason::EarlyStopped, StopReason::Cancelled,
                                  StopReason::NotFinite};
    std::string known;
    for (const StopReason reason : reasons) {
        if (stopReasonName(reason) == name)
            return reason;
        known += (known.empty() ? "" : ", ") + stopReasonName(reason);
    }
    throw io::InputError("unknown stop reason " + io::quoteForMessage(name) + " (known: " + known + ")");
}

} // namespace gpumem::training
