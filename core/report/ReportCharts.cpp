// SPDX-License-Identifier: GPL-3.0-or-later
// The charts of the HTML and PDF reports, drawn from the result alone so that the
// command line and the workbench's exports show the same figures.
#include "report/ComparisonReport.h"

#include "report/ReportText.h"
#include "report/ResidualHistogram.h"
#include "report/SvgCharts.h"

#include <cmath>

namespace gpumem::report {

namespace {

// R² of good models sits at 0.99 and more, where bars from zero all reach the top:
// the unexplained share 1 − R² shows their differences on a logarithmic axis.
bool drawnAsUnexplainedShare(const evaluation::MetricDescription &metric)
{
    return metric.style == evaluation::MetricStyle::Score;
}

ReportDrawing metricChart(const evaluation::ExperimentResult &result, const evaluation::MetricDescription &metric)
{
    const bool folds = result.splits.size() > 1;
    const bool unexplained = drawnAsUnexplainedShare(metric);
    // Shares (0..1) are drawn in percent, as the tables write them.
    const bool share = metric.style == evaluation::MetricStyle::Share;
    const double scale = share ? 100.0 : 1.0;
    std::vector<Bar> bars;
    for (const auto &model : result.models) {
        const double mean = model.mean.*metric.member;
        const double spread = folds ? model.standardDeviation.*metric.member : 0.0;
        // Each bar is labelled with its value as the tables write it (an R² bar with its R², not 1 − R²).
        bars.push_back({model.title, unexplained ? 1.0 - mean : scale * mean, scale * spread, model.name == result.best,
                        std::isnan(mean) ? std::string() : formatMetric(metric, mean)});
    }
    const std::string key = metric.key;
    if (unexplained)
        return {
            {"metric_" + key, std::string(metric.title) + ", drawn as 1 − " + metric.title +
                                  " on a log scale (labels: " + metric.title + ")"},
            svgBarChart(std::string("1 − ") + metric.title + " (log scale)", "", false, bars, BarScale::Logarithmic)};
    return {{"metric_" + key, metric.title},
            svgBarChart(metric.title, share ? "%" : metric.unit, metric.higherIsBetter, bars)};
}

// The rows a model predicted out of fold: actual and predicted, both finite.
void testedRows(const evaluation::ExperimentResult &result, const evaluation::ModelResult &model,
                std::vector<double> &actual, std::vector<double> &predicted)
{
    for (Eigen::Index row = 0; row < model.predictions.size() && row < result.actual.size(); ++row) {
        if (std::isnan(model.predictions[row]))
            continue;
        actual.push_back(result.actual[row]);
        predicted.push_back(model.predictions[row]);
    }
}

} // namespace

std::vector<ReportDrawing> metricCharts(const evaluation::ExperimentResult &result)
{
    std::vector<ReportDrawing> charts;
    for (const auto &metric : evaluation::metricDescriptions())
        if (metric.summary)
            charts.push_back(metricChart(result, metric));
    return charts;
}

std::vector<ReportDrawing> scatterCharts(const evaluation::ExperimentResult &result)
{
    std::vector<ReportDrawing> charts;
    for (const auto &model : result.models) {
        std::vector<double> actual;
        std::vector<double> predicted;
        testedRows(result, model, actual, predicted);
        charts.push_back({{"scatter_" + model.name, model.title + ": predicted against actual"},
                          svgScatterPlot(model.title, actual, predicted)});
    }
    return charts;
}

std::vector<ReportDrawing> residualCharts(const evaluation::ExperimentResult &result)
{
    std::vector<ReportDrawing> charts;
    for (const auto &model : result.models) {
        const Eigen::Index rows = std::min(model.predictions.size(), result.actual.size());
        const ResidualHistogram histogram = residualHistogram(result.actual.head(rows), model.predictions.head(rows));
        charts.push_back({{"residuals_" + model.name, model.title + ": residuals (predicted − actual)"},
                          svgResidualHistogram(model.title, histogram)});
    }
    return charts;
}

} // namespace gpumem::report
