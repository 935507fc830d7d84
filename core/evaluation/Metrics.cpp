// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/Metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

namespace gpumem::evaluation {

namespace {

using ConstVectorRef = Eigen::Ref<const Eigen::VectorXd>;

constexpr double kNotANumber = std::numeric_limits<double>::quiet_NaN();

// Caps uniformBinEdges so that a typo in the width (bytes instead of MiB) fails
// loudly instead of allocating gigabytes.
constexpr double kMaximumEdgeCount = 1'000'000.0;

void requireComparable(const ConstVectorRef &actual, const ConstVectorRef &predicted, const char *function)
{
    if (actual.size() != predicted.size()) {
        throw std::invalid_argument(std::string(function) + ": actual has " + std::to_string(actual.size()) +
                                    " values but predicted has " + std::to_string(predicted.size()));
    }
    if (actual.size() == 0) {
        throw std::invalid_argument(std::string(function) + ": there are no rows to score");
    }
}

// The q-quantile of |actual − predicted| with linear interpolation between order
// statistics (NumPy's default), so reports agree with numpy.percentile.
double percentileOfAbsoluteErrors(const ConstVectorRef &actual, const ConstVectorRef &predicted, double q)
{
    std::vector<double> errors(static_cast<std::size_t>(actual.size()));
    for (Eigen::Index row = 0; row < actual.size(); ++row)
        errors[static_cast<std::size_t>(row)] = std::abs(actual[row] - predicted[row]);
    const double position = q * static_cast<double>(errors.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, errors.size() - 1);
    std::nth_element(errors.begin(), errors.begin() + static_cast<std::ptrdiff_t>(below), errors.end());
    const double lower = errors[below];
    const double upper =
        above == below ? lower : *std::min_element(errors.begin() + static_cast<std::ptrdiff_t>(above), errors.end());
    return lower + (position - static_cast<double>(below)) * (upper - lower);
}

// The median of |actual − predicted| / |actual| in percent over rows with a nonzero actual
// value (the mean of the middle two for an even count), NaN when there are none.
double medianRelativeErrorPercent(const ConstVectorRef &actual, const ConstVectorRef &predicted)
{
    std::vector<double> relative;
    relative.reserve(static_cast<std::size_t>(actual.size()));
    for (Eigen::Index row = 0; row < actual.size(); ++row)
        if (actual[row] != 0.0)
            relative.push_back(std::abs(actual[row] - predicted[row]) / std::abs(actual[row]));
    if (relative.empty())
        return kNotANumber;
    const std::size_t middle = relative.size() / 2;
    std::nth_element(relative.begin(), relative.begin() + static_cast<std::ptrdiff_t>(middle), relative.end());
    double median = relative[middle];
    if (relative.size() % 2 == 0)
        median = 0.5 *
                 (median + *std::max_element(relative.begin(), relative.begin() + static_cast<std::ptrdiff_t>(middle)));
    return 100.0 * median;
}

bool containsNotANumber(const ConstVectorRef &values)
{
    // An index loop rather than begin()/end(), which Eigen only offers from 3.4 on.
    for (Eigen::Index index = 0; index < values.size(); ++index) {
        if (std::isnan(values[index])) {
            return true;
        }
    }
    return false;
}

} // namespace

RegressionMetrics computeMetrics(const ConstVectorRef &actual, const ConstVectorRef &predicted)
{
    requireComparable(actual, predicted, "computeMetrics");

    // A diverged model predicts NaN; answering NaN everywhere makes that visible
    // instead of letting comparisons silently count such rows as hits.
    if (containsNotANumber(actual) || containsNotANumber(predicted)) {
        return filledMetrics(kNotANumber);
    }

    const Eigen::Index rowCount = actual.size();
    const double count = static_cast<double>(rowCount);
    const double actualMean = actual.mean();

    double squaredErrorSum = 0.0;
    double absoluteErrorSum = 0.0;
    double totalSquareSum = 0.0;
    double relativeErrorSum = 0.0;
    Eigen::Index relativeErrorCount = 0;
    double maxError = 0.0;
    Eigen::Index underCount = 0;
    Eigen::Index withinTenPercentCount = 0;
    double overAllocationSum = 0.0;

    for (Eigen::Index row = 0; row < rowCount; ++row) {
        const double truth = actual[row];
        const double guess = predicted[row];
        const double error = truth - guess;
        const double absoluteError = std::abs(error);
        squaredErrorSum += error * error;
        absoluteErrorSum += absoluteError;
        // Two passes (mean first) keep the total sum of squares accurate for
        // large MiB values with a small spread.
        totalSquareSum += (truth - actualMean) * (truth - actualMean);
        if (truth != 0.0) {
            relativeErrorSum += absoluteError / std::abs(truth);
            ++relativeErrorCount;
        }
        // Scaled by 10 rather than multiplied by 0.1, so that an error of exactly 10% counts.
        if (10.0 * absoluteError <= std::abs(truth))
            ++withinTenPercentCount;
        maxError = std::max(maxError, absoluteError);
        if (guess < truth) {
            ++underCount;
        } else {
            overAllocationSum += guess - truth;
        }
    }

    RegressionMetrics metrics;
    metrics.mse = squaredErrorSum / count;
    metrics.rmse = std::sqrt(metrics.mse);
    metrics.mae = absoluteErrorSum / count;
    // The mean of equal values may be off by rounding, leaving a tiny nonzero
    // total sum of squares; testing equality directly catches the constant case.
    const bool actualIsConstant = actual.minCoeff() == actual.maxCoeff();
    if (actualIsConstant) {
        metrics.r2 = squaredErrorSum == 0.0 ? 1.0 : 0.0;
    } else {
        metrics.r2 = 1.0 - squaredErrorSum / totalSquareSum;
    }
    metrics.mape =
        relativeErrorCount == 0 ? kNotANumber : 100.0 * relativeErrorSum / static_cast<double>(relativeErrorCount);
    metrics.medianRelativeError = medianRelativeErrorPercent(actual, predicted);
    metrics.withinTenPercent = static_cast<double>(withinTenPercentCount) / count;
    metrics.maxError = maxError;
    metrics.p95Error = percentileOfAbsoluteErrors(actual, predicted, 0.95);
    metrics.underRate = static_cast<double>(underCount) / count;
    metrics.overAllocation = overAllocationSum / count;
    return metrics;
}

double binAccuracy(const ConstVectorRef &actual, const ConstVectorRef &predicted, const std::vector<double> &binEdges)
{
    requireComparable(actual, predicted, "binAccuracy");
    for (std::size_t index = 0; index < binEdges.size(); ++index) {
        if (!std::isfinite(binEdges[index])) {
            throw std::invalid_argument("binAccuracy: bin edge " + std::to_string(index) + " is not finite");
        }
        if (index > 0 && !(binEdges[index - 1] < binEdges[index])) {
            throw std::invalid_argument("binAccuracy: bin edges must be strictly ascending, but edge " +
                                        std::to_string(index) + " (" + std::to_string(binEdges[index]) +
                                        ") does not exceed the one before it (" + std::to_string(binEdges[index - 1]) +
                                        ")");
        }
    }

    // upper_bound gives the number of edges ≤ value, which is exactly the index
    // of the half-open bin [e(i-1), e(i)) holding the value.
    const auto binOf = [&binEdges](double value) {
        return std::upper_bound(binEdges.begin(), binEdges.end(), value) - binEdges.begin();
    };

    Eigen::Index hitCount = 0;
    for (Eigen::Index row = 0; row < actual.size(); ++row) {
        const double truth = actual[row];
        const double guess = predicted[row];
        // upper_bound would put NaN in the last bin, turning two NaNs into a hit.
        if (std::isnan(truth) || std::isnan(guess)) {
            continue;
        }
        if (binOf(truth) == binOf(guess)) {
            ++hitCount;
        }
    }
    return static_cast<double>(hitCount) / static_cast<double>(actual.size());
}

std::vector<double> uniformBinEdges(double width, double upTo)
{
    if (!(width > 0.0) || !std::isfinite(width)) {
        throw std::invalid_argument("uniformBinEdges: the bin width must be positive and finite, not " +
                                    std::to_string(width));
    }
    if (!(upTo >= 0.0) || !std::isfinite(upTo)) {
        throw std::invalid_argument("uniformBinEdges: the upper limit must be finite and not negative, not " +
                                    std::to_string(upTo));
    }
    if (std::floor(upTo / width) >= kMaximumEdgeCount) {
        throw std::invalid_argument("uniformBinEdges: a width of " + std::to_string(width) + " up to " +
                                    std::to_string(upTo) + " gives more than a million edges");
    }

    std::vector<double> edges;
    // Multiplying instead of adding width repeatedly keeps every edge an exact
    // multiple, without drift accumulating over the bins.
    for (std::size_t index = 0;; ++index) {
        const double edge = static_cast<double>(index) * width;
        if (edge > upTo) {
            break;
        }
        edges.push_back(edge);
    }
    return edges;
}

const std::vector<MetricDescription> &metricDescriptions()
{
    using Group = MetricGroup;
    using Style = MetricStyle;
    // key, title, short title, unit, higher is better, crowns best, summary, group, style, member
    static const std::vector<MetricDescription> descriptions = {
        {"mse", "MSE", "MSE", "MiB²", false, true, true, Group::Accuracy, Style::Significant, &RegressionMetrics::mse},
        {"rmse", "RMSE", "RMSE", "MiB", false, true, true, Group::Accuracy, Style::Significant,
         &RegressionMetrics::rmse},
        {"mae", "MAE", "MAE", "MiB", false, true, true, Group::Accuracy, Style::Significant, &RegressionMetrics::mae},
        {"r2", "R²", "R²", "", true, true, true, Group::Accuracy, Style::Score, &RegressionMetrics::r2},
        {"mape", "MAPE", "MAPE", "%", false, true, false, Group::Risk, Style::Percent, &RegressionMetrics::mape},
        {"median_rel_error", "Median relative error", "med rel", "%", false, true, false, Group::Accuracy,
         Style::Percent, &RegressionMetrics::medianRelativeError},
        {"within_10pct", "Jobs within ±10%", "±10%", "", true, true, false, Group::Accuracy, Style::Share,
         &RegressionMetrics::withinTenPercent},
        {"max_error", "Max error", "max err", "MiB", false, true, false, Group::Risk, Style::Significant,
         &RegressionMetrics::maxError},
        {"p95_error", "95th-percentile error", "p95 err", "MiB", false, true, false, Group::Risk, Style::Significant,
         &RegressionMetrics::p95Error},
        {"under_rate", "Under-prediction rate", "under", "", false, false, true, Group::Risk, Style::Share,
         &RegressionMetrics::underRate},
        {"over_alloc", "Mean over-allocation", "over", "MiB", false, false, false, Group::Risk, Style::Significant,
         &RegressionMetrics::overAllocation},
    };
    return descriptions;
}

const MetricDescription &metricDescription(const std::string &key)
{
    for (const auto &description : metricDescriptions())
        if (key == description.key)
            return description;
    throw std::invalid_argument("unknown metric '" + key + "'");
}

std::string formatMetric(const MetricDescription &metric, double value)
{
    if (std::isnan(value))
        return "n/a";
    switch (metric.style) {
    case MetricStyle::Score: return fmt::format("{:.5f}", value);
    case MetricStyle::Share: return fmt::format("{:.1f}%", 100.0 * value);
    case MetricStyle::Percent: return fmt::format("{:.2f}%", value);
    case MetricStyle::Significant: break;
    }
    return formatSignificant(value, 4);
}

std::string formatSignificant(double value, int digits)
{
    if (std::isnan(value))
        return "n/a";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == 0.0)
        return "0";
    const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(value))));
    if (magnitude >= 12 || magnitude < -6)
        return fmt::format("{:.{}g}", value, digits);
    return fmt::format("{:.{}f}", value, std::max(0, digits - 1 - magnitude));
}

RegressionMetrics filledMetrics(double value)
{
    RegressionMetrics metrics;
    for (const auto &metric : metricDescriptions())
        metrics.*metric.member = value;
    return metrics;
}

} // namespace gpumem::evaluation
