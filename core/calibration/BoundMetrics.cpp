// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/BoundMetrics.h"

#include "calibration/Coverage.h"
#include "io/InputError.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace gpumem::calibration {

namespace {

constexpr double notANumber = std::numeric_limits<double>::quiet_NaN();

double medianOf(std::vector<double> values)
{
    const std::size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
    const double upper = values[middle];
    if (values.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
    return (lower + upper) / 2.0;
}

} // namespace

BoundMetrics boundMetrics(const Eigen::VectorXd &actual, const Eigen::VectorXd &bounds,
                          const std::vector<Eigen::Index> &rows)
{
    BoundMetrics metrics;
    metrics.rows = rows.size();
    if (rows.empty()) {
        metrics.underPredictionRate = metrics.meanOverAllocation = metrics.medianOverAllocation = notANumber;
        metrics.meanOverAllocationPercent = metrics.medianOverAllocationPercent = notANumber;
        return metrics;
    }
    std::vector<double> waste;
    std::vector<double> wastePercent;
    std::size_t under = 0;
    for (Eigen::Index row : rows) {
        // A NaN bound holds nothing: it counts as under-predicted.
        const bool holds = bounds[row] >= actual[row];
        under += holds ? 0 : 1;
        const double over = holds ? bounds[row] - actual[row] : 0.0;
        waste.push_back(over);
        wastePercent.push_back(100.0 * over / actual[row]);
    }
    const auto count = static_cast<double>(rows.size());
    metrics.underPredictionRate = static_cast<double>(under) / count;
    for (std::size_t i = 0; i < waste.size(); ++i) {
        metrics.meanOverAllocation += waste[i] / count;
        metrics.meanOverAllocationPercent += wastePercent[i] / count;
    }
    metrics.medianOverAllocation = medianOf(waste);
    metrics.medianOverAllocationPercent = medianOf(wastePercent);
    return metrics;
}

void to_json(io::Json &json, const BoundMetrics &metrics)
{
    json = io::Json{{"rows", metrics.rows},
                    {"under_prediction_rate", metrics.underPredictionRate},
                    {"mean_over_allocation_mib", metrics.meanOverAllocation},
                    {"median_over_allocation_mib", metrics.medianOverAllocation},
                    {"mean_over_allocation_percent", metrics.meanOverAllocationPercent},
                    {"median_over_allocation_percent", metrics.medianOverAllocationPercent}};
}

void from_json(const io::Json &json, BoundMetrics &metrics)
{
    metrics.rows = static_cast<std::size_t>(
        io::toWholeNumber(io::member(json, "rows"), 0, std::int64_t{1} << 40, "a bound's \"rows\""));
    metrics.underPredictionRate = io::numberOr(json, "under_prediction_rate", notANumber);
    metrics.meanOverAllocation = io::numberOr(json, "mean_over_allocation_mib", notANumber);
    metrics.medianOverAllocation = io::numberOr(json, "median_over_allocation_mib", notANumber);
    metrics.meanOverAllocationPercent = io::numberOr(json, "mean_over_allocation_percent", notANumber);
    metrics.medianOverAllocationPercent = io::numberOr(json, "median_over_allocation_percent", notANumber);
}

std::string describeBoundMetrics(const BoundMetrics &metrics)
{
    char text[160];
    std::snprintf(text, sizeof text, "under-predicts %.1f%%, over-allocates %.2f MiB mean (%.2f%%), %.2f MiB median",
                  100.0 * metrics.underPredictionRate, metrics.meanOverAllocation, metrics.meanOverAllocationPercent,
                  metrics.medianOverAllocation);
    return text;
}

double shareWithinCapacity(const Eigen::VectorXd &bounds, const std::vector<Eigen::Index> &rows, double capacity)
{
    if (rows.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const auto fitting =
        std::count_if(rows.begin(), rows.end(), [&](Eigen::Index row) { return bounds[row] <= capacity; });
    return static_cast<double>(fitting) / static_cast<double>(rows.size());
}

Eigen::VectorXd headroomBounds(const Eigen::VectorXd &predicted, double percent)
{
    return predicted * (1.0 + percent / 100.0);
}

double smallestHeadroomPercent(const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted,
                               const std::vector<Eigen::Index> &rows, double coverage)
{
    if (!(coverage > 0.0 && coverage <= 1.0))
        throw io::InputError("a headroom's coverage must be in (0, 1], not " + std::to_string(coverage));
    if (rows.empty())
        throw io::InputError("choosing a headroom needs at least one row");
    std::vector<double> needed;
    needed.reserve(rows.size());
    for (Eigen::Index row : rows)
        needed.push_back(100.0 * (actual[row] / predicted[row] - 1.0));
    std::sort(needed.begin(), needed.end());
    const double position = static_cast<double>(needed.size()) * coverage;
    auto rank = static_cast<std::size_t>(std::ceil(position - 1e-9));
    rank = std::clamp<std::size_t>(rank, 1, needed.size());
    // The percentage goes through a division and back through a multiplication; a
    // billionth of a percent more keeps the job that needs exactly it covered.
    return needed[rank - 1] + 1e-9;
}

void to_json(io::Json &json, const TradeOffPoint &point)
{
    json = io::Json{{"margin", point.margin},
                    {"under_rate", point.underPredictionRate},
                    {"mean_over_alloc_mib", point.meanOverAllocation}};
}

void from_json(const io::Json &json, TradeOffPoint &point)
{
    point.margin = io::numberOr(json, "margin", notANumber);
    point.underPredictionRate = io::numberOr(json, "under_rate", notANumber);
    point.meanOverAllocation = io::numberOr(json, "mean_over_alloc_mib", notANumber);
}

std::vector<TradeOffPoint> tradeOffCurve(const Calibration &calibration, const Eigen::VectorXd &scales,
                                         const Eigen::VectorXd &predicted, const Eigen::VectorXd &actual,
                                         const std::vector<Eigen::Index> &rows, int pointCount)
{
    if (pointCount < 2)
        throw std::invalid_argument("a trade-off curve needs at least 2 points");
    const double largest = std::max(calibration.sortedScores().back(), 0.0);
    std::vector<TradeOffPoint> curve;
    curve.reserve(static_cast<std::size_t>(pointCount));
    for (int point = 0; point < pointCount; ++point) {
        const double margin = largest * point / (pointCount - 1);
        const Eigen::VectorXd bounds = predicted + margin * scales;
        const BoundMetrics metrics = boundMetrics(actual, bounds, rows);
        curve.push_back({margin, metrics.underPredictionRate, metrics.meanOverAllocation});
    }
    return curve;
}

} // namespace gpumem::calibration
