// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The parts of the network's ensemble (the "ensemble" hyperparameter) that need
// no LibTorch: the members' seeds, how many train at once, their progress
// reported as one training's, their results as one, and their predictions as one.

#include "io/NonCopyable.h"
#include "runtime/Stopwatch.h"
#include "training/TrainingProgress.h"

#include <Eigen/Core>

#include <cstdint>
#include <mutex>
#include <vector>

namespace gpumem::models {

// Returns the seed member (0-based) of an ensemble trained with seed uses: seed
// itself for member 0, so that an ensemble of one is the plain network bit for
// bit, and a draw of a generator seeded from seed otherwise, unrelated to the
// seeds of an experiment's repetitions. Thread-safe.
std::uint64_t ensembleMemberSeed(std::uint64_t seed, int member);

// Returns how many of members train at once given threads CPU threads: on the
// CPU, one member per thread (each with single-threaded kernels), which
// bench/README.md measured faster than members one after another with the
// threads splitting each batch; on a GPU, one at a time.
int concurrentMembers(int members, int threads, bool onCpu);

// The mean and the spread, row by row, of the members' outputs: outputs holds
// one column per member. The spread is the sample standard deviation (0 for a
// single member).
struct MemberAgreement
{
    Eigen::VectorXd mean;
    Eigen::VectorXd spread;
};
MemberAgreement memberAgreement(const Eigen::MatrixXd &outputs);

// Passes the progress of an ensemble's members, which may train on several
// threads at once, to one observer as the progress of one training, under a
// lock. Batches count the batches of every member: a BatchProgress whose
// fitShare() is the ensemble's share done, with the mean over the members of
// their latest batch losses and learning rates. The loss curve is the mean over
// the members per epoch: epoch e is reported once every member has finished it
// or stopped before it, with the mean losses and validation RMSE of the members
// that ran it, and marked best by the trainer's rule applied to that mean (a
// lower mean validation loss than any earlier epoch; every finite epoch without
// validation).
// Timing and the remaining time are the ensemble's.
class EnsembleProgress : io::NonCopyable
{
  public:
    // next may be null: the epochs are still averaged for the result. firstEpochs
    // holds the epoch (1-based) each member starts at, which differs between the
    // members of a continued training; empty: every member starts at epoch 1.
    EnsembleProgress(training::TrainingObserver *next, int members, std::vector<int> firstEpochs = {});

    // The observer member reports to; safe to use from that member's thread.
    training::TrainingObserver *member(int member);
    // Member's training has returned: the epochs it did not reach wait for it no longer.
    void memberFinished(int member);
    // The mean curve reported so far (complete once every member has finished).
    std::vector<training::EpochProgress> meanEpochs() const;

  private:
    class MemberObserver : public training::TrainingObserver
    {
      public:
        MemberObserver(EnsembleProgress *ensemble, int member);
        void batchFinished(const training::BatchProgress &progress) override;
        void epochFinished(const training::EpochProgress &progress) override;

      private:
        EnsembleProgress *mEnsemble;
        int mMember;
    };

    struct MemberState
    {
        std::int64_t batchesDone = 0; // (epoch - 1) × batches + batch of its latest report
        std::int64_t batchesInAll = 0;
        double latestBatchLoss = 0.0;
        double latestLearningRate = 0.0;
        double samplesPerSecond = 0.0;
        bool reportedBatch = false;
        bool finished = false;
        int firstEpoch = 1;
        std::vector<training::EpochProgress> epochs; // as the member reported them, from firstEpoch on
    };

    void batchFinished(int member, const training::BatchProgress &progress);
    void epochFinished(int member, const training::EpochProgress &progress);
    // Reports every epoch that each member has finished or will never reach. Called under mMutex.
    void reportCompleteEpochs();
    // The ensemble's share done: batches done out of batches in all. Called under mMutex.
    double share() const;
    double elapsedSeconds() const;
    double remainingSeconds(double share) const;

    training::TrainingObserver *mNext;
    runtime::Stopwatch mTime;
    std::vector<MemberObserver> mObservers;
    mutable std::mutex mMutex;
    std::vector<MemberState> mMembers;                // guarded by mMutex
    std::vector<training::EpochProgress> mMeanEpochs; // guarded by mMutex
    int mNextEpoch;                                   // guarded by mMutex: the next epoch of the mean curve
    double mBestMeanLoss;                             // guarded by mMutex
};

// The result of an ensemble's fit from its members' results, in member order:
// the mean curve (EnsembleProgress) as its epochs and its last best epoch as the
// best one; the first of Cancelled, NotFinite, EarlyStopped that a member
// stopped with, and that member's message; every member's warnings once;
// member 0's validation rows (the members share them); seconds 0, for
// RegressorBase::fit() to time the whole fit.
training::TrainingResult ensembleResult(const std::vector<training::TrainingResult> &members,
                                        std::vector<training::EpochProgress> meanEpochs);

} // namespace gpumem::models
