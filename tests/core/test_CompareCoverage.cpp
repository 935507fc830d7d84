// SPDX-License-Identifier: GPL-3.0-or-later
// Calibrated upper bounds in comparisons: every fold calibrates inside its own
// training rows, the bound's metrics are recomputed independently from the
// out-of-fold bounds, parallel fits change nothing, and without a coverage the
// results carry no bound at all.
#include "CommandLineRun.h"
#include "CoverageFixtures.h"
#include "DataTables.h"
#include "RaisedInputError.h"

#include "calibration/BoundMetrics.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "evaluation/Experiment.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "models/RegressorRegistry.h"
#include "report/ComparisonReport.h"
#include "report/ExperimentJson.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

using namespace gpumem;
using namespace gpumem::tests;

namespace {

// y = 3·a − 2·b + 100 plus noise that grows with a: a model's misses depend on the job.
data::Dataset noisyDataset(int rows)
{
    const auto noise = [](int row, int a) { return (a + 1) * std::sin(row * 1.7); };
    return datasetOf(data::loadTableFromText(gridJobsCsv(rows, 13, 7, noise), "noisy.csv"), "y");
}

} // namespace

class TestCompareCoverage : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // Regression: a fold's calibration rows must come from its training rows only;
    // calibrating on test rows would make the reported coverage a promise kept on paper.
    void calibrationRowsNeverOverlapTheTestRows()
    {
        const data::Dataset dataset = noisyDataset(120);
        const auto result = evaluation::runExperiment(
            dataset, calibratedSettings({"ridge", "decision_tree"}, 3, 0.9, calibration::Score::Absolute));
        QCOMPARE(result.models.size(), std::size_t{2});
        for (const auto &model : result.models) {
            QVERIFY(model.bound.has_value());
            for (const auto &fold : model.folds) {
                QVERIFY(fold.bound.has_value());
                const auto &split = result.splits[static_cast<std::size_t>(fold.fold)];
                const std::set<Eigen::Index> test(split.test.begin(), split.test.end());
                const std::set<Eigen::Index> train(split.train.begin(), split.train.end());
                QCOMPARE(fold.bound->calibrationRows.size(), std::size_t{40}); // half of 80 training rows
                QCOMPARE(fold.bound->calibrationRowCount, std::size_t{40});
                for (Eigen::Index row : fold.bound->calibrationRows) {
                    QVERIFY(test.count(row) == 0);
                    QVERIFY(train.count(row) == 1);
                }
            }
        }
    }

    // The fold's bound metrics, recomputed here from the out-of-fold bounds and
    // predictions with plain loops, match what the runner reported.
    void boundMetricsMatchTheOutOfFoldBounds()
    {
        const data::Dataset dataset = noisyDataset(120);
        const auto result =
            evaluation::runExperiment(dataset, calibratedSettings({"ridge"}, 3, 0.9, calibration::Score::Relative));
        const auto &model = result.models.front();
        double meanUnder = 0.0;
        double meanWaste = 0.0;
        double meanTenPercentWaste = 0.0;
        for (const auto &fold : model.folds) {
            const auto &split = result.splits[static_cast<std::size_t>(fold.fold)];
            int under = 0;
            double waste = 0.0;
            double tenPercentWaste = 0.0;
            for (Eigen::Index row : split.test) {
                const double actual = dataset.target()[row];
                const double bound = model.bound->upperBounds[row];
                QVERIFY(std::isfinite(bound));
                QVERIFY(bound >= model.predictions[row] - 1e-9); // relative margins are not negative here
                under += actual > bound ? 1 : 0;
                waste += std::max(bound - actual, 0.0);
                tenPercentWaste += std::max(model.predictions[row] * 1.1 - actual, 0.0);
            }
            const auto n = static_cast<double>(split.test.size());
            QCOMPARE(fold.bound->bound.rows, split.test.size());
            QVERIFY(std::abs(fold.bound->bound.underPredictionRate - under / n) < 1e-12);
            QVERIFY(std::abs(fold.bound->bound.meanOverAllocation - waste / n) < 1e-9);
            QVERIFY(std::abs(fold.bound->tenPercent.meanOverAllocation - tenPercentWaste / n) < 1e-9);
            // The curve sweeps from no margin (the point prediction) to the largest score.
            QCOMPARE(fold.bound->curve.size(), std::size_t(evaluation::tradeOffPointCount));
            QCOMPARE(fold.bound->curve.front().margin, 0.0);
            QVERIFY(std::abs(fold.bound->curve.front().underPredictionRate - fold.metrics.underRate) < 1e-9);
            QVERIFY(fold.bound->curve.back().underPredictionRate <= fold.bound->curve.front().underPredictionRate);
            meanUnder += fold.bound->bound.underPredictionRate / 3.0;
            meanWaste += fold.bound->bound.meanOverAllocation / 3.0;
            meanTenPercentWaste += fold.bound->tenPercent.meanOverAllocation / 3.0;
        }
        QVERIFY(std::abs(model.bound->bound.underPredictionRate - meanUnder) < 1e-12);
        QVERIFY(std::abs(model.bound->bound.meanOverAllocation - meanWaste) < 1e-9);
        QVERIFY(std::abs(model.bound->tenPercent.meanOverAllocation - meanTenPercentWaste) < 1e-9);
        QCOMPARE(model.bound->bound.rows, std::size_t{120});
        QCOMPARE(model.bound->curve.size(), std::size_t(evaluation::tradeOffPointCount));
        // Every row is tested once in k-fold cross-validation.
        QVERIFY(model.bound->upperBounds.allFinite());
    }

    // On rows whose noise grows with the job, every score keeps its promise on
    // the test rows (up to sampling slack) and beats no margin at all.
    void boundHoldsItsCoverageOnTheTestRows()
    {
        const data::Dataset dataset = noisyDataset(900);
        for (const auto score :
             {calibration::Score::Absolute, calibration::Score::Relative, calibration::Score::Difficulty}) {
            const auto result = evaluation::runExperiment(dataset, calibratedSettings({"ridge"}, 3, 0.9, score));
            const auto &model = result.models.front();
            const QByteArray name(calibration::scoreName(score).data());
            QVERIFY2(model.bound->bound.underPredictionRate <= 0.1 + 0.04, name);
            QVERIFY2(model.bound->bound.underPredictionRate < model.mean.underRate, name);
            QVERIFY2(model.bound->bound.meanOverAllocation > model.mean.overAllocation, name);
        }
    }

    // The fixed-headroom reference (its percentage chosen on the calibration
    // rows) is scored on the fold's test rows: applied here to the out-of-fold
    // predictions, it gives the reported metrics.
    void fixedHeadroomIsScoredOnTheTestRows()
    {
        const data::Dataset dataset = noisyDataset(120);
        const auto result =
            evaluation::runExperiment(dataset, calibratedSettings({"ridge"}, 3, 0.9, calibration::Score::Absolute));
        const auto &model = result.models.front();
        for (const auto &fold : model.folds) {
            QVERIFY(std::isfinite(fold.bound->fixedHeadroomPercent));
            const auto &split = result.splits[static_cast<std::size_t>(fold.fold)];
            const Eigen::VectorXd bounds =
                calibration::headroomBounds(model.predictions, fold.bound->fixedHeadroomPercent);
            const auto recomputed = calibration::boundMetrics(dataset.target(), bounds, split.test);
            QVERIFY(std::abs(recomputed.meanOverAllocation - fold.bound->fixedHeadroom.meanOverAllocation) < 1e-9);
            QCOMPARE(recomputed.underPredictionRate, fold.bound->fixedHeadroom.underPredictionRate);
        }
    }

    // Calibrated runs on the real fixture, with the difficulty score, give the
    // same results whatever the number of parallel fits.
    void parallelFitsChangeNoBound()
    {
        const data::Dataset dataset = jobsDataset();
        auto settings = calibratedSettings({"ridge", "decision_tree"}, 2, 0.8, calibration::Score::Difficulty);
        const auto serial = evaluation::runExperiment(dataset, settings);
        settings.parallelFits = 4;
        const auto parallel = evaluation::runExperiment(dataset, settings);
        QCOMPARE(serial.models.size(), parallel.models.size());
        for (std::size_t m = 0; m < serial.models.size(); ++m) {
            const auto &left = *serial.models[m].bound;
            const auto &right = *parallel.models[m].bound;
            QCOMPARE(left.bound.underPredictionRate, right.bound.underPredictionRate);
            QCOMPARE(left.bound.meanOverAllocation, right.bound.meanOverAllocation);
            QCOMPARE(left.fixedHeadroomPercent, right.fixedHeadroomPercent);
            for (Eigen::Index row = 0; row < left.upperBounds.size(); ++row)
                QCOMPARE(left.upperBounds[row], right.upperBounds[row]);
            for (std::size_t point = 0; point < left.curve.size(); ++point)
                QCOMPARE(left.curve[point].meanOverAllocation, right.curve[point].meanOverAllocation);
        }
    }

    // Without a coverage nothing is calibrated: no bound anywhere and the point
    // predictions come from a fit on every training row, as before.
    void noCoverageMeansNoBound()
    {
        const data::Dataset dataset = noisyDataset(60);
        evaluation::ExperimentSettings settings;
        settings.models.push_back({"ridge", models::regressorHyperparameters("ridge")});
        settings.folds = 3;
        const auto result = evaluation::runExperiment(dataset, settings);
        QVERIFY(!result.calibration.has_value());
        QVERIFY(!result.models.front().bound.has_value());
        for (const auto &fold : result.models.front().folds)
            QVERIFY(!fold.bound.has_value());
    }

    // A coverage the fold's calibration rows cannot serve fails that model in one line.
    void tooFewCalibrationRowsFailInOneLine()
    {
        const data::Dataset dataset = noisyDataset(30);
        auto settings = calibratedSettings({"ridge"}, 3, 0.99, calibration::Score::Absolute);
        const auto error = gpumem::tests::raisedInputError([&] { evaluation::runExperiment(dataset, settings); });
        QVERIFY2(error.message().find("calibration rows") != std::string::npos, error.message().c_str());
        QVERIFY(error.message().find('\n') == std::string::npos);
        settings.calibration->coverage = 1.0;
        QVERIFY_EXCEPTION_THROWN(evaluation::runExperiment(dataset, settings), io::InputError);
    }

    void compareRefusesBadValuesInOneLine_data()
    {
        addColumns<QStringList, QString>("options", "expected");
        addRow("coverage 0", QStringList{"--coverage", "0"}, "--coverage takes a number strictly between");
        addRow("coverage 1", QStringList{"--coverage", "1"}, "--coverage takes a number strictly between");
        addRow("coverage 1.5", QStringList{"--coverage", "1.5"}, "not '1.5'");
        addRow("coverage NaN", QStringList{"--coverage", "nan"}, "not 'nan'");
        addRow("fraction 0", QStringList{"--coverage", "0.8", "--calibration-fraction", "0"},
               "--calibration-fraction must be above 0");
        addRow("fraction 1", QStringList{"--coverage", "0.8", "--calibration-fraction", "1"}, "--calibration-fraction");
        addRow("unknown score", QStringList{"--coverage", "0.8", "--calibration-score", "log"},
               "unknown calibration score 'log'");
        addRow("score without coverage", QStringList{"--calibration-score", "relative"},
               "--calibration-score takes effect only with --coverage");
        addRow("coverage the folds cannot serve", QStringList{"--coverage", "0.99"}, "needs at least");
    }

    // Every refusal is one line, before any model is fitted.
    void compareRefusesBadValuesInOneLine()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, expected);
        std::vector<std::string> arguments = quickCompare;
        for (const auto &option : options)
            arguments.push_back(option.toStdString());
        const tests::Run run = tests::runGpumem(arguments);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.empty(), run.out.c_str());
        QVERIFY2(run.err.rfind("gpumem compare: ", 0) == 0, run.err.c_str());
        QVERIFY2(run.err.find(expected.toStdString()) != std::string::npos, run.err.c_str());
        QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), std::ptrdiff_t{1});
        QVERIFY2(run.err.find("fold 1/2") == std::string::npos, run.err.c_str()); // refused before fitting
    }

    // The printed table gains the bound's columns only when a coverage is asked for.
    void tableShowsTheBoundOnlyWithCoverage()
    {
        const tests::Run plain = tests::runGpumem(quickCompare);
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(plain.out.find("bound under") == std::string::npos, plain.out.c_str());
        QVERIFY2(plain.out.find("+10% over MiB") == std::string::npos, plain.out.c_str());
        const tests::Run bounded =
            tests::runGpumem(withArguments(quickCompare, {"--coverage", "0.8", "--calibration-fraction", "0.5"}));
        QCOMPARE(bounded.exitCode, 0);
        for (const char *text : {"bound under", "bound over MiB", "+10% over MiB", "coverage 0.8 (difficulty score)"})
            QVERIFY2(bounded.out.find(text) != std::string::npos, bounded.out.c_str());
        // The progress lines on stderr give each fold's bound too, and only then.
        QVERIFY2(bounded.err.find("ridge fold 1/2: RMSE") != std::string::npos, bounded.err.c_str());
        QVERIFY2(bounded.err.find("  bound under ") != std::string::npos, bounded.err.c_str());
        QVERIFY2(plain.err.find("bound under") == std::string::npos, plain.err.c_str());
    }

    // A model trained with `train --coverage` on a hold-out split gives the test
    // rows the same upper bounds as compare's fold on the same seeded split.
    void trainAndCompareGiveTheSameBounds()
    {
        QTemporaryDir scratch;
        QVERIFY(scratch.isValid());
        const std::string base = scratch.path().toStdString();
        const std::vector<std::string> common{"--target",
                                              "memory_mib",
                                              "--test-fraction",
                                              "0.25",
                                              "--coverage",
                                              "0.8",
                                              "--calibration-fraction",
                                              "0.5",
                                              "--calibration-score",
                                              "relative",
                                              "--seed",
                                              "11"};
        const tests::Run train =
            tests::runGpumem(withArguments({"train", dataFile("jobs_training.csv"), "--model", "ridge", "--out",
                                            base + "/model", "--predictions", base + "/train.csv"},
                                           common));
        QVERIFY2(train.exitCode == 0, train.err.c_str());
        const tests::Run compare = tests::runGpumem(withArguments(
            {"compare", dataFile("jobs_training.csv"), "--models", "ridge", "--predictions", base + "/compare.csv"},
            common));
        QVERIFY2(compare.exitCode == 0, compare.err.c_str());
        const auto trained = csvRows(base + "/train.csv");
        const auto compared = csvRows(base + "/compare.csv");
        QCOMPARE(trained.size(), std::size_t{81});
        QCOMPARE(compared.size(), trained.size());
        const std::size_t split = columnNamed(trained.front(), "split");
        const std::size_t trainedBound = columnNamed(trained.front(), "upper_bound");
        const std::size_t comparedBound = columnNamed(compared.front(), "upper_bound_ridge");
        QVERIFY(comparedBound < compared.front().size());
        int testRows = 0;
        for (std::size_t row = 1; row < trained.size(); ++row) {
            const bool test = trained[row][split] == "test";
            QCOMPARE(compared[row][0], std::string(test ? "1" : "train"));
            if (!test) {
                QVERIFY(compared[row][comparedBound].empty());
                continue;
            }
            ++testRows;
            const double expected = std::stod(trained[row][trainedBound]);
            QVERIFY2(std::abs(std::stod(compared[row][comparedBound]) - expected) <= 1e-9 * std::abs(expected),
                     compared[row][comparedBound].c_str());
        }
        QCOMPARE(testRows, 20);
    }
};

QTEST_APPLESS_MAIN(TestCompareCoverage)
#include "test_CompareCoverage.moc"
