// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/EpochTurns.h"

#include <algorithm>

namespace gpumem::models {

EpochTurns::EpochTurns(int members, int turns)
    : mEpochsDone(static_cast<std::size_t>(std::max(members, 1)), 0)
    // Every member waits for its first turn from the start, so the first turns go to
    // members 0, 1, … whatever order their threads come in.
    , mWaiting(mEpochsDone.size(), true)
    , mFree(std::max(turns, 1))
{
}

void EpochTurns::begin(int member)
{
    std::unique_lock lock(mMutex);
    wait(lock, member);
}

void EpochTurns::next(int member)
{
    std::unique_lock lock(mMutex);
    ++mEpochsDone[static_cast<std::size_t>(member)];
    ++mFree;
    wait(lock, member);
}

void EpochTurns::end()
{
    {
        std::lock_guard lock(mMutex);
        ++mFree;
    }
    mChanged.notify_all();
}

bool EpochTurns::mayStart(int member) const
{
    const auto before = [&](int other) {
        const auto o = static_cast<std::size_t>(other);
        const auto m = static_cast<std::size_t>(member);
        return mEpochsDone[o] < mEpochsDone[m] || (mEpochsDone[o] == mEpochsDone[m] && other < member);
    };
    int ahead = 0;
    for (int other = 0; other < static_cast<int>(mWaiting.size()); ++other)
        if (other != member && mWaiting[static_cast<std::size_t>(other)] && before(other))
            ++ahead;
    return ahead < mFree;
}

void EpochTurns::wait(std::unique_lock<std::mutex> &lock, int member)
{
    mWaiting[static_cast<std::size_t>(member)] = true;
    // Another waiting member may now be first in line for a turn this one freed.
    mChanged.notify_all();
    mChanged.wait(lock, [&] { return mayStart(member); });
    mWaiting[static_cast<std::size_t>(member)] = false;
    --mFree;
}

EpochTurns::Turn::Turn(EpochTurns &turns, int member, training::TrainingObserver *next)
    : mTurns(turns)
    , mMember(member)
    , mNext(next)
{
    mTurns.begin(mMember);
}

EpochTurns::Turn::~Turn()
{
    mTurns.end();
}

void EpochTurns::Turn::batchFinished(const training::BatchProgress &progress)
{
    if (mNext)
        mNext->batchFinished(progress);
}

void EpochTurns::Turn::epochFinished(const training::EpochProgress &progress)
{
    if (mNext)
        mNext->epochFinished(progress);
    mTurns.next(mMember);
}

} // namespace gpumem::models
