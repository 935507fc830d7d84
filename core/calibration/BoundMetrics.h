// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/Calibration.h"
#include "io/Json.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gpumem::calibration {

// How an upper bound served a set of jobs. A job is under-predicted when its
// actual peak exceeds the bound (it would run out of memory); the over-allocation
// of a job is max(bound - actual, 0), the memory reserved beyond its need (an
// under-predicted job wastes nothing but fails). Means and medians are over all
// the rows; percentages are of each job's actual peak.
struct BoundMetrics
{
    std::size_t rows = 0;
    double underPredictionRate = 0.0;  // share in [0, 1]
    double meanOverAllocation = 0.0;   // MiB
    double medianOverAllocation = 0.0; // MiB
    double meanOverAllocationPercent = 0.0;
    double medianOverAllocationPercent = 0.0;
};

// Returns the metrics of bounds on rows of actual. Empty rows give zero rows and NaN values.
BoundMetrics boundMetrics(const Eigen::VectorXd &actual, const Eigen::VectorXd &bounds,
                          const std::vector<Eigen::Index> &rows);

// The one JSON form of bound metrics, in the comparison report and train's summary:
// {"rows", "under_prediction_rate", "mean_over_allocation_mib", "median_over_allocation_mib",
//  "mean_over_allocation_percent", "median_over_allocation_percent"} (non-finite values as null).
void to_json(io::Json &json, const BoundMetrics &metrics);
// Reads what to_json() wrote; a missing or null value reads as NaN. Throws
// io::InputError (without a file) when "rows" is not a whole number up to 2^40.
void from_json(const io::Json &json, BoundMetrics &metrics);
// One line for people: "under-predicts 4.8%, over-allocates 27.10 MiB mean (1.41%), 12.00 MiB median".
std::string describeBoundMetrics(const BoundMetrics &metrics);

// Returns the share of rows whose bound fits a GPU of capacity MiB (bound <= capacity):
// the jobs a scheduler could place on it at that bound.
double shareWithinCapacity(const Eigen::VectorXd &bounds, const std::vector<Eigen::Index> &rows, double capacity);

// Returns predicted · (1 + percent / 100): the fixed-headroom rule ("+10%").
Eigen::VectorXd headroomBounds(const Eigen::VectorXd &predicted, double percent);

// Returns the smallest headroom percentage p whose bounds predicted · (1 + p/100)
// hold actual on at least a share coverage of rows: the ceil(n · coverage)-th
// smallest of 100 · (actual / predicted - 1). On calibration rows this is the best
// fixed headroom a user could pick from the same data the bound used; on test rows
// it is the best headroom in hindsight. p may be negative. Throws io::InputError
// when rows is empty or coverage is not inside (0, 1].
double smallestHeadroomPercent(const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted,
                               const std::vector<Eigen::Index> &rows, double coverage);

// One point of a trade-off curve: the margin and what its bounds cost.
struct TradeOffPoint
{
    double margin = 0.0;              // in score units
    double underPredictionRate = 0.0; // share in [0, 1]
    double meanOverAllocation = 0.0;  // MiB
};

// The one JSON form of a trade-off point: {"margin", "under_rate", "mean_over_alloc_mib"}.
void to_json(io::Json &json, const TradeOffPoint &point);
// Reads what to_json() wrote; a missing or null value reads as NaN.
void from_json(const io::Json &json, TradeOffPoint &point);

// Returns pointCount (>= 2) points of the out-of-memory risk against wasted memory
// on rows: the margin swept evenly from 0 to the calibration's largest score (or
// to 0 when every score is negative), bounds predicted + scale · margin.
std::vector<TradeOffPoint> tradeOffCurve(const Calibration &calibration, const Eigen::VectorXd &scales,
                                         const Eigen::VectorXd &predicted, const Eigen::VectorXd &actual,
                                         const std::vector<Eigen::Index> &rows, int pointCount = 101);

} // namespace gpumem::calibration
