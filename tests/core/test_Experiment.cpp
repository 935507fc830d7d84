// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment runner: identical splits for every model, metrics recomputed
// independently from the out-of-fold predictions, determinism under parallel
// fits, and cancellation.
#include "GridJobs.h"

#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "evaluation/Experiment.h"
#include "io/InputError.h"
#include "models/RegressorRegistry.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <initializer_list>

using namespace gpumem;

namespace {

// y = 3·a − 2·b + 100 over a small grid: any sensible regressor learns it.
data::Dataset linearDataset(int rows)
{
    return tests::datasetOf(data::loadTableFromText(tests::gridJobsCsv(rows, 7, 3), "linear.csv"), "y");
}

evaluation::ModelSpec quickNetwork(int epochs)
{
    models::Hyperparameters hyperparameters = models::regressorHyperparameters("bigru_transformer");
    hyperparameters.setAssignment("d_model=8");
    hyperparameters.setAssignment("gru_hidden=4");
    hyperparameters.setAssignment("heads=2");
    hyperparameters.setAssignment("feedforward=16");
    hyperparameters.setAssignment("head_hidden=8");
    hyperparameters.setAssignment("epochs=" + std::to_string(epochs));
    hyperparameters.setAssignment("batch_size=16");
    hyperparameters.setAssignment("ensemble=1");
    return {"bigru_transformer", hyperparameters};
}

// An experiment of one quick network per entry of epochs, in that order.
evaluation::ExperimentSettings quickNetworks(std::initializer_list<int> epochs)
{
    evaluation::ExperimentSettings settings;
    for (const int count : epochs)
        settings.models.push_back(quickNetwork(count));
    return settings;
}

// Cancels the run when the first epoch of any fit finishes.
class CancelOnFirstEpoch : public evaluation::ExperimentObserver
{
  public:
    explicit CancelOnFirstEpoch(runtime::OperationControl &control)
        : mControl(control)
    {
    }
    void epochFinished(const std::string &, int, const training::EpochProgress &) override { mControl.cancel(); }

  private:
    runtime::OperationControl &mControl;
};

// Records the order of events to check their shape.
class EventLog : public evaluation::ExperimentObserver
{
  public:
    void fitStarted(const std::string &, int, int folds) override
    {
        ++started;
        foldCount = folds;
    }
    void foldFinished(const std::string &, const evaluation::FoldResult &) override { ++finished; }
    void modelFinished(const evaluation::ModelResult &) override { ++models; }
    void progressChanged(double fraction) override { lastFraction = fraction; }

    int started = 0;
    int finished = 0;
    int models = 0;
    int foldCount = 0;
    double lastFraction = 0.0;
};

} // namespace

class TestExperiment : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void everyModelSeesTheSameFolds();
    void foldMetricsMatchTheOutOfFoldPredictions();
    void parallelFitsChangeNothing();
    void holdOutScoresOnlyTheTestRows();
    void cancelStopsTheRun();
    void aFailingModelLeavesTheOthersToFinish();
    void badSettingsAreRefusedBeforeFitting();
    void repeatedFoldsGiveEachRepetitionItsOwnFoldsAndSeed();
    void groupedFoldsReachTheRunner();
};

void TestExperiment::everyModelSeesTheSameFolds()
{
    const data::Dataset dataset = linearDataset(40);
    evaluation::ExperimentSettings settings = quickNetworks({2, 3});
    settings.folds = 4;
    EventLog log;
    const evaluation::ExperimentResult result = evaluation::runExperiment(dataset, settings, &log);
    QCOMPARE(result.splits.size(), std::size_t{4});
    QCOMPARE(result.models.size(), std::size_t{2});
    QCOMPARE(log.started, 8);
    QCOMPARE(log.finished, 8);
    QCOMPARE(log.models, 2);
    QCOMPARE(log.foldCount, 4);
    QCOMPARE(log.lastFraction, 1.0);
    // The splits are kFoldSplits of the same seed, and both models scored every row exactly once.
    const auto expected = evaluation::kFoldSplits(40, 4, settings.seed);
    for (std::size_t fold = 0; fold < expected.size(); ++fold)
        QCOMPARE(result.splits[fold].test, expected[fold].test);
    for (const auto &model : result.models)
        QVERIFY(model.predictions.allFinite());
    QCOMPARE(result.actual, dataset.target());
    // Four folds are too few for any test to be shown (evaluation::minimumReportedPairs).
    QCOMPARE(result.significance.size(), std::size_t{2});
    for (const auto &test : result.significance)
        QVERIFY(!test.reported);
}

void TestExperiment::foldMetricsMatchTheOutOfFoldPredictions()
{
    const data::Dataset dataset = linearDataset(30);
    evaluation::ExperimentSettings settings = quickNetworks({2});
    settings.folds = 3;
    const evaluation::ExperimentResult result = evaluation::runExperiment(dataset, settings);
    const evaluation::ModelResult &model = result.models.front();
    double meanRmse = 0.0;
    for (const auto &fold : model.folds) {
        double squares = 0.0;
        double absolutes = 0.0;
        for (Eigen::Index row : result.splits[static_cast<std::size_t>(fold.fold)].test) {
            const double error = model.predictions[row] - dataset.target()[row];
            squares += error * error;
            absolutes += std::abs(error);
        }
        const auto count = static_cast<double>(result.splits[static_cast<std::size_t>(fold.fold)].test.size());
        QVERIFY(std::abs(fold.metrics.mse - squares / count) < 1e-9 * (1.0 + squares));
        QVERIFY(std::abs(fold.metrics.mae - absolutes / count) < 1e-9 * (1.0 + absolutes));
        QVERIFY(std::abs(fold.metrics.rmse - std::sqrt(fold.metrics.mse)) < 1e-12 * (1.0 + fold.metrics.rmse));
        meanRmse += fold.metrics.rmse / 3.0;
    }
    QVERIFY(std::abs(model.mean.rmse - meanRmse) < 1e-9);
    QCOMPARE(result.best, std::string("bigru_transformer"));
    QVERIFY(model.trainSeconds > 0.0);
}

void TestExperiment::parallelFitsChangeNothing()
{
    const data::Dataset dataset = linearDataset(36);
    evaluation::ExperimentSettings settings = quickNetworks({2, 2});
    settings.folds = 3;
    const auto sequential = evaluation::runExperiment(dataset, settings);
    settings.parallelFits = 3;
    const auto parallel = evaluation::runExperiment(dataset, settings);
    for (std::size_t m = 0; m < 2; ++m) {
        QCOMPARE(parallel.models[m].predictions, sequential.models[m].predictions);
        QCOMPARE(parallel.models[m].mean.rmse, sequential.models[m].mean.rmse);
    }
    // Two identical specifications give identical models: the seed, not the order, decides.
    QCOMPARE(sequential.models[0].predictions, sequential.models[1].predictions);
}

void TestExperiment::holdOutScoresOnlyTheTestRows()
{
    const data::Dataset dataset = linearDataset(50);
    evaluation::ExperimentSettings settings = quickNetworks({2, 4});
    settings.testFraction = 0.2;
    const auto result = evaluation::runExperiment(dataset, settings);
    QCOMPARE(result.splits.size(), std::size_t{1});
    QCOMPARE(result.splits.front().test.size(), std::size_t{10});
    const auto &predictions = result.models.front().predictions;
    QCOMPARE(static_cast<std::size_t>((predictions.array() == predictions.array()).count()), std::size_t{10});
    QCOMPARE(result.models.front().standardDeviation.rmse, 0.0);
    // A hold-out pairs the per-row squared errors: both tests, one reported.
    QCOMPARE(result.significance.size(), std::size_t{2});
    for (const auto &test : result.significance) {
        QCOMPARE(test.pairs, 10);
        QCOMPARE(test.versus, result.best);
        QCOMPARE(test.reported, test.test == "wilcoxon");
    }
}

void TestExperiment::cancelStopsTheRun()
{
    const data::Dataset dataset = linearDataset(40);
    evaluation::ExperimentSettings settings = quickNetworks({50});
    settings.folds = 4;
    runtime::OperationControl control;
    CancelOnFirstEpoch canceller(control);
    const auto result = evaluation::runExperiment(dataset, settings, &canceller, &control);
    QVERIFY(result.cancelled);
    QVERIFY(result.models.empty());
    QVERIFY(result.significance.empty());
}

void TestExperiment::aFailingModelLeavesTheOthersToFinish()
{
    const data::Dataset dataset = linearDataset(30);
    evaluation::ModelSpec broken = quickNetwork(1);
    broken.hyperparameters.setAssignment("heads=3"); // does not divide d_model = 8
    evaluation::ExperimentSettings settings;
    settings.models = {broken, quickNetwork(1)};
    settings.folds = 3;
    settings.parallelFits = 2;
    const auto result = evaluation::runExperiment(dataset, settings);
    QCOMPARE(result.models.size(), std::size_t{1});
    QCOMPARE(result.failures.size(), std::size_t{1});
    QCOMPARE(result.failures.front().model, std::string("bigru_transformer"));
    QVERIFY2(result.failures.front().message.find("heads") != std::string::npos,
             result.failures.front().message.c_str());
    QCOMPARE(result.warnings.size(), std::size_t{1});
    QCOMPARE(result.best, std::string("bigru_transformer"));
    QVERIFY(result.models.front().predictions.allFinite());

    settings.models = {broken};
    QVERIFY_THROWS_EXCEPTION(io::InputError, evaluation::runExperiment(dataset, settings));
}

void TestExperiment::badSettingsAreRefusedBeforeFitting()
{
    const data::Dataset dataset = linearDataset(5);
    evaluation::ExperimentSettings settings;
    settings.models = {{"no_such_model", {}}};
    QVERIFY_THROWS_EXCEPTION(io::InputError, evaluation::runExperiment(dataset, settings));
    settings.models = {quickNetwork(1)};
    settings.folds = 6; // more folds than rows
    QVERIFY_THROWS_EXCEPTION(io::InputError, evaluation::runExperiment(dataset, settings));
    settings.models.clear();
    settings.folds = 2;
    QVERIFY_THROWS_EXCEPTION(io::InputError, evaluation::runExperiment(dataset, settings));
}

void TestExperiment::repeatedFoldsGiveEachRepetitionItsOwnFoldsAndSeed()
{
    const data::Dataset dataset = linearDataset(30);
    evaluation::ExperimentSettings settings = quickNetworks({2, 3});
    settings.folds = 3;
    settings.repeats = 2;
    const evaluation::ExperimentResult result = evaluation::runExperiment(dataset, settings);
    QCOMPARE(result.repeats, 2);
    QCOMPARE(result.splits.size(), std::size_t{6});
    QCOMPARE(evaluation::splitsPerRepetition(result), std::size_t{3});
    for (int repetition = 0; repetition < 2; ++repetition) {
        // Within a repetition the test parts are disjoint and cover every row.
        std::vector<int> tested(30, 0);
        const auto expected = evaluation::kFoldSplits(30, 3, evaluation::repetitionSeed(settings.seed, repetition));
        for (std::size_t fold = 0; fold < 3; ++fold) {
            const auto &split = result.splits[static_cast<std::size_t>(repetition) * 3 + fold];
            QCOMPARE(split.test, expected[fold].test);
            for (Eigen::Index row : split.test)
                ++tested[static_cast<std::size_t>(row)];
        }
        QCOMPARE(std::count(tested.begin(), tested.end(), 1), 30L);
    }
    QVERIFY(result.splits[0].test != result.splits[3].test);

    const evaluation::ModelResult &model = result.models.front();
    QCOMPARE(model.folds.size(), std::size_t{6});
    double means[2] = {0.0, 0.0};
    double overall = 0.0;
    for (const auto &fold : model.folds) {
        QCOMPARE(fold.repetition, fold.fold / 3);
        means[fold.repetition] += fold.metrics.rmse / 3.0;
        overall += fold.metrics.rmse / 6.0;
    }
    QVERIFY(std::abs(model.mean.rmse - overall) < 1e-9);
    // The sample standard deviation of two values is their distance over √2.
    QVERIFY(std::abs(model.repetitionSpread.rmse - std::abs(means[0] - means[1]) / std::sqrt(2.0)) < 1e-9);

    // Repetition 1 is exactly the plain cross-validation of its own seed: new folds and a new training seed.
    evaluation::ExperimentSettings single = settings;
    single.repeats = 1;
    single.seed = evaluation::repetitionSeed(settings.seed, 1);
    const evaluation::ExperimentResult alone = evaluation::runExperiment(dataset, single);
    for (std::size_t fold = 0; fold < 3; ++fold)
        QCOMPARE(alone.models.front().folds[fold].metrics.rmse, model.folds[3 + fold].metrics.rmse);

    // Repeated folds share training rows: only the corrected test is valid, and it is the one reported.
    QCOMPARE(result.significance.size(), std::size_t{1});
    QCOMPARE(result.significance.front().test, std::string("corrected_t"));
    QCOMPARE(result.significance.front().pairs, 6);
    QVERIFY(result.significance.front().reported);
}

void TestExperiment::groupedFoldsReachTheRunner()
{
    const data::Dataset dataset = linearDataset(24);
    evaluation::ExperimentSettings settings = quickNetworks({1});
    settings.folds = 3;
    for (std::int64_t row = 0; row < 24; ++row)
        settings.groups.push_back(row % 6);
    const auto result = evaluation::runExperiment(dataset, settings);
    const auto expected = evaluation::groupedKFoldSplits(settings.groups, 3, settings.seed);
    for (std::size_t fold = 0; fold < 3; ++fold)
        QCOMPARE(result.splits[fold].test, expected[fold].test);
    // Repetitions and groups need folds: a hold-out is refused before any fit.
    settings.testFraction = 0.2;
    QVERIFY_THROWS_EXCEPTION(io::InputError, evaluation::runExperiment(dataset, settings));
    settings.groups.clear();
    settings.repeats = 2;
    QVERIFY_THROWS_EXCEPTION(io::InputError, evaluation::runExperiment(dataset, settings));
}

QTEST_APPLESS_MAIN(TestExperiment)
#include "test_Experiment.moc"
