// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/FitProgressRelay.h"

namespace gpumem::training {

FitProgressRelay::FitProgressRelay(TrainingObserver *next)
    : mNext(next)
    , mThrottle(next)
{
}

void FitProgressRelay::batchFinished(const BatchProgress &progress)
{
    if (!mNext)
        return;
    mNext->batchFinished(progress);
    mThrottle.advance(fitShare(progress));
}

void FitProgressRelay::epochFinished(const EpochProgress &progress)
{
    if (!mNext)
        return;
    mNext->epochFinished(progress);
    mThrottle.advance(fitShare(progress));
}

void FitProgressRelay::memberEpochFinished(int member, const EpochProgress &progress)
{
    // The share done follows the ensemble's batches and means, not one member's epochs.
    if (mNext)
        mNext->memberEpochFinished(member, progress);
}

} // namespace gpumem::training
