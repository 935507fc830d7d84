// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gpumem::evaluation {

// Scores of predicted against actual peak GPU memory over a set of jobs. Values
// are in MiB (squared MiB for mse) unless stated otherwise. A plain value type:
// copies may be read from any thread.
struct RegressionMetrics
{
    double mse = 0.0;  // Mean squared error, MiB².
    double rmse = 0.0; // Square root of mse, MiB.
    double mae = 0.0;  // Mean absolute error, MiB.
    double r2 = 0.0;   // Coefficient of determination, unitless (1 is perfect, may be negative).
    double mape =
        0.0; // Mean absolute percentage error in percent, over rows whose actual value is not 0; NaN if there are none.
    // Median of |error| / actual in percent, over rows whose actual value is not 0; NaN if there are none.
    // Where peaks span orders of magnitude, RMSE speaks of the large jobs only; this speaks of the typical one.
    double medianRelativeError = 0.0;
    double withinTenPercent = 0.0; // Share (0..1) of rows with |error| ≤ 10% of the actual value.
    double maxError = 0.0;         // Largest absolute error, MiB.
    double p95Error = 0.0;         // 95th percentile of the absolute errors (linear interpolation), MiB.
    double underRate = 0.0;        // Share (0..1) of rows predicted below the actual value: the out-of-memory risk.
    double overAllocation = 0.0;   // Mean over all rows of max(predicted - actual, 0): MiB reserved beyond need.
};

// Which table a metric belongs to: the paper's accuracy table or the scheduler's
// view of the out-of-memory risk.
enum class MetricGroup
{
    Accuracy,
    Risk,
};

// How a metric's value is written for people.
enum class MetricStyle
{
    Significant, // 4 significant digits, e.g. "18.95", "359.1"
    Score,       // 5 decimals, e.g. "0.99812" (R²)
    Share,       // a 0..1 share as a percentage with one decimal, e.g. "47.2%"
    Percent,     // a value already in percent, two decimals, e.g. "3.14%"
};

// The one description of a metric of RegressionMetrics. Everything that computes
// means over folds, fills in missing values, prints, charts, saves or reads
// metrics loops over metricDescriptions(), so adding a metric means adding a
// member, its computation and its description here, and nothing else.
struct MetricDescription
{
    const char *key;        // the report key, e.g. "under_rate"
    const char *title;      // for people, e.g. "Under-prediction rate"
    const char *shortTitle; // for narrow table columns, e.g. "under"
    const char *unit;       // e.g. "MiB", "MiB²", "%" (empty when unitless)
    bool higherIsBetter;    // true for R² and the share within ±10%
    // Whether the best model on this metric is highlighted. Not for the risk
    // metrics: a lower under-prediction rate alone can mean memory wasted.
    bool crownsBest;
    bool summary; // one of the headline metrics: the command line's table and the charts
    MetricGroup group;
    MetricStyle style;
    double RegressionMetrics::*member;
};

// Returns every metric in report order: mse, rmse, mae, r2, mape, median_rel_error,
// within_10pct, max_error, p95_error, under_rate, over_alloc. Thread-safe.
const std::vector<MetricDescription> &metricDescriptions();

// Returns the description of key; throws std::invalid_argument for an unknown key.
const MetricDescription &metricDescription(const std::string &key);

// Returns value as metric's style writes it, e.g. "18.95", "0.99812", "47.2%"; NaN gives "n/a".
std::string formatMetric(const MetricDescription &metric, double value);

// Returns value rounded to digits significant digits, without an exponent for
// everyday magnitudes (e.g. 0.0123, 1234); NaN gives "n/a".
std::string formatSignificant(double value, int digits);

// Returns metrics with every member set to value (e.g. NaN for a model that produced no result).
RegressionMetrics filledMetrics(double value);

// Computes the regression metrics of predicted against actual (same length, in MiB).
// When all actual values are equal, r2 is 1 for a perfect prediction and 0 otherwise,
// as scikit-learn does. NaN inputs propagate into the results. Throws
// std::invalid_argument when the vectors are empty or differ in length.
// Thread-safe: a pure function of its arguments.
RegressionMetrics computeMetrics(const Eigen::Ref<const Eigen::VectorXd> &actual,
                                 const Eigen::Ref<const Eigen::VectorXd> &predicted);

// Returns the share (0..1) of rows whose predicted value falls into the same bin
// as the actual value. binEdges e0 < e1 < … < eN split the line into the bins
// (-inf, e0), [e0, e1), …, [eN, +inf); no edges means one bin, so the result is 1.
// A row with a NaN value counts as a miss. Throws std::invalid_argument when the
// vectors are empty or differ in length, or when the edges are not finite and
// strictly ascending. Thread-safe: a pure function of its arguments.
double binAccuracy(const Eigen::Ref<const Eigen::VectorXd> &actual, const Eigen::Ref<const Eigen::VectorXd> &predicted,
                   const std::vector<double> &binEdges);

// Returns the bin edges 0, width, 2·width, … up to the last multiple of width that
// is ≤ upTo (all in MiB), e.g. uniformBinEdges(1000, 4000) gives the 1000-MiB bins of
// the GPUMemNet study. Throws std::invalid_argument when width is not positive and
// finite, upTo is negative or not finite, or more than a million edges would result.
// Thread-safe: a pure function of its arguments.
std::vector<double> uniformBinEdges(double width, double upTo);

} // namespace gpumem::evaluation
