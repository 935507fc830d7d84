// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"

#include "models/RandomForestRegressor.h"

#include <QTest>

#include <cmath>

using gpumem::models::ComputeSettings, gpumem::models::randomForestHyperparameters,
    gpumem::models::RandomForestRegressor;

namespace {

// Cancels the fit once a given number of trees have been reported.
class CancelAfter : public gpumem::training::TrainingObserver
{
  public:
    CancelAfter(gpumem::runtime::OperationControl &control, int trees)
        : mControl(control)
        , mTrees(trees)
    {
    }
    void epochFinished(const gpumem::training::EpochProgress &progress) override
    {
        epochs.push_back(progress.epoch);
        if (progress.epoch == mTrees)
            mControl.cancel();
    }
    std::vector<int> epochs;

  private:
    gpumem::runtime::OperationControl &mControl;
    int mTrees;
};

ComputeSettings threads(int count)
{
    return gpumem::tests::cpuSettings(5, count);
}

} // namespace

class TestRandomForestRegressor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void threadCountDoesNotChangeTheForest()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(300, 5.0));
        auto hyperparameters = randomForestHyperparameters();
        hyperparameters.setAssignment("n_estimators=12");
        hyperparameters.setAssignment("max_features=0.5");
        RandomForestRegressor one(hyperparameters, threads(1));
        RandomForestRegressor two(hyperparameters, threads(2));
        const auto rows = gpumem::tests::firstRows(250);
        one.fit(dataset, rows);
        two.fit(dataset, rows);
        QCOMPARE(one.predict(dataset), two.predict(dataset));
        // Bootstrap samples differ per tree, so the trees differ.
        QVERIFY(one.trees()[0].predict(Eigen::MatrixXd::Zero(1, 4)) !=
                one.trees()[1].predict(Eigen::MatrixXd::Zero(1, 4)));
    }

    void defaultsAreScikitLearns()
    {
        const auto hyperparameters = randomForestHyperparameters();
        QCOMPARE(hyperparameters.integer("n_estimators"), std::int64_t{100});
        QCOMPARE(hyperparameters.integer("max_depth"), std::int64_t{0});
        QCOMPARE(hyperparameters.integer("min_samples_split"), std::int64_t{2});
        QCOMPARE(hyperparameters.integer("min_samples_leaf"), std::int64_t{1});
        QCOMPARE(hyperparameters.real("max_features"), 1.0);
        QVERIFY(hyperparameters.boolean("bootstrap"));
    }

    void fitsTheHeldOutRowsWell()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(600, 2.0));
        auto hyperparameters = randomForestHyperparameters();
        hyperparameters.setAssignment("n_estimators=30");
        RandomForestRegressor forest(hyperparameters, threads(2));
        forest.fit(dataset, gpumem::tests::firstRows(500));
        const Eigen::VectorXd predicted = forest.predict(dataset).tail(100);
        const Eigen::VectorXd actual = dataset.target().tail(100);
        // The target spans about 550 MiB (standard deviation ≈ 130); a forest of
        // piecewise-constant trees should land within a small fraction of it.
        QVERIFY2(gpumem::tests::rootMeanSquare(predicted, actual) < 20.0,
                 std::to_string(gpumem::tests::rootMeanSquare(predicted, actual)).c_str());
    }

    void reportsEveryTreeAndCancels()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(200, 5.0));
        auto hyperparameters = randomForestHyperparameters();
        hyperparameters.setAssignment("n_estimators=40");
        for (const int count : {1, 2}) {
            RandomForestRegressor forest(hyperparameters, threads(count));
            gpumem::runtime::OperationControl control;
            CancelAfter observer(control, 3);
            const auto result = forest.fit(dataset, gpumem::tests::firstRows(200), &observer, &control);
            QCOMPARE(result.stopReason, gpumem::training::StopReason::Cancelled);
            QVERIFY(!forest.isFitted());
            QVERIFY(observer.epochs.size() >= 3 && observer.epochs.size() < 40);
            for (std::size_t index = 0; index < observer.epochs.size(); ++index)
                QCOMPARE(observer.epochs[index], static_cast<int>(index) + 1);
        }
        RandomForestRegressor forest(hyperparameters, threads(2));
        gpumem::runtime::OperationControl control;
        CancelAfter observer(control, 1000);
        const auto result = forest.fit(dataset, gpumem::tests::firstRows(200), &observer, &control);
        QCOMPARE(result.stopReason, gpumem::training::StopReason::Completed);
        QCOMPARE(observer.epochs.size(), std::size_t{40});
        QCOMPARE(result.epochs.size(), std::size_t{40});
        QVERIFY(std::isnan(result.epochs.back().trainLoss));
        QCOMPARE(result.epochs.back().epochs, 40);
    }
};

QTEST_APPLESS_MAIN(TestRandomForestRegressor)
#include "test_RandomForestRegressor.moc"
