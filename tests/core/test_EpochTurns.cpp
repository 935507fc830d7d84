// SPDX-License-Identifier: GPL-3.0-or-later
// Ensemble members taking turns epoch by epoch: how many compute at once, who goes
// next, and that a member's end frees its turn however its training stops.
#include "models/EpochTurns.h"

#include <QtTest>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

using namespace gpumem;
using models::EpochTurns;

namespace {

// What the members did while they held a turn, as they did it.
class TurnLog
{
  public:
    // A member holds a turn and starts its epoch (0-based).
    void started(int member, int epoch)
    {
        std::lock_guard lock(mMutex);
        mStarts.emplace_back(member, epoch);
        mMostHolding = std::max(mMostHolding, ++mHolding);
    }
    // The member's epoch is done; it gives its turn back right after.
    void finished()
    {
        std::lock_guard lock(mMutex);
        --mHolding;
    }
    std::vector<std::pair<int, int>> starts() const { return mStarts; }
    int mostHolding() const { return mMostHolding; }

  private:
    std::mutex mMutex;
    std::vector<std::pair<int, int>> mStarts; // (member, epoch) in the order they began
    int mHolding = 0;
    int mMostHolding = 0;
};

// Passes epochs and batches on, counting them: the observer a Turn wraps.
class CountingObserver : public training::TrainingObserver
{
  public:
    void batchFinished(const training::BatchProgress &) override { ++batches; }
    void epochFinished(const training::EpochProgress &progress) override { lastEpoch = progress.epoch; }
    int batches = 0;
    int lastEpoch = 0;
};

// Trains members as the ensemble does: every member on a thread of its own, the
// threads started in reverse member order (the turns must not depend on it), member
// m running epochs[m] epochs of a short pause each.
void trainTakingTurns(EpochTurns &turns, const std::vector<int> &epochs, TurnLog &log)
{
    std::vector<std::thread> threads;
    for (int member = static_cast<int>(epochs.size()) - 1; member >= 0; --member) {
        threads.emplace_back([&, member] {
            EpochTurns::Turn turn(turns, member, nullptr);
            const int count = epochs[static_cast<std::size_t>(member)];
            for (int epoch = 0; epoch < count; ++epoch) {
                log.started(member, epoch);
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                log.finished();
                training::EpochProgress progress;
                progress.epoch = epoch + 1;
                progress.epochs = count;
                turn.epochFinished(progress);
            }
        });
        // Give the later members' threads a head start, so that they would come first.
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (auto &thread : threads)
        thread.join();
}

} // namespace

class TestEpochTurns : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void oneTurnGoesRoundTheMembersInOrder()
    {
        // One turn among three members: member 0, 1, 2 take epoch 0, then epoch 1, …,
        // though member 2's thread came first.
        EpochTurns turns(3, 1);
        TurnLog log;
        trainTakingTurns(turns, {3, 3, 3}, log);
        const std::vector<std::pair<int, int>> expected{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1},
                                                        {2, 1}, {0, 2}, {1, 2}, {2, 2}};
        QCOMPARE(log.starts(), expected);
        QCOMPARE(log.mostHolding(), 1);
    }

    void noMoreMembersComputeThanTurns()
    {
        // Two turns among four members: never more than two compute at once, and the
        // first turn goes to member 0 or 1 although the threads of 3 and 2 came first
        // (when member 1 is done before member 0's thread comes, the second free turn
        // may go on to member 2, who is then next in line).
        EpochTurns turns(4, 2);
        TurnLog log;
        trainTakingTurns(turns, {4, 4, 4, 4}, log);
        const auto starts = log.starts();
        QCOMPARE(starts.size(), std::size_t{16});
        QVERIFY(log.mostHolding() <= 2);
        QVERIFY2(starts.front().first <= 1, qPrintable(QString::number(starts.front().first)));
        std::vector<int> epochsSeen(4, 0);
        for (const auto &[member, epoch] : starts)
            QCOMPARE(epoch, epochsSeen[static_cast<std::size_t>(member)]++);
    }

    void aMemberThatStopsEarlyFreesItsTurn()
    {
        // Member 0 stops after one epoch (cancelled, or early stopping): its turn goes on
        // to the others, which finish theirs instead of waiting for it for ever.
        EpochTurns turns(3, 1);
        TurnLog log;
        trainTakingTurns(turns, {1, 3, 2}, log);
        const std::vector<std::pair<int, int>> expected{{0, 0}, {1, 0}, {2, 0}, {1, 1}, {2, 1}, {1, 2}};
        QCOMPARE(log.starts(), expected);
    }

    void moreTurnsThanMembersLetEveryoneRun()
    {
        // As many turns as members, or more: no member ever waits for another.
        EpochTurns turns(2, 8);
        TurnLog log;
        trainTakingTurns(turns, {2, 2}, log);
        QCOMPARE(log.starts().size(), std::size_t{4});
        QVERIFY(log.mostHolding() <= 2);
    }

    void aTurnPassesProgressOn()
    {
        EpochTurns turns(1, 1);
        CountingObserver next;
        {
            EpochTurns::Turn turn(turns, 0, &next);
            training::BatchProgress batch;
            turn.batchFinished(batch);
            turn.batchFinished(batch);
            training::EpochProgress epoch;
            epoch.epoch = 1;
            turn.epochFinished(epoch); // the only member: its next turn comes at once
            epoch.epoch = 2;
            turn.epochFinished(epoch);
        }
        QCOMPARE(next.batches, 2);
        QCOMPARE(next.lastEpoch, 2);
        // Without an observer the turn only takes turns.
        EpochTurns::Turn alone(turns, 0, nullptr);
        alone.batchFinished({});
        alone.epochFinished({});
    }
};

QTEST_GUILESS_MAIN(TestEpochTurns)
#include "test_EpochTurns.moc"
