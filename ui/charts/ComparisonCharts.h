// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <Eigen/Core>
#include <QString>

#include <vector>

class QBarSet;
class QChart;
class QValueAxis;

namespace gpumem::ui {

// Gives a chart of the Compare page its bold title, no animation and narrow margins.
void styleChart(QChart *chart, const QString &title);

// Gives axis tick labels as plain numbers with as many decimals as the step between ticks
// needs ("10000", "0.25"), not "1e+04"; only values past a billion keep an exponent.
void labelTicksPlainly(QValueAxis *axis);

// Puts x below and y left of chart's plot and draws every series chart holds against both.
void attachValueAxes(QChart *chart, QValueAxis *x, QValueAxis *y);

// One bar of a horizontal bar chart: its category (named left of it), its length and, with
// whisker, an error bar from low to high.
struct HorizontalBar
{
    QString category;
    double value;
    bool whisker;
    double low;
    double high;
};

// Adds a bar of set per entry of bars to chart, the first on top, against a category axis at
// the left and values (ranged and titled by the caller) at the bottom.
void addHorizontalBars(QChart *chart, QBarSet *set, const std::vector<HorizontalBar> &bars, QValueAxis *values);

// The metrics charted per comparison: the headline ones of evaluation::metricDescriptions().
std::vector<const evaluation::MetricDescription *> chartedMetrics();

// Returns the title with an arrow saying which way is better, e.g. "RMSE (MiB) ↓ lower is better".
QString metricHeading(const evaluation::MetricDescription &metric);

// Returns a horizontal bar chart of one metric: one bar per model (its mean over folds) with
// an error bar of ± one standard deviation over folds. The caller owns the chart.
QChart *metricBarChart(const evaluation::ExperimentResult &result, const evaluation::MetricDescription &metric);

// Returns a scatter chart of predicted against actual memory for one model's
// out-of-fold predictions, with the line y = x and dashed lines at common GPU
// capacities (16, 24, 40, 80 GiB) that fall inside the range. Rows never tested
// (NaN) are left out; above maxPoints rows an even subsample is drawn.
QChart *predictedVsActualChart(const QString &title, const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted,
                               int maxPoints = 4000);

// Returns a histogram of residuals (predicted − actual, MiB) of one model; the
// bars left of zero are under-predictions. The axis reaches the 98th percentile of the
// residuals' size; the few beyond it count in the outermost bars.
QChart *residualHistogramChart(const QString &title, const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted);

// Returns the trade-off between out-of-memory risk (under-prediction rate, %) and
// wasted memory (mean over-allocation, MiB) of each calibrated model: its curve
// as the margin grows, a marker at coverage and one at the "+10%" rule. Models
// without a bound are left out. The caller owns the chart.
QChart *boundCurveChart(const evaluation::ExperimentResult &result, double coverage);

} // namespace gpumem::ui
