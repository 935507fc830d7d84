// SPDX-License-Identifier: GPL-3.0-or-later
// Split-conformal upper bounds: the rank of the margin, the guarantee on data with known
// noise, and the coverages a calibration refuses.
#include "DataTables.h"
#include "RaisedInputError.h"
#include "SyntheticJobs.h"
#include "calibration/BoundMetrics.h"
#include "calibration/Calibration.h"
#include "calibration/CalibrationRows.h"
#include "calibration/Coverage.h"
#include "io/InputError.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

using namespace gpumem;
using calibration::Calibration, calibration::Score, tests::fittedCalibration, tests::rowRange, tests::SyntheticJobs,
    tests::syntheticJobs;

class TestConformalCoverage : public QObject
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
};

QTEST_GUILESS_MAIN(TestConformalCoverage)
#include "test_ConformalCoverage.moc"
