// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/BoundReport.h"

#include "calibration/CommonCapacities.h"

namespace gpumem::calibration {

BoundReport boundReport(const Calibration &calibrated, const data::Dataset &dataset, const CalibratedFit &fit,
                        const Eigen::VectorXd &bounds, const std::vector<Eigen::Index> &testRows)
{
    const Eigen::VectorXd &actual = dataset.target();
    const Eigen::VectorXd &predicted = fit.predicted;
    BoundReport report;
    report.margin = calibrated.margin(calibrated.coverage());
    report.bound = boundMetrics(actual, bounds, testRows);
    report.tenPercent = boundMetrics(actual, headroomBounds(predicted, 10.0), testRows);
    report.bestHeadroomPercent =
        smallestHeadroomPercent(actual, fit.calibrationPredicted, fit.rows.calibration, calibrated.coverage());
    report.bestHeadroom = boundMetrics(actual, headroomBounds(predicted, report.bestHeadroomPercent), testRows);
    const Eigen::VectorXd scales =
        calibrated.scales(dataset.numericFeatures(), dataset.numericFeatureNames(), predicted, fit.memberSpread);
    report.tradeOff = tradeOffCurve(calibrated, scales, predicted, actual, testRows);
    for (double capacity : kCommonCapacitiesGiB)
        report.shareWithinCapacity.emplace_back(capacity * 1024.0,
                                                shareWithinCapacity(bounds, testRows, capacity * 1024.0));
    return report;
}

io::Json calibrationSummaryJson(const Calibration &calibrated, const CalibrationRows &rows,
                                const std::optional<BoundReport> &report)
{
    io::Json json{{"score", scoreName(calibrated.score())},
                  {"coverage", calibrated.coverage()},
                  {"margin", calibrated.margin(calibrated.coverage())},
                  {"fit_rows", rows.fit.size()},
                  {"calibration_rows", rows.calibration.size()}};
    if (!report)
        return json;
    json["test_bound"] = report->bound;
    json["test_headroom_10_percent"] = report->tenPercent;
    json["best_headroom_percent"] = report->bestHeadroomPercent;
    json["test_best_headroom"] = report->bestHeadroom;
    json["test_trade_off"] = report->tradeOff;
    io::Json &capacities = json["test_share_within_capacity"] = io::Json::array();
    for (const auto &[capacity, share] : report->shareWithinCapacity)
        capacities.push_back({{"capacity_mib", capacity}, {"share", share}});
    return json;
}

} // namespace gpumem::calibration
