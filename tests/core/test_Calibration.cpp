// SPDX-License-Identifier: GPL-3.0-or-later
// Split-conformal upper bounds: the guarantee on data with known noise, the rows
// they calibrate on, the metrics of a bound and the stored form of a calibration.
#include "DataTables.h"
#include "RaisedInputError.h"
#include "calibration/BoundMetrics.h"
#include "calibration/CalibratedFit.h"
#include "calibration/Calibration.h"
#include "calibration/CalibrationJson.h"
#include "calibration/CalibrationRows.h"
#include "calibration/Coverage.h"
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/SeededRandom.h"
#include "data/TableLoader.h"
#include "evaluation/Splits.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "io/JsonWriter.h"
#include "models/ModelFolder.h"
#include "models/RegressorRegistry.h"

#include <QTemporaryDir>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

using namespace gpumem;
using calibration::Calibration;
using calibration::Score;

namespace {

// Jobs of a known law: y = 1000 + 500 x0 + noise, with the model predicting the
// mean exactly, so the only error is the noise. Homoscedastic noise has a
// standard deviation of 10 MiB; heteroscedastic noise 1 + sqrt(x1), with x1
// spread log-uniformly over 1..1000 (as layer widths and parameter counts are)
// and unrelated to the prediction: a job that is hard for a reason other than its size.
struct SyntheticJobs
{
    Eigen::MatrixXd features;
    std::vector<std::string> names{"size", "hardness"};
    Eigen::VectorXd actual;
    Eigen::VectorXd predicted;
};

SyntheticJobs syntheticJobs(Eigen::Index rows, bool heteroscedastic, std::uint64_t seed)
{
    data::SeededRandom random(seed);
    SyntheticJobs jobs;
    jobs.features.resize(rows, 2);
    jobs.actual.resize(rows);
    jobs.predicted.resize(rows);
    for (Eigen::Index row = 0; row < rows; ++row) {
        const double size = random.unit();
        const double hardness = std::exp(random.unit() * std::log(1000.0));
        // Box–Muller: a standard normal draw from two uniform ones.
        const double normal = std::sqrt(-2.0 * std::log(1.0 - random.unit())) * std::cos(2.0 * M_PI * random.unit());
        const double deviation = heteroscedastic ? 1.0 + std::sqrt(hardness) : 10.0;
        jobs.features(row, 0) = size;
        jobs.features(row, 1) = hardness;
        jobs.predicted[row] = 1000.0 + 500.0 * size;
        jobs.actual[row] = jobs.predicted[row] + deviation * normal;
    }
    return jobs;
}

std::vector<Eigen::Index> rowRange(Eigen::Index begin, Eigen::Index end)
{
    std::vector<Eigen::Index> rows;
    for (Eigen::Index row = begin; row < end; ++row)
        rows.push_back(row);
    return rows;
}

std::string written(const Calibration &calibrated)
{
    return io::jsonDocumentText(io::Json(calibrated));
}

Calibration calibrationFrom(const std::string &text)
{
    return calibration::readCalibration(io::parseJson(text, "calibration"));
}

Calibration fittedCalibration(Score score)
{
    const SyntheticJobs jobs = syntheticJobs(400, true, 5);
    calibration::CalibrationRows rows{rowRange(0, 200), rowRange(200, 400)};
    return Calibration::fit(score, jobs.features, jobs.names, jobs.actual, jobs.predicted, rows, 0.9, 5);
}

} // namespace

class TestCalibration : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void ranksTheMarginAsSplitConformalPredictionDoes()
    {
        // ceil((n + 1) c): 19 scores serve 95% with the largest; 18 cannot.
        QCOMPARE(calibration::conformalRank(19, 0.95), std::size_t(19));
        QCOMPARE(calibration::conformalRank(18, 0.95), std::size_t(19));
        QCOMPARE(calibration::conformalRank(100, 0.9), std::size_t(91));
        QCOMPARE(calibration::conformalRank(99, 0.5), std::size_t(50));
        QCOMPARE(calibration::requiredScoreCount(0.95), std::size_t(19));
        QCOMPARE(calibration::requiredScoreCount(0.9), std::size_t(9));
        QCOMPARE(calibration::requiredScoreCount(0.99), std::size_t(99));
        QCOMPARE(calibration::requiredScoreCount(0.5), std::size_t(1));
    }

    void coverageHoldsOnSyntheticData_data()
    {
        addColumns<int, bool, double>("score", "heteroscedastic", "coverage");
        for (Score score : {Score::Absolute, Score::Relative, Score::Difficulty})
            for (bool heteroscedastic : {false, true})
                for (double coverage : {0.8, 0.9, 0.95}) {
                    const std::string name = std::string(calibration::scoreName(score)) +
                                             (heteroscedastic ? " heteroscedastic " : " homoscedastic ") +
                                             std::to_string(coverage);
                    addRow(name.c_str(), static_cast<int>(score), heteroscedastic, coverage);
                }
    }

    void coverageHoldsOnSyntheticData()
    {
        QFETCH(int, score);
        QFETCH(bool, heteroscedastic);
        QFETCH(double, coverage);
        // 300 independent calibrations of 120 rows, each judged on 1,000 new jobs.
        // Split conformal promises a miss rate of at most 1 - c on average over
        // calibrations, and close to it: 1 - k / (n + 1) with k = ceil((n + 1) c)
        // scores below the margin (difficulty scores use half of the rows).
        const int seeds = 300;
        const Eigen::Index calibrationRows = 120;
        const Eigen::Index testRows = 1000;
        const auto kind = static_cast<Score>(score);
        const std::size_t scoreRows = calibration::scoreRowCount(kind, calibrationRows);
        const double expectedMiss =
            1.0 - static_cast<double>(calibration::conformalRank(scoreRows, coverage)) / (scoreRows + 1.0);
        QVERIFY(expectedMiss <= 1.0 - coverage + 1e-12);
        double missSum = 0.0;
        double worstMiss = 0.0;
        for (int seed = 0; seed < seeds; ++seed) {
            const SyntheticJobs jobs = syntheticJobs(10 + calibrationRows + testRows, heteroscedastic, 1000 + seed);
            calibration::CalibrationRows rows{rowRange(0, 10), rowRange(10, 10 + calibrationRows)};
            const Calibration calibrated =
                Calibration::fit(kind, jobs.features, jobs.names, jobs.actual, jobs.predicted, rows, coverage, seed);
            const Eigen::VectorXd bounds = calibrated.upperBounds(jobs.features, jobs.names, jobs.predicted, coverage);
            const auto test = rowRange(10 + calibrationRows, 10 + calibrationRows + testRows);
            const double miss = calibration::boundMetrics(jobs.actual, bounds, test).underPredictionRate;
            missSum += miss;
            worstMiss = std::max(worstMiss, miss);
        }
        const double meanMiss = missSum / seeds;
        // The mean of 300 calibrations has a standard error of about 0.002-0.003.
        QVERIFY2(std::abs(meanMiss - expectedMiss) < 0.012,
                 qPrintable(QString("mean miss %1, expected %2").arg(meanMiss).arg(expectedMiss)));
        QVERIFY2(meanMiss <= 1.0 - coverage + 0.01, qPrintable(QString("mean miss %1").arg(meanMiss)));
        // One calibration of 60-120 scores can be unlucky, but never by much: its miss
        // rate varies like a Beta variable of standard deviation sqrt(c (1 - c) / (n + 2)),
        // plus the sampling of 1,000 test jobs; five of each cover 300 draws.
        const double spread = 5.0 * std::sqrt(coverage * (1.0 - coverage) / (scoreRows + 2.0)) +
                              5.0 * std::sqrt(coverage * (1.0 - coverage) / testRows);
        QVERIFY2(worstMiss < 1.0 - coverage + spread,
                 qPrintable(QString("worst miss %1, allowed %2").arg(worstMiss).arg(1.0 - coverage + spread)));
    }

    void difficultyScoreWastesLessWhenNoiseDependsOnAFeature()
    {
        // Same coverage, less memory: the difficulty model learns that "hardness"
        // widens the noise, so easy jobs get narrow bounds and hard ones wide. With
        // the true noise law the waste at 95% would be 0.79 times the absolute margin's.
        const SyntheticJobs jobs = syntheticJobs(5000, true, 77);
        calibration::CalibrationRows rows{rowRange(0, 100), rowRange(100, 1100)};
        const auto test = rowRange(1100, 5000);
        std::map<Score, calibration::BoundMetrics> metrics;
        for (Score score : {Score::Absolute, Score::Difficulty}) {
            const Calibration calibrated =
                Calibration::fit(score, jobs.features, jobs.names, jobs.actual, jobs.predicted, rows, 0.95, 3);
            metrics[score] = calibration::boundMetrics(
                jobs.actual, calibrated.upperBounds(jobs.features, jobs.names, jobs.predicted, 0.95), test);
            QVERIFY(metrics[score].underPredictionRate < 0.07);
            if (score == Score::Difficulty) {
                // Jobs of hardness above 500 have 5-10 times the noise of those below 2.
                const Eigen::VectorXd scales = calibrated.scales(jobs.features, jobs.names, jobs.predicted);
                double easy = 0.0, hard = 0.0;
                int easyCount = 0, hardCount = 0;
                for (Eigen::Index row : test) {
                    if (jobs.features(row, 1) < 2.0)
                        easy += scales[row], ++easyCount;
                    if (jobs.features(row, 1) > 500.0)
                        hard += scales[row], ++hardCount;
                }
                QVERIFY2(hard / hardCount > 4.0 * easy / easyCount,
                         qPrintable(QString("hard %1, easy %2").arg(hard / hardCount).arg(easy / easyCount)));
            }
        }
        QVERIFY2(metrics[Score::Difficulty].meanOverAllocation < 0.9 * metrics[Score::Absolute].meanOverAllocation,
                 qPrintable(QString("difficulty %1 MiB, absolute %2 MiB")
                                .arg(metrics[Score::Difficulty].meanOverAllocation)
                                .arg(metrics[Score::Absolute].meanOverAllocation)));
    }

    void marginIsTheRankedScore()
    {
        // Absolute scores of a hand-made calibration: residuals 1..19 MiB.
        Eigen::MatrixXd features = Eigen::MatrixXd::Zero(20, 1);
        Eigen::VectorXd predicted = Eigen::VectorXd::Constant(20, 100.0);
        Eigen::VectorXd actual(20);
        for (int row = 0; row < 20; ++row)
            actual[row] = 100.0 + (row == 0 ? 50.0 : 20.0 - row); // row 0 is a fit row
        calibration::CalibrationRows rows{{0}, rowRange(1, 20)};
        const Calibration calibrated =
            Calibration::fit(Score::Absolute, features, {"x"}, actual, predicted, rows, 0.95, 1);
        QCOMPARE(calibrated.sortedScores().size(), std::size_t(19));
        QCOMPARE(calibrated.sortedScores().front(), 1.0);
        QCOMPARE(calibrated.margin(0.95), 19.0); // rank ceil(20 · 0.95) = 19
        QCOMPARE(calibrated.margin(0.5), 10.0);  // rank ceil(20 · 0.5) = 10
        QCOMPARE(calibrated.upperBounds(features, {"x"}, predicted, 0.5)[3], 110.0);
    }

    void refusesCoverageItCannotServe()
    {
        const Calibration calibrated = fittedCalibration(Score::Absolute); // 200 scores
        const auto error = gpumem::tests::raisedInputError([&] { calibrated.margin(0.999); });
        const std::string message = error.message();
        QVERIFY2(message.find("needs at least 999 calibration rows") != std::string::npos, message.c_str());
        QVERIFY(message.find('\n') == std::string::npos);
        // Difficulty scores come from half the rows: 0.99 needs 99 scores, so 197 rows.
        QVERIFY_EXCEPTION_THROWN(calibration::checkCalibrationRowsSuffice(Score::Difficulty, 196, 0.99),
                                 io::InputError);
        calibration::checkCalibrationRowsSuffice(Score::Difficulty, 197, 0.99);
        calibration::checkCalibrationRowsSuffice(Score::Absolute, 99, 0.99);
    }

    void refusesInvalidCoverage_data()
    {
        addColumns<double>("coverage");
        addRow("0", 0.0);
        addRow("1", 1.0);
        addRow("1.5", 1.5);
        addRow("negative", -0.1);
        addRow("NaN", std::numeric_limits<double>::quiet_NaN());
    }

    void refusesInvalidCoverage()
    {
        QFETCH(double, coverage);
        const Calibration calibrated = fittedCalibration(Score::Relative);
        QVERIFY_EXCEPTION_THROWN(calibrated.margin(coverage), io::InputError);
        QVERIFY_EXCEPTION_THROWN(calibration::checkCoverage(coverage), io::InputError);
    }

    void parsesCoverageText()
    {
        QCOMPARE(calibration::parseCoverage("0.95", "--coverage"), 0.95);
        for (const char *text : {"0", "1", "1.5", "nan", "NaN", "-0.5", "inf", "", "0.9x", "95%"}) {
            try {
                calibration::parseCoverage(text, "--coverage");
                QFAIL(text);
            } catch (const io::InputError &error) {
                QVERIFY(error.message().rfind("--coverage takes a number strictly between 0 and 1", 0) == 0);
            }
        }
    }

    // Regression: calibration rows must come from the training rows alone, never
    // from the rows a hold-out or a compare fold keeps for testing.
    void calibrationRowsNeverOverlapTestRows()
    {
        for (std::uint64_t seed : {1u, 42u, 7u}) {
            const evaluation::Split split = evaluation::holdOutSplit(1000, 0.2, seed);
            const auto rows = calibration::splitCalibrationRows(split.train, 0.25, seed);
            const std::set<Eigen::Index> test(split.test.begin(), split.test.end());
            for (Eigen::Index row : rows.calibration)
                QVERIFY(test.count(row) == 0);
            for (Eigen::Index row : rows.fit)
                QVERIFY(test.count(row) == 0);
            QCOMPARE(rows.calibration.size(), std::size_t(200));
            std::vector<Eigen::Index> together = rows.fit;
            together.insert(together.end(), rows.calibration.begin(), rows.calibration.end());
            std::sort(together.begin(), together.end());
            QVERIFY(together == split.train); // a partition of the training rows
            QVERIFY(std::is_sorted(rows.calibration.begin(), rows.calibration.end()));
        }
        // Folds too: each fold's calibration stays inside that fold's training rows.
        for (const auto &fold : evaluation::kFoldSplits(500, 5, 42)) {
            const auto rows = calibration::splitCalibrationRows(fold.train, 0.2, 42);
            for (Eigen::Index row : rows.calibration)
                QVERIFY(!std::binary_search(fold.test.begin(), fold.test.end(), row));
        }
        QVERIFY_EXCEPTION_THROWN(calibration::splitCalibrationRows({1, 2, 3}, 0.0, 1), io::InputError);
        QVERIFY_EXCEPTION_THROWN(calibration::splitCalibrationRows({1}, 0.5, 1), io::InputError);
        QCOMPARE(calibration::splitCalibrationRows({4, 9}, 0.9, 1).calibration.size(), std::size_t(1));
    }

    void measuresABound()
    {
        // Hand-computed: waste 10, 0 (under-predicted), 30 MiB; 10%, 0%, 10% of actual.
        const Eigen::Vector3d actual(100.0, 200.0, 300.0);
        const Eigen::Vector3d bounds(110.0, 190.0, 330.0);
        const std::vector<Eigen::Index> rows{0, 1, 2};
        const auto metrics = calibration::boundMetrics(actual, bounds, rows);
        QCOMPARE(metrics.rows, std::size_t(3));
        QCOMPARE(metrics.underPredictionRate, 1.0 / 3.0);
        QCOMPARE(metrics.meanOverAllocation, 40.0 / 3.0);
        QCOMPARE(metrics.medianOverAllocation, 10.0);
        QCOMPARE(metrics.meanOverAllocationPercent, 20.0 / 3.0);
        QCOMPARE(metrics.medianOverAllocationPercent, 10.0);
        QCOMPARE(calibration::boundMetrics(actual, bounds, {0, 2}).medianOverAllocation, 20.0);
        QCOMPARE(calibration::shareWithinCapacity(bounds, rows, 200.0), 2.0 / 3.0);
        QCOMPARE(calibration::shareWithinCapacity(bounds, rows, 100.0), 0.0);
        QVERIFY(std::isnan(calibration::boundMetrics(actual, bounds, {}).meanOverAllocation));
    }

    void choosesTheSmallestFixedHeadroom()
    {
        // Needed headroom per job: 0%, 100%, 200%.
        const Eigen::Vector3d actual(100.0, 200.0, 300.0);
        const Eigen::Vector3d predicted(100.0, 100.0, 100.0);
        const std::vector<Eigen::Index> rows{0, 1, 2};
        QCOMPARE(calibration::smallestHeadroomPercent(actual, predicted, rows, 2.0 / 3.0), 100.0 + 1e-9);
        QCOMPARE(calibration::smallestHeadroomPercent(actual, predicted, rows, 0.5), 100.0 + 1e-9);
        QCOMPARE(calibration::smallestHeadroomPercent(actual, predicted, rows, 1.0), 200.0 + 1e-9);
        const double percent = calibration::smallestHeadroomPercent(actual, predicted, rows, 2.0 / 3.0);
        const auto metrics = calibration::boundMetrics(actual, calibration::headroomBounds(predicted, percent), rows);
        QCOMPARE(metrics.underPredictionRate, 1.0 / 3.0);
        QCOMPARE(calibration::headroomBounds(predicted, 10.0)[0], 110.00000000000001);
        QVERIFY_EXCEPTION_THROWN(calibration::smallestHeadroomPercent(actual, predicted, {}, 0.9), io::InputError);
    }

    void tracesTheTradeOffCurve()
    {
        const SyntheticJobs jobs = syntheticJobs(600, true, 11);
        calibration::CalibrationRows rows{rowRange(0, 100), rowRange(100, 300)};
        const Calibration calibrated =
            Calibration::fit(Score::Difficulty, jobs.features, jobs.names, jobs.actual, jobs.predicted, rows, 0.9, 2);
        const Eigen::VectorXd scales = calibrated.scales(jobs.features, jobs.names, jobs.predicted);
        const auto curve =
            calibration::tradeOffCurve(calibrated, scales, jobs.predicted, jobs.actual, rowRange(300, 600));
        QCOMPARE(curve.size(), std::size_t(101));
        QCOMPARE(curve.front().margin, 0.0);
        QCOMPARE(curve.back().margin, calibrated.sortedScores().back());
        for (std::size_t point = 1; point < curve.size(); ++point) {
            QVERIFY(curve[point].underPredictionRate <= curve[point - 1].underPredictionRate);
            QVERIFY(curve[point].meanOverAllocation >= curve[point - 1].meanOverAllocation);
        }
        // A margin of 0 is the point prediction: about half the jobs exceed it.
        QVERIFY(curve.front().underPredictionRate > 0.35 && curve.front().underPredictionRate < 0.65);
        QVERIFY(curve.back().underPredictionRate < 0.05);
    }

    void roundTripsThroughJsonBitForBit_data()
    {
        addColumns<int>("score");
        addRow("absolute", static_cast<int>(Score::Absolute));
        addRow("relative", static_cast<int>(Score::Relative));
        addRow("difficulty", static_cast<int>(Score::Difficulty));
    }

    void roundTripsThroughJsonBitForBit()
    {
        QFETCH(int, score);
        const Calibration original = fittedCalibration(static_cast<Score>(score));
        const Calibration restored = calibrationFrom(written(original));
        QCOMPARE(restored.score(), original.score());
        QCOMPARE(restored.coverage(), original.coverage());
        QCOMPARE(restored.calibrationRowCount(), original.calibrationRowCount());
        QVERIFY(restored.sortedScores() == original.sortedScores());
        QCOMPARE(restored.difficulty().has_value(), original.difficulty().has_value());
        if (original.difficulty())
            QVERIFY(*restored.difficulty() == *original.difficulty());
        const SyntheticJobs jobs = syntheticJobs(300, true, 99);
        for (double coverage : {0.8, 0.9, 0.95}) {
            const Eigen::VectorXd before = original.upperBounds(jobs.features, jobs.names, jobs.predicted, coverage);
            const Eigen::VectorXd after = restored.upperBounds(jobs.features, jobs.names, jobs.predicted, coverage);
            for (Eigen::Index row = 0; row < before.size(); ++row)
                QVERIFY(std::memcmp(&before[row], &after[row], sizeof(double)) == 0);
        }
    }

    void refusesHostileStoredCalibrations_data()
    {
        addColumns<QString, QString>("member", "expected");
        const QString difficulty = R"("difficulty":{"floor":1,"columns":["a"],"means":[0,0],"deviations":[1,1],)"
                                   R"("coefficients":[0,0,0],"lowest":-1,"highest":1})";
        addRow("unsorted", R"({"score":"absolute","coverage":0.9,"calibration_rows":3,"scores":[3,1,2]})",
               "ascending order");
        addRow("NaN text", R"({"score":"absolute","coverage":0.9,"calibration_rows":2,"scores":[1,"NaN"]})",
               "expected a number");
        addRow("null score", R"({"score":"absolute","coverage":0.9,"calibration_rows":2,"scores":[1,null]})",
               "expected a number");
        addRow("overflow", R"({"score":"absolute","coverage":0.9,"calibration_rows":2,"scores":[1,1e999]})", "");
        addRow("empty", R"({"score":"absolute","coverage":0.9,"calibration_rows":0,"scores":[]})", "must not be empty");
        addRow("coverage 1.5", R"({"score":"absolute","coverage":1.5,"calibration_rows":1,"scores":[1]})",
               "strictly between 0 and 1");
        addRow("unknown score", R"({"score":"magic","coverage":0.9,"calibration_rows":1,"scores":[1]})",
               "unknown calibration score");
        addRow("rows below scores", R"({"score":"absolute","coverage":0.9,"calibration_rows":1,"scores":[1,2]})",
               "calibration_rows");
        addRow("fractional rows", R"({"score":"absolute","coverage":0.9,"calibration_rows":2.5,"scores":[1,2]})",
               "whole number");
        addRow("difficulty missing", R"({"score":"difficulty","coverage":0.9,"calibration_rows":1,"scores":[1]})",
               "lacks");
        addRow("difficulty on absolute",
               R"({"score":"absolute","coverage":0.9,"calibration_rows":1,"scores":[1],)" + difficulty + "}",
               "only a difficulty calibration");
        // A difficulty calibration whose difficulty member has one part replaced.
        const auto addDifficultyRow = [&difficulty](const char *name, const QString &part, const QString &replacement,
                                                    const char *expected) {
            QString changed = difficulty;
            changed.replace(part, replacement);
            addRow(name, R"({"score":"difficulty","coverage":0.9,"calibration_rows":1,"scores":[1],)" + changed + "}",
                   expected);
        };
        addDifficultyRow("coefficient count", R"("coefficients":[0,0,0])", R"("coefficients":[0,0])", "must hold");
        addDifficultyRow("zero deviation", R"("deviations":[1,1])", R"("deviations":[1,0])", "positive");
        addDifficultyRow("huge clamp", R"("highest":1)", R"("highest":1e6)", "within");
        addDifficultyRow("reversed clamp", R"("lowest":-1)", R"("lowest":2)", "ordered");
    }

    void refusesHostileStoredCalibrations()
    {
        QFETCH(QString, member);
        QFETCH(QString, expected);
        // Not raisedInputError: the overflow row expects any message at all, so
        // only QFAIL tells an accepted member from a refused one.
        try {
            calibrationFrom(member.toStdString());
            QFAIL("accepted");
        } catch (const io::InputError &error) {
            const std::string message = error.what();
            QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
            QVERIFY(message.find('\n') == std::string::npos);
        }
    }

    void savesTheCalibrationOnlyWhenGiven()
    {
        // The calibration rides in the same atomic save as any model, and only when asked for.
        QTemporaryDir folder;
        const std::string csv = "x,memory\n1,10\n2,20\n3,31\n4,39\n";
        const std::string path = folder.filePath("jobs.csv").toStdString();
        {
            std::ofstream out(path);
            out << csv;
        }
        const data::Table table = data::loadTable(path);
        data::RoleRequest request;
        request.target = "memory";
        std::vector<std::string> warnings;
        const auto dataset =
            data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
        auto model = models::createRegressor("ridge", models::regressorHyperparameters("ridge"));
        model->fit(dataset, {0, 1, 2, 3});
        const Calibration calibrated = fittedCalibration(Score::Relative);
        const std::string inside = folder.filePath("inside").toStdString();
        const std::string outside = folder.filePath("outside").toStdString();
        model->save(inside, {{"calibration", calibrated}});
        model->save(outside);
        const auto stored = calibration::readStoredCalibration(models::readModelMetadata(inside), inside);
        QVERIFY(stored.has_value());
        QVERIFY(stored->sortedScores() == calibrated.sortedScores());
        QVERIFY(!calibration::readStoredCalibration(models::readModelMetadata(outside), outside).has_value());
        QVERIFY(models::loadRegressor(inside)->isFitted()); // the model reads its folder as before
        QVERIFY_EXCEPTION_THROWN(model->save(outside, {{"files", 1}}), std::invalid_argument);
    }

    // With refit the kept model is the one fitted on every training row, exactly as
    // without a bound; the calibration still scored the first fit, which never saw its rows.
    void refitKeepsThePointModelOfAllTheRows()
    {
        std::string csv = "x,z,memory\n";
        data::SeededRandom random(5);
        for (int row = 0; row < 60; ++row) {
            const double x = random.unit() * 100.0;
            const double z = random.unit() * 10.0;
            csv += std::to_string(x) + ',' + std::to_string(z) + ',' +
                   std::to_string(3 * x + z * z + 5 * random.unit()) + '\n';
        }
        const data::Table table = data::loadTableFromText(csv, "jobs.csv");
        data::RoleRequest request;
        request.target = "memory";
        std::vector<std::string> warnings;
        const auto dataset =
            data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
        std::vector<Eigen::Index> rows(60);
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = static_cast<Eigen::Index>(i);
        const auto tree = [] {
            return models::createRegressor("decision_tree", models::regressorHyperparameters("decision_tree"));
        };
        calibration::CalibrationSettings settings;
        settings.score = Score::Relative;
        settings.coverage = 0.8;
        settings.refit = true;
        auto model = tree();
        const calibration::CalibratedFit fit = calibration::fitCalibrated(*model, dataset, rows, settings);
        QVERIFY(fit.refitted);
        QVERIFY(fit.calibration.has_value());

        auto everyRow = tree();
        everyRow->fit(dataset, rows);
        QCOMPARE(fit.predicted, everyRow->predict(dataset));
        QCOMPARE(model->predict(dataset), everyRow->predict(dataset));
        auto fitRows = tree();
        fitRows->fit(dataset, fit.rows.fit);
        QCOMPARE(fit.calibrationPredicted, fitRows->predict(dataset));
        QVERIFY(fit.calibrationPredicted != fit.predicted);

        settings.refit = false;
        auto once = tree();
        const calibration::CalibratedFit plain = calibration::fitCalibrated(*once, dataset, rows, settings);
        QVERIFY(!plain.refitted);
        QCOMPARE(plain.predicted, fit.calibrationPredicted);
        // The margins come from the same calibration rows and first fit either way.
        QCOMPARE(plain.calibration->sortedScores(), fit.calibration->sortedScores());
    }

    void refusesAHugeScoreArray()
    {
        // One more score than a calibration may hold is refused by its count, before it is kept.
        std::string text = R"({"score":"absolute","coverage":0.9,"calibration_rows":1,"scores":[)";
        text.reserve(text.size() + 2 * (calibration::maxCalibrationScores + 1) + 2);
        for (std::size_t i = 0; i <= calibration::maxCalibrationScores; ++i)
            text += i == 0 ? "0" : ",0";
        text += "]}";
        const auto error = gpumem::tests::raisedInputError([&] { calibrationFrom(text); });
        QVERIFY2(std::string(error.what()).find("more than the") != std::string::npos, error.what());
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "test_Calibration.moc"
