// SPDX-License-Identifier: GPL-3.0-or-later
// What an upper bound costs and misses: its metrics, the smallest fixed headroom
// and the trade-off curve of a calibration.
#include "SyntheticJobs.h"
#include "calibration/BoundMetrics.h"
#include "calibration/Calibration.h"
#include "io/InputError.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace gpumem;
using calibration::Calibration, calibration::Score, tests::fittedCalibration, tests::rowRange, tests::SyntheticJobs,
    tests::syntheticJobs;

class TestBoundMetrics : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
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
};

QTEST_GUILESS_MAIN(TestBoundMetrics)
#include "test_BoundMetrics.moc"
