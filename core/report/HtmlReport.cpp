// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report as one self-contained HTML page: the tables of the
// Markdown report plus SVG charts (a bar chart per metric with fold error bars,
// predicted against actual per model), readable offline and printable.
#include "report/ComparisonReport.h"

#include "evaluation/Ranking.h"
#include "report/ReportText.h"
#include "report/SvgCharts.h"
#include "runtime/LibraryVersions.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>

namespace gpumem::report {

namespace {

constexpr const char *styleSheet = R"(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.5em 0; } th, td { padding: 0.3em 0.8em; border-bottom: 1px solid #e5e5e5; }
td.number { text-align: right; font-variant-numeric: tabular-nums; } th { text-align: left; background: #f6f6f6; }
td.significance { text-align: right; }
td.best { font-weight: bold; background: #e8f4ea; } .note { color: #555; font-size: 0.9em; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr)); gap: 1em; }
.chart { width: 100%; height: auto; border: 1px solid #eee; }
)";

// Qt's rich text knows a subset of CSS 2: no grids, widths on tables only.
constexpr const char *printStyleSheet = R"(
body { font-family: sans-serif; color: #222; } h1 { font-size: 16pt; } h2 { font-size: 13pt; margin-top: 14pt; }
table { border-collapse: collapse; width: 100%; } th, td { padding: 1pt 3pt; border-bottom: 1px solid #ccc; }
th { text-align: left; background: #f0f0f0; font-size: 7pt; } td { font-size: 8pt; }
td.number { text-align: right; white-space: nowrap; } td.significance { text-align: right; } code { font-size: 8pt; }
td.best { font-weight: bold; background: #e8f4ea; } .note { color: #555; font-size: 8pt; }
table.charts { margin: 0; } table.charts td { border: none; text-align: center; vertical-align: top; }
)";

std::string dateToday()
{
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::tm parts{};
    gmtime_r(&now, &parts);
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &parts);
    return text;
}

// Opens a table with a row of column titles. On paper the columns get fixed shares of
// the page (the models' names a wider one), so that Qt's layout wraps each title at its
// spaces and hyphens instead of squeezing a column below its words.
void writeTableHead(std::ostream &out, const std::vector<std::string> &titles, bool printable)
{
    constexpr int firstShare = 16;
    out << "<table><tr>";
    for (std::size_t column = 0; column < titles.size(); ++column) {
        out << "<th";
        if (printable && titles.size() > 2) {
            const int share = column == 0 ? firstShare : (100 - firstShare) / static_cast<int>(titles.size() - 1);
            out << " width='" << share << "%'";
        }
        out << '>' << htmlEscaped(titles[column]) << "</th>";
    }
    out << "</tr>\n";
}

// One table of the metrics of group; the accuracy table also gives time and significance.
void writeMetricsTable(std::ostream &out, const evaluation::ExperimentResult &result, evaluation::MetricGroup group,
                       bool printable)
{
    const bool folds = result.splits.size() > 1;
    const bool accuracy = group == evaluation::MetricGroup::Accuracy;
    std::vector<std::string> titles{"Model"};
    for (const auto &metric : evaluation::metricDescriptions())
        if (metric.group == group)
            titles.push_back(std::string(metric.title) +
                             (std::string(metric.unit).empty() ? "" : " (" + std::string(metric.unit) + ")"));
    if (accuracy) {
        titles.emplace_back("Train (s)");
        titles.emplace_back("p against best");
    }
    writeTableHead(out, titles, printable);
    for (const auto &model : result.models) {
        out << "<tr><td>" << htmlEscaped(model.title) << "</td>";
        for (const auto &metric : evaluation::metricDescriptions()) {
            if (metric.group != group)
                continue;
            out << "<td class='number" << (evaluation::isBestModel(result, model, metric) ? " best" : "") << "'>"
                << formatMetric(metric, model.mean.*metric.member);
            // On paper the spread goes below the mean, so that the table keeps within the page.
            if (folds)
                out << (printable ? "<br>" : " ") << "<span class='note'>± "
                    << formatMetric(metric, model.standardDeviation.*metric.member) << "</span>";
            out << "</td>";
        }
        if (accuracy) {
            // The significance cell may hold words ("needs ≥ 5 folds"): it wraps, where numbers do not.
            out << "<td class='number'>" << formatSignificant(model.trainSeconds, 3)
                << "</td><td class='significance'>";
            out << htmlEscaped(significanceText(result, model.name));
            out << "</td>";
        }
        out << "</tr>\n";
    }
    out << "</table>\n";
}

// Lays charts out: a CSS grid on screen; on paper, each row of charts is a table of its
// own with the captions in the charts' cells, so that a paginator can keep a row whole.
class ChartGrid
{
  public:
    ChartGrid(std::ostream &out, const HtmlReportOptions &options)
        : mOut(out)
        , mOptions(options)
        , mColumns(std::max(1, options.chartsPerRow))
    {
        if (!mOptions.printable)
            mOut << "<div class='charts' style='grid-template-columns: repeat(auto-fill, minmax(min("
                 << mOptions.chartMinWidth << "px, 100%), 1fr))'>\n";
    }
    ~ChartGrid()
    {
        if (!mOptions.printable) {
            mOut << "</div>\n";
            return;
        }
        if (mCount % mColumns == 0)
            return;
        for (int empty = mCount % mColumns; empty < mColumns; ++empty)
            mOut << "<td></td>";
        mOut << "</tr></table>\n";
    }
    void add(const ReportChart &chart, const std::string &svg)
    {
        const std::string html = mOptions.renderChart ? mOptions.renderChart(chart, svg) : svg;
        if (!mOptions.printable) {
            mOut << html << '\n';
            return;
        }
        if (mCount % mColumns == 0)
            mOut << "<table class='charts' width='100%'><tr>";
        mOut << "<td width='" << 100 / mColumns << "%'>" << html << "<br><span class='note'>"
             << htmlEscaped(chart.caption) << "</span></td>";
        if (++mCount % mColumns == 0)
            mOut << "</tr></table>\n";
    }

  private:
    std::ostream &mOut;
    const HtmlReportOptions &mOptions;
    int mColumns;
    int mCount = 0;
};

// The calibrated bound's table and its risk-versus-waste chart (with --coverage only).
void writeBoundSection(std::ostream &out, const evaluation::ExperimentResult &result, const HtmlReportOptions &options)
{
    out << "<h2>" << htmlEscaped(boundTitle(result.calibration->coverage)) << "</h2>\n";
    std::vector<std::string> titles{"Model"};
    for (const auto &column : boundColumns())
        titles.emplace_back(column.title);
    writeTableHead(out, titles, options.printable);
    for (const auto &model : result.models) {
        if (!model.bound)
            continue;
        out << "<tr><td>" << htmlEscaped(model.title) << "</td>";
        for (const auto &column : boundColumns())
            out << "<td class='number'>" << htmlEscaped(column.cell(*model.bound)) << "</td>";
        out << "</tr>\n";
    }
    out << "</table>\n<p class='note'>" << htmlEscaped(describeBound(*result.calibration, result.splits.size() > 1))
        << "</p>\n";
    std::vector<Curve> curves;
    for (const auto &model : result.models) {
        if (!model.bound)
            continue;
        Curve curve;
        curve.label = model.title;
        for (const auto &point : model.bound->curve) {
            curve.x.push_back(point.meanOverAllocation);
            curve.y.push_back(100.0 * point.underPredictionRate);
        }
        curve.markerX = model.bound->bound.meanOverAllocation;
        curve.markerY = 100.0 * model.bound->bound.underPredictionRate;
        curve.referenceX = model.bound->fixedHeadroom.meanOverAllocation;
        curve.referenceY = 100.0 * model.bound->fixedHeadroom.underPredictionRate;
        curves.push_back(std::move(curve));
    }
    out << "<p class='note'>Each curve sweeps the margin from none (the point prediction) to the largest "
           "calibration score, on the test rows. Filled circle: the bound at the chosen coverage; open "
           "square: the best fixed headroom.</p>\n";
    ChartGrid grid(out, options);
    grid.add({"bound_curves", "Out-of-memory risk vs wasted memory"},
             svgLineChart("Out-of-memory risk vs wasted memory", "mean over-allocation (MiB)",
                          "under-prediction rate (%)", curves));
}

} // namespace

void writeHtmlReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result,
                     const HtmlReportOptions &options)
{
    out << "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>Model comparison: "
        << htmlEscaped(context.dataset) << "</title><style>" << (options.printable ? printStyleSheet : styleSheet)
        << "</style></head><body>\n";
    out << "<h1>Peak GPU memory: model comparison</h1>\n<p>Data <code>" << htmlEscaped(context.dataset)
        << "</code>, target <code>" << htmlEscaped(context.target) << "</code>, " << context.rows << " rows, "
        << htmlEscaped(describeSplitting(context)) << ". Best model by RMSE: <b>"
        << htmlEscaped(result.best.empty() ? "none" : result.best) << "</b>.</p>\n";
    if (result.cancelled)
        out << "<p><b>The run was cancelled: only the models that finished every split are shown.</b></p>\n";

    for (const auto &failure : result.failures)
        out << "<p><b>" << htmlEscaped(failure.model) << " failed:</b> " << htmlEscaped(failure.message) << "</p>\n";
    out << "<h2>Metrics</h2>\n";
    writeMetricsTable(out, result, evaluation::MetricGroup::Accuracy, options.printable);
    out << "<p class='note'>"
        << (result.repeats > 1 ? "Means ± standard deviation over every fold of " + std::to_string(result.repeats) +
                                     " repetitions, each with its own folds and training seed; train time summed "
                                     "over the fits. "
            : result.splits.size() > 1 ? std::string("Means ± standard deviation over the folds; train "
                                                     "time summed over the folds. ")
                                       : std::string())
        << "Bold: the best value of each column. "
        << (result.repeats > 1
                ? "p: two-sided corrected repeated k-fold t-test (Nadeau and Bengio) against the best model, which "
                  "allows for the training rows the repetitions share"
                : "p: two-sided paired test against the best model (t-test over fewer than 6 folds, where the "
                  "Wilcoxon signed-rank test cannot reach 0.05; both are in the JSON report)")
        << "; * p &lt; 0.05.</p>\n";
    out << "<h2>Out-of-memory risk</h2>\n";
    writeMetricsTable(out, result, evaluation::MetricGroup::Risk, options.printable);
    out << "<p class='note'>Under-prediction rate: the share of jobs predicted below their real peak (a scheduler "
           "trusting the prediction would crash them). Mean over-allocation: memory reserved beyond the need, per "
           "job. No value is crowned here: fewer misses alone can mean memory wasted.</p>\n";

    if (result.calibration)
        writeBoundSection(out, result, options);

    out << "<h2>Charts</h2>\n";
    {
        ChartGrid grid(out, options);
        for (const auto &metric : evaluation::metricDescriptions()) {
            if (!metric.summary)
                continue;
            std::vector<Bar> bars;
            for (const auto &model : result.models)
                bars.push_back({model.title, model.mean.*metric.member,
                                result.splits.size() > 1 ? model.standardDeviation.*metric.member : 0.0,
                                model.name == result.best});
            grid.add({std::string("metric_") + metric.key, metric.title},
                     svgBarChart(metric.title, metric.unit, metric.higherIsBetter, bars));
        }
    }
    // The charts may be the workbench's, drawn in other colours: the note names no colour, each chart keys its own.
    out << "<h2>Predicted against actual</h2>\n<p class='note'>Each test row's prediction from the fold "
           "that held it out; points below the diagonal y = x are under-predictions (an out-of-memory "
           "risk).</p>\n";
    {
        ChartGrid grid(out, options);
        for (const auto &model : result.models) {
            std::vector<double> actual;
            std::vector<double> predicted;
            for (Eigen::Index row = 0; row < model.predictions.size() && row < result.actual.size(); ++row) {
                if (std::isnan(model.predictions[row]))
                    continue;
                actual.push_back(result.actual[row]);
                predicted.push_back(model.predictions[row]);
            }
            grid.add({"scatter_" + model.name, model.title + ": predicted against actual"},
                     svgScatterPlot(model.title, actual, predicted));
        }
    }
    out << "<h2>Worst under-predictions</h2>\n<p class='note'>The jobs each model predicted furthest below their "
           "real peak, out of fold.</p>\n";
    writeTableHead(out, {"Model", "Job", "Actual (MiB)", "Predicted (MiB)", "Shortfall (MiB)"}, options.printable);
    for (const auto &under : evaluation::worstUnderPredictions(result, reportedUnderPredictions))
        out << "<tr><td>" << htmlEscaped(result.models[under.model].title) << "</td><td>"
            << htmlEscaped(jobName(context, under.row)) << "</td><td class='number'>"
            << formatSignificant(under.actual, 5) << "</td><td class='number'>" << formatSignificant(under.predicted, 5)
            << "</td><td class='number'>" << formatSignificant(under.shortfall(), 4) << "</td></tr>\n";
    out << "</table>\n";

    out << "<h2>Hyperparameters</h2>\n";
    for (const auto &model : result.models) {
        out << "<p><b>" << htmlEscaped(model.title) << "</b>:";
        for (const auto &spec : model.hyperparameters.specs())
            out << " <code>" << htmlEscaped(spec.name + "=" + model.hyperparameters.text(spec.name)) << "</code>";
        out << "</p>\n";
    }
    out << "<h2>Environment</h2>\n<table>\n<tr><th>Features</th><td>";
    for (std::size_t i = 0; i < context.features.size(); ++i)
        out << (i ? ", " : "") << htmlEscaped(context.features[i]);
    out << "</td></tr>\n";
    for (const auto &[name, version] : runtime::libraryVersions().entries())
        out << "<tr><th>" << htmlEscaped(name) << "</th><td>" << htmlEscaped(version) << "</td></tr>\n";
    out << "<tr><th>Created</th><td>" << dateToday() << "</td></tr>\n</table>\n</body></html>\n";
}

} // namespace gpumem::report
