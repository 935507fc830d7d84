// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "runtime/ParallelFor.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using gpumem::runtime::parallelFor;

class TestParallelFor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void runsEveryIndexOnce_data()
    {
        addColumns<int, int>("count", "workers");
        addRow("one worker", 50, 1);
        addRow("two workers", 50, 2);
        addRow("more workers than indices", 3, 16);
        addRow("no workers asked", 7, 0);
        addRow("nothing to do", 0, 2);
    }

    void runsEveryIndexOnce()
    {
        QFETCH(int, count);
        QFETCH(int, workers);
        std::vector<std::atomic<int>> calls(static_cast<std::size_t>(count));
        parallelFor(static_cast<std::size_t>(count), workers, [&](std::size_t index) { ++calls[index]; });
        for (int index = 0; index < count; ++index)
            QCOMPARE(calls[static_cast<std::size_t>(index)].load(), 1);
    }

    void usesNoMoreThreadsThanAskedOrThanHardware()
    {
        std::mutex mutex;
        std::set<std::thread::id> seen;
        parallelFor(200, 2, [&](std::size_t) {
            const std::lock_guard lock(mutex);
            seen.insert(std::this_thread::get_id());
        });
        const std::size_t hardware = std::max(1u, std::thread::hardware_concurrency());
        QVERIFY(seen.size() >= 1);
        QVERIFY(seen.size() <= std::min<std::size_t>(2, hardware));
    }

    void callingThreadIsOneOfTheWorkers()
    {
        std::atomic<bool> ranHere{false};
        const auto caller = std::this_thread::get_id();
        parallelFor(1, 4, [&](std::size_t) { ranHere = std::this_thread::get_id() == caller; });
        QVERIFY(ranHere.load());
    }

    void stopLeavesLaterIndicesUnstarted()
    {
        // One worker takes indices in order, so stopping after the fifth leaves exactly five done.
        std::atomic<int> done{0};
        parallelFor(
            100, 1, [&](std::size_t) { ++done; }, [&] { return done.load() >= 5; });
        QCOMPARE(done.load(), 5);
    }

    void firstExceptionIsRethrownAfterTheOthersReturn_data()
    {
        addColumns<int>("workers");
        addRow("one worker", 1);
        addRow("two workers", 2);
    }

    void firstExceptionIsRethrownAfterTheOthersReturn()
    {
        QFETCH(int, workers);
        std::atomic<int> started{0};
        std::atomic<int> finished{0};
        bool thrown = false;
        try {
            parallelFor(1000, workers, [&](std::size_t index) {
                ++started;
                if (index == 3)
                    throw std::runtime_error("tree 3 failed");
                ++finished;
            });
        } catch (const std::runtime_error &error) {
            thrown = true;
            QCOMPARE(QString(error.what()), QString("tree 3 failed"));
        }
        QVERIFY(thrown);
        // Every task that started has returned before the rethrow.
        QCOMPARE(finished.load() + 1, started.load());
        // A lone worker takes indices in order: nothing after the failing one starts.
        if (workers == 1)
            QCOMPARE(started.load(), 4);
    }

    // Tasks that wait on one another run each on a thread of its own: every one
    // of more tasks than cores is running before any returns.
    void eachTaskHasAThreadOfItsOwn()
    {
        const std::size_t count = std::max(1u, std::thread::hardware_concurrency()) + 2;
        std::mutex mutex;
        std::condition_variable allStarted;
        std::size_t running = 0;
        std::atomic<int> sawAll{0};
        QVERIFY(gpumem::runtime::runEachOnItsOwnThread(count, [&](std::size_t) {
            std::unique_lock lock(mutex);
            ++running;
            allStarted.notify_all();
            // A bounded wait: on shared threads the test fails instead of hanging.
            if (allStarted.wait_for(lock, std::chrono::seconds(30), [&] { return running == count; }))
                ++sawAll;
        }));
        QCOMPARE(sawAll.load(), static_cast<int>(count));
    }

    // A task that throws stops no other: all run to their end, then the lowest
    // index's exception is rethrown.
    void everyTaskRunsThoughOneThrows()
    {
        std::atomic<int> finished{0};
        bool thrown = false;
        try {
            gpumem::runtime::runEachOnItsOwnThread(4, [&](std::size_t index) {
                if (index == 1 || index == 3)
                    throw std::runtime_error("task " + std::to_string(index) + " failed");
                ++finished;
            });
        } catch (const std::runtime_error &error) {
            thrown = true;
            QCOMPARE(QString(error.what()), QString("task 1 failed"));
        }
        QVERIFY(thrown);
        QCOMPARE(finished.load(), 2);
    }
};

QTEST_GUILESS_MAIN(TestParallelFor)
#include "test_ParallelFor.moc"
