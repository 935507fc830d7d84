// SPDX-License-Identifier: GPL-3.0-or-later
// The one shape of every long operation: progress throttled at its source
// (runtime::ProgressThrottle), a training's share of batches done (training::
// FitProgressRelay), the probe's observer, and the control that pauses, resumes
// and cancels any of them (runtime::OperationControl).
#include "probe/ProbeRunner.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"
#include "training/FitProgressRelay.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <thread>
#include <vector>

using namespace gpumem;

namespace {

class ShareLog : public virtual runtime::ProgressObserver
{
  public:
    void progressChanged(double share) override { shares.push_back(share); }
    std::vector<double> shares;
};

// A training observer that also keeps what the relay passes on.
class TrainingLog : public training::TrainingObserver, public ShareLog
{
  public:
    void batchFinished(const training::BatchProgress &) override { ++batches; }
    void epochFinished(const training::EpochProgress &) override { ++epochs; }
    int batches = 0;
    int epochs = 0;
};

// Feeds a relay the batches and epochs of a training of epochs × batches.
void train(training::TrainingObserver &observer, int epochs, int batches)
{
    for (int epoch = 1; epoch <= epochs; ++epoch) {
        for (int batch = 1; batch <= batches; ++batch) {
            training::BatchProgress progress;
            progress.epoch = epoch;
            progress.epochs = epochs;
            progress.batch = batch;
            progress.batches = batches;
            observer.batchFinished(progress);
        }
        training::EpochProgress progress;
        progress.epoch = epoch;
        progress.epochs = epochs;
        observer.epochFinished(progress);
    }
}

class ProbeLog : public probe::ProbeObserver, public ShareLog
{
  public:
    void jobFinished(const probe::ProbeProgress &progress) override
    {
        jobs.push_back(progress.done);
        total = progress.total;
        if (pauseAfterFirst && control && progress.done == 1)
            control->pause();
    }
    std::vector<std::uint64_t> jobs;
    std::uint64_t total = 0;
    bool pauseAfterFirst = false;
    runtime::OperationControl *control = nullptr;
};

probe::ProbeOptions probeOptions(const QTemporaryDir &folder, std::uint64_t count)
{
    probe::ProbeOptions options;
    options.family = probe::JobFamily::Mlp;
    options.count = count;
    options.seed = 5;
    options.steps = 1;
    options.outPath = folder.filePath(QStringLiteral("probe.csv")).toStdString();
    return options;
}

} // namespace

class TestOperationProgress : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void theThrottleReportsOnlyVisibleStepsAndTheEndOnce()
    {
        ShareLog log;
        runtime::ProgressThrottle throttle(&log, 0.1);
        for (const double share : {0.05, 0.1, 0.15, 0.19, 0.2, 0.12, 0.95, 1.0, 1.0, 1.5})
            throttle.advance(share);
        // 0.05 is below a step; 0.12 goes back; 0.95 and the first 1.0 (the end) report.
        const std::vector<double> expected{0.1, 0.2, 0.95, 1.0};
        QCOMPARE(log.shares, expected);
        QCOMPARE(throttle.reported(), 1.0);
    }

    void exactHundredthsAreNotLostToRounding()
    {
        ShareLog log;
        runtime::ProgressThrottle throttle(&log);
        for (int step = 1; step <= 100; ++step)
            throttle.advance(step / 100.0);
        QCOMPARE(log.shares.size(), std::size_t{100});
    }

    void aThrottleWithoutObserverDoesNothing()
    {
        runtime::ProgressThrottle throttle(nullptr);
        QVERIFY(!throttle.isWatched());
        throttle.advance(1.0);
        QCOMPARE(throttle.reported(), 0.0);
    }

    void aTrainingReportsItsShareOfBatchesDone()
    {
        // 3 epochs of 7 batches: each batch is 1/21 of the fit, more than a visible step.
        TrainingLog log;
        training::FitProgressRelay relay(&log);
        train(relay, 3, 7);
        QCOMPARE(log.batches, 21);
        QCOMPARE(log.epochs, 3);
        QCOMPARE(log.shares.size(), std::size_t{21});
        for (std::size_t i = 0; i < log.shares.size(); ++i)
            QCOMPARE(log.shares[i], static_cast<double>(i + 1) / 21.0);
    }

    void aLongTrainingReportsAboutAHundredTimes()
    {
        // 4 epochs of 500 batches: 2,000 batches, one report per 1% (20 batches).
        TrainingLog log;
        training::FitProgressRelay relay(&log);
        train(relay, 4, 500);
        QCOMPARE(log.batches, 2000);
        QCOMPARE(log.shares.size(), std::size_t{100});
        QCOMPARE(log.shares.front(), 0.01);
        QCOMPARE(log.shares.back(), 1.0);
    }

    void aModelThatReportsOnlyEpochsStillMoves()
    {
        // A forest reports each tree as an epoch: 4 trees, quarters.
        TrainingLog log;
        training::FitProgressRelay relay(&log);
        train(relay, 4, 0);
        const std::vector<double> expected{0.25, 0.5, 0.75, 1.0};
        QCOMPARE(log.shares, expected);
    }

    void cancelWakesAPausedWaiter()
    {
        runtime::OperationControl control;
        control.pause();
        QVERIFY(control.isPaused());
        bool goOn = true;
        std::thread waiter([&] { goOn = control.waitWhilePaused(); });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        control.cancel();
        waiter.join();
        QVERIFY(!goOn);
        QVERIFY(control.isCancelled());
    }

    void resumeLetsAPausedWaiterGoOn()
    {
        runtime::OperationControl control;
        QVERIFY(control.waitWhilePaused()); // not paused: returns at once
        control.pause();
        bool goOn = false;
        std::thread waiter([&] { goOn = control.waitWhilePaused(); });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        control.resume();
        waiter.join();
        QVERIFY(goOn);
        QVERIFY(!control.isPaused());
    }

    void theProbeReportsEachJobAndEndsAtOne()
    {
        QTemporaryDir folder;
        ProbeLog log;
        const probe::ProbeSummary summary = probe::ProbeRunner(probeOptions(folder, 4)).run(&log);
        QCOMPARE(summary.measured, std::uint64_t{4});
        const std::vector<std::uint64_t> jobs{1, 2, 3, 4};
        QCOMPARE(log.jobs, jobs);
        QCOMPARE(log.total, std::uint64_t{4});
        const std::vector<double> shares{0.25, 0.5, 0.75, 1.0};
        QCOMPARE(log.shares, shares);
    }

    void aCancelledControlStopsTheProbeBeforeItsFirstJob()
    {
        QTemporaryDir folder;
        runtime::OperationControl control;
        control.cancel();
        ProbeLog log;
        const probe::ProbeSummary summary = probe::ProbeRunner(probeOptions(folder, 3)).run(&log, &control);
        QVERIFY(summary.cancelled);
        QCOMPARE(summary.measured, std::uint64_t{0});
        QVERIFY(log.jobs.empty());
        // The rows so far stay in the partial file; the output is not made.
        QVERIFY(!QFile::exists(folder.filePath(QStringLiteral("probe.csv"))));
    }

    void aPausedProbeWaitsBetweenJobsAndACancelEndsIt()
    {
        QTemporaryDir folder;
        runtime::OperationControl control;
        ProbeLog log;
        log.control = &control;
        log.pauseAfterFirst = true;
        probe::ProbeSummary summary;
        std::thread run([&] { summary = probe::ProbeRunner(probeOptions(folder, 3)).run(&log, &control); });
        while (!control.isPaused())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        control.cancel();
        run.join();
        QVERIFY(summary.cancelled);
        // Paused after the first job, it measured no other.
        QCOMPARE(summary.measured, std::uint64_t{1});
        QCOMPARE(log.jobs, std::vector<std::uint64_t>{1});
    }
};

QTEST_GUILESS_MAIN(TestOperationProgress)
#include "test_OperationProgress.moc"
