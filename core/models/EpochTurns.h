// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"
#include "training/TrainingProgress.h"

#include <condition_variable>
#include <mutex>
#include <vector>

namespace gpumem::models {

// Lets the members of an ensemble that has more members than threads train in
// step, epoch by epoch, instead of one group after another. Every member runs on
// a thread of its own, but only `turns` of them compute at once: a member holds a
// turn for one epoch, and a free turn goes to the waiting member with the fewest
// epochs done (the lower member first on a tie). The mean loss curve, which needs
// every member's epoch e (EnsembleProgress), then grows from the first epochs on
// rather than only once the last group starts. Each member computes what it would
// alone: taking turns changes when it runs, never what it computes. The order is
// the same in every run (members 0, 1, … first), so every member must take part:
// construct its Turn, on a thread of its own (runtime::runEachOnItsOwnThread).
class EpochTurns : io::NonCopyable
{
  public:
    EpochTurns(int members, int turns);

    // A member's turns, from construction (which waits for the first) to
    // destruction (which frees the last, however the member's training ends): as
    // the member's observer it passes its progress on to next and, at every
    // epoch's end, gives its turn to the member furthest behind and waits for one again.
    class Turn : public training::TrainingObserver, private io::NonCopyable
    {
      public:
        Turn(EpochTurns &turns, int member, training::TrainingObserver *next);
        ~Turn() override;
        void batchFinished(const training::BatchProgress &progress) override;
        void epochFinished(const training::EpochProgress &progress) override;

      private:
        EpochTurns &mTurns;
        int mMember;
        training::TrainingObserver *mNext;
    };

  private:
    void begin(int member);
    void next(int member);
    void end();
    // Whether member, waiting, is among the first `mFree` waiting members. Called under mMutex.
    bool mayStart(int member) const;
    void wait(std::unique_lock<std::mutex> &lock, int member);

    std::mutex mMutex;
    std::condition_variable mChanged;
    std::vector<int> mEpochsDone; // guarded by mMutex
    std::vector<bool> mWaiting;   // guarded by mMutex
    int mFree;                    // guarded by mMutex: turns no member holds
};

} // namespace gpumem::models
