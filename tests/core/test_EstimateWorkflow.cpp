// SPDX-License-Identifier: GPL-3.0-or-later
#include "EstimateFixtures.h"
#include "workflows/EstimateWorkflow.h"

#include <QTest>

#include <chrono>
#include <thread>
#include <vector>

using namespace gpumem;

namespace {

// Keeps every share an estimate reports, and cancels control at the first when asked.
class RecordingObserver : public runtime::ProgressObserver
{
  public:
    explicit RecordingObserver(runtime::OperationControl *cancelAtFirst = nullptr)
        : mCancelAtFirst(cancelAtFirst)
    {
    }

    void progressChanged(double fraction) override
    {
        shares.push_back(fraction);
        if (mCancelAtFirst)
            mCancelAtFirst->cancel();
    }

    std::vector<double> shares;

  private:
    runtime::OperationControl *mCancelAtFirst;
};

workflows::EstimateSettings settingsFor(const std::string &model, std::vector<std::int64_t> shape)
{
    workflows::EstimateSettings settings;
    settings.model.modelPath = model;
    settings.model.inputShapes = {std::move(shape)};
    settings.request.batchSizes = {4, 64};
    settings.request.maxBatch = true;
    return settings;
}

} // namespace

class TestEstimateWorkflow : public QObject, private tests::UsesEstimateFixtures
{
    Q_OBJECT

  private Q_SLOTS:
    void reportsItsProgressUpToOne()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        RecordingObserver observer;
        workflows::EstimateSettings settings = settingsFor(mFixtures.path("mlp.pt"), {20});
        settings.everyProfile = true;
        const workflows::EstimateOutcome outcome = workflows::estimateModel(settings, &observer);
        QCOMPARE(outcome.result.estimates.size(), std::size_t{2});
        QVERIFY(!outcome.profiles.empty());
        QCOMPARE(outcome.result.maxBatchByProfile.size(), outcome.profiles.size());
        QVERIFY(observer.shares.size() >= 2);
        for (std::size_t i = 1; i < observer.shares.size(); ++i)
            QVERIFY(observer.shares[i] > observer.shares[i - 1]);
        QCOMPARE(observer.shares.back(), 1.0);
    }

    void stopsAtTheNextStepOnceCancelled()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        runtime::OperationControl control;
        RecordingObserver observer(&control); // cancels when the first trace is done
        QVERIFY_THROWS_EXCEPTION(
            estimate::EstimateCancelled,
            workflows::estimateModel(settingsFor(mFixtures.path("mlp.pt"), {20}), &observer, &control));
        QCOMPARE(observer.shares.size(), std::size_t{1});
        QVERIFY(observer.shares.front() < 1.0);
    }

    // The Your model page's Cancel could only ignore a result: the trace ran on for as
    // long as the model took. A cancel now stops it within a phase of a traced step.
    void aCancelStopsTheTraceWithinASecond()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        using Clock = std::chrono::steady_clock;
        // Large images and many steps, so that the traces take seconds.
        workflows::EstimateSettings settings = settingsFor(mFixtures.path("cnn.pt"), {3, 768, 768});
        settings.model.steps = 10;
        runtime::OperationControl control;
        bool cancelled = false;
        Clock::time_point ended;
        std::thread worker([&] {
            try {
                workflows::estimateModel(settings, nullptr, &control);
            } catch (const estimate::EstimateCancelled &) {
                cancelled = true;
            }
            ended = Clock::now();
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        const Clock::time_point cancelledAt = Clock::now();
        control.cancel();
        worker.join();
        QVERIFY2(cancelled, "the estimate ended before the cancel; make its traces longer");
        const double seconds = std::chrono::duration<double>(ended - cancelledAt).count();
        QVERIFY2(seconds < 1.0, qPrintable(QStringLiteral("stopped %1 s after the cancel").arg(seconds)));
    }
};

QTEST_GUILESS_MAIN(TestEstimateWorkflow)
#include "test_EstimateWorkflow.moc"
