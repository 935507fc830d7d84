// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/BoundMetrics.h"
#include "calibration/CalibratedFit.h"
#include "data/Dataset.h"
#include "io/Json.h"

#include <Eigen/Core>

#include <optional>
#include <utility>
#include <vector>

namespace gpumem::calibration {

// What a calibrated bound does on rows held out of a training, beside the rules
// users know: "+10%" headroom, and the smallest fixed headroom that reaches the
// coverage on the calibration rows. `gpumem train --test-fraction` reports it.
struct BoundReport
{
    double margin = 0.0; // the calibration's margin at its own coverage
    BoundMetrics bound;
    BoundMetrics tenPercent;
    double bestHeadroomPercent = 0.0;
    BoundMetrics bestHeadroom;
    std::vector<TradeOffPoint> tradeOff;
    std::vector<std::pair<double, double>> shareWithinCapacity; // (capacity MiB, share of test jobs)
};

// Returns what bounds, calibrated's upper bound of every row of dataset at its
// coverage over fit's predictions, do on testRows; the capacities are
// kCommonCapacitiesGiB. The best fixed headroom is chosen on the calibration rows,
// as the calibration was: on predictions that never saw them.
BoundReport boundReport(const Calibration &calibrated, const data::Dataset &dataset, const CalibratedFit &fit,
                        const Eigen::VectorXd &bounds, const std::vector<Eigen::Index> &testRows);

// The "calibration" member of train's JSON summary:
//   {"score", "coverage", "margin", "fit_rows", "calibration_rows"} and, with a
//   report, "test_bound", "test_headroom_10_percent", "best_headroom_percent",
//   "test_best_headroom", "test_trade_off", "test_share_within_capacity":
//   [{"capacity_mib", "share"}, …].
io::Json calibrationSummaryJson(const Calibration &calibrated, const CalibrationRows &rows,
                                const std::optional<BoundReport> &report);

} // namespace gpumem::calibration
